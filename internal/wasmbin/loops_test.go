package wasmbin

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// loopModule counts its parameter down in a loop nested in a block, then
// returns 40 plus its own global (2): 42. The import env.check is the one
// the loop checks call.
func loopModule(checkType FuncType) []byte {
	m := Module{
		Types: []FuncType{checkType, {Params: vts(i32), Results: vts(i32)}},
		Imports: []Import{
			{Module: "env", Name: "other", Kind: KindFunc, TypeIndex: 1},
			{Module: "env", Name: "check", Kind: KindFunc, TypeIndex: 0},
		},
		Funcs: []Func{{TypeIndex: 1, Body: Expr(
			[]byte{OpBlock, BlockEmpty, OpLoop, BlockEmpty},
			LocalGet(0), I32Const(1), []byte{OpI32Sub, 0x21, 0}, // local.set 0
			LocalGet(0), []byte{OpI32Eqz, 0x0d, 1}, // br_if 1: out of the block
			I64Const(1<<40), []byte{OpDrop}, F64Const(1.5), []byte{OpDrop},
			[]byte{0x0c, 0, OpEnd, OpEnd}, // br 0: again
			I32Const(40), GlobalGet(0), []byte{OpI32Add})}},
		Globals: []Global{{Type: i32, Init: I32Const(2)}},
		Exports: []Export{{Name: "count", Kind: KindFunc, Index: 2}},
	}
	return m.Encode()
}

// runCount instantiates b with check answering answer, and calls count(n).
func runCount(t *testing.T, b []byte, n, answer uint32) (result uint64, args []uint32, err error) {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	t.Cleanup(func() { rt.Close(ctx) })
	_, err = rt.NewHostModuleBuilder("env").
		NewFunctionBuilder().WithGoFunction(api.GoFunc(func(_ context.Context, s []uint64) { s[0] = 0 }), []api.ValueType{api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}).Export("other").
		NewFunctionBuilder().WithGoFunction(api.GoFunc(func(_ context.Context, s []uint64) {
		args = append(args, uint32(s[0]))
		s[0] = uint64(answer)
	}), []api.ValueType{api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}).Export("check").
		Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := rt.Instantiate(ctx, b)
	if err != nil {
		t.Fatalf("the instrumented module does not instantiate: %v", err)
	}
	r, err := mod.ExportedFunction("count").Call(ctx, uint64(n))
	if err != nil {
		return 0, args, err
	}
	return r[0], args, nil
}

func TestInstrumentLoops(t *testing.T) {
	check := FuncType{Params: vts(i32), Results: vts(i32)}
	orig := loopModule(check)
	if got, args, err := runCount(t, orig, 100, 0); err != nil || got != 42 || len(args) != 0 {
		t.Fatalf("the module itself: %d, %v, %v", got, args, err)
	}
	lc := LoopCheck{Module: "env", Name: "check", Arg: 7, Every: 8}
	b, err := InstrumentLoops(orig, lc)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	// The check comes after the module's own function (and 2 imports).
	if last := m.Exports[len(m.Exports)-1]; last.Name != LoopCheckExport || last.Kind != KindFunc || last.Index != 3 {
		t.Errorf("last export %+v, want %s = func 3", last, LoopCheckExport)
	}
	for _, tc := range []struct {
		name         string
		n, answer    uint32
		want         uint64
		checks       int
		wantTrapping bool
	}{
		// The count starts at Every: the 8th, 16th, ... iterations ask.
		{"a short loop never asks", 7, 1, 42, 0, false},
		{"asks every 8 iterations, goes on while told 0", 100, 0, 42, 12, false},
		{"traps when told to stop", 100, 1, 0, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, args, err := runCount(t, b, tc.n, tc.answer)
			if tc.wantTrapping {
				if err == nil || !strings.Contains(err.Error(), "unreachable") {
					t.Errorf("got %d, %v; want an unreachable trap", got, err)
				}
			} else if err != nil || got != tc.want {
				t.Errorf("got %d, %v; want %d", got, err, tc.want)
			}
			if len(args) != tc.checks {
				t.Errorf("%d checks, want %d", len(args), tc.checks)
			}
			for _, a := range args {
				if a != 7 {
					t.Errorf("check called with %d, want LoopCheck.Arg 7", a)
				}
			}
		})
	}
}

func TestInstrumentLoopsRefuses(t *testing.T) {
	check := FuncType{Params: vts(i32), Results: vts(i32)}
	lc := LoopCheck{Module: "env", Name: "check", Every: 8}
	done, err := InstrumentLoops(loopModule(check), lc)
	if err != nil {
		t.Fatal(err)
	}
	simd := loopModule(check)
	simd = append(simd[:len(simd)-1:len(simd)-1], 0xfd) // the last end becomes a SIMD prefix
	for _, tc := range []struct {
		name string
		b    []byte
		lc   LoopCheck
		want string
	}{
		{"already instrumented", done, lc, "already has the loop checks"},
		{"no such import", loopModule(check), LoopCheck{Module: "env", Name: "nope", Every: 8}, "no function import env.nope"},
		{"import of another type", loopModule(FuncType{Params: vts(i64), Results: vts(i32)}), lc, "import env.check: want type (i32) -> i32"},
		{"Every 0", loopModule(check), LoopCheck{Module: "env", Name: "check"}, "Every must be at least 1"},
		{"an instruction it does not know", simd, lc, "unsupported instruction 0xfd"},
		{"not wasm", []byte("nope"), lc, "not a WebAssembly binary"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := InstrumentLoops(tc.b, tc.lc)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
			if tc.name == "already instrumented" && !errors.Is(err, ErrInstrumented) {
				t.Errorf("%v does not wrap ErrInstrumented", err)
			}
		})
	}
}
