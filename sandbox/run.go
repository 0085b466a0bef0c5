package sandbox

// A run's life cycle on its leased instance: execute sets it up, main drives
// the program's promise and the host calls' answers (wait) to a result, and
// teardown frees all of it. The setup and the engine's JavaScript helpers are
// in setup.go; the timeout, the cancel and traps in interrupt.go; the
// result's conversion to JSON in result.go; host calls in hostcall.go.

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/interopio/code-mode/internal/leakcheck"
	"github.com/interopio/code-mode/internal/tsstrip"
	"github.com/interopio/code-mode/sandbox/internal/ffi"
)

// instance is one leased WebAssembly instance; it forwards QuickJS's
// callbacks to the run that holds it.
type instance struct {
	q   *ffi.Instance
	run *run
	// waiting and slots are its engine's: the runs waiting for an
	// instance, and how many instances there may be (timeoutResult).
	waiting func() int32
	slots   int
	// hitLimit says the last run ended at the memory limit.
	hitLimit bool
	// img is the instance's state with a fresh runtime and context,
	// taken before its first run's clock or by Engine.Prepare
	// (precompile): each run ends by writing it back, and the next
	// starts from it (ffi.Image). Nil when the asset cannot have
	// images: each run then makes and frees its own.
	img *ffi.Image
	// blank is the instance as it was made, before any runtime (an image
	// without one): a run without img ends by writing it back once it
	// freed its runtime, so that the bytes of what it freed are not taken
	// into the image the next run takes, nor left to later runs. Dropped
	// once img is taken.
	blank *ffi.Image
	// noImage: see Engine.noImages.
	noImage bool
	// compiled holds the image's precompiledSources and Program.Sources
	// (values in it), by source.
	compiled map[string]ffi.Value
}

func (i *instance) CallFunction(_ ffi.Context, _ ffi.ValueConst, argc, argv, refID uint32) ffi.Value {
	r := i.run
	if exc := r.loadHelpers(); exc != 0 {
		return r.rethrow(exc)
	}
	return r.callFunction(argc, argv, refID)
}

func (i *instance) ShouldInterrupt(ffi.Runtime) bool { return i.run != nil && i.run.shouldInterrupt() }

func (i *instance) FreeHostRef(ffi.Runtime, uint32) {}

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
	// waiting and slots: see instance (waiting: Program.Waiting, when
	// set). waitedAtTimeout is how many runs waited for an instance when
	// the run's timeout ended it.
	waiting         func() int32
	slots           int
	waitedAtTimeout atomic.Int32

	goCtx   context.Context
	cancel  context.CancelCauseFunc
	workers *workers // the engine's, for async host functions
	nextID  uint32
	pending map[uint32]*hostCall
	// rejected are the rejected calls nobody had observed yet (past
	// maxUnobservedRejections, moreRejected has their ids), recentRejected
	// the last Errors host calls were rejected with (noteRejection).
	rejected       []rejection
	moreRejected   []uint32
	recentRejected []rejection

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
	// takingIn is the host call whose answer, of takingInSize bytes, wait
	// is settling: a trap that stops the run there (the loop checks' hard
	// limit, QuickJS's parse of 100 MB never polling) names it
	// (trapError), as a timeout wait noticed would.
	takingIn     *hostCall
	takingInSize int
	// startLate: the deadline passed while a host function's Start ran
	// (a check of the call's input, inside the program's call): the time
	// went there, and the TIMEOUT says Awaiting, as if awaited.
	startLate bool
	// img, when the instance has one, is written back at teardown instead
	// of freeing the runtime and context (instance.img).
	img *ffi.Image
	// compiled holds the image's precompiledSources (values in it).
	compiled map[string]ffi.Value
	// blank, without img, is written back after the runtime is freed
	// (instance.blank).
	blank *ffi.Image
	// code is the program, for a leak's report (leakcheck).
	code string
	// owner names the run to its polls (WithPollOwner) from its program's
	// first line: the compile of a function body before it, bounded work
	// that ends by itself (a ~900 KB program's, a second on a loaded
	// machine), names none; a script's names it as compiling (main). A
	// worker's page without SharedArrayBuffer replaced the worker at a
	// sign naming a run it aborted there, failing the worker's other runs.
	owner float64
	// id names the run's holds of the thread; holdFrom is when its
	// current one began (holds.go).
	id       uint64
	holdFrom int64
}

// startClock gives the run its whole timeout from now. The poll is not
// reset when the run ends: teardown leaves it stopped, and the instance
// runs nothing until the next run sets it again.
func (r *run) startClock() {
	r.deadline = time.Now().Add(r.timeout)
	r.hard = r.deadline.Add(loopCheckGrace)
	r.q.Poll.Set(r.deadline, false, r.hard)
}

// execute runs p on the instance: a fresh QuickJS runtime and context, the
// setup (host functions, preludes: setup.go), the program driven to its
// result (main), then teardown, which frees everything the run made so the
// instance can serve the next run. A trap anywhere in it ends the run and
// the instance (endOnTrap).
func (i *instance) execute(goCtx context.Context, p Program, limit int64, w *workers) (res *Result, err error) {
	q := i.q
	r := &run{q: q, workers: w, pending: map[uint32]*hostCall{}, wake: make(chan struct{}, 1), code: p.Code, waiting: i.waiting, slots: i.slots, blank: i.blank}
	if p.Waiting != nil {
		r.waiting = p.Waiting
	}
	r.timeout = p.Timeout
	if r.timeout <= 0 {
		r.timeout = DefaultTimeout
	}
	r.goCtx, r.cancel = context.WithCancelCause(goCtx)
	defer r.cancel(ErrRunEnded)
	i.run = r
	r.beginHold()
	defer r.endHold()
	// The instance's one-time work (its runtime and context on the old
	// path, the compile of the sandbox's own sources and p.Sources into
	// its image before its first run: precompile) is the library's, not the
	// program's: it runs on a clock of its own, as long as the run's, and
	// the run's starts after it. The run that does it no longer spends a
	// short timeout on it (on a loaded machine, all of it). A cancel that
	// comes meanwhile is acted on once it is done.
	// Its polls, and the setup's, name no run (WithPollOwner): they end by
	// themselves. A worker's page without SharedArrayBuffer replaces the
	// worker when the run it aborted is the one polling, which is right
	// for a program computing, but a run aborted as it started failed the
	// other runs of the worker over this work.
	q.Poll.SetOwner(0)
	r.startClock()

	defer i.endOnTrap(goCtx, r, &res, &err)

	if i.img != nil {
		r.rt, r.ctx = i.img.Runtime(), i.img.Context()
	} else {
		var ok bool
		if r.rt, r.ctx, ok = newRuntime(q, limit); !ok {
			r.teardown()
			return &Result{Error: outOfMemory()}, nil
		}
	}
	i.precompile(r.rt, r.ctx, &p)
	r.img, r.compiled = i.img, i.compiled

	// A compile past its clock was stopped (and left out of the image),
	// not the run: only this goroutine has touched r.reason so far.
	r.reason.Store(notInterrupted)
	r.startClock()
	// From here the program runs: a full heap ends it (interruptMemory).
	q.HeapFull = func() { r.interrupt(interruptMemory) }
	q.LocalOffset = p.LocalOffset
	defer func() { q.HeapFull, q.LocalOffset = nil, nil }()
	r.goCtx = context.WithValue(r.goCtx, deadlineKey{}, r.deadline)
	// Watched once the clock is set, so that a cancel's stop comes after it.
	stop := context.AfterFunc(goCtx, func() { r.interrupt(interruptCancel) })
	defer stop()
	// A cancel that came before the watch (during the instance's one-time
	// work, read by one of its polls: the worker's abort flags) is acted on
	// here, on this goroutine. AfterFunc would act on it on a goroutine of
	// its own, and under GOOS=js that one runs only when this one yields:
	// a program that never calls the host (for (;;) {}) then ran to its
	// timeout, its poll answered in WebAssembly (jsbridge/poll.go).
	if goCtx.Err() != nil {
		r.interrupt(interruptCancel)
	}
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
	r.owner, _ = goCtx.Value(pollOwnerKey{}).(float64)
	res = r.main(p.Code, p.Body)
	if (r.nextID > 0 || len(r.notes) > 0) && (res.Error == nil || res.Error.Code != CodeTimeout) {
		res.Warnings = append(res.Warnings, r.warnings(res.Error != nil)...)
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

// newRuntime makes a run's runtime and context where the instance has no
// image, with the globals withheld (withhold); not ok when there was no
// memory left for that (rt and ctx are still the caller's to free).
func newRuntime(q *ffi.Instance, limit int64) (rt ffi.Runtime, ctx ffi.Context, ok bool) {
	rt = q.NewRuntime()
	q.SetMemoryLimit(rt, uint32(limit))
	q.SetMaxStackSize(rt, maxStackSize)
	ctx = q.NewContext(rt)
	// Before the interrupt handler: a clock already run out (a short
	// timeout on a loaded machine) stopped withhold, not the run.
	if !withhold(q, ctx) {
		return rt, ctx, false
	}
	q.EnableInterruptHandler(rt)
	return rt, ctx, true
}

// Code without a top-level return is evaluated as a script, so its
// completion value (`x + 1` on the last line) is the result. Code with one
// is compiled as the body of an async function. The prefix stays on the
// code's first line, so only first-line columns shift; the suffix starts a
// line of its own, so a trailing line comment cannot swallow it. The
// function is called by the host (callBody), not by the script: a call in
// the script put a frame one line past the code at the end of every stack
// the program saw (e.stack's "at <eval> (code.js:4:3)" for 3 lines).
// A script gets a space before it: QuickJS gives an error with no position
// of its own (a destructuring of what is not iterable) the start of its
// function, which was the code's 1:1 for a script, whatever the error's
// line; with the space it is before the code, and known to be no position.
const (
	wrapPrefix   = "(async () => {"
	wrapSuffix   = "\n})"
	scriptPrefix = " "
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
	q.Poll.SetOwner(r.owner)
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
		// A script is compiled and run in one call (the asset has no
		// other way to run it): its compile names the run as compiling
		// (a negative owner), and the polls after the interpreter's
		// first, at the script's first step (PollSoon), name the run.
		q.Poll.SetOwner(-r.owner)
		q.PollSoon(ctx)
		promise, exc = q.Eval(ctx, scriptPrefix+code, codeFile, ffi.EvalAsync)
		if exc != 0 {
			// It did not compile (or threw at once): what follows is the
			// library's (the error's report, a body's compile).
			q.Poll.SetOwner(0)
		}
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
			return &Result{Error: outOfMemory()}
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
	r.endHold()
	select {
	case <-r.wake:
		r.beginHold()
		// Settle whatever is ready, so one drain serves them all.
		r.resultsMu.Lock()
		ready := r.results
		r.results = nil
		r.resultsMu.Unlock()
		// Past the deadline the run ends at its next check whatever it
		// does: it ends here, and says which answer the time went into
		// when that was a large one (the host took it in, or the run).
		// ready may be empty: a wake sent after an earlier wait drained the
		// answer it was for (deliver queues, then wakes).
		if r.pastDeadline() {
			return r.timeoutWith(ready)
		}
		settled, lateSize, largestSize := 0, -1, -1
		var late, largest *hostCall
		for _, hr := range ready {
			settled += len(hr.value)
			c := r.pending[hr.id]
			if len(hr.value) > largestSize {
				largest, largestSize = c, len(hr.value)
			}
			r.takingIn, r.takingInSize = c, len(hr.value)
			r.settle(hr)
			r.takingIn = nil
			if r.pastDeadline() {
				late, lateSize = c, len(hr.value)
				break
			}
		}
		if settled >= bigResults {
			// The results are in QuickJS now, and their text garbage: a
			// collection now lets the next big one reuse its memory, which
			// the collector's pacing grew instead (the heap's goal is twice
			// what was live), and a GOOS=js core's memory never shrinks: a
			// tool's result of 100 MB, again, left the Go core at 199 MB.
			ready = nil
			runtime.GC()
			// The collection is part of taking them in.
			if lateSize < 0 && r.pastDeadline() {
				late, lateSize = largest, largestSize
			}
		}
		if lateSize >= 0 {
			return r.awaitedTimeout(late, lateSize)
		}
		if r.fatal != nil {
			return r.fatalResult()
		}
		return nil
	case <-r.deadlineTimer.C:
		r.beginHold()
		// Answers may have come in as the time ran out (the wake and the
		// timer were both ready): the time went into the largest.
		r.resultsMu.Lock()
		ready := r.results
		r.resultsMu.Unlock()
		return r.timeoutWith(ready)
	case <-r.goCtx.Done():
		r.beginHold()
		r.interrupt(interruptCancel)
		return cancelledResult()
	}
}

// bigResults is how many bytes of host results settled at once make wait
// collect the Go heap.
const bigResults = 16 << 20

// timeoutWith is the TIMEOUT of a run whose time ran out while the
// answers ready came in (none: while it awaited).
func (r *run) timeoutWith(ready []hostResult) *Result {
	if len(ready) == 0 {
		return r.awaitedTimeout(nil, 0)
	}
	hr := slices.MaxFunc(ready, func(a, b hostResult) int { return len(a.value) - len(b.value) })
	return r.awaitedTimeout(r.pending[hr.id], len(hr.value))
}

// awaitedTimeout is the TIMEOUT of a run whose time ran out while its
// program awaited host calls (Error.Awaiting), or while the answer of
// call c, of size bytes, was taken in.
func (r *run) awaitedTimeout(c *hostCall, size int) *Result {
	r.interrupt(interruptTimeout)
	res := r.timeoutResult()
	res.Error.Awaiting = true
	if c != nil {
		res.Error.Answer, res.Error.AnswerBytes = c.labelled(), size
	}
	return res
}

// teardown cancels the host calls still in flight, frees every value Go
// holds (the resolvers of pending promises included), and frees the context
// and runtime; queued jobs are dropped unrun. QuickJS asserts if anything
// leaked; the trap then discards the instance. A run on an image writes it
// back instead, which drops all of that at once; under the leak check
// (tests: internal/leakcheck) it frees everything first, as without one.
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
	if r.img != nil && !leakcheck.Enabled() {
		// Everything the run made, values Go holds and queued jobs
		// included, goes with the state it had.
		q.Restore(r.img)
		return
	}
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
	for _, rj := range r.recentRejected {
		q.FreeValue(ctx, rj.err)
	}
	if r.img != nil {
		// The leak check (tests): the image's own values go too, then
		// QuickJS checks that nothing is left, and the image comes back.
		for _, v := range r.compiled {
			q.FreeValue(ctx, v)
		}
	}
	q.FreeContext(ctx)
	r.freeRuntime()
	if r.img != nil {
		q.Restore(r.img)
	} else if r.blank != nil {
		q.Restore(r.blank)
	}
}

// freeRuntime frees the run's runtime, whose QuickJS asserts that every
// object was freed: a trap, which discards the instance. With the leak
// check on it is recorded too, since the run's result may not show it (a
// run that timed out reports TIMEOUT whatever the trap).
func (r *run) freeRuntime() {
	if leakcheck.Enabled() {
		defer func() {
			p := recover()
			if t, ok := p.(*ffi.Trap); ok {
				leakcheck.Record(t.Error(), r.code)
			}
			if p != nil {
				panic(p)
			}
		}()
	}
	r.q.FreeRuntime(r.rt)
}
