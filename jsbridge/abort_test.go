//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	"syscall/js"
	"testing"
)

// abortController is the page's AbortController, for the tests' signals
// (the package itself makes none: the loader's call.mjs does).
var abortController = global.Get("AbortController")

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
