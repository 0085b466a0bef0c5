package ffi

import "github.com/interopio/code-mode/internal/wasmbin"

// QuickJS collects cycles when an object allocation would take its count
// (malloc_size, real sizes since countRealSizes) past rt->malloc_gc_threshold,
// which starts at 256 KiB and is reset after each collection to 1.5 x what
// is left: a program that builds a 10 MB array of objects collects a dozen
// times on the way, each time walking all it holds (bench array100k: ~15%
// slower than with the 8-byte count, which almost never reached it).
// gcThresholdPatch makes the reset keep the threshold at least
// min(malloc_limit >> gcFloorShift, gcFloorMax) (gcFloor): a run holds up
// to that much garbage in cycles before a collection, well under its limit
// (a quarter of it at most), so a program that makes cyclic garbage many
// times its limit still collects it in time (QuickJS does not collect when
// its limit refuses an allocation). And at most halfway from what is held
// to the limit (gcRoom): QuickJS's 1.5 x put the next collection past the
// limit once a run held 2/3 of it, so cyclic garbage then ended the run;
// until less than limit/16 is left (gcCap), where the run is at its limit
// anyway.
// The one reset is inlined in JS_NewObjectFromShape (js_trigger_gc's only
// caller, with local 4 the runtime; malloc_size at rt+20, malloc_limit at
// rt+24, malloc_gc_threshold at rt+108), read in the pinned asset.
const (
	fnNewObjectFromShape = 254
	gcFloorShift         = 2
	gcFloorMax           = 16 << 20
	gcCapShift           = 4
	rtMallocSize         = 20
	rtMallocLimit        = 24
	rtGCThreshold        = 108
	opI32ShrU            = 0x76
	opI32LtU, opI32GtU   = 0x49, 0x4b
	opSelect             = 0x1b
)

// rtLoad(off) is i32.load rt+off, the runtime in local 4.
func rtLoad(off byte) []byte {
	return wasmbin.Expr(wasmbin.LocalGet(4), []byte{wasmbin.OpI32Load, 2, off})
}

// gcNext is malloc_size + malloc_size >> 1, QuickJS's own rule.
func gcNext() []byte {
	return wasmbin.Expr(rtLoad(rtMallocSize), rtLoad(rtMallocSize), wasmbin.I32Const(1), []byte{opI32ShrU, wasmbin.OpI32Add})
}

// gcFloor is min(malloc_limit >> gcFloorShift, gcFloorMax).
func gcFloor() []byte {
	part := wasmbin.Expr(rtLoad(rtMallocLimit), wasmbin.I32Const(gcFloorShift), []byte{opI32ShrU})
	return wasmbin.Expr(part, wasmbin.I32Const(gcFloorMax), part, wasmbin.I32Const(gcFloorMax), []byte{opI32LtU, opSelect})
}

// gcRoom is malloc_size + (malloc_limit - malloc_size) >> 1. A count a
// few bytes past the limit (a chunk's rounding after the check) wraps to
// about 2 GiB more: no bound, as without the patch.
func gcRoom() []byte {
	return wasmbin.Expr(rtLoad(rtMallocSize), rtLoad(rtMallocLimit), rtLoad(rtMallocSize),
		[]byte{wasmbin.OpI32Sub}, wasmbin.I32Const(1), []byte{opI32ShrU, wasmbin.OpI32Add})
}

// gcCap is gcRoom while what is left to the limit is more than
// limit >> gcCapShift, else no bound (all ones): at most gcCapShift
// halvings from a third of the limit (where QuickJS's 1.5 x passes it) add
// collections of a heap about as large as the limit. Without that end, a
// program that grows until its limit refuses (an endless push) collected
// some 18 more times on the way, each a walk of all it held: under a 64 MB
// limit it took 777 ms to end instead of 372.
func gcCap() []byte {
	left := wasmbin.Expr(rtLoad(rtMallocLimit), rtLoad(rtMallocSize), []byte{wasmbin.OpI32Sub})
	return wasmbin.Expr(gcRoom(), wasmbin.I32Const(-1), left, rtLoad(rtMallocLimit), wasmbin.I32Const(gcCapShift),
		[]byte{opI32ShrU, opI32GtU, opSelect})
}

// gcThreshold is min(max(gcNext, gcFloor), gcCap), by select: each
// operand is computed twice, from the runtime's fields (the function has
// no spare local, and the path runs once a collection).
func gcThreshold() []byte {
	atLeast := wasmbin.Expr(gcNext(), gcFloor(), gcNext(), gcFloor(), []byte{opI32GtU, opSelect})
	return wasmbin.Expr(atLeast, gcCap(), atLeast, gcCap(), []byte{opI32LtU, opSelect})
}

var gcThresholdPatch = wasmbin.BodyPatch{Func: fnNewObjectFromShape, Replace: []wasmbin.Substitution{{
	// rt->malloc_gc_threshold = malloc_size + (malloc_size >> 1), with
	// malloc_size teed into local 4, which the code after it sets again.
	Old: []byte{0x20, 4, 0x20, 4, 0x28, 2, rtMallocSize, 0x22, 4, 0x41, 1, opI32ShrU, 0x20, 4, 0x6a, 0x36, 2, rtGCThreshold},
	New: wasmbin.Expr(wasmbin.LocalGet(4), gcThreshold(), []byte{wasmbin.OpI32Store, 2, rtGCThreshold}),
}}}

// gcRearm follows a free in js_def_free (and js_def_realloc's free, size
// 0), the JSMallocState in local 0 (rt+16): when the threshold lies past
// the limit (gcCap's no bound, set by a collection with less than
// limit/16 left) and what is held has dropped below 7/8 of the limit, the
// threshold is the floor again (gcFloor), as at the run's start: the next
// object made past it collects, and sets the threshold by the rule above.
// Without it, a run that once held nearly its limit and then let go of it
// never collected again: its cyclic garbage ended it with MEMORY_LIMIT
// (16 MB limit: 990 strings of 16 KB held, dropped, then 80 MB of cyclic
// garbage made 16 KB at a time).
func gcRearm() []byte {
	load := func(off byte) []byte {
		return wasmbin.Expr(wasmbin.LocalGet(0), []byte{wasmbin.OpI32Load, 2, off - msBase})
	}
	pastLimit := wasmbin.Expr(load(rtGCThreshold), load(rtMallocLimit), []byte{opI32GtU})
	dropped := wasmbin.Expr(load(rtMallocSize), load(rtMallocLimit), load(rtMallocLimit), wasmbin.I32Const(3),
		[]byte{opI32ShrU, wasmbin.OpI32Sub, opI32LtU})
	part := wasmbin.Expr(load(rtMallocLimit), wasmbin.I32Const(gcFloorShift), []byte{opI32ShrU})
	floor := wasmbin.Expr(part, wasmbin.I32Const(gcFloorMax), part, wasmbin.I32Const(gcFloorMax), []byte{opI32LtU, opSelect})
	// Only a runtime's own state, which lies in the heap: JS_FreeRuntime
	// frees the runtime last through a copy of its malloc_state on the C
	// stack (JSMallocState ms = rt->malloc_state; js_free(&ms, rt)), where
	// the threshold's offset is another frame's bytes, not to be read or
	// written. Then nested ifs: a free usually finds the threshold under
	// the limit, after two loads and a compare.
	inHeap := wasmbin.Expr(wasmbin.LocalGet(0), wasmbin.I32Const(layoutHeapBase), []byte{opI32GeU})
	return wasmbin.Expr(inHeap, []byte{wasmbin.OpIf, wasmbin.BlockEmpty}, pastLimit, []byte{wasmbin.OpIf, wasmbin.BlockEmpty},
		dropped, []byte{wasmbin.OpIf, wasmbin.BlockEmpty},
		wasmbin.LocalGet(0), floor, []byte{wasmbin.OpI32Store, 2, rtGCThreshold - msBase, wasmbin.OpEnd, wasmbin.OpEnd, wasmbin.OpEnd})
}

const opI32GeU = 0x4f

// msBase is the offset of rt->malloc_state in the runtime, the pointer
// js_def_malloc, js_def_free and js_def_realloc are given (malloc_size at
// s+4 there is rt+20).
const msBase = 16
