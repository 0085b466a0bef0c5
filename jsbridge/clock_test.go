//go:build js && wasm

package jsbridge_test

import (
	"context"
	"syscall/js"
	"testing"
	"time"

	"github.com/interopio/code-mode/jsbridge"
	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestTimeoutWhenClocksDrift: the interrupt poll reads Date.now, Go's
// monotonic clock reads performance.now, and the two drift apart on real
// machines. A run stopped by the poll at its deadline is a TIMEOUT even when
// the monotonic clock says the deadline is still ahead (it was reported as
// RUNTIME "InternalError: interrupted" under load).
func TestTimeoutWhenClocksDrift(t *testing.T) {
	e, err := sandbox.NewEngine(sandboxtest.Asset(t), sandbox.Config{Backend: jsbridge.Backend()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	// performance.now at half speed from here on: continuous and monotonic,
	// but behind Date.now by half of every elapsed millisecond.
	restore := js.Global().Call("eval", `(() => {
		const p = globalThis.performance, now = p.now.bind(p), base = now();
		p.now = () => base + (now() - base) / 2;
		return () => { delete p.now; };
	})()`)
	defer restore.Invoke()

	for _, code := range []string{"while (true) {}", "for (;;) { try { while (true) {} } catch (e) {} }"} {
		res, err := e.Run(context.Background(), sandbox.Program{Code: code, Timeout: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if res.Error == nil || res.Error.Code != sandbox.CodeTimeout {
			t.Errorf("%q: got %s %+v, want TIMEOUT", code, res.Value, res.Error)
		}
	}
}
