// What code executeCode accepts, through dist/ under Node: TypeScript,
// markdown fences, whole-program functions, the wrapper's positions,
// timers, the web built-ins, and the refusals that point at the tools.
// The same cases run natively in input_test.go.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, loadFactory, run, tool } from "./helpers.mjs";

let api;
let session;
before(async () => {
    const IoCodeModeFactory = await loadFactory();
    api = await IoCodeModeFactory({
        wasmLocation: assetPath,
        timeout: 5000,
        tools: [
            tool("orders.get", async (input) => ({ id: input.id, total: 42 })),
            tool("util.fail", async () => {
                throw new Error("backend unavailable");
            }),
        ],
    });
    session = api.createSession();
});
after(() => api.dispose());

// Each row: code, and either the result or the error (code, name, a
// message pattern, and the position when given), and a log pattern.
const cases = {
    TypeScript: [
        { name: "annotations", code: "const x: number = 1; return x", result: 1 },
        {
            name: "interface, type, as, generics, non-null, satisfies",
            code: "interface O { id: string; total: number }\ntype L = O[];\nconst o = await tools.orders.get({ id: 'a' }) as O;\nconst m = new Map<string, number>([[o.id, o.total]]);\nreturn [m.get('a')!, ([o] satisfies L).length]",
            result: [42, 1],
        },
        {
            name: "a runtime error keeps the model's position",
            code: "const a: Array<{ id: string }> = [];\nconst b: string = (a[0] as any).id",
            error: { code: "RUNTIME", name: "TypeError", message: /cannot read property/, line: 2, column: 32 },
        },
        { name: "an enum runs, as tsc's does", code: "enum Color { Red, Green = 'g' }\nreturn [Color.Red, Color[0], Color.Green]", result: [0, "Red", "g"] },
        { name: "an exported enum runs as an enum", code: "export enum Color { Red }\nreturn Color.Red", result: 0 },
        {
            name: "type-only imports are erased",
            code: "import { type Order } from './orders';\nimport type { Customer } from './crm';\nconst o: Order = await tools.orders.get({ id: 'a' });\nreturn o.total",
            result: 42,
        },
        { name: "a value import is refused", code: "import { type Order, get } from './orders';\nreturn 1", error: { code: "SYNTAX", name: "SyntaxError", message: /import is not available/, line: 1, column: 1 } },
        { name: "a namespace with values runs", code: "namespace N { export const a = 1 }\nreturn N.a", result: 1 },
        { name: "parameter properties run", code: "class A { constructor(public x: number) {} }\nreturn new A(1)", result: { x: 1 } },
        {
            name: "a parameter property outside a constructor is refused",
            code: "class A { m(public x: number) {} }",
            error: { code: "SYNTAX", name: "SyntaxError", message: /parameter property \(public x\) must be a name among a constructor's parameters/, line: 1, column: 13 },
        },
    ],
    wrapper: [
        { name: "bare body", code: "const a = 2\nreturn a * 3", result: 6 },
        // An object literal as the program is a block to JavaScript.
        { name: "{ a: 1 } runs as a block, and the run says so", code: "{ a: 1 }", result: 1, log: /^the program is read as a block, not an object: .*wrap it in parentheses: \(\{ a: \.\.\. \}\)$/ },
        { name: "{ a: 1, b: 2 } is a SYNTAX error that says to return it", code: "{ a: 1, b: 2 }", error: { code: "SYNTAX", name: "SyntaxError", message: /: a program that starts with \{ is a block, not an object literal; to give the object back, return it/ } },
        // The wrapper is called by the host: its call in the script put a
        // frame one line past the code at the end of every e.stack.
        {
            name: "e.stack holds the program's frames only, each at its own line",
            code: "function f() { return new Error('e').stack }\nconst s = f()\nreturn s.split('\\n').filter(Boolean).map((l) => l.replace(/:\\d+\\)$/, ')'))",
            result: ["    at f (code.js:1)", "    at <anonymous> (code.js:2)"],
        },
        { name: "ts fence with prose", code: "Here is the program:\n```ts\nconst n: number = 4\nreturn n\n```\nIt returns four.", result: 4 },
        {
            name: "fenced positions count from the top of the text",
            code: "Here:\n```js\nconst a = 1\nnull.x\n```",
            error: { code: "RUNTIME", name: "TypeError", message: /of null/, line: 4, column: 5 },
        },
        { name: "async arrow program", code: "async () => {\n  const o = await tools.orders.get({ id: 'z' })\n  return o.id\n}", result: "z" },
        { name: "async main", code: "async function main(): Promise<string> {\n  return 'main'\n}", result: "main" },
        { name: "a whole-program plain arrow is called", code: "() => {\n  const n = 6\n  return n * 7\n}", result: 42 },
        { name: "a whole-program plain arrow with an expression body", code: "() => tools.orders.get({ id: 'p' })", result: { id: "p", total: 42 } },
        { name: "an uncalled main(tools) is called with tools", code: "async function main(tools) {\n  return (await tools.orders.get({ id: 't' })).id\n}", result: "t" },
        {
            name: "a main(tools) that calls itself and nothing else is called",
            code: "let tries = 0\nasync function main(tools) {\n  if (++tries < 3) return main(tools)\n  return (await tools.orders.get({ id: 'r' + tries })).id\n}",
            result: "r3",
        },
        { name: "an uncalled const main arrow is called", code: "const main = async () => {\n  const o = await tools.orders.get({ id: 'c' });\n  return o.id;\n};", result: "c" },
        { name: "helpers and an uncalled main: main is called", code: "const ids = ['a', 'b']\nfunction last<T>(xs: T[]): T { return xs[xs.length - 1] }\nasync function main() {\n  return (await tools.orders.get({ id: last(ids) })).id\n}", result: "b" },
        {
            name: "code cannot close the wrapper",
            code: "return 1\n})(); (async () => {",
            error: { code: "SYNTAX", name: "SyntaxError", message: /closes nothing/, line: 2, column: 1 },
        },
        {
            name: "an error at the end names no wrapper",
            code: "const a = [1, 2];\nreturn a.map((x) => x * 2",
            error: { code: "SYNTAX", name: "SyntaxError", message: /^unexpected end of input$/, line: 2, column: 26 },
        },
        {
            name: "a tool by its full name as a key, and an unknown one",
            code: "const a = (await tools['orders.get']({ id: 'k' })).id;\ntry { await tools[\"orders.gte\"]({}) } catch (e) { return [a, e.name, e.message.slice(0, 25), Object.keys(tools)] }",
            result: ["k", "ToolError", 'unknown tool "orders.gte"', ["orders", "util"]],
        },
        {
            name: "await in a callback that is not async says to make it async",
            code: "const ids = ['a'];\nconst out = ids.map((id) => {\n  return await tools.orders.get({ id });\n});",
            error: { code: "SYNTAX", name: "SyntaxError", message: /^expecting ';': await is only valid in an async function: make the function around it async .*Promise\.all/, line: 3, column: 16 },
        },
        { name: "import", code: "import fs from 'fs'", error: { code: "SYNTAX", name: "SyntaxError", message: /use the tools you are given/ } },
        { name: "require", code: "require('fs')", error: { code: "RUNTIME", name: "ReferenceError", message: /require is not available in this sandbox.*use the tools/ } },
        { name: "fetch", code: "await fetch('https://example.com')", error: { code: "RUNTIME", name: "ReferenceError", message: /fetch is not available/ } },
        { name: "XMLHttpRequest", code: "new XMLHttpRequest()", error: { code: "RUNTIME", name: "ReferenceError", message: /XMLHttpRequest is not available/ } },
        {
            name: "an unawaited rejection is named by its tool",
            code: "tools.util.fail({});\nawait tools.orders.get({ id: \"x\" });\nreturn 1",
            result: 1,
            log: /not awaited: tool util\.fail: backend unavailable/,
        },
    ],
    // A last expression statement that is a Promise is awaited as `return`
    // would; a Promise inside the value, or a thenable, is not.
    "last expression promise": [
        { name: "a tool call without await", code: "const id = 'p';\ntools.orders.get({ id })", result: { id: "p", total: 42 } },
        { name: "main with a parameter, called without await", code: "async function main(id: string) {\n  return (await tools.orders.get({ id })).id\n}\nmain('m');", result: "m" },
        { name: "then chains", code: "tools.orders.get({ id: 'a' }).then((o) => o.total + 1)", result: 43 },
        {
            name: "a rejection is the run's error at its position",
            code: "async function main() {\n  const o = await tools.orders.get({ id: 'x' });\n  return o.missing.x\n}\nconst a = 1;\nmain();",
            error: { code: "RUNTIME", name: "TypeError", message: /of undefined/, line: 3, column: 19 },
        },
        { name: "a tool's rejection, not also unhandled, at the call", code: "tools.util.fail({})", error: { code: "RUNTIME", name: "ToolError", message: /backend unavailable/, line: 1, column: 16 }, noLog: /not awaited/ },
        {
            name: "a tool's rejection main() returned, at the call",
            code: "async function main() {\n  return tool_call('util.fail', {})\n}\nmain()",
            error: { code: "RUNTIME", name: "ToolError", message: /backend unavailable/, line: 2, column: 19 },
        },
        { name: "a promise nothing can settle", code: "new Promise(() => {})", error: { code: "RUNTIME", name: "Error", message: /can never settle/ } },
        { name: "a promise inside the value stays null", code: "({ o: tools.orders.get({ id: 'a' }) })", result: { o: null }, log: /result\.o: a Promise, converted to null/ },
        { name: "a thenable is a value", code: "({ then(resolve) { resolve(1) }, a: 2 })", result: { a: 2 }, log: /result\.then: a function/ },
    ],
    // What can be read of a thrown or logged value is kept.
    "unreadable values": [
        {
            name: "an Error whose name getter throws",
            code: "const e = new TypeError('kept');\nObject.defineProperty(e, 'name', { get() { throw 1 } });\nthrow e",
            error: { code: "RUNTIME", name: "TypeError", message: /^kept$/, line: 1, column: 24 },
        },
        {
            name: "a Proxy whose traps throw",
            code: "throw new Proxy({}, { get() { throw new Error('trap') } })",
            error: { code: "RUNTIME", name: "Error", message: /^a non-Error value was thrown: an object that cannot be read or converted to text \(reading it threw: trap\)$/ },
        },
        {
            name: "console and a timer's report never throw",
            code: "const p = new Proxy({}, { get() { throw new Error('trap') } });\nconsole.log(p, { a: 1 });\nsetTimeout(() => { throw p }, 1);\nawait new Promise((r) => setTimeout(r, 20));\nreturn 'went on'",
            result: "went on",
            log: /^uncaught in a setTimeout callback: an object that cannot be read or converted to text$/,
        },
    ],
    // The result is read once, after the program returned.
    "result getters": [
        {
            name: "a getter of the result runs once, and its tool call is not started",
            code: "let n = 0;\nreturn { get a() { n++; return tools.orders.get({ id: 1 }) }, get count() { return n }, s: new Set([1]) }",
            result: { a: null, count: 1, s: [1] },
            log: /^1 call was made by a getter or toJSON of the result \(or of the thrown error\) after the program finished, and not started \(tool orders\.get\); call tools in the program, await them, and return plain values$/,
            noLog: /await every call/,
        },
    ],
    timers: [
        {
            name: "setTimeout in order",
            code: "const out = [];\nsetTimeout(() => out.push('b'), 300);\nsetTimeout(() => out.push('a'), 5);\nawait new Promise((r) => setTimeout(r, 320));\nreturn out",
            result: ["a", "b"],
        },
        { name: "clearTimeout", code: "const out = [];\nclearTimeout(setTimeout(() => out.push(1), 5));\nawait new Promise((r) => setTimeout(r, 20));\nreturn out", result: [] },
        {
            name: "setInterval polls until done",
            code: "let n = 0;\nawait new Promise((done) => { const id = setInterval(() => { if (++n === 3) { clearInterval(id); done(); } }, 2) });\nreturn n",
            result: 3,
        },
        { name: "pending timers are dropped", code: "setTimeout(() => {}, 60000);\nreturn 'done'", result: "done" },
    ],
    builtins: [
        {
            name: "a direct eval sees the caller's variables, beside a function constructor (funcguard_test.go)",
            code: "const x = 5;\nfunction f() { const b = 2; return eval('b * x') }\nreturn [eval('x + 1'), f(), (0, eval)('typeof x'), new Function('a', 'return a * 2')(x)]",
            result: [6, 10, "undefined", 10],
        },
        {
            name: "console's other methods and % formats (console_test.go has the table)",
            code: "console.table([{ a: 1 }]);\nconsole.assert(false, '%s of %d', 'x', 2);\nconsole.count();\nconsole.group('g');\nconsole.dir({ b: 1 });\nconsole.groupEnd();\nreturn 'went on'",
            result: "went on",
            log: /^  \{"b":1\}$/,
        },
        {
            name: "URL",
            code: "const u = new URL('../users?q=1#top', 'https://api.example.com/v1/items/');\nu.searchParams.append('n', 'a b');\nreturn [u.href, u.host, u.pathname, u.searchParams.get('q')]",
            result: ["https://api.example.com/v1/users?q=1&n=a+b#top", "api.example.com", "/v1/users", "1"],
        },
        { name: "URLSearchParams", code: "return new URLSearchParams({ q: 'a&b', n: 1 }).toString()", result: "q=a%26b&n=1" },
        {
            // WPT's urltestdata.json (wpt_test.go runs it all natively): a drive letter, an opaque path's last space, an IDN host, a form's invalid UTF-8.
            name: "URL after WPT's data",
            code: "return [new URL('C|/foo/bar', 'file:///tmp/mock/path').href, new URL('..', 'file:///C:/').href, new URL('non-special:opaque  ?hi').href, new URL('http://ドメイン名例.jp').host, new URLSearchParams('a=%FF%C3%A9%E0%A0').get('a')]",
            result: ["file:///C:/foo/bar", "file:///C:/", "non-special:opaque %20?hi", "xn--eckwd4c7cu47r2wf.jp", "\ufffdé\ufffd"],
        },
        { name: "TextEncoder and TextDecoder", code: "const b = new TextEncoder().encode('é€');\nreturn [Array.from(b), new TextDecoder().decode(b)]", result: [[195, 169, 226, 130, 172], "é€"] },
        { name: "atob and btoa", code: "return [btoa('hello'), atob('aGVsbG8=')]", result: ["aGVsbG8=", "hello"] },
        {
            name: "structuredClone",
            code: "const a = { d: new Date(0), m: new Map([[1, 2]]) };\na.self = a;\nconst c = structuredClone(a);\nreturn [c !== a, c.self === c, c.d.getTime(), c.m.get(1)]",
            result: [true, true, 0, 2],
        },
        {
            name: "structuredClone with transfer copies the ArrayBuffer and detaches nothing (the sandbox withholds detaching)",
            code: "const b = new Uint8Array([1, 2, 3]).buffer;\nconst c = structuredClone({ b, v: new Uint8Array(b, 1) }, { transfer: [b] });\nreturn [b.detached, b.byteLength, [...new Uint8Array(c.b)], [...c.v]]",
            result: [false, 3, [1, 2, 3], [2, 3]],
        },
        {
            name: "structuredClone transfers only ArrayBuffers",
            code: "structuredClone(1, { transfer: [new Uint8Array(2)] })",
            error: { code: "RUNTIME", name: "DataCloneError", message: /^structuredClone: options\.transfer\[0\]: only an ArrayBuffer can be transferred here, got Uint8Array$/ },
        },
        {
            name: "crypto.randomUUID and crypto.getRandomValues",
            code: "const u = crypto.randomUUID();\nconst a = crypto.getRandomValues(new Uint32Array(8));\nreturn [/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u), u !== crypto.randomUUID(), a.length, a.some((x) => x !== 0)]",
            result: [true, true, 8, true],
        },
        { name: "getRandomValues over 65,536 bytes", code: "crypto.getRandomValues(new Uint8Array(65537))", error: { code: "RUNTIME", name: "QuotaExceededError", message: /\(65537\) exceeds/, line: 1, column: 23 } },
        { name: "getRandomValues of floats", code: "crypto.getRandomValues(new Float64Array(1))", error: { code: "RUNTIME", name: "TypeError", message: /expected an integer typed array .* got Float64Array/ } },
        {
            name: "crypto holds no host value",
            code: "crypto.randomUUID();\nreturn [Object.getOwnPropertyNames(crypto), Object.isFrozen(crypto), crypto.constructor === Object, typeof __cm_urandom]",
            result: [["getRandomValues", "randomUUID"], true, true, "undefined"],
        },
        {
            name: "Intl formats for en-US (intl.test.mjs compares it with Node's ICU)",
            code: "const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });\nreturn usd.format(1234.5)",
            result: "$1,234.50",
        },
        {
            name: "toLocaleString with a locale and options formats as a browser does",
            code: "return (1234.5).toLocaleString('en-US', { style: 'currency', currency: 'USD' })",
            result: "$1,234.50",
        },
        {
            name: "another locale formats as en-US, and a warn says so",
            code: "return (1234.5).toLocaleString('de-DE', { style: 'currency', currency: 'EUR' })",
            result: "€1,234.50",
            log: /^Intl: this sandbox formats in en-US only: "de-DE" was formatted as en-US$/,
        },
        {
            // Under GOOS=js the host's clock is the page's monotonic clock
            // (Go's time.Since), in steps of 0.1 ms.
            name: "performance.now and performance.timeOrigin",
            code: "const a = performance.now();\nawait new Promise((r) => setTimeout(r, 20));\nconst b = performance.now();\nreturn [a >= 0, b - a >= 19.8, Math.abs(performance.timeOrigin + b - Date.now()) < 5000, [a, b, performance.timeOrigin].every((x) => Math.abs(x * 10 - Math.round(x * 10)) < 1e-6), Object.isFrozen(performance), Object.getOwnPropertyNames(performance), typeof __cm_time]",
            result: [true, true, true, true, true, ["now", "timeOrigin", "toJSON"], "undefined"],
        },
        {
            // The built-ins are built after the program ran: an iterator it
            // set must not be handed the prelude's arrays of raw host
            // functions (rawhost_test.go spies on every intrinsic).
            name: "a program's Array iterator sees no host function while the built-ins are built",
            code: "const it = Array.prototype[Symbol.iterator], got = [];\nArray.prototype[Symbol.iterator] = function () { for (let i = 0; i < this.length; i++) if (typeof this[i] === 'function') got.push(this[i].name); return it.call(this); };\nconsole.log('x'); setTimeout(() => {}, 0); crypto.randomUUID(); new URL('https://a.b/');\nArray.prototype[Symbol.iterator] = it;\nreturn got.filter((n) => n.startsWith('__cm'))",
            result: [],
        },
    ],
};

for (const [group, rows] of Object.entries(cases)) {
    describe(group, () => {
        for (const row of rows) {
            test(row.name, async () => {
                const res = await run(session, row.code);
                if (row.error) {
                    assert.equal(res.ok, false, `ran: ${JSON.stringify(res.result)}`);
                    assert.equal(res.error.code, row.error.code, JSON.stringify(res.error));
                    assert.equal(res.error.name, row.error.name, JSON.stringify(res.error));
                    assert.match(res.error.message, row.error.message);
                    if (row.error.line) assert.deepEqual([res.error.line, res.error.column], [row.error.line, row.error.column]);
                    assert.doesNotMatch(JSON.stringify(res.error), /__cm_|async \(\) => \{/);
                } else {
                    assert.equal(res.ok, true, JSON.stringify(res.error));
                    assert.deepEqual(res.result, row.result);
                }
                if (row.log) assert.ok(res.logs.some((l) => row.log.test(l.message)), JSON.stringify(res.logs));
                if (row.noLog) assert.ok(!res.logs.some((l) => row.noLog.test(l.message)), JSON.stringify(res.logs));
            });
        }
    });
}

// Recursion is stopped by QuickJS's stack limit (a catchable error) before
// the host's stack overflows, in a worker as in-thread: the Node worker's
// stack was smaller than the main thread's, and once a large run had gone
// before, a self-recursive getter overflowed it (a RangeError "Maximum call
// stack size exceeded" in worker mode only).
// The large run makes and returns a 50 MB string: 1.5-2.7 s of CPU, 16-30 s
// of wall time at load 16 on 2 cores, where a 5 s timeout ended it with
// TIMEOUT 6 times in 6. Its timeout is the work's, not what is tested.
test("a self-recursive getter hits QuickJS's stack limit in both modes, after a large run", async () => {
    const IoCodeModeFactory = await loadFactory();
    const own = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 120_000 });
    try {
        const s = own.createSession();
        const big = await run(s, "Promise.resolve('x'.repeat(50_000_000))");
        assert.equal(big.ok, true, JSON.stringify(big.error));
        const o = "const o = { get name() { return this.name }, get message() { return this.message } };\n";
        for (const [code, want] of [
            [o + "Promise.reject(o)", /^a non-Error value was thrown: \[object Object\] \(not shown as JSON: stack overflow\)$/],
            [o + "throw o", /^a non-Error value was thrown: \[object Object\] \(not shown as JSON: stack overflow\)$/],
        ]) {
            const res = await run(s, code);
            assert.equal(res.ok, false, code);
            assert.deepEqual([res.error.code, res.error.name], ["RUNTIME", "Error"], JSON.stringify(res.error));
            assert.match(res.error.message, want);
        }
        const caught = await run(s, o + "try { JSON.stringify(o) } catch (e) { return [e.name, e.message] }");
        assert.deepEqual(caught.result, ["InternalError", "stack overflow"], JSON.stringify(caught.error));
    } finally {
        own.dispose();
    }
});

test("a last expression promise that never settles ends the run with TIMEOUT", async () => {
    const IoCodeModeFactory = await loadFactory();
    const short = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 300, tools: [tool("slow.never", () => new Promise(() => {}))] });
    try {
        for (const code of ["tools.slow.never({})", "new Promise((r) => setTimeout(r, 60000))"]) {
            const res = await run(short.createSession(), code);
            assert.equal(res.ok, false, code);
            assert.equal(res.error.code, "TIMEOUT", code);
        }
    } finally {
        short.dispose();
    }
});

test("a timer past the run's timeout ends the run with TIMEOUT", async () => {
    const IoCodeModeFactory = await loadFactory();
    const short = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 300 });
    try {
        const res = await run(short.createSession(), "await new Promise((r) => setTimeout(r, 60000))");
        assert.equal(res.ok, false);
        assert.equal(res.error.code, "TIMEOUT");
        assert.ok(!res.logs.some((l) => /pending/.test(l.message)), JSON.stringify(res.logs));
    } finally {
        short.dispose();
    }
});

// The Go core reads crypto's bytes from the host's crypto.getRandomValues
// (jsbridge.WebCrypto; crypto/rand is left out of the build), found when
// the core starts and called on its crypto object. On this thread: a
// worker's core has a crypto of its own.
test("crypto's bytes are the host's crypto.getRandomValues; its failure is the call's error", async () => {
    const c = globalThis.crypto;
    const real = c.getRandomValues;
    let mode = "real";
    c.getRandomValues = function (a) {
        if (mode === "throw") throw new Error("entropy gone");
        if (mode === "ab") return a.fill(0xab);
        return real.call(this, a);
    };
    let api;
    try {
        const IoCodeModeFactory = await loadFactory();
        api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 5000, worker: false });
    } finally {
        delete c.getRandomValues;
    }
    try {
        const s = api.createSession();
        let res = await run(s, "return crypto.randomUUID()");
        assert.match(res.result, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, JSON.stringify(res.error));
        mode = "ab";
        res = await run(s, "return [crypto.randomUUID(), Array.from(crypto.getRandomValues(new Uint8Array(3)))]");
        assert.deepEqual(res.result, ["abababab-abab-4bab-abab-abababababab", [171, 171, 171]], JSON.stringify(res.error));
        mode = "throw";
        res = await run(s, "crypto.getRandomValues(new Uint8Array(4))");
        assert.equal(res.ok, false, JSON.stringify(res.result));
        assert.deepEqual([res.error.code, res.error.name, res.error.message], ["RUNTIME", "Error", "crypto: the host's random source failed: Error: entropy gone"]);
        mode = "real";
        res = await run(s, "return crypto.randomUUID() !== crypto.randomUUID()");
        assert.equal(res.result, true, JSON.stringify(res.error));
    } finally {
        api.dispose();
    }
});
