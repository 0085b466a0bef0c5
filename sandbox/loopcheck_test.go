//go:build !js

package sandbox_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestLoopChecksAsset: NewEngine adds the loop checks to the upstream asset
// and takes an asset that has them (dist's) as it is; a program held in a
// C built-in then ends with TIMEOUT either way.
func TestLoopChecksAsset(t *testing.T) {
	upstream := sandboxtest.Asset(t)
	counted, err := sandbox.InstrumentAsset(upstream)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sandbox.InstrumentAsset(counted); err == nil || !strings.Contains(err.Error(), "already has the loop checks") {
		t.Errorf("InstrumentAsset of its own output: %v, want an error saying it has the loop checks", err)
	}
	for _, tc := range []struct {
		name string
		wasm []byte
	}{{"upstream asset", upstream}, {"asset with the loop checks", counted}} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := sandbox.NewEngine(tc.wasm, sandbox.Config{})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			done := make(chan *sandbox.Result, 1)
			go func() {
				res, err := e.Run(context.Background(), sandbox.Program{Code: "return Array.prototype.indexOf.call({ length: 1e15 }, 1)", Timeout: 300 * time.Millisecond})
				if err != nil {
					t.Error(err)
				}
				done <- res
			}()
			select {
			case res := <-done:
				if res == nil || res.Error == nil || res.Error.Code != sandbox.CodeTimeout {
					t.Errorf("got %+v, want TIMEOUT", res)
				}
			case <-time.After(60 * time.Second):
				panic("the run was still going 60s after it started: the engine is held in a built-in")
			}
		})
	}
}
