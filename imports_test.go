package codemode

import (
	"go/ast"
	"go/parser"
	"go/token"
	osexec "os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportRules enforces the layering of ARCHITECTURE.md under GOOS=js:
// only jsbridge uses syscall/js (wasm, the JS face of this package, and the
// benchmark engine reach JavaScript through jsbridge's helpers); the sandbox never
// reaches jsbridge or this package; jsbridge never reaches this package;
// the algorithms under internal/ (search, tsgen, jsondec, leb, tsstrip, wasmbin)
// reach no other layer (wasmbin shares the host interface's value types);
// and neither wazero nor esbuild reaches the bundle.
func TestImportRules(t *testing.T) {
	const mod = "github.com/interopio/code-mode"
	cmd := osexec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}:{{join .Deps \" \"}}", "./...")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports, deps := map[string][]string{}, map[string]map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 || !strings.HasPrefix(parts[0], mod) {
			continue
		}
		imports[parts[0]] = strings.Fields(parts[1])
		deps[parts[0]] = map[string]bool{}
		for _, d := range strings.Fields(parts[2]) {
			deps[parts[0]][d] = true
		}
	}
	if len(imports) < 5 {
		t.Fatalf("go list found only %d packages of the module", len(imports))
	}
	for pkg, imps := range imports {
		for _, imp := range imps {
			if imp == "syscall/js" && pkg != mod+"/jsbridge" {
				t.Errorf("%s imports syscall/js", pkg)
			}
		}
	}
	for _, rule := range []struct{ pkg, forbidden string }{
		{mod + "/sandbox", mod + "/jsbridge"},
		{mod + "/sandbox", mod},
		{mod, mod + "/jsbridge"},
		{mod + "/jsbridge", mod},
		{mod + "/wasm", "github.com/tetratelabs/wazero"},
		{mod + "/internal/search", mod},
		{mod + "/internal/search", mod + "/sandbox"},
		{mod + "/internal/tsgen", mod},
		{mod + "/internal/tsgen", mod + "/sandbox"},
		{mod + "/internal/jsondec", mod},
		{mod + "/internal/jsondec", mod + "/sandbox"},
		{mod + "/internal/leb", mod + "/sandbox/wasmhost"},
		// esbuild is the TypeScript corpus's oracle in native tests only:
		// its transform would add 10 MB to the core.
		{mod + "/wasm", "github.com/evanw/esbuild/pkg/api"},
		// goja is the differential oracle of native tests (oracle_test.go):
		// 19 MB in a GOOS=js binary.
		{mod + "/wasm", "github.com/dop251/goja"},
		// crypto/rand links Go's FIPS 140 stack (+41 KB brotli) to read
		// what the host's crypto.getRandomValues gives (jsbridge.WebCrypto).
		{mod + "/wasm", "crypto/rand"},
		{mod + "/wasm", "crypto/internal/fips140"},
		{mod, "github.com/dop251/goja"},
		{mod, "github.com/evanw/esbuild/pkg/api"},
		{mod + "/internal/tsstrip", mod},
		{mod + "/internal/tsstrip", mod + "/sandbox"},
		{mod + "/internal/wasmbin", mod + "/sandbox"},
		{mod + "/internal/wasmbin", mod + "/jsbridge"},
	} {
		if deps[rule.pkg] == nil {
			t.Errorf("package %s not found", rule.pkg)
		} else if deps[rule.pkg][rule.forbidden] {
			t.Errorf("%s depends on %s", rule.pkg, rule.forbidden)
		}
	}
}

// TestWasmReadsPageValuesThroughJsbridge: wasm/ holds page-supplied values
// as jsbridge.Value (an alias of js.Value, so their methods are at hand),
// but js.Value's Get, Call, Invoke, New, Length, Index, SetIndex, Delete and
// InstanceOf can run the page's getters, traps and functions, and some of
// them let an exception unwind through Go, which ends the program. wasm/
// goes through jsbridge's helpers instead (Get, Call, Elements, Keys, ...).
func TestWasmReadsPageValuesThroughJsbridge(t *testing.T) {
	forbidden := map[string]bool{"Get": true, "Call": true, "Invoke": true, "New": true, "Length": true,
		"Index": true, "SetIndex": true, "Delete": true, "InstanceOf": true}
	files, err := filepath.Glob("wasm/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no wasm/*.go: %v", err)
	}
	fset := token.NewFileSet()
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		pkgs := map[string]bool{} // calls of package functions are not method calls
		for _, imp := range f.Imports {
			name := path.Base(strings.Trim(imp.Path.Value, `"`))
			if imp.Name != nil {
				name = imp.Name.Name
			}
			pkgs[name] = true
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !forbidden[sel.Sel.Name] {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && pkgs[id.Name] {
				return true
			}
			t.Errorf("%s: .%s on a JavaScript value: use jsbridge's helpers", fset.Position(call.Pos()), sel.Sel.Name)
			return true
		})
	}
}
