package wasmbin

import (
	"context"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
)

// patchModule imports one function and defines two: f returns 40 + 2,
// g returns 7 + 7 (an i32.const 7 twice).
func patchModule() []byte {
	m := Module{
		Types:   []FuncType{{Results: vts(i32)}},
		Imports: []Import{{Module: "env", Name: "x", Kind: KindFunc, TypeIndex: 0}},
		Funcs: []Func{
			{TypeIndex: 0, Body: Expr(I32Const(40), I32Const(2), []byte{OpI32Add})},
			{TypeIndex: 0, Body: Expr(I32Const(7), I32Const(7), []byte{OpI32Add})},
		},
		Exports: []Export{{Name: "f", Kind: KindFunc, Index: 1}, {Name: "g", Kind: KindFunc, Index: 2}},
	}
	return m.Encode()
}

func TestPatchBodies(t *testing.T) {
	for _, c := range []struct {
		name    string
		patches []BodyPatch
		f, g    uint64 // the results after the patch
		err     string
	}{
		{"none", nil, 42, 14, ""},
		{"a longer expression in f", []BodyPatch{{Func: 1, Replace: []Substitution{{Old: I32Const(2), New: Expr(I32Const(300), I32Const(2), []byte{OpI32Sub})}}}}, 338, 14, ""},
		{"two substitutions, in order", []BodyPatch{{Func: 1, Replace: []Substitution{{Old: I32Const(40), New: I32Const(1)}, {Old: I32Const(1), New: I32Const(5)}}}}, 7, 14, ""},
		{"bytes not in the body", []BodyPatch{{Func: 1, Replace: []Substitution{{Old: I32Const(3), New: I32Const(4)}}}}, 0, 0, "function 1: 41 03 occurs 0 times in the body, want once"},
		{"bytes twice in the body", []BodyPatch{{Func: 2, Replace: []Substitution{{Old: I32Const(7), New: I32Const(4)}}}}, 0, 0, "function 2: 41 07 occurs 2 times in the body, want once"},
		{"an imported function", []BodyPatch{{Func: 0, Replace: []Substitution{{Old: I32Const(7), New: I32Const(4)}}}}, 0, 0, "function 0 is not one the module defines (1 imported, 3 in all)"},
		{"past the functions", []BodyPatch{{Func: 3}}, 0, 0, "function 3 is not one the module defines"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := PatchBodies(patchModule(), c.patches)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want one saying %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			rt := wazero.NewRuntime(ctx)
			defer rt.Close(ctx)
			if _, err := rt.NewHostModuleBuilder("env").NewFunctionBuilder().WithFunc(func() int32 { return 0 }).Export("x").Instantiate(ctx); err != nil {
				t.Fatal(err)
			}
			mod, err := rt.Instantiate(ctx, out)
			if err != nil {
				t.Fatalf("the patched module does not instantiate: %v", err)
			}
			for name, want := range map[string]uint64{"f": c.f, "g": c.g} {
				r, err := mod.ExportedFunction(name).Call(ctx)
				if err != nil || r[0] != want {
					t.Errorf("%s() = %v %v, want %d", name, r, err, want)
				}
			}
		})
	}
}
