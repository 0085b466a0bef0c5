package codemode

import (
	"strings"
	"testing"

	"github.com/interopio/code-mode/sandbox"
)

// TestModelHabitHints: the hints for what models trained on other code
// write (HTML entities, Python lines and names, JSON.parse of a result)
// come where the error is that habit's, and nowhere else. The packed
// package's web/test/model-outputs.test.mjs runs the same habits whole.
func TestModelHabitHints(t *testing.T) {
	syntax := func(msg string, line, col int) *sandbox.Error {
		return &sandbox.Error{Code: sandbox.CodeSyntax, Name: "SyntaxError", Message: msg, Line: line, Column: col}
	}
	for _, tc := range []struct {
		name, code string
		e          *sandbox.Error
		want       string // "" for no hint
	}{
		{"=&gt; at the error", "const a = [];\nreturn a.filter((o) =&gt; o);", syntax("unexpected token in expression: '&'", 2, 22), "HTML entities (&gt;)"},
		{"&amp; ends at the error", "return a &amp;& b", syntax("expecting ','", 1, 14), "HTML entities (&amp;)"},
		{"an entity in a string, the error elsewhere", "const el = \"&lt;b&gt;\"; return el +", syntax("unexpected end of input", 1, 36), ""},
		{"an entity on another line", "const el = '&lt;';\nreturn )", syntax("unexpected token in expression: ')'", 2, 8), ""},
		{"def", "def main():\n    return 1", syntax("expecting ';'", 1, 5), "line 1 is Python"},
		{"for x in xs:", "const xs = []\nfor x in xs:\n  y", syntax("expecting '('", 2, 5), "line 2 is Python"},
		{"a case label is JavaScript", "switch (x) {\ncase 1:\n  ) }", syntax("unexpected token in expression: ')'", 3, 3), ""},
		{"for ( is JavaScript", "for (const x of xs)\n  ) :", syntax("unexpected token in expression: ')'", 2, 3), ""},
		{"else { is JavaScript", "if (a) b\nelse {:", syntax("unexpected token in expression: ':'", 2, 7), ""},
		// Python's operators and lambda: QuickJS stops at and, or and is, and
		// after not and lambda.
		{"and", "const o = [1]; if (o.length > 0 and o[0]) return 1", syntax("expecting ')'", 1, 33), pythonOperatorHint},
		{"or", "const a = 1, b = 2; return a or b", syntax("expecting ';'", 1, 30), pythonOperatorHint},
		{"is None", "const x = null; if (x is None) return 1", syntax("expecting ')'", 1, 23), pythonOperatorHint},
		{"not", "const o = []; if (not o.length) return 0", syntax("expecting ')'", 1, 23), pythonOperatorHint},
		{"lambda", "const f = lambda x: x + 1", syntax("expecting ';'", 1, 18), pythonLambdaHint},
		{"a name ending in or", "const color = 1; return color x", syntax("expecting ';'", 1, 31), ""},
		{"or as a name before the error", "const or = 1; return or 2", syntax("expecting ';'", 1, 25), ""},
		{"a name ending in not", "const cannot = 1; return cannot 2", syntax("expecting ';'", 1, 33), ""},
		// An object literal as the last statement, the answer without return.
		{"an object literal ends the program", "const a = 1, b = 2;\n{ open: a, shipped: b }", syntax("expecting ';'", 2, 19), "line 2 starts with {, so it is a block"},
		{"a multi-line object literal ends it", "const a = 1;\n{\n  a: a,\n  b: 2\n}\n", syntax("expecting ';'", 4, 4), "line 2 starts with {, so it is a block"},
		{"the error before the last block", "const a = ;\n{ a: 1, b: 2 }", syntax("unexpected token in expression: ';'", 1, 11), ""},
		{"a last block that is no object", "const a = 1;\n{ f(a) ) }", syntax("expecting ';'", 2, 8), ""},
		// Session 39: more of Python, and the bytes of copied text.
		{"async def", "async def main():\n    return 1", syntax("expecting ';'", 1, 7), "line 1 is Python"},
		// Session 40: def before a body in braces ("expecting ';'" alone).
		{"async def with braces", "async def main() {\n  return 1\n}", syntax("expecting ';'", 1, 7), ": def is Python; JavaScript declares a function with function"},
		{"def with braces", "def main() {\n  return 1\n}", syntax("expecting ';'", 1, 5), ": def is Python"},
		{"a name ending in def", "const undef = 1; return undef 2", syntax("expecting ';'", 1, 31), ""},
		{"elif with braces", "if (a) { b }\nelif (c) { d }", syntax("expecting ';'", 2, 10), ": elif is Python; JavaScript writes else if"},
		{"elif after the closing brace", "if (a) {\n  b\n} elif (c) {\n  d\n}", syntax("expecting ';'", 3, 12), ": elif is Python; JavaScript writes else if"},
		{"not in", "return \"o-9\" not in ids;", syntax("expecting ';'", 1, 14), pythonOperatorHint},
		{"a docstring", "\"\"\"Count the orders.\"\"\"\nreturn 1", syntax("expecting ';'", 1, 3), "Python docstring"},
		{"a zero-width space", "const a =\u200b 1;", syntax("unexpected character", 1, 10), ": line 1 holds U+200B, an invisible character"},
		{"tool-call markup", "<tool_call>\n{\"name\": \"executeCode\", \"arguments\": {\"code\": \"return 1\"}}\n</tool_call>", syntax("unexpected token in expression: '<'", 1, 1), ": the code is wrapped in tool-call markup"},
		{"Llama's function markup", "<function=executeCode>{\"code\": \"return 1\"}</function>", syntax("unexpected token in expression: '<'", 1, 1), ": the code is wrapped in tool-call markup"},
		{"JSX is not markup of a call", "return <div>{n}</div>", syntax("unexpected token in expression: '<'", 1, 8), jsxHint},
		// Session 40: tool-call markup in <function_calls> or cut short
		// (it got the JSX hint, or none).
		{"markup in function_calls", "<function_calls>\n<invoke name=\"executeCode\">", syntax("unexpected token in expression: '<'", 1, 1), ": the code is wrapped in tool-call markup"},
		{"markup after a thought", "Thought: count them.\n<tool_call>\n{\"name\": \"executeCode\"}\n</tool_call>", syntax("expecting ';'", 1, 16), ": the code is wrapped in tool-call markup"},
		{"markup cut short", "<tool_call>\n{\"name\": \"executeCode\", \"arguments\": {\"code\": \"return 1", syntax("unexpected token in expression: '<'", 1, 1), ": the code is wrapped in tool-call markup"},
		{"another unexpected character", "const a = \u00a7 1;", syntax("unexpected character", 1, 11), ""},
		// Session 42: raise, full-width punctuation, a program cut short.
		{"raise", "if (!a) {\n  raise ValueError(\"none\")\n}", syntax("expecting ';'", 2, 9), ": raise is Python; JavaScript writes throw new Error"},
		{"a full-width semicolon", "const a = f()\uff1b\nreturn a", syntax("unexpected character", 1, 14), ": line 1 holds \uff1b (U+FF1B), a full-width character; JavaScript's is ;"},
		{"a full-width parenthesis", "console.log\uff08a)", syntax("unexpected character", 1, 12), "JavaScript's is ("},
		{"a program cut short", "const rows = await f({\n  status: \"open\",\n", syntax("invalid property name", 2, 18), ": the program ends before its last statement does (cut short?"},
		{"an error before the end is not cut short", "const a = {\n  b: ,\n};", syntax("unexpected token in expression: ','", 2, 6), ""},
		// Session 46: Step-3's steptml markup (QuickJS's bare words).
		{"Step-3's markup", "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"executeCode\"><steptml:parameter name=\"code\">return 1</steptml:parameter></steptml:invoke>", syntax("unexpected token in expression: '<'", 1, 1), ": the code is wrapped in tool-call markup"},
		{"Mistral's markup", "[TOOL_CALLS][{\"name\": \"a\"}, {\"name\": \"b\"}", syntax("m", 1, 1), ": the code is wrapped in tool-call markup"},
	} {
		if got := syntaxHint(tc.code, tc.e); (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: hint %q, want one with %q", tc.name, got, tc.want)
		}
	}
	ref := func(name string) *sandbox.Error {
		return &sandbox.Error{Code: sandbox.CodeRuntime, Name: "ReferenceError", Message: "'" + name + "' is not defined"}
	}
	if h := entityNameHint("if (a &lt; b) n++", ref("lt")); !strings.Contains(h, "HTML entities (&lt;)") {
		t.Errorf("'lt' of code with &lt;: %q", h)
	}
	if h := entityNameHint("return lt", ref("lt")); h != "" {
		t.Errorf("'lt' of code without &lt;: %q", h)
	}
	for name, want := range map[string]string{"print": "console.log", "True": "true, false and null", "None": "null", "len": "x.length", "str": "String(x)", "int": "Math.trunc(Number(x))", "float": "Number(x)", "range": "Array.from({ length: n }, (_, i) => i)", "search": "tool_search({ query })", "printf": "", "alert": "no user to ask", "confirm": "console.log(...) or return the value",
		"final_answer": "return value;", "finalAnswer": "return value;", "callTool": "await tool_call(\"<namespace>.<name>\", input)", "call_tool": "await tools.<namespace>.<name>(input)", "invokeTool": "tool_call(", "callToolX": "", "search_tools": "tool_search({ query })",
		"Deno": "no page, DOM, storage or Node.js objects", "Response": "no page, DOM", "AbortController": "no page, DOM", "global": "globalThis", "setImmediate": "setTimeout(r, 0)", "Temporal": "use Date", "useState": "no React", "json": "JSON.stringify and JSON.parse", "TOOL_CALLS": "tool-call markup", "Bun": "no page, DOM", "process": "log with console.log(...), not process.stdout.write", "default_api": "the tools are functions of tools, not of default_api; call a tool as a function of tools"} {
		if h := hintFor(ref(name)); (want == "") != (h == "") || !strings.Contains(h, want) {
			t.Errorf("'%s' is not defined: hint %q, want one with %q", name, h, want)
		}
	}
	parse := &sandbox.Error{Code: sandbox.CodeRuntime, Name: "SyntaxError", Message: "unexpected token: 'object'", Stack: "    at parse (native)\n    at <anonymous> (code.js:1:24)"}
	if h := hintFor(parse); h != jsonParseObjectHint {
		t.Errorf("JSON.parse of an object: %q", h)
	}
	parse.Stack = "    at <anonymous> (code.js:1:24)"
	if h := hintFor(parse); h != "" {
		t.Errorf("the same words not from JSON.parse: %q", h)
	}
	// JSON.parse(undefined): QuickJS's "unexpected token: 'undefined'" alone.
	undef := &sandbox.Error{Code: sandbox.CodeRuntime, Name: "SyntaxError", Message: "unexpected token: 'undefined'", Stack: "    at parse (native)\n    at <anonymous> (code.js:2:20)"}
	if h := hintFor(undef); h != jsonParseUndefinedHint {
		t.Errorf("JSON.parse of undefined: %q", h)
	}
	// QuickJS's "Date value is NaN" of new Date(o.missing).toISOString() said not what the value was.
	for stack, want := range map[string]string{"    at toISOString (native)\n    at <anonymous> (code.js:2:30)\n": invalidDateHint, "    at <anonymous> (code.js:1:7)\n": ""} {
		if h := hintFor(&sandbox.Error{Code: sandbox.CodeRuntime, Name: "RangeError", Message: "Date value is NaN", Stack: stack}); h != want {
			t.Errorf("Date value is NaN at %q: hint %q, want %q", stack, h, want)
		}
	}
	// A Proxy around a frozen namespace: QuickJS's words named neither.
	if h := hintFor(&sandbox.Error{Code: sandbox.CodeRuntime, Name: "TypeError", Message: "proxy: inconsistent get"}); !strings.Contains(h, "new Proxy({}, ") {
		t.Errorf("proxy: inconsistent get: %q", h)
	}
	// JSON.stringify of a BigInt: QuickJS's words alone named no way out.
	big := &sandbox.Error{Code: sandbox.CodeRuntime, Name: "TypeError", Message: "Do not know how to serialize a BigInt", Stack: "    at stringify (native)\n"}
	if h := hintFor(big); !strings.Contains(h, "convert it first, with String(x) (or Number(x) below 2**53)") {
		t.Errorf("JSON.stringify of a BigInt: %q", h)
	}
	// QuickJS's "empty array" from reduce of [] said neither the call nor the fix.
	for stack, want := range map[string]string{"    at reduce (native)\n    at <anonymous> (code.js:2:16)\n": emptyReduceHint, "    at reduceRight (native)\n": emptyReduceHint, "    at <anonymous> (code.js:1:7)\n": ""} {
		if h := hintFor(&sandbox.Error{Code: sandbox.CodeRuntime, Name: "TypeError", Message: "empty array", Stack: stack}); h != want {
			t.Errorf("empty array at %q: hint %q, want %q", stack, h, want)
		}
	}
}

// TestTypeErrorHint: QuickJS's "cannot read property 'x' of undefined" and
// "not a function" gain the expression the code wrote there.
func TestTypeErrorHint(t *testing.T) {
	te := func(msg string, line, col int) *sandbox.Error {
		return &sandbox.Error{Code: sandbox.CodeRuntime, Name: "TypeError", Message: msg, Line: line, Column: col}
	}
	for _, tc := range []struct {
		code string
		e    *sandbox.Error
		want string // "" for no hint
	}{
		{"const o = {}; return o.items.map(x => x)", te("cannot read property 'map' of undefined", 1, 29), ": o.items is undefined"},
		{"const o = { a: 1 }; return o?.b.c", te("cannot read property 'c' of undefined", 1, 32), ": o?.b is undefined"},
		{"let x = null; return x.foo", te("cannot read property 'foo' of null", 1, 23), ": x is null"},
		{"const r = await tools.orders.get({ id: \"o-1\" });\nconst data = JSON.parse(r.content[0].text);", te("cannot read property of undefined", 2, 34), ": r.content is undefined; a tool's result is its data itself"},
		{"return (await tools.o.s({})).items.map(f)", te("cannot read property 'map' of undefined", 1, 35), ": (await tools.o.s({})).items is undefined"},
		{"const o = {}; o.run()", te("not a function", 1, 20), ": o.run is not a function"},
		{"const ids = [];\nids.append(1)", te("not a function", 2, 11), ": ids.append is not a function; a JavaScript array adds to its end with push: ids.push(...)"},
		{"return \"{} orders\".format(n)", te("not a function", 1, 26), ": format is not a function; JavaScript has no str.format: write a template literal"},
		{"const c = {};\nreturn c.get(\"name\", \"x\")", te("not a function", 2, 13), ": c.get is not a function; an object has no get method: read the property, c.key (c.key ?? fallback for a default)"},
		// Python's startswith, Java's contains, fetch's res.json() of a tool's result.
		{"return o.id.startswith(\"o-\")", te("not a function", 1, 23), ": o.id.startswith is not a function; JavaScript's is o.id.startsWith(...)"},
		{"return s.contains(\"x\")", te("not a function", 1, 18), ": s.contains is not a function; JavaScript's is s.includes(...)"},
		{"const res = await tools.o.s({});\nreturn (await res.json()).length", te("not a function", 2, 23), ": res.json is not a function; a tool's result is its data itself, not a fetch Response: use res as it is, without .json()"},
		// for...of over a plain object: the value named, and Object.entries.
		{"const counts = {};\nfor (const [k, v] of counts) {}", te("value is not iterable", 2, 22), ": counts is not iterable; for...of reads an array, a Map or a Set: for an object's keys and values, for (const [k, v] of Object.entries(counts))"},
		{"for (const [k, v] of c.counts) {}", te("value is not iterable", 1, 22), ""},
		{"for (const o of tools['odd-desk'].list({})) {}", te("value is not iterable", 1, 17), ""},
		{"for (const o of await f()) {}", te("value is not iterable", 1, 17), ""},
		{"const o = tools.orders;\nreturn o.get({})", te("not a function", 2, 13), ": o.get is not a function"},
		{"return (await tools.orders.search.execute({ status: \"open\" })).length", te("not a function", 1, 42), ": tools.orders.search.execute is not a function; a tool is the function itself: await tools.orders.search(input)"},
		// Not at the expression's end, or nothing to name: no hint.
		{"const o = {}; o.run()", te("not a function", 1, 19), ""},
		{"const f = 5; f()", te("not a function", 1, 15), ": f is not a function"},
		{"if (x) {}", te("not a function", 1, 4), ""},
		{"return undefined.x", te("cannot read property 'x' of undefined", 1, 17), ""},
		{"const o = {}; return o.items.map(x => x)", te("value is not iterable", 1, 29), ""},
		// for await over a call's value: QuickJS fails calling the iterator
		// method the value lacks, at the call's "(".
		{"for await (const o of rows()) {}", te("not a function", 1, 27), ": rows(...) is not async iterable, or rows is not a function"},
		{"for (const o of rows()) {}", te("not a function", 1, 21), ": rows is not a function"},
		{"for await (const o of offset(rows)) {}", te("not a function", 1, 29), ": offset(...) is not async iterable"},
		// Session 42: the withdrawn Array.prototype.groupBy, Python's
		// dict.items() and sep.join(list), V8's Error.captureStackTrace.
		{"const g = orders.groupBy((o) => o.s)", te("not a function", 1, 25), ": orders.groupBy is not a function; arrays have no groupBy method: use Object.groupBy(orders, fn)"},
		{"const g = Object.groupBy(orders, f)", te("not a function", 1, 25), ": Object.groupBy is not a function"},
		{"for (const [k, v] of counts.items()) {}", te("not a function", 1, 34), ": counts.items is not a function; an object has no items method: use Object.entries(counts)"},
		{"return \", \".join(ids)", te("not a function", 1, 17), ": join is not a function; a string has no join method (Python's sep.join(list)): join the array, list.join(\", \")"},
		{"Error.captureStackTrace(this, E)", te("not a function", 1, 24), ": Error.captureStackTrace is not a function; that is V8's"},
	} {
		got := typeErrorHint(tc.code, tc.e, nil, nil)
		if (tc.want == "") != (got == "") || !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q at %d:%d: hint %q, want %q", tc.code, tc.e.Line, tc.e.Column, got, tc.want)
		}
	}
}

// TestDispatcherCall: tools.call(name, input), a dispatcher of other APIs,
// says how this one calls a tool; it said "use tool_search to find tools".
func TestDispatcherCall(t *testing.T) {
	s := mustSession(t, newTestCodeMode(t, Config{}))
	for _, code := range []string{`await tools.call("orders.nosuch", {})`, `await tools.invoke_tool({ name: "orders.search" })`} {
		res := exec(t, s, code, nil)
		if res.OK || res.Error == nil || !strings.HasSuffix(res.Error.Message, "; "+byNameHint) {
			t.Errorf("%s: got %+v, want an error ending with %q", code, res.Error, byNameHint)
		}
	}
	// Its first argument a tool's name: the call to write, with that name.
	res := exec(t, s, `await tools.call("payments.transfer", { amount: 1 })`, nil)
	if want := `unknown tool "call"; to call payments.transfer, write await tools.payments.transfer(input) (or await tool_call("payments.transfer", input))`; res.OK || res.Error == nil || res.Error.Message != want {
		t.Errorf("tools.call of a tool's name: got %+v, want %q", res.Error, want)
	}
	// Session 39: callTool("payments.transfer", ...) (a global the sandbox
	// lacks), tools("payments.transfer", ...) and the full name under its
	// namespace name the tool meant; they gave the general form.
	want := "; to call payments.transfer, write await tools.payments.transfer(input) (or await tool_call(\"payments.transfer\", input))"
	for code, head := range map[string]string{
		`const r = await callTool("payments.transfer", { amount: 1 })`:       "'callTool' is not defined",
		`const r = await tools( 'payments.transfer', { amount: 1 })`:         "not a function: tools is not a function",
		`const r = await tools.payments["payments.transfer"]({ amount: 1 })`: `not a function: tools.payments["payments.transfer"] is not a function`,
		// Session 40: Gemini's default_api and a tool's flattened name.
		`const r = await default_api.payments_transfer({ amount: 1 })`: "'default_api' is not defined",
	} {
		if res := exec(t, s, code, nil); res.OK || res.Error == nil || res.Error.Message != head+want {
			t.Errorf("%s: got %+v, want %q", code, res.Error, head+want)
		}
	}
	if res := exec(t, s, `await default_api.zzqx({})`, nil); res.OK || res.Error == nil || !strings.HasSuffix(res.Error.Message, "; "+byNameHint) {
		t.Errorf("default_api of no tool's name: got %+v, want the general form", res.Error)
	}
	if res := exec(t, s, `await callTool("payments.nosuch", {})`, nil); res.OK || res.Error == nil || !strings.HasSuffix(res.Error.Message, ": "+byNameHint) {
		t.Errorf("callTool of no tool's name: got %+v, want the general form", res.Error)
	}
	if res := exec(t, s, `await tools.orders.call({})`, nil); res.OK || res.Error == nil || strings.Contains(res.Error.Message, byNameHint) {
		t.Errorf("a namespace's unknown call: got %+v, want the names near it", res.Error)
	}
}
