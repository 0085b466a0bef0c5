//go:build !js

package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// heldRun is a run holding the only instance of an engine, blocked in a
// host function until release is closed.
type heldRun struct {
	release chan struct{}
	err     chan error // the run's error, once it ended
	started int        // its Started calls (read after err)
}

// holdOnlyInstance makes an engine of one instance and a run that holds
// it (with a Timeout that does not end it during the test).
func holdOnlyInstance(t *testing.T) (*sandbox.Engine, *heldRun) {
	t.Helper()
	e := mustEngine(t, sandbox.Config{MaxInstances: 1})
	h := &heldRun{release: make(chan struct{}), err: make(chan error, 1)}
	held := make(chan struct{})
	hold := map[string]sandbox.Func{"hold": {Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) {
		close(held)
		<-h.release
		return json.RawMessage("1"), nil
	}}}
	go func() {
		_, err := e.Run(context.Background(), sandbox.Program{Code: "return await hold()", Funcs: hold,
			Timeout: 10 * time.Minute, Started: func() error { h.started++; return nil }})
		h.err <- err
	}()
	<-held
	return e, h
}

// waited is how a run that waited for an instance ended.
type waited struct {
	err     error
	started bool // Program.Started was called
}

// waitingRun starts a run that waits for an instance; it returns once the
// run waits, with what will tell how the run ended.
func waitingRun(t *testing.T, ctx context.Context, e *sandbox.Engine) <-chan waited {
	out := make(chan waited, 1)
	go func() {
		var w waited
		_, w.err = e.Run(ctx, sandbox.Program{Code: "return 2", Started: func() error { w.started = true; return nil }})
		out <- w
	}()
	sandboxtest.AwaitWaiting(t, e, 1)
	return out
}

// TestStartedAndWaiting: Program.Started is called once a run has its
// instance, and never for a run whose wait for one ended first, which
// Stats.Waiting counts while it waits.
func TestStartedAndWaiting(t *testing.T) {
	e, h := holdOnlyInstance(t)
	if w := e.Stats().Waiting; w != 0 {
		t.Errorf("Stats().Waiting = %d with one run holding the only instance, want 0", w)
	}
	ctx, cancel := context.WithCancel(context.Background())
	waiter := waitingRun(t, ctx, e)
	cancel()
	if got := <-waiter; got.err != context.Canceled || got.started {
		t.Errorf("waiting run: %+v, want context.Canceled and no Started", got)
	}
	if w := e.Stats().Waiting; w != 0 {
		t.Errorf("Stats().Waiting = %d once the wait ended, want 0", w)
	}
	close(h.release)
	if err := <-h.err; err != nil || h.started != 1 {
		t.Errorf("holding run: err = %v, Started called %d times; want nil and once", err, h.started)
	}
}

// TestCloseEndsTheWait: Close ends a run's wait for an instance with
// ErrClosed at once, while the run holding the instance goes on. Before,
// the waiter waited for that run to end and then, as often as not, took
// the freed slot and ran its program on the closed engine.
func TestCloseEndsTheWait(t *testing.T) {
	e, h := holdOnlyInstance(t)
	waiter := waitingRun(t, context.Background(), e)
	e.Close()
	select {
	case got := <-waiter:
		if got.err != sandbox.ErrClosed || got.started {
			t.Errorf("waiting run after Close: %+v, want ErrClosed and no Started", got)
		}
	case <-time.After(time.Minute): // a hang guard
		close(h.release)
		got := <-waiter
		t.Fatalf("the waiting run was still waiting a minute after Close (it then gave %+v)", got)
	}
	close(h.release)
	if err := <-h.err; err != nil {
		t.Errorf("the run in flight at Close: %v, want its result", err)
	}
}

// TestStartedVetoes: an error from Program.Started ends the run before
// anything of it runs (no Func is called) and is Run's error; the instance
// serves the next run. codemode's ExecuteCode uses it so that a run which
// waited for an instance runs nothing once its session is closed.
func TestStartedVetoes(t *testing.T) {
	e := mustEngine(t, sandbox.Config{MaxInstances: 1})
	veto := errors.New("closed while it waited")
	called := 0
	mark := map[string]sandbox.Func{"mark": {Sync: func([]json.RawMessage) (json.RawMessage, error) {
		called++
		return json.RawMessage("1"), nil
	}}}
	res, err := e.Run(context.Background(), sandbox.Program{Code: "mark(); return 1", Funcs: mark,
		Started: func() error { return veto }})
	if err != veto || res != nil || called != 0 {
		t.Errorf("vetoed run: res %v, err %v, mark called %d times; want nil, the veto, 0", res, err, called)
	}
	res, err = e.Run(context.Background(), sandbox.Program{Code: "mark(); return 2", Funcs: mark})
	if err != nil || res == nil || string(res.Value) != "2" || called != 1 {
		t.Errorf("next run: res %+v, err %v, mark called %d times; want 2 and 1 call", res, err, called)
	}
}

// TestTimeoutSaysRunsWaited: a run that times out while other runs wait
// for an instance says so. Runs started by a tool of a run (nested past
// MaxInstances deep) waited until the outer run's timeout, which said only
// "did not finish within 3s".
func TestTimeoutSaysRunsWaited(t *testing.T) {
	e := mustEngine(t, sandbox.Config{MaxInstances: 1})
	in := make(chan struct{})
	started := map[string]sandbox.Func{"started": {Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) {
		close(in)
		return json.RawMessage("1"), nil
	}}}
	res := make(chan *sandbox.Result, 1)
	go func() {
		r, err := e.Run(context.Background(), sandbox.Program{Code: "await started(); for (;;) {}", Funcs: started, Timeout: 3 * time.Second})
		if err != nil {
			t.Error(err)
		}
		res <- r
	}()
	<-in
	waiter := waitingRun(t, context.Background(), e)
	r := <-res
	want := "the program did not finish within 3s; meanwhile 1 other run was waiting for a run slot, all 1 in use (a run started from inside a run, by a tool, waits for one while the runs that called it hold theirs)"
	if r == nil || r.Error == nil || r.Error.Code != sandbox.CodeTimeout || r.Error.Message != want {
		t.Fatalf("got %+v, want a TIMEOUT: %s", r, want)
	}
	if w := <-waiter; w.err != nil || !w.started {
		t.Errorf("the waiting run: %+v, want it run once the instance was free", w)
	}
	// Nobody waiting: the timeout's own words.
	r, err := e.Run(context.Background(), sandbox.Program{Code: "for (;;) {}", Timeout: 200 * time.Millisecond})
	if err != nil || r.Error == nil || r.Error.Message != "the program did not finish within 200ms" {
		t.Errorf("got %+v, %v; want a TIMEOUT in its own words", r, err)
	}
}
