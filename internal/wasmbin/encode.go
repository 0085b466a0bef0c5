package wasmbin

import (
	"math"

	"github.com/interopio/code-mode/internal/leb"
	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// The encoder writes the small modules the backends generate at run time
// (interrupt polls, host-import trampolines) and the tests' modules, from a
// Module value, as wazero's internal/testing/binaryencoding does. It covers
// what those modules use: types, function, memory and global imports,
// defined functions without locals, one defined memory, globals with a
// constant initialiser, exports. Sections that would be empty are left out.

// Section ids, in the order a module must have them.
const (
	SectionCustom   = 0
	SectionType     = 1
	SectionImport   = 2
	SectionFunction = 3
	SectionMemory   = 5
	SectionGlobal   = 6
	SectionExport   = 7
	SectionCode     = 10
)

// Opcodes used by the generated modules and the tests.
const (
	OpUnreachable         = 0x00
	OpBlock               = 0x02
	OpLoop                = 0x03
	OpIf                  = 0x04
	OpElse                = 0x05
	OpEnd                 = 0x0b
	OpCall                = 0x10
	OpDrop                = 0x1a
	OpLocalGet            = 0x20
	OpGlobalGet           = 0x23
	OpGlobalSet           = 0x24
	OpI32Load             = 0x28
	OpI32Store            = 0x36
	OpF64Store            = 0x39
	OpMemorySize          = 0x3f
	OpMemoryGrow          = 0x40
	OpI32Const            = 0x41
	OpI64Const            = 0x42
	OpF64Const            = 0x44
	OpI32Eqz              = 0x45
	OpF64Lt               = 0x63
	OpF64Gt               = 0x64
	OpI32Add              = 0x6a
	OpI32Sub              = 0x6b
	OpI32And              = 0x71
	OpI32Or               = 0x72
	OpF64Neg              = 0x9a
	OpI32WrapI64          = 0xa7
	OpI64ExtendI32U       = 0xad
	OpI32ReinterpretF32   = 0xbc
	OpI64ReinterpretF64   = 0xbd
	OpF32ReinterpretI32   = 0xbe
	OpF64ReinterpretI64   = 0xbf
	BlockEmpty            = 0x40 // the block type of an if without results
	funcTypeForm          = 0x60
	limitsMin, limitsBoth = 0x00, 0x01
)

// Func is a function the module defines: its type and its body, the
// instructions without the final end (the encoder adds it). Functions have
// no locals beyond their parameters.
type Func struct {
	TypeIndex uint32
	Body      []byte
}

// Global is a global the module defines: its type and its constant
// initialiser, without the final end.
type Global struct {
	Type wasmhost.ValueType
	Mut  bool
	Init []byte
}

// Limits are a memory's page limits.
type Limits struct {
	Min, Max uint32
	HasMax   bool
}

// Encode returns m in the binary format. Imports use Kind with TypeIndex
// (functions), Min/Max/HasMax (memories) or Global (globals); Exports use
// Name, Kind and Index. Parse reads what Encode writes.
func (m *Module) Encode() []byte {
	out := append([]byte(nil), magic...)
	out = vecSection(out, SectionType, len(m.Types), func(p []byte, i int) []byte { return AppendFuncType(p, m.Types[i]) })
	out = vecSection(out, SectionImport, len(m.Imports), func(p []byte, i int) []byte {
		im := m.Imports[i]
		p = AppendName(AppendName(p, im.Module), im.Name)
		p = append(p, im.Kind)
		switch im.Kind {
		case KindFunc:
			p = AppendU32(p, im.TypeIndex)
		case KindMemory:
			p = appendLimits(p, Limits{im.Min, im.Max, im.HasMax})
		case KindGlobal:
			p = appendGlobalType(p, im.Global)
		default:
			panic("wasmbin: Encode: unsupported import kind")
		}
		return p
	})
	out = vecSection(out, SectionFunction, len(m.Funcs), func(p []byte, i int) []byte { return AppendU32(p, m.Funcs[i].TypeIndex) })
	if m.Memory != nil {
		out = vecSection(out, SectionMemory, 1, func(p []byte, _ int) []byte { return appendLimits(p, *m.Memory) })
	}
	out = vecSection(out, SectionGlobal, len(m.Globals), func(p []byte, i int) []byte {
		g := m.Globals[i]
		p = appendGlobalType(p, GlobalType{g.Type, g.Mut})
		return append(append(p, g.Init...), OpEnd)
	})
	out = vecSection(out, SectionExport, len(m.Exports), func(p []byte, i int) []byte {
		e := m.Exports[i]
		return AppendU32(append(AppendName(p, e.Name), e.Kind), e.Index)
	})
	out = vecSection(out, SectionCode, len(m.Funcs), func(p []byte, i int) []byte {
		body := append(append([]byte{0}, m.Funcs[i].Body...), OpEnd) // no locals
		return append(AppendU32(p, uint32(len(body))), body...)
	})
	return out
}

// vecSection appends a section holding a vector of n items, each written by
// item; nothing for n == 0.
func vecSection(out []byte, id byte, n int, item func(p []byte, i int) []byte) []byte {
	if n == 0 {
		return out
	}
	p := AppendU32(nil, uint32(n))
	for i := range n {
		p = item(p, i)
	}
	return AppendSection(out, id, p)
}

// AppendSection appends a section with its id and size.
func AppendSection(b []byte, id byte, payload []byte) []byte {
	return append(AppendU32(append(b, id), uint32(len(payload))), payload...)
}

// AppendU32 appends v as unsigned LEB128.
func AppendU32(b []byte, v uint32) []byte { return leb.Unsigned(b, uint64(v)) }

// AppendName appends a length-prefixed name.
func AppendName(b []byte, s string) []byte { return append(AppendU32(b, uint32(len(s))), s...) }

// AppendFuncType appends a function type. Two types encode alike exactly
// when they are equal, so the encoding also serves as a map key.
func AppendFuncType(b []byte, t FuncType) []byte {
	b = append(b, funcTypeForm)
	b = appendValueTypes(AppendU32(b, uint32(len(t.Params))), t.Params)
	return appendValueTypes(AppendU32(b, uint32(len(t.Results))), t.Results)
}

func appendValueTypes(b []byte, ts []wasmhost.ValueType) []byte {
	for _, t := range ts {
		b = append(b, byte(t))
	}
	return b
}

func appendLimits(b []byte, l Limits) []byte {
	if !l.HasMax {
		return AppendU32(append(b, limitsMin), l.Min)
	}
	return AppendU32(AppendU32(append(b, limitsBoth), l.Min), l.Max)
}

func appendGlobalType(b []byte, g GlobalType) []byte {
	mut := byte(0)
	if g.Mut {
		mut = 1
	}
	return append(b, byte(g.Type), mut)
}

// Instructions with immediates.

// LocalGet is local.get i.
func LocalGet(i uint32) []byte { return AppendU32([]byte{OpLocalGet}, i) }

// LocalTee is local.tee i.
func LocalTee(i uint32) []byte { return AppendU32([]byte{0x22}, i) }

// GlobalGet is global.get i.
func GlobalGet(i uint32) []byte { return AppendU32([]byte{OpGlobalGet}, i) }

// GlobalSet is global.set i.
func GlobalSet(i uint32) []byte { return AppendU32([]byte{OpGlobalSet}, i) }

// Call is call f.
func Call(f uint32) []byte { return AppendU32([]byte{OpCall}, f) }

// I32Const is i32.const v.
func I32Const(v int32) []byte { return leb.Signed([]byte{OpI32Const}, int64(v)) }

// I64Const is i64.const v.
func I64Const(v int64) []byte { return leb.Signed([]byte{OpI64Const}, v) }

// F64Const is f64.const v.
func F64Const(v float64) []byte {
	bits := math.Float64bits(v)
	b := []byte{OpF64Const}
	for i := range 8 {
		b = append(b, byte(bits>>(8*i)))
	}
	return b
}

// Expr concatenates instructions. Not inlined, as leb's encoders are not
// (leb.Unsigned says why).
//
//go:noinline
func Expr(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
