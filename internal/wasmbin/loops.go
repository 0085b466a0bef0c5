package wasmbin

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// LoopCheckExport names the check function InstrumentLoops adds, exported:
// its presence says that a module's loops are counted.
const LoopCheckExport = "codemode_loop_check"

// ErrInstrumented is wrapped by InstrumentLoops's error for a module that
// already has the loop checks.
var ErrInstrumented = errors.New("already has the loop checks")

// LoopCheck says how InstrumentLoops counts loops.
type LoopCheck struct {
	// Module and Name name the function import that is asked, with Arg,
	// whether to stop. Its type must be (i32) -> i32; nonzero means stop.
	Module, Name string
	Arg          int32
	// Every is how many loop iterations (of all loops together) pass
	// between two questions.
	Every uint32
}

// InstrumentLoops returns a copy of b in which every loop counts down a new
// mutable i32 global at its header; when the count reaches zero, it calls
// a new function (exported as LoopCheckExport), which resets the count to
// c.Every, calls the import c names with c.Arg, and traps (unreachable) if
// the answer is nonzero. C code compiled to WebAssembly that loops without
// asking its host anything can so be stopped from the host.
//
// One loop is left as it is: an interpreter's dispatch loop, the loop
// around the module's largest br_table when that one is the largest by far
// (dispatchLoop); QuickJS polls its interrupt handler there itself. If no
// loop has that shape, every loop is counted.
//
// One count for all loops: a count per call of a function (a local) missed
// C code whose inner loop is a function called from the outer one (a
// Proxy's ownKeys of 1e6 names went on 2 s past its deadline). The fast
// path reads the global once: a load, a decrement, a store, a test and a
// branch, the new value kept in a new local of the function (bench's
// array100k under GOOS=js, process CPU time: +0.09 s over 1.45 s; reading
// the global twice, +0.15 s; a local count alone, +0.10 s). Nothing is
// renumbered: the function, its type and the global are appended after the
// module's own, the local after the function's own, and the import already
// exists.
func InstrumentLoops(b []byte, c LoopCheck) ([]byte, error) {
	if c.Every == 0 {
		return nil, errors.New("wasm binary: InstrumentLoops: Every must be at least 1")
	}
	m, err := Parse(b)
	if err != nil {
		return nil, err
	}
	for _, e := range m.Exports {
		if e.Name == LoopCheckExport {
			return nil, fmt.Errorf("wasm binary: %w (exports %s)", ErrInstrumented, LoopCheckExport)
		}
	}
	importIdx, nImportFuncs, nImportGlobals := -1, 0, uint32(0)
	for _, imp := range m.Imports {
		if imp.Kind == KindGlobal {
			nImportGlobals++
		}
		if imp.Kind != KindFunc {
			continue
		}
		if imp.Module == c.Module && imp.Name == c.Name {
			importIdx = nImportFuncs
			want := FuncType{Params: []wasmhost.ValueType{wasmhost.I32}, Results: []wasmhost.ValueType{wasmhost.I32}}
			if imp.Type == nil || string(AppendFuncType(nil, *imp.Type)) != string(AppendFuncType(nil, want)) {
				return nil, fmt.Errorf("wasm binary: import %s.%s: want type (i32) -> i32", c.Module, c.Name)
			}
		}
		nImportFuncs++
	}
	if importIdx < 0 {
		return nil, fmt.Errorf("wasm binary: no function import %s.%s", c.Module, c.Name)
	}
	secs, err := sections(b)
	if err != nil {
		return nil, err
	}
	var types, funcs, globals, exports, code *section
	for i := range secs {
		switch s := &secs[i]; s.id {
		case SectionType:
			types = s
		case SectionFunction:
			funcs = s
		case SectionGlobal:
			globals = s
		case SectionExport:
			exports = s
		case SectionCode:
			code = s
		}
	}
	if types == nil || funcs == nil || code == nil {
		return nil, errors.New("wasm binary: InstrumentLoops: no type, function or code section")
	}
	checkFunc := uint32(len(m.funcTypes))
	checkType := uint32(len(m.Types))
	params := make([]uint32, len(m.funcTypes)-nImportFuncs)
	for i := range params {
		params[i] = uint32(len(m.Types[m.funcTypes[nImportFuncs+i]].Params))
	}
	counter := nImportGlobals
	if globals != nil {
		r := &reader{b: b[:globals.end], pos: globals.start}
		counter += r.u32()
	}
	check := Expr([]byte{0}, // no locals
		I32Const(int32(c.Every)), GlobalSet(counter),
		I32Const(c.Arg), Call(uint32(importIdx)), []byte{OpIf, BlockEmpty, OpUnreachable, OpEnd, OpEnd})
	newCode, err := instrumentCode(b[code.start:code.end], params, func(local uint32) []byte {
		return Expr(GlobalGet(counter), I32Const(1), []byte{OpI32Sub}, LocalTee(local), GlobalSet(counter),
			LocalGet(local), []byte{OpI32Eqz, OpIf, BlockEmpty}, Call(checkFunc), []byte{OpEnd})
	})
	if err != nil {
		return nil, err
	}
	newCode = append(append(newCode, AppendU32(nil, uint32(len(check)))...), check...)
	export := AppendU32(append(AppendName(nil, LoopCheckExport), KindFunc), checkFunc)
	counterGlobal := appendGlobalType(nil, GlobalType{wasmhost.I32, true})
	counterGlobal = append(append(counterGlobal, I32Const(int32(c.Every))...), OpEnd)

	out := append([]byte(nil), b[:8]...)
	wroteGlobals, wroteExports := false, false
	for _, s := range secs {
		if !wroteGlobals && globals == nil && s.id != SectionCustom && s.id > SectionGlobal {
			out, wroteGlobals = AppendSection(out, SectionGlobal, append(AppendU32(nil, 1), counterGlobal...)), true
		}
		if !wroteExports && exports == nil && s.id != SectionCustom && s.id > SectionExport {
			out, wroteExports = AppendSection(out, SectionExport, append(AppendU32(nil, 1), export...)), true
		}
		switch s.id {
		case SectionType:
			out = AppendSection(out, s.id, appendItem(b, s, AppendFuncType(nil, FuncType{})))
		case SectionFunction:
			out = AppendSection(out, s.id, appendItem(b, s, AppendU32(nil, checkType)))
		case SectionGlobal:
			out = AppendSection(out, s.id, appendItem(b, s, counterGlobal))
		case SectionExport:
			out = AppendSection(out, s.id, appendItem(b, s, export))
		case SectionCode:
			out = AppendSection(out, s.id, newCode)
		default:
			out = append(out, b[s.head:s.end]...)
		}
	}
	return out, nil
}

// appendItem returns the payload of vector section s with one more item.
func appendItem(b []byte, s section, item []byte) []byte {
	r := &reader{b: b[:s.end], pos: s.start}
	n := r.u32()
	return append(append(AppendU32(nil, n+1), b[r.pos:s.end]...), item...)
}

// instrumentCode rewrites a code section's payload: in each body with
// loops, header(index of a new i32 local) goes at the start of every
// loop's body. params holds each function's parameter count. The vector's count
// is one more: the caller appends the check function.
func instrumentCode(p []byte, params []uint32, header func(local uint32) []byte) ([]byte, error) {
	skip, err := dispatchLoop(p)
	if err != nil {
		return nil, err
	}
	r := &reader{b: p}
	n := r.u32()
	if int(n) != len(params) {
		return nil, fmt.Errorf("wasm binary: code section has %d bodies for %d functions", n, len(params))
	}
	out := AppendU32(make([]byte, 0, len(p)+len(p)/8), n+1)
	var body bytes.Buffer
	for i := uint32(0); i < n && r.err == nil; i++ {
		size := r.u32()
		start := r.pos
		src := r.bytes(size)
		if r.err != nil {
			break
		}
		body.Reset()
		leave := -1
		if int(i) == skip.body {
			leave = skip.loop
		}
		if err := instrumentBody(src, params[i], header, leave, &body); err != nil {
			return nil, fmt.Errorf("wasm binary: function body %d (offset %d): %w", i, start, err)
		}
		out = append(AppendU32(out, uint32(body.Len())), body.Bytes()...)
	}
	return out, r.err
}

// instrumentBody copies one function body to out: as it is without loops,
// else with one i32 local more and header after each loop's block type,
// but for the loop numbered leave (from 0; -1 for none).
func instrumentBody(src []byte, params uint32, header func(local uint32) []byte, leave int, out *bytes.Buffer) error {
	r := &reader{b: src}
	groups := r.u32()
	groupsEnd := r.pos
	locals := uint64(params)
	for g := groups; g > 0 && r.err == nil; g-- {
		locals += uint64(r.u32()) // count
		r.byte()                  // type
	}
	if locals >= 50000 { // the engines' limit: no room for one more
		return fmt.Errorf("%d locals", locals)
	}
	code := r.pos
	var h []byte
	from := code
	var rest bytes.Buffer
	loops := 0
	for r.pos < len(src) && r.err == nil {
		op := r.byte()
		switch {
		case op == OpLoop:
			r.blockType()
			loops++
			if loops-1 == leave {
				continue
			}
			if h == nil {
				h = header(uint32(locals))
			}
			rest.Write(src[from:r.pos])
			rest.Write(h)
			from = r.pos
		case op == OpBlock || op == OpIf:
			r.blockType()
		default:
			if err := r.skipImmediates(op); err != nil {
				return err
			}
		}
	}
	if r.err != nil {
		return r.err
	}
	if h == nil {
		out.Write(src)
		return nil
	}
	out.Write(AppendU32(nil, groups+1))
	out.Write(src[groupsEnd:code])
	out.Write(append(AppendU32(nil, 1), byte(wasmhost.I32)))
	out.Write(rest.Bytes())
	out.Write(src[from:])
	return nil
}

// blockType skips a block type: empty, a value type, or a type index (s33).
func (r *reader) blockType() { r.skipLEB() }

func (r *reader) skipLEB() {
	for r.err == nil && r.byte()&0x80 != 0 {
	}
}

// skipImmediates skips the immediates of op, which is neither block, loop
// nor if. The opcodes are the MVP's with the sign-extension,
// non-trapping conversion, bulk memory, reference types and tail call
// proposals; others (SIMD, atomics) are refused.
func (r *reader) skipImmediates(op byte) error {
	switch {
	case op <= 0x01, op == 0x05, op == 0x0b, op == 0x0f, op == 0x1a, op == 0x1b, op == 0xd1:
		// unreachable, nop, else, end, return, drop, select, ref.is_null
	case op == 0x0c, op == 0x0d, op == 0x10, op == 0x12, op == 0xd2,
		op >= 0x20 && op <= 0x26, op == 0x3f, op == 0x40, op == 0x41, op == 0x42:
		// br, br_if, call, return_call, ref.func, local/global/table
		// get/set/tee, memory.size/grow, i32/i64.const
		r.skipLEB()
	case op == 0x0e: // br_table
		for n := r.u32(); n > 0 && r.err == nil; n-- {
			r.skipLEB()
		}
		r.skipLEB()
	case op == 0x11, op == 0x13: // call_indirect, return_call_indirect
		r.skipLEB()
		r.skipLEB()
	case op == 0x1c: // select t*
		r.bytes(r.u32())
	case op >= 0x28 && op <= 0x3e: // loads and stores: align, offset
		r.skipLEB()
		r.skipLEB()
	case op == 0x43:
		r.bytes(4)
	case op == 0x44:
		r.bytes(8)
	case op >= 0x45 && op <= 0xc4: // numeric, no immediates
	case op == 0xd0: // ref.null t
		r.byte()
	case op == 0xfc:
		sub := r.u32()
		switch {
		case sub <= 7: // saturating truncations
		case sub == 8, sub == 10, sub == 12, sub == 14: // memory.init, memory.copy, table.init, table.copy
			r.skipLEB()
			r.skipLEB()
		case sub <= 17: // data.drop, memory.fill, elem.drop, table.grow/size/fill
			r.skipLEB()
		default:
			return fmt.Errorf("unsupported instruction 0xfc %d", sub)
		}
	default:
		return fmt.Errorf("unsupported instruction 0x%02x at offset %d", op, r.pos-1)
	}
	return nil
}
