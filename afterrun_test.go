package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
)

// TestWarnAfterRunEnded: a tool that outlives its run (it ignores its
// context, or keeps Call.Warn for later) and warns then changes nothing the
// caller already holds: the result's Logs stay as returned, and the
// WithConsole observer is not called once ExecuteCode has returned. Before,
// the late entry was appended to the run's log slice, whose spare capacity
// the result's Logs shared: it overwrote the result's own warning, from the
// tool's goroutine, while the caller read it.
func TestWarnAfterRunEnded(t *testing.T) {
	started, release, warned := make(chan struct{}), make(chan struct{}), make(chan struct{})
	cm := newTestCodeMode(t, Config{Tools: []Tool{{Name: "slow", Execute: func(_ context.Context, _ json.RawMessage, c Call) (json.RawMessage, error) {
		close(started)
		<-release
		c.Warn("late warning")
		close(warned)
		return json.RawMessage(`1`), nil
	}}, {Name: "started", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		<-started
		return nil, nil
	}}}})
	s, _ := cm.NewSession()
	var mu sync.Mutex
	var observed []LogEntry
	ctx := WithConsole(context.Background(), func(e LogEntry) {
		mu.Lock()
		observed = append(observed, e)
		mu.Unlock()
	})
	// Three entries give the log slice a capacity of four; the call left
	// pending (started, so its tool runs on) adds the run's warning as the
	// result's fourth entry.
	res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: `tools.slow({}); await tools.started({});
console.log("a"); console.log("b"); console.log("c"); return 1`}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || len(res.Logs) != 4 {
		t.Fatalf("run: want OK with 3 logs and the pending call's warning, got %+v", res)
	}
	before := fmt.Sprint(res.Logs)
	mu.Lock()
	seen := len(observed)
	mu.Unlock()
	close(release)
	<-warned
	if after := fmt.Sprint(res.Logs); after != before {
		t.Errorf("result Logs changed after the run returned:\n before %s\n after  %s", before, after)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(observed) != seen {
		t.Errorf("WithConsole observer called after the run returned: %v", observed[seen:])
	}
}
