package tsgen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// TestSignaturesParseAsTypeScript: a signature is TypeScript a model (or
// tsc) can read: with its call head written as a declaration, esbuild's
// TypeScript parser takes every signature of the 43 real catalogs
// (internal/search/eval/testdata: MCP servers and OpenAPI documents, 7,346
// tools) and of schemas written to break the text (a */ in a description
// or a property name, quotes, backticks, line separators, names that are
// not identifiers). web/test/wild-catalogs.test.mjs checks the same with
// tsc, types included, through the package.
func TestSignaturesParseAsTypeScript(t *testing.T) {
	type tool struct {
		Name         string          `json:"name"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	var tools []tool
	files, err := filepath.Glob("../search/eval/testdata/*.catalog.json")
	if err != nil || len(files) < 40 {
		t.Fatalf("catalogs: %d files, %v", len(files), err)
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c struct{ Tools []tool }
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		tools = append(tools, c.Tools...)
	}
	if len(tools) < 7000 {
		t.Fatalf("%d catalog tools, want the 7,346", len(tools))
	}
	tools = append(tools,
		tool{Name: "x.1st", Description: "ends */ early `tick` </script> \u2028 ${x}", InputSchema: json.RawMessage(`{"type":"object","properties":{"*/":{"type":"string","description":"a */ b","default":"*/"},"q\"uo'te":{"const":"*/"},"a\u2028b":{"enum":["\u2028","*/"]},"__proto__":{"type":"string"},"":{"type":"number"}},"required":["absent name","1x"]}`)},
		tool{Name: "my-ns.get-item", InputSchema: json.RawMessage(`{"$defs":{"n":{"$anchor":"n","type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#n"}}}}},"$ref":"#/$defs/n"}`)},
		tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","nullable":true},"b":{"type":["integer","null"]},"c":{"enum":[1,"a",null,{"x":1},[1],true]}}}`), OutputSchema: json.RawMessage(`false`)},
	)
	bad := 0
	for _, tl := range tools {
		sig := Signature(tl.Name, tl.Description, tl.InputSchema, tl.OutputSchema)
		head := ToolPath(tl.Name) + "("
		i := strings.LastIndex(sig, head)
		if i < 0 {
			t.Fatalf("%s: no %s in\n%s", tl.Name, head, sig)
		}
		if err := parseSignature(sig, head); err != "" {
			if bad++; bad <= 5 {
				t.Errorf("%s: %s", tl.Name, err)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d signatures do not parse", bad, len(tools))
	}
}

// parseSignature is esbuild's TypeScript parser's first error for sig,
// its call head (the ToolPath and "(") written as a declaration; "" when
// it parses.
func parseSignature(sig, head string) string {
	i := strings.LastIndex(sig, head)
	if i < 0 {
		return "no " + head + " in\n" + trimTo(sig, 2000)
	}
	src := sig[:i] + "declare function tool(" + sig[i+len(head):]
	r := api.Transform(src, api.TransformOptions{Loader: api.LoaderTS})
	if len(r.Errors) > 0 {
		return fmt.Sprintf("%s (line %d) in\n%s", r.Errors[0].Text, r.Errors[0].Location.Line, trimTo(src, 2000))
	}
	return ""
}

// TestSignatureShortenedToFit: a schema whose declaration passes
// SignatureMax (an MCP server over Microsoft Graph has request bodies of
// 84 KB, hundreds of documented properties) is rendered again with less,
// so that it still parses and says what it left out, instead of being cut
// inside a doc comment.
func TestSignatureShortenedToFit(t *testing.T) {
	doc := strings.Repeat("A property of the resource, as documented. ", 5)
	// object has n string properties (every tenth the object inner when
	// there is one), named property000WithALongName and on, suffix after;
	// the last one is required.
	object := func(n int, suffix, inner string) string {
		var props []string
		for i := range n {
			p := fmt.Sprintf(`"property%03dWithALongName%s":{"type":"string","description":%q}`, i, suffix, doc)
			if inner != "" && i%10 == 0 {
				p = fmt.Sprintf(`"nested%03d":{"description":%q,%s}`, i, doc, inner[1:len(inner)-1])
			}
			props = append(props, p)
		}
		last := fmt.Sprintf("property%03dWithALongName%s", n-1, suffix)
		return `{"type":"object","required":["` + last + `"],"properties":{` + strings.Join(props, ",") + `}}`
	}
	long := strings.Repeat("AndMore", 12)
	tests := []struct {
		name   string
		schema string
		left   string // what the note says is left out
		kept   string // a property that must stay
	}{
		{"docs over the cap", object(150, "", ""), "the properties' descriptions are left out", "property149WithALongName: string"},
		{"nodes over the cap without docs", object(190, long, object(190, long, object(190, long, ""))), "the innermost types (written unknown) and some optional properties", "property189WithALongName" + long + ": string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			full := renderSignature("graph.createItem", "Create an item.", json.RawMessage(tt.schema), nil, false, true, sigMaxNodes, nil)
			if len(full) <= SignatureMax {
				t.Fatalf("the case renders %d bytes in full, want over %d", len(full), SignatureMax)
			}
			sig := Signature("graph.createItem", "Create an item.", json.RawMessage(tt.schema), nil)
			if len(sig) > SignatureMax {
				t.Errorf("%d bytes, want <= %d", len(sig), SignatureMax)
			}
			if err := parseSignature(sig, "tools.graph.createItem("); err != "" {
				t.Error(err)
			}
			for _, w := range []string{"Create an item.", "Shortened to fit", tt.left, tt.kept, "property000WithALongName"} {
				if !strings.Contains(sig, w) {
					t.Errorf("signature lacks %q:\n%s", w, trimTo(sig, 1500))
				}
			}
		})
	}
}

func trimTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// TestShorterFormsParse: the forms a search answer over its budget shows
// in place of a long signature (Shorter) each parse, are each shorter than
// the one before, say what they left out and leave out the tool's
// description (the hit holds it). Of the real catalogs, every tool whose
// signature is over 5,000 bytes (86, 77 of them Microsoft 365's over
// Graph's request bodies, with 276 forms).
func TestShorterFormsParse(t *testing.T) {
	files, err := filepath.Glob("../search/eval/testdata/*.catalog.json")
	if err != nil || len(files) < 40 {
		t.Fatalf("catalogs: %d files, %v", len(files), err)
	}
	long, forms := 0, 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			Tools []struct {
				Name, Description         string
				InputSchema, OutputSchema json.RawMessage
			}
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, tl := range c.Tools {
			sig := Signature(tl.Name, tl.Description, tl.InputSchema, tl.OutputSchema)
			if len(sig) <= 5000 {
				continue
			}
			long++
			prev := sig
			for _, form := range Shorter(tl.Name, tl.InputSchema, tl.OutputSchema) {
				forms++
				if err := parseSignature(form, ToolPath(tl.Name)+"("); err != "" {
					t.Fatalf("%s: %s", tl.Name, err)
				}
				if len(form) >= len(prev) || !strings.Contains(form, "(Shortened to fit: ") || len(tl.Description) > 20 && strings.Contains(form, tl.Description) {
					t.Fatalf("%s: a form of %d bytes after %d, saying what it left out, without the description:\n%s", tl.Name, len(form), len(prev), trimTo(form, 1500))
				}
				prev = form
			}
		}
	}
	if long < 86 || forms < 276 {
		t.Errorf("%d long signatures, %d forms", long, forms)
	}
	t.Logf("%d signatures over 5,000 bytes, %d shorter forms", long, forms)
}
