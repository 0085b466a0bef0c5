// Attempts of the thirty-first session (security31) on the host boundary,
// written before reading the code under test: tool arguments whose getters,
// toJSON, Symbol.toPrimitive and Proxy traps re-enter the sandbox and call
// tools (a hidden one too) while the call's input is converted; console.log
// and thrown errors with hostile getters and huge strings; tool calls made
// after the program's promise settled; 10,000 concurrent calls; tool_search
// and tool_call given hostile input and lookalikes of a hidden tool's name;
// and QuickJS bugs reported upstream after the pinned version. Each row is
// the outcome a run must have, the host sees only the calls the row names
// (never the hidden tool's, never one after the run ended), and the next
// run of the same factory works, in both engine modes (CODE_MODE_WORKER=1).
// The two that did not hold are fixed where their fix is and tested here
// too: a caught null of a full heap (sandbox TestFullHeapEndsTheRun) and
// QuickJS's compiler failing on valid code (TestCompilerFailureSaysSo).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, endsAtTimeout, run, sleep, tool, withFactory, within } from "./helpers.mjs";

/** A factory whose tools record each call the host runs, in `calls`. */
async function boundary(t, config = {}) {
    const calls = [];
    const api = await withFactory(t, {
        wasmLocation: assetPath,
        toolFilter: (d) => !d.name.startsWith("hid."),
        tools: [
            tool("t.echo", (input) => (calls.push("echo"), { got: input })),
            tool("t.count", () => (calls.push("count"), 1)),
            tool("t.slow", () => (calls.push("slow"), sleep(5).then(() => 1))),
            tool("hid.secret", () => (calls.push("HIDDEN"), "HIDDEN")),
        ],
        ...config,
    });
    return { api, calls };
}

// [name, program, result (JSON text the program returns), host calls].
const rows = [
    ["a getter in a tool's input that calls another tool", `return JSON.stringify(await tools.t.echo({ get a() { tools.t.count({}); return 1 }, b: 2 }))`, '{"got":{"a":1,"b":2}}', ["count", "echo"]],
    ["a getter in a tool's input that calls the hidden tool", `let inner; const r = await tools.t.echo({ get a() { inner = tool_call("hid.secret", {}); return 1 } }); let why; try { await inner } catch (e) { why = e.message } return JSON.stringify([r, why])`, '[{"got":{"a":1}},"unknown tool \\"hid.secret\\"; use tool_search to find tools"]', ["echo"]],
    ["getters in tools' inputs that call the same tool again, 50 deep", `let n = 0; const mk = () => ({ get a() { if (n++ < 50) tools.t.echo(mk()); return n } }); try { await tools.t.echo(mk()); return "went" } catch (e) { return JSON.stringify(e.message) }`, '"a getter or toJSON of a host call\'s arguments called host functions 8 deep; at most 7 levels are allowed"', []],
    ["toJSON, Symbol.toPrimitive and a Proxy's get trap in a tool's input that call tools", `const p = new Proxy({ a: 1 }, { get(t, k, r) { if (k === "a") tools.t.count({}); return Reflect.get(t, k, r) } }); return JSON.stringify(await tools.t.echo({ x: { toJSON() { tools.t.count({}); return "tj" } }, y: { [Symbol.toPrimitive]() { tools.t.count({}); return 7 } }, p }))`, '{"got":{"x":"tj","y":{},"p":{"a":1}}}', ["count", "count", "echo"]],
    ["a tool's input whose ownKeys trap throws, a revoked Proxy, a getter that throws", `const out = []; const { proxy, revoke } = Proxy.revocable({ a: 1 }, { get() { revoke(); return 1 } }); for (const input of [new Proxy({}, { ownKeys() { throw new Error("trap!") } }), proxy, { get a() { throw new Error("getter threw") } }]) { try { await tools.t.echo(input); out.push("called") } catch (e) { out.push(e.message) } } return JSON.stringify(out)`, '["trap!","revoked proxy","getter threw"]', []],
    ["a tool's input whose toJSON gives back an object holding itself", `const o = { toJSON() { return { self: o } } }; try { await tools.t.echo({ o }); return "called" } catch (e) { return JSON.stringify(e.message) }`, '"tool_call t.echo: its input nests more than 1,000 levels deep, the most a tool\'s input may; pass flatter data"', []],
    ["console.log of Proxies whose traps throw, a revoked Proxy, a cycle, 100,000 nested arrays and a getter that calls a tool", `const bad = new Proxy({}, { get() { throw new Error("get") }, ownKeys() { throw new Error("keys") }, getPrototypeOf() { throw new Error("proto") }, getOwnPropertyDescriptor() { throw new Error("gopd") } }); const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); const c = { a: 1 }; c.c = c; let d = []; for (let i = 0; i < 1e5; i++) d = [d]; console.log(bad); console.log("x", proxy, c, d); let p; console.log({ get a() { p = tools.t.count({}); return 1 } }); await p; return "1"`, "1", ["count"]],
    ["a thrown Error whose message, name and stack getters call tools", `const e = new Error("m"); for (const k of ["message", "name", "stack"]) Object.defineProperty(e, k, { get() { tools.t.count({}); return k.toUpperCase() } }); throw e`, { code: "RUNTIME", message: /^MESSAGE$/ }, []],
    ["a thrown Error of 100 MB and one with a 10 MB name", `const e = new Error("w".repeat(1e8)); e.name = "N".repeat(1e7); throw e`, { code: "RUNTIME", message: /^w{1,2000}/ }, []],
    ["a rejection with an object whose message getter calls a tool", `return Promise.reject({ get message() { tools.t.count({}); return "rej" } })`, { code: "RUNTIME", message: /^a non-Error value was thrown: \{"message":"rej"\}$/ }, []],
    ["tool calls after the program's promise settled: a timer, then, finally, a returned thenable, the result's toJSON and getter", `setTimeout(() => tools.t.count({}), 0); const p = Promise.resolve(1); p.then(() => tools.t.count({})).then(() => tools.t.count({})); (async () => { await null; await null; await tools.t.slow({}); await tools.t.count({}) })(); return { then(res) { res({ toJSON() { tools.t.count({}); return "tj" }, get g() { setTimeout(() => tools.t.count({}), 0); Promise.resolve().then(() => tools.t.count({})); return 1 } }) } }`, "tj", []],
    ["10,000 concurrent tool calls", `const ps = []; for (let i = 0; i < 10000; i++) ps.push(tools.t.echo({ i }).catch(() => 0)); await Promise.all(ps); return "all"`, { code: "TOOL_LIMIT", message: /more than 1000 tool calls/ }, null],
    ["tool_search given regexp syntax, a huge query, lone surrogates, non-strings, a Proxy and the hidden tool's name", `const out = []; for (const q of [{ query: "(" }, { query: ".*".repeat(1000) }, { query: "a".repeat(1e6) }, { query: "\\ud800" }, { query: "hid.secret" }, { query: "hid secret HIDDEN" }, { query: { toString() { tools.t.count({}); return "t" } } }, new Proxy({ query: "echo" }, {}), { query: "t", limit: { valueOf() { tools.t.count({}); return 2 } } }, { namespace: "hid" }, { namespace: "__proto__" }]) { try { out.push(...(await tool_search(q)).map((r) => r.name)) } catch (e) { out.push(e.message.slice(0, 24)) } } return JSON.stringify([out.some((n) => n.startsWith("hid")), out.filter((n) => n.startsWith("tool_search")).length])`, "[false,2]", []],
    ["tool_call of the hidden tool's name and its lookalikes; tools.hid reads as a namespace never registered does", `const out = []; for (const n of ["hid.secret", "hid.secret ", " hid.secret", "HID.SECRET", "hid\\u200b.secret", "hid.secret\\u0000", "hid/secret", "hid_secret", "tools.hid.secret", "__proto__", "constructor", "toString"]) { try { await tool_call(n, {}); out.push(n) } catch (e) { out.push(0) } } Object.prototype.hid = { secret: 1 }; const why = []; for (const f of [() => tools.hid.secret({}), () => tools.never.secret({})]) { try { await f(); out.push("called") } catch (e) { why.push(e.message.replace(/hid|never/, "X")) } } delete Object.prototype.hid; out.push(why[0] === why[1] || why); return JSON.stringify([out.filter((x) => x !== 0 && x !== true), typeof tools.hid === typeof tools.never, typeof tools.hid.secret === typeof tools.never.secret, Object.keys(tools)])`, '[[],true,true,["t"]]', []],
    // QuickJS bugs reported after the pinned version.
    ["assigning this to a read-only global in a constructor (bellard/quickjs#454)", `class A { constructor() { Infinity = this } } class B extends A { constructor() { super(); NaN = this } } const out = []; for (const C of [A, B]) { try { new C(); out.push("made") } catch (e) { out.push(e.message) } } function F() { undefined = this; return 5 } for (let i = 0; i < 100; i++) Reflect.construct(F, []); return JSON.stringify([out, String(Infinity), String(NaN), typeof undefined])`, '[["\'Infinity\' is read-only","\'Infinity\' is read-only"],"Infinity","NaN","undefined"]', []],
    ["a typed array made from an array-like emptied by new.target's prototype getter (quickjs-ng#1296)", `const src = Array.from({ length: 1000 }, (_, i) => i); const nt = new Proxy(function () {}, { get(t, k) { if (k === "prototype") { src.length = 0; for (let i = 0; i < 1e4; i++) ({}); return Uint32Array.prototype } return Reflect.get(t, k) } }); const u = Reflect.construct(Uint32Array, [src], nt); return JSON.stringify([u.length, u[0]])`, "[0,null]", []],
    ["an array's length set by a valueOf that empties and refills it (quickjs-ng#1467)", `const a = []; for (let i = 0; i < 1000; i++) a.push({ i }); a.length = { valueOf() { a.length = 0; for (let i = 0; i < 2000; i++) a.push([i]); return 10 } }; const j = []; for (let i = 0; i < 1e5; i++) j.push({ i }); return JSON.stringify([a.length, a[5]])`, "[10,[5]]", []],
];

// Runs that must end at the timeout, the page's timers firing meanwhile in
// a Worker.
const denials = [
    ["a getter in a tool's input that never returns", `await tools.t.echo({ get a() { for (;;); } }); return 1`],
    ["console.log of a getter that never returns", `console.log({ get a() { for (;;); } }); return 1`],
    ["console.log of a Proxy whose ownKeys never returns", `console.log(new Proxy({ a: 1 }, { ownKeys() { for (;;); } })); return 1`],
    ["a thrown Error whose name getter never returns", `const e = new Error("m"); Object.defineProperty(e, "name", { get() { for (;;); } }); throw e`],
];

describe("hostile31: the host boundary, upstream QuickJS bugs after the pin", () => {
    test("each attempt ends as the row says, the host sees only the calls it names, and the next run works", async (t) => {
        const { api, calls } = await boundary(t);
        const session = api.createSession();
        for (const [name, code, want, wantCalls] of rows) {
            calls.length = 0;
            const r = await within(run(session, code), 60_000);
            assert.notEqual(r, "hung", name);
            if (want === null || typeof want === "string") {
                assert.equal(r.ok, true, `${name}: ${JSON.stringify(r.error)}`);
                if (want !== null) assert.equal(r.result, want, name);
            } else {
                assert.equal(r.ok, false, `${name}: ${JSON.stringify(r.result)}`);
                assert.equal(r.error.code, want.code, `${name}: ${r.error.message}`);
                assert.match(r.error.message, want.message, name);
                assert.ok(r.error.message.length <= 2100, `${name}: a message of ${r.error.message.length} characters`);
            }
            // Whatever the program left pending had its chance to reach the host.
            await sleep(100);
            if (wantCalls !== null) assert.deepEqual(calls, wantCalls, name);
            assert.ok(!calls.includes("HIDDEN"), name);
            const next = await run(session, "return 2");
            assert.equal(next.result, 2, `the run after ${name}: ${JSON.stringify(next.error)}`);
        }
    });

    test("getters, console.log and errors that never return end at the timeout, the page's timers fire meanwhile in a Worker, and the next run works", async (t) => {
        const { api, calls } = await boundary(t, { timeout: 1000 });
        const session = api.createSession();
        for (const [name, code] of denials) {
            await endsAtTimeout(session, name, code);
            assert.deepEqual(calls, [], name);
        }
    });

    // QuickJS throws null where its "out of memory" error does not fit; a
    // program that caught it returned "failed: null" as its result.
    test("a full heap ends the run with MEMORY_LIMIT though the program catches what QuickJS throws, and the next run works", async (t) => {
        const { api } = await boundary(t, { memoryLimit: 32, timeout: 60_000 });
        const session = api.createSession();
        for (const code of [
            `const junk = []; try { for (let i = 0;; i++) junk.push({ i }) } catch (e) { return "failed: " + e }`,
            `Promise.resolve().then(() => { const a = []; for (;;) a.push({ a }) }); await null; return "returned"`,
        ]) {
            const r = await within(run(session, code), 120_000);
            assert.notEqual(r, "hung", code);
            assert.equal(r.ok, false, `${code}: ${JSON.stringify(r.result)}`);
            assert.equal(r.error.code, "MEMORY_LIMIT", r.error.message);
            assert.match(r.error.message, /^out of memory \(the run's memory limit is 32 MB/);
            const next = await run(session, "return 2");
            assert.equal(next.result, 2, JSON.stringify(next.error));
        }
    });

    // bellard/quickjs#488: QuickJS refuses this valid code with an error of
    // its bytecode check; the run said "unexpected end of input".
    test("code QuickJS's compiler fails on is a SYNTAX error that says so and how to write it", async (t) => {
        const { api } = await boundary(t);
        const session = api.createSession();
        const r = await run(session, "function* x() { for (var e of yield []); }\nreturn 1");
        assert.equal(r.ok, false, JSON.stringify(r.result));
        assert.equal(r.error.code, "SYNTAX");
        assert.match(r.error.message, /^QuickJS could not compile this code: its compiler failed \(stack underflow \(op=\d+, pc=\d+\)\), a bug of QuickJS's, not of the code; .*const it = yield x; for \(const v of it\)/);
        const fixed = await run(session, "function* x() { const it = yield []; for (var e of it); return 2 }\nconst g = x(); g.next(); return g.next([1]).value");
        assert.equal(fixed.result, 2, JSON.stringify(fixed.error));
    });
});
