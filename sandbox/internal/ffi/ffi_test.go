//go:build !js

package ffi

import (
	"os"
	"strings"
	"testing"

	"github.com/interopio/code-mode/sandbox/internal/wazerohost"
)

type noCallbacks struct{}

func (noCallbacks) CallFunction(Context, ValueConst, uint32, uint32, uint32) Value { return 0 }
func (noCallbacks) ShouldInterrupt(Runtime) bool                                   { return false }
func (noCallbacks) FreeHostRef(Runtime, uint32)                                    {}

// newTestContext makes an instance of the pinned asset, capped at 64 MiB,
// with a runtime and a context.
func newTestContext(t *testing.T) (*Instance, Runtime, Context) {
	t.Helper()
	wasm, err := os.ReadFile("../../../node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm")
	if err != nil {
		t.Fatal(err)
	}
	a, err := Compile(wazerohost.Backend(), wasm)
	if err != nil {
		t.Fatal(err)
	}
	q, err := a.NewInstance(1024, noCallbacks{})
	if err != nil {
		t.Fatal(err)
	}
	rt := q.NewRuntime()
	ctx := q.NewContext(rt)
	return q, rt, ctx
}

// evalExpr evaluates expr, failing the test if it throws.
func evalExpr(t *testing.T, q *Instance, ctx Context, expr string) Value {
	t.Helper()
	v, exc := q.Eval(ctx, expr, "t.js", EvalGlobal)
	if exc != 0 {
		t.Fatalf("%s threw", expr)
	}
	return v
}

// TestTags checks the value tags the fast type tests rely on against the
// pinned asset.
func TestTags(t *testing.T) {
	q, rt, ctx := newTestContext(t)
	for _, tc := range []struct {
		expr                       string
		object, str, number, plain bool
	}{
		{"({})", true, false, false, false},
		{"[1]", true, false, false, false},
		{"(() => 1)", true, false, false, false},
		{"new Error('x')", true, false, false, false},
		{"'flat'", false, true, false, true},
		{"'a'.repeat(5000) + String(Math.random())", false, true, false, true},
		{"1", false, false, true, true},
		{"-0", false, false, true, true},
		{"1.5", false, false, true, true},
		{"-1e300", false, false, true, true},
		{"NaN", false, false, true, true},
		{"Infinity", false, false, true, true},
		{"2**31", false, false, true, true},
		{"undefined", false, false, false, true},
		{"null", false, false, false, true},
		{"true", false, false, false, true},
		{"false", false, false, false, true},
		{"10n", false, false, false, false},
		{"2n**100n", false, false, false, false},
		{"Symbol()", false, false, false, false},
	} {
		v := evalExpr(t, q, ctx, tc.expr)
		c := v.Const()
		if q.IsObject(c) != tc.object || q.IsString(c) != tc.str || q.IsNumber(c) != tc.number || q.IsPlainPrimitive(c) != tc.plain {
			t.Errorf("%s: object %v string %v number %v plain %v (tag %d)", tc.expr, q.IsObject(c), q.IsString(c), q.IsNumber(c), q.IsPlainPrimitive(c), q.tag(c))
		}
		q.FreeValue(ctx, v)
	}
	q.FreeContext(ctx)
	q.FreeRuntime(rt)
}

// TestInt: Int reads integer-tagged numbers from memory; every other value
// (floats, -0, strings, objects) is not one.
func TestInt(t *testing.T) {
	q, rt, ctx := newTestContext(t)
	for _, tc := range []struct {
		expr string
		n    int32
		ok   bool
	}{
		{"0", 0, true}, {"7", 7, true}, {"-5", -5, true}, {"2147483647", 1<<31 - 1, true}, {"(-2147483647 - 1) | 0", -1 << 31, true},
		{"2**31", 0, false}, {"1.5", 0, false}, {"-0", 0, false}, {"NaN", 0, false}, {"'7'", 0, false}, {"({})", 0, false}, {"7n", 0, false}, {"true", 0, false},
	} {
		v := evalExpr(t, q, ctx, tc.expr)
		if n, ok := q.Int(v.Const()); n != tc.n || ok != tc.ok {
			t.Errorf("Int(%s) = %d, %v; want %d, %v", tc.expr, n, ok, tc.n, tc.ok)
		}
		q.FreeValue(ctx, v)
	}
	q.FreeContext(ctx)
	q.FreeRuntime(rt)
}

// TestNewArrayBuffer: the ArrayBuffer holds the bytes given, and owns the
// memory they were copied to: 2,000 of 64 KiB each (125 MiB) fit in an
// instance capped at 64 MiB only if each is freed with its ArrayBuffer.
func TestNewArrayBuffer(t *testing.T) {
	q, rt, ctx := newTestContext(t)
	read, exc := q.Eval(ctx, "(b) => [b instanceof ArrayBuffer, b.byteLength, Array.from(new Uint8Array(b).slice(0, 3)).join(), new Uint8Array(b).at(-1)].join(' ')", "t.js", EvalGlobal)
	if exc != 0 {
		t.Fatal("the reader threw")
	}
	big := make([]byte, 65536)
	for i := range big {
		big[i] = byte(i * 7)
	}
	for _, tc := range []struct {
		b    []byte
		want string
	}{
		{nil, "true 0  "},
		{[]byte{1}, "true 1 1 1"},
		{[]byte{0, 255, 9, 4}, "true 4 0,255,9 4"},
		{big, "true 65536 0,7,14 249"},
	} {
		ab, exc := q.NewArrayBuffer(ctx, tc.b)
		if exc != 0 {
			t.Fatalf("NewArrayBuffer(%d bytes) threw", len(tc.b))
		}
		s, exc := q.Call(ctx, read.Const(), q.Undefined.Const(), ab.Const())
		if got := q.GetString(ctx, s.Const()); exc != 0 || got != tc.want {
			t.Errorf("NewArrayBuffer(%d bytes) reads %q, want %q", len(tc.b), got, tc.want)
		}
		q.FreeValue(ctx, s)
		q.FreeValue(ctx, ab)
	}
	for i := 0; i < 2000; i++ {
		ab, exc := q.NewArrayBuffer(ctx, big)
		if exc != 0 {
			t.Fatalf("NewArrayBuffer #%d threw", i)
		}
		q.FreeValue(ctx, ab)
	}
	if size := q.MemorySize(); size > 16<<20 {
		t.Errorf("memory grew to %d bytes: the buffers were not freed", size)
	}
	q.FreeValue(ctx, read)
	q.FreeContext(ctx)
	q.FreeRuntime(rt)
}

// TestNarrow: Narrow reads a flat string of one-byte characters from
// memory as GetString gives it (the layout of the pinned asset's JSString),
// and refuses ropes, 16-bit strings, other values and strings over max.
func TestNarrow(t *testing.T) {
	q, rt, ctx := newTestContext(t)
	for _, tc := range []struct {
		expr string
		max  uint32
		want string
		ok   bool
	}{
		{"''", 10, "", true},
		{"'bench.echo'", 10, "bench.echo", true},
		{"'bench.echo'", 9, "", false},
		{"'a\\u0000b'", 10, "a\x00b", true},
		{"'quote\"back\\\\slash'", 100, "quote\"back\\slash", true},
		{"'caf\\u00e9'", 10, "caf\xe9", true},
		{"'a'.repeat(300) + 'b'", 1000, strings.Repeat("a", 300) + "b", true},
		{"'x'.repeat(3000)", 3000, strings.Repeat("x", 3000), true},
		{"'\\u20ac'", 10, "", false},
		{"'\\ud800'", 10, "", false},
		{"let s = 'a'.repeat(5000); s += 'b'.repeat(3000); s", 100000, "", false}, // a rope
		{"7", 10, "", false},
		{"({})", 10, "", false},
		{"Symbol('s')", 10, "", false},
	} {
		v := evalExpr(t, q, ctx, tc.expr)
		b, ok := q.Narrow(v.Const(), tc.max)
		if ok != tc.ok || string(b) != tc.want {
			t.Errorf("Narrow(%s, %d) = %q, %v; want %q, %v", tc.expr, tc.max, b, ok, tc.want, tc.ok)
		}
		q.FreeValue(ctx, v)
	}
	q.FreeContext(ctx)
	q.FreeRuntime(rt)
}

// TestGetBytes: GetBytes reads a string's UTF-8 in one copy of the length
// its JSString's header holds, whether QuickJS lends the string's own
// characters (ASCII) or writes a new string (other Latin-1, 16-bit
// characters, a rope, a number): a NUL inside is kept, where the scan
// for the terminating NUL (CString) stops at it.
func TestGetBytes(t *testing.T) {
	q, rt, ctx := newTestContext(t)
	for _, tc := range []struct{ expr, want string }{
		{"''", ""},
		{"'a\\u0000b'", "a\x00b"},
		{"'caf\\u00e9\\u0000'", "café\x00"},
		{"'\\u0000\\u20ac'", "\x00€"},
		{"'\\ud83d\\ude00\\u0000\\ud800'", "😀\x00\xed\xa0\x80"},
		{"let s = 'a'.repeat(5000); s += '\\u0000'.repeat(3000); s", strings.Repeat("a", 5000) + strings.Repeat("\x00", 3000)},
		{"'x'.repeat(1 << 20) + '\\u0000'", strings.Repeat("x", 1<<20) + "\x00"},
		{"-0.5", "-0.5"},
	} {
		v := evalExpr(t, q, ctx, tc.expr)
		if got := q.GetBytes(ctx, v.Const()); string(got) != tc.want {
			t.Errorf("GetBytes(%.40s) = %d bytes %.40q, want %d bytes %.40q", tc.expr, len(got), got, len(tc.want), tc.want)
		}
		q.FreeValue(ctx, v)
	}
	q.FreeContext(ctx)
	q.FreeRuntime(rt)
}
