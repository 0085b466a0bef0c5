// Package wasmbin is the WebAssembly binary format, as far as Code Mode
// needs it. Parse reads the parts of a binary that the sandbox needs
// (function types, imports and exports); DefineImportedMemory rewrites a
// memory import into a defined memory, for hosts (wazero) that cannot supply
// an imported memory from Go; Module.Encode writes the small modules the
// backends generate (encode.go). It is neither a general-purpose parser nor
// a general-purpose encoder.
package wasmbin

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// Value types and extern kinds, as encoded in the binary format.
const (
	KindFunc   = 0
	KindTable  = 1
	KindMemory = 2
	KindGlobal = 3
)

// FuncType is a function signature. The sandbox's host interface uses the
// same type, so types read from a binary need no conversion.
type FuncType = wasmhost.FuncType

// GlobalType is a global's value type and mutability.
type GlobalType struct {
	Type wasmhost.ValueType
	Mut  bool
}

// Import is one import entry.
type Import struct {
	Module, Name string
	Kind         byte
	TypeIndex    uint32     // for functions
	Type         *FuncType  // for functions (Parse sets it from TypeIndex)
	Min, Max     uint32     // for memories; Max is 0 without HasMax
	HasMax       bool       // for memories
	Global       GlobalType // for globals
}

// Export is one export entry.
type Export struct {
	Name  string
	Kind  byte
	Index uint32
	Type  *FuncType // for functions
}

// Module is a module's types, imports and exports, which Parse reads, and
// the definitions that only Encode writes: functions, a memory, globals.
type Module struct {
	Types   []FuncType
	Imports []Import
	Exports []Export

	Funcs   []Func
	Memory  *Limits
	Globals []Global

	// funcTypes maps function index (imports first) to type index.
	funcTypes []uint32
}

var magic = []byte{0, 'a', 's', 'm', 1, 0, 0, 0}

// ErrNotWasm is returned for bytes that are not a WebAssembly 1.0 binary.
var ErrNotWasm = errors.New("not a WebAssembly binary (bad magic number or version)")

type reader struct {
	b   []byte
	pos int
	err error
}

func (r *reader) fail(format string, a ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("wasm binary: offset %d: %s", r.pos, fmt.Sprintf(format, a...))
	}
}

func (r *reader) byte() byte {
	if r.err != nil {
		return 0
	}
	if r.pos >= len(r.b) {
		r.fail("unexpected end")
		return 0
	}
	c := r.b[r.pos]
	r.pos++
	return c
}

func (r *reader) u32() uint32 {
	var v uint32
	for shift := 0; shift < 35; shift += 7 {
		c := r.byte()
		v |= uint32(c&0x7f) << shift
		if c&0x80 == 0 {
			return v
		}
	}
	r.fail("bad LEB128")
	return 0
}

func (r *reader) bytes(n uint32) []byte {
	if r.err != nil {
		return nil
	}
	if uint64(r.pos)+uint64(n) > uint64(len(r.b)) {
		r.fail("unexpected end (need %d bytes)", n)
		return nil
	}
	s := r.b[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return s
}

func (r *reader) name() string { return string(r.bytes(r.u32())) }

func (r *reader) limits() (min, max uint32, hasMax bool) {
	flag := r.byte()
	min = r.u32()
	if flag&1 != 0 {
		max, hasMax = r.u32(), true
	}
	return
}

type section struct {
	id         byte
	start, end int // payload
	head       int // offset of the id byte
}

func sections(b []byte) ([]section, error) {
	if len(b) < 8 || !bytes.Equal(b[:8], magic) {
		return nil, ErrNotWasm
	}
	r := &reader{b: b, pos: 8}
	var out []section
	for r.pos < len(b) && r.err == nil {
		head := r.pos
		id := r.byte()
		size := r.u32()
		start := r.pos
		r.bytes(size)
		out = append(out, section{id: id, start: start, end: r.pos, head: head})
	}
	return out, r.err
}

// Parse reads types, imports and exports.
func Parse(b []byte) (*Module, error) {
	secs, err := sections(b)
	if err != nil {
		return nil, err
	}
	m := &Module{}
	for _, s := range secs {
		r := &reader{b: b[:s.end], pos: s.start}
		switch s.id {
		case 1:
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				if r.byte() != 0x60 {
					r.fail("bad function type")
				}
				ft := FuncType{Params: valueTypes(r.bytes(r.u32()))}
				ft.Results = valueTypes(r.bytes(r.u32()))
				m.Types = append(m.Types, ft)
			}
		case 2:
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				imp := Import{Module: r.name(), Name: r.name(), Kind: r.byte()}
				switch imp.Kind {
				case KindFunc:
					imp.TypeIndex = r.u32()
					m.funcTypes = append(m.funcTypes, imp.TypeIndex)
					imp.Type = m.typeAt(imp.TypeIndex, r)
				case KindTable:
					r.byte()
					r.limits()
				case KindMemory:
					imp.Min, imp.Max, imp.HasMax = r.limits()
				case KindGlobal:
					imp.Global.Type = wasmhost.ValueType(r.byte())
					imp.Global.Mut = r.byte() == 1
				default:
					r.fail("bad import kind %d", imp.Kind)
				}
				m.Imports = append(m.Imports, imp)
			}
		case 3:
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				m.funcTypes = append(m.funcTypes, r.u32())
			}
		case 7:
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				e := Export{Name: r.name(), Kind: r.byte(), Index: r.u32()}
				m.Exports = append(m.Exports, e)
			}
		}
		if r.err != nil {
			return nil, r.err
		}
	}
	for i := range m.Exports {
		e := &m.Exports[i]
		if e.Kind == KindFunc {
			if int(e.Index) >= len(m.funcTypes) || int(m.funcTypes[e.Index]) >= len(m.Types) {
				return nil, fmt.Errorf("wasm binary: export %q: bad function index", e.Name)
			}
			ft := m.Types[m.funcTypes[e.Index]]
			e.Type = &ft
		}
	}
	return m, nil
}

// valueTypes copies value type codes out of the binary.
func valueTypes(b []byte) []wasmhost.ValueType {
	out := make([]wasmhost.ValueType, len(b))
	for i, c := range b {
		out[i] = wasmhost.ValueType(c)
	}
	return out
}

func (m *Module) typeAt(i uint32, r *reader) *FuncType {
	if int(i) >= len(m.Types) {
		r.fail("bad type index %d", i)
		return nil
	}
	ft := m.Types[i]
	return &ft
}

// DefineImportedMemory returns a copy of b in which the memory import
// (module, name) is replaced by a memory defined by the module with the given
// page limits. The module must have no memory section of its own.
func DefineImportedMemory(b []byte, module, name string, min, max uint32) ([]byte, error) {
	secs, err := sections(b)
	if err != nil {
		return nil, err
	}
	var imp *section
	for i := range secs {
		switch secs[i].id {
		case 2:
			imp = &secs[i]
		case 5:
			return nil, errors.New("wasm binary: module defines its own memory")
		}
	}
	if imp == nil {
		return nil, errors.New("wasm binary: no import section")
	}
	// Re-encode the import section without the memory entry.
	r := &reader{b: b[:imp.end], pos: imp.start}
	n := r.u32()
	var kept bytes.Buffer
	found := false
	for i := uint32(0); i < n && r.err == nil; i++ {
		entryStart := r.pos
		mod, nm, kind := r.name(), r.name(), r.byte()
		switch kind {
		case KindFunc:
			r.u32()
		case KindTable:
			r.byte()
			r.limits()
		case KindMemory:
			r.limits()
		case KindGlobal:
			r.byte()
			r.byte()
		}
		if kind == KindMemory && mod == module && nm == name {
			found = true
			continue
		}
		kept.Write(b[entryStart:r.pos])
	}
	if r.err != nil {
		return nil, r.err
	}
	if !found {
		return nil, fmt.Errorf("wasm binary: no memory import %s.%s", module, name)
	}
	newImports := append(AppendU32(nil, n-1), kept.Bytes()...)
	memory := appendLimits(AppendU32(nil, 1), Limits{Min: min, Max: max, HasMax: true})

	out := append([]byte(nil), b[:8]...)
	wroteMem := false
	for _, s := range secs {
		// Custom sections (0) may appear anywhere; the memory section goes
		// before the first known section that must follow it.
		if !wroteMem && s.id != SectionCustom && s.id > SectionMemory {
			out, wroteMem = AppendSection(out, SectionMemory, memory), true
		}
		if s.id == SectionImport {
			out = AppendSection(out, SectionImport, newImports)
			continue
		}
		out = append(out, b[s.head:s.end]...)
	}
	if !wroteMem {
		out = AppendSection(out, SectionMemory, memory)
	}
	return out, nil
}
