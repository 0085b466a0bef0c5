//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	"syscall/js"
	"testing"
	"time"
)

func TestReply(t *testing.T) {
	reply := ReplyFunc()
	// Answered later, from the event loop, as a page call answers.
	r := NewReply()
	js.Global().Call("setTimeout", bind(reply, js.Undefined(), r.ID(), 7, "text"), 1)
	vals, err := r.Wait(context.Background())
	if err != nil || len(vals) != 2 || vals[0].Int() != 7 || vals[1].String() != "text" {
		t.Fatalf("Wait = %v, %v; want [7 text]", vals, err)
	}

	// A second answer, an unknown id and junk are ignored without a throw.
	for _, args := range [][]any{{r.ID(), 1}, {1 << 30}, {"x"}, {}} {
		if _, err := Call(reply, args...); err != nil {
			t.Errorf("reply(%v) threw: %v", args, err)
		}
	}

	// The context ends first: Wait returns its cause, and the late answer
	// finds nobody.
	r2 := NewReply()
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("run over")
	time.AfterFunc(time.Millisecond, func() { cancel(stop) })
	if _, err := r2.Wait(ctx); err != stop {
		t.Fatalf("Wait after cancel = %v, want %v", err, stop)
	}
	replyMu.Lock()
	_, kept := replies[r2.ID()]
	replyMu.Unlock()
	if kept {
		t.Error("a reply given up on is still registered")
	}
	if _, err := Call(reply, r2.ID(), 1); err != nil {
		t.Errorf("late reply threw: %v", err)
	}
}

// TestReplyBatch: answers that settle together cross as one call,
// [id, n, values..., id, n, ...]; each waiter gets its own values, and a
// malformed rest of a batch is dropped without a throw.
func TestReplyBatch(t *testing.T) {
	reply := ReplyFunc()
	a, b, gone := NewReply(), NewReply(), NewReply()
	gone.Forget()
	batch := NewArray(a.ID(), 2, 1, "one", gone.ID(), 1, "late", b.ID(), 0)
	js.Global().Call("setTimeout", bind(reply, js.Undefined(), batch), 1)
	va, err := a.Wait(context.Background())
	if err != nil || len(va) != 2 || va[0].Int() != 1 || va[1].String() != "one" {
		t.Fatalf("a: Wait = %v, %v; want [1 one]", va, err)
	}
	if vb, err := b.Wait(context.Background()); err != nil || len(vb) != 0 {
		t.Fatalf("b: Wait = %v, %v; want no values", vb, err)
	}

	// Malformed batches: a count past the end, a non-number id, not an
	// array. Nothing throws; the answers before the bad entry are
	// delivered.
	c, d := NewReply(), NewReply()
	for _, bad := range []Value{
		NewArray(c.ID(), 1, "c", d.ID(), 5, "x"),
		NewArray("x", 0),
		NewObject(),
		NewArray(d.ID(), 1, "d", -1),
	} {
		if _, err := Call(reply, bad); err != nil {
			t.Errorf("reply(%s) threw: %v", Describe(bad), err)
		}
	}
	if vc, err := c.Wait(context.Background()); err != nil || len(vc) != 1 || vc[0].String() != "c" {
		t.Fatalf("c: Wait = %v, %v; want [c]", vc, err)
	}
	if vd, err := d.Wait(context.Background()); err != nil || len(vd) != 1 || vd[0].String() != "d" {
		t.Fatalf("d: Wait = %v, %v; want [d] from the batch cut short", vd, err)
	}
}

// TestOnReply: a reply handed to a function gets the answer's values once,
// on the answering call (no goroutine waits); Forget says whether the
// reply was still unanswered, and one forgotten first is never called.
func TestOnReply(t *testing.T) {
	reply := ReplyFunc()
	var got [][]Value
	r := OnReply(func(v []Value) { got = append(got, v) })
	gone := OnReply(func([]Value) { t.Error("a forgotten reply was called") })
	if !gone.Forget() {
		t.Error("Forget of an unanswered reply = false, want true")
	}
	batch := NewArray(r.ID(), 2, 7, "text", gone.ID(), 1, "late")
	if _, err := Call(reply, batch); err != nil {
		t.Fatalf("reply(batch) threw: %v", err)
	}
	if _, err := Call(reply, r.ID(), 8); err != nil {
		t.Fatalf("second answer threw: %v", err)
	}
	if len(got) != 1 || len(got[0]) != 2 || got[0][0].Int() != 7 || got[0][1].String() != "text" {
		t.Fatalf("answers %v, want one: [7 text]", got)
	}
	if r.Forget() {
		t.Error("Forget of an answered reply = true, want false")
	}
}

// TestReplyProgress: a reply's progress reports reach its OnProgress
// function while it is unanswered, and are ignored after its answer, for
// a reply without one, and when malformed, without a throw.
func TestReplyProgress(t *testing.T) {
	reply, progress := ReplyFunc(), ProgressFunc()
	var got []int
	r := OnReply(func([]Value) {})
	r.OnProgress(func(vals []Value) { got = append(got, vals[0].Int()) })
	plain := OnReply(func([]Value) {})
	for _, args := range [][]any{{r.ID(), 1 << 20, false}, {plain.ID(), 5}, {"x"}, {}, {r.ID(), 2 << 20, true}} {
		if _, err := Call(progress, args...); err != nil {
			t.Errorf("progress(%v) threw: %v", args, err)
		}
	}
	Call(reply, r.ID(), 0)
	Call(progress, r.ID(), 3<<20, true)
	if len(got) != 2 || got[0] != 1<<20 || got[1] != 2<<20 {
		t.Errorf("OnProgress got %v, want [1048576 2097152]", got)
	}
	plain.Forget()
}
