//go:build js && wasm

package jsbridge

import (
	"fmt"
	"sort"
	"strconv"
	"syscall/js"

	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// hostFuncs returns the JavaScript function of every import in funcs: an
// interrupt poll answered in WebAssembly where possible (poll.go), else a
// trampoline into Go's export where the loader allows it (fastimport.go),
// else a js.FuncOf function.
func (inst *instance) hostFuncs(module string, funcs map[string]wasmhost.HostFunc) map[string]js.Value {
	out := make(map[string]js.Value, len(funcs))
	var fastNames []string
	var fast []*hostCall
	// In name order: the compiled trampoline is cached by its imports'
	// types in order, and a map's order changes at every range, so each new
	// instance compiled a WebAssembly module of its own (and the cache kept
	// every one of them for the life of the program).
	names := make([]string, 0, len(funcs))
	for name := range funcs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fn, h := inst.hostFunc(module, name, funcs[name])
		if h != nil {
			fastNames = append(fastNames, name)
			fast = append(fast, h)
			continue
		}
		out[name] = fn
	}
	fns, ok := inst.fastImports(fast)
	for i, name := range fastNames {
		if ok {
			out[name] = fns[i]
		} else {
			out[name] = inst.slowFunc(fast[i])
		}
	}
	return out
}

// hostFunc is hostFuncs' work for one import: its function, or the
// hostCall of one to reach through a trampoline. Not inlined: inlined, its
// calls made hostFuncs 6.8 KB of WebAssembly, whose loop over a module's
// imports V8 charges by that size at every pass (leb.Unsigned says why),
// and which it recompiled with TurboFan in every cold start.
//
//go:noinline
func (inst *instance) hostFunc(module, name string, hf wasmhost.HostFunc) (js.Value, *hostCall) {
	if hf.Poll != nil {
		if fn, ok := inst.pollFunc(hf); ok {
			return fn, nil
		}
	}
	h := inst.newHostCall(module+"."+name, hf)
	if fastImportable(hf.Type) {
		return js.Value{}, h
	}
	return inst.slowFunc(h), nil
}

func (inst *instance) newHostCall(name string, hf wasmhost.HostFunc) *hostCall {
	result := noResult
	if len(hf.Type.Results) > 0 {
		result = hf.Type.Results[0]
	}
	return &hostCall{inst: inst, name: name, hf: hf, params: hf.Type.Params, result: result}
}

// slowFunc returns the JavaScript function for one host import: a
// throwing function (throw.go), so that a panic in the Go function throws a
// JavaScript Error at the import's call site and the WebAssembly call
// traps. The panic is also recorded in inst.pending, and the export call
// that catches the trap returns it, wrapped with wasmhost.ErrTrap.
//
// An import without i64 parameters receives its arguments spread (numbers
// only, the cheaper case). An i64 parameter arrives as a BigInt, which must not
// reach Go (syscall/js can neither read nor release it): such an import
// receives its arguments as one array and converts them to decimal text in
// JavaScript first.
func (inst *instance) slowFunc(h *hostCall) js.Value {
	hasI64 := false
	for _, p := range h.params {
		hasI64 = hasI64 || p == wasmhost.I64
	}
	var tf *throwingFunc
	if hasI64 {
		tf = newThrowingFunc(h.viaArray, false)
	} else {
		tf = newThrowingFunc(h.spread, true)
	}
	inst.releasers = append(inst.releasers, tf.release)
	return tf.value
}

type hostCall struct {
	inst    *instance
	name    string
	hf      wasmhost.HostFunc
	params  []wasmhost.ValueType
	result  wasmhost.ValueType
	scratch []uint64 // argument buffer; nil while a call uses it
}

// args takes the reusable argument buffer; a re-entrant call of the same
// import (rare) gets a new one.
func (h *hostCall) args() []uint64 {
	a := h.scratch
	if a == nil {
		return make([]uint64, len(h.params))
	}
	h.scratch = nil
	return a
}

// call runs the Go function and converts its result for JavaScript. On a
// panic it records the error and reports failure.
func (h *hostCall) call(a []uint64) (res any, ok bool) {
	r, ok := h.run(a)
	if !ok {
		return nil, false
	}
	switch h.result {
	case noResult:
		return nil, true
	case wasmhost.I64:
		return strconv.FormatInt(int64(r), 10), true // ToBigInt64 parses it
	}
	return toJS(r, h.result), true
}

// run runs the Go function with the arguments a (the buffer of h.args). On
// a panic it records the error in the instance and reports failure.
func (h *hostCall) run(a []uint64) (res uint64, ok bool) {
	defer func() {
		h.scratch = a
		if r := recover(); r != nil {
			var err error
			if e, isErr := r.(error); isErr {
				err = fmt.Errorf("host function %s panicked: %w", h.name, e)
			} else {
				err = fmt.Errorf("host function %s panicked: %v", h.name, r)
			}
			h.inst.pending = err
			res, ok = 0, false
		}
	}()
	if h.inst.closed {
		panic("instance is closed")
	}
	return h.hf.Call(a), true
}

// spread is the throwingCall of an import without i64 parameters: the
// arguments are numbers.
func (h *hostCall) spread(jsArgs []js.Value) (any, js.Value, bool) {
	h.inst.epoch++
	a := h.args()
	for i, t := range h.params {
		var v js.Value
		if i < len(jsArgs) {
			v = jsArgs[i]
		}
		a[i] = fromJS(v, t)
	}
	return h.finish(a)
}

// viaArray is the throwingCall of the other imports: g's arguments are
// [t1, this, arguments array].
func (h *hostCall) viaArray(g []js.Value) (any, js.Value, bool) {
	h.inst.epoch++
	args := g[2]
	a := h.args()
	var text js.Value // String of each argument, when an i64 needs it
	for i, t := range h.params {
		if t == wasmhost.I64 {
			if text.IsUndefined() {
				text = funcCall(arrayMap, args, stringFn)
			}
			n, err := strconv.ParseInt(text.Index(i).String(), 10, 64)
			if err != nil {
				n = 0 // unreachable: WebAssembly passes an i64 as a BigInt
			}
			a[i] = uint64(n)
			continue
		}
		a[i] = fromJS(args.Index(i), t)
	}
	return h.finish(a)
}

func (h *hostCall) finish(a []uint64) (any, js.Value, bool) {
	res, ok := h.call(a)
	if !ok {
		return nil, NewError("Error", "wasm trap: "+h.inst.pending.Error()), true
	}
	return res, js.Value{}, false
}

// funcCall returns fn.call(this, args...) using Reflect.apply.
func funcCall(fn, this js.Value, args ...any) js.Value {
	return reflectApply.Invoke(fn, this, arrayOf(args...))
}
