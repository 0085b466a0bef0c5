package wasmbin

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/interopio/code-mode/sandbox/wasmhost"
)

var (
	i32, i64, f64 = wasmhost.I32, wasmhost.I64, wasmhost.F64
	vts           = func(ts ...wasmhost.ValueType) []wasmhost.ValueType { return ts }
)

// TestEncodeBytes pins the encoding of a small module, written out by hand
// from the binary format.
func TestEncodeBytes(t *testing.T) {
	m := Module{
		Types:   []FuncType{{Results: vts(i32)}},
		Funcs:   []Func{{TypeIndex: 0, Body: I32Const(42)}},
		Exports: []Export{{Name: "f", Kind: KindFunc, Index: 0}},
	}
	want := []byte{
		0, 'a', 's', 'm', 1, 0, 0, 0,
		1, 5, 1, 0x60, 0, 1, 0x7f, // type: () -> i32
		3, 2, 1, 0, // function: one, of type 0
		7, 5, 1, 1, 'f', 0, 0, // export "f" = func 0
		10, 6, 1, 4, 0, 0x41, 42, 0x0b, // code: no locals, i32.const 42, end
	}
	if got := m.Encode(); !bytes.Equal(got, want) {
		t.Errorf("Encode =\n% x\nwant\n% x", got, want)
	}
	if got := F64Const(1.5); !bytes.Equal(got, []byte{0x44, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f}) {
		t.Errorf("F64Const(1.5) = % x", got)
	}
	if got := I32Const(-1); !bytes.Equal(got, []byte{0x41, 0x7f}) {
		t.Errorf("I32Const(-1) = % x", got)
	}
}

// TestParseReadsWhatEncodeWrites covers every import kind the decoder
// reads, function exports of imported and defined functions, and names and
// sections long enough for multi-byte LEB128 sizes.
func TestParseReadsWhatEncodeWrites(t *testing.T) {
	long := strings.Repeat("x", 200)
	m := Module{
		Types: []FuncType{
			{Params: vts(i32, i64), Results: vts(f64)},
			{},
		},
		Imports: []Import{
			{Module: "env", Name: "f", Kind: KindFunc, TypeIndex: 0},
			{Module: "env", Name: "mem", Kind: KindMemory, Min: 256, Max: 70000, HasMax: true},
			{Module: "env", Name: "g", Kind: KindGlobal, Global: GlobalType{Type: i64, Mut: true}},
			{Module: "env", Name: long, Kind: KindMemory, Min: 3},
		},
		Funcs:   []Func{{TypeIndex: 1}},
		Globals: []Global{{Type: i32, Init: I32Const(7)}},
		Exports: []Export{
			{Name: "imported", Kind: KindFunc, Index: 0},
			{Name: "defined", Kind: KindFunc, Index: 1},
			{Name: "global", Kind: KindGlobal, Index: 1},
		},
	}
	p, err := Parse(m.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Types, []FuncType{{Params: vts(i32, i64), Results: vts(f64)}, {Params: []wasmhost.ValueType{}, Results: []wasmhost.ValueType{}}}) {
		t.Errorf("Types = %+v", p.Types)
	}
	wantImports := []Import{
		{Module: "env", Name: "f", Kind: KindFunc, TypeIndex: 0, Type: &p.Types[0]},
		{Module: "env", Name: "mem", Kind: KindMemory, Min: 256, Max: 70000, HasMax: true},
		{Module: "env", Name: "g", Kind: KindGlobal, Global: GlobalType{Type: i64, Mut: true}},
		{Module: "env", Name: long, Kind: KindMemory, Min: 3},
	}
	if !reflect.DeepEqual(p.Imports, wantImports) {
		t.Errorf("Imports =\n%+v\nwant\n%+v", p.Imports, wantImports)
	}
	wantExports := []Export{
		{Name: "imported", Kind: KindFunc, Index: 0, Type: &p.Types[0]},
		{Name: "defined", Kind: KindFunc, Index: 1, Type: &p.Types[1]},
		{Name: "global", Kind: KindGlobal, Index: 1},
	}
	if !reflect.DeepEqual(p.Exports, wantExports) {
		t.Errorf("Exports =\n%+v\nwant\n%+v", p.Exports, wantExports)
	}
}

func TestParseErrors(t *testing.T) {
	valid := (&Module{
		Types:   []FuncType{{}},
		Imports: []Import{{Module: "m", Name: "f", Kind: KindFunc}},
		Exports: []Export{{Name: "f", Kind: KindFunc, Index: 0}},
	}).Encode()
	head := valid[:8]
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "not a WebAssembly binary"},
		{"bad magic", []byte("\x00asn\x01\x00\x00\x00"), "not a WebAssembly binary"},
		{"version 2", []byte("\x00asm\x02\x00\x00\x00"), "not a WebAssembly binary"},
		{"section past the end", append(append([]byte{}, head...), SectionType, 10, 1), "unexpected end"},
		{"LEB128 too long", append(append([]byte{}, head...), SectionType, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01), "bad LEB128"},
		{"not a function type", append(append([]byte{}, head...), SectionType, 2, 1, 0x61), "bad function type"},
		{"bad import kind", AppendSection(append([]byte{}, head...), SectionImport, []byte{1, 1, 'm', 1, 'x', 9}), "bad import kind 9"},
		{"import of a missing type", AppendSection(append([]byte{}, head...), SectionImport, []byte{1, 1, 'm', 1, 'x', KindFunc, 3}), "bad type index 3"},
		{"export of a missing function", AppendSection(append([]byte{}, head...), SectionExport, []byte{1, 1, 'e', KindFunc, 5}), `export "e": bad function index`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.b)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
	if _, err := Parse(valid); err != nil {
		t.Fatalf("the valid module: %v", err)
	}
	if _, err := Parse([]byte("\x00ass")); !errors.Is(err, ErrNotWasm) {
		t.Errorf("short input: err = %v, want ErrNotWasm", err)
	}
}

func TestDefineImportedMemory(t *testing.T) {
	m := Module{
		Types: []FuncType{{Params: vts(i32)}},
		Imports: []Import{
			{Module: "a", Name: "f", Kind: KindFunc, TypeIndex: 0},
			{Module: "a", Name: "memory", Kind: KindMemory, Min: 256},
			{Module: "a", Name: "g", Kind: KindGlobal, Global: GlobalType{Type: i32}},
		},
		Globals: []Global{{Type: i32, Mut: true, Init: I32Const(0)}},
		Exports: []Export{{Name: "f", Kind: KindFunc, Index: 0}},
	}
	// A custom section before the globals stays where it is; the memory
	// section goes before the first section that must follow it.
	b := m.Encode()
	secs, err := sections(b)
	if err != nil {
		t.Fatal(err)
	}
	withCustom := append([]byte{}, b[:8]...)
	for _, s := range secs {
		if s.id == SectionGlobal {
			withCustom = AppendSection(withCustom, SectionCustom, AppendName(nil, "note"))
		}
		withCustom = append(withCustom, b[s.head:s.end]...)
	}

	out, err := DefineImportedMemory(withCustom, "a", "memory", 256, 512)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, imp := range p.Imports {
		names = append(names, imp.Name)
	}
	if strings.Join(names, ",") != "f,g" {
		t.Errorf("imports after the rewrite: %v, want f,g", names)
	}
	secs, _ = sections(out)
	var order []byte
	var memory []byte
	for _, s := range secs {
		order = append(order, s.id)
		if s.id == SectionMemory {
			memory = out[s.start:s.end]
		}
	}
	if !bytes.Equal(order, []byte{SectionType, SectionImport, SectionCustom, SectionMemory, SectionGlobal, SectionExport}) {
		t.Errorf("section order %v", order)
	}
	if want := []byte{1, 1, 0x80, 0x02, 0x80, 0x04}; !bytes.Equal(memory, want) {
		t.Errorf("memory section % x, want % x (one memory, 256..512 pages)", memory, want)
	}

	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"no such import", b, "no memory import a.other"},
		{"no import section", (&Module{Types: []FuncType{{}}}).Encode(), "no import section"},
		{"own memory", (&Module{Imports: m.Imports[1:2], Memory: &Limits{Min: 1}}).Encode(), "defines its own memory"},
		{"not wasm", []byte("nope"), "not a WebAssembly binary"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := DefineImportedMemory(tc.b, "a", "other", 1, 2); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}
