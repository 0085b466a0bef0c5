package codemode

import (
	osexec "os/exec"
	"strings"
	"testing"
)

// TestImportRules enforces the layering of ARCHITECTURE.md under GOOS=js:
// only jsbridge uses syscall/js (wasm, the JS face of this package, and the
// benchmark engine reach JavaScript through jsbridge's helpers); the sandbox never
// reaches jsbridge or this package; jsbridge never reaches this package;
// the algorithms under internal/ (search, tsgen, leb, tsstrip, wasmbin)
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
		{mod + "/internal/leb", mod + "/sandbox/wasmhost"},
		// esbuild is the TypeScript corpus's oracle in native tests only:
		// its transform would add 10 MB to the core.
		{mod + "/wasm", "github.com/evanw/esbuild/pkg/api"},
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
