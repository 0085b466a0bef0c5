//go:build !js

package sandbox_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/internal/wazerohost"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// countingBackend counts the instances made of the modules it compiles,
// and keeps them in kept when set, so that a test can read their memory.
type countingBackend struct {
	wasmhost.Backend
	made *atomic.Int32
	kept *[]wasmhost.Instance
}

func (b countingBackend) Compile(wasm []byte) (wasmhost.Module, error) {
	m, err := b.Backend.Compile(wasm)
	if err != nil {
		return nil, err
	}
	return countingModule{m, b}, nil
}

type countingModule struct {
	wasmhost.Module
	b countingBackend
}

func (m countingModule) Instantiate(imports wasmhost.Imports) (wasmhost.Instance, error) {
	m.b.made.Add(1)
	i, err := m.Module.Instantiate(imports)
	if err == nil && m.b.kept != nil {
		*m.b.kept = append(*m.b.kept, i)
	}
	return i, err
}

// TestWaitingRunsReuseInstances: runs that wait for an instance take the
// ones that runs in flight give back, rather than a new one each. With
// MaxIdleInstances idle already, a finished run's instance was freed and a
// waiting run made a new one in its place: on the calling thread, 2,000
// runs started at once on one session made a new QuickJS instance for 88%
// of them. Once no run waits, no more than MaxIdleInstances stay idle.
func TestWaitingRunsReuseInstances(t *testing.T) {
	var made atomic.Int32
	e, err := sandbox.NewEngine(sandboxtest.Asset(t), sandbox.Config{Backend: countingBackend{wazerohost.Backend(), &made, nil}, MaxInstances: 4, MaxIdleInstances: 1})
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

// TestNothingOfARunStaysInItsInstance: when a run ends, nothing it held
// stays anywhere in the instance's memory for the next run on it (another
// session's, maybe): not a tool's result, not the program's strings or
// numbers; the instance's first run (no image yet), its second (which
// takes the image) and a later one. Before, the strings stayed past the
// image's break and numbers on the C stack, where the next run's
// allocations and frames are laid over them, and what the first run freed
// was taken into the image that every later run starts from; only a bug
// in QuickJS could read them, and then it found another run's data.
func TestNothingOfARunStaysInItsInstance(t *testing.T) {
	var count atomic.Int32
	var made []wasmhost.Instance
	e := mustEngine(t, sandbox.Config{Backend: countingBackend{wazerohost.Backend(), &count, &made}, MaxInstances: 1, MaxIdleInstances: 1})
	funcs := map[string]sandbox.Func{"account": {Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"token":"TOKEN-5e1f0c2d","balance":987654.321987}`), nil
	}}}
	var number [8]byte
	binary.LittleEndian.PutUint64(number[:], math.Float64bits(987654.321987))
	for _, code := range []string{
		`const a = await account(); const kept = []; for (let i = 0; i < 100000; i++) kept.push(a.token + "-" + i); return kept.length`,
		`const a = await account(); function f(n) { const b = a.balance + n * 0; return b + f(n + 1) } try { f(0) } catch (e) { return [a.balance.toFixed(6), String(e)] }`,
		`const a = await account(); const kept = []; for (let i = 0; i < 100000; i++) kept.push(a.token + "-" + i); return kept.length`,
	} {
		res, err := e.Run(context.Background(), sandbox.Program{Code: code, Funcs: funcs, Timeout: time.Minute})
		if err != nil || res.Error != nil {
			t.Fatalf("%v %+v", err, res.Error)
		}
		if len(made) != 1 {
			t.Fatalf("%d instances made, want the one", len(made))
		}
		m := made[0].Memory()
		all, _ := m.Read(0, m.Size())
		if i := bytes.Index(all, []byte("TOKEN-5e1f0c2d")); i >= 0 {
			t.Errorf("after %.40q: the tool's token at %d of the instance's memory", code, i)
		}
		if i := bytes.Index(all, number[:]); i >= 0 {
			t.Errorf("after %.40q: the balance at %d of the instance's memory", code, i)
		}
	}
}
