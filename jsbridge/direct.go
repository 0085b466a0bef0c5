//go:build js && wasm

package jsbridge

import (
	"math"
	"syscall/js"

	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// Direct calls: Go calls the exports of the instances it runs (QuickJS's
// QTS_* API) and reads their memory through imports of its own module,
// "jsbridge", whose JavaScript functions take and return numbers only:
//
//	call(slot, a0..a7) f64   the export in slot, or NaN when it threw
//	get32(mem, off) f64      a little-endian uint32 of memory mem
//	set32(mem, off, v)
//	get8(mem, off) f64, set8(mem, off, v)
//	size(mem) f64            the memory's size in bytes
//
// Through syscall/js, the same export call costs a Value per argument, an
// argument array in JavaScript, the result's decoding and a deferred
// recover: about 0.5 µs, against a tenth of that for a WebAssembly call of
// a JavaScript function with numbers. A QuickJS host call makes some 15
// export calls and 8 memory accesses.
//
// The host provides the imports (web/src/direct.mjs for the loader,
// scripts/wasmexec for the tools) and their table as the global
// __jsbridgeDirect: {fns, mems, views, error}. Go puts an export in fns the
// first time it calls it, and a memory in mems when the instance is made
// (views holds the host's DataView of each). Without the table (or with directOff) every call goes through syscall/js as
// before; exports with i64 parameters or results always do (an i64 is a
// BigInt in JavaScript, which a float64 cannot carry).

//go:wasmimport jsbridge call
func directCallImport(slot int32, a0, a1, a2, a3, a4, a5, a6, a7 float64) float64

//go:wasmimport jsbridge get32
func directGet32(mem int32, off float64) float64

//go:wasmimport jsbridge set32
func directSet32(mem int32, off, v float64)

//go:wasmimport jsbridge get8
func directGet8(mem int32, off float64) float64

//go:wasmimport jsbridge set8
func directSet8(mem int32, off, v float64)

//go:wasmimport jsbridge size
func directSize(mem int32) float64

// directArgs is the number of arguments call passes; an export with more
// takes the syscall/js path.
const directArgs = 8

var (
	// directOff disables direct calls (tests force the fallback with it).
	directOff bool

	directChecked bool
	directTable   js.Value // __jsbridgeDirect, or undefined
	directFns     js.Value // directTable.fns
	directMems    js.Value // directTable.mems
	directViews   js.Value // directTable.views (undefined for a host without it)
	// directFree lists the slots of fns that closed instances left.
	directFree []int32
)

// direct returns the host's table, or false when there is none.
func direct() bool {
	if directOff {
		return false
	}
	if !directChecked {
		directChecked = true
		directTable = js.Undefined()
		if t, ok := safeGet(global, "__jsbridgeDirect"); ok && t.Type() == js.TypeObject {
			fns, ok1 := safeGet(t, "fns")
			mems, ok2 := safeGet(t, "mems")
			if ok1 && ok2 && fns.Type() == js.TypeObject && mems.Type() == js.TypeObject {
				directTable, directFns, directMems = t, fns, mems
				directViews, _ = safeGet(t, "views")
			}
		}
	}
	return directTable.Type() == js.TypeObject
}

// directable reports whether an export of these types can be called
// directly: numbers that a float64 carries exactly.
func directable(params []wasmhost.ValueType, result wasmhost.ValueType) bool {
	if len(params) > directArgs || result == wasmhost.I64 {
		return false
	}
	for _, p := range params {
		if p == wasmhost.I64 {
			return false
		}
	}
	return true
}

// directSlot puts fn in the table and returns its slot.
func directSlot(fn js.Value) int32 {
	if n := len(directFree); n > 0 {
		s := directFree[n-1]
		directFree = directFree[:n-1]
		directFns.SetIndex(int(s), fn)
		return s
	}
	return appendTo(directFns, fn)
}

// appendTo sets v at the end of the array list and returns its index: by
// index, not list.push, which a page may have replaced since (a push that
// did nothing gave every new QuickJS instance a wrong slot, and its run
// "memory access out of bounds").
func appendTo(list, v js.Value) int32 {
	n := list.Length()
	list.SetIndex(n, v)
	return int32(n)
}

// freeDirectSlots empties the slots of a closed instance's exports.
func (inst *instance) freeDirectSlots() {
	for _, s := range inst.directSlots {
		directFns.SetIndex(int(s), js.Undefined())
		directFree = append(directFree, s)
	}
	inst.directSlots = nil
	if inst.mem != nil && inst.mem.slot >= 0 {
		directMems.SetIndex(int(inst.mem.slot), js.Undefined())
		// The host's DataView of the memory kept its whole buffer alive
		// (every QuickJS instance replaced, for the program's life).
		if directViews.Type() == js.TypeObject {
			directViews.SetIndex(int(inst.mem.slot), js.Undefined())
		}
		inst.mem.slot = -1
	}
}

// callDirect calls f's export through the call import. A JavaScript
// exception (a trap) comes back as ok false with the exception.
func (f *export) callDirect(args []uint64) (res uint64, exc js.Value, ok bool) {
	if f.slot < 0 {
		f.slot = directSlot(f.fn)
		f.inst.directSlots = append(f.inst.directSlots, f.slot)
	}
	var a [directArgs]float64
	for i, t := range f.params {
		a[i] = directArg(args[i], t)
	}
	r := directCallImport(f.slot, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7])
	if r != r { // NaN: the call threw, or an f32/f64 result is NaN
		if e := directTable.Get("error"); !e.IsUndefined() {
			directTable.Set("error", js.Undefined())
			return 0, e, false
		}
	}
	switch f.result {
	case wasmhost.I32:
		return uint64(uint32(int32(int64(r)))), js.Value{}, true
	case wasmhost.F32:
		return uint64(math.Float32bits(float32(r))), js.Value{}, true
	case wasmhost.F64:
		return math.Float64bits(r), js.Value{}, true
	}
	return 0, js.Value{}, true
}

// directArg is an argument as the call import passes it: an i32 as its
// signed value (WebAssembly's ToInt32 gives the same bits back), a float
// as itself (-0 and NaN included: no syscall/js conversion on the way).
func directArg(v uint64, t wasmhost.ValueType) float64 {
	switch t {
	case wasmhost.I32:
		return float64(int32(uint32(v)))
	case wasmhost.F32:
		return float64(math.Float32frombits(uint32(v)))
	case wasmhost.F64:
		return math.Float64frombits(v)
	}
	return 0
}
