package codemode

import (
	"context"
	"runtime"
	"sync"
	"time"
)

type consoleKey struct{}

// WithConsole returns a context whose runs (ExecuteCode, and executeCode of
// LLMTools) call fn with each log entry as the code adds it, before the run
// ends: the entries of the result's Logs, in order, except the warnings
// added when the run ends (Logs has those too). Its calls come one at a
// time, in that order, on a goroutine of the run's. That is per run: a
// context given to runs that overlap has each of them call fn, possibly
// at once.
//
// The code waits for each call to return (so fn sees an entry before what
// the code does next), but not for ever: a call that has not returned
// within the run's Config.Timeout, or by the time ctx is done or the
// session or CodeMode is closed, is left running, and fn gets no further
// entries of that run (Logs still has them). A run thus ends at most
// Timeout later than it would without fn, whatever fn does. No call starts
// after ExecuteCode returned; the one left running may still be running
// then. fn should return quickly: the run's Timeout counts the time spent
// waiting for it. A panic in fn changes nothing of the run: it is reported
// on standard error.
//
// Under GOOS=js fn is called on the run's goroutine itself (Go is
// single-threaded there: a JavaScript observer that does not return holds
// the thread, and no wait could be bounded).
func WithConsole(ctx context.Context, fn func(LogEntry)) context.Context {
	return context.WithValue(ctx, consoleKey{}, fn)
}

// observerHandoff: fn runs on a goroutine of its own and the run waits for
// it with a bound. Under GOOS=js the run calls it directly, as before the
// bound: handing off would cost two goroutine switches a console line and
// bound nothing.
const observerHandoff = runtime.GOOS != "js"

// consoleObserver hands one run's log entries to the WithConsole observer,
// one at a time, in log order. An observer that blocked used to keep its
// run from ending for ever, past its Timeout and its ctx: it was called on
// the run's goroutine, inside the sandbox, where no interrupt reaches.
type consoleObserver struct {
	fn      func(LogEntry)
	refused func(RefusedCall) // WithRefusedCalls's, or nil
	stop    <-chan struct{}   // the run's context: caller, session, factory
	limit   time.Duration     // how long a wait may take: the run's Timeout

	// turn, without handoff, holds the calls one at a time; a caller
	// takes it in log order (under the run's mu) and calls fn.
	turn sync.Mutex

	mu      sync.Mutex
	queue   []*observed
	last    *observed // the last entry queued
	pumping bool      // a goroutine is delivering the queue
	ended   bool      // the run ended: no call starts
	// quit is closed when a wait gives up: fn gets no more entries.
	quit     chan struct{}
	quitOnce sync.Once
}

// observed is one entry on its way to fn (or a refused call on its way to
// refused); done is closed once it returned.
type observed struct {
	e    LogEntry
	rc   *RefusedCall
	done chan struct{}
}

// newConsoleObserver makes the observer of a run's entries (fn) and
// refused calls (refused), either of which may be nil: one queue, so that
// both see the run's events in the order they happened.
func newConsoleObserver(fn func(LogEntry), refused func(RefusedCall), stop <-chan struct{}, limit time.Duration) *consoleObserver {
	return &consoleObserver{fn: fn, refused: refused, stop: stop, limit: limit, quit: make(chan struct{})}
}

// enqueue takes e's turn. The caller holds the run's mu, so turns follow
// the order of the logs; it then calls deliver with the result, outside
// that lock.
func (o *consoleObserver) enqueue(e LogEntry) *observed { return o.take(observed{e: e}) }

// take queues one observed event (enqueue's, or a refused call's).
func (o *consoleObserver) take(ev observed) *observed {
	if !observerHandoff {
		o.turn.Lock()
		return &ev
	}
	q := &ev
	q.done = make(chan struct{})
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.given() {
		return nil
	}
	o.queue = append(o.queue, q)
	o.last = q
	if !o.pumping {
		o.pumping = true
		go o.pump()
	}
	return q
}

// deliver returns once fn has seen q, or the wait gave up.
func (o *consoleObserver) deliver(q *observed) {
	if !observerHandoff {
		defer o.turn.Unlock()
		o.call(q)
		return
	}
	if q != nil {
		o.wait(q)
	}
}

// end waits for the entries queued so far (as deliver does) and lets no
// further call start: ExecuteCode is returning.
func (o *consoleObserver) end() {
	if !observerHandoff {
		o.turn.Lock()
		o.turn.Unlock()
		return
	}
	o.mu.Lock()
	last := o.last
	o.mu.Unlock()
	if last != nil {
		o.wait(last)
	}
	o.mu.Lock()
	o.ended = true
	o.mu.Unlock()
}

// wait waits for q's call to return, at most limit, and not once the run
// is stopped. A wait that gives up gives up on fn for the rest of the run.
func (o *consoleObserver) wait(q *observed) {
	select {
	case <-q.done:
		return
	case <-o.quit:
		return
	default:
	}
	t := time.NewTimer(o.limit)
	defer t.Stop()
	select {
	case <-q.done:
	case <-o.quit:
	case <-o.stop:
		o.giveUp()
	case <-t.C:
		o.giveUp()
	}
}

func (o *consoleObserver) giveUp() { o.quitOnce.Do(func() { close(o.quit) }) }

// given says whether the run gave up on fn (under mu or not).
func (o *consoleObserver) given() bool {
	select {
	case <-o.quit:
		return true
	default:
		return false
	}
}

// pump calls fn with the queued entries, in order, until none is left.
func (o *consoleObserver) pump() {
	for {
		o.mu.Lock()
		if len(o.queue) == 0 || o.ended || o.given() {
			o.queue = nil
			o.pumping = false
			o.mu.Unlock()
			return
		}
		q := o.queue[0]
		o.queue = o.queue[1:]
		o.mu.Unlock()
		o.call(q)
		close(q.done)
	}
}

// call hands q to the observer it is for.
func (o *consoleObserver) call(q *observed) {
	if q.rc != nil {
		observe("WithRefusedCalls", o.refused, *q.rc)
		return
	}
	observe("WithConsole", o.fn, q.e)
}

// observe calls a run's observer, fn (WithConsole's or WithRefusedCalls's,
// named by what). One that panics changes nothing of the run (as an
// onEvent that throws in the JavaScript binding): its panic would otherwise
// unwind through QuickJS, or be taken for the panic of the tool whose
// Call.Warn it observed. It is reported instead.
func observe[T any](what string, fn func(T), v T) {
	defer func() {
		if p := recover(); p != nil {
			reportf("codemode: the %s observer panicked (the run goes on): %v\n", what, p)
		}
	}()
	fn(v)
}
