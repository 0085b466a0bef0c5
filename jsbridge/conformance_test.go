//go:build js && wasm

package jsbridge_test

import (
	"os"
	"testing"

	"github.com/interopio/code-mode/jsbridge"
	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestConformance runs the sandbox's shared suite on the host's
// WebAssembly, with the real QuickJS asset: once with the fast host imports
// and the direct export calls (when the runner provides Go's exports and
// the direct imports, see scripts/wasmexec), once with the js.FuncOf
// imports and the syscall/js calls they fall back to.
func TestConformance(t *testing.T) {
	t.Run("fast", func(t *testing.T) {
		if !jsbridge.FastImportsAvailable() {
			if os.Getenv("JSBRIDGE_EXPECT_FAST") != "" {
				t.Fatal("JSBRIDGE_EXPECT_FAST is set, but the runner did not provide globalThis.__goExports")
			}
			t.Skip("no globalThis.__goExports: run with scripts/wasmexec/go_js_wasm_exec")
		}
		conformance(t)
	})
	t.Run("fallback", func(t *testing.T) {
		defer jsbridge.SetFastImports(jsbridge.SetFastImports(false))
		defer jsbridge.SetDirectCalls(jsbridge.SetDirectCalls(false))
		conformance(t)
	})
}

func conformance(t *testing.T) {
	sandboxtest.Run(t, sandboxtest.Backend{
		NewEngine: func(wasm []byte, cfg sandbox.Config) (*sandbox.Engine, error) {
			cfg.Backend = jsbridge.Backend()
			return sandbox.NewEngine(wasm, cfg)
		},
		Preemptive: false,
		LeakRuns:   1000,
	})
}
