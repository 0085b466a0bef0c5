//go:build !js

package sandbox_test

import (
	"testing"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestConformance runs the shared suite on wazero; jsbridge runs it on the
// host's WebAssembly under GOOS=js.
func TestConformance(t *testing.T) {
	sandboxtest.Run(t, sandboxtest.Backend{
		NewEngine:  sandbox.NewEngine,
		Preemptive: true,
		LeakRuns:   10000,
	})
}
