package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/interopio/code-mode/internal/trunc"
	"github.com/interopio/code-mode/sandbox/internal/ffi"
)

// Host calls: a JS call of a host function, its promise, and its answer.

type hostCall struct {
	resolve, reject ffi.Value
	name            string
	detached        bool
	dropped         func(args [][]json.RawMessage) string
	// label and args name the call in warnings (Func.Label), computed
	// only when a warning needs it.
	label func(args []json.RawMessage) string
	args  []json.RawMessage
	// late says the call was made after the program finished (by a getter
	// or toJSON of its result or of what it threw): it was never started.
	late bool
}

// labelled is the call's name in the run's warnings.
func (c *hostCall) labelled() string {
	if c.label != nil {
		return c.label(c.args)
	}
	return c.name
}

// rejection is a host call that failed, for the unobserved-rejection report
// (id, name, message) or for Error.Call (name, err).
type rejection struct {
	id      uint32
	name    string
	message string
	// err is the Error the call's promise was rejected with (owned, freed
	// when it leaves recentRejected or with the run): the run's error is
	// told to be this call's by identity.
	err ffi.Value
}

// A run keeps what its rejected host calls need, not every one's Error:
// 20,000 refused tool_search calls, each awaited and caught, held 3.9 MB
// of a 16 MB limit, and a loop that went on ended MEMORY_LIMIT holding
// nothing of its own (TestRejectedCallsKeepNoErrors).
//   - Error.Call names the call whose Error ended the run. That is one of
//     the last few rejected (a run ends when its error reaches the top, a
//     returned or Promise.all'd call's at once), so only the last
//     maxRecentRejections Errors are kept to compare with it.
//   - The warnings name rejections nobody observed. A call observed when it
//     is rejected (awaited, then'd: its mark is set) never is one, so only
//     the others are kept, their message without the Error; past
//     maxUnobservedRejections only their ids, and the warning counts them.
const (
	maxRecentRejections     = 32
	maxUnobservedRejections = 1000
)

// noteRejection records host call id, rejected with err (borrowed).
func (r *run) noteRejection(id uint32, c *hostCall, herr error, err ffi.ValueConst) {
	q, ctx := r.q, r.ctx
	name := c.labelled()
	if len(r.recentRejected) == maxRecentRejections {
		q.FreeValue(ctx, r.recentRejected[0].err)
		r.recentRejected = append(r.recentRejected[:0], r.recentRejected[1:]...)
	}
	r.recentRejected = append(r.recentRejected, rejection{id: id, name: name, err: q.DupValue(ctx, err)})
	if r.observed(id) {
		return
	}
	if len(r.rejected) == maxUnobservedRejections {
		r.moreRejected = append(r.moreRejected, id)
		return
	}
	r.rejected = append(r.rejected, rejection{id: id, name: name, message: errorMessage(herr)})
}

// observed says somebody observed host call id's promise (its mark, set by
// track's getter, is 1). The mark is read as it is, an own property: no
// code runs.
func (r *run) observed(id uint32) bool {
	if r.report == 0 {
		return false
	}
	m := r.q.GetIndex(r.ctx, r.report.Const(), id)
	n, ok := r.q.Int(m.Const())
	r.q.FreeValue(r.ctx, m)
	return ok && n == 1
}

type hostResult struct {
	id    uint32
	value json.RawMessage
	err   error
}

// maxHostDepth bounds host calls made while converting another host call's
// arguments (see callFunction): deep nesting would overflow the host
// engine's native stack inside the host and take the page down.
const maxHostDepth = 8

// callFunction serves a call from JS to host function refID.
func (r *run) callFunction(argc, argv, refID uint32) ffi.Value {
	q, ctx := r.q, r.ctx
	if refID == 0 || int(refID) > len(r.funcs) {
		return r.throw("InternalError", "unknown host function")
	}
	f, name := r.funcs[refID-1], r.names[refID-1]
	// Converting the arguments runs program code (getters, toJSON), which
	// may call a host function again. Each nesting stacks host frames on
	// the host engine's native stack, beyond QuickJS's own limit: deep
	// enough, that stack overflows inside the host and takes the page
	// down. Legitimate code never nests deeply.
	if r.depth >= maxHostDepth {
		return r.throw("RangeError", fmt.Sprintf("a getter or toJSON of a host call's arguments called host functions %d deep; at most %d levels are allowed", maxHostDepth, maxHostDepth-1))
	}
	r.depth++
	defer func() { r.depth-- }()
	args := make([]json.RawMessage, argc)
	unwritable, why := -1, Unwritable(0)
	for i := uint32(0); i < argc; i++ {
		// Arguments cross by the results' rules (a Set arrives as an
		// array, NaN as "NaN", ...), each change reported, rather than by
		// JSON.stringify's, which turns a Set into {} without a word.
		if n, ok := q.Int(q.Arg(argv, i)); ok {
			// An integer (a call id, a count): no crossing into QuickJS.
			args[i] = strconv.AppendInt(nil, int64(n), 10)
			continue
		}
		// A tool's name, a query: its bytes read from memory, where the
		// stringify is a call into QuickJS and a read of what it wrote.
		if b, ok := q.Narrow(q.Arg(argv, i), maxNarrowArg); ok {
			if js, ok := plainJSONString(b); ok {
				args[i] = js
				continue
			}
		}
		var exc ffi.Value
		if q.IsObject(q.Arg(argv, i)) {
			var warnings []string
			var w Unwritable
			args[i], warnings, exc, w = r.toJSON(q.Arg(argv, i), "input")
			r.notes = append(r.notes, warnings...)
			if exc != 0 && w != 0 && f.Sync != nil && f.Unwritable != nil && unwritable < 0 {
				q.FreeValue(ctx, exc)
				unwritable, why = int(i), w
				continue
			}
		} else {
			var s ffi.Value
			s, exc = q.Call(ctx, r.stringify.Const(), q.Undefined.Const(), q.Arg(argv, i))
			if exc == 0 && q.IsNumber(s.Const()) {
				// A symbol (out gives 0): converted and reported.
				var warnings []string
				args[i], warnings, exc, _ = r.toJSON(q.Arg(argv, i), "input")
				r.notes = append(r.notes, warnings...)
			} else if exc == 0 && q.IsString(s.Const()) {
				args[i] = q.GetBytes(ctx, s.Const())
			}
			q.FreeValue(ctx, s)
		}
		if exc != 0 {
			// e.g. a cycle: a TypeError at the call site.
			t := q.Throw(ctx, exc.Const())
			q.FreeValue(ctx, exc)
			return t
		}
	}
	if f.Sync != nil || f.Bytes != nil || f.Source != nil {
		// A panic here unwinds QuickJS mid-call: the instance traps and is
		// discarded, and the run fails with a RUNTIME error.
		var v json.RawMessage
		var b []byte
		var src string
		var err error
		switch {
		case unwritable >= 0:
			v, err = f.Unwritable(args, unwritable, why)
		case f.Sync != nil:
			v, err = f.Sync(args)
		case f.Bytes != nil:
			b, err = f.Bytes(args)
		default:
			src, err = f.Source(args)
		}
		if err != nil {
			var fatal *Fatal
			if errors.As(err, &fatal) {
				r.fatal = fatal
				r.interrupt(interruptFatal)
			}
			return r.throwErr(err)
		}
		if f.Bytes != nil {
			return r.arrayBuffer(b)
		}
		if f.Source != nil {
			return r.evalSource(src)
		}
		return r.fromJSON(v)
	}
	promise, resolve, reject := q.NewPromise(ctx)
	r.nextID++
	id := r.nextID
	r.pending[id] = &hostCall{resolve: resolve, reject: reject, name: name, detached: f.Detached, dropped: f.Dropped, label: f.Label, args: args, late: r.finished}
	// The program has returned or thrown: a getter of its result or error
	// starts nothing (a tool, an approval prompt) for a run that is ending.
	// The call stays pending, and is cancelled with the run.
	if !r.finished && !r.startDirect(f, id, args) {
		r.start(f, id, name, args)
	}
	idV := q.NewNumber(ctx, float64(id))
	tracked, exc := q.Call(ctx, r.track.Const(), q.Undefined.Const(), promise.Const(), idV.Const())
	q.FreeValue(ctx, idV)
	if exc != 0 {
		q.FreeValue(ctx, promise)
		t := q.Throw(ctx, exc.Const())
		q.FreeValue(ctx, exc)
		return t
	}
	q.FreeValue(ctx, promise)
	return tracked
}

// maxNarrowArg bounds the strings callFunction reads itself: a longer one
// that needed the stringify after all would be read twice.
const maxNarrowArg = 1024

// plainJSONString returns s as a JSON string when it is printable ASCII
// without a quote or a backslash: JSON.stringify of it is s in quotes.
// Anything else (an escape, a character past ASCII) is left to the
// stringify.
func plainJSONString(s []byte) (json.RawMessage, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return nil, false
		}
	}
	out := make(json.RawMessage, len(s)+2)
	out[0], out[len(out)-1] = '"', '"'
	copy(out[1:], s)
	return out, true
}

// rejectedBy is the label of the host call whose promise was rejected with
// exc itself, or "".
func (r *run) rejectedBy(exc ffi.ValueConst) string {
	if !r.q.IsObject(exc) {
		return ""
	}
	for _, rj := range r.recentRejected {
		if r.q.Same(r.ctx, exc, rj.err.Const()) {
			return rj.name
		}
	}
	return ""
}

// deliver queues the answer of a host call for wait; an answer that comes
// after the run ended finds nobody.
func (r *run) deliver(hr hostResult) {
	if r.goCtx.Err() != nil {
		return
	}
	r.resultsMu.Lock()
	r.results = append(r.results, hr)
	r.resultsMu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// settle resolves or rejects the promise of a finished host call.
func (r *run) settle(hr hostResult) {
	q, ctx := r.q, r.ctx
	c, ok := r.pending[hr.id]
	if !ok {
		return
	}
	delete(r.pending, hr.id)
	defer q.FreeValue(ctx, c.resolve)
	defer q.FreeValue(ctx, c.reject)
	var fatal *Fatal
	if errors.As(hr.err, &fatal) {
		r.fatal = fatal
		r.interrupt(interruptFatal)
	}
	fn, arg := c.resolve, q.Undefined
	if hr.err != nil {
		fn, arg = c.reject, r.newError(hr.err)
		r.noteRejection(hr.id, c, hr.err, arg.Const())
	} else if len(hr.value) > 0 {
		v, exc := r.valueOf(hr.value, true)
		if exc != 0 {
			fn, v = c.reject, exc
		}
		arg = v
	}
	out, exc := q.Call(ctx, fn.Const(), q.Undefined.Const(), arg.Const())
	q.FreeValue(ctx, out)
	q.FreeValue(ctx, exc)
	q.FreeValue(ctx, arg)
}

// parseJSON parses a host function's result; settled says it is an async
// call's, parsed by settle at the top of the run's stack, where the
// context's own JSON.parse may read what Program.NativeParse lets it
// (a sync call's result is parsed on top of the program's stack, which
// may be deep: the prelude's parse is the one that words an overflow).
func (r *run) parseJSON(raw json.RawMessage, settled bool) (val, exc ffi.Value) {
	parse := r.parse
	if settled && r.nativeParse != 0 && r.parseOK(raw) {
		parse = r.nativeParse
	}
	s := r.q.NewStringBytes(r.ctx, raw)
	defer r.q.FreeValue(r.ctx, s)
	return r.q.Call(r.ctx, parse.Const(), r.q.Undefined.Const(), s.Const())
}

// valueOf is parseJSON, except that an integer (a call id, a count) is
// made without a parse.
func (r *run) valueOf(raw json.RawMessage, settled bool) (val, exc ffi.Value) {
	if jsonInt(raw) {
		if n, err := strconv.ParseInt(string(raw), 10, 32); err == nil {
			return r.q.NewNumber(r.ctx, float64(n)), 0
		}
	}
	return r.parseJSON(raw, settled)
}

// jsonInt says raw is a JSON integer other than -0: -?(0|[1-9][0-9]*).
func jsonInt(raw json.RawMessage) bool {
	d := raw
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || d[0] == '0' && (len(d) > 1 || len(raw) > 1) {
		return false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// fromJSON returns the owned JS value of a sync host function's result.
func (r *run) fromJSON(raw json.RawMessage) ffi.Value {
	if len(raw) == 0 {
		return 0
	}
	return r.valueOrThrow(r.valueOf(raw, false))
}

// arrayBuffer is a Bytes function's result: an ArrayBuffer of b, or the
// exception thrown at the call (out of memory).
func (r *run) arrayBuffer(b []byte) ffi.Value {
	return r.valueOrThrow(r.q.NewArrayBuffer(r.ctx, b))
}

// valueOrThrow is a host function's result: v, or exc thrown at the call.
func (r *run) valueOrThrow(v, exc ffi.Value) ffi.Value {
	if exc != 0 {
		return r.rethrow(exc)
	}
	return v
}

// rethrow throws the owned exception exc at the call, and returns the
// call's result that says so.
func (r *run) rethrow(exc ffi.Value) ffi.Value {
	t := r.q.Throw(r.ctx, exc.Const())
	r.q.FreeValue(r.ctx, exc)
	return t
}

// newError returns an owned Error object for err. A TypeError or
// RangeError is made by the context's own class, captured before the
// program ran (captureBody): code written for V8 tests e instanceof
// TypeError, which an Error named so failed.
func (r *run) newError(err error) ffi.Value {
	q, ctx := r.q, r.ctx
	name, msg := "Error", err.Error()
	var je *JSError
	if errors.As(err, &je) {
		name, msg = je.Name, je.Message
	}
	i := uint32(0)
	switch name {
	case "TypeError":
		i = capturedTypeError
	case "RangeError":
		i = capturedRangeError
	}
	if i > 0 && r.helpers != 0 {
		ctor, m := q.GetIndex(ctx, r.helpers.Const(), i), q.NewString(ctx, msg)
		e, exc := q.Call(ctx, ctor.Const(), q.Undefined.Const(), m.Const())
		q.FreeValue(ctx, ctor)
		q.FreeValue(ctx, m)
		if exc == 0 {
			return e
		}
		q.FreeValue(ctx, exc)
	}
	e := q.NewError(ctx)
	for _, kv := range [][2]string{{"message", msg}, {"name", name}} {
		v := q.NewString(ctx, kv[1])
		q.SetProp(ctx, e.Const(), kv[0], v.Const())
		q.FreeValue(ctx, v)
	}
	return e
}

func (r *run) throwErr(err error) ffi.Value {
	e := r.newError(err)
	t := r.q.Throw(r.ctx, e.Const())
	r.q.FreeValue(r.ctx, e)
	return t
}

func (r *run) throw(name, msg string) ffi.Value {
	return r.throwErr(&JSError{Name: name, Message: msg})
}

// warnings lists rejected host calls nobody observed, and calls still
// pending when the program finished, or when an error ended it (failed).
func (r *run) warnings(failed bool) []string {
	out := r.notes
	if len(r.rejected) > 0 && r.report != 0 {
		// report is the tracker's array of marks: element id is 1 once
		// somebody observed call id's promise. Each is read as it is, an
		// own property (observed: no code runs): a stringify of the array
		// ran the interpreter, which in a run being stopped (TOOL_LIMIT)
		// QuickJS's poll cut short for a long list, and every rejection
		// then read as unobserved.
		for _, rj := range r.rejected {
			if !r.observed(rj.id) {
				out = append(out, "unhandled rejection of a call that was not awaited: "+rj.name+": "+rj.message)
			}
		}
		more := 0
		for _, id := range r.moreRejected {
			if !r.observed(id) {
				more++
			}
		}
		if more > 0 {
			out = append(out, fmt.Sprintf("%s of calls that were not awaited, past the first %d calls rejected before anybody awaited them (counted, not listed)", trunc.Count(more, "unhandled rejection", "unhandled rejections"), maxUnobservedRejections))
		}
	}
	var pending, late []string
	var dropped []uint32
	for id, c := range r.pending {
		switch {
		case c.detached:
			if c.dropped != nil {
				dropped = append(dropped, id)
			}
		case c.late:
			late = append(late, c.labelled())
		default:
			pending = append(pending, c.labelled())
		}
	}
	if len(dropped) > 0 {
		// One warning per function, given every pending call's arguments
		// (in the order the calls were made).
		slices.Sort(dropped)
		byFunc := map[string][][]json.RawMessage{}
		var order []*hostCall
		for _, id := range dropped {
			c := r.pending[id]
			if _, seen := byFunc[c.name]; !seen {
				order = append(order, c)
			}
			byFunc[c.name] = append(byFunc[c.name], c.args)
		}
		for _, c := range order {
			if w := c.dropped(byFunc[c.name]); w != "" {
				out = append(out, w)
			}
		}
	}
	switch {
	case len(pending) > 0 && failed:
		// The error ended them, not a missing await: a Promise.all one
		// of whose calls failed had awaited every call, and "await every
		// call" sent models after awaits they had written.
		out = append(out, trunc.Count(len(pending), "call was", "calls were")+" still pending when the error ended the run, and cancelled ("+callList(pending)+")")
	case len(pending) > 0:
		out = append(out, trunc.Count(len(pending), "call was", "calls were")+" still pending when the program finished, and cancelled ("+callList(pending)+"); await every call")
	}
	if len(late) > 0 {
		// "await every call" does not fit: the program could not await a
		// call that a getter makes while its value is written.
		out = append(out, trunc.Count(len(late), "call was", "calls were")+" made by a getter or toJSON of the result (or of the thrown error) after the program finished, and not started ("+callList(late)+"); call tools in the program, await them, and return plain values")
	}
	return out
}

// callList names calls for a warning, as the program called them
// (Func.Label), not by the host functions behind them: sorted, at most 5.
func callList(names []string) string {
	sort.Strings(names)
	if len(names) > 5 {
		names = append(names[:5], "...")
	}
	return strings.Join(names, ", ")
}

// errorMessage is the message a host error has in JS.
func errorMessage(err error) string {
	var je *JSError
	if errors.As(err, &je) {
		return je.Message
	}
	return err.Error()
}

// startDirect starts call id through f.Start, if f has one and takes it.
// A panic there unwinds QuickJS mid-call, as in a Sync function.
func (r *run) startDirect(f Func, id uint32, args []json.RawMessage) bool {
	if f.Start == nil {
		return false
	}
	live := !r.pastDeadline()
	// A second answer would find the call settled (settle ignores it).
	ok := f.Start(r.goCtx, args, func(v json.RawMessage, err error) {
		r.deliver(hostResult{id: id, value: v, err: err})
	})
	r.startLate = r.startLate || live && r.pastDeadline()
	return ok
}

// start runs async host function f for call id on a goroutine of its own.
func (r *run) start(f Func, id uint32, name string, args []json.RawMessage) {
	r.workers.run(func() {
		defer func() {
			if p := recover(); p != nil {
				r.deliver(hostResult{id: id, err: fmt.Errorf("host function %s panicked: %v", name, p)})
			}
		}()
		v, err := f.Async(r.goCtx, args)
		r.deliver(hostResult{id: id, value: v, err: err})
	})
}

// workers runs an engine's async host functions on long-lived goroutines,
// each serving one call at a time: a new goroutine per call started on a
// small stack, which a tool call's path (codemode's pipeline, the page
// boundary) grew by copying, every call. The idle ones belong to the
// engine and end with it (close), so a host that closed every engine is
// back to its own goroutines; they were kept for the process before.
type workers struct {
	mu     sync.Mutex
	idle   []chan func() // the idle goroutines' job channels
	closed bool
}

// maxIdleWorkers bounds the idle goroutines of one engine.
const maxIdleWorkers = 64

// run runs fn on an idle goroutine, or on a new one.
func (w *workers) run(fn func()) {
	w.mu.Lock()
	if n := len(w.idle); n > 0 {
		jobs := w.idle[n-1]
		w.idle = w.idle[:n-1]
		w.mu.Unlock()
		jobs <- fn // buffered: never blocks
		return
	}
	w.mu.Unlock()
	go w.serve(fn)
}

// serve runs fn, then waits for more while the engine is open and the idle
// list has room. A job channel is closed only once taken off the idle list
// (close), so no job is ever sent to a goroutine that has left.
func (w *workers) serve(fn func()) {
	jobs := make(chan func(), 1)
	for {
		fn()
		fn = nil // nothing of a finished call stays reachable
		w.mu.Lock()
		if w.closed || len(w.idle) >= maxIdleWorkers {
			w.mu.Unlock()
			return
		}
		w.idle = append(w.idle, jobs)
		w.mu.Unlock()
		if fn = <-jobs; fn == nil {
			return // closed
		}
	}
}

// close ends the idle goroutines; those still serving a call (runs in
// flight after Engine.Close) end when it returns.
func (w *workers) close() {
	w.mu.Lock()
	idle := w.idle
	w.idle, w.closed = nil, true
	w.mu.Unlock()
	for _, jobs := range idle {
		close(jobs)
	}
}
