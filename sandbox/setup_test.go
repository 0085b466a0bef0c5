//go:build !js

package sandbox_test

import (
	"testing"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// mustEngine is NewEngine on the test asset (sandboxtest.Asset) with cfg,
// closed when the test ends: the set-up the package's tests share.
func mustEngine(t testing.TB, cfg sandbox.Config) *sandbox.Engine {
	t.Helper()
	e, err := sandbox.NewEngine(sandboxtest.Asset(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}
