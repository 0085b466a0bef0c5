//go:build js && wasm

package jsbridge

import (
	"fmt"
	"math"
	"syscall/js"
)

// maxElements bounds what Elements allocates for a page-supplied length.
const maxElements = 1 << 24

// Value and Type name JavaScript values for the layers above (the wasm
// command, the benchmark engine), which do not import syscall/js: they read
// page-supplied objects only through this package's safe helpers (Get,
// Call, Elements, TypeOf, ...), and use Value's own methods only where
// nothing of the page can run (String of a string, Float of a number,
// Truthy, Set on objects they made).
type (
	Value = js.Value
	Type  = js.Type
)

// The types of Value.Type.
const (
	TypeUndefined = js.TypeUndefined
	TypeNull      = js.TypeNull
	TypeBoolean   = js.TypeBoolean
	TypeNumber    = js.TypeNumber
	TypeString    = js.TypeString
	TypeSymbol    = js.TypeSymbol
	TypeObject    = js.TypeObject
	TypeFunction  = js.TypeFunction
)

// TypeBigInt is TypeOf's type of a BigInt, which js.Value.Type does not
// know: it panics, and so does TypeBigInt.String() (Describe names it).
const TypeBigInt = TypeFunction + 1

// TypeOf is v.Type() that never panics. js.Value.Type panics on a BigInt
// ("bad type flag"), which a page can put anywhere it hands a value over
// (a config's timeout: 10n, an error's name, onToolCall's decision): the
// panic reached the page as "internal error: bad type flag".
func TypeOf(v Value) (t Type) {
	defer func() {
		if recover() != nil {
			t = TypeBigInt
		}
	}()
	return v.Type()
}

// Undefined returns JavaScript's undefined.
func Undefined() Value { return js.Undefined() }

// ValueOf returns v as a JavaScript value, as Call converts its arguments:
// a value made once and passed to many calls is converted once.
func ValueOf(v any) Value { return js.ValueOf(v) }

// Global returns the Go program's global object (under the loader, its
// private shadow of globalThis).
func Global() Value { return global }

// NewObject returns a new plain object, made with the Object constructor
// found when the program started.
func NewObject() Value { return objectCtor.New() }

// NewArray returns a new array of the values (converted as js.ValueOf does).
func NewArray(values ...any) Value { return arrayOf(values...) }

// IsArray reports Array.isArray(v); false if that throws (a revoked proxy).
func IsArray(v Value) (ok bool) {
	if !isObjectLike(v) {
		return false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return arrayIsArray.Invoke(v).Bool()
}

// IsWasmModule reports whether v is a WebAssembly.Module, by the brand
// check of WebAssembly.Module.imports, which throws for anything else (a
// revoked proxy, an object tagged "WebAssembly.Module"). Not instanceof: a
// module made in another realm is one too, as Next.js's edge runtime hands
// a route's "x.wasm?module" import, made outside the route's vm context.
func IsWasmModule(v Value) (ok bool) {
	if !isObjectLike(v) {
		return false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	reflectApply.Invoke(wasmModuleImports, wasmModuleCtor, arrayOf(v))
	return true
}

// instanceOf is v instanceof ctor for a built-in ctor, false if that
// throws. js.Value.InstanceOf cannot be used on page values: wasm_exec.js
// does not catch there, and an exception unwinding through Go's frames
// ends the program.
func instanceOf(v, ctor Value) (ok bool) {
	if !isObjectLike(v) {
		return false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return reflectApply.Invoke(hasInstance, ctor, arrayOf(v)).Bool()
}

// callMethod calls v[name](args...) with this v, reading the method with
// Reflect.get. js.Value.Call is unsafe on page values: when the call
// throws, it reads the property again with js.Value.Get to describe the
// failure, and a second throw there ends the program.
func callMethod(v Value, name string, args ...any) (res Value, err error) {
	defer Recover(&err)
	m := reflectGet.Invoke(v, name)
	return reflectApply.Invoke(m, v, arrayOf(args...)), nil
}

// Call calls fn(args...) with this undefined. A throw comes back as an
// *Error, and so does calling a value that is not a function.
func Call(fn Value, args ...any) (v Value, err error) {
	defer Recover(&err)
	return fn.Invoke(args...), nil
}

// Elements returns the elements of a page-supplied array or array-like
// object (a typed array, say), read with Reflect.get: a throwing length or
// index getter (a proxy) gives an error, as does a value without a
// non-negative integer length. (js.Value's Length and Index must not be
// used on page values: wasm_exec.js does not catch there, and an exception
// unwinding through Go's frames ends the program.)
func Elements(list Value) (elems []Value, err error) {
	n, err := Len(list)
	if err != nil {
		return nil, err
	}
	defer Recover(&err)
	elems = make([]Value, n)
	for i := range elems {
		elems[i] = reflectGet.Invoke(list, i)
	}
	return elems, nil
}

// Len is the length of an array or array-like object, read as Elements
// reads it.
func Len(list Value) (n int, err error) {
	if !isObjectLike(list) {
		return 0, fmt.Errorf("not an object")
	}
	defer Recover(&err)
	length := reflectGet.Invoke(list, "length")
	if TypeOf(length) != js.TypeNumber || length.Float() < 0 || length.Float() != math.Trunc(length.Float()) || length.Float() > maxElements {
		return 0, fmt.Errorf("no length")
	}
	return length.Int(), nil
}

// Element returns list[i], read with Reflect.get as Elements reads it: one
// element without a Value per element of the list.
func Element(list Value, i int) (v Value, err error) {
	if !isObjectLike(list) {
		return js.Undefined(), fmt.Errorf("not an object")
	}
	defer Recover(&err)
	return reflectGet.Invoke(list, i), nil
}

// Keys returns Object.keys(v): the own enumerable string keys of an object.
// A proxy's throwing ownKeys trap or a non-object is an error.
func Keys(v Value) (keys []string, err error) {
	defer Recover(&err)
	list := objectKeys.Invoke(v)
	keys = make([]string, list.Length())
	for i := range keys {
		keys[i] = list.Index(i).String()
	}
	return keys, nil
}

// Bytes copies the bytes of a Uint8Array (a Node Buffer is one).
func Bytes(v Value) (b []byte, err error) {
	if !instanceOf(v, uint8Array) {
		return nil, fmt.Errorf("expected a Uint8Array, got %s", Describe(v))
	}
	defer Recover(&err)
	b = make([]byte, reflectGet.Invoke(v, "length").Int())
	js.CopyBytesToGo(b, v)
	return b, nil
}

// StringBytes is the UTF-8 text of the string v, copied into Go once: a
// json.RawMessage of v.String() was its third copy (syscall/js loads the
// bytes, then makes a string of them), and a tool's result of 100 MB grew
// the Go core's memory, which never shrinks, by twice its size.
func StringBytes(v Value) []byte {
	u := textEncode.Invoke(v)
	b := make([]byte, u.Length())
	js.CopyBytesToGo(b, u)
	return b
}

// Describe names a value's type for an error message ("the string \"x\"",
// "an array", "null"), without running any of the page's code.
func Describe(v Value) string {
	switch t := TypeOf(v); t {
	case TypeBigInt:
		return "bigint"
	case js.TypeNull:
		return "null"
	case js.TypeString:
		return fmt.Sprintf("the string %q", v.String())
	case js.TypeNumber:
		// Infinity as JavaScript writes it, not Go's +Inf.
		if f := v.Float(); math.IsInf(f, 0) {
			if f < 0 {
				return "the number -Infinity"
			}
			return "the number Infinity"
		}
		return fmt.Sprintf("the number %v", v.Float())
	case js.TypeObject:
		if IsArray(v) {
			return "an array"
		}
		return "an object"
	default:
		return t.String()
	}
}
