//go:build js && wasm

package jsbridge_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestNoBackendIsInvalidConfig: under GOOS=js the sandbox has no backend of
// its own, and an engine made without jsbridge's is refused before anything
// is compiled, with an error a caller tells apart with errors.Is.
func TestNoBackendIsInvalidConfig(t *testing.T) {
	e, err := sandbox.NewEngine(sandboxtest.Asset(t), sandbox.Config{})
	if e != nil {
		e.Close()
	}
	if !errors.Is(err, sandbox.ErrInvalidConfig) || !strings.Contains(err.Error(), "Config.Backend is required") {
		t.Fatalf("err = %v, want ErrInvalidConfig naming Config.Backend", err)
	}
}
