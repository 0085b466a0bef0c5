package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
	"time"
)

// startTools are tools with Start beside Execute, each answering the same
// both ways: from another goroutine, before Start returns, with an error,
// with text that is not JSON, with a panic, with a warning, or only when
// the run ends. starts and executes count which form ran.
func startTools(starts, executes *atomic.Int32, withStart bool) []Tool {
	type answer func(ctx context.Context, in json.RawMessage, c Call) (json.RawMessage, error)
	answers := map[string]answer{
		"later": func(_ context.Context, in json.RawMessage, _ Call) (json.RawMessage, error) {
			return json.RawMessage(`{"input":` + string(in) + `}`), nil
		},
		"now": func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			return json.RawMessage(`2`), nil
		},
		"fails": func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			return nil, errors.New("backend unavailable")
		},
		"badjson": func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			return json.RawMessage(`{not json`), nil
		},
		"panics": func(context.Context, json.RawMessage, Call) (json.RawMessage, error) { panic("tool bug") },
		"warns": func(_ context.Context, _ json.RawMessage, c Call) (json.RawMessage, error) {
			c.Warn("converted a Map")
			return json.RawMessage(`"w"`), nil
		},
		"never": func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
			<-ctx.Done()
			return nil, context.Cause(ctx)
		},
	}
	var tools []Tool
	for name, f := range answers {
		t := Tool{Name: "s." + name, InputSchema: json.RawMessage(`{"type":"object"}`),
			Execute: func(ctx context.Context, in json.RawMessage, c Call) (json.RawMessage, error) {
				executes.Add(1)
				return f(ctx, in, c)
			}}
		if withStart {
			t.Start = func(ctx context.Context, in json.RawMessage, c Call, done func(json.RawMessage, error)) {
				starts.Add(1)
				switch name {
				case "now", "panics", "badjson":
					// Before Start returns (a panic: Start's own).
					done(f(ctx, in, c))
				default:
					go func() { done(f(ctx, in, c)) }()
				}
			}
		}
		tools = append(tools, t)
	}
	return tools
}

// TestToolStart: a run without an interceptor starts a tool that has Start
// through it, on the run's own goroutine, instead of Execute on a
// goroutine of the call's own; with an interceptor, Execute runs as
// before. Results, errors, warnings and records are the same in the three
// cases (Start, Start beside an interceptor, Execute only).
func TestToolStart(t *testing.T) {
	const code = `const out = [];
for (const n of ["later", "now", "fails", "badjson", "panics", "warns"]) {
  try { out.push(await tools.s[n]({ n })); } catch (e) { out.push(e.name + ": " + e.message); }
}
try { await tools.s.later(5); } catch (e) { out.push(e.name); }
return out;`
	const want = `[{"input":{"n":"later"}},2,"ToolError: backend unavailable","ToolError: tool s.badjson returned invalid JSON","ToolError: tool s.panics panicked: tool bug","w","ValidationError"]`
	allow := func(context.Context, ToolCall) (Decision, error) { return Decision{Allowed: true}, nil }
	type outcome struct {
		result  string
		logs    []LogEntry
		records []ToolCallRecord
	}
	var first *outcome
	for _, tc := range []struct {
		name             string
		withStart        bool
		interceptor      Interceptor
		starts, executes int32
	}{
		{"Start, no interceptor", true, nil, 7, 0},
		{"Start beside an interceptor", true, allow, 0, 7},
		{"Execute only", false, nil, 0, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var starts, executes atomic.Int32
			cm := newTestCodeMode(t, Config{Tools: startTools(&starts, &executes, tc.withStart), OnToolCall: tc.interceptor})
			s := mustSession(t, cm)
			res := exec(t, s, code, nil)
			if !res.OK || string(res.Result) != want {
				t.Fatalf("result %s %+v, want %s", res.Result, res.Error, want)
			}
			// The validation error fails before either form runs.
			if starts.Load() != tc.starts-min(tc.starts, 1) || executes.Load() != tc.executes-min(tc.executes, 1) {
				t.Errorf("Start ran %d times, Execute %d; want %d and %d", starts.Load(), executes.Load(), tc.starts-min(tc.starts, 1), tc.executes-min(tc.executes, 1))
			}
			got := &outcome{string(res.Result), res.Logs, res.ToolCalls}
			for i := range got.records {
				got.records[i].DurationMs = 0
			}
			if first == nil {
				first = got
			} else if !reflect.DeepEqual(got, first) {
				t.Errorf("outcome %+v, want the first case's %+v", got, first)
			}
		})
	}
}

// TestToolStartCutByTheEnd: a call started through Start that is still
// running when the run ends is recorded as TestCallCutByTheEnd's are (the
// tool's context ends, and its late answer changes nothing), and one the
// program did not await is cancelled with the run's warning.
func TestToolStartCutByTheEnd(t *testing.T) {
	var starts, executes atomic.Int32
	cm := newTestCodeMode(t, Config{Timeout: time.Second, Tools: startTools(&starts, &executes, true)})
	s := mustSession(t, cm)
	res := exec(t, s, "return await tools.s.never({})", nil)
	if res.OK || res.Error.Code != "TIMEOUT" || len(res.ToolCalls) != 1 {
		t.Fatalf("awaited: %+v %+v", res.Error, res.ToolCalls)
	}
	rec := res.ToolCalls[0]
	if want := (ToolCallRecord{Name: "s.never", Allowed: true, Reason: "not finished: the run ended (TIMEOUT)", DurationMs: rec.DurationMs}); rec != want {
		t.Errorf("awaited: record %+v, want %+v", rec, want)
	}
	res = exec(t, s, "tools.s.never({}); return 1", nil)
	if !res.OK || string(res.Result) != "1" || len(res.ToolCalls) != 1 || !res.ToolCalls[0].Allowed || res.ToolCalls[0].OK {
		t.Fatalf("not awaited: %s %+v %+v", res.Result, res.Error, res.ToolCalls)
	}
	const warn = "1 call was still pending when the program finished, and cancelled (tool s.never); await every call"
	if len(res.Logs) != 1 || res.Logs[0] != (LogEntry{Level: "warn", Message: warn}) {
		t.Errorf("not awaited: logs %+v, want the warning %q", res.Logs, warn)
	}
	if starts.Load() != 2 || executes.Load() != 0 {
		t.Errorf("Start ran %d times, Execute %d; want 2 and 0", starts.Load(), executes.Load())
	}
}
