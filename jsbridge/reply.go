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

// A Reply is one awaited answer.
type Reply struct {
	id int
	ch chan []js.Value
}

var (
	replyMu   sync.Mutex
	replyNext int
	replies   = map[int]*Reply{}
	replyOnce sync.Once
	replyFunc js.Func
)

// NewReply registers a reply; its ID goes to the JavaScript that answers.
func NewReply() *Reply {
	r := &Reply{ch: make(chan []js.Value, 1)}
	replyMu.Lock()
	replyNext++
	r.id = replyNext
	replies[r.id] = r
	replyMu.Unlock()
	return r
}

// ID is the number JavaScript passes as ReplyFunc's first argument.
func (r *Reply) ID() int { return r.id }

// Forget gives the reply up: a later answer finds nobody.
func (r *Reply) Forget() {
	replyMu.Lock()
	delete(replies, r.id)
	replyMu.Unlock()
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

// ReplyFunc returns the function JavaScript answers a Reply with:
// f(id, values...). It never throws; an id nobody waits for (a forgotten
// reply, a second answer) is ignored.
func ReplyFunc() Value {
	replyOnce.Do(func() {
		replyFunc = js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) == 0 || args[0].Type() != js.TypeNumber {
				return nil
			}
			replyMu.Lock()
			r := replies[args[0].Int()]
			delete(replies, args[0].Int())
			replyMu.Unlock()
			if r != nil {
				r.ch <- args[1:]
			}
			return nil
		})
	})
	return replyFunc.Value
}
