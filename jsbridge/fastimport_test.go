//go:build js && wasm

package jsbridge

import (
	"os"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// TestFastImportsInUse checks that the kitchen's imports take the fast path
// when the runner provides Go's exports (scripts/wasmexec), which the
// Makefile's test-js requires with JSBRIDGE_EXPECT_FAST.
func TestFastImportsInUse(t *testing.T) {
	if !FastImportsAvailable() {
		if os.Getenv("JSBRIDGE_EXPECT_FAST") != "" {
			t.Fatal("JSBRIDGE_EXPECT_FAST is set, but the runner did not provide globalThis.__goExports")
		}
		t.Skip("no globalThis.__goExports: run with scripts/wasmexec/go_js_wasm_exec")
	}
	k := newKitchen(t)
	if k.inst.(*instance).fastN == 0 {
		t.Fatal("no fast imports")
	}
}

// TestTrampolineSharedByInstances checks that instances with the same
// imports share one compiled trampoline: the imports were taken in a map's
// order, which changes at every range, so each new instance compiled (and
// cached for good) a module of its own; on the calling thread, runs in
// flight at once made 0.9 of them per QuickJS instance.
func TestTrampolineSharedByInstances(t *testing.T) {
	if !FastImportsAvailable() {
		t.Skip("no globalThis.__goExports: run with scripts/wasmexec/go_js_wasm_exec")
	}
	newKitchen(t)
	count := func() int {
		trampolineMu.Lock()
		defer trampolineMu.Unlock()
		return len(trampolineModules)
	}
	before := count()
	for i := 0; i < 20; i++ {
		newKitchen(t)
	}
	if after := count(); after != before {
		t.Fatalf("20 more instances of one module compiled %d more trampolines, want 0", after-before)
	}
}

// TestFallbackImports runs the import tests again on the js.FuncOf path,
// which the other tests cover only when the runner gives no Go exports.
func TestFallbackImports(t *testing.T) {
	defer SetFastImports(SetFastImports(false))
	for name, test := range map[string]func(*testing.T){
		"AddI32":              TestAddI32,
		"I64":                 TestI64,
		"Floats":              TestFloats,
		"MixedAndVoidImports": TestMixedAndVoidImports,
		"ReentrantImport":     TestReentrantImport,
		"Traps":               TestTraps,
		"Close":               TestClose,
		"Poll":                TestPoll,
	} {
		t.Run(name, func(t *testing.T) {
			test(t)
			if k := newKitchen(t); k.inst.(*instance).fastN != 0 {
				t.Fatal("fast imports while turned off")
			}
		})
	}
}

// TestFastSlotsCloseDuringCall checks that an instance closed by one of its
// own host imports keeps its slots until the export call returns: until
// then its trampoline may still run, and a slot reused by another instance
// would call the wrong import.
func TestFastSlotsCloseDuringCall(t *testing.T) {
	if !FastImportsAvailable() {
		t.Skip("no fast imports")
	}
	k := newKitchen(t)
	inst := k.inst.(*instance)
	var during int
	k.reenter = func(x uint32) uint32 {
		inst.Close()
		during = inst.fastN
		// A new instance now must not take the closed one's slots.
		if other := newKitchen(t); other.inst.(*instance).fastBase == inst.fastBase {
			t.Error("a closed instance's slots were reused during its call")
		}
		return x
	}
	if got, err := k.try("outer", 3); err != nil || got != 4 {
		t.Errorf("outer(3) closing its instance = %d, %v; want 4", got, err)
	}
	if during == 0 {
		t.Error("slots freed while the instance's call was in progress")
	}
	if inst.fastN != 0 {
		t.Error("slots not freed once the call returned")
	}
}

// TestTrampolineBytes checks that the engine accepts trampolines of many
// imports (multi-byte LEB128 sizes and slot constants) and every value type.
func TestTrampolineBytes(t *testing.T) {
	all := []wasmhost.ValueType{wasmhost.I32, wasmhost.I64, wasmhost.F32, wasmhost.F64}
	var types []wasmhost.FuncType
	for i := range 300 {
		n := i % (fastArgs + 1)
		ft := wasmhost.FuncType{Params: make([]wasmhost.ValueType, n)}
		for j := range n {
			ft.Params[j] = all[(i+j)%4]
		}
		if i%5 != 4 {
			ft.Results = []wasmhost.ValueType{all[i%4]}
		}
		types = append(types, ft)
	}
	if _, err := trampolineModule(types); err != nil {
		t.Fatal(err)
	}
}

// TestBlockingHostFunc checks that a host function may block on a timer,
// as a js.FuncOf callback may: on the fast path the runtime must not pause
// (return to JavaScript) while the export's frame is on the stack.
func TestBlockingHostFunc(t *testing.T) {
	for _, fast := range []bool{true, false} {
		func() {
			defer SetFastImports(SetFastImports(fast))
			k := newKitchen(t)
			k.reenter = func(x uint32) uint32 {
				time.Sleep(2 * time.Millisecond)
				ch := make(chan uint32)
				go func() {
					time.Sleep(time.Millisecond)
					ch <- x * 2
				}()
				return <-ch
			}
			if got, err := k.try("outer", 4); err != nil || got != 9 {
				t.Errorf("fast=%v: outer(4) with a sleeping host function = %d, %v; want 9", fast, got, err)
			}
		}()
	}
}
