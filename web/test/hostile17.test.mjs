// Hostile and confused models (hostile17), from angles the earlier suites
// left out: the model's own arguments reaching the host's limits or the
// audit trail (extra keys, duplicate JSON keys, an inherited code), tool
// inputs shaped as models write them (JSON text for an object, Map, typed
// arrays, a lookahead pattern), hidden tools under every spelling the name
// resolver might forgive, two factories on one page, approvals that land
// after their owner was disposed, thrown values and replaced built-ins the
// host reads after the program, console floods of new shapes, and program
// shapes (export default, fences, JSX, shebang, `arguments`). Each row
// states the safe outcome, in both engine modes (CODE_MODE_WORKER=1).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { WORKER, assetPath, dist, llmTools, loadFactory, run, sleep, tool, withFactory, within } from "./helpers.mjs";

const llm = () => import(pathToFileURL(join(dist, "llm.mjs")).href);

/** The next run of `s` works. */
async function nextRunWorks(s) {
    const r = await run(s, "return 1 + 1");
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.result, 2);
}

/** A JSON text of `value` without the page's file paths, and not too long. */
function assertBounded(value, max = 200_000) {
    const text = JSON.stringify(value);
    assert.ok(text.length < max, `${text.length} chars: ${text.slice(0, 500)}`);
    for (const word of ["file:", "/work/", "node:internal", "hostile17"]) {
        assert.ok(!text.includes(word), `${word} in ${text.slice(0, 2000)}`);
    }
}

/**
 * A `t.x` tool that records each execute, and flags one that starts after
 * `ended` was set (the test sets it when the run's execute settled).
 */
function recorder() {
    const state = { calls: [], late: 0, ended: false };
    state.tool = tool("t.x", (input) => {
        state.calls.push(input);
        if (state.ended) state.late++;
        return { got: input };
    });
    return state;
}

describe("the model's own arguments never reach the host's limits or the audit trail", () => {
    test("extra timeout, memoryLimit and maxToolCalls keys in executeCode's arguments are not applied", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 800 });
        const { executeCode } = llmTools(api.createSession());
        const r = await within(executeCode.execute({ code: "for (;;) {}", explanation: "x", timeout: 1e9, memoryLimit: 4096, maxToolCalls: 1e9 }), 20_000);
        assert.notEqual(r, "hung");
        assert.equal(r.ok, false);
        assert.equal(r.error.code, "TIMEOUT");
    });

    test("a context key in the model's arguments never replaces the caller's context", async (t) => {
        const seen = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: ({ callContext }) => { seen.push(["i", callContext]); return { allowed: true }; } },
            tools: [tool("t.x", (_i, { context }) => { seen.push(["t", context]); return 1; })],
        });
        const { executeCode } = llmTools(api.createSession());
        const r = await executeCode.execute({ code: "return await tools.t.x({})", explanation: "x", context: { user: "mallory" } }, { context: { user: "alice" } });
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(seen, [["i", { user: "alice" }], ["t", { user: "alice" }]]);
    });

    test("handleToolCall of JSON text with two code keys: the program run-start shows is the program that runs", async (t) => {
        const { handleToolCall } = await llm();
        const events = [];
        const api = await withFactory(t, { wasmLocation: assetPath, onEvent: (e) => { if (e.type === "run-start") events.push(e.code); } });
        const s = api.createSession();
        const r = await handleToolCall(s, "executeCode", '{"code":"return \\"first\\"","explanation":"x","code":"return \\"second\\""}');
        assert.equal(r.ok, true, JSON.stringify(r));
        assert.equal(events.length, 1);
        assert.ok(events[0].includes(JSON.stringify(r.result)), `ran ${r.result}, run-start showed ${events[0]}`);
    });

    test("handleToolCall of JSON text whose code sits under __proto__ runs nothing", async (t) => {
        const { handleToolCall } = await llm();
        const events = [];
        const api = await withFactory(t, { wasmLocation: assetPath, onEvent: (e) => events.push(e) });
        const s = api.createSession();
        const r = await handleToolCall(s, "executeCode", '{"__proto__":{"code":"return 666"},"explanation":"x"}');
        assert.equal(r.ok, false, JSON.stringify(r));
        assert.equal(r.error.code, "INVALID_INPUT");
        assert.match(r.error.message, /code/);
        // The refused run is still reported (run-start, run-end), with no program.
        assert.ok(!JSON.stringify(events).includes("666"), JSON.stringify(events));
    });

    test("code given as an object holding code: INVALID_INPUT naming code, or that code; never '[object Object]' run", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const { executeCode } = llmTools(api.createSession());
        const r = await executeCode.execute({ code: { code: "return 1" }, explanation: "x" });
        if (r.ok) assert.equal(r.result, 1);
        else {
            assert.equal(r.error.code, "INVALID_INPUT", JSON.stringify(r.error));
            assert.match(r.error.message, /code/);
            assert.match(r.error.message, /string/);
        }
    });

    for (const limit of [1e9, -1, 2.5, Number.MAX_SAFE_INTEGER + 2]) {
        test(`searchTools with limit ${limit}: at most 50 answers, or INVALID_INPUT naming limit`, async (t) => {
            const tools = Array.from({ length: 80 }, (_, i) => tool(`ns.tool${i}`, () => i, { description: `Finds orders ${i}.` }));
            const api = await withFactory(t, { wasmLocation: assetPath, tools });
            const { searchTools } = llmTools(api.createSession());
            const r = await searchTools.execute({ query: "orders", limit });
            if (Array.isArray(r)) assert.ok(r.length <= 50, `${r.length} answers`);
            else {
                assert.equal(r.ok, false, JSON.stringify(r).slice(0, 300));
                assert.equal(r.error.code, "INVALID_INPUT");
                assert.match(r.error.message, /limit/);
            }
        });
    }
});

describe("tool inputs as models write them", () => {
    const schemaTool = (execute) => tool("s.f", execute, {
        inputSchema: {
            type: "object",
            properties: { filter: { type: "object" }, n: { type: "integer" }, when: { type: "string" } },
            additionalProperties: false,
        },
    });
    const CATCH = (input) => `try { return await tools.s.f(${input}) } catch (e) { return e.name + ": " + e.message }`;

    test("an object field sent as JSON text: the error names the field and says object", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [schemaTool(() => "ran")] });
        const r = await run(api.createSession(), CATCH(`{ filter: '{"status":"open"}' }`));
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.notEqual(r.result, "ran");
        assert.match(r.result, /filter/);
        assert.match(r.result, /object/);
    });

    test("null for an integer field: the error names the field and the type", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [schemaTool(() => "ran")] });
        const r = await run(api.createSession(), CATCH("{ n: null }"));
        assert.notEqual(r.result, "ran");
        assert.match(r.result, /\bn\b/);
        assert.match(r.result, /integer/);
    });

    test("a Date for a string field reaches the tool as its ISO string", async (t) => {
        let got;
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [schemaTool((i) => { got = i; return "ran"; })] });
        const r = await run(api.createSession(), CATCH("{ when: new Date(0) }"));
        assert.equal(r.result, "ran");
        assert.deepEqual(got, { when: "1970-01-01T00:00:00.000Z" });
    });

    test("a __proto__ own key against additionalProperties: false is refused, naming it", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [schemaTool(() => "ran")] });
        const r = await run(api.createSession(), CATCH(`JSON.parse('{"__proto__": {"n": 1}, "n": 2}')`));
        assert.notEqual(r.result, "ran");
        assert.match(r.result, /__proto__/);
    });

    for (const [what, expr, path] of [
        ["a Map", "new Map([['a', 1]])", "m"],
        ["a Set", "new Set([1, 2])", "m"],
        ["a Uint8Array", "new Uint8Array([1, 2])", "m"],
    ]) {
        test(`${what} in a tool's input: converted by a rule with a warning naming its path, or refused naming it`, async (t) => {
            let got;
            const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", (i) => { got = i; return "ran"; })] });
            const r = await run(api.createSession(), `try { return await tools.t.x({ ${path}: ${expr} }) } catch (e) { return e.name + ": " + e.message }`);
            assert.equal(r.ok, true, JSON.stringify(r.error));
            if (r.result === "ran") {
                assert.ok(r.logs.some((l) => l.level === "warn" && l.message.includes(path)), `${JSON.stringify(got)} ${JSON.stringify(r.logs)}`);
            } else {
                assert.match(r.result, new RegExp(`\\b${path}\\b`));
            }
        });
    }

    test("a lookahead pattern (ECMA-262, not RE2) is refused at registration naming it, or enforced", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        let ran = 0;
        const def = tool("u.set", () => { ran++; return "ran"; }, {
            inputSchema: { type: "object", properties: { name: { type: "string", pattern: "^(?!admin).*$" } } },
        });
        let refused;
        try {
            api.registerTool(def);
        } catch (e) {
            refused = e;
        }
        if (refused) {
            assert.ok(refused instanceof TypeError, String(refused));
            assert.match(refused.message, /pattern/);
            return;
        }
        const r = await run(api.createSession(), `try { return await tools.u.set({ name: "admin1" }) } catch (e) { return e.name + ": " + e.message }`);
        assert.equal(ran, 0, `the tool ran: ${JSON.stringify(r)}`);
        assert.match(r.result, /pattern|name/);
    });

    test("a 50 MB string input: the tool gets it whole or the program gets a clear error; the page lives", { timeout: 120_000 }, async (t) => {
        let len;
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 512, timeout: 60_000, tools: [tool("t.len", (i) => { len = i.s.length; return len; })] });
        const s = api.createSession();
        const r = await run(s, `const s = "x".repeat(5e7); try { return await tools.t.len({ s }) } catch (e) { return e.name + ": " + e.message }`);
        if (r.ok && typeof r.result === "number") assert.equal(r.result, 5e7);
        else if (r.ok) assert.match(r.result, /RangeError|too large|memory/i);
        else assert.match(r.error.code, /MEMORY_LIMIT|RUNTIME/);
        await nextRunWorks(s);
    });
});

describe("hidden tools under every spelling", () => {
    const spellings = [
        "tool_call('tools.admin.drop', {})",
        "tool_call('admin/drop', {})",
        "tool_call('ADMIN.DROP', {})",
        "tool_call('admin_drop', {})",
        "tool_call(' admin.drop', {})",
        "tool_call('admin.drop ', {})",
        "tool_call('admin..drop', {})",
        "tool_call('admin.drop\\u0000', {})",
        "tool_call('admin.drop.execute', {})",
        "tools['admin.drop']({})",
        "tools.admin.drop({})",
        "tools.admin.drop.execute({})",
        "tools.admin_drop({})",
        "tools.adminDrop({})",
    ];
    test("each reaches nothing, and reads exactly as if the tool were never registered", async (t) => {
        let ran = 0;
        const hidden = await withFactory(t, {
            wasmLocation: assetPath,
            toolFilter: (d) => d.name !== "admin.drop",
            tools: [tool("admin.drop", () => { ran++; return "DROPPED"; }), tool("admin.list", () => [])],
        });
        const absent = await withFactory(t, { wasmLocation: assetPath, tools: [tool("admin.list", () => [])] });
        const hs = hidden.createSession(), as = absent.createSession();
        for (const call of spellings) {
            const code = `try { return await ${call} } catch (e) { return e.name + ": " + e.message }`;
            const [h, a] = [await run(hs, code), await run(as, code)];
            assert.equal(ran, 0, call);
            assert.deepEqual(h.result, a.result, call);
            assert.deepEqual(h.logs, a.logs, call);
        }
    });
});

describe("two factories on one page", () => {
    test("same tool name, different execute: each session calls its own factory's tool, runs interleaved", async (t) => {
        const IoCodeModeFactory = await loadFactory();
        const [a, b] = await Promise.all([1, 2].map((n) => IoCodeModeFactory({
            wasmLocation: assetPath,
            tools: [tool("t.x", async () => { await sleep(5); return n; })],
        })));
        t.after(() => { a.dispose(); b.dispose(); });
        const sa = a.createSession(), sb = b.createSession();
        const code = "let s = 0; for (let i = 0; i < 5; i++) s += await tools.t.x({}); return s";
        const rs = await Promise.all([run(sa, code), run(sb, code), run(sa, code), run(sb, code)]);
        assert.deepEqual(rs.map((r) => r.result), [5, 10, 5, 10], JSON.stringify(rs.map((r) => r.error)));
    });

    test("one factory in a worker and one in-thread, runs at once: each calls its own tool", async (t) => {
        const IoCodeModeFactory = (await import(pathToFileURL(join(dist, "index.mjs")).href)).IoCodeModeFactory;
        const [a, b] = await Promise.all([true, false].map((worker, n) => IoCodeModeFactory({ wasmLocation: assetPath, worker, tools: [tool("t.x", () => n)] })));
        t.after(() => { a.dispose(); b.dispose(); });
        const rs = await Promise.all([a, b, a, b].map((api) => run(api.createSession(), "return await tools.t.x({})")));
        assert.deepEqual(rs.map((r) => r.result), [0, 1, 0, 1], JSON.stringify(rs.map((r) => r.error)));
    });

    test("disposing one factory while the other's run awaits a tool: the other's run is ok", async (t) => {
        const IoCodeModeFactory = await loadFactory();
        let release;
        const gate = new Promise((r) => { release = r; });
        const a = await IoCodeModeFactory({ wasmLocation: assetPath, tools: [tool("t.x", () => gate)] });
        const b = await IoCodeModeFactory({ wasmLocation: assetPath, tools: [tool("t.x", () => new Promise(() => {}))] });
        t.after(() => a.dispose());
        const pa = run(a.createSession(), "return await tools.t.x({})");
        const pb = run(b.createSession(), "return await tools.t.x({})").catch((e) => e);
        await sleep(100);
        b.dispose();
        const eb = await pb;
        assert.ok(eb instanceof Error, String(eb));
        release(42);
        const ra = await within(pa, 20_000);
        assert.equal(ra.ok, true, JSON.stringify(ra.error));
        assert.equal(ra.result, 42);
    });
});

describe("a promise of the page shared by runs", () => {
    test("one promise a tool returns to a run that timed out and to two later runs (two factories): the later runs get its value", async (t) => {
        let resolve;
        const shared = new Promise((r) => { resolve = r; });
        const results = [];
        const a = await withFactory(t, { wasmLocation: assetPath, timeout: 700, onEvent: (e) => { if (e.type === "tool-result") results.push([e.runId, e.ok]); }, tools: [tool("t.x", () => shared)] });
        const b = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => shared)] });
        const sa = a.createSession();
        const first = await run(sa, "return await tools.t.x({})");
        assert.equal(first.error.code, "TIMEOUT");
        const later = [run(sa, "return await tools.t.x({})"), run(b.createSession(), "return await tools.t.x({})")];
        await sleep(50);
        resolve({ v: 42 });
        const rs = await within(Promise.all(later), 20_000);
        assert.notEqual(rs, "hung");
        assert.deepEqual(rs.map((r) => r.result), [{ v: 42 }, { v: 42 }], JSON.stringify(rs.map((r) => r.error)));
        // The timed-out run's call got its one failed result, at its end, and nothing later.
        assert.deepEqual(results.map(([, ok]) => ok), [false, true]);
    });
});

describe("approvals that land after their owner was disposed", () => {
    for (const owner of ["factory", "session"]) {
        test(`an approval pending when the ${owner} is disposed, allowed afterwards: the tool never runs, no unhandled rejection`, async (t) => {
            const unhandled = [];
            const onUnhandled = (e) => unhandled.push(e);
            process.on("unhandledRejection", onUnhandled);
            t.after(() => process.off("unhandledRejection", onUnhandled));
            let approve, asked;
            const askedP = new Promise((r) => { asked = r; });
            let ran = 0;
            const IoCodeModeFactory = await loadFactory();
            const api = await IoCodeModeFactory({
                wasmLocation: assetPath,
                interceptors: { onToolCall: () => { asked(); return new Promise((r) => { approve = r; }); } },
                tools: [tool("t.x", () => { ran++; return 1; })],
            });
            t.after(() => api.dispose());
            const s = api.createSession();
            const p = run(s, "return await tools.t.x({})").then((r) => ["resolved", r], (e) => ["rejected", e]);
            await within(askedP, 20_000);
            (owner === "factory" ? api : s).dispose();
            approve({ allowed: true });
            const [how, v] = await within(p, 20_000);
            assert.equal(how, "rejected", JSON.stringify(v));
            await sleep(200);
            assert.equal(ran, 0);
            assert.deepEqual(unhandled, []);
        });
    }
});

describe("no tool call starts after its run ended", () => {
    const rows = [
        ["a call after a 1e4-long promise chain, from an un-awaited async function",
            "(async () => { let p = Promise.resolve(); for (let i = 0; i < 1e4; i++) p = p.then(() => {}); await p; await tools.t.x({ late: 1 }); })(); return 1"],
        ["calls from a for-await over an endless async generator, left running",
            "(async () => { for await (const v of (async function* () { for (;;) yield 1; })()) await tools.t.x({ late: 2 }); })(); return 1"],
        ["a call from Error.prepareStackTrace and from a stack getter of the thrown error",
            "Error.prepareStackTrace = () => { tools.t.x({ late: 3 }); return 's'; }; const e = new Error('boom'); Object.defineProperty(e, 'stack', { get() { tools.t.x({ late: 4 }); return 's'; } }); throw e"],
        ["a call from a Symbol.toPrimitive of a thrown object",
            "throw { [Symbol.toPrimitive]() { tools.t.x({ late: 5 }); return 'x'; }, toString() { tools.t.x({ late: 6 }); return 'y'; } }"],
    ];
    for (const [name, code] of rows) {
        test(name, async (t) => {
            const rec = recorder();
            const api = await withFactory(t, { wasmLocation: assetPath, timeout: 3000, tools: [rec.tool] });
            const s = api.createSession();
            const r = await within(run(s, code), 20_000);
            rec.ended = true;
            assert.notEqual(r, "hung");
            await sleep(300);
            assert.equal(rec.late, 0, JSON.stringify(rec.calls));
            for (const c of r.toolCalls) if (c.allowed && c.ok !== true) assert.ok(typeof c.reason === "string" && c.reason.length > 0, JSON.stringify(c));
            await nextRunWorks(s);
            assert.equal(rec.late, 0, JSON.stringify(rec.calls));
        });
    }
});

describe("thrown values and results the host reads after the program", () => {
    /** @type {[string, string, (r: any) => void][]} */
    const rows = [
        ["a thrown object whose Symbol.toPrimitive never returns: the host never calls it", "throw { [Symbol.toPrimitive]() { for (;;) {} } }", (r) => assert.match(r.error.code, /RUNTIME|TIMEOUT/)],
        ["a thrown Proxy whose get trap never returns: TIMEOUT", "throw new Proxy({}, { get() { for (;;) {} } })", (r) => assert.equal(r.error.code, "TIMEOUT")],
        ["a thrown Symbol: RUNTIME that says so", "throw Symbol('sym')", (r) => { assert.equal(r.error.code, "RUNTIME"); assert.match(r.error.message, /Symbol|sym/); }],
        ["a thrown null: RUNTIME that says so", "throw null", (r) => { assert.equal(r.error.code, "RUNTIME"); assert.match(r.error.message, /null/); }],
        ["a thrown undefined: RUNTIME that says so", "throw undefined", (r) => { assert.equal(r.error.code, "RUNTIME"); assert.match(r.error.message, /undefined/); }],
        ["a thrown BigInt: RUNTIME that shows it", "throw 42n", (r) => { assert.equal(r.error.code, "RUNTIME"); assert.match(r.error.message, /42/); }],
        ["an Error whose message is an object whose toString throws: RUNTIME", "const e = new Error('m'); e.message = { toString() { throw new Error('inner') } }; throw e", (r) => assert.equal(r.error.code, "RUNTIME")],
        ["an AggregateError of 1e5 errors: RUNTIME, cut", "throw new AggregateError(Array.from({ length: 1e5 }, (_, i) => new Error('e' + i)), 'agg')", (r) => { assert.equal(r.error.code, "RUNTIME"); assert.match(r.error.message, /agg/); }],
        ["a cause chain 1e5 deep: RUNTIME, bounded", "let e = new Error('0'); for (let i = 1; i < 1e5; i++) e = new Error(String(i), { cause: e }); throw e", (r) => { assert.equal(r.error.code, "RUNTIME"); assert.match(r.error.message, /99999/); }],
        ["return globalThis: converted or RESULT_NOT_SERIALIZABLE", "return globalThis", (r) => { if (!r.ok) assert.match(r.error.code, /RESULT_NOT_SERIALIZABLE|RUNTIME/); }],
        ["JSON.stringify replaced with one giving bad JSON: the real result or a clear error", "JSON.stringify = () => '{not json'; return { a: 1 }", (r) => { if (r.ok) assert.deepEqual(r.result, { a: 1 }); else assert.doesNotMatch(r.error.message, /Unexpected token/); }],
        ["JSON.stringify replaced with one giving 50 MB: bounded", "JSON.stringify = () => 'x'.repeat(5e7); return { a: 1 }", (r) => { if (r.ok) assert.deepEqual(r.result, { a: 1 }); }],
        ["JSON.parse replaced, then a tool call: the tool's value", "JSON.parse = () => ({ forged: true }); return await tools.t.x({ a: 1 })", (r) => assert.deepEqual(r.result, { got: { a: 1 } })],
        ["Object.prototype.toJSON as a getter that never returns: TIMEOUT", "Object.defineProperty(Object.prototype, 'toJSON', { get() { for (;;) {} } }); return {}", (r) => assert.equal(r.error.code, "TIMEOUT")],
        ["Array iteration broken in the sandbox, then tool_search and a call: they work or fail clearly",
            "Array.prototype.map = null; Array.prototype.forEach = null; Array.prototype[Symbol.iterator] = function* () {}; Array.prototype.push = null; const f = await tool_search({ query: 'x' }); return [f.length > 0, await tools.t.x({ a: [1, 2] })]",
            (r) => { if (r.ok) assert.deepEqual(r.result[1], { got: { a: [1, 2] } }); else assert.doesNotMatch(r.error.message, /prelude|__|internal/); }],
        ["Error replaced in the sandbox, then a failing tool: the program still reads the tool's message",
            "globalThis.Error = function () { return { hacked: 1 } }; globalThis.TypeError = globalThis.Error; try { await tools.t.fail({}) } catch (e) { return String(e && e.message) }",
            (r) => assert.match(r.result, /tool broke/)],
        ["Reflect.apply and Function.prototype.apply replaced, then a tool call: the tool's value",
            "Reflect.apply = null; Function.prototype.apply = null; return await tools.t.x({ a: 1 })",
            (r) => assert.deepEqual(r.result, { got: { a: 1 } })],
    ];
    for (const [name, code, check] of rows) {
        test(name, async (t) => {
            const api = await withFactory(t, {
                wasmLocation: assetPath,
                // Short only where TIMEOUT is the outcome: a row that must end
                // otherwise gets time to spare on a loaded machine.
                timeout: /TIMEOUT/.test(name) ? 1500 : 30_000,
                tools: [tool("t.x", (i) => ({ got: i })), tool("t.fail", () => { throw new Error("tool broke"); })],
            });
            const s = api.createSession();
            const r = await within(run(s, code), 30_000);
            assert.notEqual(r, "hung");
            check(r);
            assertBounded(r);
            await nextRunWorks(s);
        });
    }
});

describe("resource floods of new shapes", () => {
    /** @type {[string, string, (r: any) => void, object?][]} */
    const rows = [
        ["a 1e6-long then chain: ok or TIMEOUT", "let p = Promise.resolve(0); for (let i = 0; i < 1e6; i++) p = p.then((v) => v + 1); return await p", (r) => { if (r.ok) assert.equal(r.result, 1e6); else assert.match(r.error.code, /TIMEOUT|MEMORY_LIMIT/); }],
        ["async recursion 1e5 deep: a value or a catchable RangeError", "async function f(n) { return n ? 1 + await f(n - 1) : 0 } try { return await f(1e5) } catch (e) { return e.name }", (r) => { if (r.ok) assert.ok(r.result === 1e5 || r.result === "RangeError" || r.result === "InternalError", String(r.result)); else assert.match(r.error.code, /MEMORY_LIMIT|RUNTIME/); }],
        ["new ArrayBuffer(2**31): a catchable RangeError or MEMORY_LIMIT", "try { return new ArrayBuffer(2 ** 31).byteLength } catch (e) { return e.name }", (r) => { if (r.ok) assert.match(String(r.result), /RangeError|InternalError/); else assert.equal(r.error.code, "MEMORY_LIMIT"); }],
        ["new Array(2**32 - 1).fill(0): MEMORY_LIMIT or TIMEOUT", "return new Array(2 ** 32 - 1).fill(0).length", (r) => assert.match(r.error.code, /MEMORY_LIMIT|TIMEOUT|RUNTIME/)],
        ["console.group left open 1e5 times, then 1,000 lines: the run ends, each line shows its text", "for (let i = 0; i < 1e5; i++) console.group(); for (let i = 0; i < 1000; i++) console.log('line', i); return 1", (r) => {
            assert.equal(r.ok, true, JSON.stringify(r.error));
            assert.match(r.logs[0].message, /^ +line 0$/);
        }],
        ["console.time and console.count with 1e5 distinct 1 KB labels: bounded", "const pad = 'x'.repeat(1000); for (let i = 0; i < 1e5; i++) { console.time(pad + i); console.count(pad + i); } console.timeEnd(pad + 5); return 1", (r) => assert.ok(r.ok || r.error.code === "TIMEOUT" || r.error.code === "MEMORY_LIMIT", JSON.stringify(r.error))],
        ["a format string of 1e6 %s: bounded (ok, or TIMEOUT on a loaded machine)", "console.log('%s'.repeat(1e6), 'a', 'b'); console.log('%o%O%j%d%i%f%c'.repeat(1e5), {}); return 1", (r) => assert.ok(r.ok || r.error.code === "TIMEOUT", JSON.stringify(r.error))],
        ["setInterval(0) ticking 1e6 times: ok or TIMEOUT", "let n = 0; await new Promise((res) => { const id = setInterval(() => { if (++n === 1e6) { clearInterval(id); res(); } }, 0); }); return n", (r) => { if (r.ok) assert.equal(r.result, 1e6); else assert.equal(r.error.code, "TIMEOUT"); }],
        ["setTimeout awaited with delay 2**53: TIMEOUT", "await new Promise((r) => setTimeout(r, 2 ** 53)); return 1", (r) => assert.equal(r.error.code, "TIMEOUT")],
        ["setTimeout with delays -1, NaN, '5', Infinity-as-0? : each fires", "const d = [-1, NaN, '5', undefined, null, {}]; const out = []; await Promise.all(d.map((x, i) => new Promise((r) => setTimeout(() => { out.push(i); r(); }, x)))); return out.length", (r) => assert.equal(r.result, 6)],
        ["a console.log of a Proxy whose traps never return: TIMEOUT", "console.log(new Proxy({}, { ownKeys() { for (;;) {} }, get() { for (;;) {} } })); return 1", (r) => assert.equal(r.error.code, "TIMEOUT")],
        ["console.table of a cyclic 1e4-row array: bounded", "const rows = Array.from({ length: 1e4 }, (_, i) => ({ i })); rows.forEach((r) => { r.self = r; r.all = rows; }); console.table(rows); console.dir(rows, { depth: 1e9 }); return 1", (r) => assert.equal(r.ok, true, JSON.stringify(r.error))],
    ];
    for (const [name, code, check, extra] of rows) {
        test(name, { timeout: 120_000 }, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath, timeout: /TIMEOUT/.test(name) ? 3000 : 30_000, ...extra });
            const s = api.createSession();
            const r = await within(run(s, code), 60_000);
            assert.notEqual(r, "hung");
            check(r);
            assertBounded(r);
            await nextRunWorks(s);
        });
    }
});

describe("program shapes", () => {
    /** @type {[string, string, (r: any) => void][]} */
    const result = (want) => (r) => { assert.equal(r.ok, true, JSON.stringify(r.error)); assert.deepEqual(r.result, want); };
    const syntax = (re) => (r) => { assert.equal(r.ok, false, JSON.stringify(r.result)); assert.equal(r.error.code, "SYNTAX"); assert.match(r.error.message, re); };
    const rows = [
        ["export default async function () {} (anonymous) is called", "export default async function () {\n  const v = await tools.t.x({ a: 1 });\n  return v.got.a + 6;\n}", result(7)],
        ["export default async () => {} is called", "export default async () => {\n  return 7;\n};", result(7)],
        ["export default async function main() {} is called", "export default async function main() {\n  return 7;\n}", result(7)],
        ["export async function main() {} is called", "export async function main() {\n  return 7;\n}", result(7)],
        ["a fence inside a string of an unfenced program stays in the string", "const doc = [\n\"```js\",\n\"foo()\",\n\"```\"].join(\"\\n\");\nreturn doc", result("```js\nfoo()\n```")],
        ["a markdown report in a template literal of an unfenced program stays in it", "const md = `## Report\n\\`\\`\\`\nrows: 3\n\\`\\`\\`\n`;\nreturn md.length", result("## Report\n```\nrows: 3\n```\n".length)],
        ["```tsx fence", "```tsx\nconst n: number = 1;\nreturn n\n```", result(1)],
        ["```typescript fence", "```typescript\nconst n: number = 1;\nreturn n\n```", result(1)],
        ["~~~js fence", "~~~js\nreturn 1\n~~~", result(1)],
        ["```js title=\"x.js\" fence", "```js title=\"x.js\"\nreturn 1\n```", result(1)],
        ["```javascript {1,3} fence", "```javascript {1,3}\nreturn 1\n```", result(1)],
        ["a fence indented by two spaces", "  ```js\n  return 1\n  ```", result(1)],
        ["a shebang line", "#!/usr/bin/env node\nreturn 1", result(1)],
        ["\"use strict\" first", "\"use strict\";\nreturn 1", result(1)],
        ["JSX: SYNTAX that names JSX", "const x = 1;\nreturn <div>{x}</div>;", syntax(/JSX/)],
        ["a JSX component: SYNTAX that names JSX", "function App() { return <App2 a=\"1\" /> }\nreturn 1", syntax(/JSX/)],
        ["the old <T>x assertion is erased", "const x: unknown = 'ab';\nreturn (<string>x).length", result(2)],
        ["overloads run", "function f(a: string): string;\nfunction f(a: number): number;\nfunction f(a: any) { return a }\nreturn f(3)", result(3)],
        ["type predicates and assertion functions run", "const isS = (x: unknown): x is string => typeof x === 'string';\nfunction check(x: unknown): asserts x is number { if (typeof x !== 'number') throw new Error('no') }\nconst v: unknown = 2; check(v);\nreturn [isS('a'), v]", result([true, 2])],
        ["explicit type arguments on a tool call and a constructor", "type Foo = { a: number };\nconst m = new Map<string, number>();\nm.set('a', 1);\nconst r = await tools.t.x<Foo>({ a: m.get('a') });\nreturn r.got.a", result(1)],
        ["abstract, override and declare fields", "abstract class A { abstract f(): number; g() { return 1 } }\nclass B extends A { declare x: number; f() { return 2 } override g() { return 3 } }\nconst b = new B();\nreturn b.f() + b.g()", result(5)],
        ["a program that only defines solve(): called, or a warning that it was not", "function solve() {\n  return 42;\n}", (r) => { assert.equal(r.ok, true, JSON.stringify(r.error)); if (r.result !== 42) assert.ok(r.logs.some((l) => /solve/.test(l.message)), JSON.stringify(r)); }],
        ["import.meta: SYNTAX that says modules are not available", "return import.meta.url", (r) => { assert.equal(r.ok, false); assert.match(r.error.message, /import/); }],
        ["a NUL and a U+2028 inside strings", "return ['a\u0000b'.length, 'c\u2028d'.length]", result([3, 3])],
        ["this and arguments at the top level hold no host object", "return [typeof this, this === undefined || this === globalThis, typeof arguments === 'undefined' ? -1 : arguments.length, typeof arguments === 'undefined' ? [] : Array.from(arguments, (a) => typeof a)]",
            (r) => { assert.equal(r.ok, true, JSON.stringify(r.error)); assert.equal(r.result[1], true); assert.ok(r.result[2] <= 0, JSON.stringify(r.result)); }],
        ["await in a non-async arrow: SYNTAX at the model's line", "const f = () => {\n  await tools.t.x({});\n};\nreturn 1", (r) => { assert.equal(r.error.code, "SYNTAX"); assert.equal(r.error.line, 2); }],
    ];
    for (const [name, code, check] of rows) {
        test(name, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath, timeout: 30_000, tools: [tool("t.x", (i) => ({ got: i }))] });
            const r = await run(api.createSession(), code);
            check(r);
        });
    }
});

describe("a page that installs fake timers or stops its clock after the factory loaded", () => {
    /** Replaces the page's timers and clock as jest's and sinon's fake timers do, until the returned restore. */
    const fake = (what) => {
        const saved = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout, dateNow: Date.now };
        if (what.includes("timers")) {
            globalThis.setTimeout = () => 0;
            globalThis.clearTimeout = () => {};
        }
        if (what.includes("clock")) {
            const frozen = Date.now();
            Date.now = () => frozen;
            performance.now = () => 0;
        }
        return () => {
            globalThis.setTimeout = saved.setTimeout;
            globalThis.clearTimeout = saved.clearTimeout;
            Date.now = saved.dateNow;
            delete performance.now;
        };
    };
    for (const what of ["timers", "clock", "timers and clock"]) {
        test(`${what} replaced: a run awaiting a tool that never settles still ends TIMEOUT, a program's timer still fires`, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath, timeout: 5000, tools: [tool("t.x", () => new Promise(() => {}))] });
            const s = api.createSession();
            await nextRunWorks(s);
            const restore = fake(what);
            // Something real keeps the Node process alive while the run waits.
            const keep = setInterval(() => {}, 1000);
            let hung, timer;
            try {
                hung = await within(run(s, "return await tools.t.x({})"), 20_000);
                timer = await within(run(s, "await new Promise((r) => setTimeout(r, 10)); return 2"), 20_000);
            } finally {
                restore();
                clearInterval(keep);
            }
            assert.notEqual(hung, "hung");
            assert.equal(hung.error.code, "TIMEOUT", JSON.stringify(hung));
            assert.notEqual(timer, "hung");
            assert.equal(timer.result, 2, JSON.stringify(timer));
        });
    }
});

describe("an onToolCall that changes the input it was given", () => {
    const setup = async (t, onToolCall) => {
        const got = [];
        const api = await withFactory(t, { wasmLocation: assetPath, interceptors: { onToolCall }, tools: [tool("t.pay", (i) => { got.push(i); return "paid"; })] });
        const r = await run(api.createSession(), "try { return await tools.t.pay({ amount: 1e6, card: '4111', note: 'x' }) } catch (e) { return e.name + ': ' + e.message }");
        return { got, r };
    };
    for (const [what, change] of [
        ["caps a field", (input) => { input.amount = 0; }],
        ["deletes a field", (input) => { delete input.card; }],
        ["adds a field", (input) => { input.approvedBy = "bot"; }],
    ]) {
        test(`one that ${what} in place and allows without an input: denied, saying to return the input; the tool never runs`, async (t) => {
            const { got, r } = await setup(t, ({ input }) => { change(input); return { allowed: true }; });
            assert.deepEqual(got, []);
            assert.match(r.result, /changed the input it was given.*return \{ allowed: true, input \}/);
            assert.equal(r.toolCalls[0].allowed, false, JSON.stringify(r.toolCalls));
        });
    }
    test("one that changes it in place and returns it as input: the tool gets the change", async (t) => {
        const { got, r } = await setup(t, ({ input }) => { input.amount = 0; return { allowed: true, input }; });
        assert.equal(r.result, "paid");
        assert.deepEqual(got, [{ amount: 0, card: "4111", note: "x" }]);
    });
    test("one that only reads it (an async approval) allows with the program's input", async (t) => {
        const { got, r } = await setup(t, async ({ input }) => { await sleep(1); return { allowed: input.amount > 0 }; });
        assert.equal(r.result, "paid");
        assert.deepEqual(got, [{ amount: 1e6, card: "4111", note: "x" }]);
    });
});

describe("an onEvent observer that redacts what it is shown", () => {
    for (const interceptor of [false, true]) {
        test(`a tool-call event's input changed by the observer: the tool gets the program's input (onToolCall: ${interceptor})`, async (t) => {
            const got = [];
            const api = await withFactory(t, {
                wasmLocation: assetPath,
                ...(interceptor ? { interceptors: { onToolCall: ({ input }) => ({ allowed: true, input }) } } : {}),
                onEvent: (e) => {
                    if (e.type === "tool-call" && e.input) { e.input.card = "***"; delete e.input.amount; }
                },
                tools: [tool("t.pay", (i) => { got.push(structuredClone(i)); return "paid"; })],
            });
            const r = await run(api.createSession(), "return await tools.t.pay({ card: '4111', amount: 5 })");
            assert.equal(r.result, "paid", JSON.stringify(r.error));
            assert.deepEqual(got, [{ card: "4111", amount: 5 }]);
        });
    }

    test("a tool-result event's result changed by the observer: the tool's own object is unchanged; the event shows what the program got", async (t) => {
        // A tool that answers from a cache returns the cache's own object.
        const cached = { card: "4111", at: new Date(0), list: [1, 2] };
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            onEvent: (e) => {
                if (e.type === "tool-result" && e.ok) { e.result.card = "***"; e.result.list.push(3); delete e.result.at; }
            },
            tools: [tool("t.get", () => cached)],
        });
        const r = await run(api.createSession(), "const a = await tools.t.get({}); const b = await tools.t.get({}); return [a, b]");
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(cached, { card: "4111", at: new Date(0), list: [1, 2] });
        const got = { card: "4111", at: "1970-01-01T00:00:00.000Z", list: [1, 2] };
        assert.deepEqual(r.result, [got, got]);
    });

    test("a tool-result event's result is the value as the program gets it (JSON data)", async (t) => {
        const results = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            onEvent: (e) => e.type === "tool-result" && results.push(e.result),
            tools: [tool("t.get", () => ({ at: new Date(0), gone: undefined, n: 1 }))],
        });
        const r = await run(api.createSession(), "return await tools.t.get({})");
        assert.deepEqual(results, [r.result]);
        assert.deepEqual(r.result, { at: "1970-01-01T00:00:00.000Z", n: 1 });
    });

    test("a run-end event's error changed by the observer: execute resolves with the run's own error", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            onEvent: (e) => {
                if (e.type === "run-end" && e.error) { e.error.message = "REDACTED"; e.error.code = "X"; delete e.error.line; }
            },
        });
        const r = await run(api.createSession(), "throw new Error('boom')");
        assert.equal(r.ok, false);
        assert.deepEqual([r.error.message, r.error.code, r.error.line], ["boom", "RUNTIME", 1]);
    });
});
