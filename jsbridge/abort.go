//go:build js && wasm

package jsbridge

import (
	"context"
	"syscall/js"
)

// From JavaScript's AbortSignal to Go: OnAbort, and AwaitContext, which
// stops waiting for a promise when a context ends.

// OnAbort calls fn once signal aborts. The listener is removed by stop.
// Reading or listening to a page-supplied signal can throw (a proxy, a
// fake signal): that is the error, and nothing is attached.
func OnAbort(signal Value, fn func()) (stop func(), err error) {
	listener := js.FuncOf(func(js.Value, []js.Value) any {
		defer resumeSpin(suspendSpin())
		fn()
		return nil
	})
	if _, err := callMethod(signal, "addEventListener", "abort", listener); err != nil {
		listener.Release()
		return nil, err
	}
	return func() {
		callMethod(signal, "removeEventListener", "abort", listener) // the page's problem if it throws
		listener.Release()
	}, nil
}

// AwaitContext is Await that gives up when ctx ends: a value that is not a
// thenable is returned at once whatever ctx says; for a thenable, an ended
// ctx returns context.Cause(ctx), at once or as soon as it ends. It stops
// waiting, and holds nothing of the promise, which may settle later or
// never (stopping the JavaScript work is the job of the signal the caller
// handed it).
func AwaitContext(ctx context.Context, p Value) (Value, error) {
	if !isThenable(p) {
		return p, nil
	}
	if ctx.Err() != nil {
		return js.Undefined(), context.Cause(ctx)
	}
	return awaitUntil(ctx, p)
}

// isThenable reports whether v has a then method, reading it safely; a
// throwing then getter counts, so that Await reports it as a rejection.
func isThenable(v Value) bool {
	if !isObjectLike(v) {
		return false
	}
	then, ok := safeGet(v, "then")
	return !ok || TypeOf(then) == js.TypeFunction
}
