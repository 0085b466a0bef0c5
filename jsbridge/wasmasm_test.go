//go:build js && wasm

package jsbridge

// A tiny WebAssembly binary-format writer for the tests: types, function
// and memory imports, functions, a defined memory, exports and code.

import (
	"github.com/interopio/code-mode/internal/leb"
	"github.com/interopio/code-mode/sandbox/wasmhost"
)

const (
	i32 = byte(wasmhost.I32)
	i64 = byte(wasmhost.I64)
	f32 = byte(wasmhost.F32)
	f64 = byte(wasmhost.F64)
)

// Opcodes used by the tests.
const (
	opUnreachable = 0x00
	opCall        = 0x10
	opDrop        = 0x1a
	opLocalGet    = 0x20
	opI32Load     = 0x28
	opI32Store    = 0x36
	opF64Store    = 0x39
	opMemorySize  = 0x3f
	opMemoryGrow  = 0x40
	opI32Const    = 0x41
	opI32Add      = 0x6a
	opEnd         = 0x0b
)

type wtype struct{ params, results []byte }

type wimport struct {
	module, name string
	kind         byte
	typeIdx      uint32
	min, max     uint32
	hasMax       bool
}

type wfunc struct {
	typeIdx uint32
	body    []byte
}

type wexport struct {
	name string
	kind byte
	idx  uint32
}

type wmodule struct {
	types     []wtype
	imports   []wimport
	funcs     []wfunc
	memory    *[2]uint32 // defined memory: min, max
	exports   []wexport
	numImport uint32 // imported functions
}

func (m *wmodule) typeIdx(params, results []byte) uint32 {
	for i, t := range m.types {
		if string(t.params) == string(params) && string(t.results) == string(results) {
			return uint32(i)
		}
	}
	m.types = append(m.types, wtype{params, results})
	return uint32(len(m.types) - 1)
}

// importFunc adds a function import and returns its function index. All
// imports must come before the first defined function.
func (m *wmodule) importFunc(module, name string, params, results []byte) uint32 {
	m.imports = append(m.imports, wimport{module: module, name: name, kind: 0, typeIdx: m.typeIdx(params, results)})
	m.numImport++
	return m.numImport - 1
}

func (m *wmodule) importMemory(module, name string, min, max uint32) {
	m.imports = append(m.imports, wimport{module: module, name: name, kind: 2, min: min, max: max, hasMax: true})
}

// fn defines a function with code (without the final end), exported as
// name unless name is empty, and returns its index.
func (m *wmodule) fn(name string, params, results []byte, code ...byte) uint32 {
	m.funcs = append(m.funcs, wfunc{m.typeIdx(params, results), code})
	idx := m.numImport + uint32(len(m.funcs)) - 1
	if name != "" {
		m.exports = append(m.exports, wexport{name, 0, idx})
	}
	return idx
}

func uleb(v uint64) []byte { return leb.Unsigned(nil, v) }

func sleb(v int64) []byte { return leb.Signed(nil, v) }

func name(s string) []byte { return append(uleb(uint64(len(s))), s...) }

func vec(n int, items []byte) []byte { return append(uleb(uint64(n)), items...) }

func section(id byte, payload []byte) []byte {
	return append(append([]byte{id}, uleb(uint64(len(payload)))...), payload...)
}

func limits(min, max uint32, hasMax bool) []byte {
	if !hasMax {
		return append([]byte{0}, uleb(uint64(min))...)
	}
	return append(append([]byte{1}, uleb(uint64(min))...), uleb(uint64(max))...)
}

func (m *wmodule) bytes() []byte {
	out := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	var p []byte
	for _, t := range m.types {
		p = append(p, 0x60)
		p = append(p, vec(len(t.params), t.params)...)
		p = append(p, vec(len(t.results), t.results)...)
	}
	out = append(out, section(1, vec(len(m.types), p))...)
	if len(m.imports) > 0 {
		p = nil
		for _, im := range m.imports {
			p = append(p, name(im.module)...)
			p = append(p, name(im.name)...)
			p = append(p, im.kind)
			if im.kind == 0 {
				p = append(p, uleb(uint64(im.typeIdx))...)
			} else {
				p = append(p, limits(im.min, im.max, im.hasMax)...)
			}
		}
		out = append(out, section(2, vec(len(m.imports), p))...)
	}
	p = nil
	for _, f := range m.funcs {
		p = append(p, uleb(uint64(f.typeIdx))...)
	}
	out = append(out, section(3, vec(len(m.funcs), p))...)
	if m.memory != nil {
		out = append(out, section(5, vec(1, limits(m.memory[0], m.memory[1], true)))...)
	}
	p = nil
	for _, e := range m.exports {
		p = append(p, name(e.name)...)
		p = append(p, e.kind)
		p = append(p, uleb(uint64(e.idx))...)
	}
	out = append(out, section(7, vec(len(m.exports), p))...)
	p = nil
	for _, f := range m.funcs {
		body := append([]byte{0}, f.body...) // no locals
		body = append(body, opEnd)
		p = append(p, uleb(uint64(len(body)))...)
		p = append(p, body...)
	}
	out = append(out, section(10, vec(len(m.funcs), p))...)
	return out
}

// Instruction helpers.
func localGet(i uint32) []byte { return append([]byte{opLocalGet}, uleb(uint64(i))...) }
func call(f uint32) []byte     { return append([]byte{opCall}, uleb(uint64(f))...) }
func i32Const(v int32) []byte  { return append([]byte{opI32Const}, sleb(int64(v))...) }

func code(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
