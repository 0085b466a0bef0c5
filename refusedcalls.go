package codemode

import (
	"context"
	"encoding/json"
	"time"
)

type refusedKey struct{}

// RefusedCall is a tool call that its run ended before the tool started:
// a name no visible tool has (a hidden tool's name reads the same), a name
// that is not a string, an input the calls in flight leave no room for,
// MaxToolCalls passed, the interceptor's denial or failure, a tool
// unregistered during the run, or an input its InputSchema refuses.
type RefusedCall struct {
	// Record is the call's entry in the result's ToolCalls, as it stands
	// when the call is refused: OK false, Reason why. Allowed is true only
	// for a call whose input its InputSchema refused (it passed the
	// interceptor).
	Record ToolCallRecord
	// Input is what the tool would have got: the program's input, or for
	// a call its InputSchema refused, the interceptor's replacement if it
	// gave one (what was checked).
	Input json.RawMessage
	// Error is, for a call its InputSchema refused, the error message the
	// program's call rejects with ("" otherwise: Record.Reason says why).
	Error string
}

// WithRefusedCalls returns a context whose runs (ExecuteCode, and
// executeCode of LLMTools) call fn with each tool call they end before its
// tool starts, as it is refused: a live account of the calls that only the
// result's ToolCalls had. The calls come in the order the run refused
// them, in one order with WithConsole's entries, one at a time, bounded as
// those are (see WithConsole); a panic in fn changes nothing of the run.
// A call refused once the run has ended (it never started) is not
// reported.
func WithRefusedCalls(ctx context.Context, fn func(RefusedCall)) context.Context {
	return context.WithValue(ctx, refusedKey{}, fn)
}

// refuse ends call c before its tool started, as finishCall records it,
// and reports it to the run's WithRefusedCalls observer. why is the
// record's reason (cut by failure); input is what the tool would have
// got; msg, for an allowed call, the program's error.
func (r *runState) refuse(c *toolCallState, allowed bool, why error, input json.RawMessage, msg string) {
	r.mu.Lock()
	if c.done {
		r.mu.Unlock()
		return
	}
	r.finishLocked(c, allowed, false, failure(why))
	q := r.refusedLocked(c, input, msg)
	r.mu.Unlock()
	r.deliver(q)
}

// refusedLocked takes the turn of refused call c (whose record is done)
// with the run's observer; nil when nobody observes refused calls or the
// run has ended. The caller holds r.mu, then calls deliver outside it.
func (r *runState) refusedLocked(c *toolCallState, input json.RawMessage, msg string) *observed {
	if r.obs == nil || r.obs.refused == nil || r.ended {
		return nil
	}
	rec := c.rec
	rec.DurationMs = ms(time.Since(c.start))
	return r.obs.take(observed{rc: &RefusedCall{Record: rec, Input: input, Error: msg}})
}

// deliver waits for the observer to see q (taken under r.mu), if any.
func (r *runState) deliver(q *observed) {
	if q != nil {
		r.obs.deliver(q)
	}
}
