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
// only wasm depends on both this package and jsbridge;
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
	// Only wasm joins the two sides: the product (this package) and the
	// JavaScript host (jsbridge).
	for pkg, d := range deps {
		if d[mod] && d[mod+"/jsbridge"] && pkg != mod+"/wasm" {
			t.Errorf("%s depends on both %s and jsbridge: only wasm may", pkg, mod)
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

// TestQuickJSExportsOnlyThroughFFI: sandbox/internal/ffi is the only code
// that calls QuickJS's exports (ARCHITECTURE.md: the FFI in one place, with
// typed handles and the name table generated from the pinned asset). Outside
// it, in every non-test file of the module (native and GOOS=js), nothing
// looks an export up by name (wasmhost.Instance.Func(name, type)) and no
// string names a QTS_ export. The backends implement Func; they never call
// it. bench/ is aside (its counting backend wraps Func, and looks up its own
// test modules' exports).
func TestQuickJSExportsOnlyThroughFFI(t *testing.T) {
	const mod = "github.com/interopio/code-mode"
	files := map[string]bool{}
	for _, goos := range []string{"", "js"} {
		cmd := osexec.Command("go", "list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \" \"}}", "./...")
		if goos != "" {
			cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			parts := strings.Split(line, "\t")
			if len(parts) != 3 || !strings.HasPrefix(parts[0], mod) || strings.Contains(parts[0], "/node_modules/") ||
				strings.HasPrefix(parts[0], mod+"/sandbox/internal/ffi") || strings.HasPrefix(parts[0], mod+"/bench/") {
				continue
			}
			for _, f := range strings.Fields(parts[2]) {
				files[filepath.Join(parts[1], f)] = true
			}
		}
	}
	if len(files) < 50 {
		t.Fatalf("go list found only %d files", len(files))
	}
	fset := token.NewFileSet()
	for file := range files {
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind == token.STRING && strings.Contains(n.Value, "QTS_") {
					t.Errorf("%s: %s names a QuickJS export: call it through sandbox/internal/ffi", fset.Position(n.Pos()), n.Value)
				}
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Func" && len(n.Args) == 2 {
					t.Errorf("%s: an export looked up by name: call it through sandbox/internal/ffi", fset.Position(n.Pos()))
				}
			}
			return true
		})
	}
}
