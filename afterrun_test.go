package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
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

// TestConsoleObserverPanics: a WithConsole observer that panics changes
// nothing of the run, as an onEvent that throws changes nothing in the
// JavaScript binding, and the panic is reported on standard error. Before,
// the panic unwound through QuickJS: the run failed with "the sandbox
// crashed and was reset" and a WebAssembly stack trace for the model, and
// a tool's Call.Warn reported the observer's panic as the tool's own.
func TestConsoleObserverPanics(t *testing.T) {
	var reported []string
	defer func(f func(string, ...any)) { reportf = f }(reportf)
	reportf = func(format string, args ...any) { reported = append(reported, fmt.Sprintf(format, args...)) }
	cm := newTestCodeMode(t, Config{Tools: []Tool{{Name: "warns", Execute: func(_ context.Context, _ json.RawMessage, c Call) (json.RawMessage, error) {
		c.Warn("w")
		return json.RawMessage(`2`), nil
	}}}})
	s, _ := cm.NewSession()
	var seen []string
	ctx := WithConsole(context.Background(), func(e LogEntry) {
		seen = append(seen, e.Message)
		if e.Message == "b" || e.Message == "w" {
			panic("observer bug on " + e.Message)
		}
	})
	res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: `console.log("a"); console.log("b"); const n = await tools.warns({}); console.log("c"); return n`}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || string(res.Result) != "2" {
		t.Fatalf("run: want OK with result 2, got %+v", res)
	}
	if got, want := fmt.Sprint(res.Logs), "[{log a} {log b} {warn w} {log c}]"; got != want {
		t.Errorf("logs %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(seen), "[a b w c]"; got != want {
		t.Errorf("observer saw %s, want %s", got, want)
	}
	if len(reported) != 2 || !strings.Contains(reported[0], "observer bug on b") || !strings.Contains(reported[1], "observer bug on w") {
		t.Errorf("reported %q, want the two panics", reported)
	}
}
