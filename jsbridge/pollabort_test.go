//go:build js && wasm

package jsbridge_test

import (
	"context"
	"errors"
	"syscall/js"
	"testing"
	"time"

	"github.com/interopio/code-mode/jsbridge"
	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestAbortReadByThePoll: in the worker, the page's abort of a run that
// holds the thread is read by the interrupt poll (worker.mjs pollNow, the
// poll module's Date.now), which aborts the run's signal from inside
// QuickJS. Whenever in the run that poll comes (the instance's one-time
// compile, before the run watches its context, included), the run ends
// cancelled, not at its timeout: a cancel read before the watch left the
// watch's goroutine waiting for a thread the program never gave back.
func TestAbortReadByThePoll(t *testing.T) {
	t.Run("fast", func(t *testing.T) { abortReadByThePoll(t) })
	t.Run("fallback", func(t *testing.T) {
		defer jsbridge.SetFastImports(jsbridge.SetFastImports(false))
		defer jsbridge.SetDirectCalls(jsbridge.SetDirectCalls(false))
		abortReadByThePoll(t)
	})
}

func abortReadByThePoll(t *testing.T) {
	// Date.now as the worker's: the poll that reads the armed flag, after
	// skip others, aborts the armed controller. Set before the engine makes
	// its instance, which takes Date.now for its poll then.
	hook := js.Global().Call("eval", `(() => {
		const real = Date.now;
		let armed = null, skip = 0;
		Date.now = function (owner) {
			if (armed && skip-- <= 0) { const c = armed; armed = null; c.abort(); }
			return real.call(Date, owner);
		};
		return { arm: (c, n) => { armed = c; skip = n; }, restore: () => { Date.now = real; } };
	})()`)
	defer hook.Call("restore")
	e, err := sandbox.NewEngine(sandboxtest.Asset(t), sandbox.Config{Backend: jsbridge.Backend(), MaxInstances: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	stopErr := errors.New("stopped by the page")
	// The same instance's runs: its runtime made, its image compiled (the
	// second run), then runs from the image; the abort read by the run's
	// first poll, or by one while the program spins.
	for i, skip := range []int{0, 0, 0, 2000, 0, 2000} {
		ctx, cancel := context.WithCancelCause(context.Background())
		ctrl := js.Global().Get("AbortController").New()
		stop, err := jsbridge.OnAbort(ctrl.Get("signal"), func() { cancel(stopErr) })
		if err != nil {
			t.Fatal(err)
		}
		hook.Call("arm", ctrl, skip)
		res, err := e.Run(ctx, sandbox.Program{Code: "for (;;) {}", Timeout: 3 * time.Second})
		stop()
		if !errors.Is(err, stopErr) {
			t.Errorf("run %d (skip %d): got %+v, %v; want the cancel's cause", i, skip, res, err)
		}
	}
}
