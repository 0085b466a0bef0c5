//go:build js && wasm

package jsbridge

import (
	"sync"
	"syscall/js"

	"github.com/interopio/code-mode/internal/wasmbin"
	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// An interrupt poll (wasmhost.HostFunc.Poll) is answered without calling Go,
// which costs a syscall/js callback (about 6 µs) per poll. The import is the
// export of a tiny WebAssembly module, encoded here with wasmbin:
//
//	(module
//	  (import "e" "now" (func $now (param f64) (result f64))) ;; Date.now itself
//	  (global $deadline (export "deadline") (mut f64) (f64.const 0))
//	  (global $stopped (export "stopped") (mut i32) (i32.const 0))
//	  (global $hard (export "hard") (mut f64) (f64.const 0))
//	  (global $owner (export "owner") (mut f64) (f64.const 0))
//	  (func (export "poll") (param ...) (result i32)     ;; the import's params
//	    (if (result i32) (i32.eqz (local.get 0))         ;; a loop check (i32 first param only)
//	      (then (i32.and (f64.gt (call $now (global.get $owner)) (global.get $hard))
//	                     (f64.gt (global.get $hard) (f64.const 0))))
//	      (else (i32.or (global.get $stopped)
//	        (i32.and (f64.gt (global.get $deadline) (f64.const 0))
//	                 (f64.gt (call $now (global.get $owner) ;; as it was: then, compiling (< 0), the run's from now on
//	                           (if (f64.lt (global.get $owner) (f64.const 0))
//	                             (then (global.set $owner (f64.neg (global.get $owner))))))
//	                         (global.get $deadline))))))))
//
// $now gets the run the poll is for (wasmhost.PollState.Owner): Date.now
// ignores it, and the worker's Date.now names it in its signs of life, so
// that its page, which cannot stop a run that holds the worker's thread
// without replacing the worker when it has no SharedArrayBuffer, can tell
// whether the run it aborted is that one (worker.mjs pollNow).
// A loop check (wasmhost.HostFunc.Poll) calls $now before it reads $hard:
// the worker's Date.now reads the page's abort flags first, and an abort
// brings the hard limit forward (through Go, which Poll.Watch runs).
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
	key := string(wasmbin.AppendFuncType(nil, wasmhost.FuncType{Params: params}))
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

func pollModuleBytes(params []wasmhost.ValueType) []byte {
	f64, i32 := wasmhost.F64, wasmhost.I32
	m := wasmbin.Module{
		Types: []wasmbin.FuncType{
			{Params: []wasmhost.ValueType{f64}, Results: []wasmhost.ValueType{f64}}, // 0: now
			{Params: params, Results: []wasmhost.ValueType{i32}},                    // 1: poll
		},
		Imports: []wasmbin.Import{{Module: "e", Name: "now", Kind: wasmbin.KindFunc, TypeIndex: 0}},
		Funcs:   []wasmbin.Func{{TypeIndex: 1, Body: pollBody(params)}},
		Globals: []wasmbin.Global{
			{Type: f64, Mut: true, Init: wasmbin.F64Const(0)}, // 0: deadline
			{Type: i32, Mut: true, Init: wasmbin.I32Const(0)}, // 1: stopped
			{Type: f64, Mut: true, Init: wasmbin.F64Const(0)}, // 2: hard
			{Type: f64, Mut: true, Init: wasmbin.F64Const(0)}, // 3: owner
		},
		Exports: []wasmbin.Export{
			{Name: "poll", Kind: wasmbin.KindFunc, Index: 1},
			{Name: "deadline", Kind: wasmbin.KindGlobal, Index: 0},
			{Name: "stopped", Kind: wasmbin.KindGlobal, Index: 1},
			{Name: "hard", Kind: wasmbin.KindGlobal, Index: 2},
			{Name: "owner", Kind: wasmbin.KindGlobal, Index: 3},
		},
	}
	return m.Encode()
}

// ownerFlip makes a compiling owner (negative) the run's, at the
// interpreter's first poll (wasmhost.Poll.Interpreted): if $owner < 0,
// $owner = -$owner. That poll, the program's first step, names the owner
// as it was: a sign naming the run would tell a worker's page that the run
// computes, and the page stopping it would replace the worker at once.
var ownerFlip = []byte{wasmbin.OpGlobalGet, 3, wasmbin.OpF64Const, 0, 0, 0, 0, 0, 0, 0, 0, wasmbin.OpF64Lt, wasmbin.OpIf, wasmbin.BlockEmpty,
	wasmbin.OpGlobalGet, 3, wasmbin.OpF64Neg, wasmbin.OpGlobalSet, 3, wasmbin.OpEnd}

func pollBody(params []wasmhost.ValueType) []byte {
	gt, and := []byte{wasmbin.OpF64Gt}, []byte{wasmbin.OpI32And}
	now := wasmbin.Expr(wasmbin.GlobalGet(3), wasmbin.Call(0))
	poll := wasmbin.Expr(
		wasmbin.GlobalGet(1),
		wasmbin.GlobalGet(0), wasmbin.F64Const(0), gt,
		wasmbin.GlobalGet(3), ownerFlip, wasmbin.Call(0), wasmbin.GlobalGet(0), gt,
		and, []byte{wasmbin.OpI32Or})
	if len(params) == 0 || params[0] != wasmhost.I32 {
		return poll
	}
	loopCheck := wasmbin.Expr(
		now, wasmbin.GlobalGet(2), gt,
		wasmbin.GlobalGet(2), wasmbin.F64Const(0), gt,
		and)
	return wasmbin.Expr(wasmbin.LocalGet(0), []byte{wasmbin.OpI32Eqz, wasmbin.OpIf, byte(wasmhost.I32)},
		loopCheck, []byte{wasmbin.OpElse}, poll, []byte{wasmbin.OpEnd})
}

// Beat calls the clock the interrupt polls call (the program's global's
// Date.now), naming owner as a poll does (0: none, the core's own work): a
// worker's clock passes it on to its page as a sign of life (web/src/
// worker.mjs pollNow). Long work that polls nothing calls it now and then
// (tsstrip.Beat, in the core's prepareCode; sandbox.Beat, a tool's input
// check). A clock that throws is not the work's failure.
func Beat(owner float64) { catch(func() { global.Get("Date").Call("now", owner) }) }

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
	deadline, stopped, hard, owner := exports.Get("deadline"), exports.Get("stopped"), exports.Get("hard"), exports.Get("owner")
	// Each global's last value: a Set is a crossing, and a run changes
	// few of them at a time.
	lastDeadline, lastStopped, lastHard, lastOwner := -1.0, -1, -1.0, -1.0
	hf.Poll.Watch(func(ps wasmhost.PollState) {
		if inst.closed {
			return
		}
		s := 0
		if ps.Stopped {
			s = 1
		}
		if ps.DeadlineMs != lastDeadline {
			deadline.Set("value", ps.DeadlineMs)
			lastDeadline = ps.DeadlineMs
		}
		if s != lastStopped {
			stopped.Set("value", s)
			lastStopped = s
		}
		if ps.HardMs != lastHard {
			hard.Set("value", ps.HardMs)
			lastHard = ps.HardMs
		}
		if ps.Owner != lastOwner {
			owner.Set("value", ps.Owner)
			lastOwner = ps.Owner
		}
	})
	return exports.Get("poll"), true
}
