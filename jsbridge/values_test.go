//go:build js && wasm

package jsbridge

import (
	"errors"
	"math"
	"strings"
	"syscall/js"
	"testing"
)

// throwingProxy returns a proxy of target whose get trap throws
// TypeError("trap"), as a hostile page object would.
func throwingProxy(t *testing.T, target js.Value) js.Value {
	trap := Func(func(js.Value, []js.Value) any { return &Error{Value: NewError("TypeError", "trap")} })
	t.Cleanup(trap.Release)
	h := objectCtor.New()
	h.Set("get", trap.Value)
	return proxyCtor.New(target, h)
}

func revokedProxy() js.Value {
	r := proxyCtor.Call("revocable", arrayCtor.New(), objectCtor.New())
	r.Call("revoke")
	return r.Get("proxy")
}

func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		v    js.Value
		want string
	}{
		{js.Null(), "null"},
		{js.Undefined(), "undefined"},
		{js.ValueOf("x"), `the string "x"`},
		{js.ValueOf(1.5), "the number 1.5"},
		{js.ValueOf(math.Inf(1)), "the number Infinity"},
		{js.ValueOf(math.Inf(-1)), "the number -Infinity"},
		{js.ValueOf(true), "boolean"},
		{arrayOf(1), "an array"},
		{objectCtor.New(), "an object"},
		{revokedProxy(), "an object"}, // Array.isArray throws on it: not read as an array
		{Func(func(js.Value, []js.Value) any { return nil }).Value, "function"},
		{js.Global().Get("BigInt").Invoke(7), "bigint"}, // js.Value.Type panics on it
	} {
		if got := Describe(tc.v); got != tc.want {
			t.Errorf("Describe(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestIsArrayAndIsWasmModule(t *testing.T) {
	if !IsArray(arrayOf()) || IsArray(objectCtor.New()) || IsArray(js.ValueOf("[]")) || IsArray(revokedProxy()) {
		t.Error("IsArray")
	}
	// The smallest module: the magic number and version 1.
	mod := wasmModuleCtor.New(bytesToJS([]byte{0, 'a', 's', 'm', 1, 0, 0, 0}))
	if !IsWasmModule(mod) || IsWasmModule(objectCtor.New()) || IsWasmModule(js.Undefined()) || IsWasmModule(revokedProxy()) {
		t.Error("IsWasmModule")
	}
	// Tagged as one, or inheriting from its prototype, an object is not one.
	tagged := objectCtor.New()
	reflectSet.Invoke(tagged, symbolFn.Get("toStringTag"), "WebAssembly.Module")
	if IsWasmModule(tagged) || IsWasmModule(objectCtor.Call("create", wasmModuleCtor.Get("prototype"))) {
		t.Error("IsWasmModule: an object that only looks like a module")
	}
}

func TestCall(t *testing.T) {
	v, err := Call(global.Get("Math").Get("max"), 2, 7)
	if err != nil || v.Int() != 7 {
		t.Fatalf("Math.max: %v, %v", v, err)
	}
	_, err = Call(jsonObj.Get("parse"), "{")
	var je *Error
	if !errors.As(err, &je) || je.Name != "SyntaxError" {
		t.Errorf("a throw: err = %v, want the SyntaxError", err)
	}
	if _, err := Call(js.ValueOf(3)); err == nil {
		t.Error("calling a number: no error")
	}
}

func TestElements(t *testing.T) {
	got, err := Elements(arrayOf("a", "b"))
	if err != nil || len(got) != 2 || got[1].String() != "b" {
		t.Fatalf("Elements = %v, %v", got, err)
	}
	_, err = Elements(throwingProxy(t, arrayOf(1)))
	var je *Error
	if !errors.As(err, &je) || je.Message != "trap" {
		t.Errorf("throwing length: err = %v, want the trap's TypeError", err)
	}
	// Array-likes: a typed array, an object with a length.
	f32 := global.Get("Float32Array").New(3)
	f32.SetIndex(2, 1.5)
	if got, err := Elements(f32); err != nil || len(got) != 3 || got[2].Float() != 1.5 {
		t.Errorf("Float32Array: %v, %v", got, err)
	}
	like := objectCtor.New()
	like.Set("length", 2)
	like.Set("1", "x")
	if got, err := Elements(like); err != nil || len(got) != 2 || !got[0].IsUndefined() || got[1].String() != "x" {
		t.Errorf("array-like: %v, %v", got, err)
	}
	for _, length := range []any{js.Undefined(), -1, 1.5, "2", 1 << 30} {
		o := objectCtor.New()
		o.Set("length", length)
		if _, err := Elements(o); err == nil || err.Error() != "no length" {
			t.Errorf("length %v: err = %v, want no length", length, err)
		}
	}
	if _, err := Elements(js.ValueOf("abc")); err == nil {
		t.Error("a string: no error")
	}
}

// TestLenElement: one element of a list without reading the others, and
// the same length rules and trap errors as Elements.
func TestLenElement(t *testing.T) {
	list := arrayOf("a", "b", "c")
	if n, err := Len(list); n != 3 || err != nil {
		t.Errorf("Len = %d, %v", n, err)
	}
	if v, err := Element(list, 2); err != nil || v.String() != "c" {
		t.Errorf("Element(2) = %v, %v", v, err)
	}
	if v, err := Element(list, 5); err != nil || !v.IsUndefined() {
		t.Errorf("Element(5) = %v, %v, want undefined", v, err)
	}
	var je *Error
	if _, err := Len(throwingProxy(t, arrayOf(1))); !errors.As(err, &je) || je.Message != "trap" {
		t.Errorf("throwing length: err = %v, want the trap's TypeError", err)
	}
	if _, err := Element(throwingProxy(t, arrayOf(1)), 0); !errors.As(err, &je) || je.Message != "trap" {
		t.Errorf("throwing get: err = %v, want the trap's TypeError", err)
	}
	if _, err := Len(js.ValueOf("abc")); err == nil {
		t.Error("Len of a string: no error")
	}
}

func TestKeys(t *testing.T) {
	obj := objectCtor.New()
	obj.Set("a", 1)
	obj.Set("b", 2)
	if got, err := Keys(obj); err != nil || strings.Join(got, ",") != "a,b" {
		t.Errorf("Keys = %q, %v", got, err)
	}
	trap := Func(func(js.Value, []js.Value) any { return errors.New("no keys") })
	defer trap.Release()
	h := objectCtor.New()
	h.Set("ownKeys", trap.Value)
	if _, err := Keys(proxyCtor.New(objectCtor.New(), h)); err == nil || !strings.Contains(err.Error(), "no keys") {
		t.Errorf("throwing ownKeys: err = %v", err)
	}
	if _, err := Keys(js.Null()); err == nil {
		t.Error("null: no error")
	}
}

func TestBytes(t *testing.T) {
	if b, err := Bytes(bytesToJS([]byte{1, 2, 3})); err != nil || string(b) != "\x01\x02\x03" {
		t.Errorf("Bytes = %v, %v", b, err)
	}
	if _, err := Bytes(arrayOf(1)); err == nil || !strings.Contains(err.Error(), "expected a Uint8Array, got an array") {
		t.Errorf("an array: err = %v", err)
	}
}

func TestGetThrowingProxy(t *testing.T) {
	if _, err := Get(throwingProxy(t, objectCtor.New()), "x"); err == nil {
		t.Error("no error from a throwing get trap")
	}
}
