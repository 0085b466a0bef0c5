package codemode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/interopio/code-mode/internal/jsondec"
	"github.com/interopio/code-mode/sandbox"
)

// Bounds of the strings that reach a record, the sandbox or the host from a
// tool call. The prelude cuts a name to maxNameChars+1 characters before it
// leaves the sandbox, with the name's length (see cutName); a tool's or an
// interceptor's message is cut here.
const (
	maxNameChars   = 128
	maxReasonChars = 1000
)

// toolCallState is one call that reached the pipeline: its record as the
// model sees it, and what the pipeline needs between its two halves.
type toolCallState struct {
	rec   ToolCallRecord
	start time.Time
	entry *toolEntry
	// input is the program's input until call takes it; held is what it
	// counts in runState.inFlight (twice its size with an interceptor).
	input json.RawMessage
	held  int
	err   error // set by begin for a call that fails before it starts
	// unknown is the name of a call to a tool that does not exist.
	unknown string
	done    bool
	// resultChecked: the tool checked its result with Call.CheckResult,
	// and it passed (see checkOutput).
	resultChecked atomic.Bool
	// answered is 1 + the length of the tool's answer once it came in
	// (checkOutput): a run that times out while a large one is still
	// being taken in says so (awaitedHint).
	answered atomic.Int64
	// converting is 1 + the bytes of JSON the binding had made of the
	// tool's value so far (Call.Answering, final false), while it converts
	// it: the tool has answered, and the time goes into its conversion.
	converting atomic.Int64
	// lateLarge says the call ended, with a large answer, after the run's
	// deadline: taking it in held the run past its time (awaitedHint).
	lateLarge bool
	// started says a stage of its pipeline (the interceptor or the tool)
	// was let start while the run was live (starting). A call the run's
	// end overtook before that never starts one: e.g. one made by a getter
	// of the result, which the sandbox does not start once the program
	// returned, or one whose goroutine had not reached its first stage.
	started bool
	// checking: its input is being checked against the tool's schema (a
	// check that takes the run's time names the tool, awaitedHint).
	checking atomic.Bool
	// checkingResult: its result is being checked against the tool's
	// outputSchema, or the run's end stopped that check (the call is
	// left to the run's end, which names it, as an input check's).
	checkingResult atomic.Bool
}

// begin records a call synchronously, while the program makes it, and
// returns its id for call. Every call counts against MaxToolCalls, unknown
// names included. A call refused here (an unknown name, the limit passed,
// an input too large or too deep)
// is reported to the run's WithRefusedCalls observer as it is made.
func (r *runState) begin(args []json.RawMessage) (json.RawMessage, error) {
	id, q, err := r.beginLocked(args, nil)
	r.deliver(q)
	return id, err
}

// beginUnwritable is begin for a call whose input the sandbox could not
// write as JSON (sandbox.Func.Unwritable; the input is the one object
// among begin's arguments): its stringify refuses nesting past
// maxParseDepth, as JSON.parse does, and an object inside itself. The
// call is refused, and its promise rejects as a refused call's: thrown at
// the call, the error named no tool and left no record.
func (r *runState) beginUnwritable(args []json.RawMessage, _ int, why sandbox.Unwritable) (json.RawMessage, error) {
	u := inputCircular
	if why == sandbox.TooDeep {
		u = inputTooDeep
	}
	id, q, err := r.beginLocked(args, u)
	r.deliver(q)
	return id, err
}

// beginLocked is begin under r.mu; q is the observer's turn of a call it
// refused, for begin to deliver once the lock is released. u is why the
// input could not be written, if it could not.
func (r *runState) beginLocked(args []json.RawMessage, u *unwritable) (id json.RawMessage, q *observed, err error) {
	c := &toolCallState{start: time.Now(), input: json.RawMessage("{}")}
	var name string
	// JSON null unmarshals into a string without an error: a name must be
	// a JSON string (the prelude passes null for any other value).
	nameOK := len(args) > 0 && len(args[0]) > 0 && args[0][0] == '"' && jsonName(args[0], &name)
	if len(args) > 1 && args[1] != nil {
		c.input = args[1]
	}
	c.rec.Name = cutName(name, args)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended {
		// A job that runs while the run is being torn down.
		return nil, nil, &sandbox.JSError{Name: "ToolError", Message: "the run has ended"}
	}
	shown := c.input // what the observer is shown of the input
	defer func() {
		// Run before the unlock: the call's turn follows the run's order.
		if c.done {
			q = r.refusedLocked(c, shown, "")
		}
	}()
	limit := func() error {
		return &sandbox.Fatal{Code: ErrorCodeToolLimit, Message: fmt.Sprintf("the run made more than %d tool calls", r.s.cm.cfg.MaxToolCalls)}
	}
	if len(r.calls) > r.s.cm.cfg.MaxToolCalls {
		// The run is over; the program may still run until the sandbox
		// polls for the interrupt, but records no more.
		return nil, nil, limit()
	}
	r.calls = append(r.calls, c)
	id = json.RawMessage(strconv.Itoa(len(r.calls)))
	if len(r.calls) > r.s.cm.cfg.MaxToolCalls {
		c.done, c.rec.Reason = true, "tool call limit reached"
		return nil, nil, limit()
	}
	// With an interceptor the input is held twice while the call is in
	// flight: the program's bytes and the interceptor's own copy
	// (ToolCall.Input), which it may keep until it decides.
	held := len(c.input)
	if r.s.cm.cfg.OnToolCall != nil {
		held *= 2
	}
	switch e, ok := r.entry(name); {
	case !nameOK:
		c.done, c.rec.Reason = true, "the tool name is not a string"
		// With the right form: by analogy with tool_search({ query }),
		// models wrote tool_call({ name: "orders.get", arguments: {...} }).
		c.err = &sandbox.JSError{Name: "TypeError", Message: errNameNotString}
	case !ok:
		// The suggestion (a search of the catalog) is made by call, off
		// the program's thread.
		c.done, c.rec.Reason, c.unknown = true, "unknown tool", name
	case extraArgs(args) > 0 && len(c.input) > 0 && c.input[0] == '{':
		// tools.orders.search(input, { limit: 1 }): the options would be
		// dropped, and the call run as if they had been heeded. Positional
		// arguments (tools.slack.post("C1", "hi")) are left to the input's
		// schema, whose message shows the object to pass.
		n := extraArgs(args)
		c.done, c.rec.Reason = true, "extra arguments: a tool takes one input"
		more := "1 more argument"
		if n > 1 {
			more = fmt.Sprintf("%d more arguments", n)
		}
		c.err = &sandbox.JSError{Name: "TypeError", Message: fmt.Sprintf(
			"tool_call %s: a tool takes one input, and this call passed %s after it, which it would drop: put everything in the one input object, as in tool_call(%s, { ...input, ...options })",
			c.rec.Name, more, strconv.Quote(c.rec.Name))}
	case u != nil:
		c.done, c.rec.Reason = true, u.reason
		c.err = &sandbox.JSError{Name: u.name, Message: fmt.Sprintf("tool_call %s: %s", c.rec.Name, u.message)}
		shown = nil
	case r.inFlight+held > r.s.cm.cfg.MemoryLimitMB<<20:
		// Each call's input is a copy of its own on the host (and the
		// tool's), whatever the program shares between calls: 20 calls
		// in parallel with one 40 MB string took the host process to
		// 2.8 GB from a run of 128 MB. What the calls in flight hold is
		// bounded by the run's memory limit.
		c.done, c.rec.Reason = true, "input too large: the calls in flight hold too much input"
		shown = nil // not a copy more of what was too much
		twice := ""
		if held > len(c.input) {
			twice = ", counted twice: the interceptor gets a copy"
		}
		c.err = &sandbox.JSError{Name: "RangeError", Message: fmt.Sprintf(
			"tool_call %s: its input (%d bytes of JSON%s) and those of the calls in flight (%d bytes) pass the run's memory limit (%d MB); await some calls first, or send less",
			c.rec.Name, len(c.input), twice, r.inFlight, r.s.cm.cfg.MemoryLimitMB)}
	default:
		c.entry = e
		c.held = held
		r.inFlight += c.held
	}
	return id, nil, nil
}

// extraArgs is how many arguments the program passed a tool after its
// input: begin's fourth argument (prelude/api.js call).
func extraArgs(args []json.RawMessage) int {
	if len(args) < 4 {
		return 0
	}
	n, _ := strconv.Atoi(string(args[3]))
	return n
}

// An input the prelude could not write as JSON: its record's reason, and
// the error the call throws (its name, and its message after the tool's).
type unwritable struct{ reason, name, message string }

var (
	inputTooDeep = &unwritable{"input too deep: it nests more than 1,000 levels", "RangeError",
		"its input nests more than 1,000 levels deep, the most a tool's input may; pass flatter data"}
	inputCircular = &unwritable{"input circular: an object in it refers to itself", "TypeError",
		"its input is circular (an object in it refers to itself), which JSON cannot write; pass data without cycles"}
)

// failure is a failed call's message, as its record and the program's
// ToolError give it: at most maxReasonChars characters. An error whose
// text a binding cut before copying it in has a DroppedChars method, the
// count of characters it dropped from the end: the JavaScript binding's
// page cuts a thrown error's long message (web/src/call.mjs), as 90
// million characters copied in grew the WebAssembly memory, which never
// shrinks, by 260 MB.
//
// An error whose Error method panics, typically a typed nil (a nil
// *MyError returned as the error, which is not a nil error), is named by
// its type: its message would have panicked on the run's goroutine, out of
// the sandbox's host call, failing the run's program with the host's
// "nil pointer dereference" and recording the tool's call as unfinished.
func failure(err error) (msg string) {
	defer func() {
		if p := recover(); p != nil {
			msg = fmt.Sprintf("the tool failed with an error of type %T whose Error method panicked (a nil %[1]T?): %v", err, p)
		}
	}()
	var cut interface{ DroppedChars() int }
	if errors.As(err, &cut) {
		return cutDropped(err.Error(), maxReasonChars, cut.DroppedChars())
	}
	return cutString(err.Error(), maxReasonChars)
}

// cutReason is a denial's reason whose last dropped characters were cut off
// before it came in (Decision.ReasonDropped), for failure's count.
type cutReason struct {
	reason  string
	dropped int
}

func (e *cutReason) Error() string     { return e.reason }
func (e *cutReason) DroppedChars() int { return e.dropped }

// toolError is the error a denied or failed call throws inside the sandbox.
func toolError(format string, a ...any) error {
	return &sandbox.JSError{Name: "ToolError", Message: cutString(fmt.Sprintf(format, a...), maxReasonChars)}
}

// errNameNotString is what tool_call gets for a name that is not a string.
const errNameNotString = `tool_call: the tool name must be a string: tool_call("ns.tool", input), the name first and the input second, not one object { name, arguments }`

// errRunEnded is what a call gets that the run's end stopped before its
// interceptor or tool started.
var errRunEnded = &sandbox.JSError{Name: "ToolError", Message: "the run ended before the call could start"}

// call is the pipeline of one call that begin recorded: intercept,
// validate, execute. Each stage starts only while the run is live.
func (r *runState) call(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
	c, e, input, err := r.prepare(ctx, args)
	if err != nil {
		return nil, err
	}
	out, err := r.execute(ctx, c, e, input, r.toolCall(ctx, c, e))
	return r.endCall(ctx, c, e, out, err)
}

// startCall is call's pipeline without a goroutine of its own, for a tool
// with Start and a run without an interceptor (which may block, on a
// person's approval): sandbox.Func.Start. It takes only the calls whose
// pipeline it can run to the tool's start here, and leaves the others,
// untouched, to call.
func (r *runState) startCall(ctx context.Context, args []json.RawMessage, done func(json.RawMessage, error)) bool {
	id, ok := callID(args)
	if !ok || id < 1 {
		return false
	}
	var entry *toolEntry
	r.mu.Lock()
	refused := id <= len(r.calls) && r.calls[id-1].err != nil
	if id <= len(r.calls) && !refused {
		entry = r.calls[id-1].entry
	}
	r.mu.Unlock()
	if refused {
		// Refused as it was made (begin): its answer is known. Given from
		// a goroutine, it raced the program's next await, and a call the
		// program left unawaited before a short timer ended the run was
		// not reported as the unhandled rejection it is.
		_, _, _, err := r.prepare(ctx, args)
		done(nil, err)
		return true
	}
	if r.s.cm.cfg.OnToolCall != nil {
		return false
	}
	if entry == nil || r.current(entry).tool.Start == nil {
		return false
	}
	// From here the call is this function's: a panic fails it, as one on
	// call's goroutine does (sandbox's start), instead of unwinding
	// QuickJS, and done is called once.
	var c *toolCallState
	var e *toolEntry
	defer func() {
		if p := recover(); p != nil {
			if e == nil {
				done(nil, fmt.Errorf("host function __cm_call panicked: %v", p))
			} else {
				done(r.endCall(ctx, c, e, nil, fmt.Errorf("tool %s panicked: %v", e.info.Name, p)))
			}
		}
	}()
	c, e, input, err := r.prepare(ctx, args)
	var call Call
	if err == nil {
		call = r.toolCall(ctx, c, e)
	}
	switch {
	case err != nil:
		e = nil
		done(nil, err)
	case e.tool.Start == nil:
		// Unregistered since, and replaced by a tool without Start.
		go func() {
			out, err := r.execute(ctx, c, e, input, call)
			done(r.endCall(ctx, c, e, out, err))
		}()
	default:
		e.tool.Start(ctx, input, call, func(out json.RawMessage, err error) {
			out, err = r.checkOutput(ctx, c, e, out, err)
			done(r.endCall(ctx, c, e, out, err))
		})
	}
	return true
}

// prepare is a call's pipeline up to its tool's start: the call's record
// and input, the interceptor's verdict, the input's validation. An error
// is the call's (its record says why); else the tool may start, with
// input, and the call ends with endCall.
func (r *runState) prepare(ctx context.Context, args []json.RawMessage) (c *toolCallState, e *toolEntry, input json.RawMessage, err error) {
	id, ok := callID(args)
	if !ok || id < 1 {
		return nil, nil, nil, &sandbox.JSError{Name: "TypeError", Message: "tool_call: bad call"}
	}
	r.mu.Lock()
	if id > len(r.calls) {
		r.mu.Unlock()
		return nil, nil, nil, &sandbox.JSError{Name: "TypeError", Message: "tool_call: bad call"}
	}
	call := r.calls[id-1]
	c = call
	// The record keeps no input: what the pipeline needs is taken here,
	// and released (from inFlight too) when the call returns (endCall, or
	// release on the way out here).
	input = c.input
	c.input = nil
	r.mu.Unlock()
	defer func() {
		if err != nil {
			r.release(call)
		}
	}()
	if c.err != nil {
		return nil, nil, nil, c.err
	}
	if c.entry == nil {
		// An unknown name, the empty one included.
		return nil, nil, nil, toolError("unknown tool %q%s", c.rec.Name, r.dispatchHint(c.unknown, input))
	}
	e = r.current(c.entry)
	if r.unregistered(c, e, input) {
		return nil, nil, nil, errUnregistered(e)
	}
	if f := r.s.cm.cfg.OnToolCall; f != nil {
		if !r.starting(ctx, c, false) {
			return nil, nil, nil, errRunEnded
		}
		d, err := intercept(ctx, f, ToolCall{Tool: e.view(), Input: bytes.Clone(input), Context: r.runContext})
		// What the tool gets is what is validated below, and its own:
		// the interceptor may keep the bytes it returned, or return the
		// same ones for every call.
		d.Input = bytes.Clone(d.Input)
		switch {
		case err != nil && ctx.Err() != nil:
			// An interceptor gives up when the run ends (a timeout, an
			// abort): the run ended, the interceptor did not fail. The
			// run's end records the call as not finished, and why.
			return nil, nil, nil, errRunEnded
		case err != nil:
			// Cut once, whole (failure): cut inside and again around, a
			// long message's count was of what the second cut dropped.
			r.refuse(c, false, fmt.Errorf("interceptor failed: %w", err), input, "")
			return nil, nil, nil, &sandbox.JSError{Name: "ToolError", Message: failure(fmt.Errorf("call to %s denied: the interceptor failed (%w)", e.info.Name, err))}
		case !d.Allowed:
			reason := d.Reason
			if reason == "" {
				reason = "denied"
			}
			dropped := max(d.ReasonDropped, 0)
			r.refuse(c, false, &cutReason{reason, dropped}, input, "")
			// As toolError would cut it whole, without a copy of it whole.
			head := "call to " + e.info.Name + " denied: "
			return nil, nil, nil, &sandbox.JSError{Name: "ToolError", Message: head + cutDropped(reason, maxReasonChars-utf8.RuneCountInString(head), dropped)}
		case d.Input != nil && !json.Valid(d.Input):
			// Running the tool with the original input would let the
			// program's input through a rewrite that failed: fail closed.
			r.refuse(c, false, errors.New("denied: the interceptor's replacement input is not JSON"), input, "")
			return nil, nil, nil, toolError("call to %s denied: the interceptor's replacement input is not JSON", e.info.Name)
		case d.Input != nil:
			input = d.Input
		}
	}
	c.checking.Store(true)
	stopped, late := false, sandbox.PastDeadline(ctx)
	bad := e.validateStop(input, func() bool {
		stopped = stopped || ctx.Err() != nil || sandbox.PastDeadline(ctx)
		return stopped
	})
	if stopped || !late && sandbox.PastDeadline(ctx) {
		// The run's end stopped the check, or came as it ended (its last
		// stretch asks nothing: a plain TIMEOUT, 1 in ~6 runs of an anyOf
		// of 100,000 at load 14): the call stays in it (checking), so that
		// the TIMEOUT names it whichever noticed the deadline first. (A
		// check begun past it, after a slow approval, is not started.)
		return nil, nil, nil, errRunEnded
	}
	c.checking.Store(false)
	if err := bad; err != nil {
		msg := cutString(fmt.Sprintf("%s: %v", e.info.Name, err), maxReasonChars)
		r.refuse(c, true, err, input, msg)
		return nil, nil, nil, &sandbox.JSError{Name: "ValidationError", Message: msg}
	}
	// Checked again after the interceptor: an approval may take as long
	// as a person needs, and the tool may be unregistered meanwhile. What
	// was approved is this entry: a tool registered under its name since
	// is not run in its place.
	if r.unregistered(c, e, input) {
		return nil, nil, nil, errUnregistered(e)
	}
	if !r.starting(ctx, c, true) {
		return nil, nil, nil, errRunEnded
	}
	// Once a run: a loop of calls with the same text says it once.
	if !r.objectTextSaid.Load() {
		if w := objectTextNote(input, "tools."+e.info.Name+" input"); w != "" && r.objectTextSaid.CompareAndSwap(false, true) {
			r.warn(w)
		}
	}
	return c, e, input, nil
}

// endCall ends call c with its tool's answer.
func (r *runState) endCall(ctx context.Context, c *toolCallState, e *toolEntry, out json.RawMessage, err error) (json.RawMessage, error) {
	defer r.release(c)
	if err != nil && c.checkingResult.Load() {
		// Its result's check was stopped by the run's end: the TIMEOUT
		// names it, as an input check's (awaitedHint).
		return nil, errResultCheckStopped
	}
	if err != nil {
		// A tool that fails because the run ended (its context done) did
		// not fail on its own: the end records it as not finished, and
		// why, whichever of the two comes first.
		msg := failure(err)
		if ctx.Err() == nil {
			r.finishCall(c, true, false, msg)
		}
		return nil, &sandbox.JSError{Name: "ToolError", Message: msg}
	}
	r.finishCall(c, true, true, "")
	r.s.shapes.observe(e, out)
	return out, nil
}

// release takes what call c's input held out of the run's inFlight.
func (r *runState) release(c *toolCallState) {
	r.mu.Lock()
	r.inFlight -= c.held
	c.held = 0
	r.mu.Unlock()
}

// current is the tool a call of e runs: e, or when e was unregistered
// during the run, the tool registered under its name since, if the run's
// filter shows it. A tool source re-registers a tool whose description or
// schema changed (web/src/adapters/source.mjs): a run in flight goes on
// calling it by its name, as worker mode's page, which looks tools up by
// name, always did.
func (r *runState) current(e *toolEntry) *toolEntry {
	if !e.removed.Load() {
		return e
	}
	if n, ok := r.s.cm.reg.lookup(e.info.Name); ok && (r.s.cm.cfg.ToolFilter == nil || r.s.cm.filter(n)) {
		return n
	}
	return e
}

// unregistered says whether e was unregistered since the run started, and
// if so records call c (of input) as refused.
func (r *runState) unregistered(c *toolCallState, e *toolEntry, input json.RawMessage) bool {
	if !e.removed.Load() {
		return false
	}
	r.refuse(c, false, errors.New("unregistered during the run"), input, "")
	return true
}

// errUnregistered is what a call of a tool unregistered during its run
// throws in the sandbox. web/src/worker-protocol.mjs words the same error for
// a call that reached the page just after the tool left it.
func errUnregistered(e *toolEntry) error {
	return toolError("tool %q was unregistered during this run; use tool_search to find tools", e.info.Name)
}

// starting says whether a stage of call c may start: the run is live, its
// context not done and its timeout not past (the run's thread may not have
// noticed it yet: on a loaded machine a busy loop's run was still live
// 200 ms after its timeout, and its tool started on an approval that came
// after it). Otherwise it records why the call never ran. With execute set
// the stage is the tool's own: the call passed the interceptor and its
// schema, so its record says allowed even if the run's end cuts it.
func (r *runState) starting(ctx context.Context, c *toolCallState, execute bool) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ended && ctx.Err() == nil && !sandbox.PastDeadline(ctx) {
		// A stage let start here may still begin (its first statement)
		// after the run's end returned, as no lock can order the
		// callee's first statement: its context is done by then, and its
		// record says it was in flight ("not finished"), not "not started".
		c.started = true
		if execute && !c.done {
			c.rec.Allowed = true
		}
		return true
	}
	if !c.done {
		c.done, c.rec.Allowed, c.rec.OK = true, false, false
		c.rec.Reason = notStartedReason
		c.rec.DurationMs = ms(time.Since(c.start))
	}
	return false
}

func (r *runState) finishCall(c *toolCallState, allowed, ok bool, reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c.done {
		return
	}
	r.finishLocked(c, allowed, ok, reason)
}

// finishLocked is finishCall's record, under r.mu, of a call not done;
// reason is cut to maxReasonChars already.
func (r *runState) finishLocked(c *toolCallState, allowed, ok bool, reason string) {
	c.done = true
	c.lateLarge = ok && c.answered.Load()-1 >= 1<<20 && r.overtime()
	c.rec.Allowed, c.rec.OK, c.rec.Reason = allowed, ok, reason
	c.rec.DurationMs = ms(time.Since(c.start))
}

// notStartedReason is the record of a call the run's end overtook before
// its pipeline began.
const notStartedReason = "not started: the run had ended"

// end marks the run ended (idempotent) and returns the records as they
// stand: a call still in flight is recorded as not finished, with why, and
// one whose pipeline never began as not started.
// Whatever such a call does later changes nothing the caller holds.
func (r *runState) end(why string) []ToolCallRecord {
	defer func() {
		// Entries added before the end may still be with the observer:
		// the run returns once it has seen them (within its bound).
		if r.obs != nil {
			r.obs.end()
		}
	}()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended = true
	out := make([]ToolCallRecord, len(r.calls))
	for i, c := range r.calls {
		out[i] = c.rec
		if !c.done {
			out[i].OK = false
			out[i].Reason = "not finished: " + why
			if !c.started {
				out[i].Allowed, out[i].Reason = false, notStartedReason
			}
			out[i].DurationMs = ms(time.Since(c.start))
		}
	}
	return out
}

// intercept runs the interceptor, failing closed on a panic.
func intercept(ctx context.Context, f Interceptor, c ToolCall) (d Decision, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f(ctx, c)
}

func (r *runState) execute(ctx context.Context, c *toolCallState, e *toolEntry, input json.RawMessage, call Call) (out json.RawMessage, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("tool %s panicked: %v", e.info.Name, p)
		}
	}()
	out, err = e.tool.Execute(ctx, input, call)
	return r.checkOutput(ctx, c, e, out, err)
}

// toolCall is what call c's tool learns of it. A tool with an outputSchema
// gets CheckResult, which records that the result it passed needs no
// second check.
func (r *runState) toolCall(ctx context.Context, c *toolCallState, e *toolEntry) Call {
	call := Call{Context: r.runContext, Warn: r.warn, MemoryLimitMB: r.s.cm.cfg.MemoryLimitMB, Answering: c.answering}
	if e.tool.OutputSchema != nil {
		call.CheckResult = func(out json.RawMessage) error {
			if err := r.checkResult(ctx, c, e, out); err != nil {
				return err
			}
			c.resultChecked.Store(true)
			return nil
		}
	}
	return call
}

// resultStop stops a result's check for the call of ctx once the run has
// used its time or ended, asking sandbox.PastDeadline, which shows life
// (sandbox.Beat) as the input check's stop does: in a worker, a big
// outputSchema's check held the thread in Go without a sign, and the page
// replaced the worker at an abort meanwhile, failing its other runs.
// The run's own deadline, as the input check's: its program's time (r's
// overtime, counted from a moment earlier) stopped the check while the run
// was live, and the program got the check's error, not its TIMEOUT.
func (r *runState) resultStop(ctx context.Context) func() bool {
	return func() bool { return sandbox.PastDeadline(ctx) || ctx.Err() != nil }
}

// errResultCheckStopped is what a call gets whose result's check the run's
// end stopped; the run ends with its TIMEOUT (or its abort) meanwhile.
var errResultCheckStopped = &sandbox.JSError{Name: "ToolError", Message: "the run ended while the call's result was checked against the tool's outputSchema"}

// checkResult checks call c's result against its tool's outputSchema.
// Stopped by the run's end, the call stays in its check (checkingResult)
// and endCall leaves it to the run's end: a TIMEOUT then names the check,
// as an input check's, where the program got a ToolError ("the check
// against the schema was stopped: the run's time ran out") and the run
// ended with it, or went on if the program caught it.
func (r *runState) checkResult(ctx context.Context, c *toolCallState, e *toolEntry, out json.RawMessage) error {
	c.checkingResult.Store(true)
	stop, stopped := r.resultStop(ctx), false
	err := e.checkResultStop(out, func() bool {
		stopped = stopped || stop()
		return stopped
	})
	if err == nil || !stopped {
		c.checkingResult.Store(false)
	}
	return err
}

// overtime says the run's program has used its time (it ends at its next
// poll): work on its behalf that does not poll stops then.
func (r *runState) overtime() bool {
	d := r.deadline.Load()
	return d != 0 && time.Now().UnixNano() > d
}

// answering records what the binding reported of a result it had not
// handed over yet (Call.Answering): a text of bytes (final), or at least
// that many bytes of JSON made so far.
func (c *toolCallState) answering(bytes int, final bool) {
	if bytes < 0 {
		return
	}
	if final {
		c.answered.Store(int64(bytes) + 1)
	} else {
		c.converting.Store(int64(bytes) + 1)
	}
}

// checkOutput fails a tool's answer that is not JSON, that the run's
// memory cannot hold, or that its outputSchema does not allow, unless the
// tool checked it with CheckResult. It runs when the tool's answer
// settles, before the sandbox sees it; nothing after it can change a
// result.
func (r *runState) checkOutput(ctx context.Context, c *toolCallState, e *toolEntry, out json.RawMessage, err error) (json.RawMessage, error) {
	c.answered.Store(int64(len(out)) + 1)
	if err != nil {
		return out, err
	}
	// The sandbox takes a result as a string of its JSON text, at least a
	// byte a character, in the run's memory: a text of more characters
	// than the limit holds cannot get in. Copied in, a 200 MB string ended
	// the whole run MEMORY_LIMIT seconds later, its call recorded as a
	// success; here the call fails, naming the tool, and the program may
	// catch it and ask for less. A page tool's result that long is
	// refused on the page, in these words (web/src/call.mjs fits),
	// before it is copied in: this check is the backstop.
	if limit := r.s.cm.cfg.MemoryLimitMB << 20; len(out) > limit {
		if n := utf8.RuneCount(out); n > limit {
			return nil, fmt.Errorf("tool %s returned %d characters of JSON, more than the run's memory limit (%d MB) can hold: ask it for less (a page, a filter), if its input allows",
				e.info.Name, n, r.s.cm.cfg.MemoryLimitMB)
		}
	}
	// The sandbox's JSON.parse reads at most maxParseDepth levels: deeper,
	// the program got a RangeError from a JSON.parse it never called, where
	// a page tool's call fails naming the tool (web/src/tojson.mjs). Only a
	// text of more than 2*maxParseDepth bytes can nest that deep. Text the
	// page has not checked is checked for both on one pass; invalid, it is
	// counted as before, so that text too deep says so wherever its error.
	tooDeep := func() error {
		return fmt.Errorf("tool %s returned a value that nests more than 1,000 levels deep", e.info.Name)
	}
	if c.resultChecked.Load() {
		if len(out) > 2*maxParseDepth && textTooDeep([]byte(out)) {
			return nil, tooDeep()
		}
		return out, nil
	}
	if len(out) > 0 {
		valid, deep := jsondec.ValidWithin(out, maxParseDepth)
		if len(out) > 2*maxParseDepth && (deep || !valid && textTooDeep([]byte(out))) {
			return nil, tooDeep()
		} else if !valid {
			return nil, fmt.Errorf("tool %s returned invalid JSON", e.info.Name)
		}
	}
	if err := r.checkResult(ctx, c, e, out); err != nil {
		return nil, err
	}
	return out, nil
}
