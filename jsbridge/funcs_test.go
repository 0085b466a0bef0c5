//go:build js && wasm

package jsbridge

import (
	"syscall/js"
	"testing"
)

func TestFuncs(t *testing.T) {
	var fs Funcs
	obj := objectCtor.New()
	fs.Method(obj, "twice", func(args []js.Value) any { return 2 * args[0].Int() })
	fs.Method(obj, "panics", func([]js.Value) any { panic("broken") })
	if v, thrown := callJS(obj.Get("twice"), obj, 21); thrown != nil || v.Int() != 42 {
		t.Fatalf("twice(21) = %v, %v", v, thrown)
	}
	if _, thrown := callJS(obj.Get("panics"), obj); thrown == nil || thrown.Message != "internal error: broken" {
		t.Fatalf("a panic: thrown %v, want an Error", thrown)
	}
	if len(fs.funcs) != 2 {
		t.Fatalf("%d funcs kept, want 2", len(fs.funcs))
	}
	fs.Release()
	if len(fs.funcs) != 0 {
		t.Fatalf("%d funcs after Release", len(fs.funcs))
	}
	// A released function no longer reaches Go (syscall/js logs the call).
	if v, _ := callJS(obj.Get("twice"), obj, 1); !v.IsUndefined() {
		t.Errorf("released twice(1) = %v, want undefined", v)
	}
	fs.Release() // nothing left: a no-op
	if v, thrown := callJS(fs.Func(func(js.Value, []js.Value) any { return "new" }), js.Undefined()); thrown != nil || v.String() != "new" {
		t.Errorf("a Func made after Release: %v, %v", v, thrown)
	}
	fs.Release()
}
