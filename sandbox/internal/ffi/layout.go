package ffi

// The pinned build's linear memory (images, image.go). Emscripten lays it
// out as: C data and bss from 1024, then the C stack (5 MiB, growing
// down), then the heap, whose break (sbrk) lives in the data. Taken from
// the asset's code (TestLayoutOfAsset reads them there again): the stack
// pointer global's initial value is the stack's top and the heap's base;
// the main thread's init stores that top and the stack's size; sbrk, the
// one caller of emscripten_resize_heap, loads and stores the break.
const (
	layoutHeapBase  = 5333088
	layoutStackSize = 5 << 20
	// layoutStaticEnd is where the stack's bottom is: no C variable lies
	// at or past it.
	layoutStaticEnd = layoutHeapBase - layoutStackSize
	// layoutStackWritten is how much of the C stack, from its top, a run
	// can write: QuickJS stops a recursion at 64 KiB (sandbox's
	// maxStackSize), checked at every JavaScript call and in its C
	// recursions, and C code past that check adds a few KiB (the deepest
	// recursions measured reached 66.9 KiB: a sort comparator's, a cycle's
	// join, a Proxy chain's get). Twice the limit; Restore zeroes it, and
	// TestRestoreZeroesWhatTheRunLeft checks that those recursions write
	// nothing below it.
	layoutStackWritten = 128 << 10
	// layoutBrk is the address of sbrk's break.
	layoutBrk = 86864
	// layoutThreadStack holds the main thread's stack top, then its size.
	layoutThreadStack = 88892
	// layoutRandomState is the offset of Math.random's state (a uint64,
	// xorshift64*) in QuickJS's JSContext: JS_NewContext seeds it from the
	// clock.
	layoutRandomState = 224
)

// checkLayout says whether a new instance (its constructors run) is laid
// out as the constants say: the main thread's stack is where they put it,
// and the break is past the heap's base, not far.
func (q *Instance) checkLayout() bool {
	top, ok1 := q.mem.ReadUint32(layoutThreadStack)
	size, ok2 := q.mem.ReadUint32(layoutThreadStack + 4)
	brk, ok3 := q.mem.ReadUint32(layoutBrk)
	return ok1 && ok2 && ok3 && top == layoutHeapBase && size == layoutStackSize &&
		brk >= layoutHeapBase && brk < layoutHeapBase+1<<20 && brk%8 == 0
}
