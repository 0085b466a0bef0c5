//go:build !js

package sandbox_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestGoroutinesAfterClose: once its runs have returned and it is closed,
// an engine leaves no goroutine behind, runs that were cancelled in the
// middle of async host calls included. The goroutines that serve async
// host functions were a pool of the process (up to 64 kept idle for
// ever), so a host that closed every engine still had them (goleak-style
// checks failed, and the count never came back to the host's own).
func TestGoroutinesAfterClose(t *testing.T) {
	asset := sandboxtest.Asset(t)
	base := sandboxtest.SettledGoroutines(0)
	e, err := sandbox.NewEngine(asset, sandbox.Config{MaxInstances: 8})
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{}, 64)
	funcs := map[string]sandbox.Func{
		"quick": {Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) { return json.RawMessage("1"), nil }},
		"block": {Async: func(ctx context.Context, _ []json.RawMessage) (json.RawMessage, error) {
			started <- struct{}{}
			<-ctx.Done()
			return nil, ctx.Err()
		}},
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			code := "await Promise.all([quick(), quick(), quick()]); const b = block(); await quick(); return 1"
			if i%2 == 0 {
				// Cancelled while its call blocks.
				code = "await Promise.all([quick(), quick()]); return await block()"
				go func() { <-started; cancel() }()
			}
			if _, err := e.Run(ctx, sandbox.Program{Code: code, Funcs: funcs}); err != nil && i%2 == 1 {
				t.Errorf("run %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if n := sandboxtest.SettledGoroutines(base); n > base {
		t.Errorf("%d goroutines after Close, %d before the engine:\n%s", n, base, sandboxtest.GoroutineDump())
	}
}
