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

// refusedSmall(size local) follows a refusal of the limit check: it calls
// resize_heap(0) when the request was a small block.
func refusedSmall(size uint32) []byte {
	return wasmbin.Expr(wasmbin.LocalGet(size), wasmbin.I32Const(smallBlock), []byte{opI32LeU, wasmbin.OpIf, wasmbin.BlockEmpty},
		wasmbin.I32Const(0), wasmbin.Call(fnResizeHeap), []byte{wasmbin.OpDrop, wasmbin.OpEnd})
}

const opI32LeU, opBr = 0x4d, 0x0c

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
			// that says so when size is small (refusedSmall), then branches.
			Old: []byte{0x20, 0, 0x28, 2, 8, 0x20, 0, 0x28, 2, 4, 0x22, 3, 0x20, 1, 0x6a, 0x49, 0x0d, 0},
			New: wasmbin.Expr([]byte{0x20, 0, 0x28, 2, 8, 0x20, 0, 0x28, 2, 4, 0x22, 3, 0x20, 1, 0x6a, 0x49, wasmbin.OpIf, wasmbin.BlockEmpty},
				refusedSmall(1), []byte{opBr, 1, wasmbin.OpEnd}),
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
			New: wasmbin.Expr([]byte{0x20, 0, 0x28, 2, 4}, chunkSize(1), []byte{0x6b, 0x20, 2, 0x6a, 0x49, wasmbin.OpIf, wasmbin.BlockEmpty},
				refusedSmall(2), []byte{opBr, 1, wasmbin.OpEnd}),
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
