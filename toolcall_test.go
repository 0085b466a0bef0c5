package codemode

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// The ids and names of tool calls are read without encoding/json's
// reflection on the common path; they must read as encoding/json does.
func TestCallIDAndName(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		id   int
		ok   bool
		name string
	}{
		{raw: `1`, id: 1, ok: true},
		{raw: `123456789`, id: 123456789, ok: true},
		{raw: `0`, id: 0, ok: true},
		{raw: `-1`},
		{raw: `1.5`},
		{raw: `1e2`},
		{raw: `+1`},
		{raw: `"1"`},
		{raw: `null`},
		{raw: ``},
		{raw: `1234567890`}, // past any call limit
	} {
		id, ok := callID([]json.RawMessage{json.RawMessage(tc.raw)})
		if id != tc.id || ok != tc.ok {
			t.Errorf("callID(%s) = %d, %v; want %d, %v", tc.raw, id, ok, tc.id, tc.ok)
		}
	}
	if _, ok := callID(nil); ok {
		t.Error("callID(nil) ok")
	}
	for _, raw := range []string{`"orders.get"`, `""`, `"a b"`, `"tab\tx"`, `"quote\"d"`, `"\u00e9t\u00e9"`, `"été"`, `"\ud800"`, "\"\xff\"", `"a`, `null`, `1`} {
		var got, want string
		gotOK := jsonName(json.RawMessage(raw), &got)
		wantOK := json.Unmarshal([]byte(raw), &want) == nil
		if got != want || gotOK != wantOK {
			t.Errorf("jsonName(%s) = %q, %v; encoding/json: %q, %v", raw, got, gotOK, want, wantOK)
		}
	}
}

// TestCallCutByTheEnd: a call whose tool is running when the run times out
// is recorded as allowed (it passed the interceptor and its schema) and not
// finished, with why: also when the tool, its context done, returns its
// error before the run's end is recorded (that error is the end's doing,
// not the tool's failure).
func TestCallCutByTheEnd(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	cm := newTestCodeMode(t, Config{
		Timeout: 200 * time.Millisecond,
		Tools: []Tool{
			{Name: "slow.ctx", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			}},
			{Name: "slow.stuck", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
				<-release
				return json.RawMessage(`1`), nil
			}},
		},
		OnToolCall: func(context.Context, ToolCall) (Decision, error) { return Decision{Allowed: true}, nil },
	})
	s, _ := cm.NewSession()
	for i := 0; i < 5; i++ {
		for _, name := range []string{"slow.ctx", "slow.stuck"} {
			res := exec(t, s, "return await tools."+name+"({})", nil)
			if res.OK || res.Error.Code != "TIMEOUT" || len(res.ToolCalls) != 1 {
				t.Fatalf("%s: %+v %+v", name, res.Error, res.ToolCalls)
			}
			got := res.ToolCalls[0]
			want := ToolCallRecord{Name: name, Allowed: true, OK: false, Reason: "not finished: the run ended (TIMEOUT)", DurationMs: got.DurationMs}
			if got != want {
				t.Errorf("%s, run %d: record %+v, want %+v", name, i, got, want)
			}
		}
	}
}

// TestCallNeverStarted: a call made by a getter of the result, after the
// program returned, is never started (the sandbox starts no host call
// then), and its record says so.
func TestCallNeverStarted(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s, _ := cm.NewSession()
	res := exec(t, s, "return { get x() { return tools.orders.get({}) } }", nil)
	if !res.OK || len(res.ToolCalls) == 0 {
		t.Fatalf("%s %+v %+v", res.Result, res.Error, res.ToolCalls)
	}
	for _, got := range res.ToolCalls {
		want := ToolCallRecord{Name: "orders.get", Reason: "not started: the run had ended", DurationMs: got.DurationMs}
		if got != want {
			t.Errorf("record %+v, want %+v", got, want)
		}
	}
}
