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

// TestFuncsOnce: a function made by Once leaves its owner after its first
// call (what it holds is freed then, not at the owner's Release), and a
// later call no longer reaches Go.
func TestFuncsOnce(t *testing.T) {
	var fs Funcs
	calls := 0
	keep := fs.Func(func(js.Value, []js.Value) any { return "kept" })
	once := fs.Once(func(_ js.Value, args []js.Value) any { calls++; return args[0].Int() + 1 })
	if len(fs.funcs) != 2 {
		t.Fatalf("%d funcs kept, want 2", len(fs.funcs))
	}
	if v, thrown := callJS(once, js.Undefined(), 41); thrown != nil || v.Int() != 42 {
		t.Fatalf("once(41) = %v, %v", v, thrown)
	}
	if len(fs.funcs) != 1 {
		t.Errorf("%d funcs kept after the call, want 1 (the other function)", len(fs.funcs))
	}
	if v, _ := callJS(once, js.Undefined(), 1); !v.IsUndefined() || calls != 1 {
		t.Errorf("a second call = %v with %d calls of fn, want undefined and 1", v, calls)
	}
	fs.Release()
	if v, _ := callJS(keep, js.Undefined()); !v.IsUndefined() {
		t.Errorf("released kept() = %v, want undefined", v)
	}
	// A Once function never called is released with its owner.
	never := fs.Once(func(js.Value, []js.Value) any { calls++; return nil })
	fs.Release()
	if callJS(never, js.Undefined()); calls != 1 || len(fs.funcs) != 0 {
		t.Errorf("a released Once function ran (%d calls) or was kept (%d)", calls, len(fs.funcs))
	}
}
