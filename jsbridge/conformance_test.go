//go:build js && wasm

package jsbridge_test

import (
	"testing"

	"github.com/interopio/code-mode/jsbridge"
	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestConformance runs the sandbox's shared suite on the host's
// WebAssembly, with the real QuickJS asset.
func TestConformance(t *testing.T) {
	sandboxtest.Run(t, sandboxtest.Backend{
		NewEngine: func(wasm []byte, cfg sandbox.Config) (*sandbox.Engine, error) {
			cfg.Backend = jsbridge.Backend()
			return sandbox.NewEngine(wasm, cfg)
		},
		Preemptive: false,
		LeakRuns:   1000,
	})
}
