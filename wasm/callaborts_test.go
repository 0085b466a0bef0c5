//go:build js && wasm

package main

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestOnDoneOneEntryPerRun: the page calls of one run register one entry
// (one context.AfterFunc) for the run, not one per call; a call stopped
// before the run ends is never aborted, and every other one is aborted
// once when it ends, after which stop says it was too late and the run's
// entry is gone. A ctx already done aborts at once.
func TestOnDoneOneEntryPerRun(t *testing.T) {
	entries := func() int {
		runAborts.mu.Lock()
		defer runAborts.mu.Unlock()
		return len(runAborts.runs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var aborted [5]atomic.Int32
	stops := make([]func() bool, len(aborted))
	for i := range aborted {
		stops[i] = onDone(ctx, func() { aborted[i].Add(1) })
	}
	if n := entries(); n != 1 {
		t.Fatalf("%d calls of one run: %d entries, want 1", len(aborted), n)
	}
	if !stops[0]() || stops[0]() {
		t.Error("stop of a call in flight: want true, then false")
	}
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := 0
		for i := 1; i < len(aborted); i++ {
			n += int(aborted[i].Load())
		}
		if n == len(aborted)-1 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	for i := range aborted {
		want := int32(1)
		if i == 0 {
			want = 0
		}
		if got := aborted[i].Load(); got != want {
			t.Errorf("call %d aborted %d times, want %d", i, got, want)
		}
		if i > 0 && stops[i]() {
			t.Errorf("call %d: stop after its abort ran said it stopped it", i)
		}
	}
	if n := entries(); n != 0 {
		t.Errorf("after the run ended: %d entries, want 0", n)
	}
	done := make(chan struct{})
	onDone(ctx, func() { close(done) })
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Error("a call of a run already ended was not aborted")
	}
}
