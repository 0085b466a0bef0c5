package tsgen

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/interopio/code-mode/internal/trunc"
)

func TestSignature(t *testing.T) {
	tests := []struct {
		name      string
		tool      string
		desc      string
		in, out   string
		want      string
		wantParts []string // used instead of want when the exact text is not the point
	}{
		{
			name: "example from the brief",
			tool: "orders.search",
			desc: "Search orders by status.",
			in: `{"type":"object","properties":{
				"status":{"type":"string","enum":["open","shipped"],"description":"Order status."},
				"limit":{"type":"integer"}},"required":["limit"]}`,
			out: `{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"total":{"type":"number"}},"required":["id","total"]}}`,
			want: `/** Search orders by status. */
tools.orders.search(input: {
  /** Order status. */
  status?: "open" | "shipped";
  limit: number /* integer */;
}): Promise<{ id: string; total: number }[]>;`,
		},
		{
			name: "no schemas",
			tool: "ping",
			want: `tools.ping(input?: unknown): Promise<unknown>;`,
		},
		{
			name: "names that are not identifiers are quoted",
			tool: "files.get-item",
			in:   `{"type":"object","properties":{"first-name":{"type":"string"},"$ok":{"type":"boolean"},"2fa":{"type":"boolean"}}}`,
			want: `tools.files["get-item"](input: { "first-name"?: string; $ok?: boolean; "2fa"?: boolean }): Promise<unknown>;`,
		},
		{
			name: "leading digit namespace",
			tool: "3d.render",
			want: `tools["3d"].render(input?: unknown): Promise<unknown>;`,
		},
		{
			name: "index signature beside properties",
			tool: "t",
			in:   `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":{"type":"number"}}`,
			want: `tools.t(input: { id: string; [key: string]: number }): Promise<unknown>;`,
		},
		{
			name: "map, closed empty object, open object",
			tool: "t",
			in:   `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"integer"}},"e":{"type":"object","properties":{},"additionalProperties":false},"o":{"type":"object"}},"required":["m","e","o"]}`,
			want: `tools.t(input: { m: Record<string, number /* integer */>; e: {}; o: Record<string, unknown> }): Promise<unknown>;`,
		},
		{
			name: "tuples: prefixItems, closed, open rest, draft-07 items array",
			tool: "t",
			in: `{"type":"object","properties":{
				"a":{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}]},
				"b":{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"boolean"}},
				"c":{"type":"array","items":[{"type":"integer"}],"additionalItems":{"type":"string"}},
				"d":{"type":"array","items":[{"type":"integer"}],"additionalItems":false},
				"e":{"type":"array"}},"required":["a","b","c","d","e"]}`,
			want: `tools.t(input: {
  a: [string, number];
  b: [string, ...boolean[]];
  c: [number /* integer */, ...string[]];
  d: [number /* integer */];
  e: unknown[];
}): Promise<unknown>;`,
		},
		{
			name: "enum and const literals",
			tool: "t",
			in:   `{"type":"object","properties":{"e":{"enum":["a<b",1.5,null,true]},"c":{"const":"fixed"},"o":{"const":{"k":[1,"x"]}}},"required":["e","c","o"]}`,
			want: `tools.t(input: { e: "a<b" | 1.5 | null | true; c: "fixed"; o: {"k":[1,"x"]} }): Promise<unknown>;`,
		},
		{
			name: "unions, intersections and nullability",
			tool: "t",
			in: `{"type":"object","properties":{
				"a":{"anyOf":[{"type":"string"},{"type":"integer"}]},
				"b":{"oneOf":[{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]},{"type":"null"}]},
				"c":{"allOf":[{"type":"object","properties":{"x":{"type":"string"}}},{"anyOf":[{"type":"object","properties":{"y":{"type":"number"}}},{"type":"object","properties":{"z":{"type":"number"}}}]}]},
				"d":{"type":["string","null"]},
				"e":{"type":"string","nullable":true},
				"f":{"enum":["x","y"],"nullable":true},
				"g":{"type":"array","items":{"type":["string","number"]}},
				"h":{"type":"object","properties":{"a":{"type":"string"}},"oneOf":[{"required":["a"]},{"required":["b"]}]}
				},"required":["a","b","c","d","e","f","g","h"]}`,
			want: `tools.t(input: {
  a: string | number /* integer */;
  b: { x: string } | null;
  c: { x?: string } & ({ y?: number } | { z?: number });
  d: string | null;
  e: string | null;
  f: "x" | "y" | null;
  g: (string | number)[];
  h: { a?: string };
}): Promise<unknown>;`,
		},
		{
			// Catalogs list required names no property describes; the
			// validator still requires them, so the signature must say so.
			name: "required names without a property",
			tool: "t",
			in:   `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","zz","with space","zz"]}`,
			want: `tools.t(input: { a: string; zz: unknown; "with space": unknown }): Promise<unknown>;`,
		},
		{
			name: "required names without a property take the index type",
			tool: "t",
			in:   `{"type":"object","additionalProperties":{"type":"integer"},"required":["n"]}`,
			want: `tools.t(input: { n: number /* integer */; [key: string]: number /* integer */ }): Promise<unknown>;`,
		},
		{
			// OpenAPI 3.0's nullable counts beside a type or an enum, where
			// the validator reads it (schemanullable.go), not beside $ref.
			name: "nullable beside a $ref alone",
			tool: "t",
			in:   `{"$defs":{"d":{"type":"number"}},"type":"object","properties":{"r":{"$ref":"#/$defs/d","nullable":true}}}`,
			want: `tools.t(input: { r?: number }): Promise<unknown>;`,
		},
		{
			name: "a reference to an $anchor",
			tool: "t",
			in:   `{"$defs":{"id":{"$anchor":"userId","type":"string"},"node":{"$anchor":"node","type":"object","properties":{"next":{"$ref":"#node"}}}},"type":"object","properties":{"a":{"$ref":"#userId"},"n":{"$ref":"#node"},"x":{"$ref":"#nowhere"}}}`,
			want: `type Node = { next?: Node };
tools.t(input: { a?: string; n?: Node; x?: unknown }): Promise<unknown>;`,
		},
		{
			name: "refs to $defs and definitions are inlined",
			tool: "t",
			in: `{"$defs":{"Money":{"type":"object","description":"An amount.","properties":{"amount":{"type":"number"},"currency":{"type":"string"}},"required":["amount","currency"]}},
				"definitions":{"Id":{"type":"string"}},
				"type":"object","properties":{"price":{"$ref":"#/$defs/Money"},"id":{"$ref":"#/definitions/Id"},"x":{"$ref":"#/$defs/Missing"}},"required":["price","id"]}`,
			want: `tools.t(input: {
  /** An amount. */
  price: { amount: number; currency: string };
  id: string;
  x?: unknown;
}): Promise<unknown>;`,
		},
		{
			name: "self-recursive def becomes a named type",
			tool: "tree.walk",
			in:   `{"type":"object","properties":{"root":{"$ref":"#/$defs/node"}},"required":["root"],"$defs":{"node":{"type":"object","properties":{"value":{"type":"number"},"children":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["value"]}}}`,
			want: `type Node = { value: number; children?: Node[] };
tools.tree.walk(input: { root: Node }): Promise<unknown>;`,
		},
		{
			name: "root recursion and mutual recursion terminate",
			tool: "t",
			in:   `{"type":"object","properties":{"next":{"$ref":"#"},"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"type":"object","properties":{"b":{"$ref":"#/$defs/B"}}},"B":{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}}}}}`,
			want: `type A = { b?: { a?: A } };
type Input = { next?: Input; a?: A };
tools.t(input: Input): Promise<unknown>;`,
		},
		{
			name: "input and output defs with the same name stay distinct",
			tool: "t",
			in:   `{"$ref":"#/$defs/N","$defs":{"N":{"type":"object","properties":{"n":{"$ref":"#/$defs/N"}}}}}`,
			out:  `{"$ref":"#/$defs/N","$defs":{"N":{"type":"array","items":{"$ref":"#/$defs/N"}}}}`,
			want: `type N = { n?: N };
type N2 = N2[];
tools.t(input: N): Promise<N2>;`,
		},
		{
			name: "descriptions: defaults, escaping, multi-line tool text, formats",
			tool: "t",
			desc: "First line.\n\nSecond */ line.",
			in:   `{"type":"object","properties":{"when":{"type":"string","format":"date-time","description":"  Start\n time */ "},"n":{"type":"integer","default":10,"description":"Page size"}}}`,
			want: `/**
 * First line.
 *
 * Second *\/ line.
 */
tools.t(input: {
  /** Start time *\/ */
  when?: string /* date-time */;
  /** Page size. Default: 10. */
  n?: number /* integer */;
}): Promise<unknown>;`,
		},
		{
			// A model that read only number sent limit: 500 to a tool with
			// maximum 100: an input's bounds follow its type. An output's are
			// no call's to keep, and are not shown.
			name: "an input's limits follow its type; an output's do not",
			tool: "t",
			in: `{"type":"object","properties":{
				"limit":{"type":"integer","minimum":1,"maximum":100},
				"page":{"type":"integer","minimum":0},
				"ratio":{"type":"number","exclusiveMinimum":0,"maximum":1},
				"big":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807},
				"name":{"type":"string","minLength":1,"maxLength":64},
				"nonEmpty":{"type":"string","minLength":1},
				"country":{"type":"string","minLength":2,"maxLength":2},
				"code":{"type":"string","pattern":"^[A-Z]{3}$","minLength":3},
				"odd":{"type":"string","pattern":"a*/b","format":"x */ y"},
				"long":{"type":"string","pattern":"^(?:[a-z0-9]+(?:-[a-z0-9]+)*\\.)+[a-z]{2,63}$"},
				"email":{"type":["string","null"],"format":"email"},
				"ids":{"type":"array","items":{"type":"string","format":"uuid"},"minItems":1,"maxItems":10},
				"tags":{"type":"array","items":{"type":"string"},"minItems":0}}}`,
			out: `{"type":"object","properties":{"n":{"type":"integer","minimum":0},"s":{"type":"string","maxLength":5}}}`,
			want: `tools.t(input: {
  limit?: number /* integer, 1..100 */;
  page?: number /* integer, >= 0 */;
  ratio?: number /* > 0, <= 1 */;
  big?: number /* integer */;
  name?: string /* length 1..64 */;
  nonEmpty?: string;
  country?: string /* length 2 */;
  code?: string /* length >= 3, pattern /^[A-Z]{3}$/ */;
  odd?: string;
  long?: string;
  email?: string /* email */ | null;
  ids?: string /* uuid */[] /* 1..10 items */;
  tags?: string[];
}): Promise<{ n?: number /* integer */; s?: string }>;`,
		},
		{
			name: "boolean exclusive bounds outside draft 4, as the validator reads them",
			tool: "t",
			in:   `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"r":{"type":"number","maximum":1,"exclusiveMaximum":true},"m":{"type":"number","exclusiveMinimum":true}}}`,
			want: `tools.t(input: { r?: number /* < 1 */; m?: number }): Promise<unknown>;`,
		},
		{
			name: "draft 4's exclusive bounds are booleans",
			tool: "t",
			in:   `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"p":{"type":"number","minimum":0,"exclusiveMinimum":true,"maximum":5,"exclusiveMaximum":false}}}`,
			want: `tools.t(input: { p?: number /* > 0, <= 5 */ }): Promise<unknown>;`,
		},
		{
			// TypeScript has no integer type: the comment tells the model
			// that 2.5 is refused; where a number is allowed too it is not.
			name: "integers are marked, in input and in a declared output",
			tool: "t",
			in: `{"type":"object","properties":{
				"a":{"type":["integer","null"]},
				"b":{"type":["integer","number"]},
				"c":{"type":"array","items":{"type":"integer"}},
				"d":{"type":"number"}},"required":["a","b","c","d"]}`,
			out:  `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`,
			want: `tools.t(input: { a: number /* integer */ | null; b: number; c: number /* integer */[]; d: number }): Promise<{ n: number /* integer */ }>;`,
		},
		{
			name: "boolean schemas",
			tool: "t",
			in:   `true`,
			out:  `false`,
			want: `tools.t(input: unknown): Promise<never>;`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in, out json.RawMessage
			if tt.in != "" {
				in = json.RawMessage(tt.in)
			}
			if tt.out != "" {
				out = json.RawMessage(tt.out)
			}
			got := Signature(tt.tool, tt.desc, in, out)
			if got != tt.want {
				t.Errorf("signature mismatch\n got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestSignatureBounded feeds schemas that would make a naive generator loop
// or explode.
func TestSignatureBounded(t *testing.T) {
	deep := strings.Repeat(`{"type":"object","properties":{"x":`, 200) + `{"type":"string"}` + strings.Repeat(`}}`, 200)
	var defs []string
	for i := 0; i < 40; i++ {
		defs = append(defs, fmt.Sprintf(`"d%d":{"type":"object","properties":{"a":{"$ref":"#/$defs/d%d"},"b":{"$ref":"#/$defs/d%d"}}}`, i, i+1, i+1))
	}
	defs = append(defs, `"d40":{"type":"string"}`)
	dag := `{"$ref":"#/$defs/d0","$defs":{` + strings.Join(defs, ",") + `}}`
	for name, in := range map[string]string{"deep": deep, "doubling DAG": dag} {
		t.Run(name, func(t *testing.T) {
			got := Signature("t", "", json.RawMessage(in), nil)
			if len(got) > 40000 {
				t.Fatalf("signature is %d chars", len(got))
			}
			if !strings.Contains(got, "unknown") {
				t.Fatalf("expected the cut-off to show as unknown:\n%s", got)
			}
		})
	}
}

// TestSignatureHostile: an MCP server's description or schema is untrusted
// and lands in every search hit and in the instruction, so its size is
// bounded, with a marker where something was left out.
func TestSignatureHostile(t *testing.T) {
	var props []string
	for i := 0; i < 20000; i++ {
		props = append(props, fmt.Sprintf(`"p%d":{"type":"string","description":"property number %d"}`, i, i))
	}
	manyProps := `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
	var vals []string
	for i := 0; i < 20000; i++ {
		vals = append(vals, fmt.Sprintf(`"value%d"`, i))
	}
	bigEnum := `{"type":"object","properties":{"v":{"enum":[` + strings.Join(vals, ",") + `]}}}`
	hugeKey := `{"type":"object","properties":{"` + strings.Repeat("k", 1<<20) + `":{"type":"string"}}}`
	tests := []struct {
		name, desc, schema string
		want               []string
	}{
		{"5 MB description", strings.Repeat("Lorem ipsum. ", 400000), `{"type":"object"}`, []string{"Lorem… */\ntools.t(input"}},
		{"20,000 properties", "", manyProps, []string{"p199?: string;", "// … and 19800 more properties\n"}},
		{"20,000 enum values", "", bigEnum, []string{`"value199" /* … and 19800 more values */`}},
		{"1 MB property name", "", hugeKey, []string{"kkk…"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Signature("t", tt.desc, json.RawMessage(tt.schema), nil)
			if len(got) > SignatureMax || tt.desc != "" && len(got) > DescriptionMax+100 {
				t.Fatalf("signature is %d bytes", len(got))
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("signature lacks %q:\n%s", w, trunc.String(got, 2000))
				}
			}
		})
	}
	if d := Description(strings.Repeat("word ", 1<<20)); len(d) > DescriptionMax || !strings.HasSuffix(d, trunc.Mark) {
		t.Errorf("Description kept %d bytes, want <= %d ending in %q", len(d), DescriptionMax, trunc.Mark)
	}
	if d := "Short and whole."; Description(d) != d {
		t.Errorf("Description(%q) = %q", d, Description(d))
	}
}

// TestSignatureOfCatalogIsCompact keeps the generated text in check for a
// realistic catalog (search's evaluation catalog): every signature
// well-formed and of bounded size.
func TestSignatureOfCatalogIsCompact(t *testing.T) {
	raw, err := os.ReadFile("../search/testdata/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	var cat []struct {
		Name         string          `json:"name"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	if err := json.Unmarshal(raw, &cat); err != nil {
		t.Fatal(err)
	}
	if len(cat) < 200 {
		t.Fatalf("catalog has %d tools, want >= 200", len(cat))
	}
	total := 0
	for _, c := range cat {
		sig := Signature(c.Name, c.Description, c.InputSchema, c.OutputSchema)
		total += len(sig)
		if !strings.Contains(sig, ToolPath(c.Name)+"(input") || !strings.HasSuffix(sig, ">;") {
			t.Errorf("malformed signature for %s:\n%s", c.Name, sig)
		}
		if strings.Count(sig, "{") != strings.Count(sig, "}") || strings.Count(sig, "(") != strings.Count(sig, ")") {
			t.Errorf("unbalanced signature for %s:\n%s", c.Name, sig)
		}
		if len(sig) > 3000 {
			t.Errorf("signature of %s is %d chars", c.Name, len(sig))
		}
	}
	t.Logf("catalog signatures: %d chars total", total)
}

// TestSignatureFollowsTheDraft: the signature shows what the validator
// enforces in the schema's draft: before 2019-09 a $ref's siblings are
// ignored (so is the OpenAPI nullable beside it), prefixItems is a tuple
// only in 2020-12 (2019-09 and older ignore it and read items), items as a
// list is their tuple, and draft-04 has no const.
func TestSignatureFollowsTheDraft(t *testing.T) {
	const d07, d04, d19 = `"$schema":"http://json-schema.org/draft-07/schema#",`, `"$schema":"http://json-schema.org/draft-04/schema#",`, `"$schema":"https://json-schema.org/draft/2019-09/schema",`
	ref := `"type":"object","properties":{"a":{"$ref":"#/definitions/s","type":"number","nullable":true}},"definitions":{"s":{"type":"string"}}}`
	tuple := `"type":"object","properties":{"a":{"prefixItems":[{"type":"string"}],"items":{"type":"number"}}}}`
	for _, tc := range []struct{ schema, want string }{
		{`{` + d07 + ref, `tools.t.x(input: { a?: string }): Promise<unknown>;`},
		{`{` + d04 + ref, `tools.t.x(input: { a?: string }): Promise<unknown>;`},
		{`{` + d19 + ref, `tools.t.x(input: { a?: string & number | null }): Promise<unknown>;`},
		{`{` + ref, `tools.t.x(input: { a?: string & number | null }): Promise<unknown>;`},
		{`{` + d19 + tuple, `tools.t.x(input: { a?: number[] }): Promise<unknown>;`},
		{`{` + d07 + tuple, `tools.t.x(input: { a?: number[] }): Promise<unknown>;`},
		{`{` + tuple, `tools.t.x(input: { a?: [string, ...number[]] }): Promise<unknown>;`},
		{`{` + d07 + `"type":"object","properties":{"a":{"items":[{"type":"string"}],"additionalItems":{"type":"number"}}}}`, `tools.t.x(input: { a?: [string, ...number[]] }): Promise<unknown>;`},
		{`{` + d04 + `"type":"object","properties":{"a":{"const":"x","type":"string"}}}`, `tools.t.x(input: { a?: string }): Promise<unknown>;`},
		{`{"type":"object","properties":{"a":{"const":"x","type":"string"}}}`, `tools.t.x(input: { a?: "x" }): Promise<unknown>;`},
	} {
		if got := Signature("t.x", "", json.RawMessage(tc.schema), nil); got != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.schema, got, tc.want)
		}
	}
}
