//go:build js && wasm

package jsbridge

import (
	"runtime"
	"strconv"
	"sync"
	"syscall/js"

	"github.com/interopio/code-mode/internal/wasmbin"
	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// The fast path for host imports. A syscall/js callback (js.FuncOf) costs
// about 6 µs per call; a call into a //go:wasmexport function from
// WebAssembly costs tens of nanoseconds. When the loader makes this Go
// program's own instance exports available as the global __goExports (see
// web/src/index.mjs and scripts/wasmexec/go_js_wasm_exec), each host import is the
// export of a small trampoline module, generated below, that calls Go's
// jsbridge_import export directly: WebAssembly to WebAssembly to Go, with
// no JavaScript and no BigInt. Without __goExports (a plain
// go_js_wasm_exec, say), or for an import the trampoline cannot carry, the
// import is a js.FuncOf function as before (imports.go).
//
// Per instance, the trampoline is
//
//	(module
//	  (import "g" "f" (func $go (param i32 i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))
//	  (import "g" "base" (global $base i32))
//	  (global $trapped (export "t") (mut i32) (i32.const 0))
//	  (func (export "0") (param ...) (result ...)  ;; one per import, its exact type
//	    (call $go (i32.add (global.get $base) (i32.const 0))
//	              ...each parameter widened to i64, then zeros...)
//	    (if (global.get $trapped)
//	      (then (global.set $trapped (i32.const 0)) unreachable))
//	    ...the i64 narrowed to the result type, or dropped...)
//	  ...)
//
// The slot (base + index) names the import's hostCall in fastSlots. A panic
// in the Go function is recovered inside the export (a panic must never
// leave a wasmexport function: the program would die), recorded in the
// instance's pending error like on the slow path, and the export sets the
// trampoline's $trapped before it returns: the trampoline then executes
// unreachable, the trap unwinds QuickJS, and the export call that caught it
// (export.Call) returns the recorded panic wrapped with wasmhost.ErrTrap.
//
// Go is single-threaded under GOOS=js and a wasmexport function runs on the
// goroutine whose call into WebAssembly led to it, so re-entrant calls
// (a host import calling an export that calls a host import...) simply nest.

// fastArgs is the number of i64 arguments after the slot; an import with
// more parameters takes the slow path.
const fastArgs = 8

var (
	// fastOff disables the fast path (tests force the fallback with it).
	fastOff bool

	fastChecked bool
	fastGoFunc  js.Value // __goExports.jsbridge_import, or undefined

	// fastSlots maps a slot to its host import; nil marks a free slot.
	fastSlots []*hostCall
	// fastFree lists freed blocks of slots (their base) by size.
	fastFree = map[int][]int{}

	trampolineMu      sync.Mutex
	trampolineModules = map[string]js.Value{} // compiled trampolines by import types
)

// fastImport is the Go side of every fast host import.
//
//go:wasmexport jsbridge_import
func fastImport(slot int32, a0, a1, a2, a3, a4, a5, a6, a7 int64) int64 {
	if slot < 0 || int(slot) >= len(fastSlots) || fastSlots[slot] == nil {
		return 0 // unreachable: a closed instance's exports are gone
	}
	h := fastSlots[slot]
	h.inst.epoch++
	a := h.args()
	raw := [fastArgs]int64{a0, a1, a2, a3, a4, a5, a6, a7}
	for i, t := range h.params {
		v := uint64(raw[i])
		switch t {
		case wasmhost.I32, wasmhost.F32:
			v = uint64(uint32(v))
		}
		a[i] = v
	}
	fastActive++
	if !spinning {
		spinning = true
		go spin(spinGen)
	}
	r, ok := h.run(a)
	fastActive--
	if !ok {
		// Only on a panic: the Set cannot throw, but nothing may escape.
		catch(func() { h.inst.fastTrapped.Set("value", 1) })
		return 0
	}
	return int64(r)
}

// fastActive counts the fast import calls in progress, spinning tells
// whether spin runs, and spinGen ends the spin of an older generation.
var (
	fastActive int
	spinning   bool
	spinGen    uint64
)

// spin stays runnable while a fast import call is in progress. A Go
// function that blocks (time.Sleep, a channel a timer fills) lets the
// scheduler run other goroutines; were none runnable, the runtime would
// pause, returning to JavaScript through the export's frame, which is
// fatal. (A js.FuncOf callback is registered as an event and the runtime
// waits for its timers instead.) spin keeps a goroutine runnable, yielding,
// so the scheduler keeps checking its timers until the call is done, as
// for a callback. It is started once per burst of calls: it stays queued
// while the caller's goroutine runs, and ends the first time it runs with
// no call in progress.
func spin(gen uint64) {
	for fastActive > 0 && spinGen == gen {
		runtime.Gosched()
	}
	if spinGen == gen {
		spinning = false
	}
}

// suspendSpin is called on entry to every JavaScript-to-Go callback, and
// resumeSpin(its result) on return. The runtime hands a callback's result
// back to JavaScript only once no goroutine is runnable: a callback nested
// in a fast import call (the page's onEvent, called with a console line
// from inside a run, calling session.getSystemInstruction()) never
// returned while spin kept yielding for the call below it, and the thread
// spun for ever. So spin ends for the callback's duration, and the fast
// import calls made inside it count on their own. The call below runs on
// without spin once the callback has returned, until a fast import call
// starts one again (restarting it from the callback would keep the runtime
// busy again; the host imports' Go code does not wait on timers there).
func suspendSpin() int {
	saved := fastActive
	if saved > 0 {
		fastActive = 0
		spinGen++
		spinning = false
	}
	return saved
}

func resumeSpin(saved int) { fastActive += saved }

// goImportFunc returns Go's jsbridge_import export, or false when the
// loader did not make it available or the fast path is off.
func goImportFunc() (js.Value, bool) {
	if fastOff {
		return js.Undefined(), false
	}
	if !fastChecked {
		fastChecked = true
		fastGoFunc = js.Undefined()
		if exp, ok := safeGet(global, "__goExports"); ok && exp.Type() == js.TypeObject {
			if f, ok := safeGet(exp, "jsbridge_import"); ok && f.Type() == js.TypeFunction {
				fastGoFunc = f
			}
		}
	}
	return fastGoFunc, fastGoFunc.Type() == js.TypeFunction
}

// fastImportable reports whether the trampoline can carry an import of
// type t.
func fastImportable(t wasmhost.FuncType) bool {
	if len(t.Params) > fastArgs || len(t.Results) > 1 {
		return false
	}
	for _, v := range append(append([]wasmhost.ValueType{}, t.Params...), t.Results...) {
		switch v {
		case wasmhost.I32, wasmhost.I64, wasmhost.F32, wasmhost.F64:
		default:
			return false
		}
	}
	return true
}

// fastImports returns the trampoline functions of calls (in order), or
// false when the fast path is unavailable; the caller then uses js.FuncOf
// functions.
func (inst *instance) fastImports(calls []*hostCall) ([]js.Value, bool) {
	if len(calls) == 0 {
		return nil, false
	}
	goFn, ok := goImportFunc()
	if !ok {
		return nil, false
	}
	types := make([]wasmhost.FuncType, len(calls))
	for i, h := range calls {
		types[i] = h.hf.Type
	}
	mod, err := trampolineModule(types)
	if err != nil {
		return nil, false
	}
	base := allocSlots(len(calls))
	var exports js.Value
	if catch(func() {
		g := objectCtor.New()
		g.Set("f", goFn)
		g.Set("base", base)
		imports := objectCtor.New()
		imports.Set("g", g)
		exports = webAssembly.Get("Instance").New(mod, imports).Get("exports")
	}) != nil {
		freeSlots(base, len(calls))
		return nil, false
	}
	for i, h := range calls {
		fastSlots[base+i] = h
	}
	inst.fastTrapped = exports.Get("t")
	inst.fastBase, inst.fastN = base, len(calls)
	fns := make([]js.Value, len(calls))
	for i := range calls {
		fns[i] = exports.Get(strconv.Itoa(i))
	}
	return fns, true
}

// freeFastSlots frees the instance's slots once it is closed and no export
// call is in progress: until then its trampoline may still run, and its
// slots must not name another instance's imports.
func (inst *instance) freeFastSlots() {
	if inst.fastN == 0 || inst.depth > 0 {
		return
	}
	freeSlots(inst.fastBase, inst.fastN)
	inst.fastN = 0
}

func allocSlots(n int) int {
	if bases := fastFree[n]; len(bases) > 0 {
		base := bases[len(bases)-1]
		fastFree[n] = bases[:len(bases)-1]
		return base
	}
	base := len(fastSlots)
	fastSlots = append(fastSlots, make([]*hostCall, n)...)
	return base
}

func freeSlots(base, n int) {
	for i := base; i < base+n; i++ {
		fastSlots[i] = nil
	}
	fastFree[n] = append(fastFree[n], base)
}

// trampolineModule returns the compiled trampoline for imports of types.
func trampolineModule(types []wasmhost.FuncType) (js.Value, error) {
	var key []byte
	for _, t := range types {
		key = wasmbin.AppendFuncType(key, t)
	}
	trampolineMu.Lock()
	defer trampolineMu.Unlock()
	if m, ok := trampolineModules[string(key)]; ok {
		return m, nil
	}
	var m js.Value
	if err := catch(func() { m = webAssembly.Get("Module").New(bytesToJS(trampolineBytes(types))) }); err != nil {
		return js.Undefined(), err
	}
	trampolineModules[string(key)] = m
	return m, nil
}

// trampolineBytes builds the trampoline module for imports of types.
func trampolineBytes(types []wasmhost.FuncType) []byte {
	i32, i64 := wasmhost.I32, wasmhost.I64
	// Types: 0 is Go's export, 1+i is import i's.
	goType := wasmbin.FuncType{Params: []wasmhost.ValueType{i32}, Results: []wasmhost.ValueType{i64}}
	for range fastArgs {
		goType.Params = append(goType.Params, i64)
	}
	m := wasmbin.Module{
		Types: append([]wasmbin.FuncType{goType}, types...),
		Imports: []wasmbin.Import{
			{Module: "g", Name: "f", Kind: wasmbin.KindFunc, TypeIndex: 0},
			{Module: "g", Name: "base", Kind: wasmbin.KindGlobal, Global: wasmbin.GlobalType{Type: i32}},
		},
		// Global 1 (after the imported base) is the trap flag, "t".
		Globals: []wasmbin.Global{{Type: i32, Mut: true, Init: wasmbin.I32Const(0)}},
		Exports: []wasmbin.Export{{Name: "t", Kind: wasmbin.KindGlobal, Index: 1}},
	}
	for i, t := range types {
		m.Funcs = append(m.Funcs, wasmbin.Func{TypeIndex: uint32(1 + i), Body: trampolineBody(i, t)})
		m.Exports = append(m.Exports, wasmbin.Export{Name: strconv.Itoa(i), Kind: wasmbin.KindFunc, Index: uint32(1 + i)})
	}
	return m.Encode()
}

// trampolineBody calls Go's export with slot base+i and the parameters
// widened to i64, traps if Go set the trap flag, and narrows the result.
func trampolineBody(i int, t wasmhost.FuncType) []byte {
	body := wasmbin.Expr(wasmbin.GlobalGet(0), wasmbin.I32Const(int32(i)), []byte{wasmbin.OpI32Add})
	for j := range fastArgs {
		if j >= len(t.Params) {
			body = append(body, wasmbin.I64Const(0)...)
			continue
		}
		body = append(body, wasmbin.LocalGet(uint32(j))...)
		switch t.Params[j] {
		case wasmhost.I32:
			body = append(body, wasmbin.OpI64ExtendI32U)
		case wasmhost.F32:
			body = append(body, wasmbin.OpI32ReinterpretF32, wasmbin.OpI64ExtendI32U)
		case wasmhost.F64:
			body = append(body, wasmbin.OpI64ReinterpretF64)
		}
	}
	body = append(body, wasmbin.Call(0)...)
	body = append(body, wasmbin.GlobalGet(1)...)
	body = append(body, wasmbin.OpIf, wasmbin.BlockEmpty)
	body = append(body, wasmbin.I32Const(0)...)
	body = append(body, wasmbin.GlobalSet(1)...)
	body = append(body, wasmbin.OpUnreachable, wasmbin.OpEnd)
	if len(t.Results) == 0 {
		return append(body, wasmbin.OpDrop)
	}
	switch t.Results[0] {
	case wasmhost.I32:
		body = append(body, wasmbin.OpI32WrapI64)
	case wasmhost.F32:
		body = append(body, wasmbin.OpI32WrapI64, wasmbin.OpF32ReinterpretI32)
	case wasmhost.F64:
		body = append(body, wasmbin.OpF64ReinterpretI64)
	}
	return body
}
