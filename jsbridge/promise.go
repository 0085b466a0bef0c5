//go:build js && wasm

package jsbridge

import (
	"context"
	"sync"
	"syscall/js"
)

// Await waits for p to settle and returns its value, or an *Error for a
// rejection (carrying the rejection's name and message, and the value). A
// value that is not a thenable is returned as is, at once.
//
// Await blocks the calling goroutine while the JavaScript event loop runs.
// Call it only from a goroutine of your own (see NewPromise), never from a
// js.FuncOf callback, a Func, or a WebAssembly host import: the callback
// cannot return while it waits, the event loop cannot run, and the Go
// program dies with "all goroutines are asleep".
func Await(p js.Value) (js.Value, error) {
	return awaitUntil(nil, p)
}

// settled is the outcome of an awaited promise.
type settled struct {
	v   js.Value
	err error
}

// Awaited promises report to one long-lived function, settleFunc, bound to
// the id of the wait (Function.prototype.bind, no per-wait js.Func): a wait
// that gives up (its context ended) just forgets its id, and a promise
// that settles later, or never, finds nobody and holds no Go memory. A
// per-wait js.Func could not be released while the promise may still call
// it (calling a released function ends the Go program), so every
// never-settling promise used to pin two functions and a goroutine.
var (
	waitMu     sync.Mutex
	waitNext   int
	waits      = map[int]chan settled{}
	settleOnce sync.Once
	settleFunc js.Func
)

func settleHandler() js.Func {
	settleOnce.Do(func() {
		settleFunc = js.FuncOf(func(_ js.Value, args []js.Value) any {
			defer resumeSpin(suspendSpin())
			id, ok := arg(args, 0).Int(), arg(args, 1).Bool()
			waitMu.Lock()
			ch := waits[id]
			delete(waits, id)
			waitMu.Unlock()
			if ch == nil {
				return nil // the waiter gave up
			}
			if ok {
				ch <- settled{v: arg(args, 2)}
			} else {
				ch <- settled{err: ErrorFromJS(arg(args, 2))}
			}
			return nil
		})
	})
	return settleFunc
}

// awaitUntil waits for p, or until ctx ends (nil: forever), when it returns
// context.Cause(ctx).
func awaitUntil(ctx context.Context, p js.Value) (js.Value, error) {
	if !isObjectLike(p) {
		return p, nil
	}
	then, ok := safeGet(p, "then")
	if ok && TypeOf(then) != js.TypeFunction {
		return p, nil
	}
	// A throwing "then" getter (ok false) is left to Promise.resolve, which
	// turns it into a rejection, as await does.
	f := settleHandler()
	ch := make(chan settled, 1)
	waitMu.Lock()
	waitNext++
	id := waitNext
	waits[id] = ch
	waitMu.Unlock()
	forget := func() {
		waitMu.Lock()
		delete(waits, id)
		waitMu.Unlock()
	}
	if err := catch(func() {
		// Promise.resolve and then as they were when the Go program
		// started: a page that made Promise.prototype.then a no-op
		// afterwards left every awaited page promise (an async onToolCall's
		// decision) unsettled, and its run open until the timeout.
		resolved := reflectApply.Invoke(promiseRes, promiseCtor, arrayOf(p))
		reflectApply.Invoke(promiseThen, resolved, arrayOf(bind(f.Value, js.Null(), id, true), bind(f.Value, js.Null(), id, false)))
	}); err != nil {
		forget()
		return js.Undefined(), err
	}
	var done <-chan struct{}
	if ctx != nil {
		done = ctx.Done()
	}
	select {
	case s := <-ch:
		return s.v, s.err
	case <-done:
		forget()
		return js.Undefined(), context.Cause(ctx)
	}
}

func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

// NewPromise returns a JavaScript Promise and runs fn on a new goroutine
// (where it may block, call Await, and so on). The promise resolves with
// fn's value, or rejects with ErrorValue(err) when fn returns an error: the
// original exception for an *Error, otherwise a new Error with the error's
// message. A panic in fn rejects the promise with an Error reading
// "internal error: <panic>" (a panic with js.Error rejects with that
// JavaScript exception); it never ends the Go program.
//
// NewPromise itself does not block and may be called from a js.FuncOf
// callback. The only js.Func it creates, the promise executor, is released
// before NewPromise returns.
func NewPromise(fn func() (js.Value, error)) js.Value {
	executor := js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer resumeSpin(suspendSpin())
		resolve, reject := args[0], args[1]
		go func() {
			v, err := runRecovered(fn)
			if err != nil {
				reject.Invoke(ErrorValue(err))
				return
			}
			resolve.Invoke(v)
		}()
		return nil
	})
	defer executor.Release()
	return promiseCtor.New(executor)
}

func runRecovered(fn func() (js.Value, error)) (v js.Value, err error) {
	defer Recover(&err)
	return fn()
}
