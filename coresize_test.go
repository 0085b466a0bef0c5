package codemode

import (
	"go/ast"
	"go/parser"
	"go/token"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCoreSortsShareOneImplementation keeps the generic sorts out of the
// code the GOOS=js core links: every element type given to slices.SortFunc
// or slices.SortStableFunc compiles its own copy of the sort (pdqsort,
// partition, insertion and heap sort: 16 to 27 KB of wasm each), where
// sort.Slice and sort.SliceStable are linked once. Ten such calls were
// 174 KB raw, 13 KB brotli of dist/code-mode.wasm.
func TestCoreSortsShareOneImplementation(t *testing.T) {
	fset, files := coreGoFiles(t)
	for _, f := range files {
		slicesName := ""
		for _, imp := range f.Imports {
			if imp.Path.Value == `"slices"` {
				slicesName = "slices"
				if imp.Name != nil {
					slicesName = imp.Name.Name
				}
			}
		}
		if slicesName == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == slicesName && (sel.Sel.Name == "SortFunc" || sel.Sel.Name == "SortStableFunc") {
				t.Errorf("%s: slices.%s in code the core links: each element type adds its own sort to the core; use sort.Slice or sort.SliceStable", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}

// coreGoFiles parses the Go files of this module's packages that the
// GOOS=js core (./wasm) links, tests excluded.
func coreGoFiles(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	const mod = "github.com/interopio/code-mode"
	cmd := osexec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}|{{.Dir}}|{{join .GoFiles \" \"}}", "./wasm")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.SplitN(line, "|", 3)
		if len(parts) != 3 || !strings.HasPrefix(parts[0], mod) {
			continue
		}
		for _, name := range strings.Fields(parts[2]) {
			f, err := parser.ParseFile(fset, filepath.Join(parts[1], name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	if len(files) < 50 {
		t.Fatalf("go list gave only %d Go files of the module's packages in the core", len(files))
	}
	return fset, files
}

// TestCoreLinksNoMathBig keeps math/big out of the GOOS=js core: 179 KB of
// its code and ~40 KB of its brotli bytes, which the JSON Schema validator
// linked for exact decimal comparisons (internal/decimal does them now).
func TestCoreLinksNoMathBig(t *testing.T) {
	cmd := osexec.Command("go", "list", "-deps", "./wasm")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list -deps ./wasm gave only %d packages", len(deps))
	}
	for _, p := range deps {
		if p == "math/big" {
			t.Errorf("the core (./wasm, GOOS=js) links math/big; which package imports it: GOOS=js GOARCH=wasm go list -deps -f '{{.ImportPath}}: {{.Imports}}' ./wasm | grep math/big")
		}
	}
}
