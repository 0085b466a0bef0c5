//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	"syscall/js"
	"testing"
	"time"
)

// waitFor polls cond; the bound only keeps a broken build from hanging.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("never: %s", what)
		}
	}
}

func TestSignalFor(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	signal, stop := SignalFor(ctx, func() js.Value { return NewError("AbortError", "run over") })
	defer stop()
	if signal.Get("aborted").Bool() {
		t.Fatal("aborted before ctx ended")
	}
	cancel()
	waitFor(t, "signal aborted", func() bool { return signal.Get("aborted").Bool() })
	if r := ErrorFromJS(signal.Get("reason")); r.Name != "AbortError" || r.Message != "run over" {
		t.Errorf("reason = %v", r)
	}

	// Stopped first: ctx ending later does not abort the signal.
	ctx2, cancel2 := context.WithCancel(context.Background())
	signal2, stop2 := SignalFor(ctx2, func() js.Value { return js.Undefined() })
	stop2()
	cancel2()
	time.Sleep(5 * time.Millisecond)
	if signal2.Get("aborted").Bool() {
		t.Error("aborted after stop")
	}
}

func TestOnAbort(t *testing.T) {
	ctrl := abortController.New()
	calls := 0
	stop, err := OnAbort(ctrl.Get("signal"), func() { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	ctrl.Call("abort")
	if calls != 1 {
		t.Fatalf("fn called %d times on abort, want 1", calls)
	}
	stop()

	// After stop, an abort does not call fn.
	ctrl2 := abortController.New()
	stop2, err := OnAbort(ctrl2.Get("signal"), func() { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	stop2()
	ctrl2.Call("abort")
	if calls != 1 {
		t.Errorf("fn called after stop")
	}

	// A fake signal whose addEventListener throws: an error, not a crash.
	if _, err := OnAbort(throwingProxy(t, objectCtor.New()), func() {}); err == nil {
		t.Error("throwing addEventListener: no error")
	}
}

func TestAwaitContext(t *testing.T) {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	// Not a thenable: returned at once, even with ctx ended.
	if v, err := AwaitContext(done, js.ValueOf(5)); err != nil || v.Int() != 5 {
		t.Errorf("a number = %v, %v", v, err)
	}
	// A thenable and an ended ctx: ctx's error, without waiting.
	never := promiseCtor.New(Func(func(js.Value, []js.Value) any { return nil }).Value)
	if _, err := AwaitContext(done, never); !errors.Is(err, context.Canceled) {
		t.Errorf("ended ctx: err = %v, want context.Canceled", err)
	}
	if v, err := AwaitContext(context.Background(), timerPromise(1, "ok", false)); err != nil || v.String() != "ok" {
		t.Errorf("a promise = %v, %v", v, err)
	}
}
