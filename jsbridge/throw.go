//go:build js && wasm

package jsbridge

import (
	"syscall/js"
)

// A throwingFunc is a JavaScript function, built from standard built-ins
// only (no eval, no new Function), that calls a Go function and either
// returns its result or throws a JavaScript value of Go's choosing. A
// js.FuncOf alone cannot throw: its Go function can only return.
//
// Its core is two proxies around the Go function g (a js.FuncOf, bound to
// undefined so that Go receives no `this`):
//
//	t3   = Proxy(g.bind(undefined), h3)     // h3: normally empty
//	core = Proxy(t3, {get: Reflect.apply})
//
// Reading core[key] with receiver args, as Reflect.get(core, key, args)
// does, runs the get trap Reflect.apply(t3, key, args), which calls g with
// the elements of args. When the trap returns, the engine checks the Proxy
// invariant for get: it asks t3 for its own property key, which consults
// h3.getOwnPropertyDescriptor. Normally h3 has none, t3 has no such
// property, and g's result is returned. To throw, g installs
// h3.getOwnPropertyDescriptor = AbortSignal.prototype.throwIfAborted bound
// to AbortSignal.abort(value), which throws the signal's reason: the value
// itself. g removes it again before its next normal return.
//
// Two front ends turn a call into that property read:
//
//   - spread (host imports, called by WebAssembly with this undefined):
//     Proxy(core, {apply: Reflect.get}). Calling it with arguments a, b
//     runs Reflect.get(core, undefined, [a, b]), so g(a, b) receives the
//     arguments themselves, numbers for WebAssembly. This matters: every
//     object or string handed to Go costs a reference and a finalizer
//     (about 2 µs under Node), a number almost nothing.
//   - array (Func, and imports with an i64 parameter): Proxy(t1, {apply:
//     tp}) with tp = Proxy(core, {apply: Reflect.get}). Calling it with
//     this x and arguments args runs tp(t1, x, args), hence
//     Reflect.get(core, h1, [t1, x, args]) (h1, the handler, converts to
//     the key "go" through its Symbol.toPrimitive), hence g(t1, x, args):
//     Go gets `this` and the arguments as one array, which it reads itself
//     (so a BigInt argument can be converted in JavaScript first).
//
// Every handler has a null prototype, so nothing a page does to
// Object.prototype changes the behaviour. On an engine without
// AbortSignal.prototype.throwIfAborted, h3 gets a non-callable trap
// instead, and the call throws a TypeError rather than the chosen value.
type throwingFunc struct {
	value    js.Value // the function handed to JavaScript
	goFunc   js.Func
	h3       js.Value
	poisoned bool // h3 currently holds a throwing trap
}

// throwingCall is the Go side of a throwingFunc: it receives the arguments
// of g (see above) and returns either a result (converted by js.ValueOf) or,
// with threw set, a value to throw. A panic in it is thrown as an Error.
type throwingCall func(args []js.Value) (result any, exception js.Value, threw bool)

var (
	// keyOf gives h1 the property key "go" when converted (see above).
	keyOf             = bind(stringValueOf, js.ValueOf("go"))
	symbolToPrimitive = symbolFn.Get("toPrimitive")
	abortSignal       = global.Get("AbortSignal")
	throwIfAborted    = func() js.Value {
		if abortSignal.Type() != js.TypeFunction || abortSignal.Get("abort").Type() != js.TypeFunction {
			return js.Undefined()
		}
		return abortSignal.Get("prototype").Get("throwIfAborted")
	}()
)

// newNoop returns a fresh function that does nothing: Function.prototype
// bound to itself (callable, returns undefined, not a constructor).
func newNoop() js.Value {
	fp := global.Get("Function").Get("prototype")
	return bind(fp, fp)
}

// thrower returns a function that throws v when called.
func thrower(v js.Value) js.Value {
	if throwIfAborted.Type() != js.TypeFunction {
		return js.ValueOf(false) // not callable: the proxy throws a TypeError
	}
	return bind(throwIfAborted, abortSignal.Call("abort", v))
}

func proxyWith(target js.Value, traps map[string]js.Value) js.Value {
	h := nullObject()
	for k, v := range traps {
		h.Set(k, v)
	}
	return proxyCtor.New(target, h)
}

func newThrowingFunc(call throwingCall, spread bool) *throwingFunc {
	tf := &throwingFunc{h3: nullObject()}
	tf.goFunc = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer resumeSpin(suspendSpin())
		var (
			res   any
			exc   js.Value
			threw bool
		)
		func() {
			defer func() {
				if r := recover(); r != nil {
					exc, threw = ErrorValue(panicError(r)), true
				}
			}()
			res, exc, threw = call(args)
		}()
		if threw {
			tf.h3.Set("getOwnPropertyDescriptor", thrower(exc))
			tf.poisoned = true
			return nil
		}
		if tf.poisoned {
			// A nested call of this function threw since we last returned.
			tf.h3.Delete("getOwnPropertyDescriptor")
			tf.poisoned = false
		}
		return res
	})
	t3 := proxyCtor.New(bind(tf.goFunc.Value, js.Undefined()), tf.h3)
	core := proxyWith(t3, map[string]js.Value{"get": reflectApply})
	if spread {
		tf.value = proxyWith(core, map[string]js.Value{"apply": reflectGet})
		return tf
	}
	tp := proxyWith(core, map[string]js.Value{"apply": reflectGet})
	h1 := nullObject()
	h1.Set("apply", tp)
	reflectSet.Invoke(h1, symbolToPrimitive, keyOf)
	tf.value = proxyCtor.New(newNoop(), h1)
	return tf
}

// release releases the Go side; calling the function afterwards logs "call
// to released function" and returns undefined, like any released js.Func.
func (tf *throwingFunc) release() { tf.goFunc.Release() }

// Func returns a JavaScript function that calls fn, for synchronous entry
// points. Unlike js.FuncOf it never lets a panic end the Go program, and it
// can throw:
//
//   - if fn returns a non-nil error, the function throws ErrorValue(err):
//     the original exception for an *Error, or a new Error with err's
//     message (and the name of an ErrorName() string method in its chain);
//   - if fn panics with js.Error (a JavaScript exception raised by a
//     js.Value method), the function rethrows that exception;
//   - if fn panics otherwise, it throws an Error "internal error: <panic>".
//
// Any other result is converted with js.ValueOf. The Value of the returned
// js.Func is the throwing function (a Proxy, typeof "function", not a
// constructor); Release releases the Go side. Like any js.FuncOf callback,
// fn must not block. A call costs about twice a plain js.FuncOf call.
func Func(fn func(this js.Value, args []js.Value) any) js.Func {
	tf := newThrowingFunc(func(a []js.Value) (any, js.Value, bool) {
		// a is [t1, this, arguments array].
		argv := a[2]
		args := make([]js.Value, argv.Length())
		for i := range args {
			args[i] = argv.Index(i)
		}
		res := fn(a[1], args)
		if err, ok := res.(error); ok && err != nil {
			return nil, ErrorValue(err), true
		}
		// Convert here, where a panic of ValueOf (an unsupported type) is
		// still recovered.
		return js.ValueOf(res), js.Value{}, false
	}, false)
	f := tf.goFunc
	f.Value = tf.value
	return f
}
