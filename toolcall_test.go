package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
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
		// Long enough for the call to reach its tool before the timeout on
		// a loaded machine: one that reaches it after is rightly "not
		// started" (200 ms left a slow goroutine too little).
		Timeout: time.Second,
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
	s := mustSession(t, cm)
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

// TestCallNeverStarted: a call made by a getter of the result (or of the
// thrown error), after the program finished, is never started (the sandbox
// starts no host call then): its record and the run's warning say so, once
// per call (the result is read once), and the warning does not tell the
// program to await what it could not await.
func TestCallNeverStarted(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	const late = "1 call was made by a getter or toJSON of the result (or of the thrown error) after the program finished, and not started (tool %s); call tools in the program, await them, and return plain values"
	for _, tc := range []struct {
		name, code string
		ok         bool
		records    []ToolCallRecord
		warns      []string
	}{
		{"a getter of the result", "return { get x() { return tools.orders.get({}) } }", true,
			[]ToolCallRecord{{Name: "orders.get", Reason: "not started: the run had ended"}},
			[]string{"result.x: a Promise, converted to null (await it)", fmt.Sprintf(late, "orders.get")}},
		{"a toJSON of the result", "return { toJSON() { tools.orders.get({}); return 1 } }", true,
			[]ToolCallRecord{{Name: "orders.get", Reason: "not started: the run had ended"}},
			[]string{fmt.Sprintf(late, "orders.get")}},
		{"a getter of the thrown error", "const e = new Error('x');\nObject.defineProperty(e, 'message', { get() { tools.orders.get({}); return 'm' } });\nthrow e", false,
			[]ToolCallRecord{{Name: "orders.get", Reason: "not started: the run had ended"}},
			[]string{fmt.Sprintf(late, "orders.get")}},
		{"beside a call left pending", "tools.payments.transfer({});\nreturn { get x() { tools.orders.get({}); return 1 } }", true,
			[]ToolCallRecord{{Name: "payments.transfer"}, {Name: "orders.get", Reason: "not started: the run had ended"}},
			[]string{"1 call was still pending when the program finished, and cancelled (tool payments.transfer); await every call", fmt.Sprintf(late, "orders.get")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, tc.code, nil)
			if res.OK != tc.ok || len(res.ToolCalls) != len(tc.records) {
				t.Fatalf("%s %+v %+v", res.Result, res.Error, res.ToolCalls)
			}
			for i, got := range res.ToolCalls {
				want := tc.records[i]
				want.DurationMs = got.DurationMs
				if want.Reason == "" {
					// A call the program made and did not await: whether
					// its pipeline began before the end is a race.
					want.Allowed, want.Reason, want.OK = got.Allowed, got.Reason, got.OK
				}
				if got != want {
					t.Errorf("record %+v, want %+v", got, want)
				}
			}
			var warns []string
			for _, l := range res.Logs {
				if l.Level == "warn" {
					warns = append(warns, l.Message)
				}
			}
			if !reflect.DeepEqual(warns, tc.warns) {
				t.Errorf("warnings %q, want %q", warns, tc.warns)
			}
		})
	}
}

// TestCallUnregisteredDuringTheRun: unregistering a tool takes it away from
// runs already in flight (a host revokes a tool): a call made after it,
// or approved by the interceptor after it, fails and the tool never runs.
// Before, a run kept calling the tools it started with (and in worker
// mode the page, which no longer had the tool, said "the run has ended").
func TestCallUnregisteredDuringTheRun(t *testing.T) {
	const gone = `tool "t.gone" was unregistered during this run; use tool_search to find tools`
	for _, tc := range []struct {
		name string
		// when: "tool" unregisters t.gone from t.first's execute, before
		// the program calls t.gone; "approval" from the interceptor
		// deciding on t.gone, which then allows it.
		when string
	}{
		{"after the run started, before the call", "tool"},
		{"while the interceptor decides", "approval"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var unregister func()
			ran := 0
			cm := newTestCodeMode(t, Config{
				OnToolCall: func(_ context.Context, c ToolCall) (Decision, error) {
					if tc.when == "approval" && c.Tool.Name == "t.gone" {
						unregister()
					}
					return Decision{Allowed: true}, nil
				},
			})
			if _, err := cm.RegisterTools(Tool{Name: "t.first", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
				if tc.when == "tool" {
					unregister()
				}
				return json.RawMessage(`1`), nil
			}}); err != nil {
				t.Fatal(err)
			}
			var err error
			unregister, err = cm.RegisterTools(Tool{Name: "t.gone", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
				ran++
				return json.RawMessage(`2`), nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			s := mustSession(t, cm)
			res := exec(t, s, "await tools.t.first({});\ntry { await tools.t.gone({}) } catch (e) { return e.name + ': ' + e.message }", nil)
			if !res.OK || string(res.Result) != strconv.Quote("ToolError: "+gone) {
				t.Fatalf("result %s %+v", res.Result, res.Error)
			}
			if ran != 0 {
				t.Errorf("the unregistered tool ran %d time(s)", ran)
			}
			want := ToolCallRecord{Name: "t.gone", Reason: "unregistered during the run"}
			if len(res.ToolCalls) != 2 {
				t.Fatalf("records %+v", res.ToolCalls)
			}
			if got := res.ToolCalls[1]; got.Name != want.Name || got.Allowed || got.OK || got.Reason != want.Reason {
				t.Errorf("record %+v, want %+v", got, want)
			}
			// The next run does not see it at all.
			if res := exec(t, s, "return Object.keys(tools.t)", nil); string(res.Result) != `["first"]` {
				t.Errorf("next run: %s %+v", res.Result, res.Error)
			}
		})
	}
}

// TestCallReplacedDuringTheRun: a tool unregistered and registered again
// under its name during a run (a tool source whose tool's description
// changed) is called by that run under its name, as worker mode's page
// did; unless the new one is hidden, or the interceptor approved the old
// one, which is all it approved.
func TestCallReplacedDuringTheRun(t *testing.T) {
	const gone = `tool "t.x" was unregistered during this run; use tool_search to find tools`
	for _, tc := range []struct {
		name      string
		approving bool // replaced while onToolCall decides on t.x
		hidden    bool // the new t.x is hidden by ToolFilter
		want      string
	}{
		{"replaced before the call", false, false, `"new"`},
		{"replaced by a hidden tool", false, true, strconv.Quote("ToolError: " + gone)},
		{"replaced while the interceptor decides", true, false, strconv.Quote("ToolError: " + gone)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cm *CodeMode
			var unregister func()
			ran := []string{}
			version := func(v string) Tool {
				return Tool{Name: "t.x", Description: v, Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
					ran = append(ran, v)
					return json.RawMessage(strconv.Quote(v)), nil
				}}
			}
			replace := func() {
				unregister()
				if _, err := cm.RegisterTools(version("new")); err != nil {
					t.Error(err)
				}
			}
			cm = newTestCodeMode(t, Config{
				ToolFilter: func(i ToolInfo) bool { return !(tc.hidden && i.Description == "new") },
				OnToolCall: func(_ context.Context, c ToolCall) (Decision, error) {
					if tc.approving && c.Tool.Name == "t.x" {
						replace()
					}
					return Decision{Allowed: true}, nil
				},
			})
			cm.RegisterTools(Tool{Name: "t.first", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
				if !tc.approving {
					replace()
				}
				return json.RawMessage(`1`), nil
			}})
			var err error
			if unregister, err = cm.RegisterTools(version("old")); err != nil {
				t.Fatal(err)
			}
			s := mustSession(t, cm)
			res := exec(t, s, "await tools.t.first({});\ntry { return await tools.t.x({}) } catch (e) { return e.name + ': ' + e.message }", nil)
			if string(res.Result) != tc.want {
				t.Errorf("result %s %+v, want %s", res.Result, res.Error, tc.want)
			}
			if want := map[bool][]string{true: {"new"}, false: {}}[tc.want == `"new"`]; !reflect.DeepEqual(ran, want) {
				t.Errorf("ran %v, want %v", ran, want)
			}
		})
	}
}

// TestToolOutputChecked: a Go tool's output that is not JSON fails its call
// ("returned invalid JSON", the record not ok) and never reaches the
// program; JSON of every kind, white space around it, passes.
func TestToolOutputChecked(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want string // the program's value; "" for the failed call
	}{
		{`{"a":[1,2.5e-3,"\u00e9",null,true]}`, `{"a":[1,0.0025,"é",null,true]}`},
		{" \n[ ] \t", `[]`},
		{`"x"`, `"x"`},
		{`-0.5E+2`, `-50`},
		{`{"a":1,}`, ""},
		{`[1 2]`, ""},
		{`{"a":1}{}`, ""},
		{`"unterminated`, ""},
		{"\"tab\tinside\"", ""},
		{`"\x"`, ""},
		{`01`, ""},
		{`NaN`, ""},
		{`undefined`, ""},
	} {
		out := tc.out
		bad := Tool{Name: "t.out", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			return json.RawMessage(out), nil
		}}
		_, s := newHostile(t, Config{}, bad)
		res := exec(t, s, `try { return await tools.t.out({}) } catch (e) { return e.name + ": " + e.message }`, nil)
		if !res.OK || len(res.ToolCalls) != 1 {
			t.Fatalf("%q: %+v", out, res)
		}
		rec := res.ToolCalls[0]
		if tc.want != "" {
			if string(res.Result) != tc.want || !rec.OK {
				t.Errorf("%q: got %s %+v, want %s", out, res.Result, rec, tc.want)
			}
			continue
		}
		if string(res.Result) != `"ToolError: tool t.out returned invalid JSON"` || rec.OK || rec.Reason != "tool t.out returned invalid JSON" {
			t.Errorf("%q: got %s %+v, want the call failed", out, res.Result, rec)
		}
	}
}

// TestToolOutputTooDeep: a Go tool's output nesting deeper than the
// sandbox's JSON.parse reads fails its call naming the tool, as a page
// tool's does, where the program got a RangeError from a JSON.parse it never
// called; brackets inside a string nest nothing.
func TestToolOutputTooDeep(t *testing.T) {
	nest := func(d int) string { return strings.Repeat("[", d) + strings.Repeat("]", d) }
	const deep = "tool t.out returned a value that nests more than 1,000 levels deep"
	for _, tc := range []struct {
		name, out, want string // want: the program's value; "" for the failed call
	}{
		{"1,000 levels", nest(1000), "1000"},
		{"1,001 levels", nest(1001), ""},
		{"5,000 levels", nest(5000), ""},
		{"objects", strings.Repeat(`{"a":`, 1500) + "1" + strings.Repeat("}", 1500), ""},
		{"brackets in a string", `"` + strings.Repeat("[", 5000) + `"`, "5000"},
		// Depth and grammar are checked on one pass: text too deep says
		// so wherever it stops being JSON, and other text is invalid.
		{"1,001 levels, then not JSON", nest(1001) + "x", ""},
		{"not JSON, then 1,001 levels", `[1 2,` + nest(1001) + `]`, ""},
		{"1,001 brackets never closed", strings.Repeat("[", 1001), "invalid"},
		{"not JSON, 1,000 levels", nest(1000) + "x", "invalid"},
		{"a number past float64's range", `[1e400]`, "1"},
		{"a lone surrogate", `"\ud800"`, "1"},
	} {
		out := tc.out
		tool := Tool{Name: "t.out", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			return json.RawMessage(out), nil
		}}
		_, s := newHostile(t, Config{}, tool)
		res := exec(t, s, `try {
			let v = await tools.t.out({}), d = 0
			if (typeof v === "string") return v.length
			while (Array.isArray(v) || (v && typeof v === "object")) { v = Array.isArray(v) ? v[0] : v.a; d++ }
			return d
		} catch (e) { return e.name + ": " + e.message }`, nil)
		if !res.OK || len(res.ToolCalls) != 1 {
			t.Fatalf("%s: %+v", tc.name, res)
		}
		rec := res.ToolCalls[0]
		if tc.want == "invalid" {
			const invalid = "tool t.out returned invalid JSON"
			if string(res.Result) != `"ToolError: `+invalid+`"` || rec.OK || rec.Reason != invalid {
				t.Errorf("%s: got %s %+v, want the call failed as invalid", tc.name, res.Result, rec)
			}
			continue
		}
		if tc.want != "" {
			if string(res.Result) != tc.want || !rec.OK {
				t.Errorf("%s: got %s %+v, want %s", tc.name, res.Result, rec, tc.want)
			}
			continue
		}
		if string(res.Result) != `"ToolError: `+deep+`"` || rec.OK || rec.Reason != deep {
			t.Errorf("%s: got %s %+v, want the call failed", tc.name, res.Result, rec)
		}
	}
}

// TestToolInputTooDeep: an input nesting past the 1,000 levels JSON may
// here fails its call as other refused inputs do: a rejection the program
// can catch (also with .catch), naming the tool and the limit, the call
// recorded as failed and reported to WithRefusedCalls, the tool not run.
// Before, the call threw the stringify's RangeError, which named neither
// the tool nor the input, and left no record. A getter of the input whose
// own JSON.stringify fails throws that error as it is; an unknown name
// stays an unknown tool; 1,000 levels pass.
func TestToolInputTooDeep(t *testing.T) {
	const nest = `const nest = (d) => { let v = {}; for (let i = 0; i < d; i++) v = { a: v }; return v };` + "\n"
	const msg = "tool_call t.x: its input nests more than 1,000 levels deep, the most a tool's input may; pass flatter data"
	const reason = "input too deep: it nests more than 1,000 levels"
	checkRefusedInput(t, nest, []refusedInputCase{
		{"awaited", `try { await tools.t.x(nest(1500)) } catch (e) { return (e instanceof RangeError) + " " + e.name + ": " + e.message }`, `"true RangeError: ` + msg + `"`, reason},
		{"caught by .catch", `return await tools.t.x(nest(1001)).catch((e) => e.message)`, `"` + msg + `"`, reason},
		{"tool_call", `try { await tool_call("t.x", nest(5000)) } catch (e) { return e.message }`, `"` + msg + `"`, reason},
		{"a long name", `try { await tool_call("t.x" + "y".repeat(200), nest(1500)) } catch (e) { return e.message.slice(0, 13) }`, `"unknown tool "`, "unknown tool"},
		{"a getter's own stringify", `try { await tools.t.x({ get a() { return JSON.stringify(nest(1500)) } }) } catch (e) { return e.message }`,
			`"JSON.stringify: the value nests more than 1,000 levels deep"`, ""},
		{"1,000 levels", `return await tools.t.x(nest(999))`, `1`, "ok"},
	}, "await tools.t.x(nest(2000))", "RangeError", msg, reason, "")
}

// TestToolInputCircular: an input that refers to itself fails its call as
// one nested too deeply does: a rejection naming the tool, a TypeError (as
// the stringify's own), the call recorded as failed and reported to
// WithRefusedCalls, the tool not run. Before, the call threw the
// stringify's "circular reference" synchronously, naming no tool, and left
// no record. A getter of the input whose own JSON.stringify meets a cycle
// throws that error as it is; an object twice, not inside itself, passes.
func TestToolInputCircular(t *testing.T) {
	const msg = "tool_call t.x: its input is circular (an object in it refers to itself), which JSON cannot write; pass data without cycles"
	const reason = "input circular: an object in it refers to itself"
	checkRefusedInput(t, "const o = { a: 1 }; o.self = o;\n", []refusedInputCase{
		{"awaited", `try { await tools.t.x(o) } catch (e) { return (e instanceof TypeError) + " " + e.name + ": " + e.message }`, `"true TypeError: ` + msg + `"`, reason},
		{"deep inside, through an array", `const p = { rows: [{ id: 1 }] }; p.rows[0].parent = p; return await tools.t.x(p).catch((e) => e.message)`, `"` + msg + `"`, reason},
		{"an array in itself, by tool_call", `const a = [1]; a.push(a); try { await tool_call("t.x", { a }) } catch (e) { return e.message }`, `"` + msg + `"`, reason},
		{"an unknown name stays an unknown tool", `try { await tool_call("t.nope", o) } catch (e) { return e.message.slice(0, 13) }`, `"unknown tool "`, "unknown tool"},
		{"a getter's own stringify", `try { await tools.t.x({ get a() { return JSON.stringify(o) } }) } catch (e) { return e.name + ": " + e.message }`,
			`"TypeError: circular reference"`, ""},
		{"an object twice, not inside itself", `const n = { n: 1 }; return await tools.t.x({ a: n, b: [n, n] })`, `1`, "ok"},
		// A Map or Set converts anew each time it is met: its cycle was a
		// bare synchronous "TypeError: circular reference", with no record.
		{"through a Map that holds itself", `const m = new Map(); m.set("m", m); try { await tools.t.x({ m }) } catch (e) { return (e instanceof TypeError) + " " + e.message }`, `"true ` + msg + `"`, reason},
		{"through a Set, deep inside", `const s = new Set(); s.add({ list: [s] }); return await tools.t.x({ s }).catch((e) => e.message)`, `"` + msg + `"`, reason},
		{"a Map twice, not inside itself", `const m = new Map([["a", 1]]); return await tools.t.x({ a: m, b: [m, { m }] })`, `1`, "ok"},
	}, "await tools.t.x(o)", "TypeError", msg, reason, "")
}

// TestUnawaitedRefusalReported: a call refused as it is made (here its
// input is circular), which the program never awaits, is reported as the
// unhandled rejection it is even when the program awaits only a timer of
// 0 ms before it returns. Its rejection came from a goroutine of its own,
// which raced the timer: 31 of 300 such runs reported the call as still
// pending instead, and TestToolInputCircular's row (a 10 ms timer) failed
// on a loaded machine.
func TestUnawaitedRefusalReported(t *testing.T) {
	echo := Tool{Name: "t.x", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		return json.RawMessage("1"), nil
	}}
	_, s := newHostile(t, Config{}, echo)
	const want = "unhandled rejection of a call that was not awaited: tool t.x: tool_call t.x: its input is circular"
	for i := range 100 {
		res := exec(t, s, "const o = { a: 1 }; o.self = o;\ntools.t.x(o); await new Promise((r) => setTimeout(r, 0)); return 1", nil)
		var logs []string
		for _, l := range res.Logs {
			logs = append(logs, l.Message)
		}
		if !res.OK || !slices.ContainsFunc(logs, func(m string) bool { return strings.HasPrefix(m, want) }) {
			t.Fatalf("run %d: %s %+v, logs %q: want %q", i, res.Result, res.Error, logs, want)
		}
	}
}

// refusedInputCase is a program (after a common prelude of code) and what
// it returns; record is its first call's record: its reason, "ok", or ""
// for none.
// TestToolExtraArguments: a call given arguments after its input, which
// it would drop (tools.t.x(input, { limit: 1 }), tool_call's third), is
// refused as other misused calls are: a rejection naming the tool and how
// to pass them, the call recorded as failed and reported to
// WithRefusedCalls with its input, the tool not run. Before, the options
// were dropped silently and the tool ran without them. An array method's
// index and array (inputs.map(tools.t.x)) pass, and an input that is no
// object (positional arguments) is left to the tool's schema.
func TestToolExtraArguments(t *testing.T) {
	const msg1 = `tool_call t.x: a tool takes one input, and this call passed 1 more argument after it, which it would drop: put everything in the one input object, as in tool_call("t.x", { ...input, ...options })`
	const reason = "extra arguments: a tool takes one input"
	checkRefusedInput(t, "const input = { q: 1 };\n", []refusedInputCase{
		{"tools", `try { await tools.t.x(input, { limit: 1 }) } catch (e) { return (e instanceof TypeError) + " " + e.name + ": " + e.message }`, strconv.Quote("true TypeError: " + msg1), reason},
		{"tool_call", `return await tool_call("t.x", input, { limit: 1 }).catch((e) => e.message)`, strconv.Quote(msg1), reason},
		{"two more", `return await tool_call("t.x", input, 1, 2).catch((e) => e.message.slice(0, 56))`, `"tool_call t.x: a tool takes one input, and this call pas"`, reason},
		{"undefined after the input", `return await tools.t.x(input, undefined).catch((e) => e.message.slice(0, 13))`, `"tool_call t.x"`, reason},
		{"an unknown tool stays an unknown tool", `try { await tool_call("t.nope", input, 1) } catch (e) { return e.message.slice(0, 13) }`, `"unknown tool "`, "unknown tool"},
		{"one input", `return await tools.t.x(input)`, `1`, "ok"},
		{"no input", `return await tool_call("t.x")`, `1`, "ok"},
		{"positional arguments are the schema's to refuse", `return await tools.t.x("a", "b")`, `1`, "ok"},
		{"an array method's callback", `return (await Promise.all([input].map(tools.t.x)))`, `[1]`, "ok"},
	}, "await tools.t.x(input, { limit: 1 })", "TypeError", msg1, reason, `{"q":1}`)
}

type refusedInputCase struct{ name, code, want, record string }

// checkRefusedInput runs the cases against a tool t.x that counts its
// runs, then uncaught (on line 2, after prelude): the run fails with the
// call's error (errName, msg), and the observer of refused calls hears it,
// shown the input (none: "").
func checkRefusedInput(t *testing.T, prelude string, cases []refusedInputCase, uncaught, errName, msg, reason, input string) {
	t.Helper()
	ran := 0
	echo := Tool{Name: "t.x", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		ran++
		return json.RawMessage("1"), nil
	}}
	_, s := newHostile(t, Config{}, echo)
	for _, tc := range cases {
		ran = 0
		res := exec(t, s, prelude+tc.code, nil)
		if !res.OK || string(res.Result) != tc.want {
			t.Errorf("%s: got %s %+v, want %s", tc.name, res.Result, res.Error, tc.want)
			continue
		}
		switch {
		case tc.record == "":
			if len(res.ToolCalls) != 0 || ran != 0 {
				t.Errorf("%s: records %+v, ran %d: want none", tc.name, res.ToolCalls, ran)
			}
		case tc.record == "ok":
			if len(res.ToolCalls) != 1 || !res.ToolCalls[0].OK || ran != 1 {
				t.Errorf("%s: records %+v, ran %d", tc.name, res.ToolCalls, ran)
			}
		default:
			if len(res.ToolCalls) != 1 || res.ToolCalls[0].OK || res.ToolCalls[0].Allowed || res.ToolCalls[0].Reason != tc.record || ran != 0 {
				t.Errorf("%s: records %+v, ran %d: want one failed call, %q", tc.name, res.ToolCalls, ran, tc.record)
			}
		}
	}
	var refused []RefusedCall
	ctx := WithRefusedCalls(context.Background(), func(c RefusedCall) { refused = append(refused, c) })
	res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: prelude + uncaught}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Error == nil || res.Error.Name != errName || res.Error.Message != msg || res.Error.Line != 2 {
		t.Errorf("uncaught: %+v", res.Error)
	}
	if len(refused) != 1 || refused[0].Record.Name != "t.x" || refused[0].Record.Reason != reason || string(refused[0].Input) != input {
		t.Errorf("refused calls heard: %+v", refused)
	}
	// Never awaited, it is reported as any other call's rejection: the
	// prelude's own promise was not one the host tracked.
	res = exec(t, s, prelude+strings.TrimPrefix(uncaught, "await ")+"; await new Promise((r) => setTimeout(r, 10)); return 1", nil)
	var warned []string
	for _, l := range res.Logs {
		warned = append(warned, l.Message)
	}
	if want := "unhandled rejection of a call that was not awaited: tool t.x: " + msg; !res.OK || !slices.Contains(warned, want) {
		t.Errorf("not awaited: %s %+v, logs %q: want %q", res.Result, res.Error, warned, want)
	}
}

// TestThrownNameCutByOne: a thrown Error's name one character past the
// bound reads "… [1 more character]" (describeError's marker, in
// JavaScript; jsoncut.MoreChars writes the Go cuts'). It said "1 more
// characters".
func TestThrownNameCutByOne(t *testing.T) {
	_, s := newHostile(t, Config{})
	n := sandbox.MaxNameChars
	for more, marker := range map[int]string{1: "… [1 more character]", 2: "… [2 more characters]"} {
		res := exec(t, s, fmt.Sprintf(`const e = new Error("m"); e.name = "N".repeat(%d); throw e`, n+more), nil)
		if want := strings.Repeat("N", n) + marker; res.OK || res.Error.Name != want {
			t.Errorf("%d more: got %+v, want the name %q", more, res.Error, want)
		}
	}
}

// TestLongNameCut: a name past any valid tool's length is unknown, and its
// record and error say how long it was. The prelude cuts it to 129
// characters before it leaves the sandbox; the count said "… [1 more
// characters]" for any length, counting from that cut. One character
// more is "1 more character" (it was "1 more characters").
func TestLongNameCut(t *testing.T) {
	_, s := newHostile(t, Config{}, echoTool("t.echo", nil))
	x128 := strings.Repeat("x", 128)
	for _, tc := range []struct {
		code, shown string
	}{
		{`'x'.repeat(100000)`, x128 + "… [99872 more characters]"},
		{`'x'.repeat(130)`, x128 + "… [2 more characters]"},
		{`'x'.repeat(129)`, x128 + "… [1 more character]"},
		{`'x'.repeat(128)`, x128},
		{`'é'.repeat(200)`, strings.Repeat("é", 128) + "… [72 more characters]"},
	} {
		res := exec(t, s, `try { await tool_call(`+tc.code+`, {}) } catch (e) { return e.message }`, nil)
		want, _ := json.Marshal(`unknown tool "` + tc.shown + `"; use tool_search to find tools`)
		if string(res.Result) != string(want) {
			t.Errorf("%s: error %s, want %s", tc.code, res.Result, want)
		}
		if len(res.ToolCalls) != 1 || res.ToolCalls[0].Name != tc.shown {
			t.Errorf("%s: records %+v, want the name %q", tc.code, res.ToolCalls, tc.shown)
		}
	}
}
