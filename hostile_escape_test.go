package codemode

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"
)

// More hostile programs (issue 9, "write the variants you can think of"):
// host calls from code the host runs after the program (result conversion,
// error description), inputs that change after the call, names that are not
// strings, work scheduled past the run's end, and one run reaching another's
// data or builtins.

// TestHostileReentrantHostCalls: a getter that the host runs while it
// converts the result or describes an error may call host functions. On
// wazero that re-entered the export already in a call (QTS_Call inside
// QTS_Call) on its live stack, and a one-line program killed the process
// (SIGSEGV, "split stack overflow") or crashed the sandbox.
func TestHostileReentrantHostCalls(t *testing.T) {
	_, s := newHostile(t, Config{Timeout: 30 * time.Second}, echoTool("t.echo", nil))
	nest := func(n int) string {
		inner := "console.log('deep')"
		for i := 0; i < n; i++ {
			inner = "tools.t.echo({ get x() { " + inner + "; return 1 } })"
		}
		return "await " + inner + "; return 1"
	}
	for _, tc := range []struct{ name, code, want, code2 string }{
		{"console.log in a result getter", `return { get x() { console.log('x'); return 1 } }`, `{"x":1}`, ""},
		{"a tool call in a result getter", `return { get x() { tools.t.echo({}); return 1 } }`, `{"x":1}`, ""},
		{"tool_search in a result getter", `return { get x() { tool_search({ query: 'echo' }); return 1 } }`, `{"x":1}`, ""},
		{"a getter in a Map of the result", `return new Map([[1, { get x() { console.log('x'); return 1 } }]])`, `[[1,{"x":1}]]`, ""},
		{"console.log in an error's name getter", `const e = new Error('x'); Object.defineProperty(e, 'name', { get() { console.log('hi'); return 'N' } }); throw e`, "", "RUNTIME"},
		{"a tool call in an error's message getter", `const e = new Error('x'); Object.defineProperty(e, 'message', { get() { tools.t.echo({}); return 'm' } }); throw e`, "", "RUNTIME"},
		{"host calls nested 7 deep in input getters", nest(7), `1`, ""},
		{"host calls nested 8 deep in input getters", nest(8), "", "RUNTIME"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, tc.code, nil)
			if tc.want != "" {
				if !res.OK || string(res.Result) != tc.want {
					t.Errorf("got ok=%v %s %+v, want %s", res.OK, res.Result, res.Error, tc.want)
				}
			} else if res.OK || res.Error.Code != tc.code2 {
				t.Errorf("got ok=%v %s %+v, want %s", res.OK, res.Result, res.Error, tc.code2)
			}
			if !res.OK && (strings.Contains(res.Error.Message, "crash") || strings.Contains(res.Error.Message, "trap") || strings.Contains(res.Error.Message, "panicked")) {
				t.Errorf("the sandbox crashed: %+v", res.Error)
			}
			if res := exec(t, s, "return 1", nil); !res.OK {
				t.Errorf("the next run failed: %+v", res.Error)
			}
		})
	}
}

// TestHostileEscapeAttempts: what the interceptor approves is what the
// tool gets; names must be strings; nothing scheduled runs after the end;
// no run sees another's globals, builtins or data.
func TestHostileEscapeAttempts(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	record := func(s string) {
		mu.Lock()
		seen = append(seen, s)
		mu.Unlock()
	}
	taken := func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := seen
		seen = nil
		return out
	}
	release := make(chan struct{})
	waiting := make(chan struct{}, 1) // t.wait was called
	// The timeout is a safety net: the console flood below (100 MB of
	// console.log text) took 8-11 s on a loaded 2-core machine, and over
	// 30 s under -race (TIMEOUT).
	cfg := Config{Timeout: 2 * time.Minute, OnToolCall: func(ctx context.Context, c ToolCall) (Decision, error) {
		record("interceptor " + c.Tool.Name + " " + string(c.Input))
		// Long enough for the program to change what it passed.
		time.Sleep(20 * time.Millisecond)
		return Decision{Allowed: true}, nil
	}}
	cm, s := newHostile(t, cfg, Tool{Name: "t.echo", Execute: func(ctx context.Context, in json.RawMessage, _ Call) (json.RawMessage, error) {
		record("tool t.echo " + string(in))
		return in, nil
	}}, Tool{Name: "t.wait", Execute: func(ctx context.Context, in json.RawMessage, _ Call) (json.RawMessage, error) {
		waiting <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
		}
		return in, nil
	}})
	for _, tc := range []struct{ name, code, want string }{
		{"input changed after the call", `const o = { amount: 1 }; const p = tools.t.echo(o); o.amount = 1e9; return await p`, `{"amount":1}`},
		{"a getter in the input is read once", `let n = 0; return await tools.t.echo({ get amount() { return ++n } })`, `{"amount":1}`},
		{"JSON.stringify replaced", `JSON.stringify = () => '{"amount":1e9}'; return await tools.t.echo({ amount: 1 })`, `{"amount":1}`},
		{"a name that only converts to a string", `try { await tool_call({ toString() { return 't.echo' } }, { a: 1 }) } catch (e) { return [e instanceof TypeError, e.name + ': ' + e.message] }`, `[true,"TypeError: tool_call: the tool name must be a string: tool_call(\"ns.tool\", input), the name first and the input second, not one object { name, arguments }"]`},
		{"one object with the name and the arguments", `try { await tool_call({ name: 't.echo', arguments: { a: 1 } }) } catch (e) { return e.name + ': ' + e.message }`, `"TypeError: tool_call: the tool name must be a string: tool_call(\"ns.tool\", input), the name first and the input second, not one object { name, arguments }"`},
		{"null as the name", `try { await tool_call(null, {}) } catch (e) { return e.name + ': ' + e.message }`, `"TypeError: tool_call: the tool name must be a string: tool_call(\"ns.tool\", input), the name first and the input second, not one object { name, arguments }"`},
		{"the empty name", `try { await tool_call('', {}) } catch (e) { return e.name + ': ' + e.message.slice(0, 15) }`, `"ToolError: unknown tool \"\""`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, tc.code, nil)
			if !res.OK || string(res.Result) != tc.want {
				t.Fatalf("got ok=%v %s %+v, want %s", res.OK, res.Result, res.Error, tc.want)
			}
			// The interceptor approved exactly what the tool got.
			got := taken()
			var icIn, toolIn []string
			for _, g := range got {
				if in, ok := strings.CutPrefix(g, "interceptor t.echo "); ok {
					icIn = append(icIn, in)
				} else if in, ok := strings.CutPrefix(g, "tool t.echo "); ok {
					toolIn = append(toolIn, in)
				}
			}
			if strings.Join(icIn, "|") != strings.Join(toolIn, "|") {
				t.Errorf("the interceptor saw %q, the tool got %q", icIn, toolIn)
			}
		})
	}

	t.Run("a tool call from a getter of the result or the error starts nothing", func(t *testing.T) {
		for _, tc := range []struct{ code, want string }{
			{`return { get x() { tools.t.echo({ late: 'result getter' }); return 1 } }`, `{"x":1}`},
			{`const e = new Error('x'); Object.defineProperty(e, 'message', { get() { tools.t.echo({ late: 'error getter' }); return 'm' } }); throw e`, ""},
		} {
			res := exec(t, s, tc.code, nil)
			if tc.want != "" && (!res.OK || string(res.Result) != tc.want) || tc.want == "" && (res.OK || res.Error.Message != "m") {
				t.Fatalf("got %s %+v", res.Result, res.Error)
			}
			time.Sleep(50 * time.Millisecond)
			if got := taken(); len(got) > 0 {
				t.Errorf("started after the program returned: %q", got)
			}
			if len(res.ToolCalls) != 1 || res.ToolCalls[0].OK || res.ToolCalls[0].Allowed {
				t.Errorf("the call's record: %+v", res.ToolCalls)
			}
		}
	})

	t.Run("nothing scheduled runs after the end", func(t *testing.T) {
		for _, code := range []string{
			`setTimeout(() => tools.t.echo({ late: 'timer' }), 1); return 1`,
			`setInterval(() => tools.t.echo({ late: 'interval' }), 1); return 1`,
			// (No finalizer: FinalizationRegistry is withheld, sandbox
			// TestNoBufferChangesUnderTypedArrays.)
			`Promise.resolve().then(() => new Promise((r) => setTimeout(r, 5))).then(() => tools.t.echo({ late: 'job' })); return 1`,
		} {
			res := exec(t, s, code, nil)
			if !res.OK {
				t.Errorf("%s: %+v", code, res.Error)
			}
			time.Sleep(50 * time.Millisecond)
			if got := taken(); len(got) > 0 {
				t.Errorf("%s: started after the run ended: %q", code, got)
			}
		}
	})

	t.Run("no run sees another's globals, builtins or data", func(t *testing.T) {
		res := exec(t, s, `Object.prototype.polluted = 1; Array.prototype.map = () => 'evil'; JSON.parse = () => 'evil'; Promise.prototype.then = () => 'evil'; globalThis.secret = 'A'; return 1`, nil)
		if !res.OK {
			t.Fatalf("polluter: %+v", res.Error)
		}
		check := `return [typeof ({}).polluted, [1].map((x) => x + 1), JSON.parse('{"a":1}'), typeof globalThis.secret, await tools.t.echo({ ok: 1 })]`
		want := `["undefined",[2],{"a":1},"undefined",{"ok":1}]`
		other := mustSession(t, cm)
		for name, sess := range map[string]*Session{"the same session": s, "another session": other} {
			if res := exec(t, sess, check, nil); !res.OK || string(res.Result) != want {
				t.Errorf("%s: got %s %+v, want %s", name, res.Result, res.Error, want)
			}
		}
		// Two runs at once: one holds a secret while it awaits a tool; the
		// other cannot see it, nor its tool calls in its own record.
		done := make(chan *ExecuteResult, 1)
		go func() {
			done <- exec(t, s, `globalThis.secret = 'A'; const v = await tools.t.wait({ mine: 'A' }); return [globalThis.secret, v]`, "A")
		}()
		// B runs while A awaits, its secret set.
		<-waiting
		res = exec(t, s, `return [typeof globalThis.secret, typeof secret]`, "B")
		close(release)
		if !res.OK || string(res.Result) != `["undefined","undefined"]` || len(res.ToolCalls) != 0 {
			t.Errorf("run B sees run A: %s %+v %+v", res.Result, res.Error, res.ToolCalls)
		}
		if a := <-done; !a.OK || string(a.Result) != `["A",{"mine":"A"}]` {
			t.Errorf("run A: %s %+v", a.Result, a.Error)
		}
		taken()
	})

	t.Run("a flood of console output is bounded", func(t *testing.T) {
		res := exec(t, s, `for (let i = 0; i < 20000; i++) console.log('<'.repeat(5000)); return 1`, nil)
		if !res.OK {
			t.Fatalf("%+v", res.Error)
		}
		chars := 0
		for _, l := range res.Logs {
			chars += len(l.Message)
		}
		if len(res.Logs) > maxLogEntries+1 || chars > (maxLogEntries+1)*maxLogEntryChars {
			t.Errorf("%d log entries, %d characters", len(res.Logs), chars)
		}
	})
}

// TestHostileConversionsCallNoTool: a tool named toString or valueOf is its
// namespace's own key, and converting the namespace to a string or a number
// called it (a tool call, through onToolCall, made by a program that only
// logged `${tools}`). Conversions read as a namespace's without such a
// tool; an explicit call still calls it.
func TestHostileConversionsCallNoTool(t *testing.T) {
	_, s := newHostile(t, Config{}, echoTool("toString", nil), echoTool("valueOf", nil), echoTool("ns.toString", nil), echoTool("ns.valueOf", nil), echoTool("plain.x", nil), echoTool("f", nil), echoTool("f.toString", nil))
	try := func(expr string) string {
		return `try { return ` + expr + ` } catch (e) { return e.name + ': ' + e.message }`
	}
	plain := `"TypeError: toPrimitive"` // as String(tools.plain) reads
	for _, tc := range []struct{ name, code, want string }{
		{"a namespace without such tools", try(`String(tools.plain)`), plain},
		{"String(tools)", try(`String(tools)`), plain},
		{"a template", try("`${tools}`"), plain},
		{"a concatenation", try(`tools + ''`), plain},
		{"a number", try(`+tools`), plain},
		{"a comparison", try(`tools == 1`), plain},
		{"a nested namespace", try(`String(tools.ns) + (tools.ns * 1)`), plain},
		{"a tool that is a namespace reads as its source", `return String(tools.f) === Function.prototype.toString.call(tools.f)`, `true`},
		{"an unknown toString called elsewhere in the program", try(`String(tools.nope); tools.nope.toString()`), plain},
		{"explicit calls still call the tools", `return [await tools.toString({ a: 1 }), await tools.valueOf({ b: 2 }), await tools.ns.toString({ c: 3 }), await tools.f.toString({ d: 4 })]`, `[{"a":1},{"b":2},{"c":3},{"d":4}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, tc.code, nil)
			if !res.OK || string(res.Result) != tc.want {
				t.Fatalf("got ok=%v %s %+v, want %s", res.OK, res.Result, res.Error, tc.want)
			}
			if calls := len(res.ToolCalls); calls != 4*strings.Count(tc.name, "explicit") {
				t.Errorf("%d tool calls: %+v", calls, res.ToolCalls)
			}
		})
	}
}
