//go:build js && wasm

package jsbridge

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"syscall/js"

	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// errClosed is returned by calls on a closed instance.
var errClosed = errors.New("wasm instance is closed")

type instance struct {
	exports js.Value
	mem     *memory // nil when the module has no memory

	// releasers releases every js.Func of the host imports on Close.
	releasers []func()
	closed    bool

	// epoch counts the moments WebAssembly code may have run since the
	// memory view was checked: it changes when an export returns and when a
	// host import is entered. The memory rechecks its view only when it
	// changed (see memory.sync).
	epoch uint64

	// pending is the error of a host import that panicked, set just before
	// the import makes the WebAssembly call trap and taken by the Call (or
	// Instantiate) that catches that trap.
	pending error
	depth   int // export calls in progress (re-entrant calls nest)

	// The fast imports (fastimport.go): the trampoline's trap flag, and
	// the block of slots, freed once the instance is closed and no export
	// call is in progress (fastN is 0 without fast imports or once freed).
	fastTrapped     js.Value
	fastBase, fastN int

	// directSlots are the slots of this instance's exports in the direct
	// call table (direct.go).
	directSlots []int32
}

// Instantiate creates the memory described by imp.Memory (when Name is
// set), builds the import object {imp.Module: {...funcs, [Name]: memory}}
// and instantiates the module with the synchronous new WebAssembly.Instance.
// A missing or mistyped import, a memory spec the engine rejects, or a
// trapping start function give an error (the last wraps ErrTrap).
func (m *module) Instantiate(imp wasmhost.Imports) (_ wasmhost.Instance, err error) {
	if m.closed {
		return nil, errors.New("instantiate: module is closed")
	}
	if webAssembly.Type() != js.TypeObject {
		return nil, errNoWebAssembly
	}
	inst := &instance{}
	defer func() {
		if err != nil {
			inst.Close()
		}
	}()
	ns := objectCtor.New()
	importObject := objectCtor.New()
	importObject.Set(imp.Module, ns)
	var memObj js.Value
	if imp.Memory.Name != "" {
		desc := objectCtor.New()
		desc.Set("initial", imp.Memory.MinPages)
		desc.Set("maximum", imp.Memory.MaxPages)
		if e := catch(func() { memObj = webAssembly.Get("Memory").New(desc) }); e != nil {
			return nil, fmt.Errorf("instantiate: memory of %d to %d pages: %w", imp.Memory.MinPages, imp.Memory.MaxPages, e)
		}
		ns.Set(imp.Memory.Name, memObj)
	}
	for name, fn := range inst.hostFuncs(imp.Module, imp.Funcs) {
		ns.Set(name, fn)
	}

	var jsInst js.Value
	if e := catch(func() { jsInst = webAssembly.Get("Instance").New(m.mod, importObject) }); e != nil {
		if inst.pending != nil || e.Name == "RuntimeError" {
			return nil, fmt.Errorf("instantiate: start function: %w", inst.trapError(e))
		}
		return nil, fmt.Errorf("instantiate: %w", e)
	}
	inst.epoch++
	inst.exports = jsInst.Get("exports")
	if memObj.IsUndefined() {
		// No memory import: use the module's own exported memory, if any.
		for _, e := range m.Exports() {
			if e.Kind == wasmhost.KindMemory {
				memObj = inst.exports.Get(e.Name)
				break
			}
		}
	}
	if !memObj.IsUndefined() {
		inst.mem = newMemory(inst, memObj)
	}
	return inst, nil
}

// trapError builds the error of a call that raised the JavaScript exception
// e: the panic of a host import when one caused it, or the exception
// (typically a WebAssembly.RuntimeError such as "unreachable").
func (inst *instance) trapError(e *Error) error {
	if p := inst.pending; p != nil {
		inst.pending = nil
		return fmt.Errorf("%w: %w", wasmhost.ErrTrap, p)
	}
	return fmt.Errorf("%w: %w", wasmhost.ErrTrap, e)
}

func (inst *instance) Memory() wasmhost.Memory {
	if inst.mem == nil {
		return nil
	}
	return inst.mem
}

// Close releases the js.Func of every host import and drops the instance;
// later calls of its functions return an error, and its memory reads as
// out of bounds.
func (inst *instance) Close() error {
	if inst.closed {
		return nil
	}
	inst.closed = true
	for _, r := range inst.releasers {
		r()
	}
	inst.releasers = nil
	inst.freeFastSlots()
	if direct() {
		inst.freeDirectSlots()
	}
	inst.exports = js.Undefined()
	if inst.mem != nil {
		inst.mem.drop()
	}
	return nil
}

// Func looks up the export once. The JavaScript API cannot reflect its
// type; the parameter count is checked against the function's length.
func (inst *instance) Func(name string, t wasmhost.FuncType) (wasmhost.Func, error) {
	if inst.closed {
		return nil, errClosed
	}
	if len(t.Results) > 1 {
		return nil, fmt.Errorf("export %q: multiple results are not supported", name)
	}
	f, ok := safeGet(inst.exports, name)
	if !ok || f.Type() != js.TypeFunction {
		return nil, fmt.Errorf("no exported function %q", name)
	}
	if n := f.Length(); n != len(t.Params) {
		return nil, fmt.Errorf("exported function %q takes %d parameters, not %d", name, n, len(t.Params))
	}
	ef := &export{inst: inst, name: name, fn: f, params: t.Params, result: noResult, slot: -1}
	if len(t.Results) == 1 {
		ef.result = t.Results[0]
	}
	ef.direct = directable(ef.params, ef.result) && direct()
	return ef, nil
}

// noResult stands for an empty result list.
const noResult wasmhost.ValueType = 0

type export struct {
	inst   *instance
	name   string
	fn     js.Value
	params []wasmhost.ValueType
	result wasmhost.ValueType
	// direct says Call uses the direct call import (direct.go); slot is
	// the export's place in its table, -1 until the first call.
	direct bool
	slot   int32
}

// maxStackArgs is the argument count up to which Call keeps its argument
// list on the stack (each argument outside 0..255 is still boxed on the
// heap, 8 bytes).
const maxStackArgs = 16

// Call converts the arguments (i32 to a signed number, i64 to a decimal
// string that WebAssembly converts to BigInt, f32/f64 from their bits),
// calls the export, and converts the result back. A JavaScript exception
// (a WebAssembly trap, a host import that panicked, stack exhaustion)
// becomes an error wrapping wasmhost.ErrTrap and, for a panic, the panic's
// error.
func (f *export) Call(args ...uint64) (res uint64, err error) {
	inst := f.inst
	if inst.closed {
		return 0, fmt.Errorf("call %s: %w", f.name, errClosed)
	}
	if len(args) != len(f.params) {
		return 0, fmt.Errorf("call %s: %d arguments for %d parameters", f.name, len(args), len(f.params))
	}
	if f.direct {
		inst.enter()
		r, exc, ok := f.callDirect(args)
		inst.leave()
		if !ok {
			return 0, inst.trapError(ErrorFromJS(exc))
		}
		return r, nil
	}
	var buf [maxStackArgs]any
	var a []any
	if len(args) <= maxStackArgs {
		a = buf[:len(args)]
	} else {
		a = make([]any, len(args))
	}
	for i, t := range f.params {
		a[i] = toJS(args[i], t)
	}
	inst.enter()
	defer func() {
		inst.leave()
		if r := recover(); r != nil {
			if je, ok := r.(js.Error); ok {
				err = inst.trapError(ErrorFromJS(je.Value))
			} else {
				err = fmt.Errorf("%w: %w", wasmhost.ErrTrap, panicError(r))
			}
			res = 0
		}
	}()
	if f.result == wasmhost.I64 {
		return f.callI64(a)
	}
	return fromJS(f.fn.Invoke(a...), f.result), nil
}

// enter and leave bracket every call of an export, direct or through
// syscall/js.
func (inst *instance) enter() {
	if inst.depth == 0 {
		// A panic whose exception WebAssembly caught (exception handling)
		// never reached a Call: do not report it for an unrelated trap.
		inst.pending = nil
	}
	inst.depth++
}

// leave also frees the fast import slots of an instance closed during the
// call, which Close could not free while the call was in progress.
func (inst *instance) leave() {
	inst.depth--
	inst.epoch++
	if inst.closed {
		inst.freeFastSlots()
	}
}

// callI64 calls an export whose result is i64 without letting the BigInt
// reach Go (syscall/js can neither read nor release one):
// String(Array.from({length: 1}, f.bind(undefined, ...args))) evaluates the
// call inside Array.from, and String turns the one-element array, hence the
// BigInt, into its decimal text.
func (f *export) callI64(args []any) (uint64, error) {
	bound := bind(f.fn, js.Undefined(), args...)
	lengthOne := objectCtor.New()
	lengthOne.Set("length", 1)
	s := stringFn.Invoke(arrayFrom.Invoke(lengthOne, bound)).String()
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("call %s: i64 result %q: %w", f.name, s, err)
	}
	return uint64(v), nil
}

// toJS converts a wasmhost value to the JavaScript value WebAssembly
// expects for type t.
func toJS(v uint64, t wasmhost.ValueType) any {
	switch t {
	case wasmhost.I32:
		// An int, not a float64: Go boxes small ints without allocating.
		return int(int32(uint32(v)))
	case wasmhost.I64:
		// A string, not a BigInt made in Go: ToBigInt64 accepts decimal
		// text, and no BigInt ever becomes a js.Value.
		return strconv.FormatInt(int64(v), 10)
	case wasmhost.F32:
		if uint32(v) == negZero32 {
			return "-0"
		}
		return float64(math.Float32frombits(uint32(v)))
	case wasmhost.F64:
		if v == negZero64 {
			// syscall/js turns the float64 -0 into +0; ToNumber("-0") is -0.
			return "-0"
		}
		return math.Float64frombits(v)
	}
	return nil
}

const (
	negZero32 = 1 << 31
	negZero64 = 1 << 63
)

// fromJS converts a JavaScript number to a wasmhost value of type t (not
// i64: see callI64 and hostFunc). A value that is not a number gives 0.
//
// A -0 from JavaScript arrives as +0: syscall/js stores every zero as the
// same value, so its sign is gone before Go sees it. NaN payloads are not
// preserved either.
func fromJS(v js.Value, t wasmhost.ValueType) uint64 {
	if v.Type() != js.TypeNumber {
		return 0
	}
	switch t {
	case wasmhost.I32:
		return uint64(uint32(int32(int64(v.Float()))))
	case wasmhost.F32:
		return uint64(math.Float32bits(float32(v.Float())))
	case wasmhost.F64:
		return math.Float64bits(v.Float())
	}
	return 0
}
