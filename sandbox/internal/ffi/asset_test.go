package ffi

import (
	"slices"
	"strings"
	"testing"

	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// TestFuncTypeDecodesSignatures checks the letters of the name table's
// signatures, and that every signature in the table decodes.
func TestFuncTypeDecodesSignatures(t *testing.T) {
	for _, tc := range []struct {
		sig             string
		params, results []wasmhost.ValueType
	}{
		{":", []wasmhost.ValueType{}, []wasmhost.ValueType{}},
		{"i:ii", []wasmhost.ValueType{i32, i32}, []wasmhost.ValueType{i32}},
		{":jd", []wasmhost.ValueType{i64, f64}, []wasmhost.ValueType{}},
		{"d:if", []wasmhost.ValueType{i32, f32}, []wasmhost.ValueType{f64}},
	} {
		results, params, _ := strings.Cut(tc.sig, ":")
		got := wasmhost.FuncType{Params: sigValues(params), Results: sigValues(results)}
		if !slices.Equal(got.Params, tc.params) || !slices.Equal(got.Results, tc.results) {
			t.Errorf("%q: got %v -> %v, want %v -> %v", tc.sig, got.Params, got.Results, tc.params, tc.results)
		}
	}
	want := map[string]wasmhost.FuncType{
		"QTS_GetFloat64": {Params: []wasmhost.ValueType{i32, i32}, Results: []wasmhost.ValueType{f64}},
		"setitimer":      {Params: []wasmhost.ValueType{i32, f64}, Results: []wasmhost.ValueType{i32}},
		"localtime":      {Params: []wasmhost.ValueType{i64, i32}, Results: []wasmhost.ValueType{}},
	}
	for _, table := range []map[string]asset{pinned.Imports, pinned.Exports} {
		for role, a := range table {
			ft, ok := sigTypes()[a.Sig]
			if !ok {
				t.Errorf("%s: signature %q not decoded", role, a.Sig)
			}
			if w, ok := want[role]; ok && !sameType(ft, w) {
				t.Errorf("%s: %q decodes to %v -> %v, want %v -> %v", role, a.Sig, ft.Params, ft.Results, w.Params, w.Results)
			}
		}
	}
}
