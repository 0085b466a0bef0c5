//go:build !js

package ffi

import (
	"os"
	"testing"

	"github.com/interopio/code-mode/sandbox/internal/wazerohost"
)

type noCallbacks struct{}

func (noCallbacks) CallFunction(Context, ValueConst, uint32, uint32, uint32) Value { return 0 }
func (noCallbacks) ShouldInterrupt(Runtime) bool                                   { return false }
func (noCallbacks) FreeHostRef(Runtime, uint32)                                    {}

// TestTags checks the value tags the fast type tests rely on against the
// pinned asset.
func TestTags(t *testing.T) {
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
		v, exc := q.Eval(ctx, tc.expr, "t.js", EvalGlobal)
		if exc != 0 {
			t.Fatalf("%s threw", tc.expr)
		}
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
	for _, tc := range []struct {
		expr string
		n    int32
		ok   bool
	}{
		{"0", 0, true}, {"7", 7, true}, {"-5", -5, true}, {"2147483647", 1<<31 - 1, true}, {"(-2147483647 - 1) | 0", -1 << 31, true},
		{"2**31", 0, false}, {"1.5", 0, false}, {"-0", 0, false}, {"NaN", 0, false}, {"'7'", 0, false}, {"({})", 0, false}, {"7n", 0, false}, {"true", 0, false},
	} {
		v, exc := q.Eval(ctx, tc.expr, "t.js", EvalGlobal)
		if exc != 0 {
			t.Fatalf("%s threw", tc.expr)
		}
		if n, ok := q.Int(v.Const()); n != tc.n || ok != tc.ok {
			t.Errorf("Int(%s) = %d, %v; want %d, %v", tc.expr, n, ok, tc.n, tc.ok)
		}
		q.FreeValue(ctx, v)
	}
	q.FreeContext(ctx)
	q.FreeRuntime(rt)
}
