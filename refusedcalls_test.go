package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRefusedCallsLive: WithRefusedCalls hears each call the run ends
// before its tool starts, as it is refused, in one order with the console
// entries: an unknown name and a hidden one (which read the same), an
// input the schema refuses (allowed, with the program's error), an
// interceptor's denial and failure, a replacement input that is not JSON,
// and the call past MaxToolCalls. Calls that ran are not reported. Before,
// only the result's ToolCalls had these, once the run ended.
func TestRefusedCallsLive(t *testing.T) {
	cm := newTestCodeMode(t, Config{
		MaxToolCalls: 8,
		OnToolCall: func(_ context.Context, c ToolCall) (Decision, error) {
			switch c.Tool.Name {
			case "payments.transfer":
				return Decision{Allowed: false, Reason: "needs approval"}, nil
			case "util.fail":
				return Decision{}, errors.New("policy down")
			case "util.big":
				return Decision{Allowed: true, Input: json.RawMessage(`{`)}, nil
			case "orders.search":
				return Decision{Allowed: true, Input: json.RawMessage(`{"status":"lost"}`)}, nil
			}
			return Decision{Allowed: true}, nil
		},
	})
	s := mustSession(t, cm)
	var mu sync.Mutex
	var seen []string
	var refused []RefusedCall
	ctx := WithConsole(context.Background(), func(e LogEntry) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, "log "+e.Message)
	})
	ctx = WithRefusedCalls(ctx, func(c RefusedCall) {
		mu.Lock()
		defer mu.Unlock()
		refused = append(refused, c)
		seen = append(seen, fmt.Sprintf("refused %s %v %s", c.Record.Name, c.Record.Allowed, c.Record.Reason))
	})
	code := `const calls = [["nope", {a: 1}], ["admin.wipe", {a: 1}], ["orders.search", {status: "open"}],
		["payments.transfer", {amount: 5}], ["util.fail", {}], ["util.big", {}], ["orders.get", {id: 1}], ["orders.get", {id: 2}], ["orders.get", {id: 3}]];
	for (const [n, i] of calls) { console.log(n); try { await tool_call(n, i) } catch (e) { console.log("caught " + e.name) } }`
	res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: code}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Error == nil || res.Error.Code != string(ErrorCodeToolLimit) {
		t.Fatalf("want TOOL_LIMIT, got %+v", res.Error)
	}
	want := []string{
		"log nope", "refused nope false unknown tool", "log caught ToolError",
		"log admin.wipe", "refused admin.wipe false unknown tool", "log caught ToolError",
		"log orders.search", "refused orders.search true invalid input: /status: enum: got \"lost\", want one of \"open\", \"shipped\"", "log caught ValidationError",
		"log payments.transfer", "refused payments.transfer false needs approval", "log caught ToolError",
		"log util.fail", "refused util.fail false interceptor failed: policy down", "log caught ToolError",
		"log util.big", "refused util.big false denied: the interceptor's replacement input is not JSON", "log caught ToolError",
		"log orders.get", "log orders.get", "log orders.get", "refused orders.get false tool call limit reached",
	}
	mu.Lock()
	defer mu.Unlock()
	// The program may go on until the sandbox polls for the interrupt.
	if len(seen) > len(want) {
		seen = seen[:len(want)]
	}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
	// Each refusal is the result's record of the call (the duration aside).
	byName := map[string]ToolCallRecord{}
	for _, r := range res.ToolCalls {
		byName[r.Name] = r
	}
	for _, c := range refused {
		rec := byName[c.Record.Name]
		rec.DurationMs, c.Record.DurationMs = 0, 0
		if c.Record != rec {
			t.Errorf("refused %+v, record %+v", c.Record, rec)
		}
	}
	// An unknown name and a hidden one read the same, inputs alike.
	if a, b := refused[0], refused[1]; string(a.Input) != string(b.Input) || a.Record.Reason != b.Record.Reason || a.Error != b.Error {
		t.Errorf("unknown %+v and hidden %+v differ", a, b)
	}
	// The schema refusal shows what was checked (the interceptor's
	// replacement) and the program's error; the others the program's input.
	if c := refused[2]; string(c.Input) != `{"status":"lost"}` || c.Error != `orders.search: invalid input: /status: enum: got "lost", want one of "open", "shipped"` {
		t.Errorf("schema refusal: %s %q", c.Input, c.Error)
	}
	if c := refused[3]; string(c.Input) != `{"amount":5}` || c.Error != "" {
		t.Errorf("denial: %s %q", c.Input, c.Error)
	}
}

// TestRefusedCallsObserverPanics: an observer that panics changes nothing
// of the run; the panic is reported.
func TestRefusedCallsObserverPanics(t *testing.T) {
	var reported []string
	old := reportf
	reportf = func(format string, args ...any) { reported = append(reported, fmt.Sprintf(format, args...)) }
	defer func() { reportf = old }()
	s := mustSession(t, newTestCodeMode(t, Config{}))
	ctx := WithRefusedCalls(context.Background(), func(RefusedCall) { panic("observer bug") })
	res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: `try { await tools.nope({}) } catch (e) { return e.message }`}, nil)
	if err != nil || !res.OK || !strings.HasPrefix(string(res.Result), `"unknown tool \"nope\"`) {
		t.Fatalf("%v %+v", err, res)
	}
	if len(reported) != 1 || !strings.Contains(reported[0], "WithRefusedCalls observer panicked") {
		t.Fatalf("reported %q", reported)
	}
}

// TestRefusedCallsNotForAnEndedRun: an interceptor still deciding when the
// run ends (its caller cancelled, its timeout passed) gives up with the
// run's context, as it should. That is the run ending, not the interceptor
// failing: the call is not reported as refused, and its record says it was
// not finished and why. It was reported "interceptor failed: context
// canceled" (the page's onEvent: "interceptor failed: onToolCall
// rejected: aborted") whenever the interceptor saw the end before the run
// did.
func TestRefusedCallsNotForAnEndedRun(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout bool
	}{{"cancelled", false}, {"timed out", true}} {
		t.Run(tc.name, func(t *testing.T) {
			deciding := make(chan struct{}, 1)
			cfg := Config{OnToolCall: func(ctx context.Context, c ToolCall) (Decision, error) {
				deciding <- struct{}{}
				<-ctx.Done()
				return Decision{}, ctx.Err()
			}}
			if tc.timeout {
				cfg.Timeout = 300 * time.Millisecond
			}
			s := mustSession(t, newTestCodeMode(t, cfg))
			var mu sync.Mutex
			var refused []string
			ctx, cancel := context.WithCancel(WithRefusedCalls(context.Background(), func(c RefusedCall) {
				mu.Lock()
				defer mu.Unlock()
				refused = append(refused, c.Record.Reason)
			}))
			defer cancel()
			if !tc.timeout {
				go func() {
					<-deciding
					cancel()
				}()
			}
			res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: `return await tools.orders.get({ id: 1 })`}, nil)
			mu.Lock()
			defer mu.Unlock()
			if len(refused) != 0 {
				t.Errorf("refused %q, want none: the run ended, the interceptor did not fail", refused)
			}
			if res != nil {
				if len(res.ToolCalls) != 1 || !strings.HasPrefix(res.ToolCalls[0].Reason, "not finished: the run ended") {
					t.Errorf("err %v, records %+v; want one, not finished", err, res.ToolCalls)
				}
			}
		})
	}
}
