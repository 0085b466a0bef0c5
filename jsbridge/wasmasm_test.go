//go:build js && wasm

package jsbridge

// The tests' WebAssembly modules, on wasmbin's encoder: wmodule numbers
// types and functions as they are added.

import (
	"github.com/interopio/code-mode/internal/wasmbin"
	"github.com/interopio/code-mode/sandbox/wasmhost"
)

type vt = wasmhost.ValueType

const (
	i32 = wasmhost.I32
	i64 = wasmhost.I64
	f32 = wasmhost.F32
	f64 = wasmhost.F64
)

// Opcodes used by the tests.
const (
	opUnreachable = wasmbin.OpUnreachable
	opDrop        = wasmbin.OpDrop
	opI32Load     = wasmbin.OpI32Load
	opI32Store    = wasmbin.OpI32Store
	opF64Store    = wasmbin.OpF64Store
	opMemorySize  = wasmbin.OpMemorySize
	opMemoryGrow  = wasmbin.OpMemoryGrow
	opI32Add      = wasmbin.OpI32Add
)

type wexport struct {
	name string
	kind byte
	idx  uint32
}

type wmodule struct {
	m         wasmbin.Module
	memory    *[2]uint32 // defined memory: min, max
	exports   []wexport
	numImport uint32 // imported functions
}

func (m *wmodule) typeIdx(params, results []vt) uint32 {
	t := wasmbin.FuncType{Params: params, Results: results}
	key := string(wasmbin.AppendFuncType(nil, t))
	for i, have := range m.m.Types {
		if string(wasmbin.AppendFuncType(nil, have)) == key {
			return uint32(i)
		}
	}
	m.m.Types = append(m.m.Types, t)
	return uint32(len(m.m.Types) - 1)
}

// importFunc adds a function import and returns its function index. All
// imports must come before the first defined function.
func (m *wmodule) importFunc(module, name string, params, results []vt) uint32 {
	m.m.Imports = append(m.m.Imports, wasmbin.Import{Module: module, Name: name, Kind: wasmbin.KindFunc, TypeIndex: m.typeIdx(params, results)})
	m.numImport++
	return m.numImport - 1
}

func (m *wmodule) importMemory(module, name string, min, max uint32) {
	m.m.Imports = append(m.m.Imports, wasmbin.Import{Module: module, Name: name, Kind: wasmbin.KindMemory, Min: min, Max: max, HasMax: true})
}

// fn defines a function with code (without the final end), exported as
// name unless name is empty, and returns its index.
func (m *wmodule) fn(name string, params, results []vt, code ...byte) uint32 {
	m.m.Funcs = append(m.m.Funcs, wasmbin.Func{TypeIndex: m.typeIdx(params, results), Body: code})
	idx := m.numImport + uint32(len(m.m.Funcs)) - 1
	if name != "" {
		m.exports = append(m.exports, wexport{name, wasmbin.KindFunc, idx})
	}
	return idx
}

func (m *wmodule) bytes() []byte {
	mod := m.m
	if m.memory != nil {
		mod.Memory = &wasmbin.Limits{Min: m.memory[0], Max: m.memory[1], HasMax: true}
	}
	for _, e := range m.exports {
		mod.Exports = append(mod.Exports, wasmbin.Export{Name: e.name, Kind: e.kind, Index: e.idx})
	}
	return mod.Encode()
}

// Instruction helpers.
func localGet(i uint32) []byte { return wasmbin.LocalGet(i) }
func call(f uint32) []byte     { return wasmbin.Call(f) }
func i32Const(v int32) []byte  { return wasmbin.I32Const(v) }
func code(parts ...[]byte) []byte {
	return wasmbin.Expr(parts...)
}
