package codemode

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const secret = "SECRET-CONTEXT-7f3a"

// TestEscapes is a table of things model code might try. Each program
// returns a value that must equal want; the run's whole output must never
// contain the caller's context.
func TestEscapes(t *testing.T) {
	var intercepted atomic.Int32
	var lastToolContext atomic.Value
	cm := newTestCodeMode(t, Config{
		MemoryLimitMB: 32,
		OnToolCall: func(ctx context.Context, c ToolCall) (Decision, error) {
			intercepted.Add(1)
			if c.Tool.Name == "payments.transfer" {
				return Decision{Allowed: false, Reason: "no"}, nil
			}
			return Decision{Allowed: true}, nil
		},
		Tools: []Tool{
			{Name: "ctx.peek", Execute: func(_ context.Context, in json.RawMessage, c Call) (json.RawMessage, error) {
				lastToolContext.Store(c.Context)
				return json.RawMessage(`"peeked"`), nil
			}},
			{Name: "huge.out", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
				return json.Marshal(strings.Repeat("z", 40<<20))
			}},
			{Name: "size.of", Execute: func(_ context.Context, in json.RawMessage, _ Call) (json.RawMessage, error) {
				return json.Marshal(len(in))
			}},
			{Name: "__proto__", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
				return json.RawMessage(`"proto tool"`), nil
			}},
		},
	})
	s := mustSession(t, cm)
	for _, tc := range []struct{ name, code, want string }{
		{"no host globals", `return [typeof process, typeof window, typeof document, typeof WebAssembly, typeof __cm_call, typeof __cm_log, typeof __cm_search, typeof __cm_timer, typeof __cm_clear,
			...["require", "fetch", "XMLHttpRequest"].map((k) => { try { globalThis[k]("x"); return "reached" } catch (e) { return e.message.includes("is not available in this sandbox") } })]`,
			`["undefined","undefined","undefined","undefined","undefined","undefined","undefined","undefined","undefined",true,true,true]`},
		{"Function constructor reaches only the sandbox global", `const g = Function("return this")(); return [typeof g.process, typeof g.tools, Object.getOwnPropertyNames(g).filter(n => n.startsWith("__")).length]`,
			`["undefined","object",0]`},
		{"async constructor", `return typeof (await (async () => {}).constructor("return typeof process")())`, `"string"`},
		{"context is nowhere in globals", `const seen = new Set(); const dig = (o, d) => { if (d > 4 || o === null || (typeof o !== "object" && typeof o !== "function") || seen.has(o)) return ""; seen.add(o); let s = ""; for (const k of Reflect.ownKeys(o)) { let v; try { v = o[k] } catch (e) { continue } s += String(k) + (typeof v === "string" ? v : "") + dig(v, d + 1) } return s }; return dig(globalThis, 0).includes("SECRET")`,
			`false`},
		{"tool sources reveal nothing", `return [String(tools.orders.get), String(tool_call)].join().includes("SECRET")`, `false`},
		// Passed after the input, it is refused (a tool takes one input).
		{"context cannot be forged", `await tool_call("ctx.peek", {context: "forged"}); return await tool_call("ctx.peek", {}, {context: "forged"}).catch((e) => e.name)`, `"TypeError"`},
		{"hidden tool by every route", `const r = []; try { await tool_call("admin.wipe", {}) } catch (e) { r.push(e.message.startsWith("unknown tool")) } r.push(typeof tools.admin, (await tool_search({query: "admin wipe"})).some(t => t.name.startsWith("admin"))); return r`,
			`[true,"undefined",false]`},
		{"hidden tool by a look-alike name", `const r = []; for (const n of ["ADMIN.wipe", "admin.Wipe", "admin\u200b.wipe", "admin.wipe ", " admin.wipe", "admin.wipe\u0000", "admin..wipe", "admin/wipe"]) { try { await tool_call(n, {}); r.push("ran " + n) } catch (e) { r.push(e.message.startsWith("unknown tool")) } } return r.every((x) => x === true) || r`,
			`true`},
		{"hidden namespace listed or searched inside", `return [await tool_search({ namespace: "admin" }), await tool_search({ query: "", namespace: "admin" }), await tool_search({ query: "wipe", namespace: "admin" }), await tool_search("admin.wipe")]`,
			`[[],[],[],[]]`},
		{"an error's constructor chain reaches only the sandbox", `try { await tool_call("admin.wipe", {}) } catch (e) { return [e.constructor.constructor("return typeof process + typeof __cm_call")(), Object.getOwnPropertyNames(e).sort()] }`,
			`["undefinedundefined",["message","name","stack"]]`},
		{"eval of import() loads nothing", `try { await eval("import('data:text/javascript,export default 1')"); return "loaded" } catch (e) { return e.name }`, `"ReferenceError"`},
		{"new Function's import() loads nothing", `try { await new Function("return import('data:text/javascript,export default 1')")(); return "loaded" } catch (e) { return e.name }`, `"ReferenceError"`},
		{"redefining the API does not skip the interceptor", `try { tools.payments.transfer = async () => "bypassed" } catch (e) {} try { globalThis.tool_call = async () => "bypassed" } catch (e) {} try { return await tools.payments.transfer({}) } catch (e) { return e.message }`,
			`"call to payments.transfer denied: no"`},
		{"tools is frozen", `"use strict"; try { tools.orders.evil = 1; return "mutated" } catch (e) { return e.name }`, `"TypeError"`},
		{"prototype pollution stays in the run", `Object.prototype.allowed = true; Object.prototype.input = {hacked: 1}; try { await tools.payments.transfer({}) } catch (e) { return e.message }`,
			`"call to payments.transfer denied: no"`},
		{"__proto__ tool is a plain property", `return [await tools["__proto__"](), Object.getPrototypeOf(tools)]`, `["proto tool",null]`},
		{"huge input reaches the tool intact", `return await tools.size.of({s: "x".repeat(5e6)})`, `5000008`},
		{"huge output fails cleanly", `try { await tools.huge.out({}); return "fit" } catch (e) { return "caught" }`, ``},
		{"non-JSON input values", `return (await tools.orders.get({n: 5n, f() {}, u: undefined, d: new Date(0)})).input`, `{"n":"5","d":"1970-01-01T00:00:00.000Z"}`},
		{"cyclic input throws at the call", `const a = {}; a.a = a; try { await tools.orders.get(a) } catch (e) { return e.name }`, `"TypeError"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: tc.code}, secret)
			if err != nil {
				t.Fatal(err)
			}
			all, _ := json.Marshal(res)
			if strings.Contains(string(all), secret) {
				t.Errorf("the context leaked into the result: %s", all)
			}
			if tc.want == "" { // only survival matters
				if res.OK && string(res.Result) != `"caught"` && string(res.Result) != `"fit"` {
					t.Errorf("got %s", all)
				}
				if next := exec(t, s, "return 1", nil); !next.OK {
					t.Errorf("the next run failed: %+v", next.Error)
				}
				return
			}
			if !res.OK || string(res.Result) != tc.want {
				t.Errorf("got %s %+v, want %s", res.Result, res.Error, tc.want)
			}
		})
	}
	if got := lastToolContext.Load(); got != secret {
		t.Errorf("the tool saw context %v, want the caller's", got)
	}
	if intercepted.Load() == 0 {
		t.Error("the interceptor never ran")
	}
}

// TestNothingOutlivesARun checks that a run's functions, globals and late
// tool answers are gone when the next run starts.
func TestNothingOutlivesARun(t *testing.T) {
	release, started := make(chan struct{}), make(chan struct{})
	var cancelled atomic.Bool
	cm := newTestCodeMode(t, Config{Tools: []Tool{{Name: "slow.ready", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		<-started
		return nil, nil
	}}, {Name: "slow.call", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
		close(started)
		select {
		case <-ctx.Done():
			cancelled.Store(true)
		case <-release:
		}
		return json.RawMessage(`"late"`), nil
	}}}})
	s := mustSession(t, cm)
	res := exec(t, s, `globalThis.kept = tools.slow.call; tools.slow.call({}); await tools.slow.ready({}); return "done"`, "A")
	if !res.OK || len(res.Logs) == 0 || !strings.Contains(res.Logs[0].Message, "still pending when the program finished, and cancelled (tool slow.call)") {
		t.Fatalf("first run: %+v logs %v", res.Error, res.Logs)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !cancelled.Load() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if !cancelled.Load() {
		t.Error("the pending call's context was not cancelled when the run ended")
	}
	close(release)
	res = exec(t, s, `return [typeof kept, typeof globalThis.kept]`, "B")
	if string(res.Result) != `["undefined","undefined"]` {
		t.Errorf("second run sees the first: %s", res.Result)
	}
}

// TestLazyAPIIsPerRun: the sandbox API is built on first use (prelude/api.js)
// from what the prelude captured before the program ran, so a program that
// replaces the intrinsics first still gets a working, guarded API, and
// nothing one run sets on the API, its globals or JSON.parse is seen by the
// next run.
func TestLazyAPIIsPerRun(t *testing.T) {
	cm := newTestCodeMode(t, Config{OnToolCall: func(ctx context.Context, c ToolCall) (Decision, error) {
		return Decision{Allowed: c.Tool.Name != "payments.transfer", Reason: "no"}, nil
	}})
	s := mustSession(t, cm)
	deep := `const deep = "[".repeat(3000) + "]".repeat(3000);`
	for _, tc := range []struct{ name, first, next, want string }{
		{"intrinsics replaced before first use",
			`globalThis.eval = null; globalThis.globalThis = {};
			 const got = (await tools.orders.get({ n: 1 })).input; let denied; try { await tool_call("payments.transfer", {}) } catch (e) { denied = e.message }
			 return [got, denied, typeof (await tool_search("orders"))]`,
			``, `[{"n":1},"call to payments.transfer denied: no","object"]`},
		{"JSON.parse replaced before first use", `JSON.parse = () => "forged"; return (await tools.orders.get({ n: 2 })).input`,
			``, `{"n":2}`},
		{"marks on the API stay in their run",
			`tool_call.mark = 1; tool_search.mark = 1; JSON.parse.mark = 1; console.mark = 1; globalThis.mark = 1; await tools.orders.get({}); return 1`,
			`return [typeof tool_call.mark, typeof tool_search.mark, typeof JSON.parse.mark, typeof console.mark, typeof mark]`,
			`["undefined","undefined","undefined","undefined","undefined"]`},
		{"a replaced JSON.parse stays in its run", `JSON.parse = (t) => "forged"; return JSON.parse("1")`,
			deep + ` try { JSON.parse(deep); return "parsed" } catch (e) { return [e.name, (await tools.orders.get({ n: 3 })).input] }`,
			`["RangeError",{"n":3}]`},
		{"a replaced tool_call stays in its run", `globalThis.tool_call = 1; Object.defineProperty(globalThis, "tool_search", { value: 2 }); return 1`,
			`return [typeof tool_call, typeof tool_search, (await tool_call("orders.get", { n: 4 })).input]`,
			`["function","function",{"n":4}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, tc.first, nil)
			if tc.next == "" {
				if !res.OK || string(res.Result) != tc.want {
					t.Errorf("got %s %+v, want %s", res.Result, res.Error, tc.want)
				}
				return
			}
			if !res.OK {
				t.Fatalf("first run: %+v", res.Error)
			}
			if res := exec(t, s, tc.next, nil); !res.OK || string(res.Result) != tc.want {
				t.Errorf("next run: got %s %+v, want %s", res.Result, res.Error, tc.want)
			}
		})
	}
}
