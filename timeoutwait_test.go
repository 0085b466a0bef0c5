package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

// TestTimeoutNamesWhatTheRunAwaited: a run that times out while it awaits
// a tool, or the host's decision on a call (onToolCall), says which: the
// timeout's words alone ("did not finish within 500ms") read as the
// program's own loop, and a model rewrote code that only waited. A program
// that computes into its timeout, or awaits only a timer, gets the plain
// words, whatever calls it left pending; another run's calls are never
// named.
func TestTimeoutNamesWhatTheRunAwaited(t *testing.T) {
	hold := func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	cm := newTestCodeMode(t, Config{
		Timeout: 500 * time.Millisecond,
		Tools:   []Tool{{Name: "slow.wait", Execute: hold}, {Name: "pay.send", Execute: hold}},
		OnToolCall: func(ctx context.Context, c ToolCall) (Decision, error) {
			if c.Tool.Name == "pay.send" {
				// A person who has not answered yet.
				<-ctx.Done()
				return Decision{}, ctx.Err()
			}
			return Decision{Allowed: true}, nil
		},
	})
	s := mustSession(t, cm)
	const plain = "the program did not finish within 500ms (config.timeout: 500, in milliseconds; 500 seconds would be 500000)"
	for _, tc := range []struct{ name, code, want string }{
		{"a tool", "const a = 1;\nreturn await tools.slow.wait({ a })",
			plain + "; it was waiting for the result of tool slow.wait (called at line 2)"},
		{"a decision", "return await tools.pay.send({ to: 'x' })",
			plain + "; it was waiting for the host's decision (onToolCall) on its call of tool pay.send (called at line 1)"},
		{"through tool_call", "const r = await tool_call('slow.wait', {});\nreturn r",
			plain + "; it was waiting for the result of tool slow.wait (called at line 1)"},
		{"several: the first named, the rest counted", "await Promise.all([tools.slow.wait({}), tools.slow.wait({}), tools.pay.send({})])",
			plain + "; it was waiting for the result of tool slow.wait, and for 2 more tool calls"},
		{"a decision first", "await Promise.all([tools.pay.send({}), tools.slow.wait({})])",
			plain + "; it was waiting for the host's decision (onToolCall) on its call of tool pay.send (called at line 1), and for 1 more tool call"},
		{"calls that returned are not named", "await tools.orders.get({});\nawait tools.slow.wait({})",
			plain + "; it was waiting for the result of tool slow.wait (called at line 2)"},
		{"computing, a call left pending", "tools.slow.wait({}); for (;;) {}", plain},
		{"awaiting a timer", "await new Promise((r) => setTimeout(r, 5000))", plain},
	} {
		res := exec(t, s, tc.code, nil)
		if res.OK || res.Error.Code != ErrorCodeTimeout || res.Error.Message != tc.want {
			t.Errorf("%s: got %+v\nwant TIMEOUT %q", tc.name, res.Error, tc.want)
		}
	}

	// Another run of the session awaits a tool meanwhile: the timed-out
	// run's message is its own.
	other := make(chan *ExecuteResult, 1)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() {
		res, _ := s.ExecuteCode(ctx, ExecuteCodeInput{Code: "await tools.slow.wait({})"}, nil)
		other <- res
	}()
	if res := exec(t, s, "await new Promise((r) => setTimeout(r, 5000))", nil); res.OK || res.Error.Message != plain {
		t.Errorf("another run's call: got %+v, want TIMEOUT %q", res.Error, plain)
	}
	stop()
	<-other
}

// TestTimeoutNamesALargeAnswer: when the time ran out while a large answer
// was taken in (by the sandbox, sandbox.Error.Answer; or by the core,
// before it handed the answer on), the timeout says so and how large it
// was: the tool had returned, and the model can ask for less. A small
// answer that came in as the time ran out is no reason.
func TestTimeoutNamesALargeAnswer(t *testing.T) {
	const plain = "the program did not finish within 1s"
	call := func(name string, started, done bool, answered int64) *toolCallState {
		c := &toolCallState{rec: ToolCallRecord{Name: name, Allowed: started}, started: started, done: done}
		c.answered.Store(answered)
		return c
	}
	// A call whose binding reported its result (Call.Answering).
	reported := func(name string, bytes int, final bool) *toolCallState {
		c := call(name, true, false, 0)
		c.answering(bytes, final)
		return c
	}
	timeout := func(answer string, bytes int) *sandbox.Error {
		return &sandbox.Error{Code: sandbox.CodeTimeout, Message: plain, Awaiting: true, Answer: answer, AnswerBytes: bytes}
	}
	const code = "const s = await tools.big.get({});\nreturn await tools.slow.wait({ s })"
	for _, tc := range []struct {
		name  string
		calls []*toolCallState
		err   *sandbox.Error
		want  string
	}{
		{"the sandbox took it in", []*toolCallState{call("big.get", true, true, 30<<20+1)}, timeout("tool big.get", 30<<20),
			"; tool big.get (called at line 1) had answered, and its result, 30 MB of JSON, was being taken in (ask it for less, e.g. a page or a filter, if its input allows)"},
		{"the core had it", []*toolCallState{call("slow.wait", true, false, 0), call("big.get", true, false, 5<<20+1)}, timeout("", 0),
			"; tool big.get (called at line 1) had answered, and its result, 5 MB of JSON, was being taken in (ask it for less, e.g. a page or a filter, if its input allows); it was also waiting for 1 more tool call"},
		{"the binding converted it", []*toolCallState{call("slow.wait", true, false, 0), reported("big.get", 100<<20, true)}, timeout("", 0),
			"; tool big.get (called at line 1) had answered, and its result, 100 MB of JSON, was being taken in (ask it for less, e.g. a page or a filter, if its input allows); it was also waiting for 1 more tool call"},
		{"the binding was converting it", []*toolCallState{call("slow.wait", true, false, 0), reported("big.get", 12<<20, false)}, timeout("", 0),
			"; tool big.get (called at line 1) had answered, and its result was being converted to JSON, 12 MB of it so far (ask it for less, e.g. a page or a filter, if its input allows); it was also waiting for 1 more tool call"},
		{"a converted size over one so far", []*toolCallState{reported("big.get", 3<<20, false), reported("slow.wait", 2<<20, true)}, timeout("", 0),
			"; tool slow.wait (called at line 2) had answered, and its result, 2 MB of JSON, was being taken in (ask it for less, e.g. a page or a filter, if its input allows); it was also waiting for 1 more tool call"},
		{"a small conversion is no reason", []*toolCallState{reported("big.get", 1<<20-1, false)}, timeout("", 0),
			"; it was waiting for the result of tool big.get (called at line 1)"},
		{"a small answer", []*toolCallState{call("big.get", true, true, 11), call("slow.wait", true, false, 0)}, timeout("tool big.get", 10),
			"; it was waiting for the result of tool slow.wait (called at line 2)"},
		{"not awaiting", []*toolCallState{call("big.get", true, false, 30<<20+1)}, &sandbox.Error{Code: sandbox.CodeTimeout, Message: plain}, ""},
		{"a call never started is not in flight", []*toolCallState{call("slow.wait", false, false, 0)}, timeout("", 0), ""},
	} {
		r := &runState{s: &Session{cm: &CodeMode{}}, code: code, calls: tc.calls}
		if got := r.awaitedHint(tc.err); got != tc.want {
			t.Errorf("%s: got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestTimeoutNamesAnInputCheck: a run whose time went to checking a
// tool's input against its schema (an exponential anyOf) said only "did not
// finish within", or, with an interceptor that had allowed the call, that
// it awaited the interceptor's decision. It names the check and the tool,
// also when the check ran inside the call (a tool with Start).
func TestTimeoutNamesAnInputCheck(t *testing.T) {
	tools := []Tool{deepCheckTool}
	// Start checks the input inside the program's call, on the run's own
	// thread (the browser build's tools): the TIMEOUT came from the
	// program's next poll, and said only "did not finish within 2s".
	started := []Tool{tools[0]}
	started[0].Start = func(_ context.Context, _ json.RawMessage, _ Call, done func(json.RawMessage, error)) {
		done(json.RawMessage("1"), nil)
	}
	const code = "let o = {}; for (let i = 0; i < 40; i++) o = { c: o }\nreturn await tools.deep.check(o)"
	const want = "the program did not finish within 2s; it was checking the input of tool deep.check (called at line 2) against the tool's inputSchema"
	allow := func(context.Context, ToolCall) (Decision, error) { return Decision{Allowed: true}, nil }
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"no interceptor", Config{Timeout: 2 * time.Second, Tools: tools}},
		{"an interceptor that allowed it", Config{Timeout: 2 * time.Second, Tools: tools, OnToolCall: allow}},
		{"a tool with Start", Config{Timeout: 2 * time.Second, Tools: started}},
	} {
		res := exec(t, mustSession(t, newTestCodeMode(t, tc.cfg)), code, nil)
		if res.OK || res.Error.Code != ErrorCodeTimeout || res.Error.Message != want {
			t.Errorf("%s: got %+v\nwant TIMEOUT %q", tc.name, res.Error, want)
		}
	}
	// The program goes on into a built-in looping in C, which polls
	// nothing: the asset's loop check ends it 100 ms past the deadline
	// with a trap, whose TIMEOUT did not look at where the time went.
	const loop = "let o = {}; for (let i = 0; i < 40; i++) o = { c: o }\ntools.deep.check(o).catch(() => {}); return Array.prototype.indexOf.call({ length: 1e15 }, 1)"
	res := exec(t, mustSession(t, newTestCodeMode(t, Config{Timeout: 2 * time.Second, Tools: started})), loop, nil)
	if res.OK || res.Error.Code != ErrorCodeTimeout || res.Error.Message != want {
		t.Errorf("a built-in looping after the call: got %+v\nwant TIMEOUT %q", res.Error, want)
	}
}

// TestTimeoutNamesAResultCheck: a run whose time went to checking a
// tool's result against its outputSchema ended with the ToolError of the
// call ("the result cannot be checked against its outputSchema: the check
// against the schema was stopped: the run's time ran out"), which the
// program could catch and go on from, where an input check's ends the run
// with a TIMEOUT naming it. It is that TIMEOUT now: with Execute, with
// Start, with the tool's own CheckResult, and with a catch around the call.
func TestTimeoutNamesAResultCheck(t *testing.T) {
	deep := func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		o := "{}"
		for range 40 {
			o = `{"c": ` + o + `}`
		}
		return json.RawMessage(o), nil
	}
	tool := Tool{Name: "deep.result", OutputSchema: deepCheckTool.InputSchema, Execute: deep}
	started, checked := tool, tool
	started.Start = func(ctx context.Context, input json.RawMessage, call Call, done func(json.RawMessage, error)) {
		go func() { done(deep(ctx, input, call)) }()
	}
	checked.Execute = func(ctx context.Context, input json.RawMessage, call Call) (json.RawMessage, error) {
		out, _ := deep(ctx, input, call)
		if err := call.CheckResult(out); err != nil {
			return nil, err
		}
		return out, nil
	}
	const want = "the program did not finish within 1s; it was checking the result of tool deep.result (called at line 1) against the tool's outputSchema"
	for _, tc := range []struct {
		name string
		tool Tool
		code string
	}{
		{"Execute", tool, "return await tools.deep.result({})"},
		{"Start", started, "return await tools.deep.result({})"},
		{"CheckResult", checked, "return await tools.deep.result({})"},
		{"a catch around the call", tool, "try { return await tools.deep.result({}) } catch (e) { return 'caught: ' + e.message }"},
	} {
		res := exec(t, mustSession(t, newTestCodeMode(t, Config{Timeout: time.Second, Tools: []Tool{tc.tool}})), tc.code, nil)
		if res.OK || res.Error.Code != ErrorCodeTimeout || res.Error.Message != want {
			t.Errorf("%s: got %+v (result %s)\nwant TIMEOUT %q", tc.name, res.Error, res.Result, want)
		} else if len(res.ToolCalls) != 1 || res.ToolCalls[0].OK || !strings.HasPrefix(res.ToolCalls[0].Reason, "not finished: ") {
			t.Errorf("%s: the call's record: %+v; want it not finished", tc.name, res.ToolCalls)
		}
	}
}

// deepCheckTool's input schema is an exponential anyOf: checking 40 levels
// of { c } against it takes far longer than a run, so the check ends only
// when its stop says so.
var deepCheckTool = Tool{Name: "deep.check", InputSchema: json.RawMessage(`{"$defs": {"n": {"anyOf": [
		{"type": "object", "properties": {"c": {"$ref": "#/$defs/n"}}, "required": ["z"]},
		{"type": "object", "properties": {"c": {"$ref": "#/$defs/n"}}, "required": ["y"]},
		{"type": "object", "properties": {"c": {"$ref": "#/$defs/n"}}}]}},
		"type": "object", "properties": {"c": {"$ref": "#/$defs/n"}}}`),
	Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		return json.RawMessage("1"), nil
	}}

// TestTimeoutNamesASchemaPreparation: a run whose time went to preparing
// a tool's input schema (its first calls compile it, each going on where
// the last stopped) says so, naming the tool: it said it was checking the
// input, and a host could not tell why that one tool never answered. Its
// next run goes on with the preparation, or has finished it and checks.
func TestTimeoutNamesASchemaPreparation(t *testing.T) {
	alts := make([]string, 200000)
	for i := range alts {
		alts[i] = fmt.Sprintf(`{"const":%d}`, i)
	}
	schema := `{"type":"object","properties":{"v":{"anyOf":[` + strings.Join(alts, ",") + `]}}}`
	ran := func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		return json.RawMessage("1"), nil
	}
	// And with Start, which checks inside the program's call.
	start := func(_ context.Context, _ json.RawMessage, _ Call, done func(json.RawMessage, error)) {
		done(json.RawMessage("1"), nil)
	}
	const want = "the program did not finish within 300ms (config.timeout: 300, in milliseconds; 300 seconds would be 300000); it was preparing the input schema of tool wide.pick (called at line 1)"
	const checking = "the program did not finish within 300ms (config.timeout: 300, in milliseconds; 300 seconds would be 300000); it was checking the input of tool wide.pick (called at line 1) against the tool's inputSchema"
	for _, tool := range []Tool{{Name: "wide.pick", InputSchema: json.RawMessage(schema), Execute: ran}, {Name: "wide.pick", InputSchema: json.RawMessage(schema), Execute: ran, Start: start}} {
		s := mustSession(t, newTestCodeMode(t, Config{Timeout: 300 * time.Millisecond, Tools: []Tool{tool}}))
		// A run may end as the decode and walks end, before the compile
		// starts (checking); the compile takes the next ones, and once it
		// is done a run refuses the input (on a quiet machine the fourth
		// run did: CI).
		said := 0
		for run := 1; run <= 6; run++ {
			res := exec(t, s, "return await tools.wide.pick({ v: -1 })", nil)
			if !res.OK && res.Error.Message == want {
				said++
				continue
			}
			if !res.OK && res.Error.Name == "ValidationError" && strings.HasPrefix(res.Error.Message, "wide.pick: invalid input:") && strings.Contains(res.Error.Message, "/v: const: got -1, want 0\n") {
				break
			}
			if res.OK || res.Error.Code != ErrorCodeTimeout || res.Error.Message != checking {
				t.Errorf("Start %t, run %d: got %+v\nwant TIMEOUT %q", tool.Start != nil, run, res.Error, want)
			}
		}
		if said == 0 {
			t.Errorf("Start %t: no run said %q", tool.Start != nil, want)
		}
	}
}
