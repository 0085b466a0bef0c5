//go:build !js

package ffi

import (
	"os"
	"testing"

	"github.com/interopio/code-mode/internal/wasmbin"
	"github.com/interopio/code-mode/sandbox/internal/wazerohost"
)

// mallocSize is QuickJS's count of what its runtime holds
// (rt->malloc_state.malloc_size, the figure its limit is checked against).
func mallocSize(t *testing.T, q *Instance, rt Runtime) uint32 {
	t.Helper()
	v, ok := q.mem.ReadUint32(uint32(rt) + 20)
	if !ok {
		t.Fatal("cannot read malloc_size")
	}
	return v
}

// instrumentedAsset compiles the pinned asset as NewEngine does: loop
// checks, real sizes, the GC threshold.
func instrumentedAsset(t *testing.T) *Asset {
	t.Helper()
	wasm, err := os.ReadFile("../../../node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm")
	if err != nil {
		t.Fatal(err)
	}
	counted, err := InstrumentLoops(wasm)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Compile(wazerohost.Backend(), counted)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func brk(t *testing.T, q *Instance) uint32 {
	t.Helper()
	v, ok := q.mem.ReadUint32(layoutBrk)
	if !ok {
		t.Fatal("cannot read the break")
	}
	return v
}

// TestQuickJSCountsRealSizes: QuickJS's count of what it holds grows by at
// least what a program holds and at most what the allocator's heap grew
// by (sbrk's break, in a fresh instance), for strings, small objects,
// arrays and strings grown by realloc; and what the program drops comes
// off the count again.
// Before countRealSizes, the count grew 8 bytes an allocation: 16 MB of
// strings counted 128 bytes, and memoryLimit bounded nothing.
func TestQuickJSCountsRealSizes(t *testing.T) {
	a := instrumentedAsset(t)
	// held is what the program holds at least, in bytes of its data.
	for _, c := range []struct {
		name, hold string
		held       float64
	}{
		{"1 MB strings", `for (let i = 0; i < 16; i++) h.push("x".repeat(1 << 20) + i)`, 16 << 20},
		{"small objects", `for (let i = 0; i < 200000; i++) h.push({ a: i, b: i + 1 })`, 200000 * 32},
		{"an array grown by push", `const a = []; for (let i = 0; i < 2e6; i++) a.push(i + 0.5); h.push(a)`, 2e6 * 8},
		{"a string grown by +=", `let s = ""; for (let i = 0; i < 2e5; i++) s += "abcdefghij" + i; h.push(s)`, 2e5 * 15},
		{"typed arrays", `for (let i = 0; i < 64; i++) h.push(new Float64Array(1 << 15))`, 64 << 18},
		{"maps of strings", `const m = new Map(); for (let i = 0; i < 100000; i++) m.set("k" + i, "v" + i); h.push(m)`, 100000 * 3 * 16},
	} {
		t.Run(c.name, func(t *testing.T) {
			q, err := a.NewInstance(2048, noCallbacks{})
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			rt := q.NewRuntime()
			ctx := q.NewContext(rt)
			q.FreeValue(ctx, evalExpr(t, q, ctx, `globalThis.h = []; 0`))
			size0, brk0 := mallocSize(t, q, rt), brk(t, q)
			q.FreeValue(ctx, evalExpr(t, q, ctx, `{ `+c.hold+` } 0`))
			grew, heap := float64(mallocSize(t, q, rt)-size0), float64(brk(t, q)-brk0)
			t.Logf("count +%.0f, heap +%.0f, held %.0f", grew, heap, c.held)
			// At least what the program holds; at most what the heap grew
			// by (that is more when blocks grown by realloc left freed
			// chunks too small to reuse; what the runtime held before
			// was counted before).
			if grew < c.held || grew > 1.02*heap {
				t.Errorf("the count grew %.0f bytes, the heap %.0f, the program holds %.0f: want the count between the two", grew, heap, c.held)
			}
			q.FreeValue(ctx, evalExpr(t, q, ctx, `h = []; 0`))
			if left := int64(mallocSize(t, q, rt)) - int64(size0); left < -4096 || left > 64<<10 {
				t.Errorf("after dropping what it held, the count is %d bytes from where it was (grew %.0f), want about 0", left, grew)
			}
			q.FreeContext(ctx)
			q.FreeRuntime(rt)
		})
	}
}

// TestCountRealSizesCallsResizeHeap: the patches' signal of a small block
// refused is the resize_heap import, whose index they name.
func TestCountRealSizesCallsResizeHeap(t *testing.T) {
	wasm, err := os.ReadFile("../../../node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm")
	if err != nil {
		t.Fatal(err)
	}
	m, err := wasmbin.Parse(wasm)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, imp := range m.Imports {
		if imp.Kind != wasmbin.KindFunc {
			continue
		}
		if imp.Name == pinned.Imports["resize_heap"].Name && n != fnResizeHeap {
			t.Errorf("resize_heap is function %d, countRealSizes calls %d", n, fnResizeHeap)
		}
		n++
	}
}
