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
// memory past that break is free space to malloc, as freed memory was
// before.
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
// made by the caller and not yet used to run anything. It returns nil when
// the instance cannot have images.
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
func (q *Instance) Restore(img *Image) {
	q.mem.Write(0, img.static)
	q.mem.Write(layoutHeapBase, img.heap)
	if len(q.interned) != len(img.interned) {
		// Strings are only ever added: the same count is the same map.
		q.interned = maps.Clone(img.interned)
	}
	q.code, q.strBuf = img.code, img.strBuf
	seed := rand.Uint64() | 1 // xorshift's state must not be 0
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	q.mem.Write(uint32(img.ctx)+layoutRandomState, b[:])
}
