package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/interopio/code-mode/internal/tsstrip"
	"github.com/interopio/code-mode/sandbox/internal/ffi"
)

// instance is one leased WebAssembly instance; it forwards QuickJS's
// callbacks to the run that holds it.
type instance struct {
	q   *ffi.Instance
	run *run
	// hitLimit says the last run ended at the memory limit.
	hitLimit bool
}

func (i *instance) CallFunction(_ ffi.Context, _ ffi.ValueConst, argc, argv, refID uint32) ffi.Value {
	r := i.run
	if exc := r.loadHelpers(); exc != 0 {
		thrown := r.q.Throw(r.ctx, exc.Const())
		r.q.FreeValue(r.ctx, exc)
		return thrown
	}
	return r.callFunction(argc, argv, refID)
}

func (i *instance) ShouldInterrupt(ffi.Runtime) bool { return i.run != nil && i.run.shouldInterrupt() }

func (i *instance) FreeHostRef(ffi.Runtime, uint32) {}

// Why a run was interrupted.
const (
	notInterrupted int32 = iota
	interruptTimeout
	interruptCancel
	interruptFatal
)

// The file name QuickJS reports for the model's code.
const codeFile = "code.js"

// run is the state of one execution on a leased instance.
type run struct {
	q        *ffi.Instance
	rt       ffi.Runtime
	ctx      ffi.Context
	funcs    []Func
	names    []string
	deadline time.Time
	hard     time.Time // when the loop checks stop the engine; see loopCheckGrace
	timeout  time.Duration
	reason   atomic.Int32
	fatal    *Fatal

	goCtx    context.Context
	cancel   context.CancelCauseFunc
	workers  *workers // the engine's, for async host functions
	nextID   uint32
	pending  map[uint32]*hostCall
	rejected []rejection

	// results holds the answers of host calls that ended, in order, until
	// wait settles them; wake has a token when it may hold any. A
	// delivery never blocks: Func.Start's done may be called on a
	// goroutine that must not (a page's answer).
	resultsMu sync.Mutex
	results   []hostResult
	wake      chan struct{}

	// JS helpers from the engine prelude (owned values). Only stringify is
	// taken out of the prelude's array (helpers) at setup; loadHelpers takes
	// the others when a host call or a conversion first needs them: a run
	// that needs none spends no crossings on them.
	stringify, parse, track, report ffi.Value
	// nativeParse is the context's own JSON.parse, taken before the
	// prelude ran, for the host results parseOK lets it read
	// (Program.NativeParse).
	nativeParse     ffi.Value
	parseOK         func(json.RawMessage) bool
	helpers         ffi.Value
	tracked, loaded bool
	depth           int // host calls in progress on the stack, see callFunction
	// native says stringify is the context's own JSON.stringify (a run
	// without host functions or prelude compiles no helpers).
	native bool
	// lateStringify says stringify was taken after the program ran (a run
	// without host functions or prelude whose result needed the engine's):
	// what it writes is checked to be JSON.
	lateStringify bool
	// detect is detectJS's stringify once made (owned).
	detect ffi.Value
	// notes are the conversions of host-call arguments, for Warnings.
	notes []string
	// converting says the result is being converted (a trap there is the
	// result's doing).
	converting bool
	// finished says the program returned or threw: what runs now (getters
	// of its result or of its error) starts no async host call.
	finished bool
	// eval is the context's own eval, taken before the program ran (owned):
	// the converter is compiled with it, inside host calls too.
	eval ffi.Value
	// deadlineTimer fires at the deadline, for wait (made on its first use).
	deadlineTimer *time.Timer
}

// enginePrelude gives, as its first element, the engine's stringify for a
// run without host functions or prelude whose result needs more than the
// native JSON.stringify (engineStringify): helpersJS over captureBody's
// captures, taken after the program ran. Its stringify writes BigInt as a
// decimal string; values JSON cannot hold are found and converted by
// helpers compiled on demand (convert.go).
const enginePrelude = "(" + helpersJS + ")((() => {\n" + captureBody + "})())"

// captureBody is the engine's part of the setup script in runs with host
// functions or a prelude: it only captures, before the program runs, what
// the helpers will need (the program may replace any of it), and defines
// no function: compiling functions is what a run's setup pays for.
// helpersJS builds the helpers from the captures when a host call or a
// conversion first needs them (loadHelpers): out, the stringify (out(_, 1)
// hands the intrinsics detectJS needs, convert.go; a symbol gives 0, to
// convert), and track, for runs with async host functions. track gives
// each host-call promise an own "constructor" getter: await, then, catch,
// Promise.all/race/allSettled and returning the promise all read it, so it
// tells which promises somebody observed, and a rejection nobody observed
// is reported instead of lost (Go reads the marks, the captured array at
// index 8, only then). The promise stays native, so awaiting it stays on
// the fast path. helpersJS reads no global: it runs after the program has
// started.
const captureBody = "return [JSON.stringify, JSON.parse, eval, Object.getPrototypeOf, Object.prototype, Array.isArray, Promise, Object.defineProperty, []];\n"

const helpersJS = `(c) => {
const S = c[0], rep = (k, v) => typeof v === "bigint" ? v.toString() : v;
const I = [S, c[3], c[4], c[5], c[2]];
const out = (v, w) => w === 1 ? I : typeof v === "symbol" ? 0 : S(v, rep);
const P = c[6], def = c[7], seen = c[8];
const track = (p, id) => {
  def(p, "constructor", { get() { seen[id] = 1; return P; }, configurable: true });
  return p;
};
return [out, track];
}`

func (i *instance) execute(goCtx context.Context, p Program, limit int64, w *workers) (res *Result, err error) {
	q := i.q
	r := &run{q: q, workers: w, pending: map[uint32]*hostCall{}, wake: make(chan struct{}, 1)}
	r.timeout = p.Timeout
	if r.timeout <= 0 {
		r.timeout = DefaultTimeout
	}
	r.deadline = time.Now().Add(r.timeout)
	r.hard = r.deadline.Add(loopCheckGrace)
	r.goCtx, r.cancel = context.WithCancelCause(goCtx)
	r.goCtx = context.WithValue(r.goCtx, deadlineKey{}, r.deadline)
	defer r.cancel(ErrRunEnded)
	stop := context.AfterFunc(goCtx, func() { r.interrupt(interruptCancel) })
	defer stop()
	i.run = r
	// Not reset when the run ends: teardown leaves the poll stopped, and
	// the instance runs nothing until the next run sets it again.
	q.Poll.Set(r.deadline, false, r.hard)

	defer func() {
		rec := recover()
		if rec == nil {
			return
		}
		trap, ok := rec.(*ffi.Trap)
		if !ok {
			panic(rec)
		}
		q.Close()
		r.cancel(r.endCause())
		if r.reason.Load() == interruptCancel {
			res, err = nil, context.Cause(goCtx)
			return
		}
		res, err = &Result{Error: r.trapError(trap)}, nil
	}()

	r.rt = q.NewRuntime()
	q.SetMemoryLimit(r.rt, uint32(limit))
	q.SetMaxStackSize(r.rt, maxStackSize)
	q.EnableInterruptHandler(r.rt)
	r.ctx = q.NewContext(r.rt)
	if err := r.setup(p); err != nil {
		// The prelude is interrupted too when the run is stopped or times
		// out before the program even started.
		stopped := r.stopped()
		r.teardown()
		if r.reason.Load() == interruptCancel {
			return nil, context.Cause(goCtx)
		}
		if stopped != nil {
			return stopped, nil
		}
		return nil, err
	}
	res = r.main(p.Code, p.Body)
	if (r.nextID > 0 || len(r.notes) > 0) && (res.Error == nil || res.Error.Code != CodeTimeout) {
		res.Warnings = append(res.Warnings, r.warnings()...)
	}
	r.teardown()
	// An instance whose heap could not grow is not reused, even when the
	// program survived it (the failure was in a job nobody observed): its
	// next run would be misread as out of memory.
	i.hitLimit = q.HeapGrowFailed || res.Error != nil && res.Error.Code == CodeMemoryLimit
	if r.reason.Load() == interruptCancel {
		return nil, context.Cause(goCtx)
	}
	return res, nil
}

// setup installs the host functions, then evaluates the caller's prelude
// and the engine's in one script (one compile): the caller's first, and the
// engine's last, handing its helpers to Go. With Program.Hidden the script
// is a function, called with the host functions, which then never become
// globals.
func (r *run) setup(p Program) error {
	q, ctx := r.q, r.ctx
	body := captureBody
	var fns []ffi.Value
	if len(p.Funcs) > 0 {
		names := make([]string, 0, len(p.Funcs))
		for n, f := range p.Funcs {
			set := 0
			for _, given := range []bool{f.Async != nil, f.Sync != nil, f.Bytes != nil} {
				if given {
					set++
				}
			}
			if set != 1 {
				return fmt.Errorf("sandbox: Funcs[%q]: exactly one of Async, Sync and Bytes must be set, got %d", n, set)
			}
			if f.Async != nil {
				r.tracked = true
			}
			names = append(names, n)
		}
		sort.Strings(names)
		fns = make([]ffi.Value, len(names))
		for id, n := range names {
			r.funcs, r.names = append(r.funcs, p.Funcs[n]), append(r.names, n)
			fns[id] = q.NewFunction(ctx, n, uint32(id+1))
		}
		defer func() {
			for _, fn := range fns {
				q.FreeValue(ctx, fn)
			}
		}()
	}
	if p.Hidden && p.Prelude == "" {
		return errors.New("sandbox: Program.Hidden needs a Prelude (a function expression that takes the Funcs)")
	}
	if !p.Hidden && len(fns) > 0 {
		global := q.Global(ctx)
		for i, fn := range fns {
			q.SetProp(ctx, global.Const(), r.names[i], fn.Const())
		}
		q.FreeValue(ctx, global)
	}
	if len(p.Funcs) == 0 && p.Prelude == "" {
		// Nothing to compile: a plain program needs only JSON.stringify for
		// its result (BigInt support is compiled if the result needs it).
		global := q.Global(ctx)
		j := q.GetProp(ctx, global.Const(), "JSON")
		r.stringify = q.GetProp(ctx, j.Const(), "stringify")
		q.FreeValue(ctx, j)
		q.FreeValue(ctx, global)
		r.native = true
		return nil
	}
	var script string
	switch {
	case p.Hidden && p.NativeParse != nil:
		// As below, and the context's own JSON.parse, taken before the
		// prelude can replace it, after the captures (index 9).
		r.parseOK = p.NativeParse
		script = "((prelude) => (...host) => {\nconst parse = JSON.parse;\nprelude(...host);\nconst c = (() => {\n" + body + "})();\nc[9] = parse;\nreturn c;\n})(" + p.Prelude + "\n)"
	case p.Hidden:
		// The prelude is applied while the script is evaluated; the
		// function the script gives is the setup, called below.
		script = "((prelude) => (...host) => {\nprelude(...host);\n" + body + "})(" + p.Prelude + "\n)"
	case p.Prelude != "":
		script = p.Prelude + "\n;(() => {\n" + body + "})()"
	default:
		script = "(() => {\n" + body + "})()"
	}
	helpers, exc := q.Eval(ctx, script, "<prelude>", ffi.EvalGlobal)
	if exc == 0 && p.Hidden {
		setup := helpers
		args := make([]ffi.ValueConst, len(fns))
		for i, fn := range fns {
			args[i] = fn.Const()
		}
		helpers, exc = q.Call(ctx, setup.Const(), q.Undefined.Const(), args...)
		q.FreeValue(ctx, setup)
	}
	if exc != 0 {
		e := r.toError(exc.Const())
		q.FreeValue(ctx, exc)
		return fmt.Errorf("sandbox: prelude failed: %s: %s", e.Name, e.Message)
	}
	r.helpers = helpers
	return nil
}

// loadHelpers builds the engine's helpers from the setup's captures, once
// (see captureBody): a run that makes no host call and converts nothing
// compiles none of them. It returns the owned exception when building
// failed (out of memory, interrupted); the next need tries again.
func (r *run) loadHelpers() (exc ffi.Value) {
	if r.loaded || r.helpers == 0 {
		return 0
	}
	q, ctx, h := r.q, r.ctx, r.helpers.Const()
	if r.parse == 0 {
		r.parse = q.GetIndex(ctx, h, 1)
		if r.parseOK != nil {
			r.nativeParse = q.GetIndex(ctx, h, 9)
		}
		if len(r.funcs) > 0 {
			r.eval = q.GetIndex(ctx, h, 2)
		}
	}
	factory, exc := r.compileWith(helpersJS, "<helpers>")
	if exc != 0 {
		return exc
	}
	built, exc := q.Call(ctx, factory.Const(), q.Undefined.Const(), h)
	q.FreeValue(ctx, factory)
	if exc != 0 {
		return exc
	}
	r.stringify = q.GetIndex(ctx, built.Const(), 0)
	if r.tracked {
		r.track, r.report = q.GetIndex(ctx, built.Const(), 1), q.GetIndex(ctx, h, 8)
	}
	q.FreeValue(ctx, built)
	r.loaded = true
	return 0
}

// Code without a top-level return is evaluated as a script, so its
// completion value (`x + 1` on the last line) is the result. Code with one
// is compiled as the body of an async function. The prefix stays on the
// code's first line, so only first-line columns shift; the suffix starts a
// line of its own, so a trailing line comment cannot swallow it. The
// function is called by the host (callBody), not by the script: a call in
// the script put a frame one line past the code at the end of every stack
// the program saw (e.stack's "at <eval> (code.js:4:3)" for 3 lines).
const (
	wrapPrefix = "(async () => {"
	wrapSuffix = "\n})"
)

// callBody compiles code as the body of an async function and calls it,
// giving its promise (or the exception of either step).
func (r *run) callBody(code string) (promise, exc ffi.Value) {
	q, ctx := r.q, r.ctx
	fn, exc := q.Eval(ctx, wrapPrefix+code+wrapSuffix, codeFile, ffi.EvalGlobal)
	if exc != 0 {
		return 0, exc
	}
	defer q.FreeValue(ctx, fn)
	return q.Call(ctx, fn.Const(), q.Undefined.Const())
}

// main evaluates the code (a function body when body is set) and drives
// it to completion.
func (r *run) main(code string, body bool) *Result {
	q, ctx := r.q, r.ctx
	wrapped := false
	var promise, exc ffi.Value
	if body {
		wrapped = true
		promise, exc = r.callBody(code)
	} else {
		promise, exc = q.Eval(ctx, code, codeFile, ffi.EvalAsync)
	}
	if !body && exc != 0 && strings.Contains(code, "return") && r.isTopLevelReturn(exc.Const()) {
		q.FreeValue(ctx, exc)
		// A closing bracket the code did not open would close the wrapper
		// and run the rest outside it (`return 1\n}); (async () => {`).
		if e := tsstrip.CheckBody(code); e != nil {
			return &Result{Error: &Error{Code: CodeSyntax, Name: "SyntaxError", Message: e.Message, Line: e.Line, Column: e.Column,
				Stack: fmt.Sprintf("    at %s:%d:%d", codeFile, e.Line, e.Column)}}
		}
		wrapped = true
		promise, exc = r.callBody(code)
	}
	if exc != 0 {
		return r.fail(exc, code, wrapped, true)
	}
	defer func() { q.FreeValue(ctx, promise) }()
	// A script's promise fulfils with its completion value as {value}.
	script := !wrapped
	for {
		if !q.IsJobPending(r.rt) {
			// nothing to run: skip the drain's crossings
		} else if exc, _ := q.ExecutePendingJobs(r.rt, -1); exc != 0 {
			return r.fail(exc, code, wrapped, false)
		}
		// A job may have been interrupted (timeout, cancel) or a host
		// function may have ended the run while the program went on.
		if res := r.stopped(); res != nil {
			return res
		}
		switch q.PromiseState(ctx, promise.Const()) {
		case ffi.PromiseFulfilled:
			v := q.PromiseResult(ctx, promise.Const())
			if script {
				inner := q.GetProp(ctx, v.Const(), "value")
				q.FreeValue(ctx, v)
				v = inner
				if q.PromiseState(ctx, v.Const()) >= 0 {
					// The last expression statement is a promise the code
					// did not await (`main();`, `tools.x.y({...})`): it is
					// awaited as `return` would, so this loop goes on
					// with the promise it resolves.
					promise = r.awaitLast(promise, v)
					script = false
					continue
				}
			}
			defer q.FreeValue(ctx, v)
			return r.result(v.Const())
		case ffi.PromiseRejected:
			return r.fail(q.PromiseResult(ctx, promise.Const()), code, wrapped, false)
		case ffi.PromisePending:
		default:
			return &Result{Error: &Error{Code: CodeRuntime, Name: "InternalError", Message: "evaluation did not produce a promise"}}
		}
		if res := r.wait(); res != nil {
			return res
		}
	}
}

// awaitLast frees the settled evaluation promise and the completion value
// v (a Promise), and returns a new promise resolved with v, so that its
// state follows v's exactly as an async function's `return v` does: the
// resolution calls v.then in a job, which marks a host call's promise as
// observed (its rejection is the run's error, not also an unhandled one).
func (r *run) awaitLast(done, v ffi.Value) ffi.Value {
	q, ctx := r.q, r.ctx
	q.FreeValue(ctx, done)
	p, resolve, reject := q.NewPromise(ctx)
	out, exc := q.Call(ctx, resolve.Const(), q.Undefined.Const(), v.Const())
	q.FreeValue(ctx, out)
	q.FreeValue(ctx, exc)
	for _, h := range []ffi.Value{resolve, reject, v} {
		q.FreeValue(ctx, h)
	}
	return p
}

// wait blocks until a host call completes (and settles its promise), the
// deadline passes, or the run is cancelled.
func (r *run) wait() *Result {
	if len(r.pending) == 0 {
		// A job QuickJS could not allocate for want of memory is lost, and
		// the promise waiting on it never settles.
		if r.q.HeapGrowFailed {
			return &Result{Error: &Error{Code: CodeMemoryLimit, Name: "InternalError", Message: "out of memory"}}
		}
		return &Result{Error: &Error{Code: CodeRuntime, Name: "Error",
			Message: "the program awaits a promise that can never settle (no host call is pending)"}}
	}
	// One timer serves every wait of the run (its deadline is fixed): a
	// timer per awaited host call cost a timer of the host's event loop
	// each time.
	if r.deadlineTimer == nil {
		r.deadlineTimer = time.NewTimer(time.Until(r.deadline))
	}
	select {
	case <-r.wake:
		// Settle whatever is ready, so one drain serves them all.
		r.resultsMu.Lock()
		ready := r.results
		r.results = nil
		r.resultsMu.Unlock()
		for _, hr := range ready {
			r.settle(hr)
		}
		if r.fatal != nil {
			return r.fatalResult()
		}
		return nil
	case <-r.deadlineTimer.C:
		r.interrupt(interruptTimeout)
		return r.timeoutResult()
	case <-r.goCtx.Done():
		r.interrupt(interruptCancel)
		return cancelledResult()
	}
}

// stopped returns the result of a run that was interrupted, or nil.
func (r *run) stopped() *Result {
	switch r.why() {
	case interruptTimeout:
		return r.timeoutResult()
	case interruptCancel:
		return cancelledResult()
	case interruptFatal:
		if r.fatal != nil {
			return r.fatalResult()
		}
	}
	return nil
}

// fatalResult is the result of a run that a host function ended (r.fatal).
func (r *run) fatalResult() *Result {
	return &Result{Error: &Error{Code: r.fatal.Code, Name: "Error", Message: r.fatal.Message}}
}

func cancelledResult() *Result {
	return &Result{Error: &Error{Code: CodeRuntime, Name: "AbortError", Message: "the run was cancelled"}}
}

func (r *run) timeoutResult() *Result {
	return &Result{Error: &Error{Code: CodeTimeout, Name: "TimeoutError",
		Message: fmt.Sprintf("the program did not finish within %v", r.timeout)}}
}

// shouldInterrupt answers QuickJS's poll where the backend calls Go for it.
// (The JavaScript backend answers from ffi.Instance.Poll without calling
// Go; interrupt keeps both in step.)
func (r *run) shouldInterrupt() bool {
	if r.reason.Load() != notInterrupted {
		return true
	}
	if r.pastDeadline() {
		r.interrupt(interruptTimeout)
		return true
	}
	return false
}

// endCause is the cause the host calls' context gets when the run ends: the
// caller's own cause when the caller stopped it.
func (r *run) endCause() error {
	switch r.reason.Load() {
	case interruptTimeout:
		return ErrTimeout
	case interruptCancel:
		return context.Cause(r.goCtx)
	}
	return ErrRunEnded
}

// interrupt records why the run stops and makes the next poll stop it. A
// cancel brings the loop checks' hard limit forward, as a timeout would.
func (r *run) interrupt(reason int32) {
	if r.reason.CompareAndSwap(notInterrupted, reason) {
		hard := r.hard
		if soon := time.Now().Add(loopCheckGrace); reason == interruptCancel && soon.Before(hard) {
			hard = soon
		}
		r.q.Poll.Set(r.deadline, true, hard)
	}
}

// loopCheckGrace is how long past its deadline (or its cancel) a run may
// go on before the loop checks in the asset's C code stop it with a trap,
// which costs the instance. A program that runs JavaScript is stopped
// sooner, cleanly, by QuickJS's own poll (every 10k operations or so, tens
// of microseconds): the checks only stop one held in a C built-in that never
// polls, such as Array.prototype.indexOf.call({ length: 1e15 }, 1). The
// grace keeps them from racing the clean stop on a loaded machine.
const loopCheckGrace = 100 * time.Millisecond

// pastDeadline compares wall clocks, as the JavaScript backend's poll does
// (Date.now against the deadline's Unix milliseconds). time.After would use
// the monotonic readings (performance.now under GOOS=js), which drift from
// Date.now: a poll that stopped the run at its deadline could then be
// judged early, and the timeout reported as a RUNTIME "interrupted".
func (r *run) pastDeadline() bool { return past(r.deadline) }

func past(deadline time.Time) bool { return time.Now().Round(0).After(deadline.Round(0)) }

// deadlineKey keys a run's deadline in its host calls' context.
type deadlineKey struct{}

// PastDeadline says whether the run that made the host call of ctx is past
// its timeout, though the run may not have noticed it yet: its thread
// notices at its next interrupt poll or wait, which a loaded machine can
// hold off the CPU well past the deadline. A host function about to start
// something on the run's behalf (a tool, after an approval that took a
// while) checks it as well as ctx.Err(). False for a context of no run.
func PastDeadline(ctx context.Context) bool {
	d, ok := ctx.Value(deadlineKey{}).(time.Time)
	return ok && past(d)
}

// why returns the interrupt reason, noticing a deadline that passed while
// a backend answered the polls itself.
func (r *run) why() int32 {
	if r.reason.Load() == notInterrupted && r.pastDeadline() {
		r.interrupt(interruptTimeout)
	}
	return r.reason.Load()
}

// result converts the program's value to JSON (see convert.go).
func (r *run) result(v ffi.ValueConst) *Result {
	q, ctx := r.q, r.ctx
	r.converting, r.finished = true, true
	if r.native && q.IsObject(v) {
		// The native JSON.stringify cannot tell of what it drops or
		// changes (an object may hold a Map, BigInt throws): the engine's
		// own stringify can. An object is not written twice (its getters
		// would run twice).
		if exc := r.engineStringify(); exc != 0 {
			return r.notSerializable(exc)
		}
	}
	if r.native {
		s, exc := q.Call(ctx, r.stringify.Const(), q.Undefined.Const(), v)
		if exc == 0 {
			str, isStr := "", q.IsString(s.Const())
			if isStr {
				str = q.GetString(ctx, s.Const())
			}
			q.FreeValue(ctx, s)
			switch {
			case !isStr:
				return &Result{} // undefined (or a symbol): no value
			case str != "null" || !q.IsNumber(v):
				return &Result{Value: json.RawMessage(str)}
			}
			// NaN or ±Infinity, which JSON.stringify writes as null.
		} else {
			q.FreeValue(ctx, exc) // a BigInt
		}
		if exc := r.engineStringify(); exc != 0 {
			return r.notSerializable(exc)
		}
		return r.result(v)
	}
	if q.IsObject(v) {
		value, warnings, exc := r.toJSON(v, "result")
		if exc != 0 {
			return r.notSerializable(exc)
		}
		return &Result{Value: value, Warnings: warnings}
	}
	var s, exc ffi.Value
	if r.helpers != 0 && !r.loaded && q.IsPlainPrimitive(v) {
		// A number, string, boolean, null or undefined needs no helper:
		// the captured JSON.stringify writes it.
		stringify := q.GetIndex(ctx, r.helpers.Const(), 0)
		s, exc = q.Call(ctx, stringify.Const(), q.Undefined.Const(), v)
		q.FreeValue(ctx, stringify)
	} else if exc = r.loadHelpers(); exc == 0 {
		s, exc = q.Call(ctx, r.stringify.Const(), q.Undefined.Const(), v)
	}
	if exc != 0 {
		return r.notSerializable(exc)
	}
	defer q.FreeValue(ctx, s)
	if q.IsString(s.Const()) {
		str := q.GetString(ctx, s.Const())
		// Primitives JSON cannot hold: NaN and ±Infinity (written as
		// null) and BigInt (written as a string); they are converted and
		// reported below.
		// (The text is tested first: each Is* is a memory read, a
		// crossing under GOOS=js.)
		nonFinite := str == "null" && q.IsNumber(v)
		bigint := strings.HasPrefix(str, `"`) && !q.IsNumber(v) && !q.IsString(v)
		if !nonFinite && !bigint && (!r.lateStringify || json.Valid([]byte(str))) {
			return &Result{Value: json.RawMessage(str)}
		}
	} else if !q.IsNumber(s.Const()) {
		return &Result{} // undefined: no value
	}
	// A primitive has no getter: writing it again costs nothing the
	// program can see.
	value, warnings, exc := r.toJSON(v, "result")
	if exc != 0 {
		return r.notSerializable(exc)
	}
	return &Result{Value: value, Warnings: warnings}
}

// engineStringify replaces the native JSON.stringify of a run without host
// functions or prelude with the engine prelude's, which writes BigInt and
// hands detectJS its intrinsics (taken now, after the program ran).
func (r *run) engineStringify() (exc ffi.Value) {
	q, ctx := r.q, r.ctx
	helpers, exc := q.Eval(ctx, enginePrelude, "<prelude>", ffi.EvalGlobal)
	if exc != 0 {
		return exc
	}
	q.FreeValue(ctx, r.stringify)
	r.stringify, r.native, r.lateStringify = q.GetIndex(ctx, helpers.Const(), 0), false, true
	q.FreeValue(ctx, helpers)
	return 0
}

func (r *run) notSerializable(exc ffi.Value) *Result {
	q, ctx := r.q, r.ctx
	e := r.toError(exc.Const())
	q.FreeValue(ctx, exc)
	// An interrupt (the timeout) during conversion is the run's end, not a
	// value JSON cannot hold.
	if res := r.stopped(); res != nil {
		return res
	}
	code := CodeNotSerializable
	if c := r.limitCode(e); c != "" {
		code = c
	}
	return &Result{Error: &Error{Code: code, Name: e.Name,
		Message: "the result cannot be converted to JSON: " + e.Message}}
}

// teardown cancels the host calls still in flight, frees every value Go
// holds (the resolvers of pending promises included), and frees the context
// and runtime; queued jobs are dropped unrun. QuickJS asserts if anything
// leaked; the trap then discards the instance.
func (r *run) teardown() {
	q, ctx := r.q, r.ctx
	if r.deadlineTimer != nil {
		r.deadlineTimer.Stop()
	}
	r.cancel(r.endCause())
	// The interrupt ends what is left of the program; the loop checks are
	// disarmed, so that freeing a large heap below is never cut short.
	r.reason.CompareAndSwap(notInterrupted, interruptFatal)
	q.Poll.Set(r.deadline, true, time.Time{})
	for id, c := range r.pending {
		q.FreeValue(ctx, c.resolve)
		q.FreeValue(ctx, c.reject)
		delete(r.pending, id)
	}
	// Jobs still queued are dropped, not run: JS_FreeRuntime frees the job
	// list, and running them under the interrupt would resume suspended
	// async functions with an uncatchable error, which leaks their frames.
	for _, h := range []ffi.Value{r.stringify, r.parse, r.nativeParse, r.track, r.report, r.detect, r.eval, r.helpers} {
		q.FreeValue(ctx, h)
	}
	for _, rj := range r.rejected {
		q.FreeValue(ctx, rj.err)
	}
	q.FreeContext(ctx)
	q.FreeRuntime(r.rt)
}
