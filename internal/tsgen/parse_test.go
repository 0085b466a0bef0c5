package tsgen

import (
	"encoding/json"
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
		src := sig[:i] + "declare function tool(" + sig[i+len(head):]
		r := api.Transform(src, api.TransformOptions{Loader: api.LoaderTS})
		if len(r.Errors) > 0 {
			if bad++; bad <= 5 {
				t.Errorf("%s: %s (line %d) in\n%s", tl.Name, r.Errors[0].Text, r.Errors[0].Location.Line, trimTo(src, 2000))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d signatures do not parse", bad, len(tools))
	}
}

func trimTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
