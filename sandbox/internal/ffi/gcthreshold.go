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

// rtAt is the local that holds the runtime in the function patched: its
// load(off) is i32.load rt+off.
type rtAt uint32

func (rt rtAt) load(off byte) []byte {
	return wasmbin.Expr(wasmbin.LocalGet(uint32(rt)), []byte{wasmbin.OpI32Load, 2, off})
}

// gcNext is malloc_size + malloc_size >> 1, QuickJS's own rule.
func (rt rtAt) gcNext() []byte {
	return wasmbin.Expr(rt.load(rtMallocSize), rt.load(rtMallocSize), wasmbin.I32Const(1), []byte{opI32ShrU, wasmbin.OpI32Add})
}

// gcFloor is min(malloc_limit >> gcFloorShift, gcFloorMax).
func (rt rtAt) gcFloor() []byte {
	part := wasmbin.Expr(rt.load(rtMallocLimit), wasmbin.I32Const(gcFloorShift), []byte{opI32ShrU})
	return wasmbin.Expr(part, wasmbin.I32Const(gcFloorMax), part, wasmbin.I32Const(gcFloorMax), []byte{opI32LtU, opSelect})
}

// gcRoom is malloc_size + (malloc_limit - malloc_size) >> 1. A count a
// few bytes past the limit (a chunk's rounding after the check) wraps to
// about 2 GiB more: no bound, as without the patch.
func (rt rtAt) gcRoom() []byte {
	return wasmbin.Expr(rt.load(rtMallocSize), rt.load(rtMallocLimit), rt.load(rtMallocSize),
		[]byte{wasmbin.OpI32Sub}, wasmbin.I32Const(1), []byte{opI32ShrU, wasmbin.OpI32Add})
}

// gcCap is gcRoom while what is left to the limit is more than
// limit >> gcCapShift, else no bound (all ones): at most gcCapShift
// halvings from a third of the limit (where QuickJS's 1.5 x passes it) add
// collections of a heap about as large as the limit. Without that end, a
// program that grows until its limit refuses (an endless push) collected
// some 18 more times on the way, each a walk of all it held: under a 64 MB
// limit it took 777 ms to end instead of 372.
func (rt rtAt) gcCap() []byte {
	left := wasmbin.Expr(rt.load(rtMallocLimit), rt.load(rtMallocSize), []byte{wasmbin.OpI32Sub})
	return wasmbin.Expr(rt.gcRoom(), wasmbin.I32Const(-1), left, rt.load(rtMallocLimit), wasmbin.I32Const(gcCapShift),
		[]byte{opI32ShrU, opI32GtU, opSelect})
}

// gcThreshold is min(max(gcNext, gcFloor), gcCap), by select: each
// operand is computed twice, from the runtime's fields (the function has
// no spare local, and the path runs once a collection).
func (rt rtAt) gcThreshold() []byte {
	atLeast := wasmbin.Expr(rt.gcNext(), rt.gcFloor(), rt.gcNext(), rt.gcFloor(), []byte{opI32GtU, opSelect})
	return wasmbin.Expr(atLeast, rt.gcCap(), atLeast, rt.gcCap(), []byte{opI32LtU, opSelect})
}

// runGC is QuickJS's collection as js_trigger_gc calls it,
// JS_RunGCInternal(rt, TRUE), the runtime in local rt.
func (rt rtAt) runGC() []byte {
	return wasmbin.Expr(wasmbin.LocalGet(uint32(rt)), wasmbin.I32Const(1), wasmbin.Call(fnRunGCInternal))
}

func gcThresholdPatch() wasmbin.BodyPatch {
	return wasmbin.BodyPatch{Func: fnNewObjectFromShape, Replace: []wasmbin.Substitution{{
		// rt->malloc_gc_threshold = malloc_size + (malloc_size >> 1), with
		// malloc_size teed into local 4, which the code after it sets again.
		Old: []byte{0x20, 4, 0x20, 4, 0x28, 2, rtMallocSize, 0x22, 4, 0x41, 1, opI32ShrU, 0x20, 4, 0x6a, 0x36, 2, rtGCThreshold},
		New: wasmbin.Expr(wasmbin.LocalGet(4), rtAt(4).gcThreshold(), []byte{wasmbin.OpI32Store, 2, rtGCThreshold}),
	}, {
		// Unchanged: that js_trigger_gc's collection is the function gcPoll
		// calls (fnRunGCInternal).
		Old: rtAt(4).runGC(),
		New: rtAt(4).runGC(),
	}}}
}

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

// QuickJS collects only when an object is made (JS_NewObjectFromShape):
// a program that let go of a large cycle of objects and then made only
// strings (or arrays' storage) never collected it, and ended MEMORY_LIMIT
// holding little (16 MB limit: 9 MB of objects, each in a cycle, dropped,
// then 9 MB of strings made in a loop). gcPollPatch makes QuickJS's
// interrupt poll (js_poll_interrupts) collect too, by the same rule: when
// what is held has passed the threshold, collect, and set the threshold as
// after any collection (gcThreshold). The poll is called at each branch of
// the interpreter (goto, if), on entering a constructor, and in a few
// C loops (for-in's property walk, instanceof and isPrototypeOf through
// proxies), each a point where every value is counted and no object is
// half made: the code after it may make an object, and collect there as
// QuickJS does. It runs before the poll's countdown, on every call: at the
// countdown's end (every 10,000 branches) a loop making 1 KB strings made
// 10 MB between two chances to collect. The check costs three loads and a
// compare a branch (a loop of 3e6 additions: 185 ms of CPU, 181 without).
// The allocation that fails at the limit is not such a point (QuickJS
// allocates inside updates a collection must not see: a shape taken off
// the GC's list while it is resized, the atom table while it grows, a
// closure's variable references while they are made), so one allocation
// past the limit right after letting go of a cycle, with no branch between
// ("x".repeat(n) on the next line), still fails.
// js_poll_interrupts has ctx in local 0 and starts by decrementing
// ctx->interrupt_counter (ctx+232); its local 2 is free there (the code
// after it sets it to ctx->rt before any read), read in the pinned asset.
const (
	fnPollInterrupts    = 127
	fnRunGCInternal     = 731
	ctxRuntime          = 16
	ctxInterruptCounter = 232
)

// ctx->interrupt_counter = ctx->interrupt_counter - 1, the old value teed
// into local 1.
var decrementInterruptCounter = []byte{0x20, 0, 0x20, 0, wasmbin.OpI32Load, 2, 0xe8, 0x01, 0x22, 1, 0x41, 1, wasmbin.OpI32Sub, wasmbin.OpI32Store, 2, 0xe8, 0x01}

func gcPollPatch() wasmbin.BodyPatch {
	return wasmbin.BodyPatch{Func: fnPollInterrupts, Replace: []wasmbin.Substitution{{
		Old: decrementInterruptCounter,
		New: wasmbin.Expr(gcPoll(), decrementInterruptCounter),
	}}}
}

// gcPoll is: rt = ctx->rt (local 2); if (malloc_size > threshold) {
// collect; threshold = gcThreshold }.
func gcPoll() []byte {
	rt := rtAt(2)
	return wasmbin.Expr(wasmbin.LocalGet(0), []byte{wasmbin.OpI32Load, 2, ctxRuntime, opLocalSet, 2},
		rt.load(rtMallocSize), rt.load(rtGCThreshold), []byte{opI32GtU, wasmbin.OpIf, wasmbin.BlockEmpty},
		rt.runGC(), wasmbin.LocalGet(2), rt.gcThreshold(), []byte{wasmbin.OpI32Store, 2, rtGCThreshold, wasmbin.OpEnd})
}

const opLocalSet = 0x21
