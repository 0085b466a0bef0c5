// Hostile page values (hostile13): what a page tool returns or throws and
// what onToolCall answers, written as a careless or compromised dependency
// of the page would: thenables, getters, Proxies (revoked too), cycles,
// huge objects and errors, answers that come after their run ended, and
// approvals racing between the runs of one session. The page must survive
// each, the program must get a clear error, and no run may see another's.
// Cases that could hang the page's own event loop run in a child process.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { WORKER, assetPath, indexURL, run, sleep, tool, withFactory } from "./helpers.mjs";

/**
 * Runs `body` (an async function body with IoCodeModeFactory, assetPath and
 * run) in a fresh Node process in the suite's mode; a hang is killed after
 * `timeout` ms and fails.
 * @param {string} body
 */
function inChild(body, timeout = 120_000) {
    const script = `
        const { IoCodeModeFactory: factory } = await import(${JSON.stringify(indexURL)});
        const IoCodeModeFactory = (c) => factory({ ...c, worker: ${WORKER} });
        const assetPath = ${JSON.stringify(assetPath)};
        const run = (s, code, o) => s.getLlmTools().find((t) => t.name === "executeCode").execute({ code, explanation: "" }, o);
        const out = await (async () => { ${body} })();
        process.stdout.write(JSON.stringify(out));
        process.exit(0);
    `;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout });
    assert.equal(child.status, 0, `the child process failed (status ${child.status}, signal ${child.signal}): ${child.stderr.slice(-2000)}`);
    return JSON.parse(child.stdout);
}

// The program calls tools.t.x({}) and returns its value, or the error's
// name and message.
const CALL = "try { return await tools.t.x({}) } catch (e) { return e.name + ': ' + e.message }";

describe("a tool's return value written to hurt", () => {
    const revoked = () => {
        const r = Proxy.revocable({ a: 1 }, {});
        r.revoke();
        return r.proxy;
    };
    const cyclic = () => {
        const o = { a: { b: {} } };
        o.a.b.c = o;
        return o;
    };
    /** @type {[string, () => unknown, unknown][]} */
    const rows = [
        ["a thenable that resolves is awaited", () => ({ then: (/** @type {any} */ r) => r({ v: 1 }) }), { v: 1 }],
        ["a thenable whose then throws fails the call with its message", () => ({ then() { throw new Error("then boom"); } }), "ToolError: then boom"],
        ["a getter that throws fails the call with its message", () => ({ get a() { throw new Error("getter boom"); } }), "ToolError: the tool returned a value that is not JSON data: getter boom"],
        ["a Proxy is read through its traps, as JSON reads it", () => new Proxy({ a: 1, b: 2 }, { get: (o, k) => (k === "a" ? 10 : Reflect.get(o, k)) }), { a: 10, b: 2 }],
        ["a revoked Proxy fails the call", revoked, /^ToolError: .*revoked/],
        ["a revoked Proxy inside fails the call", () => ({ list: [1, revoked()] }), /^ToolError: .*revoked/],
        ["a cycle fails the call", cyclic, /^ToolError: the tool returned a value that is not JSON data: .*circular/i],
        ["a Symbol.toPrimitive object is data, not a string", () => ({ n: { [Symbol.toPrimitive]: () => "prim", valueOf: () => 7 } }), { n: {} }],
        // JSON.stringify writes such an object's own data; its toJSON, a
        // function, is omitted (and reported).
        ["a toJSON that returns its own object gives that object's data", () => ({ a: 1, toJSON() { return this; } }), { a: 1 }],
        ["a toJSON that returns its own object, inside", () => ({ list: [{ b: 2, toJSON() { return this; } }] }), { list: [{ b: 2 }] }],
        ["a Map, a Set, a BigInt and typed arrays convert as documented", () => ({ m: new Map([["a", 1]]), s: new Set([1, 2]), b: 10n ** 30n, u: new Uint8Array([1, 2]), f: new Float64Array([0.5]) }), { m: { a: 1 }, s: [1, 2], b: "1000000000000000000000000000000", u: [1, 2], f: [0.5] }],
    ];
    for (const [name, value, want] of rows) {
        test(name, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", value)] });
            const r = await run(api.createSession(), CALL);
            assert.equal(r.ok, true, JSON.stringify(r.error));
            if (want instanceof RegExp) assert.match(String(r.result), want);
            else assert.deepEqual(r.result, want);
        });
    }
    test("a getter of the result runs once", async (t) => {
        let reads = 0;
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => ({ get a() { return ++reads; } }))] });
        const r = await run(api.createSession(), CALL);
        assert.deepEqual(r.result, { a: 1 });
        assert.equal(reads, 1);
    });
    // The work is large: the test took 7.5-78 s at load 13-21 on 2 cores,
    // against the 60 s run timeout and 120 s test timeout it had. The
    // limits are the work's, not what is tested.
    test("an object of 1e6 keys reaches the program whole, and the next run works", { timeout: 600_000 }, async (t) => {
        const big = {};
        for (let i = 0; i < 1e6; i++) big["k" + i] = i;
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 300_000, memoryLimit: 512, tools: [tool("t.x", () => big)] });
        const s = api.createSession();
        const r = await run(s, "const o = await tools.t.x({}); return [Object.keys(o).length, o.k999999]");
        assert.deepEqual(r.result, [1e6, 999999], JSON.stringify(r.error));
        assert.equal((await run(s, "return 1")).result, 1);
    });
});

describe("a tool's thrown error written to hurt", () => {
    /** @type {[string, () => unknown, RegExp][]} */
    const rows = [
        ["a message getter that throws", () => Object.defineProperty(new Error("x"), "message", { get() { throw new Error("inner"); } }), /^ToolError: \S/],
        ["a name getter that returns an object", () => Object.defineProperty(new Error("named"), "name", { get: () => ({}) }), /^ToolError: .*named/],
        ["a message that is a Symbol", () => Object.assign(new Error(), { message: Symbol("sym") }), /^ToolError: \S/],
        ["a revoked Proxy", () => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; }, /^ToolError: \S/],
        ["a 50 MB message is cut", () => new Error("<".repeat(5e7)), /^ToolError: <{100}/],
    ];
    for (const [name, error, want] of rows) {
        test(name, async (t) => {
            // The 50 MB message's row took up to 27 s at load 13-21 on 2 cores,
            // near the default 30 s timeout, which the program must not hit.
            const api = await withFactory(t, { wasmLocation: assetPath, timeout: 120_000, tools: [tool("t.x", () => { throw error(); })] });
            const s = api.createSession();
            const r = await run(s, CALL);
            assert.equal(r.ok, true, JSON.stringify(r.error));
            assert.match(r.result, want);
            assert.ok(r.result.length <= 1100, `${r.result.length} characters`);
            assert.ok(r.toolCalls[0].reason.length <= 1100, `a reason of ${r.toolCalls[0].reason.length} characters`);
            assert.equal((await run(s, "return 1")).result, 1);
        });
    }
    test("the page's stack (its files) does not reach the program", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => { throw new Error("plain"); })] });
        const r = await run(api.createSession(), "try { await tools.t.x({}) } catch (e) { return [e.message, String(e.stack)] }");
        assert.equal(r.result[0], "plain");
        assert.doesNotMatch(r.result[1], /file:|\/work\/|node:|\.mjs/);
    });
});

describe("answers that never end, or end too late", () => {
    // A thenable that resolves with itself: awaited, it schedules another
    // then() job for ever, which starved the page's timers (the run's
    // timeout among them) and I/O: the page hung. Adopted level by level
    // (thenable.mjs), the call fails at the 33rd level with an error that
    // says so, and the page lives.
    const THENABLE = /thenable that resolved with a thenable 32 times over \(one whose then resolves with itself\?\)/;
    test("a tool returning a self-resolving thenable: the call fails saying so, the page lives, the next run works", () => {
        const out = inChild(`
            const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 60000,
                tools: [{ name: "t.x", description: "d", execute: () => { const t = { then(r) { r(t) } }; return t } }] });
            const s = api.createSession();
            const r = await run(s, ${JSON.stringify(CALL)});
            let ticked = false; await new Promise((res) => setTimeout(() => { ticked = true; res() }, 10));
            const next = await run(s, "return 2");
            api.dispose();
            return { r: r.result, ticked, next: next.result };
        `, 60_000);
        assert.match(out.r, /^ToolError: the tool's value is a /);
        assert.match(out.r, THENABLE);
        assert.deepEqual([out.ticked, out.next], [true, 2]);
    });
    test("an onToolCall returning a self-resolving thenable: the call is denied saying so, the tool never runs, the page lives", () => {
        const out = inChild(`
            let ran = 0;
            const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 60000,
                interceptors: { onToolCall: () => { const t = { then(r) { r(t) } }; return t } },
                tools: [{ name: "t.x", description: "d", execute: () => ++ran }] });
            const s = api.createSession();
            const r = await run(s, ${JSON.stringify(CALL)});
            await new Promise((res) => setTimeout(res, 10));
            const next = await run(s, "return 2");
            api.dispose();
            return { r: r.result, ran, next: next.result };
        `, 60_000);
        assert.match(out.r, /denied.*onToolCall's answer is a /);
        assert.match(out.r, THENABLE);
        assert.deepEqual([out.ran, out.next], [0, 2]);
    });
    test("a never-settling thenable and an abort: execute rejects with the reason, the tool's signal aborts", async (t) => {
        /** @type {AbortSignal | undefined} */
        let signal;
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", (_i, o) => ((signal = o.signal), { then() {} }))] });
        const s = api.createSession();
        const ctrl = new AbortController();
        const p = run(s, CALL, { signal: ctrl.signal });
        while (!signal) await sleep(10);
        const reason = new Error("stop now");
        ctrl.abort(reason);
        await assert.rejects(p, (e) => e === reason);
        assert.equal(signal.aborted, true);
        assert.equal(signal.reason, reason);
        assert.equal((await run(s, "return 1")).result, 1);
    });
    test("a tool that resolves after its run timed out reaches neither that run nor the next one", async (t) => {
        /** @type {((v: unknown) => void)[]} */
        const pending = [];
        const events = [];
        // Run A must reach its call before the timeout and run B finish within
        // it: at load 14 on 2 cores a fresh factory's A took 1.4 s to time out
        // at 500 ms without calling t.x (then B's t.y threw 'pending[0] is
        // not a function'), and B took up to 0.74 s.
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 5000,
            tools: [tool("t.x", () => new Promise((r) => pending.push(r))), tool("t.y", async () => { pending[0]({ marker: "FROM-RUN-A" }); await sleep(50); return "B" })],
        });
        const s = api.createSession();
        const a = await run(s, "return await tools.t.x({})", { onEvent: (e) => events.push(["A", e]) });
        assert.equal(a.error?.code, "TIMEOUT");
        assert.equal(pending.length, 1, "run A timed out before it called t.x");
        const eventsOfA = events.length;
        const b = await run(s, "const v = await tools.t.y({}); await new Promise((r) => setTimeout(r, 50)); return [v, typeof globalThis.late]", { onEvent: (e) => events.push(["B", e]) });
        assert.deepEqual(b.result, ["B", "undefined"]);
        assert.deepEqual(b.toolCalls.map((c) => c.name), ["t.y"]);
        assert.equal(events.slice(0, eventsOfA).every(([who]) => who === "A"), true);
        const runIds = new Set(events.slice(eventsOfA).map(([, e]) => e.runId));
        assert.equal(runIds.size, 1, JSON.stringify(events.slice(eventsOfA)));
        assert.doesNotMatch(JSON.stringify(events.slice(eventsOfA)), /FROM-RUN-A/);
    });
});

describe("onToolCall's answers written to hurt", () => {
    test("a thenable decision is awaited: its denial counts", async (t) => {
        let ran = 0;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: () => ({ allowed: true, then: (/** @type {any} */ r) => r({ allowed: false, reason: "the thenable said no" }) }) },
            tools: [tool("t.x", () => ++ran)],
        });
        const r = await run(api.createSession(), CALL);
        assert.match(r.result, /the thenable said no/);
        assert.equal(ran, 0);
    });
    test("a decision's allowed getter is read once: a second read cannot turn it", async (t) => {
        let reads = 0;
        let ran = 0;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: () => ({ get allowed() { return ++reads === 1 ? false : true; }, reason: "no" }) },
            tools: [tool("t.x", () => ++ran)],
        });
        const r = await run(api.createSession(), CALL);
        assert.equal(ran, 0, JSON.stringify(r));
        assert.equal(reads, 1);
        assert.match(r.result, /denied.*no/);
    });
    test("a revoked Proxy as the decision denies the call, saying why", async (t) => {
        let ran = 0;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: () => { const p = Proxy.revocable({ allowed: true }, {}); p.revoke(); return p.proxy; } },
            tools: [tool("t.x", () => ++ran)],
        });
        const r = await run(api.createSession(), CALL);
        assert.equal(ran, 0);
        assert.match(r.result, /denied.*revoked/);
    });
    test("a replacement input with a getter is read once: the tool gets what was read", async (t) => {
        let reads = 0;
        let got;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: () => ({ allowed: true, input: { get amount() { return ++reads === 1 ? 1 : 1e9; } } }) },
            tools: [tool("t.x", (i) => ((got = i), "ok"))],
        });
        const r = await run(api.createSession(), CALL);
        assert.equal(r.result, "ok");
        assert.deepEqual(got, { amount: 1 });
        assert.equal(reads, 1);
    });
    test("two runs of one session racing their approvals: each call runs with its own run's input and context", async (t) => {
        /** @type {Map<string, (d: unknown) => void>} */
        const waiting = new Map();
        const ran = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: ({ input, callContext }) => new Promise((r) => waiting.set(`${input.who}/${callContext}`, r)) },
            tools: [tool("t.x", (i, o) => (ran.push(`${i.who}/${o.context}`), i.who))],
        });
        const s = api.createSession();
        const a = run(s, "return await tools.t.x({ who: 'A' })", { context: "ctxA" });
        const b = run(s, "return await tools.t.x({ who: 'B' })", { context: "ctxB" });
        while (waiting.size < 2) await sleep(10);
        waiting.get("B/ctxB")?.({ allowed: true });
        assert.equal((await b).result, "B");
        waiting.get("A/ctxA")?.({ allowed: false, reason: "A is refused" });
        const ra = await a;
        assert.equal(ra.ok, false);
        assert.match(ra.error.message, /A is refused/);
        assert.deepEqual(ran, ["B/ctxB"]);
        assert.deepEqual((await b).toolCalls.map((c) => [c.name, c.allowed]), [["t.x", true]]);
        assert.deepEqual(ra.toolCalls.map((c) => [c.name, c.allowed]), [["t.x", false]]);
    });
});
