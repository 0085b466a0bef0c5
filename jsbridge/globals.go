//go:build js && wasm

package jsbridge

import "syscall/js"

// Built-ins looked up once, when the Go program starts: a page that
// replaces one of them later does not affect this package.
var (
	global = js.Global()
	// The loader's builtins of load time (web/src/intrinsics.mjs
	// goIntrinsics), for those a page may have replaced before this program
	// started that the loader's shadow global cannot answer: prototype
	// members. Without a loader (GOOS=js tests), the global's.
	loaded = global.Get("__jsbridgeIntrinsics")

	objectCtor    = global.Get("Object")
	objectCreate  = objectCtor.Get("create")
	arrayCtor     = global.Get("Array")
	arrayFrom     = arrayCtor.Get("from")
	arrayMap      = intrinsic("map", func() js.Value { return arrayCtor.Get("prototype").Get("map") })
	stringFn      = global.Get("String")
	symbolFn      = global.Get("Symbol")
	promiseCtor   = intrinsic("Promise", func() js.Value { return global.Get("Promise") })
	promiseThen   = intrinsic("then", func() js.Value { return promiseCtor.Get("prototype").Get("then") })
	promiseRes    = intrinsic("resolve", func() js.Value { return promiseCtor.Get("resolve") })
	errorCtor     = global.Get("Error")
	reflectObj    = global.Get("Reflect")
	reflectGet    = reflectObj.Get("get")
	reflectSet    = reflectObj.Get("set")
	reflectApply  = reflectObj.Get("apply")
	ownDescriptor = reflectObj.Get("getOwnPropertyDescriptor")
	prototypeOf   = reflectObj.Get("getPrototypeOf")
	proxyCtor     = global.Get("Proxy")
	uint8Array    = global.Get("Uint8Array")
	dataViewCtor  = global.Get("DataView")
	jsonObj       = global.Get("JSON")
	funcProtoBind = intrinsic("bind", func() js.Value { return global.Get("Function").Get("prototype").Get("bind") })
	webAssembly   = global.Get("WebAssembly")

	arrayIsArray   = arrayCtor.Get("isArray")
	wasmModuleCtor = webAssembly.Get("Module")
	// Read once: WebAssembly.Module.imports, IsWasmModule's brand check.
	wasmModuleImports = wasmModuleCtor.Get("imports")
	objectKeys        = objectCtor.Get("keys")
	hasInstance       = reflectGet.Invoke(global.Get("Function").Get("prototype"), symbolFn.Get("hasInstance"))
	stringValueOf     = intrinsic("stringValueOf", func() js.Value { return stringFn.Get("prototype").Get("valueOf") })
	textEncoder       = global.Get("TextEncoder").New()
	textEncode        = bind(textEncoder.Get("encode"), textEncoder)
)

// intrinsic returns the loader's builtin name, or what fallback reads from
// the global when there is no loader's table.
func intrinsic(name string, fallback func() js.Value) js.Value {
	if loaded.Type() == js.TypeObject {
		if v := loaded.Get(name); v.Type() == js.TypeFunction {
			return v
		}
	}
	return fallback()
}

// nullObject returns a new object without a prototype, so that nothing a
// page does to Object.prototype can reach it.
func nullObject() js.Value { return objectCreate.Invoke(js.Null()) }

// bind returns fn.bind(this, args...).
func bind(fn, this js.Value, args ...any) js.Value {
	return reflectApply.Invoke(funcProtoBind, fn, arrayOf(append([]any{this}, args...)...))
}

// arrayOf returns a JavaScript array of the values.
func arrayOf(values ...any) js.Value {
	a := arrayCtor.New(len(values))
	for i, v := range values {
		a.SetIndex(i, v)
	}
	return a
}

// isObjectLike reports whether v is a JavaScript object or function. It is
// safe on every value, including BigInts (on which js.Value.Type panics).
func isObjectLike(v js.Value) bool {
	t := TypeOf(v)
	return t == js.TypeObject || t == js.TypeFunction
}

// safeGet reads v[key] through Reflect.get, so that a throwing getter or
// proxy trap becomes a Go panic with js.Error (recovered by the caller)
// rather than an exception unwinding through Go's frames, which is what
// js.Value.Get does.
func safeGet(v js.Value, key string) (val js.Value, ok bool) {
	defer func() {
		if recover() != nil {
			val, ok = js.Undefined(), false
		}
	}()
	if !isObjectLike(v) {
		return js.Undefined(), false
	}
	return reflectGet.Invoke(v, key), true
}

// safeString returns String(v), or fallback if that throws.
func safeString(v js.Value, fallback string) (s string) {
	defer func() {
		if recover() != nil {
			s = fallback
		}
	}()
	return stringFn.Invoke(v).String()
}

// Get reads v[key] safely for values the page supplied: a getter or proxy
// trap that throws becomes an error instead of unwinding through Go. A
// primitive v reads as undefined.
func Get(v js.Value, key string) (val js.Value, err error) {
	if !isObjectLike(v) {
		return js.Undefined(), nil
	}
	defer Recover(&err)
	return reflectGet.Invoke(v, key), nil
}

// OnlyOnRootPrototype reports whether v's key is found only on the last
// object of v's prototype chain, Object.prototype (of any realm: an
// iframe's too), so that a value a polluted Object.prototype holds is not
// read as the page's. A chain longer than any a page builds (a proxy's
// getPrototypeOf may make one without end) counts as the page's. A trap
// that throws is an error.
func OnlyOnRootPrototype(v js.Value, key string) (bool, error) {
	o := v
	for depth := 0; depth < 64; depth++ {
		d, err := Call(ownDescriptor, o, key)
		if err != nil {
			return false, err
		}
		if !d.IsUndefined() && depth == 0 {
			return false, nil
		}
		p, err := Call(prototypeOf, o)
		if err != nil {
			return false, err
		}
		if !d.IsUndefined() || p.IsNull() {
			return !d.IsUndefined() && p.IsNull(), nil
		}
		o = p
	}
	return false, nil
}
