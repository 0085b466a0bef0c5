package codemode

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interopio/code-mode/internal/tsstrip"
	"github.com/interopio/code-mode/sandbox"
)

// inputCase is one program and what its run must give: the exact JSON
// result, or an error (code, name, a part of the message, and a position
// when line is set), and a log entry containing log when set, and none
// containing noLog.
type inputCase struct {
	name, code string
	want       string
	errCode    string
	errName    string
	errMsg     string
	line, col  int
	log, noLog string
}

func runInputCases(t *testing.T, cases []inputCase) {
	t.Helper()
	// The timeout is a safety net for a row that hangs, not a bound on
	// speed: at 5 s the structuredClone of data nested 1e4 deep timed out
	// at load 20 on 2 cores. No row here expects TIMEOUT.
	runInputCasesWith(t, Config{Timeout: 2 * time.Minute}, cases)
}

// runInputCasesWith is runInputCases on an instance with cfg.
func runInputCasesWith(t *testing.T, cfg Config, cases []inputCase) {
	t.Helper()
	cm := newTestCodeMode(t, cfg)
	s := mustSession(t, cm)
	for _, tc := range cases {
		res := exec(t, s, tc.code, nil)
		if tc.errCode != "" {
			e := res.Error
			if res.OK || e == nil {
				t.Errorf("%s: ok with %s, want %s error", tc.name, res.Result, tc.errCode)
				continue
			}
			if e.Code != tc.errCode || e.Name != tc.errName || !strings.Contains(e.Message, tc.errMsg) {
				t.Errorf("%s: got %s %s %q, want %s %s ~%q", tc.name, e.Code, e.Name, e.Message, tc.errCode, tc.errName, tc.errMsg)
			}
			if tc.line != 0 && (e.Line != tc.line || e.Column != tc.col) {
				t.Errorf("%s: at %d:%d, want %d:%d", tc.name, e.Line, e.Column, tc.line, tc.col)
			}
		} else if !res.OK || string(res.Result) != tc.want {
			t.Errorf("%s: got ok=%v %s %+v, want %s", tc.name, res.OK, res.Result, res.Error, tc.want)
		}
		if tc.log != "" {
			found := false
			for _, l := range res.Logs {
				found = found || strings.Contains(l.Message, tc.log)
			}
			if !found {
				t.Errorf("%s: no log entry ~%q in %+v", tc.name, tc.log, res.Logs)
			}
		}
		for _, l := range res.Logs {
			if tc.noLog != "" && strings.Contains(l.Message, tc.noLog) {
				t.Errorf("%s: log entry %q, want none ~%q", tc.name, l.Message, tc.noLog)
			}
		}
	}
}

// TestLastExpressionPromise: a program whose last expression statement is
// a Promise (a call without await, `main(x);`, an async IIFE) ends with
// the promise's settled value, as `return` would: a rejection is the run's
// error at the model's position, and the wait is bounded by the timeout. A
// Promise inside the value, or a thenable that is not a Promise, is not
// awaited.
func TestLastExpressionPromise(t *testing.T) {
	runInputCases(t, []inputCase{
		{name: "a tool call without await", code: "const id = 4;\ntools.orders.get({ id })", want: `{"context":null,"input":{"id":4}}`, noLog: "pending"},
		{name: "main with a parameter, called without await", code: "async function main(id: number) {\n  return (await tools.orders.get({ id })).input.id\n}\nmain(5);", want: "5"},
		{name: "an async arrow called by name", code: "const run = async () => 6;\nrun()", want: "6"},
		{name: "then chains", code: "tools.orders.get({ id: 1 }).then((o) => o.input.id + 1)", want: "2"},
		{name: "a rejection is the run's error at its position", code: "async function main() {\n  const o = await tools.orders.get({ id: 1 });\n  return o.missing.x\n}\nconst a = 1;\nmain();",
			errCode: "RUNTIME", errName: "TypeError", errMsg: "of undefined", line: 3, col: 19},
		{name: "a tool's rejection is not also unhandled", code: "tools.util.fail({})", errCode: "RUNTIME", errName: "ToolError", errMsg: "backend unavailable", noLog: "not awaited"},
		{name: "a promise nothing can settle", code: "new Promise(() => {})", errCode: "RUNTIME", errName: "Error", errMsg: "can never settle"},
		{name: "a promise inside the value stays null", code: "({ o: tools.orders.get({ id: 1 }) })", want: `{"o":null}`, log: "result.o: a Promise, converted to null (await it)"},
		{name: "a thenable is a value", code: "({ then(resolve) { resolve(1) }, a: 2 })", want: `{"a":2}`, log: "result.then: a function"},
	})
	slow := Tool{Name: "slow.never", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	cm := newTestCodeMode(t, Config{Timeout: 300 * time.Millisecond, Tools: []Tool{slow}})
	s := mustSession(t, cm)
	for _, code := range []string{"tools.slow.never({})", "new Promise((r) => setTimeout(r, 60000))"} {
		if res := exec(t, s, code, nil); res.OK || res.Error.Code != "TIMEOUT" {
			t.Errorf("%q: got %s %+v, want TIMEOUT", code, res.Result, res.Error)
		}
	}
}

// TestDeepNesting: code nested deeper than tsstrip.MaxNesting is a SYNTAX
// error saying how deep, where and the limit, before QuickJS's parser (or
// the stripper) recurses through it on the host's stack; code at the limit
// runs, and so does deep data built in a loop, as the message suggests.
func TestDeepNesting(t *testing.T) {
	const limit = tsstrip.MaxNesting
	parens := func(n int) string {
		return "const a = 1;\nreturn " + strings.Repeat("(", n) + "a" + strings.Repeat(")", n)
	}
	runInputCases(t, []inputCase{
		{name: "parentheses at the limit", code: parens(limit), want: "1"},
		{name: "parentheses over the limit", code: parens(limit + 1), errCode: "SYNTAX", errName: "SyntaxError",
			errMsg: "code nested too deeply: 101 levels at line 2; the limit is 100", line: 2, col: 8 + limit},
		{name: "the next run", code: "return 2", want: "2"},
		// 840 KB: within maxCodeBytes.
		{name: "40,000 function expressions", code: "const f = " + strings.Repeat("function () { return ", 4e4) + "1" + strings.Repeat("}", 4e4),
			errCode: "SYNTAX", errName: "SyntaxError", errMsg: "code nested too deeply: 40000 levels at line 1"},
		{name: "a TypeScript type", code: "let x: " + strings.Repeat("keyof ", 1e5) + "B = 1; return x",
			errCode: "SYNTAX", errName: "SyntaxError", errMsg: "code nested too deeply: a type nests more than 100 levels at line 1; the limit is 100"},
		{name: "data nested 500 levels, built in a loop", code: "let d = []; for (let i = 0; i < 500; i++) d = [d]; return JSON.stringify(d).length", want: "1002"},
	})
}

// TestCodeSizeLimit: a program of more than maxCodeBytes is INVALID_INPUT
// naming its size and the limit, before anything reads it (10 MB of small
// statements held the calling thread seconds past a 1 s timeout: the
// TypeScript pass runs before the timeout starts, and QuickJS's parser
// never checks it); one at the limit runs; and arguments that are a string
// too long to hold a program are refused before they are repaired.
func TestCodeSizeLimit(t *testing.T) {
	filled := func(n int) string { // a program of n bytes
		const head = "return 1 //"
		return head + strings.Repeat("x", n-len(head))
	}
	runInputCases(t, []inputCase{
		{name: "at the limit", code: filled(maxCodeBytes), want: "1"},
		{name: "a byte past it", code: filled(maxCodeBytes + 1), errCode: "INVALID_INPUT", errName: "TypeError",
			errMsg: "executeCode: code: 1048577 bytes, more than the 1048576 (1 MiB) a program may have; write a shorter program"},
		{name: "10 MB of statements", code: "let a = 0;" + strings.Repeat("a+=1;", 2e6), errCode: "INVALID_INPUT", errName: "TypeError",
			errMsg: "executeCode: code: 10000010 bytes, more than the 1048576 (1 MiB)"},
	})
	llm := mustSession(t, newTestCodeMode(t, Config{})).LLMTools()
	search, exec := llm[0], llm[1]
	for _, tc := range []struct {
		name, args, want string
		search           bool
	}{
		{"a string too long for a program", strconv.Quote(`{"code": "` + strings.Repeat("a+=1;", 1e6)),
			"executeCode: the arguments are a string of 5000010 bytes, more than the 4194304 they may be; expected an object { code: string", false},
		{"a long string within the bound", strconv.Quote(strings.Repeat("x", 2e6)), "executeCode: code: 2000000 bytes, more than the 1048576 (1 MiB)", false},
		{"searchTools: a string too long for a query", strconv.Quote(`{"query": "` + strings.Repeat("order ", 2e5)), "searchTools: the arguments are a string of 1200011 bytes, more than the 1048576 they may be; expected an object", true},
	} {
		tool := exec
		if tc.search {
			tool = search
		}
		raw, err := tool.Execute(context.Background(), json.RawMessage(tc.args), nil)
		var res ExecuteResult
		if err != nil || json.Unmarshal(raw, &res) != nil || res.Error == nil || res.Error.Code != ErrorCodeInvalidInput || !strings.HasPrefix(res.Error.Message, tc.want) {
			t.Errorf("%s: got %.300s, %v; want INVALID_INPUT %q...", tc.name, raw, err, tc.want)
		}
	}
}

// TestTypeScriptInput: erasable TypeScript runs as written, errors keep the
// model's positions, and what cannot be erased (enum, namespace with
// values, parameter properties, using) runs as tsc's output does.
func TestTypeScriptInput(t *testing.T) {
	runInputCases(t, []inputCase{
		{name: "annotations", code: "const x: number = 1; return x", want: "1"},
		{name: "interface, type, as, generics", code: "interface O { id: string; total: number }\ntype L = O[];\nconst r = await tools.orders.search({ status: 'open' }) as { input: { status: string } };\nconst m = new Map<string, number>();\nm.set(r.input.status, 2);\nfunction sum<T extends O>(xs: T[]): number { return xs.reduce((a: number, o: T) => a + o.total, 0) }\nreturn [m.get('open')!, sum([{ id: 'a', total: 3 }] satisfies L)]", want: "[2,3]"},
		{name: "runtime error position after erased types", code: "const a: Array<{ id: string }> = [];\nconst b: string = (a[0] as any).id", errCode: "RUNTIME", errName: "TypeError", errMsg: "cannot read property", line: 2, col: 32},
		{name: "syntax error position after erased types", code: "type T = { a: number };\nconst x: T = { a: 1 };\nreturn x.a +", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "unexpected end of input", line: 3, col: 13},
		{name: "a const assertion in angle brackets", code: "const ks = <const>['open', 'shipped'];\nreturn <const>{ n: ks.length }", want: `{"n":2}`},
		{name: "enum", code: "enum Color { Red, Green }\nreturn [Color.Red, Color[1]]", want: `[0,"Green"]`},
		{name: "type-only imports", code: "import { type Order, type Item as I } from './orders';\nimport type { Customer } from './crm'\nconst n: Order | I = 2;\nreturn n", want: "2"},
		{name: "a value import beside a type", code: "import { type Order, search } from './orders';\nreturn 1", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "import is not available", line: 1, col: 1},
		// TypeScript's module marker, for a top-level await under tsc.
		{name: "export {} with a top-level await", code: "const r = await tools.orders.search({ status: 'open' });\nconsole.log(r.input.status);\nexport {};", want: ""},
		{name: "export {} before a return", code: "export {};\nconst n: number = 2;\nreturn n", want: "2"},
		{name: "exported namespace with values", code: "export namespace N { export const a = 1 }\nreturn N.a", want: "1"},
		{name: "namespace with values", code: "namespace N { export function f() { return 2 } }\nreturn N.f()", want: "2"},
		{name: "parameter properties", code: "class A { constructor(public x: number) {} }\nreturn new A(1).x", want: "1"},
		{name: "using", code: "const log: string[] = [];\n{\n  using r = { [Symbol.dispose]() { log.push('disposed') } };\n  log.push('body');\n}\nreturn log", want: `["body","disposed"]`},
	})
}

// TestProgramWrapper: fences, whole-program functions, the function-body
// wrapper, and what the sandbox does not have.
func TestProgramWrapper(t *testing.T) {
	runInputCases(t, []inputCase{
		{name: "bare body", code: "const a = 2\nreturn a * 3", want: "6"},
		{name: "last expression", code: "const a = 2\na * 3", want: "6"},
		{name: "ts fence with prose", code: "Here is the program:\n\n```ts\nconst n: number = 4\nreturn n\n```\n\nIt returns four.", want: "4"},
		{name: "fence positions count from the top", code: "Here:\n```js\nconst a = 1\nnull.x\n```", errCode: "RUNTIME", errName: "TypeError", errMsg: "of null", line: 4, col: 5},
		{name: "typescript fence", code: "```typescript\nreturn 'ts' as string\n```", want: `"ts"`},
		{name: "plain fence", code: "```\nreturn 1\n```", want: "1"},
		// Was SYNTAX "unexpected end of string": the fence's backticks began a template literal.
		// Was ok with no result and no warning: the fence opened an empty block.
		{name: "a closing fence after code, its opening one left out", code: "const n = 4\nreturn n;\n```", want: "4"},
		{name: "closing fence at the end of the last line, prose after", code: "```javascript\nconst n = 3\nreturn n;```\n\nThis returns 3.", want: "3"},
		{name: "async arrow program", code: "async () => {\n  const r = await tools.orders.get({ id: 7 })\n  return r.input.id\n}", want: "7"},
		{name: "async arrow with types", code: "async (): Promise<number> => {\n  return 5 as number\n}", want: "5"},
		{name: "async main", code: "async function main() {\n  return 'main'\n}", want: `"main"`},
		{name: "a lone const arrow of another name", code: "const run = async (): Promise<number> => {\n  const r = await tools.orders.get({ id: 9 })\n  return r.input.id\n};", want: "9"},
		{name: "an error in a lone const arrow points into the model's code", code: "const run = async () => {\n  null.x\n}", errCode: "RUNTIME", errName: "TypeError", errMsg: "of null", line: 2, col: 7},
		{name: "a lone const arrow with an expression body", code: "const run = async () =>\n  (await tools.orders.get({ id: 4 })).input.id;", want: "4"},
		{name: "an error in a lone arrow's expression body points into the model's code", code: "const run = () =>\n  null.x", errCode: "RUNTIME", errName: "TypeError", errMsg: "of null", line: 2, col: 7},
		{name: "async main and its call", code: "async function main(): Promise<string> {\n  return 'called'\n}\nmain();", want: `"called"`},
		{name: "helpers and an uncalled main: main is called", code: "async function total(ids: string[]): Promise<number> {\n  let t = 0\n  for (const id of ids) t += String((await tools.orders.get({ id })).input.id).length\n  return t\n}\nasync function main() {\n  return await total(['ab', 'c'])\n}", want: "3"},
		{name: "an error in an uncalled main points into the model's code", code: "function h() { return 1 }\nasync function main() {\n  h();\n  null.x\n}", errCode: "RUNTIME", errName: "TypeError", errMsg: "of null", line: 4, col: 7},
		{name: "an uncalled main(tools) is called with tools", code: "async function main(tools: any) {\n  const r = await tools.orders.get({ id: 8 })\n  return r.input.id\n}", want: "8"},
		{name: "an uncalled const main arrow is called", code: "const ids: string[] = ['ab']\nconst main = async (): Promise<number> => {\n  const r = await tools.orders.get({ id: ids[0] })\n  return String(r.input.id).length\n};", want: "2"},
		{name: "an error in an uncalled main arrow points into the model's code", code: "const main = async () => {\n  null.x\n}", errCode: "RUNTIME", errName: "TypeError", errMsg: "of null", line: 2, col: 7},
		{name: "an uncalled main(tools) beside helpers", code: "const id = 9\nasync function main(tools) {\n  return (await tools.orders.get({ id })).input.id\n}", want: "9"},
		{name: "a plain function and its call run as written", code: "function f(n) { return n ? f(n - 1) + 1 : 0 }\nf(3)", want: "3"},
		{name: "called async arrow", code: "(async () => {\n  return 9\n})()", want: "9"},
		{name: "plain arrow program", code: "() => {\n  const r = tools.orders.get({ id: 7 })\n  return r\n}", want: `{"context":null,"input":{"id":7}}`},
		{name: "plain arrow with an expression body", code: "() => 6 * 7", want: "42"},
		{name: "plain arrow with a call as its body", code: "() => tools.orders.get({ id: 5 })", want: `{"context":null,"input":{"id":5}}`},
		{name: "an error in a plain arrow points into the model's code", code: "() => {\n  const a = {}\n  a.b.c\n}", errCode: "RUNTIME", errName: "TypeError", errMsg: "cannot read property 'c' of undefined", line: 3, col: 6},
		{name: "an error in a plain arrow's expression body", code: "() => null.x", errCode: "RUNTIME", errName: "TypeError", errMsg: "of null", line: 1, col: 11},
		{name: "a plain function of any name", code: "function run(): string {\n  return 'run'\n}", want: `"run"`},
		{name: "a function of parameters is not called, and the warning says how", code: "(order) => order.id", want: "", log: "result: a function, which is not data: no result (the program's value is a function; to run it, call it: end the program with return f(...), or send its body as the program)"},
		{name: "wrapper cannot be closed", code: "return 1\n})(); (async () => {", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "closes nothing", line: 2, col: 1},
		{name: "syntax error at the end names no wrapper", code: "const a = [1, 2];\nreturn a.map((x) => x * 2", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "unexpected end of input", line: 2, col: 26},
		{name: "export default async function main", code: "export default async function main() {\n  return (await tools.orders.get({ id: 3 })).input.id\n}", want: "3"},
		{name: "export async function main beside helpers", code: "const n = 2\nexport async function main(): Promise<number> {\n  return n * 5\n}", want: "10"},
		{name: "an error in an exported main points into the model's code", code: "export default async function main() {\n  null.x\n}", errCode: "RUNTIME", errName: "TypeError", errMsg: "of null", line: 2, col: 7},
		{name: "export const main", code: "export const main = async (): Promise<number> => {\n  const o = await tools.orders.get({ id: 4 });\n  return o.input.id;\n};", want: "4"},
		{name: "an error in an exported const main points into the model's code", code: "export const main = async () => {\n  null.x\n}", errCode: "RUNTIME", errName: "TypeError", errMsg: "of null", line: 2, col: 7},
		{name: "export const of another name", code: "export const run = async () => 1", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "export is not available", line: 1, col: 1},
		{name: "export const", code: "export const total = 1", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "export is not available: the code is the body of a function; return the result instead", line: 1, col: 1},
		{name: "a Python block", code: "Here is the code:\n```python\nprint(len(orders))\n```", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "```python is not JavaScript: executeCode runs JavaScript or TypeScript", line: 2, col: 1},
		{name: "import", code: "import fs from 'fs'\nreturn 1", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "use the tools you are given", line: 1, col: 1},
		{name: "dynamic import", code: "const m = await import('x')", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "import() is not available"},
		{name: "require", code: "const fs = require('fs')", errCode: "RUNTIME", errName: "ReferenceError", errMsg: "require is not available in this sandbox: it has no network and no modules; use the tools"},
		{name: "require of a module a global stands in for", code: "const { setTimeout: sleep } = require('timers/promises')\nawait sleep(10)", errCode: "RUNTIME", errName: "ReferenceError", errMsg: "use the tools you are given (tools.*, tool_call, tool_search) instead; for what Node's modules give, the sandbox has globals: setTimeout and setInterval (a sleep: await new Promise((r) => setTimeout(r, ms))), URL,"},
		{name: "fetch", code: "await fetch('https://example.com')", errCode: "RUNTIME", errName: "ReferenceError", errMsg: "fetch is not available in this sandbox: it has no network and no modules; use the tools you are given (tools.*, tool_call, tool_search) instead"},
		{name: "XMLHttpRequest", code: "new XMLHttpRequest()", errCode: "RUNTIME", errName: "ReferenceError", errMsg: "XMLHttpRequest is not available"},
		{name: "a call left pending is named by its tool", code: "tools.orders.get({ id: 1 });\nreturn 1", want: "1", log: "1 call was still pending when the program finished, and cancelled (tool orders.get)"},
		{name: "calls in flight when an error ends the run are not blamed on a missing await", code: "const ids = [1, 2];\nreturn await Promise.all([...ids.map((id) => tools.orders.get({ id })), Promise.reject(new Error('bad id'))])", errCode: "RUNTIME", errName: "Error", errMsg: "bad id",
			log: "2 calls were still pending when the error ended the run, and cancelled (tool orders.get, tool orders.get)", noLog: "await every call"},
		{name: "a tool_search left pending is named as the program called it", code: "tool_search({ query: 'orders' });\nreturn 1", want: "1", log: "1 call was still pending when the program finished, and cancelled (tool_search); await every call"},
		{name: "an unawaited tool_search rejection is named as the program called it", code: "tool_search({ nope: 1 });\nawait new Promise((r) => setTimeout(r, 50));\nreturn 1", want: "1", log: "not awaited: tool_search: tool_search: unknown argument"},
		{name: "unawaited rejection names the tool", code: "tools.util.fail({});\nawait new Promise((r) => setTimeout(r, 50));\nreturn 1", want: "1", log: "not awaited: tool util.fail: backend unavailable"},
	})
}

// TestTimers: timers run on a host timer, in order, can be cleared, and
// never outlive the run. A timer's due time is taken when it is set, so the
// "setTimeout" row's two delays are far apart: with 20 and 5 ms, a 15 ms
// stall between its two statements on a loaded machine made the later timer
// due later, and the row failed as a page would have behaved.
func TestTimers(t *testing.T) {
	runInputCases(t, []inputCase{
		{name: "setTimeout", code: "const out = [];\nsetTimeout(() => out.push('b'), 300);\nsetTimeout(() => out.push('a'), 5);\nawait new Promise((r) => setTimeout(r, 320));\nreturn out", want: `["a","b"]`},
		{name: "arguments", code: "return await new Promise((r) => setTimeout((a, b) => r(a + b), 1, 2, 3))", want: "5"},
		{name: "equal delays fire in creation order", code: "const out = [];\nfor (let i = 0; i < 50; i++) setTimeout(() => out.push(i), 3);\nawait new Promise((r) => setTimeout(r, 30));\nreturn out.join() === [...Array(50).keys()].join() || out.join()", want: "true"},
		{name: "clearTimeout", code: "const out = [];\nconst id = setTimeout(() => out.push('x'), 5);\nclearTimeout(id);\nawait new Promise((r) => setTimeout(r, 20));\nreturn out", want: `[]`},
		{name: "setInterval polls until done", code: "let n = 0;\nawait new Promise((done) => { const id = setInterval(() => { if (++n === 3) { clearInterval(id); done(); } }, 2) });\nreturn n", want: "3"},
		{name: "a throwing callback is logged", code: "setTimeout(() => { throw new Error('boom') }, 1);\nawait new Promise((r) => setTimeout(r, 10));\nreturn 'went on'", want: `"went on"`, log: "uncaught in a setTimeout callback: Error: boom"},
		{name: "pending timers are dropped", code: "setTimeout(() => {}, 60000);\nreturn 'done'", want: `"done"`},
		{name: "a string callback", code: "setTimeout('alert(1)', 1)", errCode: "RUNTIME", errName: "TypeError", errMsg: "the callback must be a function"},
	})
	cm := newTestCodeMode(t, Config{Timeout: 300 * time.Millisecond})
	s2 := mustSession(t, cm)
	res := exec(t, s2, "await new Promise((r) => setTimeout(r, 60000))", nil)
	if res.OK || res.Error.Code != "TIMEOUT" {
		t.Errorf("a timer past the run's timeout: got %+v %s, want TIMEOUT", res.Error, res.Result)
	}
	for _, l := range res.Logs {
		if strings.Contains(l.Message, "pending") {
			t.Errorf("a timer is reported as a pending call: %q", l.Message)
		}
	}
}

// TestBuiltins: the web built-ins models reach for.
func TestBuiltins(t *testing.T) {
	runInputCases(t, []inputCase{
		{name: "URL parts", code: "const u = new URL('HTTPS://User:pw@Example.COM:443/a/./b/../c?x=1&y=a+b#frag');\nreturn [u.href, u.protocol, u.username, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.origin, u.searchParams.get('y')]",
			want: `["https://User:pw@example.com/a/c?x=1&y=a+b#frag","https:","User","example.com","example.com","","/a/c","?x=1&y=a+b","#frag","https://example.com","a b"]`},
		{name: "URL relative", code: "const b = 'https://api.example.com/v1/items/';\nreturn [new URL('42', b).href, new URL('../users?q=1', b).href, new URL('/root', b).href, new URL('//cdn.example.com/x', b).href, new URL('?p=2', b).href]",
			want: `["https://api.example.com/v1/items/42","https://api.example.com/v1/users?q=1","https://api.example.com/root","https://cdn.example.com/x","https://api.example.com/v1/items/?p=2"]`},
		{name: "URL searchParams are live", code: "const u = new URL('https://e.com/s?a=1');\nu.searchParams.set('q', 'a b&c');\nu.searchParams.append('a', '2');\nu.hash = 'top';\nreturn [u.href, u.searchParams.getAll('a'), String(u), JSON.stringify({ u })]",
			want: `["https://e.com/s?a=1&q=a+b%26c&a=2#top",["1","2"],"https://e.com/s?a=1&q=a+b%26c&a=2#top","{\"u\":\"https://e.com/s?a=1&q=a+b%26c&a=2#top\"}"]`},
		{name: "URL encodes", code: "return new URL('https://e.com/a b/é?q=ü v#ö').href", want: `"https://e.com/a%20b/%C3%A9?q=%C3%BC%20v#%C3%B6"`},
		// file: URLs: the slashes after "file:" are two, then the path
		// ("file:///etc/passwd" read "etc" as its host and "/passwd" as its
		// path), a file URL always has a host (maybe empty), and localhost
		// is none, as the WHATWG standard (and Node, and browsers) say.
		{name: "URL file", code: "return ['file:///etc/passwd', 'file:/a/b', 'file://localhost/c/d', 'file://host/share/x', 'FILE:///Users/ann/my%20report.pdf'].map((s) => { const u = new URL(s); return [u.href, u.host, u.pathname, u.origin] }).concat([[new URL('../x?y#z', 'file:///a/b/c').href], [new URL('/root', 'file:///a/b').href]])",
			want: `[["file:///etc/passwd","","/etc/passwd","null"],["file:///a/b","","/a/b","null"],["file:///c/d","","/c/d","null"],["file://host/share/x","host","/share/x","null"],["file:///Users/ann/my%20report.pdf","","/Users/ann/my%20report.pdf","null"],["file:///a/x?y#z"],["file:///root"]]`},
		{name: "invalid URL", code: "new URL('not a url')", errCode: "RUNTIME", errName: "TypeError", errMsg: "Invalid URL"},
		// QuickJS lacks Array.fromAsync: "not a function" before.
		{name: "Array.fromAsync of promises, an async generator, an array-like, with a mapper", code: "async function* g() { yield 1; yield Promise.resolve(2) }\nconst a = await Array.fromAsync([Promise.resolve('x'), 'y']);\nconst b = await Array.fromAsync(g(), async (v, i) => v * 10 + i);\nconst c = await Array.fromAsync({ length: 2, 0: Promise.resolve('p'), 1: 'q' });\nconst d = await Array.fromAsync(new Set([3]), function (v) { return v + this.k }, { k: 1 });\nreturn [a, b, c, d, Array.fromAsync.length, Array.fromAsync.name, Array.isArray(await Array.fromAsync([]))]",
			want: `[["x","y"],[10,21],["p","q"],[4],1,"fromAsync",true]`},
		{name: "Array.fromAsync rejects as the standard says", code: "const r = [];\nfor (const args of [[null], [[1], 5], [[Promise.reject(new Error('bad'))]]]) { try { await Array.fromAsync(...args); r.push('ok') } catch (e) { r.push(e.name + ': ' + e.message) } }\nreturn r",
			want: `["TypeError: Array.fromAsync: null is not iterable or array-like","TypeError: Array.fromAsync: the mapper is not a function","Error: bad"]`},
		// QuickJS's asUintN gave a negative BigInt back as it is for 32 bits or
		// more (asUintN(64, -1n) was -1n); the answers are V8's.
		{name: "BigInt.asUintN answers as V8", code: "const out = [];\nfor (const b of [0, 1, 32, 53, 64, 65, 128]) for (const v of [-1n, -2n, 5n, 2n ** 63n, -(2n ** 64n) - 5n, -12345678901234567890123n]) out.push(String(BigInt.asUintN(b, v)));\nconst seen = [];\nout.push(String(BigInt.asUintN({ valueOf() { seen.push(\"bits\"); return 64 } }, { valueOf() { seen.push(\"value\"); return -3n } })), seen.join());\nfor (const args of [[-1, 1n], [2 ** 53, 1n], [64, 1], [64, \"x\"], [Symbol(), 1n]]) { try { BigInt.asUintN(...args); out.push(\"ok\") } catch (e) { out.push(e.name) } }\nout.push(String(BigInt.asUintN(\"64\", \"-1\")), String(BigInt.asUintN(64.9, -1n)), String(BigInt.asUintN(NaN, -1n)), String(BigInt.asIntN(64, 2n ** 63n)));\nout.push(BigInt.asUintN.length, BigInt.asUintN.name, Object.getOwnPropertyDescriptor(BigInt, \"asUintN\").enumerable);\ntry { new BigInt.asUintN(1, 1n); out.push(\"constructed\") } catch (e) { out.push(e.name) }\nreturn out.join(\" \");",
			want: `"0 0 0 0 0 0 1 0 1 0 1 1 4294967295 4294967294 5 0 4294967291 2394798901 9007199254740991 9007199254740990 5 0 9007199254740987 2728479153830709 18446744073709551615 18446744073709551614 5 9223372036854775808 18446744073709551611 13639628150831692597 36893488147419103231 36893488147419103230 5 9223372036854775808 18446744073709551611 13639628150831692597 340282366920938463463374607431768211455 340282366920938463463374607431768211454 5 9223372036854775808 340282366920938463444927863358058659835 340282366920938451117695706197200321333 18446744073709551613 bits,value RangeError RangeError TypeError SyntaxError TypeError 18446744073709551615 18446744073709551615 0 -9223372036854775808 2 asUintN false TypeError"`},
		{name: "URL.canParse", code: "return [URL.canParse('https://x.y'), URL.canParse('x'), URL.canParse('x', 'https://a.b/')]", want: "[true,false,true]"},
		{name: "URLSearchParams", code: "const p = new URLSearchParams({ q: 'a&b', n: 1 });\np.append('t', 'x y');\nconst q = new URLSearchParams('?b=2&a=1&b=3');\nq.sort();\nreturn [p.toString(), q.toString(), [...q.keys()], q.has('a'), q.size, Object.fromEntries(new URLSearchParams([['k', 'v']]))]",
			want: `["q=a%26b&n=1&t=x+y","a=1&b=2&b=3",["a","b","b"],true,3,{"k":"v"}]`},
		{name: "TextEncoder and TextDecoder", code: "const b = new TextEncoder().encode('é€😀');\nreturn [Array.from(b), new TextDecoder().decode(b), new TextDecoder().decode(new Uint8Array([0xff, 0x41]))]",
			want: `[[195,169,226,130,172,240,159,152,128],"é€😀","�A"]`},
		{name: "TextDecoder stream and fatal", code: "const d = new TextDecoder();\nconst s = d.decode(new Uint8Array([0xe2, 0x82]), { stream: true }) + d.decode(new Uint8Array([0xac]));\nlet fatal = '';\ntry { new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xc0])) } catch (e) { fatal = e.name }\nreturn [s, fatal]", want: `["€","TypeError"]`},
		{name: "atob and btoa", code: "return [btoa('hello'), atob('aGVsbG8='), atob(' aGk '), btoa(String.fromCharCode(255, 0))]", want: `["aGVsbG8=","hello","hi","/wA="]`},
		{name: "btoa outside Latin1", code: "btoa('€')", errCode: "RUNTIME", errName: "InvalidCharacterError", errMsg: "outside of Latin1"},
		{name: "structuredClone", code: "const a = { d: new Date(0), m: new Map([[1, { x: 1 }]]), s: new Set([1]), arr: [1, [2]] };\na.self = a;\nconst c = structuredClone(a);\nreturn [c !== a, c.self === c, c.d instanceof Date && c.d.getTime(), c.m.get(1).x, c.m.get(1) !== a.m.get(1), [...c.s], c.arr]",
			want: `[true,true,0,1,true,[1],[1,[2]]]`},
		{name: "structuredClone of data nested past QuickJS's stack, in its order", code: "const seen = [];\nlet d = { get z() { seen.push('z'); return 1 }, a: 2 };\nfor (let i = 0; i < 1e4; i++) d = [d, new Map([[i, new Set([i])]])];\nconst e = new Error('x', { cause: d });\nlet c = structuredClone(e).cause, n = 0;\nwhile (Array.isArray(c)) n++, c = c[0];\nreturn [n, c, seen]",
			want: `[10000,{"z":1,"a":2},["z"]]`},
		{name: "structuredClone refuses functions", code: "structuredClone({ f() {} })", errCode: "RUNTIME", errName: "DataCloneError", errMsg: "could not be cloned"},
		{name: "structuredClone with transfer copies an ArrayBuffer and detaches nothing (the sandbox withholds detaching)", code: "const b = new Uint8Array([1, 2, 3]).buffer;\nconst v = new Uint8Array(b, 1);\nconst c = structuredClone({ b, v }, { transfer: [b] });\nreturn [b.detached, b.byteLength, v.length, [...new Uint8Array(c.b)], [...c.v], c.v.buffer === c.b]",
			want: `[false,3,2,[1,2,3],[2,3],true]`},
		{name: "structuredClone transfers a listed buffer the value does not hold", code: "const b = new ArrayBuffer(4, { maxByteLength: 8 });\nconst u = new ArrayBuffer(2);\nconst c = structuredClone(b, { transfer: [b, u] });\nreturn [c.resizable, c.maxByteLength, c.byteLength, b.detached, u.detached, structuredClone(1, undefined), structuredClone(2, {})]",
			want: `[true,8,4,false,false,1,2]`},
		{name: "a failed structuredClone detaches nothing", code: "const b = new ArrayBuffer(4);\ntry { structuredClone({ b, f() {} }, { transfer: [b] }) } catch (e) { return [e.name, b.detached, b.byteLength] }", want: `["DataCloneError",false,4]`},
		{name: "structuredClone transfers only ArrayBuffers", code: "structuredClone(1, { transfer: [new Uint8Array(2)] })", errCode: "RUNTIME", errName: "DataCloneError", errMsg: "options.transfer[0]: only an ArrayBuffer can be transferred here, got Uint8Array"},
		{name: "structuredClone refuses a buffer listed twice", code: "const b = new ArrayBuffer(1);\nstructuredClone(b, { transfer: [b, b] })", errCode: "RUNTIME", errName: "DataCloneError", errMsg: "options.transfer[1]: the ArrayBuffer is listed twice"},
		// A buffer detached in a typed-array constructor's prototype getter
		// left the view over the instance's memory from address 0 (sandbox/withheld.go): structuredClone's transfer was a way to detach.
		{name: "structuredClone's transfer detaches nothing in a typed array's constructor", code: "const ab = new ArrayBuffer(4096);\nconst nt = function () {}.bind();\nObject.defineProperty(nt, 'prototype', { get() { structuredClone(0, { transfer: [ab] }); return Uint8Array.prototype } });\nconst u = Reflect.construct(Uint8Array, [ab, 0, 4096], nt);\nreturn [u.length, ab.byteLength, u.every((b) => b === 0)]", want: `[4096,4096,true]`},
		{name: "ArrayBuffer's transfer is withheld", code: "new ArrayBuffer(1).transfer()", errCode: "RUNTIME", errName: "TypeError", errMsg: "ArrayBuffer.prototype.transfer is not available here: buffer.slice() copies a buffer"},
		{name: "structuredClone's transfer must be a list", code: "structuredClone(1, { transfer: 1 })", errCode: "RUNTIME", errName: "TypeError", errMsg: "options.transfer must be an array of ArrayBuffers, got number"},
		{name: "structuredClone's options must be an object", code: "structuredClone(1, 5)", errCode: "RUNTIME", errName: "TypeError", errMsg: "options must be an object, got number"},
		{name: "queueMicrotask runs in order with promise jobs", code: "const out = [];\nqueueMicrotask(() => out.push('m'));\nPromise.resolve().then(() => out.push('p'));\nout.push('s');\nawait null; await null;\nreturn [out, typeof queueMicrotask]", want: `[["s","m","p"],"function"]`},
		{name: "queueMicrotask before the result", code: "let n = 0;\nqueueMicrotask(() => { n = 1 });\nawait 0;\nreturn n", want: "1"},
		{name: "a throwing microtask is logged", code: "queueMicrotask(() => { throw new RangeError('boom') });\nawait null; await null;\nreturn 'went on'", want: `"went on"`, log: "uncaught in a queueMicrotask callback: RangeError: boom"},
		{name: "queueMicrotask without a function", code: "queueMicrotask('x')", errCode: "RUNTIME", errName: "TypeError", errMsg: "queueMicrotask: the callback must be a function"},
		{name: "built-ins are ordinary globals", code: "return [typeof URL, typeof TextEncoder, typeof atob, typeof structuredClone, typeof setTimeout, 'URL' in globalThis]", want: `["function","function","function","function","function",true]`},
	})
}

// TestCrypto: crypto.randomUUID and crypto.getRandomValues, with bytes from
// the host's crypto/rand, the Web's checks (integer typed arrays only, at
// most 65,536 bytes), and nothing of the host reachable through them.
func TestCrypto(t *testing.T) {
	runInputCases(t, []inputCase{
		{name: "randomUUID is a version 4 UUID, new each time", code: "const u = crypto.randomUUID();\nreturn [/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u), u !== crypto.randomUUID()]", want: "[true,true]"},
		{name: "1,000 UUIDs are distinct", code: "return new Set(Array.from({ length: 1000 }, () => crypto.randomUUID())).size", want: "1000"},
		{name: "getRandomValues fills the array it returns", code: "const a = new Uint8Array(64);\nreturn [crypto.getRandomValues(a) === a, a.some((x) => x !== 0)]", want: "[true,true]"},
		{name: "every integer typed array", code: "return ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array'].map((k) => crypto.getRandomValues(new globalThis[k](16)).some((x) => x != 0))", want: "[true,true,true,true,true,true,true,true,true]"},
		{name: "a view fills only its own bytes", code: "const b = new ArrayBuffer(32);\ncrypto.getRandomValues(new Uint16Array(b, 8, 8));\nconst u = new Uint8Array(b);\nreturn [u.slice(0, 8).every((x) => x === 0), u.slice(24).every((x) => x === 0), u.slice(8, 24).some((x) => x !== 0)]", want: "[true,true,true]"},
		{name: "65,536 bytes at most", code: "return [crypto.getRandomValues(new Uint8Array(65536)).length, crypto.getRandomValues(new Uint8Array(0)).length]", want: "[65536,0]"},
		{name: "65,537 bytes", code: "crypto.getRandomValues(new Uint8Array(65537))", errCode: "RUNTIME", errName: "QuotaExceededError", errMsg: "byte length (65537) exceeds the number of bytes of entropy available (65536)", line: 1, col: 23},
		{name: "16,385 32-bit integers", code: "crypto.getRandomValues(new Uint32Array(16385))", errCode: "RUNTIME", errName: "QuotaExceededError", errMsg: "(65540)"},
		{name: "Float32Array", code: "crypto.getRandomValues(new Float32Array(2))", errCode: "RUNTIME", errName: "TypeError", errMsg: "expected an integer typed array (Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array or BigUint64Array), got Float32Array"},
		{name: "Float64Array", code: "crypto.getRandomValues(new Float64Array(2))", errCode: "RUNTIME", errName: "TypeError", errMsg: "got Float64Array"},
		{name: "DataView", code: "crypto.getRandomValues(new DataView(new ArrayBuffer(2)))", errCode: "RUNTIME", errName: "TypeError", errMsg: "got a DataView"},
		{name: "an array", code: "crypto.getRandomValues([1, 2])", errCode: "RUNTIME", errName: "TypeError", errMsg: "got an array"},
		{name: "nothing", code: "crypto.getRandomValues()", errCode: "RUNTIME", errName: "TypeError", errMsg: "got undefined"},
		{name: "a look-alike object", code: "crypto.getRandomValues({ buffer: new ArrayBuffer(4), byteLength: 4, length: 4, [Symbol.toStringTag]: 'Uint8Array' })", errCode: "RUNTIME", errName: "TypeError", errMsg: "got an object"},
		{name: "with timers (their host functions come first)", code: "await new Promise((r) => setTimeout(r, 1));\nreturn crypto.randomUUID().length", want: "36"},
		// Escape attempts.
		{name: "crypto is frozen, fixed and holds only sandbox values", code: "\"use strict\";\nconst r = [Object.getOwnPropertyNames(crypto), Object.isFrozen(crypto), Object.getPrototypeOf(crypto) === Object.prototype, crypto.constructor === Object, crypto.getRandomValues.constructor === Function, typeof crypto.getRandomValues.prototype, typeof crypto.subtle];\ntry { crypto.randomUUID = () => 'x' } catch (e) { r.push(e.name) }\ntry { globalThis.crypto = {} } catch (e) { r.push(e.name) }\ntry { new crypto.randomUUID() } catch (e) { r.push(e.name) }\nreturn r",
			want: `[["getRandomValues","randomUUID"],true,true,true,true,"undefined","undefined","TypeError","TypeError","TypeError"]`},
		{name: "no host function is reachable", code: "crypto.randomUUID();\nconst g = Function('return this')();\nreturn [typeof __cm_urandom, Object.getOwnPropertyNames(g).filter((n) => n.startsWith('__')), String(crypto.getRandomValues).includes('__cm')]", want: `["undefined",[],false]`},
		{name: "a subclass or own properties cannot misreport the array", code: "class L extends Uint8Array { get byteLength() { return 1e9 } get buffer() { return new ArrayBuffer(1e6) } }\nconst a = new L(4);\nObject.defineProperty(a, 'byteOffset', { value: 1e6 });\nreturn [crypto.getRandomValues(a).length, a.some((x) => x !== 0)]", want: "[4,true]"},
		{name: "index accessors on the prototypes disturb nothing", code: "for (const p of [Object.prototype, Array.prototype]) for (const k of ['3', '6', '16']) Object.defineProperty(p, k, { get() { throw new Error('read') }, set() { throw new Error('written') }, configurable: true });\nreturn [crypto.getRandomValues(new Uint8Array(4)).length, crypto.randomUUID().length]", want: "[4,36]"},
		{name: "built-ins replaced after first use change nothing", code: "crypto.randomUUID();\nconst hijack = () => { throw new Error('hijacked') };\nUint8Array.prototype.set = hijack;\nReflect.apply = hijack;\nArrayBuffer.isView = () => true;\nObject.getOwnPropertyDescriptor = hijack;\nconst a = crypto.getRandomValues(new Uint32Array(4));\nreturn [a.some((x) => x !== 0), crypto.randomUUID().length]", want: "[true,36]"},
	})
}

// TestCryptoSource: crypto's bytes are Config.Random's; a source that
// fails makes the call throw (a program never gets zeros for random).
func TestCryptoSource(t *testing.T) {
	runInputCasesWith(t, Config{Timeout: 5 * time.Second, Random: constReader(0xab)}, []inputCase{
		{name: "getRandomValues", code: "return Array.from(crypto.getRandomValues(new Uint8Array(3)))", want: "[171,171,171]"},
		{name: "randomUUID sets the version and variant bits", code: "return crypto.randomUUID()", want: `"abababab-abab-4bab-abab-abababababab"`},
	})
	runInputCasesWith(t, Config{Timeout: 5 * time.Second, Random: failingReader{}}, []inputCase{
		{name: "a failing source", code: "const a = new Uint8Array(4);\ncrypto.getRandomValues(a)", errCode: "RUNTIME", errName: "Error", errMsg: "crypto: the host's random source failed: entropy pool empty", line: 2, col: 23},
		{name: "caught", code: "try { crypto.randomUUID() } catch (e) { return e.message }", want: `"crypto: the host's random source failed: entropy pool empty"`},
	})
	// The bytes cross as an ArrayBuffer: every one, in order, into the
	// view's own bytes (the reader counts, so this is one case).
	runInputCasesWith(t, Config{Timeout: 5 * time.Second, Random: new(countingReader)}, []inputCase{
		{name: "65,536 bytes arrive whole and in order", code: "const b = new ArrayBuffer(65540);\nconst a = crypto.getRandomValues(new Uint32Array(b, 4, 16384));\nconst u = new Uint8Array(b);\nreturn [a.length, u.slice(4, 65540).every((x, i) => x === i % 251), u[0] + u[1] + u[2] + u[3], a[1].toString(16)]", want: `[16384,true,0,"7060504"]`},
	})
	runInputCasesWith(t, Config{Timeout: 5 * time.Second, Random: strings.NewReader("0123456789")}, []inputCase{
		{name: "a source that runs dry", code: "crypto.randomUUID()", errCode: "RUNTIME", errName: "Error", errMsg: "random source failed: unexpected EOF"},
	})
	// A source that answers with no byte and no error (which io.Reader
	// discourages, and a host's wrapper may still do) fails the call: it
	// was read for ever, in a host call that neither Timeout nor Close
	// could end. Past 1,000 reads the source fails by itself, so that a
	// reader that loops reports it instead of hanging the test.
	runInputCasesWith(t, Config{Timeout: 5 * time.Second, Random: new(emptyReader)}, []inputCase{
		{name: "a source that gives nothing", code: "crypto.getRandomValues(new Uint8Array(4))", errCode: "RUNTIME", errName: "Error", errMsg: "crypto: the host's random source failed: multiple Read calls return no data or error"},
		{name: "and once more", code: "try { crypto.randomUUID() } catch (e) { return e.message }", want: `"crypto: the host's random source failed: multiple Read calls return no data or error"`},
	})
	runInputCasesWith(t, Config{Timeout: 5 * time.Second, Random: panicReader{}}, []inputCase{
		{name: "a source that panics", code: "try { crypto.randomUUID() } catch (e) { return e.message }", want: `"crypto: the host's random source failed: panic: no entropy device"`},
	})
}

// panicReader panics on every read.
type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("no entropy device") }

// emptyReader answers every read with no byte and no error, and the
// 1,000th with an error saying it was read that often.
type emptyReader int

func (c *emptyReader) Read([]byte) (int, error) {
	if *c++; *c%1000 == 0 {
		return 0, errors.New("read 1,000 times with no progress")
	}
	return 0, nil
}

// constReader reads as an endless run of one byte.
type constReader byte

func (c constReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(c)
	}
	return len(p), nil
}

// countingReader reads 0, 1, ..., 250, 0, 1, ...
type countingReader int

func (c *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(*c % 251)
		*c++
	}
	return len(p), nil
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("entropy pool empty") }

// TestPerformance: performance.now() counts milliseconds from the run's
// start on the host's monotonic clock, timeOrigin is that start, both in
// steps of 0.1 ms; nothing of the host is reachable through them.
func TestPerformance(t *testing.T) {
	const steps = "[performance.now(), performance.timeOrigin].every((x) => Math.abs(x * 10 - Math.round(x * 10)) < 1e-6)"
	runInputCases(t, []inputCase{
		{name: "now is a number of milliseconds that never goes back", code: "const a = performance.now();\nlet x = 0;\nfor (let i = 0; i < 1e5; i++) x += i;\nconst b = performance.now();\nreturn [typeof a, a >= 0, b >= a]", want: `["number",true,true]`},
		{name: "now counts the time a timer waited", code: "const a = performance.now();\nawait new Promise((r) => setTimeout(r, 30));\nreturn performance.now() - a >= 29.8", want: "true"},
		{name: "timeOrigin + now is Date.now", code: "return Math.abs(performance.timeOrigin + performance.now() - Date.now()) < 5000", want: "true"},
		{name: "steps of 0.1 ms", code: "return " + steps, want: "true"},
		{name: "as JSON", code: "const j = JSON.parse(JSON.stringify(performance));\nreturn [Object.keys(j), j.timeOrigin === performance.timeOrigin]", want: `[["timeOrigin"],true]`},
		{name: "arguments change nothing", code: "const o = performance.timeOrigin;\nreturn [performance.now(1) < 1e9, performance.now.call(null, 2) < 1e9, performance.timeOrigin === o]", want: "[true,true,true]"},
		// Escape attempts.
		{name: "performance is frozen, fixed and holds only sandbox values", code: "\"use strict\";\nconst r = [Object.getOwnPropertyNames(performance), Object.isFrozen(performance), Object.getPrototypeOf(performance) === Object.prototype, performance.now.constructor === Function, typeof performance.now.prototype];\ntry { performance.now = () => 0 } catch (e) { r.push(e.name) }\ntry { performance.timeOrigin = 0 } catch (e) { r.push(e.name) }\ntry { globalThis.performance = {} } catch (e) { r.push(e.name) }\ntry { new performance.now() } catch (e) { r.push(e.name) }\nreturn r",
			want: `[["now","timeOrigin","toJSON"],true,true,true,"undefined","TypeError","TypeError","TypeError","TypeError"]`},
		{name: "no host function is reachable", code: "performance.now();\nconst g = Function('return this')();\nreturn [typeof __cm_time, Object.getOwnPropertyNames(g).filter((n) => n.startsWith('__')), String(performance.now).includes('__cm')]", want: `["undefined",[],false]`},
		{name: "a replaced Object.freeze sees only the built object", code: "let got;\nconst f = Object.freeze;\nObject.freeze = (o) => (got = o, f(o));\nperformance.now();\nreturn Object.values(got).map((v) => typeof v === 'function' ? v.name : typeof v)", want: `["now","number","toJSON"]`},
		{name: "with timers and crypto (host functions in name order)", code: "await new Promise((r) => setTimeout(r, 1));\nreturn [crypto.randomUUID().length, typeof performance.now(), " + steps + "]", want: `[36,"number",true]`},
	})
}

// TestClockHostFunc: __cm_time gives the time since the run's start, or
// the start with the argument 1, in steps of 0.1 ms, and refuses anything
// else.
func TestClockHostFunc(t *testing.T) {
	start := time.Now().Add(-1500 * time.Millisecond)
	c := clock{start}
	for _, args := range [][]json.RawMessage{{json.RawMessage("2")}, {json.RawMessage(`"1"`)}, {json.RawMessage("1"), json.RawMessage("1")}} {
		if out, err := c.now(args); err == nil {
			t.Errorf("now(%s) = %s, want an error", args, out)
		}
	}
	read := func(args ...json.RawMessage) float64 {
		t.Helper()
		out, err := c.now(args)
		var v float64
		if err != nil || json.Unmarshal(out, &v) != nil {
			t.Fatalf("now(%s) = %s, %v", args, out, err)
		}
		if d := v*10 - math.Round(v*10); math.Abs(d) > 1e-6 {
			t.Errorf("now(%s) = %v, not a step of 0.1 ms", args, v)
		}
		return v
	}
	if got := read(); got < 1500 {
		t.Errorf("now() = %v, want at least 1500 (the run started 1.5 s ago)", got)
	}
	want := float64(start.UnixMicro()) / 1000
	if got := read(json.RawMessage("1")); got > want || got < want-0.1 {
		t.Errorf("now(1) = %v, want %v floored to 0.1 ms", got, want)
	}
}

// TestIntl: the sandbox's Intl (prelude/intl.js) formats for en-US as a
// browser's ICU does (the strings are Node's, from its full ICU; the
// differential table is web/test/intl.test.mjs), and toLocale* and
// localeCompare go through it. They failed before: Intl was not defined
// (a ReferenceError), toLocaleString gave "1234.5" and "01/15/2024" with a
// warn, and localeCompare sorted "B" before "a". Another locale or time zone
// formats as en-US in UTC with one warn per run; FinalizationRegistry's
// hint (from the same table) is kept.
func TestIntl(t *testing.T) {
	// The sandbox's zone pinned to UTC, whatever the machine's (TZ): the
	// dates' expected text is UTC's.
	utc := Config{TimeZone: "UTC"}
	runInputCasesWith(t, utc, []inputCase{
		{name: "Intl.NumberFormat currency", code: "const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });\nreturn [usd.format(1234.5), usd.format(-0.005), new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR', currencyDisplay: 'name' }).format(2)]",
			want: `["$1,234.50","-$0.01","2.00 euros"]`, noLog: "en-US"},
		{name: "Intl.NumberFormat percent, compact, digits", code: "return [new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 }).format(0.2567), new Intl.NumberFormat('en', { notation: 'compact' }).format(1234567), new Intl.NumberFormat('en', { maximumFractionDigits: 2 }).format(1.005), new Intl.NumberFormat().format(1e21)]",
			want: `["25.7%","1.2M","1.01","1,000,000,000,000,000,000,000"]`},
		{name: "toLocaleString", code: "return [(1234.5).toLocaleString(), (1234.5).toLocaleString('en-US', { style: 'currency', currency: 'USD' }), 12345678901234567890n.toLocaleString(), (-0).toLocaleString()]",
			want: `["1,234.5","$1,234.50","12,345,678,901,234,567,890","-0"]`},
		{name: "dates, in UTC", code: "const d = new Date(Date.UTC(2024, 0, 15, 13, 5));\nreturn [d.toLocaleString(), d.toLocaleDateString('en-US', { month: 'short', day: 'numeric' }), d.toLocaleDateString('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }), d.toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit' }), new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' }).format(d), new Date(NaN).toLocaleDateString()]",
			want: `["1/15/2024, 1:05:00 PM","Jan 15","Monday, January 15, 2024","01:05 PM","January 15, 2024 at 1:05 PM","Invalid Date"]`},
		{name: "localeCompare sorts as a browser", code: "return [['bob', 'Alice', 'alice', 'Émile', 'emile', 'Zoë', '_x', 'item10', 'item2', '10'].sort((a, b) => a.localeCompare(b)), ['item10', 'item2', 'Item1'].sort(new Intl.Collator(undefined, { numeric: true }).compare), 'a'.localeCompare('A', undefined, { sensitivity: 'base' })]",
			want: `[["_x","10","alice","Alice","bob","emile","Émile","item10","item2","Zoë"],["Item1","item2","item10"],0]`},
		{name: "PluralRules, ListFormat, RelativeTimeFormat; no Segmenter or DisplayNames", code: "return [new Intl.PluralRules('en-US', { type: 'ordinal' }).select(22), new Intl.PluralRules('en').select(1), new Intl.ListFormat('en', { type: 'disjunction' }).format(['a', 'b', 'c']), new Intl.RelativeTimeFormat('en', { numeric: 'auto' }).format(-1, 'day'), new Intl.RelativeTimeFormat('en').format(3, 'hours'), typeof Intl.Segmenter, typeof Intl.DisplayNames]",
			want: `["two","one","a, b, or c","yesterday","in 3 hours","undefined","undefined"]`},
		{name: "Intl.Segmenter's error says what to write instead", code: "const words = [...new Intl.Segmenter('en', { granularity: 'word' }).segment('a b')];", errCode: "RUNTIME", errName: "TypeError",
			errMsg: `Intl.Segmenter is not a function: this sandbox's Intl has no Segmenter (typeof Intl.Segmenter is "undefined"); split the text yourself: [...text] for characters, text.match(/[\p{L}\p{N}'-]+/gu) for words`},
		{name: "Intl.DisplayNames' error says what to write instead", code: "return Intl.DisplayNames.supportedLocalesOf('en')", errCode: "RUNTIME", errName: "TypeError",
			errMsg: `Intl.DisplayNames is undefined: this sandbox's Intl has no DisplayNames (typeof Intl.DisplayNames is "undefined"); write the names the program needs in a map of its own`},
		{name: "Intl.supportedValuesOf's error says how to check a time zone", code: "return Intl.supportedValuesOf('timeZone').includes('Europe/Berlin')", errCode: "RUNTIME", errName: "TypeError",
			errMsg: `Intl.supportedValuesOf is not a function: this sandbox's Intl has no supportedValuesOf; to check a time zone, construct new Intl.DateTimeFormat("en-US", { timeZone }) in a try`},
		{name: "a zone checked as the supportedValuesOf hint says", code: "const ok = (timeZone) => { try { new Intl.DateTimeFormat(\"en-US\", { timeZone }); return true; } catch { return false; } };\nreturn [ok('Europe/Berlin'), ok('Mars/Olympus')]", want: `[true,false]`},
		{name: "the words split as the Segmenter hint says", code: "const text = \"It's a test. Is it? Yes!\";\nreturn [[...'héllo'].length, text.match(/[\\p{L}\\p{N}'-]+/gu), text.split(/(?<=[.!?])\\s+/)]", want: `[5,["It's","a","test","Is","it","Yes"],["It's a test.","Is it?","Yes!"]]`},
		{name: "typeof detects it", code: "return [typeof Intl, Object.prototype.toString.call(Intl), typeof Intl.NumberFormat.prototype.formatToParts]", want: `["object","[object Intl]","function"]`},
		{name: "another locale formats as en-US, with a warn", code: "return [new Intl.NumberFormat('de-DE').format(1234.5), (1234.5).toLocaleString('fr')]", want: `["1,234.5","1,234.5"]`,
			log: `Intl: this sandbox formats in en-US only: "de-DE" was formatted as en-US`},
		{name: "time zones from the system's zoneinfo", code: "const d = new Date(Date.UTC(2024, 0, 15, 13, 5));\nreturn [d.toLocaleTimeString('en-US', { timeZone: 'Europe/Paris', timeStyle: 'short' }), d.toLocaleString('en-US', { timeZone: 'America/New_York', timeZoneName: 'short' }), new Intl.DateTimeFormat('en-US', { timeZone: 'asia/kolkata', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(d), new Intl.DateTimeFormat('en', { timeZone: 'Asia/Kolkata' }).resolvedOptions().timeZone, new Date(Date.UTC(1850, 0, 1)).toLocaleTimeString('en-US', { timeZone: 'America/New_York', timeZoneName: 'longOffset' }), new Date(8.64e15).toLocaleString('en-US', { timeZone: 'Asia/Tokyo' })]",
			want: `["2:05 PM","1/15/2024, 8:05:00 AM EST","6:35 PM GMT+5:30","Asia/Kolkata","7:03:58 PM GMT-04:56:02","9/13/275760, 9:00:00 AM"]`, noLog: "zone"},
		{name: "an unknown time zone is a RangeError naming it, as in browsers", code: "new Intl.DateTimeFormat('en-US', { timeZone: 'Mars/Olympus' })", errCode: "RUNTIME", errName: "RangeError",
			errMsg: "Invalid time zone specified: Mars/Olympus", line: 1, col: 24},
		{name: "an option it lacks is a RangeError naming it", code: "new Intl.NumberFormat('en', { notation: 'engineering' })", errCode: "RUNTIME", errName: "RangeError",
			errMsg: `Intl.NumberFormat: option notation "engineering" is not one this sandbox supports (it has: standard, compact)`, line: 1, col: 22},
		{name: "unit style, simple units", code: "return [new Intl.NumberFormat('en-US', { style: 'unit', unit: 'kilometer' }).format(12.5), (3).toLocaleString('en', { style: 'unit', unit: 'day', unitDisplay: 'long' }), new Intl.NumberFormat('en', { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }).format(1234.56)]",
			want: `["12.5 km","3 days","1,234.6 MB"]`},
		{name: "huge fraction digits are a RangeError, as in V8", code: "(1).toLocaleString('en', { maximumFractionDigits: 1e9 })", errCode: "RUNTIME", errName: "RangeError", errMsg: "maximumFractionDigits value is out of range.", line: 1, col: 19},
		{name: "FinalizationRegistry is withheld: the error says so", code: "const r = new FinalizationRegistry((k) => {});\nreturn 1", errCode: "RUNTIME", errName: "ReferenceError",
			errMsg: "'FinalizationRegistry' is not defined: this sandbox withholds FinalizationRegistry (typeof FinalizationRegistry is \"undefined\"): a run is too short for its callbacks, which come only after an object is garbage collected; clean up in a finally block instead", line: 1, col: 15},
		{name: "FinalizationRegistry is withheld: typeof detects it", code: "return [typeof FinalizationRegistry, typeof WeakRef]", want: `["undefined","function"]`},
		{name: "the replaced methods look like methods", code: "const f = Number.prototype.toLocaleString;\nreturn [f.name, typeof f.prototype, f.length, String.prototype.localeCompare.length, Object.getOwnPropertyDescriptor(Date.prototype, 'toLocaleTimeString').enumerable, new Date(0).toLocaleTimeString('en')]", want: `["toLocaleString","undefined",0,1,false,"12:00:00 AM"]`},
	})
	// One warning per run, not per call.
	cm := newTestCodeMode(t, utc)
	s := mustSession(t, cm)
	res := exec(t, s, "for (let i = 0; i < 3; i++) (i).toLocaleString('de-DE');\nreturn new Intl.DateTimeFormat('ja').format(0)", nil)
	if n := len(res.Logs); !res.OK || n != 1 || string(res.Result) != `"1/1/1970"` {
		t.Errorf("four calls with another locale: %s, %d log entries %+v, want 1", res.Result, n, res.Logs)
	}
}

// TestUnreadableValues: a value whose reads throw (a Proxy's traps, an
// Error's name or message getter) still gets a useful line in the logs
// when a timer or microtask callback throws it or console logs it, and the
// console call itself never throws.
func TestUnreadableValues(t *testing.T) {
	const trap = "new Proxy({}, { get() { throw new Error('trap') } })"
	const badName = "(() => { const e = new TypeError('kept'); Object.defineProperty(e, 'name', { get() { throw 1 } }); return e })()"
	const badMessage = "(() => { const e = new RangeError('r'); Object.defineProperty(e, 'message', { get() { throw 1 } }); return e })()"
	const wait = "\nawait new Promise((r) => setTimeout(r, 20));\nreturn 'went on'"
	runInputCases(t, []inputCase{
		{name: "a timer throws a Proxy", code: "setTimeout(() => { throw " + trap + " }, 1);" + wait, want: `"went on"`, log: "uncaught in a setTimeout callback: an object that cannot be read or converted to text"},
		{name: "a timer throws an Error whose name getter throws", code: "setTimeout(() => { throw " + badName + " }, 1);" + wait, want: `"went on"`, log: "uncaught in a setTimeout callback: TypeError: kept"},
		{name: "a timer throws a plain object", code: "setTimeout(() => { throw { code: 7 } }, 1);" + wait, want: `"went on"`, log: `uncaught in a setTimeout callback: {"code":7}`},
		{name: "a microtask throws a Proxy", code: "queueMicrotask(() => { throw " + trap + " });\nawait null; await null;\nreturn 'went on'", want: `"went on"`, log: "uncaught in a queueMicrotask callback: an object that cannot be read or converted to text"},
		{name: "console logs what it can read", code: "console.log(" + trap + ", " + badName + ", " + badMessage + ", { a: 1 }, 'str', 5n);\nreturn 1", want: "1",
			log: `an object that cannot be read or converted to text TypeError: kept RangeError: (its message cannot be read) {"a":1} str 5`},
	})
}

// TestRandomHostFunc: __cm_urandom gives the bytes asked for (they reach
// the sandbox as an ArrayBuffer), and refuses a count the sandbox's checks
// would not let through.
func TestRandomHostFunc(t *testing.T) {
	for _, arg := range []string{"-1", "1.5", "65537", `"16"`, "null", "1e9"} {
		if out, err := (&entropy{src: rand.Reader}).random([]json.RawMessage{json.RawMessage(arg)}); err == nil {
			t.Errorf("random(%s) = %d bytes, want an error", arg, len(out))
		}
	}
	if _, err := (&entropy{src: rand.Reader}).random(nil); err == nil {
		t.Error("random() without a count: no error")
	}
	// Config.Random's default under GOOS=js.
	if out, err := (&entropy{}).random([]json.RawMessage{json.RawMessage("16")}); err != errNoRandom {
		t.Errorf("random(16) without a source = %d bytes, %v; want %v", len(out), err, errNoRandom)
	}
	for _, n := range []int{0, 16, 65536} {
		src := bytes.NewReader(bytes.Repeat([]byte{7, 200}, n))
		out, err := (&entropy{src: src}).random([]json.RawMessage{json.RawMessage(strconv.Itoa(n))})
		if err != nil || len(out) != n || (n > 0 && (out[0] != 7 || out[n-1] != 200)) {
			t.Fatalf("random(%d): %d bytes, %v", n, len(out), err)
		}
	}
}

// TestPreludeFor: a run pays only for the built-ins its code names.
func TestPreludeFor(t *testing.T) {
	for _, tc := range []struct {
		code   string
		has    []string
		hasNot []string
		needs  hostNeeds
	}{
		{"return 1", nil, []string{"lazy([\"URL\"", "timers", "none("}, hostNeeds{}},
		{"return new URL(u).host", []string{`lazy(["URL","URLSearchParams"], "url")`}, []string{"timers", "none("}, hostNeeds{}},
		{"await new Promise((r) => setTimeout(r, 5))", []string{`"timers", more[0], more[1])`}, []string{`"url"`, `"crypto"`}, hostNeeds{timers: true}},
		{"crypto.randomUUID()", []string{`lazy(["crypto"], "crypto", more[0])`}, []string{"timers"}, hostNeeds{random: true}},
		{"setTimeout(f, 1); crypto.randomUUID()", []string{`"timers", more[0], more[1])`, `lazy(["crypto"], "crypto", more[2])`}, nil, hostNeeds{timers: true, random: true}},
		{"performance.now()", []string{`lazy(["performance"], "performance", more[0])`}, []string{"timers", `"crypto"`}, hostNeeds{clock: true}},
		// The host functions come in name order: __cm_time, __cm_timer, __cm_timer_clear, __cm_urandom.
		{"setTimeout(f, 1); crypto.randomUUID(); performance.now()", []string{`"timers", more[1], more[2])`, `lazy(["crypto"], "crypto", more[3])`, `lazy(["performance"], "performance", more[0])`}, nil, hostNeeds{timers: true, random: true, clock: true}},
		{"const r = await fetch(u)", []string{`["fetch"]`, "none(k)"}, []string{"timers"}, hostNeeds{}},
		{"queueMicrotask(f)", []string{`lazy(["queueMicrotask"], "queueMicrotask")`}, []string{`"url"`, "timers"}, hostNeeds{}},
		{"btoa(x); structuredClone(y); new TextDecoder()", []string{`"base64"`, `"structuredClone"`, `"text"`}, []string{`"url"`}, hostNeeds{}},
	} {
		p, needs := preludeFor(tc.code, false)
		for _, s := range tc.has {
			if !strings.Contains(p, s) {
				t.Errorf("%q: the prelude lacks %q", tc.code, s)
			}
		}
		for _, s := range tc.hasNot {
			if strings.Contains(p, s) {
				t.Errorf("%q: the prelude has %q", tc.code, s)
			}
		}
		if needs != tc.needs {
			t.Errorf("%q: needs %+v, want %+v", tc.code, needs, tc.needs)
		}
	}
	if p, _ := preludeFor("return 1", false); p != preludePlain || strings.Contains(p, "/*GLOBALS*/") {
		t.Errorf("a plain run's prelude is not the plain one:\n%s", p)
	}
}

// TestErrorRelated: what an Error points to beyond its message reaches the
// model, in the run's error and in log lines alike: an AggregateError's
// errors (Promise.any's message is empty) and the cause chain, up to three
// levels (code that rethrows as new Error("...", { cause: e }) hid the
// tool's own error).
func TestErrorRelated(t *testing.T) {
	const orders = "try { await tools.util.fail({}) } catch (e) { throw new Error('could not load the order', { cause: e }) }"
	const chain = "new Error('a', { cause: new TypeError('b', { cause: new RangeError('c', { cause: new Error('d', { cause: 'e' }) }) }) })"
	const any6 = "Promise.any([1, 2, 3, 4, 5, 6].map((i) => Promise.reject(new Error('e' + i))))"
	runInputCases(t, []inputCase{
		{name: "a rethrow with the tool's error as cause", code: orders, errCode: "RUNTIME", errName: "Error",
			errMsg: "could not load the order; cause: ToolError: backend unavailable", line: 1, col: 62},
		{name: "Promise.any's rejection lists its errors", code: "return await Promise.any([Promise.reject(new Error('a')), Promise.reject(new TypeError('b'))])", errCode: "RUNTIME", errName: "AggregateError",
			errMsg: "errors: Error: a, TypeError: b"},
		{name: "at most five errors", code: "return await " + any6, errCode: "RUNTIME", errName: "AggregateError",
			errMsg: "errors: Error: e1, Error: e2, Error: e3, Error: e4, Error: e5 (and 1 more)"},
		{name: "a cause that is not an Error", code: "throw new Error('x', { cause: { code: 404 } })", errCode: "RUNTIME", errName: "Error", errMsg: `x; cause: {"code":404}`},
		{name: "three levels of causes", code: "throw " + chain, errCode: "RUNTIME", errName: "Error", errMsg: "a; cause: TypeError: b; cause: RangeError: c; cause: Error: d"},
		{name: "a cause getter that throws leaves the message", code: "const e = new Error('kept'); Object.defineProperty(e, 'cause', { get() { throw 1 } }); throw e", errCode: "RUNTIME", errName: "Error", errMsg: "kept"},
		{name: "console.log shows the cause", code: "console.log(new Error('x', { cause: new Error('y') }));\nreturn 1", want: "1", log: "Error: x; cause: Error: y"},
		{name: "console.log shows the errors", code: "try { await " + any6 + " } catch (e) { console.log(e) }\nreturn 1", want: "1", log: "AggregateError: ; errors: Error: e1"},
		{name: "an uncaught timer error shows its cause", code: "setTimeout(() => { throw new Error('t', { cause: 'why' }) }, 1);\nawait new Promise((r) => setTimeout(r, 20));\nreturn 1", want: "1", log: "uncaught in a setTimeout callback: Error: t; cause: why"},
		{name: "no cause, no errors: as before", code: "throw new TypeError('plain')", errCode: "RUNTIME", errName: "TypeError", errMsg: "plain", noLog: "cause"},
	})
}

// TestHostGlobalHints: a run that ends on a module's or a page's global
// (module.exports, document, process) says what to do instead; a caught
// error keeps QuickJS's wording, and a name that merely starts like one
// gets nothing.
func TestHostGlobalHints(t *testing.T) {
	const commonJS = "'module' is not defined: the code is the body of an async function, not a module; return the result (return value;) instead of assigning module.exports"
	runInputCases(t, []inputCase{
		{name: "module.exports", code: "module.exports = async () => 1", errCode: "RUNTIME", errName: "ReferenceError", errMsg: commonJS, line: 1, col: 1},
		{name: "exports.x", code: "exports.main = 1", errCode: "RUNTIME", errName: "ReferenceError", errMsg: "'exports' is not defined: the code is the body of an async function, not a module"},
		{name: "document", code: "return document.title", errCode: "RUNTIME", errName: "ReferenceError", errMsg: "'document' is not defined: the sandbox has no page, DOM, storage or Node.js objects"},
		{name: "localStorage", code: "return localStorage.getItem('k')", errCode: "RUNTIME", errName: "ReferenceError", errMsg: "get the page's data by calling its tools (tool_search finds them)"},
		{name: "process.env", code: "return process.env.KEY", errCode: "RUNTIME", errName: "ReferenceError", errMsg: "'process' is not defined: the sandbox has no page"},
		{name: "a caught error keeps QuickJS's wording", code: "try { window.x } catch (e) { return e.message }", want: `"'window' is not defined"`},
		// The model's own two tools, called from the code as if they were
		// globals: they are the host's, outside the sandbox.
		{name: "searchTools in the code", code: "const hits = await searchTools({ query: 'orders' })\nreturn hits", errCode: "RUNTIME", errName: "ReferenceError", errMsg: "'searchTools' is not defined: " + llmToolHints["searchTools"], line: 1, col: 20},
		{name: "executeCode in the code", code: "return await executeCode({ code: 'return 1' })", errCode: "RUNTIME", errName: "ReferenceError", errMsg: "'executeCode' is not defined: " + llmToolHints["executeCode"]},
		{name: "searchTools as a page tool", code: "return await tools.searchTools({ query: 'orders' })", errCode: "RUNTIME", errName: "ToolError", errMsg: `unknown tool "searchTools"; ` + llmToolHints["searchTools"]},
		{name: "executeCode by tool_call", code: "return await tool_call('executeCode', { code: 'return 1' })", errCode: "RUNTIME", errName: "ToolError", errMsg: `unknown tool "executeCode"; ` + llmToolHints["executeCode"]},
		{name: "another name gets no hint", code: "return moduleX", errCode: "RUNTIME", errName: "ReferenceError", errMsg: "'moduleX' is not defined"},
	})
	for _, e := range []sandbox.Error{{Name: "ReferenceError", Message: "'moduleX' is not defined"}, {Name: "TypeError", Message: "'module' is not defined"}, {Name: "ReferenceError", Message: "'module' is not defined."}} {
		if h := hintFor(&e); h != "" {
			t.Errorf("%s: %s gets the hint %q", e.Name, e.Message, h)
		}
	}
}

// TestSyntaxHints: where QuickJS's syntax error does not say what is
// wrong, its message says what to write instead: a decorator, and a
// program that is only a JSON object (which JavaScript reads as a block).
func TestSyntaxHints(t *testing.T) {
	const awaitHintText = "await is only valid in an async function: make the function around it async"
	const deco = "decorators (@name) are not supported in this sandbox; apply the function yourself"
	const jsonObj = "the code is a JSON object, not a program; to give that data back, write return followed by it"
	runInputCases(t, []inputCase{
		{name: "a class decorator", code: "function dec(c) { return c }\n@dec class C {}\nreturn 1", errCode: "SYNTAX", errName: "SyntaxError", errMsg: deco, line: 2, col: 1},
		{name: "a method decorator", code: "class C { @log m() {} }\nreturn 1", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "invalid property name: " + deco, line: 1, col: 11},
		{name: "a JSON object", code: "{\"orders\": [1, 2], \"total\": 3}", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expecting ';': " + jsonObj},
		{name: "a JSON array is a value already", code: "[1, {\"a\": 2}]", want: `[1,{"a":2}]`},
		{name: "an @ in a string is not a decorator", code: "const s = 'a@b'\nreturn s +", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "unexpected end of input"},
		{name: "a block is not a JSON object", code: "{ const a = 1 }\nreturn", want: ""},
		// An object literal with unquoted keys is not JSON: JavaScript reads
		// it as a block whose first statement has a label.
		{name: "an object literal of two properties", code: "{ orders: [1, 2], total: 3 }", errCode: "SYNTAX", errName: "SyntaxError", errMsg: objectBlockHint},
		{name: "an object literal with a quoted key (not JSON)", code: "{ 'a': 1 }", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expecting ';'" + objectBlockHint},
		{name: "an object literal with a call and a semicolon", code: "{\n  name: 'x',\n  total: f()\n};", errCode: "SYNTAX", errName: "SyntaxError", errMsg: objectBlockHint},
		// await in a callback or function that is not async: QuickJS reads
		// await as a name there, and said only "expecting ','".
		{name: "await in a map callback", code: "return [1].map(x => await tools.orders.get({ id: x }))", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expecting ',': " + awaitHintText, line: 1, col: 27},
		{name: "await in a forEach callback's block", code: "[1].forEach(x => {\n  await tools.orders.get({ id: x })\n})", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expecting ';': " + awaitHintText, line: 2, col: 9},
		{name: "await in a plain function", code: "function f() {\n  const r = await tools.orders.get({})\n  return r\n}\nreturn f()", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expecting ';': " + awaitHintText, line: 2, col: 19},
		{name: "await in a method, before a number", code: "class A { m() { await\t1 } }", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expecting ';': " + awaitHintText, line: 1, col: 23},
		{name: "await ( in a plain arrow calls a name await", code: "return [1].map(x => await (tools.orders.get({})))", errCode: "RUNTIME", errName: "ReferenceError", errMsg: "'await' is not defined: " + awaitHintText, line: 1, col: 21},
		// Prose around a program sent without a fence.
		{name: "a sentence before the code", code: "Here is the code:\nreturn 6;", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expecting ';'" + fmt.Sprintf(proseHint, 1), line: 1, col: 6},
		{name: "a sentence after the code", code: "const n = 6;\nreturn n;\n\nThis returns the count of open orders.", errCode: "SYNTAX", errName: "SyntaxError", errMsg: fmt.Sprintf(proseHint, 4), line: 4, col: 6},
		{name: "lower-case words with an apostrophe", code: "i'll count the orders now.\nreturn 1", errCode: "SYNTAX", errName: "SyntaxError", errMsg: fmt.Sprintf(proseHint, 1), line: 1, col: 2},
		// JSX and using declarations: QuickJS's words named a token only.
		{name: "a JSX element", code: "const el = <div/>;\nreturn el", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "unexpected token in expression: '<'" + jsxHint, line: 1, col: 12},
		{name: "JSX over lines in parentheses", code: "return (\n  <div>\n    <span>{1}</span>\n  </div>\n)", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "unexpected token in expression: '<'" + jsxHint, line: 2, col: 3},
		{name: "a JSX fragment", code: "const a = <>\n<b/></>\nreturn a", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "unexpected token in expression: '<'" + jsxHint, line: 1, col: 11},
		// A # comment (Python's, the shell's) or a markdown heading line:
		// QuickJS reads # as the start of a private name.
		{name: "a # comment line", code: "# the open orders\nreturn 1", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "invalid first character of private name" + fmt.Sprintf(hashCommentHint, 1), line: 1, col: 1},
		{name: "a markdown heading after code", code: "const a = 1;\n## Step 2\nreturn a", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "invalid first character of private name" + fmt.Sprintf(hashCommentHint, 2), line: 2, col: 1},
		{name: "a # comment after a statement", code: "const a = 1  # one\nreturn a", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "invalid first character of private name" + fmt.Sprintf(hashCommentHint, 1), line: 1, col: 14},
		{name: "a component in a map, in a tsx fence", code: "```tsx\nconst items = [1].map(x => <Item key={x} />)\nreturn items\n```", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "unexpected token in expression: '<'" + jsxHint, line: 2, col: 28},
		// A using declaration as a statement runs (tsstrip rewrites it);
		// one of a value without a dispose method throws where it stands.
		{name: "a using declaration", code: "using res = { [Symbol.dispose]() {} }\nreturn 1", want: "1"},
		{name: "a using declaration of a value that has no dispose method", code: "const x = 1\nusing res = { close() {} }\nreturn 1", errCode: "RUNTIME", errName: "TypeError", errMsg: "using: res has no [Symbol.dispose]() method"},
		{name: "an await using declaration in a function", code: "async function f() {\n  await using r = open()\n}\nreturn 1", want: "1"},
		{name: "a for using loop", code: "for (using x of []) {}\nreturn 1", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expected 'of' or 'in' in for control expression" + usingHint, line: 1, col: 12},
		{name: "a variable called using", code: "let using = 1\nusing = 2\nreturn using", want: "2"},
		// Auto-accessors (TC39 decorators' accessor keyword, which TypeScript
		// 4.9+ takes): QuickJS reads accessor as a field name.
		{name: "an auto-accessor", code: "class A { accessor x = 1 }\nreturn new A().x", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expecting ';'" + accessorHint, line: 1, col: 20},
		{name: "a static auto-accessor", code: "class A {\n  static accessor y;\n}\nreturn 1", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expecting ';'" + accessorHint, line: 2, col: 19},
		{name: "a private auto-accessor", code: "class A { accessor #p = 0 }\nreturn 1", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expecting ';'" + accessorHint, line: 1, col: 20},
		{name: "a field called accessor", code: "class A { accessor = 1; accessor2() { return this.accessor + 1 } }\nreturn new A().accessor2()", want: "2"},
		// A program that writes markdown: a fence line inside its template
		// literal ends the literal at its first backtick, where QuickJS
		// says only "expecting ';'" (escaped, the same program runs).
		{name: "a fence with a language in a template literal", code: "const rows = [1]\nreturn `Rows:\n```json\n${JSON.stringify(rows)}\n```\n`", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expecting ';'" + fmt.Sprintf(templateFenceHint, 3), line: 3, col: 4},
		{name: "a fence in a template literal, in a fenced program", code: "```js\nreturn `a\n```json\n1\n```\n`\n```", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expecting ';'" + fmt.Sprintf(templateFenceHint, 3), line: 3, col: 4},
		{name: "a bare fence in a template literal", code: "const md = `Run:\n```\nnpm test\n```\n`\nreturn md", errCode: "SYNTAX", errName: "SyntaxError", errMsg: fmt.Sprintf(templateFenceHint, 2)},
		{name: "escaped fences in a template literal run", code: "return `a\n\\`\\`\\`json\n1\n\\`\\`\\``", want: "\"a\\n```json\\n1\\n```\""},
		// Typographic quotes, from a model or a chat client that "smartened" them.
		{name: "typographic double quotes", code: "const s = “hello”;\nreturn s", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "unexpected character" + quoteHint, line: 1, col: 11},
		{name: "a typographic single quote", code: "return [\n  ‘a’]", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "unexpected character" + quoteHint, line: 2, col: 3},
		{name: "typographic quotes inside a string", code: "return '“x”'", want: "\"“x”\""},
		// Code escaped twice (arguments JSON-encoded once too often): the
		// line breaks arrive as a backslash and an n, on one line.
		{name: "line breaks escaped twice", code: `const a = 1;\nreturn a`, errCode: "SYNTAX", errName: "SyntaxError", errMsg: "unexpected token in expression: '\\'" + escapedHint, line: 1, col: 13},
		{name: "quotes escaped twice", code: `const s = \"x\"; return s`, errCode: "SYNTAX", errName: "SyntaxError", errMsg: escapedHint, line: 1, col: 11},
		{name: "a fence escaped twice", code: "```js\\nreturn 1\\n```", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "```js block" + escapedHint, line: 1, col: 1},
		{name: "a string's own \\n on one line runs", code: `return 'a\nb'.length`, want: "3"},
		// The whole program JSON-encoded once more, quotes included: it ran
		// as a string literal and returned its own text, ok, which told the
		// model nothing. A line break or a semicolon and a return or an await
		// in the text tell a program from a string meant as the result.
		{name: "a program encoded as one string literal", code: `"const o = await tools.orders.search({});\nreturn o.length;"`, errCode: "SYNTAX", errName: "SyntaxError", errMsg: encodedProgramMessage, line: 1, col: 1},
		{name: "a one-line program encoded as one string literal", code: ` "const o = await f(); return o"` + "\n", errCode: "SYNTAX", errName: "SyntaxError", errMsg: encodedProgramMessage, line: 1, col: 2},
		{name: "a string literal of text runs", code: `"Orders:\nnone to return today"`, want: `"Orders:\nnone to return today"`},
		{name: "a string literal of one statement runs", code: `"return 1"`, want: `"return 1"`},
		// Python's f-strings: QuickJS reads f as a name and stops at the string.
		{name: "an f-string", code: "const n = 3\nreturn f\"{n} orders\"", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expecting ';'" + fStringHint, line: 2, col: 9},
		{name: "an f-string argument", code: "const n = 3\nconsole.log(f'{n} orders')", errCode: "SYNTAX", errName: "SyntaxError", errMsg: fStringHint, line: 2, col: 14},
		{name: "a string literal then code runs", code: "\"use strict\";\nreturn 1", want: "1"},
		// Python's import, list comprehension and conditional expression.
		{name: "from x import y", code: "from orders import search\nreturn 1", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expecting ';'" + fmt.Sprintf(pythonHint, 1), line: 1, col: 6},
		{name: "a list comprehension", code: "const xs = [1, 2]\nreturn [x * 2 for x in xs]", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expecting ']'" + comprehensionHint, line: 2, col: 15},
		{name: "a generator in a call", code: "const xs = [1, 2]\nreturn Math.max(x for x in xs)", errCode: "SYNTAX", errName: "SyntaxError", errMsg: comprehensionHint, line: 2, col: 19},
		{name: "a conditional expression", code: "const xs = [1]\nconst n = xs.length if xs else 0\nreturn n", errCode: "SYNTAX", errName: "SyntaxError", errMsg: "expecting ';'" + conditionalHint, line: 2, col: 21},
	})
	// No await hint: a name that ends in await, an error of another kind
	// after a top-level await (which is valid there).
	for _, tc := range []struct {
		code, msg string
		line, col int
	}{
		{"const notawait = 1\nreturn notawait 2", "expecting ';'", 2, 17},
		{"const notusing = 1\nreturn notusing 2", "expecting ';'", 2, 17},
		{"const a = 1, b = 2\nreturn a < <b", "unexpected token in expression: '<'", 2, 12},
		{"return 1 < <2> 3", "unexpected token in expression: '<'", 1, 12},
		{"const x = await )", "unexpected token in expression: ')'", 1, 17},
		{`return 'a\nb' +`, "unexpected end of input", 1, 16},
		{"const a = 1\nreturn a \\", "unexpected token in expression: '\\'", 2, 10},
		{"const buf = 1\nreturn buf \"x\"", "expecting ';'", 2, 12},
		// for and if where JavaScript's statements are, and an import.
		{"const a = 1 for (const x in o) {}", "expecting ';'", 1, 13},
		{"if (a) {} else if b {}", "expecting '('", 1, 19},
		{"const from = 1\nfrom + 1", "m", 2, 1},
	} {
		e := sandbox.Error{Code: sandbox.CodeSyntax, Name: "SyntaxError", Message: tc.msg, Line: tc.line, Column: tc.col}
		if h := syntaxHint(tc.code, &e); h != "" {
			t.Errorf("%q gets the hint %q", tc.code, h)
		}
	}
	for _, code := range []string{"const s = 'a@b'\nreturn s +", "{ x: 1 }}", "{ x: 1 }\nfoo(", "{ outer: for (;;) { break outer } }", "({ x: 1, y: 2 }"} {
		e := sandbox.Error{Code: sandbox.CodeSyntax, Name: "SyntaxError", Message: "m", Line: 1, Column: 1}
		if h := syntaxHint(code, &e); h != "" {
			t.Errorf("%q gets the hint %q", code, h)
		}
	}
}

// TestObjectBlockWarning: `{ a: 1 }` as a program runs as a block whose
// first statement has the label a (its result is 1): the run says so, and
// how to give the object back. A block that is one, a real label and an
// object in parentheses say nothing.
func TestObjectBlockWarning(t *testing.T) {
	runInputCases(t, []inputCase{
		{name: "a one-property object literal", code: "{ a: 1 }", want: `1`, log: objectBlockWarning},
		{name: "with a semicolon", code: "{ total: [1, 2] };", want: `[1,2]`, log: objectBlockWarning},
		{name: "in parentheses", code: "({ a: 1 })", want: `{"a":1}`, noLog: "read as a block"},
		{name: "returned", code: "return { a: 1 }", want: `{"a":1}`, noLog: "read as a block"},
		{name: "a block", code: "{ const a = 1; console.log(a) }", want: ``, noLog: "read as a block"},
		{name: "a labelled loop in a block", code: "{ outer: for (const x of [1, 2]) { if (x) break outer } }", want: ``, noLog: "read as a block"},
		{name: "a block and more", code: "{ a: 1 }\nreturn 2", want: `2`, noLog: "read as a block"},
		// Session 39: one property on the program's last line, after other code.
		{name: "one property on the last line", code: "const n = 3;\n{ count: n }", want: `3`, log: "line 2 starts with {, so it is a block, not an object literal; to give the object back, return it: return { ... }"},
		{name: "a string value on the last line, in a fence", code: "```js\nconst c = 'Ada'\n{ answer: c }\n```", want: `"Ada"`, log: "line 3 starts with {, so it is a block"},
		{name: "a last block that is one", code: "const n = 3;\n{ console.log(n) }", want: ``, noLog: "starts with {"},
		{name: "a labelled loop last", code: "const n = 3;\n{ outer: for (const x of [n]) break outer }", want: ``, noLog: "starts with {"},
	})
}

// TestDeclaredWarning: a program whose last statement declares a name and
// that returns nothing has no result, or an earlier statement's value: the
// run says so, naming the line and the name to return. A program that
// returns, or goes on after the declaration, says nothing.
func TestDeclaredWarning(t *testing.T) {
	runInputCases(t, []inputCase{
		{name: "the last line declares the answer", code: "const orders = await tools.orders.get({ id: 3 })\nconst id = orders.input.id;", want: ``, log: fmt.Sprintf(declaredWarning, 2, "id", "id")},
		{name: "typed, over lines", code: "const n = 2\nlet ids: number[] = [n]\n  .map((x) => x * 2)", want: ``, log: fmt.Sprintf(declaredWarning, 2, "ids", "ids")},
		{name: "returned", code: "const a = 1\nreturn a", want: `1`, noLog: "returns nothing"},
		{name: "an expression after it", code: "const a = 1\na + 1", want: `2`, noLog: "returns nothing"},
		{name: "an expression statement's value before it", code: "let total = 0\nfor (const x of [2, 3]) total += x\nlet summary = `total ${total}`", want: `5`, log: fmt.Sprintf(declaredValueWarning, 3, "summary", "summary", "summary", "summary")},
		{name: "a helper declared last", code: "console.log(1)\nconst f = (x) => x", want: ``, noLog: "returns nothing"},
		{name: "a program that throws", code: "const a = null.x", errCode: "RUNTIME", errName: "TypeError", errMsg: "of null"},
	})
}

// TestLaterFenceWarning: a program split into two JavaScript blocks runs
// the first and says, first among the logs, that the second did not run.
func TestLaterFenceWarning(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	res := exec(t, s, "First:\n```js\nconst a = 1\nconsole.log('first')\n```\nThen:\n```js\nreturn a + 1\n```", nil)
	want := []LogEntry{{"warn", "line 7: this code block did not run: only the first JavaScript block of the text is the program; send the whole program in one block"}, {"log", "first"}}
	if !res.OK || !reflect.DeepEqual(res.Logs, want) {
		t.Errorf("ok %v, logs %q, want %q", res.OK, res.Logs, want)
	}
	if res = exec(t, s, "```js\nreturn 1\n```\nOutput:\n```\n1\n```", nil); len(res.Logs) != 0 {
		t.Errorf("a later bare fence warned: %q", res.Logs)
	}
}

// TestProseLine: the lines proseHint follows, and code it must not.
func TestProseLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"Here is the code:", true},
		{"  This sums the totals, then returns them.", true},
		{"I’ll call the tool first", true},
		{"here's how it works!", true},
		{"Sure! Here's the code:", true},
		{"Certainly! Below is the updated code.", true},
		{"Great, thanks. Let me check the orders first.", true},
		{"Okay?! Running it now:", true},
		{"x! y z", false},
		{"Sure", false},
		{"Here it is:", true},
		{"let a b c", false},
		{"var a, b c", false},
		{"return await main", false},
		{"else return x", false},
		{"Step 1: get the orders.", false},
		{"const total = orders.length;", false},
		{"// This returns the total.", false},
		{"", false},
	} {
		if got := proseLine(tc.line); got != tc.want {
			t.Errorf("proseLine(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

// TestHashCommentHintOnlyForComments: a # QuickJS stopped at that is no
// comment's (after a dot, before a name) gets no comment hint.
func TestHashCommentHintOnlyForComments(t *testing.T) {
	for _, tc := range []struct {
		code string
		col  int
	}{
		{"class A { #x = 1; m() { return this.# x } }", 37},
		{"return a#b", 9},
	} {
		e := &sandbox.Error{Code: sandbox.CodeSyntax, Name: "SyntaxError", Message: "invalid first character of private name", Line: 1, Column: tc.col}
		if h := syntaxHint(tc.code, e); strings.Contains(h, "comment") {
			t.Errorf("%q at %d: got the hint %q", tc.code, tc.col, h)
		}
	}
}
