//go:build !js

package sandbox_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestStartedAndWaiting: Program.Started is called once a run has its
// instance, and never for a run whose wait for one ended first, which
// Stats.Waiting counts while it waits.
func TestStartedAndWaiting(t *testing.T) {
	e, err := sandbox.NewEngine(sandboxtest.Asset(t), sandbox.Config{MaxInstances: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	held, release := make(chan struct{}), make(chan struct{})
	hold := map[string]sandbox.Func{"hold": {Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) {
		close(held)
		<-release
		return json.RawMessage("1"), nil
	}}}
	started := 0
	first := make(chan error, 1)
	go func() {
		_, err := e.Run(context.Background(), sandbox.Program{Code: "return await hold()", Funcs: hold, Started: func() { started++ }})
		first <- err
	}()
	<-held
	if w := e.Stats().Waiting; w != 0 {
		t.Errorf("Stats().Waiting = %d with one run holding the only instance, want 0", w)
	}
	ctx, cancel := context.WithCancel(context.Background())
	waiterStarted := false
	waiter := make(chan error, 1)
	go func() {
		_, err := e.Run(ctx, sandbox.Program{Code: "return 2", Started: func() { waiterStarted = true }})
		waiter <- err
	}()
	guard := time.Now().Add(time.Minute) // a hang guard, not an assertion
	for e.Stats().Waiting != 1 {
		if time.Now().After(guard) {
			t.Fatalf("the second run never waited (Stats: %+v)", e.Stats())
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-waiter; err != context.Canceled || waiterStarted {
		t.Errorf("waiting run: err = %v, Started called: %v; want context.Canceled and no Started", err, waiterStarted)
	}
	if w := e.Stats().Waiting; w != 0 {
		t.Errorf("Stats().Waiting = %d once the wait ended, want 0", w)
	}
	close(release)
	if err := <-first; err != nil || started != 1 {
		t.Errorf("holding run: err = %v, Started called %d times; want nil and once", err, started)
	}
}

// TestCloseEndsTheWait: Close ends a run's wait for an instance with
// ErrClosed at once, while the run holding the instance goes on. Before,
// the waiter waited for that run to end and then, as often as not, took
// the freed slot and ran its program on the closed engine.
func TestCloseEndsTheWait(t *testing.T) {
	e, err := sandbox.NewEngine(sandboxtest.Asset(t), sandbox.Config{MaxInstances: 1})
	if err != nil {
		t.Fatal(err)
	}
	held, release := make(chan struct{}), make(chan struct{})
	hold := map[string]sandbox.Func{"hold": {Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) {
		close(held)
		<-release
		return json.RawMessage("1"), nil
	}}}
	first := make(chan error, 1)
	go func() {
		_, err := e.Run(context.Background(), sandbox.Program{Code: "return await hold()", Funcs: hold, Timeout: 10 * time.Minute})
		first <- err
	}()
	<-held
	waiterStarted := false
	waiter := make(chan error, 1)
	go func() {
		_, err := e.Run(context.Background(), sandbox.Program{Code: "return 2", Started: func() { waiterStarted = true }})
		waiter <- err
	}()
	guard := time.Now().Add(time.Minute) // a hang guard, not an assertion
	for e.Stats().Waiting != 1 {
		if time.Now().After(guard) {
			t.Fatalf("the second run never waited (Stats: %+v)", e.Stats())
		}
		time.Sleep(time.Millisecond)
	}
	e.Close()
	select {
	case err := <-waiter:
		if err != sandbox.ErrClosed || waiterStarted {
			t.Errorf("waiting run after Close: err = %v, Started called: %v; want ErrClosed and no Started", err, waiterStarted)
		}
	case <-time.After(time.Minute): // a hang guard
		close(release)
		err := <-waiter
		t.Fatalf("the waiting run was still waiting a minute after Close (it then gave %v, Started called: %v)", err, waiterStarted)
	}
	close(release)
	if err := <-first; err != nil {
		t.Errorf("the run in flight at Close: %v, want its result", err)
	}
}
