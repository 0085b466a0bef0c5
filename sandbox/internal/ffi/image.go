package ffi

import (
	"encoding/binary"
	"maps"
	"math/rand/v2"
)

// An Image is an instance's memory as it was right after a runtime and a
// context were made, so that each run can start from a copy of that state
// instead of making them again: under GOOS=js a new runtime and context
// cost ~0.4 ms and freeing them ~0.1 ms, where writing the image back costs
// ~20 µs. Writing it back also drops everything the last run left, so a run
// sees nothing of another: the C data (QuickJS's and malloc's state) and
// the heap up to the image's break are as they were, byte for byte, and
// what the run wrote where the image does not reach is zeroed (Restore):
// memory past that break, free space to malloc, and the C stack.
//
// The layout is the pinned build's (layout.go); NewInstance checks it
// against the instance, and an asset that does not match has no images
// (CanImage): its runs make their own runtime and context.
type Image struct {
	rt  Runtime
	ctx Context
	// static is the C data and bss, [0, layoutStaticEnd); heap is
	// [layoutHeapBase, brk).
	static, heap []byte
	// What Go holds of the C heap, as it was: allocations made after
	// the image are forgotten with it.
	interned     map[string]uint32
	code, strBuf uint32
}

// Runtime and Context are the image's own, valid after each Restore.
func (img *Image) Runtime() Runtime { return img.rt }
func (img *Image) Context() Context { return img.ctx }

// CanImage says whether the instance's memory has the layout images need.
func (q *Instance) CanImage() bool { return q.layoutOK }

// TakeImage records the instance's state with runtime rt and context ctx,
// made by the caller and not yet used to run anything, or with none (0,
// 0: the instance as it was made, whose Restore drops every runtime made
// since, once freed). It returns nil when the instance cannot have images.
func (q *Instance) TakeImage(rt Runtime, ctx Context) *Image {
	if !q.layoutOK {
		return nil
	}
	// The reusable buffers are made now, so that they are part of the
	// image rather than allocations it would forget.
	q.codeBuffer(0)
	if q.strBuf == 0 {
		q.strBuf = q.Malloc(stringBufferSize)
	}
	brk, ok := q.mem.ReadUint32(layoutBrk)
	if !ok || brk < layoutHeapBase || brk > q.mem.Size() {
		return nil
	}
	static, ok1 := q.mem.Read(0, layoutStaticEnd)
	heap, ok2 := q.mem.Read(layoutHeapBase, brk-layoutHeapBase)
	if !ok1 || !ok2 {
		return nil
	}
	return &Image{rt: rt, ctx: ctx,
		static: append([]byte(nil), static...), heap: append([]byte(nil), heap...),
		interned: maps.Clone(q.interned), code: q.code, strBuf: q.strBuf}
}

// Restore writes img back, and gives its context a new seed for
// Math.random (the image's would repeat its numbers in every run).
//
// First it zeroes what the last run wrote where the image does not reach,
// which the next run's fresh allocations and frames would otherwise be
// laid over: the heap the run added past the image's break (malloc never
// gives memory back to sbrk in this build, so the break is the highest
// the run reached), where the program's strings and a tool's results
// stay whole, and the top of the C stack (layoutStackWritten), where
// frames leave numbers and bits of strings. No program can read either
// without a bug in QuickJS; one that could would find nothing of another
// run there. It costs a fill of the stack's 128 KiB, and of the heap the
// run added (none for most runs).
func (q *Instance) Restore(img *Image) {
	imgBrk := layoutHeapBase + uint32(len(img.heap))
	if brk, ok := q.mem.ReadUint32(layoutBrk); ok && brk > imgBrk && brk <= q.mem.Size() {
		q.mem.Zero(imgBrk, brk-imgBrk)
	}
	q.mem.Zero(layoutHeapBase-layoutStackWritten, layoutStackWritten)
	q.mem.Write(0, img.static)
	q.mem.Write(layoutHeapBase, img.heap)
	if len(q.interned) != len(img.interned) {
		// Strings are only ever added: the same count is the same map.
		q.interned = maps.Clone(img.interned)
	}
	q.code, q.strBuf = img.code, img.strBuf
	if img.ctx == 0 {
		return
	}
	seed := rand.Uint64() | 1 // xorshift's state must not be 0
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	q.mem.Write(uint32(img.ctx)+layoutRandomState, b[:])
}
