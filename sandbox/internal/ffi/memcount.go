package ffi

import "github.com/interopio/code-mode/internal/wasmbin"

// QuickJS's heap limit (JS_SetMemoryLimit, the sandbox's memoryLimit) is
// checked against its own count of what it holds, malloc_size, which
// js_def_malloc, js_def_free and js_def_realloc keep as the sum of
// js_def_malloc_usable_size(ptr) + 8 over live allocations. Under
// Emscripten that usable size is 0 (quickjs.c has no malloc_usable_size
// for it), so the count was 8 bytes an allocation whatever its size: the
// limit refused only a single allocation larger than what was left of it,
// and a program held 27 MB under a limit of 8 MB, 144 MB under 64 (only
// the instance's memory cap stopped it). countRealSizes makes the three
// count the chunk size the allocator (dlmalloc: the head word before the
// pointer, less its 3 flag bits) gives each allocation, headers included,
// so that malloc_size is what the allocations take and the limit bounds
// what a run holds. The bytes are the pinned asset's (quickjs.c,
// 2025-09-13, -O3): each substitution must match exactly once, so another
// asset is refused, not miscounted. Function indices count imports.
const (
	fnDefMalloc  = 499  // js_def_malloc(s, size)
	fnDefRealloc = 1059 // js_def_realloc(s, ptr, size)
	fnDefFree    = 1060 // js_def_free(s, ptr)
	fnRealloc    = 775  // dlmalloc's realloc, which js_def_realloc calls
	// fnResizeHeap is the resize_heap import (emscripten_resize_heap):
	// called with 0, which sbrk never asks for, it says that QuickJS's
	// limit refused a small block (resizeHeap).
	fnResizeHeap = 9
)

// smallBlock is the largest request whose refusal by QuickJS's limit
// means a full heap, as heapFullSlack is for the cap: less than that is
// left, and QuickJS's "out of memory" error does not fit either (it throws
// null). A larger request refused leaves room for the error, which the
// program may catch and go on.
const smallBlock = heapFullSlack

// smallReserve is how far past the limit small blocks are still given.
// A large request is refused at the limit, so that the program gets
// QuickJS's "out of memory", which it may catch; the small blocks that
// error and the program's catch take come from past it. Without the
// reserve, a program that filled its heap with 64 KB strings and caught
// the error ended MEMORY_LIMIT, uncaught, wherever the limit fell within a
// few hundred bytes after a string that just fit: the next small block
// (the number of `"x".repeat(65536) + n`) was refused, a full heap
// (~0.5% of the prelude's sizes; TestCaughtOutOfMemoryReturns).
const smallReserve = 64 << 10

// refused(size local, count) follows the limit check's refusal of size
// bytes, where count is what the count would be with them: the request is
// granted after all when it is a small block within the reserve; else the
// allocation fails (br out of the check's block), after resize_heap(0)
// when the request was a small block (a full heap).
func refused(size uint32, count []byte) []byte {
	large := wasmbin.Expr(wasmbin.LocalGet(size), wasmbin.I32Const(smallBlock), []byte{opI32GtU})
	pastReserve := wasmbin.Expr(count, wasmbin.LocalGet(0), []byte{wasmbin.OpI32Load, 2, 8}, wasmbin.I32Const(smallReserve),
		[]byte{wasmbin.OpI32Add, opI32GtU})
	return wasmbin.Expr([]byte{wasmbin.OpIf, wasmbin.BlockEmpty}, large, pastReserve, []byte{wasmbin.OpI32Or, wasmbin.OpIf, wasmbin.BlockEmpty},
		wasmbin.LocalGet(size), wasmbin.I32Const(smallBlock), []byte{opI32LeU, wasmbin.OpIf, wasmbin.BlockEmpty},
		wasmbin.I32Const(0), wasmbin.Call(fnResizeHeap), []byte{wasmbin.OpDrop, wasmbin.OpEnd},
		[]byte{opBr, 2, wasmbin.OpEnd, wasmbin.OpEnd})
}

const opI32LeU, opBr = 0x4d, 0x0c

// reallocCount is js_def_realloc's count with its new block for the old:
// malloc_size - chunk(ptr) + size.
func reallocCount() []byte {
	return wasmbin.Expr([]byte{0x20, 0, 0x28, 2, 4}, chunkSize(1), []byte{0x6b, 0x20, 2, 0x6a})
}

// chunkSize(local) is dlmalloc's chunksize of the allocation the local
// points to: i32.load (ptr - 4) & ~7.
func chunkSize(local uint32) []byte {
	return wasmbin.Expr(wasmbin.LocalGet(local), wasmbin.I32Const(4), []byte{wasmbin.OpI32Sub, wasmbin.OpI32Load, 2, 0},
		wasmbin.I32Const(-8), []byte{wasmbin.OpI32And})
}

// The code these patches change, read in the asset (locals: s is 0, the
// pointer 1, the size 2; malloc_size is at s+4, malloc_limit at s+8):
//
//	js_def_malloc:  malloc_size (in local 3) + 8, stored after the allocation
//	js_def_free:    malloc_size - 8, before free
//	js_def_realloc: malloc_size - 8 when size is 0 (a free); the check
//	                malloc_limit < malloc_size + size; return realloc(ptr, size)
//
// A function, not a package variable (as gcThresholdPatch and gcPollPatch):
// only InstrumentLoops reads the patches, which the GOOS=js core never
// calls (the page's asset has them from the build), and a variable's
// bytes were built at every start, by 33 KB of the core's code.
func countRealSizes() []wasmbin.BodyPatch {
	return []wasmbin.BodyPatch{
		{Func: fnDefMalloc, Replace: []wasmbin.Substitution{{
			// br_if $block (malloc_limit < malloc_size + size) becomes an if
			// that grants a small block within the reserve, else says so
			// when size is small and branches (refused).
			Old: []byte{0x20, 0, 0x28, 2, 8, 0x20, 0, 0x28, 2, 4, 0x22, 3, 0x20, 1, 0x6a, 0x49, 0x0d, 0},
			New: wasmbin.Expr([]byte{0x20, 0, 0x28, 2, 8, 0x20, 0, 0x28, 2, 4, 0x22, 3, 0x20, 1, 0x6a, 0x49},
				refused(1, wasmbin.Expr(wasmbin.LocalGet(3), wasmbin.LocalGet(1), []byte{wasmbin.OpI32Add}))),
		}, {
			Old: []byte{0x20, 3, 0x41, 8, 0x6a, 0x36, 2, 4},
			New: wasmbin.Expr(wasmbin.LocalGet(3), chunkSize(1), []byte{0x6a, 0x36, 2, 4}),
		}}},
		{Func: fnDefFree, Replace: []wasmbin.Substitution{{
			Old: []byte{0x41, 8, 0x6b, 0x36, 2, 4},
			New: wasmbin.Expr(chunkSize(1), []byte{0x6b, 0x36, 2, 4}, gcRearm()),
		}}},
		{Func: fnDefRealloc, Replace: []wasmbin.Substitution{{
			Old: []byte{0x41, 8, 0x6b, 0x36, 2, 4},
			New: wasmbin.Expr(chunkSize(1), []byte{0x6b, 0x36, 2, 4}, gcRearm()),
		}, {
			// The limit is checked against the count without the old block:
			// malloc_limit < malloc_size - chunk(ptr) + size refuses.
			Old: []byte{0x20, 0, 0x28, 2, 4, 0x20, 2, 0x6a, 0x49, 0x0d, 0},
			New: wasmbin.Expr(reallocCount(), []byte{0x49}, refused(2, reallocCount())),
		}, {
			// size's local takes the old chunk's size once size is on the
			// stack for the call; the result replaces ptr. When the realloc
			// succeeded, malloc_size += chunk(new) - old; when it failed, the
			// old block stays and so does the count.
			Old: wasmbin.Expr(wasmbin.LocalGet(1), wasmbin.LocalGet(2), wasmbin.Call(fnRealloc), []byte{0x0f}),
			New: wasmbin.Expr(wasmbin.LocalGet(1), wasmbin.LocalGet(2), chunkSize(1), []byte{0x21, 2},
				wasmbin.Call(fnRealloc), wasmbin.LocalTee(1), []byte{wasmbin.OpIf, wasmbin.BlockEmpty},
				wasmbin.LocalGet(0), wasmbin.LocalGet(0), []byte{wasmbin.OpI32Load, 2, 4}, chunkSize(1),
				[]byte{wasmbin.OpI32Add}, wasmbin.LocalGet(2), []byte{wasmbin.OpI32Sub, wasmbin.OpI32Store, 2, 4, wasmbin.OpEnd},
				wasmbin.LocalGet(1), []byte{0x0f}),
		}}},
	}
}
