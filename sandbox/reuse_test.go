//go:build !js

package sandbox_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/internal/wazerohost"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// countingBackend counts the instances made of the modules it compiles.
type countingBackend struct {
	wasmhost.Backend
	made *atomic.Int32
}

func (b countingBackend) Compile(wasm []byte) (wasmhost.Module, error) {
	m, err := b.Backend.Compile(wasm)
	if err != nil {
		return nil, err
	}
	return countingModule{m, b.made}, nil
}

type countingModule struct {
	wasmhost.Module
	made *atomic.Int32
}

func (m countingModule) Instantiate(imports wasmhost.Imports) (wasmhost.Instance, error) {
	m.made.Add(1)
	return m.Module.Instantiate(imports)
}

// TestWaitingRunsReuseInstances: runs that wait for an instance take the
// ones that runs in flight give back, rather than a new one each. With
// MaxIdleInstances idle already, a finished run's instance was freed and a
// waiting run made a new one in its place: on the calling thread, 2,000
// runs started at once on one session made a new QuickJS instance for 88%
// of them. Once no run waits, no more than MaxIdleInstances stay idle.
func TestWaitingRunsReuseInstances(t *testing.T) {
	var made atomic.Int32
	e, err := sandbox.NewEngine(sandboxtest.Asset(t), sandbox.Config{Backend: countingBackend{wazerohost.Backend(), &made}, MaxInstances: 4, MaxIdleInstances: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if _, err := e.Run(context.Background(), sandbox.Program{Code: "return 1"}); err != nil {
		t.Fatal(err)
	}
	before := made.Load()
	gate := make(chan struct{})
	funcs := map[string]sandbox.Func{"wait": {Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) {
		<-gate
		return json.RawMessage("1"), nil
	}}}
	const runs = 40
	errs := make(chan error, runs)
	for range runs {
		go func() {
			_, err := e.Run(context.Background(), sandbox.Program{Code: "return await wait()", Funcs: funcs, Timeout: time.Minute})
			errs <- err
		}()
	}
	sandboxtest.AwaitWaiting(t, e, runs-4)
	close(gate)
	for range runs {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	// Four at a time, one of them the idle instance.
	if got := made.Load() - before; got > 3 {
		t.Errorf("%d runs, 4 at a time: %d new instances, want at most 3", runs, got)
	}
	if s := e.Stats(); s.Idle > 1 || s.Waiting != 0 {
		t.Errorf("after the runs: Stats %+v, want at most 1 idle (MaxIdleInstances) and none waiting", s)
	}
}
