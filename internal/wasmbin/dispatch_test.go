package wasmbin

import (
	"os"
	"testing"
)

// brTable is a br_table of n targets (n-1 labels and the default), all to
// label 0.
func brTable(n int) []byte {
	b := AppendU32([]byte{0x0e}, uint32(n-1))
	for i := 0; i < n; i++ {
		b = append(b, 0)
	}
	return b
}

// dispatchModule's count(n) runs two loops of the same function n+1 times
// each and returns 42. The first loop holds a br_table of inLoop targets
// (an interpreter's dispatch loop when it is the largest by far); another
// function, never called, holds one of elsewhere targets in no loop (none
// if 0).
func dispatchModule(inLoop, elsewhere int) []byte {
	check := FuncType{Params: vts(i32), Results: vts(i32)}
	countDown := func(local byte, inner []byte) []byte {
		return Expr([]byte{OpBlock, BlockEmpty, OpLoop, BlockEmpty},
			LocalGet(uint32(local)), []byte{OpI32Eqz, 0x0d, 1}, // br_if 1: out
			LocalGet(uint32(local)), I32Const(1), []byte{OpI32Sub, 0x21, local}, // local.set
			inner, []byte{0x0c, 0, OpEnd, OpEnd}) // br 0: again
	}
	other := []byte{OpBlock, BlockEmpty, OpEnd}
	if elsewhere > 0 {
		other = Expr([]byte{OpBlock, BlockEmpty}, I32Const(0), brTable(elsewhere), []byte{OpEnd})
	}
	m := Module{
		Types: []FuncType{check, {Params: vts(i32, i32), Results: vts(i32)}},
		Imports: []Import{
			{Module: "env", Name: "other", Kind: KindFunc, TypeIndex: 0},
			{Module: "env", Name: "check", Kind: KindFunc, TypeIndex: 0},
		},
		Funcs: []Func{
			{TypeIndex: 0, Body: Expr(LocalGet(0), LocalGet(0), Call(3))},
			{TypeIndex: 1, Body: Expr(
				countDown(0, Expr([]byte{OpBlock, BlockEmpty}, LocalGet(0), brTable(inLoop), []byte{OpEnd})),
				countDown(1, nil),
				I32Const(42))},
			{TypeIndex: 0, Body: Expr(other, I32Const(0))},
		},
		Exports: []Export{{Name: "count", Kind: KindFunc, Index: 2}},
	}
	return m.Encode()
}

// TestInstrumentLoopsLeavesDispatchLoop: the loop holding the module's
// largest br_table, if it is the largest by far, has no check; its
// function's other loop has one. If no loop qualifies, every loop has.
func TestInstrumentLoopsLeavesDispatchLoop(t *testing.T) {
	const n = 10
	const one, both = n + 1, 2 * (n + 1) // checks with Every 1
	for _, tc := range []struct {
		name              string
		inLoop, elsewhere int
		checks            int
	}{
		{"a br_table of 300 targets in a loop, none other", 300, 0, one},
		{"300 in a loop, 150 elsewhere", 300, 150, one},
		{"128 targets in a loop: the minimum", 128, 0, one},
		{"127 targets: under the minimum, every loop counted", 127, 0, both},
		{"300 in a loop, 201 elsewhere: not by far, every loop counted", 300, 201, both},
		{"300 in a loop, 300 elsewhere: a tie, every loop counted", 300, 300, both},
		{"the largest (300) in no loop: every loop counted", 10, 300, both},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig := dispatchModule(tc.inLoop, tc.elsewhere)
			if got, args, err := runCount(t, orig, n, 0); err != nil || got != 42 || len(args) != 0 {
				t.Fatalf("the module itself: %d, %v, %v", got, args, err)
			}
			b, err := InstrumentLoops(orig, LoopCheck{Module: "env", Name: "check", Every: 1})
			if err != nil {
				t.Fatal(err)
			}
			got, args, err := runCount(t, b, n, 0)
			if err != nil || got != 42 {
				t.Errorf("instrumented: %d, %v; want 42", got, err)
			}
			if len(args) != tc.checks {
				t.Errorf("%d checks, want %d (%d: only the loop without the br_table; %d: both loops)", len(args), tc.checks, one, both)
			}
		})
	}
}

// TestDispatchLoopOfAsset: the pinned QuickJS asset's interpreter loop
// (JS_CallInternal's opcode switch, 244 targets; the next br_table has 126)
// is found, so its programs do not pay a check per opcode. The path is
// sandboxtest.AssetPath's, which this package cannot import (a cycle).
func TestDispatchLoopOfAsset(t *testing.T) {
	b, err := os.ReadFile("../../node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm")
	if err != nil {
		t.Fatalf("%v: run `npm ci` at the repository root", err)
	}
	secs, err := sections(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secs {
		if s.id != SectionCode {
			continue
		}
		got, err := dispatchLoop(b[s.start:s.end])
		if err != nil || got == noLoop {
			t.Errorf("dispatchLoop of the asset: %+v, %v; want its interpreter loop", got, err)
		}
		return
	}
	t.Fatal("the asset has no code section")
}
