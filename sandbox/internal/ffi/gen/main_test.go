package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const pkgDir = "../../../../node_modules/@jitl/quickjs-wasmfile-release-sync"

// TestGeneratedTableIsCurrent fails when names_gen.go does not match what
// the pinned package generates: run `go generate ./sandbox/internal/ffi`.
func TestGeneratedTableIsCurrent(t *testing.T) {
	got, err := generate(pkgDir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../names_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatal("names_gen.go is stale: run `go generate ./sandbox/internal/ffi`")
	}
}

// TestUnrecognisedGlueFails checks that the generator refuses what it does
// not understand instead of guessing.
func TestUnrecognisedGlueFails(t *testing.T) {
	glue, err := os.ReadFile(filepath.Join(pkgDir, "dist", "emscripten-module.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	wasm, err := os.ReadFile(filepath.Join(pkgDir, "dist", "emscripten-module.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	pkgJSON, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, old, new, want string }{
		{"unknown import", "p:()=>Date.now()", "p:()=>mystery()", "unrecognised"},
		{"no import object", "{a:xa}", "{a:ya}", "import object"},
		{"export renamed", "d._QTS_Eval=b.pa", "d._QTS_Eval=b.zz", "does not export"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(string(glue), tc.old) {
				t.Fatalf("the glue no longer contains %q: update this test", tc.old)
			}
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "dist"), 0o755)
			os.WriteFile(filepath.Join(dir, "dist", "emscripten-module.mjs"), []byte(strings.Replace(string(glue), tc.old, tc.new, 1)), 0o644)
			os.WriteFile(filepath.Join(dir, "dist", "emscripten-module.wasm"), wasm, 0o644)
			os.WriteFile(filepath.Join(dir, "package.json"), pkgJSON, 0o644)
			_, err := generate(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}
