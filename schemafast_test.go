package codemode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/interopio/code-mode/internal/jsondec"
	"github.com/interopio/code-mode/third_party/jsonschema"
)

func decodeDoc(t *testing.T, s string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(s)))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// checkSurelyValid: where surelyValid says valid, the full validator agrees.
func checkSurelyValid(t *testing.T, name string, schema any, inst any) bool {
	t.Helper()
	_, formatAsserted := plainSchema(schema)
	sure := surelyValid(schema, inst, formatAsserted, 0)
	// Decoded only as deep as the schema reads it (check's first try), the
	// input gets the same verdict.
	if levels := readLevels(schema, 0); levels >= 0 {
		b, err := json.Marshal(inst)
		if err != nil {
			t.Fatal(err)
		}
		outline, err := jsondec.Decode(b, jsondec.Options{Numbers: true, Outline: levels + 1})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := surelyValid(schema, outline, formatAsserted, 0); got != sure {
			t.Errorf("%s: read %d levels deep, %s is surely valid: %v; read whole: %v", name, levels, b, got, sure)
		}
	}
	if !sure {
		return false
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(schemaURL, schema); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := sch.Validate(inst); err != nil {
		b, _ := json.Marshal(inst)
		t.Errorf("%s: surelyValid(%s), but the validator says %v", name, b, err)
	}
	return true
}

func TestSurelyValid(t *testing.T) {
	const obj = `{"type":"object","properties":{"a":{"type":"integer","minimum":1,"maximum":10},"b":{"type":["string","null"],"minLength":2,"maxLength":3},"c":{"enum":["x","y",true,null]},"d":{"type":"array","items":{"type":"number"},"minItems":1,"maxItems":2,"uniqueItems":true}},"required":["a"],"additionalProperties":false}`
	tests := []struct {
		schema, inst string
		want         bool // true: surely valid; false: left to the validator
	}{
		{obj, `{"a":1}`, true},
		{obj, `{"a":10,"b":"xy","c":"y","d":[1.5]}`, true},
		{obj, `{"a":5,"b":null,"c":null,"d":[7]}`, true},
		{obj, `{"a":5,"c":true}`, true},
		{obj, `{}`, false},                  // required
		{obj, `{"a":0}`, false},             // minimum
		{obj, `{"a":11}`, false},            // maximum
		{obj, `{"a":1.5}`, false},           // integer
		{obj, `{"a":2.0}`, false},           // an integer, judged by the validator
		{obj, `{"a":1,"b":"x"}`, false},     // minLength
		{obj, `{"a":1,"b":"wxyz"}`, false},  // maxLength
		{obj, `{"a":1,"b":"é€😀"}`, true},    // lengths in code points
		{obj, `{"a":1,"c":"z"}`, false},     // enum
		{obj, `{"a":1,"c":1}`, false},       // numbers in enums: the validator's
		{obj, `{"a":1,"d":[]}`, false},      // minItems
		{obj, `{"a":1,"d":[1,2,3]}`, false}, // maxItems
		{obj, `{"a":1,"d":[1,1]}`, false},   // uniqueItems: the validator's
		{obj, `{"a":1,"d":["1"]}`, false},   // items
		{obj, `{"a":1,"e":1}`, false},       // additionalProperties
		{obj, `[]`, false},                  // type
		{obj, `null`, false},
		{`{"properties":{"a":{"type":"string"}}}`, `5`, true}, // object keywords ignore non-objects
		{`{"additionalProperties":{"type":"string"},"properties":{"n":{"type":"number"}}}`, `{"n":1,"s":"x"}`, true},
		{`{"additionalProperties":{"type":"string"}}`, `{"s":1}`, false},
		{`{"propertyNames":{"type":"string"},"additionalProperties":{}}`, `{"a":1,"b":[]}`, true}, // zod's record
		{`{"propertyNames":{"maxLength":2}}`, `{"ab":1}`, true},
		{`{"propertyNames":{"maxLength":2}}`, `{"abc":1}`, false},
		{`{"propertyNames":{"enum":["a","b"]}}`, `{"c":1}`, false},
		{`{"propertyNames":{"type":"number"}}`, `{}`, true},
		{`{"propertyNames":{"type":"number"}}`, `{"1":1}`, false}, // a name is a string, never a number
		{`{"propertyNames":false}`, `{"a":1}`, false},
		{`{"propertyNames":{"minLength":1}}`, `[1]`, true}, // object keywords ignore non-objects
		{`{"exclusiveMinimum":0,"exclusiveMaximum":1}`, `0.5`, true},
		{`{"exclusiveMinimum":0}`, `0`, false},
		{`{"exclusiveMaximum":1}`, `1`, false},
		{`{"minimum":0.1}`, `0.1`, true},
		{`{"minimum":1e400}`, `1e401`, true},
		{`{"minimum":-5,"maximum":-1}`, `-5`, true}, // integers compared as int64
		{`{"minimum":-5}`, `-6`, false},
		{`{"maximum":-0}`, `0`, true},
		{`{"maximum":999999999999999}`, `1000000000000000`, false}, // 16 digits: big.Rat
		{`{"minimum":1234567890123456}`, `1234567890123457`, true},
		{`{"minimum":2}`, `1.5`, false}, // a fraction on one side: big.Rat
		{`{"maximum":1.5}`, `1`, true},
		{`{"exclusiveMaximum":10}`, `2e1`, false},
		{`{"minProperties":1,"maxProperties":1}`, `{"a":1}`, true},
		{`{"minProperties":2}`, `{"a":1}`, false},
		{`{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `3`, true},
		{`{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `true`, false},
		{`{"allOf":[{"type":"integer"},{"minimum":3}]}`, `3`, true},
		{`{"allOf":[{"type":"integer"},{"minimum":3}]}`, `2`, false},
		{`{"const":"x","title":"T","description":"D","default":1,"examples":[1],"format":"email","deprecated":true}`, `"x"`, true},
		{`{"format":"email"}`, `"not an email"`, true}, // formats are annotations
		{`{"$schema":"https://json-schema.org/draft/2019-09/schema","format":"email"}`, `"not an email"`, true},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","format":"email"}`, `"a@example.com"`, false}, // asserted: the validator's
		{`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"n":{"exclusiveMinimum":0}}}`, `{"n":1}`, true},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","prefixItems":[{"type":"string"}]}`, `[1]`, false}, // not a draft-07 keyword: the validator's
		{`{"const":"x"}`, `"y"`, false},
		{`{"const":{"a":1}}`, `{"a":1}`, false}, // objects: the validator's
		{`true`, `1`, true},
		{`false`, `1`, false},
		{`{"oneOf":[{"type":"string"}]}`, `"x"`, false},
		{`{"not":{"type":"string"}}`, `1`, false},
		{`{"multipleOf":2}`, `4`, false},
		{`{"prefixItems":[{"type":"string"}],"items":{"type":"number"}}`, `["a",1]`, false},
		{`{"minLength":99999999999}`, `""`, false},
	}
	for _, tt := range tests {
		schema := decodeDoc(t, tt.schema)
		if plain, _ := plainSchema(schema); !plain {
			t.Fatalf("%s: not a plain schema", tt.schema)
		}
		name := tt.schema + " " + tt.inst
		if got := checkSurelyValid(t, name, schema, decodeDoc(t, tt.inst)); got != tt.want {
			t.Errorf("surelyValid(%s, %s) = %v, want %v", tt.schema, tt.inst, got, tt.want)
		}
	}
}

// TestSurelyValidShortcut: valid input to a plain schema is accepted
// without compiling it; invalid input compiles it and gets the validator's
// message.
func TestSurelyValidShortcut(t *testing.T) {
	v, err := compileSchema(json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := v.validate(json.RawMessage(`{"n":1}`)); err != nil {
		t.Fatal(err)
	}
	if v.schema != nil {
		t.Fatal("valid input compiled the schema")
	}
	err = v.validate(json.RawMessage(`{"n":"1"}`))
	if want := `invalid input: /n: type: got string, want integer (the string "1": pass the number 1, without quotes)`; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
	if v.schema == nil {
		t.Fatal("invalid input did not compile the schema")
	}
}

// instancesFor makes inputs for a schema: one built from it (every
// property, of its first type, honouring enums and lengths where simple),
// and variants of that one and of a few fixed values.
func instancesFor(schema any, depth int) []any {
	s, ok := schema.(map[string]any)
	if !ok || depth > 6 {
		return []any{nil}
	}
	var build func(s map[string]any, depth int) any
	build = func(s map[string]any, depth int) any {
		if e, ok := s["enum"].([]any); ok && len(e) > 0 {
			return e[0]
		}
		if c, ok := s["const"]; ok {
			return c
		}
		t, _ := s["type"].(string)
		if list, ok := s["type"].([]any); ok && len(list) > 0 {
			t, _ = list[0].(string)
		}
		if t == "" {
			if _, ok := s["properties"]; ok {
				t = "object"
			}
		}
		switch t {
		case "object":
			m := map[string]any{}
			props, _ := s["properties"].(map[string]any)
			for k, p := range props {
				if ps, ok := p.(map[string]any); ok && depth < 6 {
					m[k] = build(ps, depth+1)
				}
			}
			return m
		case "array":
			if it, ok := s["items"].(map[string]any); ok && depth < 6 {
				return []any{build(it, depth+1)}
			}
			return []any{}
		case "string":
			return "abcdefgh"
		case "integer":
			return json.Number("3")
		case "number":
			return json.Number("2.5")
		case "boolean":
			return true
		case "null":
			return nil
		}
		return "x"
	}
	full := build(s, depth)
	out := []any{full, nil, true, json.Number("0"), json.Number("-1.5"), "", "x", []any{}, []any{json.Number("1"), "a"}, map[string]any{}}
	out = append(out, boundaryNumbers(s)...)
	if m, ok := full.(map[string]any); ok {
		props, _ := s["properties"].(map[string]any)
		extra := maps.Clone(m)
		extra["extra"] = true
		out = append(out, extra)
		for k := range m {
			less := map[string]any{}
			wrong := map[string]any{"extra": true}
			for k2, v := range m {
				if k2 != k {
					less[k2] = v
				}
				wrong[k2] = v
			}
			wrong[k] = []any{map[string]any{"deep": nil}}
			out = append(out, less, wrong)
			// k of a type its schema does not allow, and at its bounds
			ps, _ := props[k].(map[string]any)
			variants := boundaryNumbers(ps)
			if x, ok := otherType(ps); ok {
				variants = append(variants, x)
			}
			for _, x := range variants {
				with := maps.Clone(m)
				with[k] = x
				out = append(out, with)
			}
		}
	}
	return out
}

// fewToolsBuilt holds exactly the count of a real catalog too small for
// the 80% rule: redis's four tools, whose delete takes a key or an array
// of keys (oneOf), which the shortcut leaves to the full check.
var fewToolsBuilt = map[string]int{"redismcp.catalog.json": 3}

// boundaryNumbers are the numbers at, one above, one below and half above
// each bound of a schema (minimum, maximum and the exclusive ones).
func boundaryNumbers(s map[string]any) []any {
	var out []any
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
		b, ok := s[k].(json.Number)
		if !ok {
			continue
		}
		r, ok := new(big.Rat).SetString(string(b))
		if !ok {
			continue
		}
		for _, d := range []*big.Rat{big.NewRat(0, 1), big.NewRat(1, 1), big.NewRat(-1, 1), big.NewRat(1, 2)} {
			x := new(big.Rat).Add(r, d)
			if x.IsInt() {
				out = append(out, json.Number(x.Num().String()))
			} else {
				out = append(out, json.Number(strings.TrimRight(x.FloatString(30), "0")))
			}
		}
	}
	return out
}

// otherType is a value of a type the schema's "type" does not allow.
func otherType(s map[string]any) (any, bool) {
	allowed := map[string]bool{}
	switch t := s["type"].(type) {
	case string:
		allowed[t] = true
	case []any:
		for _, x := range t {
			if name, ok := x.(string); ok {
				allowed[name] = true
			}
		}
	default:
		return nil, false
	}
	for _, c := range []struct {
		types []string
		v     any
	}{
		{[]string{"string"}, "text"},
		{[]string{"integer", "number"}, json.Number("5")},
		{[]string{"number"}, json.Number("5.5")},
		{[]string{"boolean"}, true},
		{[]string{"null"}, nil},
		{[]string{"array"}, []any{}},
		{[]string{"object"}, map[string]any{}},
	} {
		if !slices.ContainsFunc(c.types, func(t string) bool { return allowed[t] }) {
			return c.v, true
		}
	}
	return nil, false
}

// TestSurelyValidRealCatalogs: for every input schema of the real
// catalogs and inputs made from it, surelyValid never says valid where the
// validator does not, and it accepts the input built from the schema for
// most tools.
func TestSurelyValidRealCatalogs(t *testing.T) {
	for _, cat := range realCatalogs(t) {
		f := cat.File
		built, checked := 0, 0
		for _, tool := range cat.Tools {
			schema := decodeDoc(t, string(tool.InputSchema))
			if plain, _ := plainSchema(schema); !plain {
				continue
			}
			for i, inst := range instancesFor(schema, 0) {
				// Through JSON, as inputs arrive.
				b, err := json.Marshal(inst)
				if err != nil {
					t.Fatal(err)
				}
				ok := checkSurelyValid(t, fmt.Sprintf("%s %s #%d", filepath.Base(f), tool.Name, i), schema, decodeDoc(t, string(b)))
				if ok && i == 0 {
					built++
				}
				checked++
			}
		}
		t.Logf("%s: %d inputs checked; the built input surely valid for %d of %d tools", filepath.Base(f), checked, built, len(cat.Tools))
		if want, ok := belowShareCatalogs[filepath.Base(f)]; ok {
			if built != want.built {
				t.Errorf("%s: the built input surely valid for %d of %d tools, want %d (belowShareCatalogs: $ref or pattern)", f, built, len(cat.Tools), want.built)
			}
			continue
		}
		if want, ok := fewToolsBuilt[filepath.Base(f)]; ok {
			if built != want {
				t.Errorf("%s: the built input surely valid for %d of %d tools, want %d", f, built, len(cat.Tools), want)
			}
			continue
		}
		if built*10 < len(cat.Tools)*8 {
			t.Errorf("%s: the built input surely valid for only %d of %d tools", f, built, len(cat.Tools))
		}
	}
}

// TestInputReadAsDeepAsItsSchema: a large valid input is decoded only as
// deep as its schema reads it: a tool call of 20,000 rows to a tool whose
// schema says {"type":"object"} made a map per row (20,000 and more
// allocations), as much work as the program's own JSON.stringify of them.
// An invalid one gets the validator's lines, as before.
func TestInputReadAsDeepAsItsSchema(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"query":"q","rows":[`)
	for i := range 20000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item number %d","ok":true,"tags":["a","b"]}`, i, i)
	}
	b.WriteString(`]}`)
	rows := json.RawMessage(b.String())
	bad := json.RawMessage(strings.Replace(b.String(), `{"id":3,"name":"item number 3","ok":true,"tags":["a","b"]}`, `"row 3"`, 1))
	for _, tt := range []struct {
		schema    string
		maxAllocs float64 // for the valid rows
		badErr    string  // for bad, "" when it is valid too
	}{
		{`{"type":"object"}`, 40, ""},
		{`{}`, 40, ""},
		{`{"type":"object","properties":{"query":{"type":"string","minLength":1}},"required":["query"]}`, 40, ""},
		{`{"type":"object","properties":{"rows":{"type":"array","maxItems":100000}},"additionalProperties":{"type":"string"}}`, 40, ""},
		// one Passed a row, its interface free (a one-byte value)
		{`{"type":"object","properties":{"rows":{"type":"array","items":{"type":"object"}}}}`, 40,
			`invalid input: /rows/3: type: got string, want object`},
		// the rows' fields are read: decoded whole, as they must be
		{`{"type":"object","properties":{"rows":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}}}}`, -1,
			`invalid input: /rows/3: type: got string, want object`},
	} {
		v, err := compileSchema(json.RawMessage(tt.schema))
		if err != nil {
			t.Fatal(err)
		}
		if err := v.validate(rows); err != nil {
			t.Fatalf("%s: %v", tt.schema, err)
		}
		if tt.maxAllocs >= 0 {
			if n := testing.AllocsPerRun(3, func() { v.validate(rows) }); n > tt.maxAllocs {
				t.Errorf("%s: %v allocations for 20,000 rows, want at most %v", tt.schema, n, tt.maxAllocs)
			}
		}
		err = v.validate(bad)
		if got := fmt.Sprint(err); tt.badErr == "" && err != nil || tt.badErr != "" && got != tt.badErr {
			t.Errorf("%s: a row that is a string: %v, want %q", tt.schema, err, tt.badErr)
		}
	}
}
