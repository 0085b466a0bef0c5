//go:build !js

package ffi

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/interopio/code-mode/sandbox/internal/wazerohost"
)

func pinnedBytes(t *testing.T) []byte {
	t.Helper()
	wasm, err := os.ReadFile("../../../node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm")
	if err != nil {
		t.Fatal(err)
	}
	return wasm
}

// TestLayoutOfAsset: the pinned asset, with and without the loop checks,
// is laid out as layout.go says, so its instances have images (a
// mismatch would leave every run without one, silently slower).
func TestLayoutOfAsset(t *testing.T) {
	wasm := pinnedBytes(t)
	counted, err := InstrumentLoops(wasm)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		wasm []byte
	}{{"pinned", wasm}, {"with loop checks", counted}} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Compile(wazerohost.Backend(), tc.wasm)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			q, err := a.NewInstance(1024, noCallbacks{})
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			if !q.CanImage() {
				top, _ := q.mem.ReadUint32(layoutThreadStack)
				size, _ := q.mem.ReadUint32(layoutThreadStack + 4)
				brk, _ := q.mem.ReadUint32(layoutBrk)
				t.Fatalf("CanImage: false (stack top %d, size %d, break %d; layout.go expects %d, %d, a break past the heap's base)", top, size, brk, layoutHeapBase, layoutStackSize)
			}
		})
	}
}

// TestImageRestore: after Restore, the context is the image's, with
// nothing of what ran since: globals, patched built-ins, a prototype's
// new property and a large allocation are gone, and the break is the
// image's again.
func TestImageRestore(t *testing.T) {
	q, rt, ctx := newTestContext(t)
	img := q.TakeImage(rt, ctx)
	if img == nil {
		t.Fatal("TakeImage: nil for the pinned asset")
	}
	brk := func() uint32 { b, _ := q.mem.ReadUint32(layoutBrk); return b }
	start := brk()
	str := func(expr string) string {
		v := evalExpr(t, q, ctx, expr)
		defer q.FreeValue(ctx, v)
		return q.GetString(ctx, v.Const())
	}
	q.FreeValue(ctx, evalExpr(t, q, ctx, `globalThis.x = 1; Array.prototype.map = () => "patched"; Object.prototype.polluted = true;
		globalThis.big = new Array(1e6).fill("s").join(""); 0`))
	if got := str(`[typeof x, [1].map((v) => v), "polluted" in {}].join()`); got != "number,patched,true" {
		t.Fatalf("before Restore: %q", got)
	}
	if brk() <= start {
		t.Fatalf("the run's allocation did not move the break (%d, image %d)", brk(), start)
	}
	q.Restore(img)
	if brk() != start {
		t.Errorf("break after Restore: %d, want the image's %d", brk(), start)
	}
	if got := str(`[typeof x, [1].map((v) => v * 2), "polluted" in {}, typeof big].join()`); got != "undefined,2,false,undefined" {
		t.Errorf("after Restore: %q, want %q (nothing of the last run)", got, "undefined,2,false,undefined")
	}
}

// TestImageReseedsMathRandom: each Restore gives Math.random a new state;
// the image's own would give every run the same numbers. The state is
// where layout.go says: Math.random after a given state is QuickJS's
// xorshift64* of it.
func TestImageReseedsMathRandom(t *testing.T) {
	q, rt, ctx := newTestContext(t)
	img := q.TakeImage(rt, ctx)
	random := func() string {
		v := evalExpr(t, q, ctx, `String(Math.random())`)
		defer q.FreeValue(ctx, v)
		return q.GetString(ctx, v.Const())
	}
	q.Restore(img)
	a := random()
	q.Restore(img)
	if b := random(); a == b {
		t.Errorf("Math.random after two Restores: %s both times, want new numbers in each", a)
	}
	const seed = 0x123456789abcdef
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	q.Restore(img)
	q.mem.Write(uint32(ctx)+layoutRandomState, b[:])
	x := uint64(seed)
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	want := math.Float64frombits(0x3ff<<52|(x*0x2545F4914F6CDD1D)>>12) - 1
	if got := random(); got != strconv.FormatFloat(want, 'g', -1, 64) && got != jsNumber(want) {
		t.Errorf("Math.random with state %#x: %s, want %v (is layoutRandomState the JSContext's random_state?)", uint64(seed), got, want)
	}
}

// jsNumber is how JavaScript's String writes a float in (0, 1).
func jsNumber(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if e := len(s) - 4; e > 0 && s[e] == 'e' {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return s
}

// TestRestoreZeroesWhatTheRunLeft: after Restore, nothing a run wrote is
// left anywhere in the instance's memory: not its strings past the
// image's break (where the next run's allocations go, over them), not
// the numbers its frames held on the C stack, even from recursions that
// reach QuickJS's stack limit (64 KiB, as the sandbox sets it). Before,
// both stayed for the runs after: 99,809 of a run's 100,000 strings past
// the break, a number's digits on the stack. The stack is all zero after
// each (so no run writes below layoutStackWritten), and so is the memory
// past the break.
func TestRestoreZeroesWhatTheRunLeft(t *testing.T) {
	q, rt, ctx := newTestContext(t)
	q.SetMaxStackSize(rt, 64<<10)
	img := q.TakeImage(rt, ctx)
	if img == nil {
		t.Fatal("TakeImage: nil for the pinned asset")
	}
	imgBrk := layoutHeapBase + uint32(len(img.heap))
	// secret's bytes, and 987654.321987's as a double, are what the
	// programs leave.
	const secret = "SECRET-7f3a9c"
	var number [8]byte
	binary.LittleEndian.PutUint64(number[:], math.Float64bits(987654.321987))
	for _, tc := range []struct{ name, code string }{
		{"strings past the break", `globalThis.keep = []; for (let i = 0; i < 100000; i++) keep.push("SECRET-7f3a9c-" + i); keep.length`},
		{"a recursion to the stack limit", `function f(n) { const x = 987654.321987 + n * 0; return x + f(n + 1) } try { f(0) } catch (e) { String(e) }`},
		{"numbers formatted on the stack", `[987654.321987.toString(), 987654.321987.toFixed(6), "SECRET-7f3a9c".padEnd(40, "-")].join()`},
		{"a getter recursion in a sort", `function g(n) { return [3, 1, 2].sort((a, b) => (g(n + "SECRET-7f3a9c"), a - b)) } try { g("") } catch (e) { String(e) }`},
		{"a cycle's join", `const a = ["SECRET-7f3a9c", 987654.321987]; a.push(a); try { String(a) } catch (e) { String(e) }`},
		{"a large JSON text", `JSON.parse(JSON.stringify(Array.from({ length: 20000 }, (_, i) => ({ k: "SECRET-7f3a9c", v: 987654.321987, i })))).length`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, exc := q.Eval(ctx, tc.code, "t.js", EvalGlobal)
			q.FreeValue(ctx, v)
			if exc != 0 {
				q.FreeValue(ctx, exc)
				t.Fatal("the program threw")
			}
			all, _ := q.mem.Read(0, q.mem.Size())
			if !bytes.Contains(all, []byte(secret)) && !bytes.Contains(all, number[:]) {
				t.Fatal("the program left neither the secret nor the number in memory: it tests nothing")
			}
			q.Restore(img)
			all, _ = q.mem.Read(0, q.mem.Size())
			if i := bytes.Index(all, []byte(secret)); i >= 0 {
				t.Errorf("after Restore, the secret at %d (%s)", i, region(uint32(i), imgBrk))
			}
			if i := bytes.Index(all, number[:]); i >= 0 {
				t.Errorf("after Restore, the number at %d (%s)", i, region(uint32(i), imgBrk))
			}
			for _, r := range []struct {
				name     string
				from, to uint32
			}{{"the C stack", layoutStaticEnd, layoutHeapBase}, {"memory past the image's break", imgBrk, uint32(len(all))}} {
				if i := bytes.IndexFunc(all[r.from:r.to], func(c rune) bool { return c != 0 }); i >= 0 {
					t.Errorf("after Restore, %s is not all zero: a byte at %d", r.name, r.from+uint32(i))
				}
			}
		})
	}
}

func region(addr, imgBrk uint32) string {
	switch {
	case addr < layoutStaticEnd:
		return "C data"
	case addr < layoutHeapBase:
		return "the C stack"
	case addr < imgBrk:
		return "the image's heap"
	}
	return "past the image's break"
}
