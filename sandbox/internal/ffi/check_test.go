package ffi

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// fakeModule lists imports and exports and nothing else.
type fakeModule struct{ imports, exports []wasmhost.ExternDesc }

func (m *fakeModule) Imports() []wasmhost.ExternDesc { return m.imports }
func (m *fakeModule) Exports() []wasmhost.ExternDesc { return m.exports }
func (m *fakeModule) Instantiate(wasmhost.Imports) (wasmhost.Instance, error) {
	return nil, errors.New("fake")
}
func (m *fakeModule) Close() error { return nil }

// pinnedModule is the pinned asset as the JS host describes it (no types),
// or with types where typed is set; in sorted order, as a host would not
// necessarily give them.
func pinnedModule(typed bool) *fakeModule {
	m := &fakeModule{}
	m.imports = append(m.imports, wasmhost.ExternDesc{Module: pinned.ImportModule, Name: pinned.MemoryImport, Kind: wasmhost.KindMemory})
	for _, a := range pinned.Imports {
		d := wasmhost.ExternDesc{Module: pinned.ImportModule, Name: a.Name, Kind: wasmhost.KindFunc}
		if typed {
			ft := funcType(a.Sig)
			d.Type = &ft
		}
		m.imports = append(m.imports, d)
	}
	for _, a := range pinned.Exports {
		d := wasmhost.ExternDesc{Name: a.Name, Kind: wasmhost.KindFunc}
		if typed {
			ft := funcType(a.Sig)
			d.Type = &ft
		}
		m.exports = append(m.exports, d)
	}
	sort.Slice(m.imports, func(i, j int) bool { return m.imports[i].Name < m.imports[j].Name })
	sort.Slice(m.exports, func(i, j int) bool { return m.exports[i].Name < m.exports[j].Name })
	return m
}

func TestCheck(t *testing.T) {
	const prefix = "not the QuickJS asset this build understands (expected " + PinnedPackage + "): "
	wrongType := wasmhost.FuncType{Params: []wasmhost.ValueType{f64}}
	tests := []struct {
		name   string
		change func(m *fakeModule)
		want   string // "" = accepted
	}{
		{"the pinned asset, untyped", func(m *fakeModule) {}, ""},
		{"the pinned asset, typed", nil, ""},
		{"no memory import", func(m *fakeModule) {
			m.imports = m.imports[1:]
		}, "no memory import"},
		{"an extra import", func(m *fakeModule) {
			m.imports = append(m.imports, wasmhost.ExternDesc{Module: "env", Name: "x", Kind: wasmhost.KindFunc})
		}, "unexpected import env.x"},
		{"an unknown function import", func(m *fakeModule) {
			m.imports = append(m.imports, wasmhost.ExternDesc{Module: pinned.ImportModule, Name: "zz", Kind: wasmhost.KindFunc})
		}, "unexpected import a.zz"},
		{"an import twice", func(m *fakeModule) {
			m.imports = append(m.imports, m.imports[len(m.imports)-1])
		}, "unexpected import a.t"},
		{"an import of another type", func(m *fakeModule) {
			m.imports[len(m.imports)-1].Type = &wrongType
		}, "import a." + "t has another type"},
		{"a missing import", func(m *fakeModule) {
			m.imports = m.imports[:len(m.imports)-1]
		}, "missing import t"},
		{"a missing export", func(m *fakeModule) {
			m.exports = m.exports[1:]
		}, "missing export $ (QTS_GetString)"},
		{"an export of another kind", func(m *fakeModule) {
			m.exports[0].Kind = wasmhost.KindGlobal
		}, "missing export $ (QTS_GetString)"},
		{"an export of another type", func(m *fakeModule) {
			m.exports[0].Type = &wrongType
		}, "export $ (QTS_GetString) has another type"},
		{"a Go program (the package's code-mode.wasm)", func(m *fakeModule) {
			m.imports = []wasmhost.ExternDesc{{Module: "gojs", Name: "runtime.wasmExit", Kind: wasmhost.KindFunc}}
			m.exports = []wasmhost.ExternDesc{{Name: "run", Kind: wasmhost.KindFunc}}
		}, "it is a Go program's WebAssembly (Code Mode's own code-mode.wasm?), not QuickJS; the asset is the package's emscripten-module.wasm"},
		{"many problems", func(m *fakeModule) {
			m.exports = nil
		}, "missing export $ (QTS_GetString); missing export A (QTS_RuntimeDumpMemoryUsage); missing export Aa (QTS_SetDebugLogEnabled); missing export B (QTS_RecoverableLeakCheck); and "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := pinnedModule(tt.change == nil || strings.Contains(tt.name, "type"))
			if tt.change != nil {
				tt.change(m)
			}
			a, err := Check(m)
			if tt.want == "" {
				if err != nil || a == nil {
					t.Fatalf("rejected: %v", err)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrUnsupportedAsset) {
				t.Fatalf("got %v, want ErrUnsupportedAsset", err)
			}
			msg := err.Error()
			want := prefix + tt.want
			if tt.name == "many problems" {
				want += fmt.Sprintf("%d more", len(pinned.Exports)-4)
			}
			if msg != want {
				t.Fatalf("got  %q\nwant %q", msg, want)
			}
		})
	}
}
