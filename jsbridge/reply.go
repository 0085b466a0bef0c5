//go:build js && wasm

package jsbridge

import (
	"context"
	"sync"
	"syscall/js"
)

// Replies: JavaScript work that Go starts with one call and that reports
// back with one call of a long-lived function (ReplyFunc), the id of the
// Reply its first argument. Awaiting a promise instead costs a
// Promise.resolve, a then and two binds per wait, each a crossing and a
// finalizer; a reply costs the one callback.

// A Reply is one awaited answer: waited for (NewReply, Wait), or handed
// to a function (OnReply).
type Reply struct {
	id int
	ch chan []js.Value
	f  func([]Value)
	p  func([]Value) // OnProgress's
}

var (
	progressOnce sync.Once
	progressFunc js.Func
	replyMu      sync.Mutex
	replyNext    int
	replies      = map[int]*Reply{}
	replyOnce    sync.Once
	replyFunc    js.Func
)

// NewReply registers a reply; its ID goes to the JavaScript that answers.
func NewReply() *Reply {
	return register(&Reply{ch: make(chan []js.Value, 1)})
}

// OnReply registers a reply that calls f with the answer's values, on the
// goroutine of ReplyFunc's call, instead of waking a goroutine that waits:
// a caller that has nothing to do until the answer needs no goroutine of
// its own. f must not block; it is called at most once, and never after
// Forget returned true.
func OnReply(f func([]Value)) *Reply {
	return register(&Reply{f: f})
}

func register(r *Reply) *Reply {
	replyMu.Lock()
	replyNext++
	r.id = replyNext
	replies[r.id] = r
	replyMu.Unlock()
	return r
}

// OnProgress sets f to be called with the values of each ProgressFunc
// call for r before its answer, on that call's goroutine; f must not
// block. Set it before the id goes to JavaScript.
func (r *Reply) OnProgress(f func([]Value)) { r.p = f }

// ProgressFunc returns the function JavaScript reports a reply's progress
// with: f(id, values...) hands the values to the reply's OnProgress
// function, if it has one and is still unanswered. It never throws.
func ProgressFunc() Value {
	progressOnce.Do(func() {
		progressFunc = js.FuncOf(func(_ js.Value, args []js.Value) any {
			defer resumeSpin(suspendSpin())
			if len(args) == 0 || args[0].Type() != js.TypeNumber {
				return nil
			}
			replyMu.Lock()
			r := replies[args[0].Int()]
			replyMu.Unlock()
			if r != nil && r.p != nil {
				r.p(args[1:])
			}
			return nil
		})
	})
	return progressFunc.Value
}

// ID is the number JavaScript passes as ReplyFunc's first argument.
func (r *Reply) ID() int { return r.id }

// Forget gives the reply up: a later answer finds nobody. It says whether
// the reply was still unanswered (false: its answer came first).
func (r *Reply) Forget() bool {
	replyMu.Lock()
	_, ok := replies[r.id]
	delete(replies, r.id)
	replyMu.Unlock()
	return ok
}

// Wait returns the answer's values (ReplyFunc's arguments after the id),
// or context.Cause(ctx) once ctx ends first (the reply is then forgotten).
func (r *Reply) Wait(ctx context.Context) ([]Value, error) {
	select {
	case v := <-r.ch:
		return v, nil
	case <-ctx.Done():
		r.Forget()
		return nil, context.Cause(ctx)
	}
}

// ReplyFunc returns the function JavaScript answers Replies with:
// f(id, values...) answers one; f(batch) answers several at once, batch
// being one array [id, n, v1, ..., vn, id, n, ...] (each answer's id, its
// number of values, the values). Answers that settle together (the results
// of a Promise.all of tool calls) cross into Go as one call: each call is
// an event of the Go program, which then runs every goroutine it woke,
// and a run woken once per answer drained QuickJS's jobs once per answer.
// It never throws; an id nobody waits for (a forgotten reply, a second
// answer) is ignored, and so is a batch that is not of that form from the
// first entry that is not.
func ReplyFunc() Value {
	replyOnce.Do(func() {
		replyFunc = js.FuncOf(func(_ js.Value, args []js.Value) any {
			defer resumeSpin(suspendSpin())
			if len(args) == 0 {
				return nil
			}
			switch args[0].Type() {
			case js.TypeNumber:
				answer(args[0].Int(), args[1:])
			case js.TypeObject:
				answerBatch(args[0])
			}
			return nil
		})
	})
	return replyFunc.Value
}

// answer hands the values to the reply id waits on, if any.
func answer(id int, vals []js.Value) {
	replyMu.Lock()
	r := replies[id]
	delete(replies, id)
	replyMu.Unlock()
	switch {
	case r == nil:
	case r.f != nil:
		r.f(vals)
	default:
		r.ch <- vals
	}
}

// answerBatch reads ReplyFunc's batch form: a plain array made by the
// loader (web/src/call.mjs), whose reads cannot throw.
func answerBatch(batch js.Value) {
	if !IsArray(batch) {
		return
	}
	n := batch.Length()
	for i := 0; i+1 < n; {
		id, count := batch.Index(i), batch.Index(i+1)
		if id.Type() != js.TypeNumber || count.Type() != js.TypeNumber {
			return
		}
		k := count.Int()
		if k < 0 || i+2+k > n {
			return
		}
		vals := make([]js.Value, k)
		for j := range vals {
			vals[j] = batch.Index(i + 2 + j)
		}
		answer(id.Int(), vals)
		i += 2 + k
	}
}
