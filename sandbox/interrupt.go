package sandbox

// How a run stops before its program ends: its timeout, the caller's cancel,
// a host function's Fatal, and the hard limit past them (the loop checks'
// trap) for a program held where QuickJS never polls. QuickJS's interrupt
// poll and the loop checks read the same state (ffi.Instance.Poll), which
// interrupt keeps in step with the reason recorded here.

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/interopio/code-mode/sandbox/internal/ffi"
)

// Why a run was interrupted.
const (
	notInterrupted int32 = iota
	interruptTimeout
	interruptCancel
	interruptFatal
	// The heap is full (ffi.Instance.HeapFull): QuickJS threw null where
	// its "out of memory" error did not fit, and a program that caught
	// that went on with a null that says nothing ("failed: null").
	interruptMemory
)

// stopped returns the result of a run that was interrupted, or nil.
func (r *run) stopped() *Result {
	switch r.why() {
	case interruptTimeout:
		if r.startLate {
			return r.awaitedTimeout(nil, 0)
		}
		return r.timeoutResult()
	case interruptCancel:
		return cancelledResult()
	case interruptFatal:
		if r.fatal != nil {
			return r.fatalResult()
		}
	case interruptMemory:
		return &Result{Error: outOfMemory()}
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
	msg := fmt.Sprintf("the program did not finish within %v", r.timeout) + r.othersHeld()
	// A run that waits on another run that waits for an instance (a tool
	// that runs code itself, nested past MaxInstances deep) waits until
	// its timeout, and the timeout alone did not say why.
	if n := r.waitedAtTimeout.Load(); n > 0 {
		were := "runs were"
		if n == 1 {
			were = "run was"
		}
		msg += fmt.Sprintf("; meanwhile %d other %s waiting for a run slot, all %d in use (a run started from inside a run, by a tool, waits for one while the runs that called it hold theirs)", n, were, r.slots)
	}
	return &Result{Error: &Error{Code: CodeTimeout, Name: "TimeoutError", Message: msg}}
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
		if reason == interruptTimeout && r.waiting != nil {
			r.waitedAtTimeout.Store(r.waiting())
		}
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
//
// Long host work that stops itself once this says so (a tool's input
// check) asks it now and then, and so shows life through Beat.
func PastDeadline(ctx context.Context) bool {
	d, ok := ctx.Value(deadlineKey{}).(time.Time)
	if !ok {
		return false
	}
	late := past(d)
	if f := Beat; f != nil {
		if ms := time.Now().UnixMilli(); late || ms-lastBeat.Load() >= beatMs {
			lastBeat.Store(ms)
			owner, _ := ctx.Value(pollOwnerKey{}).(float64)
			f(owner)
		}
	}
	return late
}

// Beat, when set, is called by PastDeadline every beatMs or so, and at
// every call once the run is past its deadline, with the number the run
// names to its polls (WithPollOwner). The GOOS=js core sets it to the
// clock its interrupt polls call: in a worker that is a sign of life to
// its page, which replaces a worker silent for 2 s past a run's deadline,
// and a read of the page's abort flags. A tool's input check held the
// worker's thread in Go, where no poll runs, and under load went past
// that (an anyOf of 100,000: the worker replaced once in 13 calls, its
// compiled schema lost).
var Beat func(owner float64)

var lastBeat atomic.Int64

const beatMs = 100

// pollOwnerKey keys the number a run's polls name (WithPollOwner).
type pollOwnerKey struct{}

// WithPollOwner has the runs of ctx name owner to their interrupt poll
// (wasmhost.PollState.Owner), which the JavaScript backend hands to the
// clock it reads: a worker tells its page which run holds its thread.
// Without it a run names 0, and so does every run before its program
// starts (the instance's one-time work, the run's setup: execute; a
// function body's compile: run.owner).
func WithPollOwner(ctx context.Context, owner float64) context.Context {
	return context.WithValue(ctx, pollOwnerKey{}, owner)
}

// why returns the interrupt reason, noticing a deadline that passed while
// a backend answered the polls itself.
func (r *run) why() int32 {
	if r.reason.Load() == notInterrupted && r.pastDeadline() {
		r.interrupt(interruptTimeout)
	}
	return r.reason.Load()
}

// endOnTrap is execute's deferred recovery from a trap in the instance (the
// loop checks' hard limit, the host's stack overflowing, a QuickJS assert on
// a leak): the instance is closed, since its memory is in no known state, and
// the run ends with the error the trap stands for, or with the caller's
// cause when the caller stopped it. Any other panic goes on.
func (i *instance) endOnTrap(goCtx context.Context, r *run, res **Result, err *error) {
	rec := recover()
	if rec == nil {
		return
	}
	trap, ok := rec.(*ffi.Trap)
	if !ok {
		panic(rec)
	}
	i.q.Close()
	r.cancel(r.endCause())
	if r.reason.Load() == interruptCancel {
		*res, *err = nil, context.Cause(goCtx)
		return
	}
	*res, *err = &Result{Error: r.trapError(trap)}, nil
}
