package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
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
	s := mustSession(t, cm)
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
	s := mustSession(t, cm)
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

// TestConsoleObserverOneAtATime: the WithConsole observer is called one
// entry at a time, in the order of the result's Logs, though tools warn
// from goroutines of their own while the program logs; and not after
// ExecuteCode returned. Before, two tools' Call.Warn called it at once
// (its doc says it runs on the run's goroutine: an observer written for
// that raced).
func TestConsoleObserverOneAtATime(t *testing.T) {
	w1Inside, w2Called := make(chan struct{}), make(chan struct{})
	cm := newTestCodeMode(t, Config{Tools: []Tool{
		{Name: "w1", Execute: func(_ context.Context, _ json.RawMessage, c Call) (json.RawMessage, error) {
			c.Warn("w1")
			return nil, nil
		}},
		{Name: "w2", Execute: func(_ context.Context, _ json.RawMessage, c Call) (json.RawMessage, error) {
			<-w1Inside
			close(w2Called)
			c.Warn("w2")
			return nil, nil
		}},
	}})
	s := mustSession(t, cm)
	var inside, overlaps atomic.Int32
	var seen []string // written by the observer alone, unguarded
	ctx := WithConsole(context.Background(), func(e LogEntry) {
		if inside.Add(1) > 1 {
			overlaps.Add(1)
		}
		seen = append(seen, e.Message)
		if e.Message == "w1" {
			close(w1Inside)
			<-w2Called
			// w2 is warning now: give a second call, if it comes, the
			// time to arrive (without it, this only waits).
			for i := 0; i < 20 && inside.Load() == 1; i++ {
				time.Sleep(10 * time.Millisecond)
			}
		}
		inside.Add(-1)
	})
	res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: `console.log("a"); await Promise.all([tools.w1({}), tools.w2({})]); console.log("b")`}, nil)
	if err != nil || !res.OK {
		t.Fatalf("run: %v %+v", err, res)
	}
	if n := overlaps.Load(); n > 0 {
		t.Errorf("the observer was called %d time(s) while it was still observing an entry", n)
	}
	var logs []string
	for _, l := range res.Logs {
		logs = append(logs, l.Message)
	}
	if fmt.Sprint(seen) != fmt.Sprint(logs) {
		t.Errorf("observed %q, want the result's logs in order %q", seen, logs)
	}
}
