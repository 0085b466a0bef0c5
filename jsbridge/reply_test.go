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
