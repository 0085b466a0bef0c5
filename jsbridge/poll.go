//go:build js && wasm

package jsbridge

import (
	"sync"
	"syscall/js"

	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// An interrupt poll (wasmhost.HostFunc.Poll) is answered without calling Go,
// which costs a syscall/js callback (about 6 µs) per poll. The import is the
// export of a tiny WebAssembly module, built here byte by byte:
//
//	(module
//	  (import "e" "now" (func $now (result f64)))        ;; Date.now itself
//	  (global $deadline (export "deadline") (mut f64) (f64.const 0))
//	  (global $stopped (export "stopped") (mut i32) (i32.const 0))
//	  (func (export "poll") (param ...) (result i32)     ;; the import's params, ignored
//	    (i32.or (global.get $stopped)
//	      (i32.and (f64.gt (global.get $deadline) (f64.const 0))
//	               (f64.gt (call $now) (global.get $deadline))))))
//
// The comparison is strict: the deadline is whole milliseconds, truncated
// (Poll keeps Unix milliseconds), and so is Date.now, so now > deadline
// guarantees that the true time is past the owner's deadline, which the
// owner checks again with time.Now when it sees the interrupt. With >= the
// poll could fire up to a millisecond early, before the owner agrees that
// the deadline has passed.
//
// QuickJS calls poll directly, WebAssembly to WebAssembly, and poll calls
// the built-in Date.now: no JavaScript code, no Go. Poll.Watch keeps the two
// globals equal to the Poll's state. Go's time.Now is Date.now under
// GOOS=js, so both sides read the same clock.

var (
	pollMu      sync.Mutex
	pollModules = map[string]js.Value{} // compiled poll modules by parameter list
)

// pollModule returns the compiled poll module for an import with params.
func pollModule(params []wasmhost.ValueType) (js.Value, error) {
	key := string(valueTypeBytes(params))
	pollMu.Lock()
	defer pollMu.Unlock()
	if m, ok := pollModules[key]; ok {
		return m, nil
	}
	var m js.Value
	if err := catch(func() { m = webAssembly.Get("Module").New(bytesToJS(pollModuleBytes(params))) }); err != nil {
		return js.Undefined(), err
	}
	pollModules[key] = m
	return m, nil
}

func valueTypeBytes(v []wasmhost.ValueType) []byte {
	b := make([]byte, len(v))
	for i, t := range v {
		b[i] = byte(t)
	}
	return b
}

func pollModuleBytes(params []wasmhost.ValueType) []byte {
	section := func(id byte, payload ...byte) []byte {
		return append([]byte{id, byte(len(payload))}, payload...) // every payload is < 128 bytes
	}
	name := func(s string) []byte { return append([]byte{byte(len(s))}, s...) }
	cat := func(parts ...[]byte) []byte {
		var out []byte
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	const (
		typeFunc             = 0x60
		kindFunc, kindGlobal = 0x00, 0x03
		mut                  = 0x01
		opCall, opGlobalGet  = 0x10, 0x23
		opI32Const           = 0x41
		opF64Const           = 0x44
		opF64Gt              = 0x64
		opI32And, opI32Or    = 0x71, 0x72
		opEnd                = 0x0b
	)
	i32, f64 := byte(wasmhost.I32), byte(wasmhost.F64)
	f64Zero := []byte{opF64Const, 0, 0, 0, 0, 0, 0, 0, 0}
	body := cat(
		[]byte{0}, // no locals
		[]byte{opGlobalGet, 1},
		[]byte{opGlobalGet, 0}, f64Zero, []byte{opF64Gt},
		[]byte{opCall, 0, opGlobalGet, 0, opF64Gt},
		[]byte{opI32And, opI32Or, opEnd})
	return cat(
		[]byte{0, 'a', 's', 'm', 1, 0, 0, 0},
		section(1, cat( // types: 0 = () -> f64, 1 = (params) -> i32
			[]byte{2, typeFunc, 0, 1, f64, typeFunc, byte(len(params))},
			valueTypeBytes(params),
			[]byte{1, i32})...),
		section(2, cat([]byte{1}, name("e"), name("now"), []byte{kindFunc, 0})...),
		section(3, 1, 1), // one function, of type 1
		section(6, cat( // globals: 0 = deadline, 1 = stopped
			[]byte{2, f64, mut}, f64Zero, []byte{opEnd},
			[]byte{i32, mut, opI32Const, 0, opEnd})...),
		section(7, cat( // exports
			[]byte{3},
			name("poll"), []byte{kindFunc, 1},
			name("deadline"), []byte{kindGlobal, 0},
			name("stopped"), []byte{kindGlobal, 1})...),
		section(10, cat([]byte{1, byte(len(body))}, body)...), // code
	)
}

// pollFunc returns a WebAssembly function answering hf.Poll, or ok false
// when the import's type does not fit (its result is not one i32) or the
// engine refuses the module; the import then calls Go as usual.
func (inst *instance) pollFunc(hf wasmhost.HostFunc) (fn js.Value, ok bool) {
	if len(hf.Type.Results) != 1 || hf.Type.Results[0] != wasmhost.I32 || len(hf.Type.Params) > 100 {
		return js.Undefined(), false
	}
	mod, err := pollModule(hf.Type.Params)
	if err != nil {
		return js.Undefined(), false
	}
	var exports js.Value
	if catch(func() {
		env := objectCtor.New()
		env.Set("now", global.Get("Date").Get("now"))
		imports := objectCtor.New()
		imports.Set("e", env)
		exports = webAssembly.Get("Instance").New(mod, imports).Get("exports")
	}) != nil {
		return js.Undefined(), false
	}
	deadline, stopped := exports.Get("deadline"), exports.Get("stopped")
	hf.Poll.Watch(func(deadlineMs float64, stop bool) {
		if inst.closed {
			return
		}
		s := 0
		if stop {
			s = 1
		}
		deadline.Set("value", deadlineMs)
		stopped.Set("value", s)
	})
	return exports.Get("poll"), true
}
