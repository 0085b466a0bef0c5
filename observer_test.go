package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestConsoleObserverBlocks: a WithConsole observer that blocks does not
// keep its run from ending: the run waits for it at most its Timeout, and
// not once its ctx is done or its session closed; the observer gets no
// entry after that, and none after ExecuteCode returned. Before, the run
// waited for it for ever (it was called inside the sandbox, which no
// timeout or cancellation reaches from there), in all four rows.
func TestConsoleObserverBlocks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		code    string
		// stop, if set, is called once the observer blocks.
		stop    func(cancel context.CancelFunc, s *Session)
		wantErr error
		// blocksOn is the entry the observer blocks on, the last it sees.
		blocksOn string
	}{
		{"the run's Timeout", 300 * time.Millisecond, `console.log("a"); console.log("b"); return 1`, nil, nil, "a"},
		// Loops until stopped: a run that ended first would return its
		// result, not the error.
		{"ctx cancelled", 0, `console.log("a"); console.log("b"); for (;;) {}`,
			func(cancel context.CancelFunc, _ *Session) { cancel() }, context.Canceled, "a"},
		{"session closed", 0, `console.log("a"); console.log("b"); for (;;) {}`,
			func(_ context.CancelFunc, s *Session) { s.Close() }, ErrClosed, "a"},
		// The run returns while a tool's warning is with the observer:
		// its end waits at most Timeout for it.
		{"a tool's warning at the run's end", 2 * time.Second, `console.log("a"); tools.warns({}); await tools.gate({}); return 1`, nil, nil, "w"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			blocked, release := make(chan struct{}), make(chan struct{})
			defer func() {
				select {
				case <-release:
				default:
					close(release)
				}
			}()
			cm := newTestCodeMode(t, Config{Timeout: tc.timeout, Tools: []Tool{
				{Name: "warns", Execute: func(_ context.Context, _ json.RawMessage, c Call) (json.RawMessage, error) {
					c.Warn("w")
					return nil, nil
				}},
				{Name: "gate", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
					select {
					case <-blocked:
					case <-ctx.Done():
					}
					return nil, nil
				}},
			}})
			s := mustSession(t, cm)
			var mu sync.Mutex
			var seen []string
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ctx = WithConsole(ctx, func(e LogEntry) {
				mu.Lock()
				seen = append(seen, e.Message)
				mu.Unlock()
				if e.Message == tc.blocksOn {
					close(blocked)
					<-release
				}
			})
			if tc.stop != nil {
				go func() {
					<-blocked
					tc.stop(cancel, s)
				}()
			}
			type outcome struct {
				res *ExecuteResult
				err error
			}
			done := make(chan outcome, 1)
			go func() {
				res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: tc.code}, nil)
				done <- outcome{res, err}
			}()
			var out outcome
			select {
			case out = <-done:
			case <-time.After(time.Minute):
				// Not a timing assertion: the run never ends without the bound.
				t.Fatal("ExecuteCode did not return: it waits for the blocked observer")
			}
			if tc.wantErr != nil {
				if !errors.Is(out.err, tc.wantErr) {
					t.Errorf("err = %v, want %v", out.err, tc.wantErr)
				}
			} else if out.err != nil {
				t.Fatal(out.err)
			} else if len(out.res.Logs) == 0 || out.res.Logs[0].Message != "a" {
				t.Errorf("logs = %+v, want a first (the observer's entries stay in Logs)", out.res.Logs)
			}
			if tc.blocksOn == "w" && (out.res == nil || !out.res.OK || string(out.res.Result) != "1") {
				t.Errorf("the run, whose end waited for the observer: %+v", out.res)
			}
			close(release)
			waitNoObserverPump(t)
			mu.Lock()
			defer mu.Unlock()
			if got := strings.Join(seen, " "); !strings.HasSuffix(got, tc.blocksOn) {
				t.Errorf("the observer saw %q, want nothing after %q: it was given up", got, tc.blocksOn)
			}
		})
	}
}

// waitNoObserverPump polls until no goroutine delivers to an observer:
// the one that was blocked has returned and called nothing after.
func waitNoObserverPump(t *testing.T) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if !strings.Contains(sandboxtest.GoroutineDump(), "(*consoleObserver).pump") {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("an observer's goroutine is still running after its observer returned:\n%s", sandboxtest.GoroutineDump())
}
