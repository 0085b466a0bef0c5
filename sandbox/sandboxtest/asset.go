// Package sandboxtest holds the sandbox conformance suite, run against every
// WebAssembly backend: natively on wazero (package sandbox's tests) and under
// GOOS=js on the host's WebAssembly (package jsbridge's tests).
package sandboxtest

import (
	"os"
	"path/filepath"
	"testing"
)

// AssetPath is the pinned QuickJS asset, relative to the repository root.
const AssetPath = "node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm"

// Asset reads the pinned QuickJS asset, found from the working directory
// upward. Run `npm ci` at the repository root first.
func Asset(t testing.TB) []byte {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, AssetPath))
		if err == nil {
			return b
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("QuickJS asset %s not found above the working directory: run `npm ci` at the repository root", AssetPath)
		}
		dir = parent
	}
}
