//go:build js && wasm

package jsbridge

import (
	"os"
	"testing"
)

// TestDirectCallsInUse checks that the kitchen's exports and memory take
// the direct path when the runner provides its imports (scripts/wasmexec),
// which the Makefile's test-js requires with JSBRIDGE_EXPECT_FAST; the
// other tests of this package then run on it.
func TestDirectCallsInUse(t *testing.T) {
	if !direct() {
		if os.Getenv("JSBRIDGE_EXPECT_FAST") != "" {
			t.Fatal("JSBRIDGE_EXPECT_FAST is set, but the runner did not provide globalThis.__jsbridgeDirect")
		}
		t.Skip("no globalThis.__jsbridgeDirect: run with scripts/wasmexec/go_js_wasm_exec")
	}
	k := newKitchen(t)
	for name, typ := range kitchenTypes {
		f, err := k.inst.Func(name, typ)
		if err != nil {
			t.Fatal(err)
		}
		if want := directable(typ.Params, resultOf(typ.Results)); f.(*export).direct != want {
			t.Errorf("%s: direct %v, want %v", name, f.(*export).direct, want)
		}
	}
	if k.inst.(*instance).mem.slot < 0 {
		t.Error("the memory is not in the direct table")
	}
	// A closed instance's slots are emptied and reused.
	k.call("add", 1, 2)
	slots := append([]int32(nil), k.inst.(*instance).directSlots...)
	k.inst.Close()
	for _, s := range slots {
		if !directFns.Index(int(s)).IsUndefined() {
			t.Errorf("slot %d still holds a closed instance's export", s)
		}
	}
	k2 := newKitchen(t)
	if got := k2.call("add", 2, 3); got != 5 {
		t.Errorf("add on a reused slot = %d", got)
	}
	if s := k2.inst.(*instance).directSlots; len(s) != 1 || s[0] != slots[len(slots)-1] {
		t.Errorf("slots %v after %v: the freed slot was not reused", s, slots)
	}
}

func resultOf(results []vt) vt {
	if len(results) == 0 {
		return noResult
	}
	return results[0]
}

// TestWithoutDirectCalls runs the export, trap and memory tests again on
// the syscall/js path, which the other tests cover only when the runner
// gives no direct imports.
func TestWithoutDirectCalls(t *testing.T) {
	defer SetDirectCalls(SetDirectCalls(false))
	for name, test := range map[string]func(*testing.T){
		"AddI32":          TestAddI32,
		"I64":             TestI64,
		"Floats":          TestFloats,
		"ReentrantImport": TestReentrantImport,
		"Traps":           TestTraps,
		"Memory":          TestMemory,
		"MemoryCopyPaths": TestMemoryCopyPaths,
		"Close":           TestClose,
	} {
		t.Run(name, test)
	}
}
