// Attacks from outside, third round (hostile18): what one run leaves in the
// reused QuickJS instance for the next run, two runs of one session in
// flight at once, the host misusing its own API (dispose from inside a
// tool, an interceptor or an observer; a tool unregistered while a run
// awaits it; thenables that settle twice; Proxies), searchTools given odd
// queries and limits, and the adapters fed a hostile source (names of every
// shape, 10,000 tools, $ref loops, 1 MB descriptions, non-Error throws).
// Each row states the safe outcome, in both engine modes (CODE_MODE_WORKER=1).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, llmTools, run, sleep, tool, withFactory, within } from "./helpers.mjs";
import { loadAdapter } from "./adapter-helpers.mjs";

/** A JSON text of `value` without the page's file paths, and not too long. */
function assertBounded(value, max = 200_000) {
    const text = JSON.stringify(value);
    assert.ok(text.length < max, `${text.length} chars: ${text.slice(0, 500)}`);
    for (const word of ["file:", "/work/", "node:internal", "hostile18"]) {
        assert.ok(!text.includes(word), `${word} in ${text.slice(0, 2000)}`);
    }
}

const ok = (r) => {
    assert.notEqual(r, "hung");
    assert.equal(r.ok, true, JSON.stringify(r.error));
    return r.result;
};

describe("a run leaves nothing for the next run of the session", () => {
    // Run 1 leaves `leave`; run 2 runs `probe` and must return `want`.
    const rows = [
        ["a global", "globalThis.secret = 'S1'; return 1", "return typeof globalThis.secret", "undefined"],
        ["an Object.prototype property", "Object.prototype.leak = 'S1'; return 1", "return ({}).leak ?? null", null],
        ["an Array.prototype method", "Array.prototype.first = function () { return 'S1' }; return 1", "return typeof [].first", "undefined"],
        ["a replaced JSON.stringify", "JSON.stringify = () => '\"S1\"'; return 1", "return {a: 1}", { a: 1 }],
        ["a Symbol.for registry entry with data", "globalThis[Symbol.for('k')] = 'S1'; Object.prototype[Symbol.for('k')] = 'S1'; return 1", "return String(({})[Symbol.for('k')] ?? null)", "null"],
        ["a frozen Object.prototype", "Object.freeze(Object.prototype); return 1", "const o = {}; o.toString = () => 'x'; return String(o)", "x"],
        ["a WeakRef on Function.prototype", "Function.prototype.ref = new WeakRef({ s: 'S1' }); return 1", "return typeof Function.prototype.ref", "undefined"],
        ["a replaced Promise", "globalThis.Promise = function () { throw new Error('S1') }; return 1", "return await Promise.resolve(3)", 3],
    ];
    for (const [what, leave, probe, want] of rows) {
        test(what, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath });
            const s = api.createSession();
            ok(await run(s, leave));
            const r = await run(s, probe);
            assert.deepEqual(ok(r), want);
            assertBounded(r);
            assert.ok(!JSON.stringify(r).includes("S1"), JSON.stringify(r));
        });
    }

    // Run 1 leaves work pending and returns; its callbacks must never log
    // in run 2 nor call a tool after run 1 ended.
    const pending = [
        ["a timer", "setTimeout(() => { console.log('LATE1'); tools.t.x({ from: 1 }) }, 30); return 1"],
        ["an interval", "setInterval(() => { console.log('LATE1'); tools.t.x({ from: 1 }) }, 10); return 1"],
        ["a long microtask chain", "let p = Promise.resolve(); for (let i = 0; i < 2000; i++) p = p.then(() => {}); p.then(() => { console.log('LATE1'); tools.t.x({ from: 1 }) }); return 1"],
        // (No FinalizationRegistry callback: the sandbox withholds it, hostile15.)
        ["an unhandled rejection", "Promise.reject(new Error('LATE1')); (async () => { await null; throw new Error('LATE1') })(); return 1"],
        ["a pending tool call's continuation", "tools.t.slow({}).then(() => { console.log('LATE1'); tools.t.x({ from: 1 }) }); return 1"],
    ];
    for (const [what, leave] of pending) {
        test(`${what} of run 1 never shows in run 2`, async (t) => {
            const calls = [];
            let ended = false;
            const api = await withFactory(t, {
                wasmLocation: assetPath,
                tools: [
                    tool("t.x", (input) => { calls.push({ input, late: ended }); return 1; }),
                    tool("t.slow", () => sleep(50).then(() => 1)),
                ],
            });
            const s = api.createSession();
            const r1 = await run(s, leave);
            ended = true;
            ok(r1);
            const r2 = await run(s, "const a = []; for (let i = 0; i < 20; i++) { a.push('x'.repeat(1e4)); await new Promise((r) => setTimeout(r, 10)) } console.log('run2'); return a.length");
            assert.equal(ok(r2), 20);
            assert.ok(!JSON.stringify(r2).includes("LATE1"), JSON.stringify(r2.logs));
            await sleep(100);
            assert.deepEqual(calls.filter((c) => c.late), [], "a tool call of run 1 after it ended");
        });
    }

    test("console state (open groups, counters, timers) does not carry to the next run", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const s = api.createSession();
        ok(await run(s, "console.group('g'); console.group('h'); console.count('a'); console.count('a'); console.time('t'); return 1"));
        const r = await run(s, "console.log('flat'); console.count('a'); console.timeEnd('t'); return 1");
        ok(r);
        const text = r.logs.map((l) => l.message);
        assert.equal(text[0], "flat");
        assert.equal(text[1], "a: 1");
        assert.ok(!/t: \d/.test(text.join("\n")), text.join("\n"));
    });
});

describe("two runs of one session in flight at once", () => {
    test("globals, logs and results stay each run's own", async (t) => {
        let release, waiting;
        const gate = new Promise((r) => { release = r; });
        const waited = new Promise((r) => { waiting = r; });
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.wait", () => (waiting(), gate.then(() => 1)))] });
        const s = api.createSession();
        const a = run(s, "globalThis.mine = 'A'; console.log('logA'); await tools.t.wait({}); return [globalThis.mine, typeof globalThis.theirs]");
        // B runs while A is in flight, its global set.
        await waited;
        const b = await run(s, "globalThis.theirs = 'B'; console.log('logB'); return [typeof globalThis.mine, globalThis.theirs]");
        release();
        const ra = await a;
        assert.deepEqual(ok(ra), ["A", "undefined"]);
        assert.deepEqual(ok(b), ["undefined", "B"]);
        assert.deepEqual(ra.logs.map((l) => l.message), ["logA"]);
        assert.deepEqual(b.logs.map((l) => l.message), ["logB"]);
    });

    test("each tool call sees its own run's context across 400 interleaved calls", async (t) => {
        const wrong = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: ({ input, callContext }) => { if (input.who !== callContext.who) wrong.push(["i", input.who, callContext.who]); return { allowed: true }; } },
            tools: [tool("t.who", async (input, { context }) => { await sleep(Math.random() * 3); if (input.who !== context.who) wrong.push(["t", input.who, context.who]); return context.who; })],
        });
        const s = api.createSession();
        const prog = (who) => `const out = []; for (let i = 0; i < 100; i++) out.push(await tools.t.who({ who: ${JSON.stringify(who)} })); return out.every((w) => w === ${JSON.stringify(who)})`;
        const rs = await Promise.all(["a", "b", "c", "d"].map((who) => run(s, prog(who), { context: { who } })));
        for (const r of rs) assert.equal(ok(r), true);
        assert.deepEqual(wrong, []);
    });

    test("aborting one run leaves the other's tool calls and result alone", async (t) => {
        const signals = [];
        let bothStarted;
        const started = new Promise((r) => { bothStarted = r; });
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [tool("t.slow", (_i, { signal, context }) => {
                signals.push([context, signal]);
                if (signals.length === 2) bothStarted();
                return started.then(() => sleep(100)).then(() => context);
            })],
        });
        const s = api.createSession();
        const ac = new AbortController();
        const a = run(s, "return await tools.t.slow({})", { context: "A", signal: ac.signal });
        const b = run(s, "return await tools.t.slow({})", { context: "B" });
        await started;
        ac.abort();
        await assert.rejects(a);
        assert.equal(ok(await b), "B");
        const byRun = Object.fromEntries(signals.map(([c, sg]) => [c, sg.aborted]));
        assert.deepEqual(byRun, { A: true, B: false });
    });
});

describe("the host misusing its own API", () => {
    const disposers = [
        ["factory.dispose() from inside the tool", "tool"],
        ["factory.dispose() from inside onToolCall", "interceptor"],
        ["factory.dispose() from inside onEvent run-start", "event"],
    ];
    for (const [what, where] of disposers) {
        test(`${what}: the run settles, later calls reject clearly`, async (t) => {
            let api;
            const ran = [];
            const config = {
                wasmLocation: assetPath,
                tools: [tool("t.x", () => { ran.push("t.x"); if (where === "tool") api.dispose(); return 1; })],
            };
            if (where === "interceptor") config.interceptors = { onToolCall: () => { api.dispose(); return { allowed: true }; } };
            if (where === "event") config.onEvent = (e) => { if (e.type === "run-start") api.dispose(); };
            api = await withFactory(t, config);
            const s = api.createSession();
            const r = await within(run(s, "return await tools.t.x({})").then((v) => v, (e) => ({ rejected: e })), 20_000);
            assert.notEqual(r, "hung");
            if (r.rejected) assert.match(String(r.rejected.message), /dispos/i);
            else assert.equal(r.ok, false, JSON.stringify(r));
            if (where !== "tool") assert.deepEqual(ran, [], "the tool ran after dispose");
            await assert.rejects(async () => run(s, "return 1"), /dispos/i);
            assert.throws(() => api.createSession(), /dispos/i);
        });
    }

    test("session.dispose() from a run's own onEvent at run-start: the run rejects naming the disposal, the next session works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const s = api.createSession();
        const r = await within(run(s, "return 1", { onEvent: (e) => { if (e.type === "run-start") s.dispose(); } }).then((v) => v, (e) => ({ rejected: e })), 20_000);
        assert.notEqual(r, "hung");
        assert.deepEqual([r.rejected?.name, r.rejected?.message], ["AbortError", "Code Mode: the session was disposed while this run was in flight."], JSON.stringify(r));
        assert.equal(ok(await run(api.createSession(), "return 3")), 3);
    });

    // A dispose from run-start rejected the run with the words of a call
    // made after dispose ("this session has been disposed; create a new
    // one"), where one a moment later (from tool-call) says the run was in
    // flight: the run was accepted, and ends as a run in flight does, with
    // its run-end.
    for (const [what, disposeAt] of [["session", "run-start"], ["session", "tool-call"], ["factory", "run-start"], ["factory", "tool-call"]]) {
        test(`${what}.dispose() from the factory's onEvent at ${disposeAt}: AbortError, the run was in flight; run-end follows`, async (t) => {
            let s, api;
            const ran = [];
            const events = [];
            api = await withFactory(t, {
                wasmLocation: assetPath,
                tools: [tool("t.x", () => ran.push("x"))],
                onEvent: (e) => {
                    events.push(e.type);
                    if (e.type === disposeAt) (what === "session" ? s : api).dispose();
                },
            });
            s = api.createSession();
            const r = await within(run(s, "return await tools.t.x({})").then((v) => v, (e) => ({ rejected: e })), 20_000);
            const words = what === "session" ? "the session was disposed" : "the instance was disposed";
            assert.deepEqual([r.rejected?.name, r.rejected?.message], ["AbortError", `Code Mode: ${words} while this run was in flight.`], JSON.stringify(r));
            assert.deepEqual(ran, []);
            assert.equal(events.at(-1), "run-end", JSON.stringify(events));
        });
    }

    test("session.dispose() from inside its own run's tool: the run settles, another session keeps working", async (t) => {
        let s;
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => { s.dispose(); return 1; })] });
        s = api.createSession();
        const other = api.createSession();
        const r = await within(run(s, "await tools.t.x({}); await tools.t.x({}); return 'after'").then((v) => v, (e) => ({ rejected: e })), 20_000);
        assert.notEqual(r, "hung");
        if (!r.rejected) assert.equal(r.ok, false, JSON.stringify(r));
        assert.equal(ok(await run(other, "return 5")), 5);
    });

    test("a tool unregistered while a run awaits it: that call completes, the next call is unknown", async (t) => {
        let unregister;
        const api = await withFactory(t, { wasmLocation: assetPath });
        unregister = api.registerTool(tool("t.x", async () => { unregister(); await sleep(20); return "done"; }));
        const s = api.createSession();
        const r = await run(s, "const a = await tools.t.x({}); try { await tool_call('t.x', {}); return [a, 'second ran'] } catch (e) { return [a, e.message] }");
        const [first, second] = ok(r);
        assert.equal(first, "done");
        assert.match(second, /t\.x.*unregistered|unknown/i);
    });

    test("the same tool object registered twice: TypeError, the first stays; registerTools([t, t]) registers nothing", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const def = tool("t.x", () => 1);
        api.registerTool(def);
        assert.throws(() => api.registerTool(def), (e) => e instanceof TypeError && /t\.x/.test(e.message));
        const def2 = tool("t.y", () => 2);
        assert.throws(() => api.registerTools([def2, def2]), (e) => e instanceof TypeError && /t\.y/.test(e.message));
        assert.deepEqual(api.listTools().map((x) => x.name).sort(), ["t.x"]);
        const s = api.createSession();
        assert.equal(ok(await run(s, "return await tools.t.x({})")), 1);
    });

    test("an unregister function called after a newer tool of the same name was registered leaves the newer one", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const off1 = api.registerTool(tool("t.x", () => "old"));
        off1();
        api.registerTool(tool("t.x", () => "new"));
        off1();
        const s = api.createSession();
        assert.equal(ok(await run(s, "return await tools.t.x({})")), "new");
    });

    test("the same tool object in two sessions' tools works in both", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const def = tool("own.x", (_i, { context }) => context);
        const a = api.createSession({ tools: [def] });
        const b = api.createSession({ tools: [def] });
        assert.equal(ok(await run(a, "return await tools.own.x({})", { context: "A" })), "A");
        assert.equal(ok(await run(b, "return await tools.own.x({})", { context: "B" })), "B");
    });

    // execute's odd return values: the call gets the first settlement or a
    // clear error; the page lives.
    const returns = [
        ["a thenable that resolves twice then rejects", () => ({ then(res, rej) { res("first"); res("second"); rej(new Error("late")); } }), "first"],
        ["a thenable whose then throws after resolving", () => ({ then(res) { res("first"); throw new Error("after"); } }), "first"],
        ["a thenable resolving with a thenable", () => ({ then(res) { res({ then(r2) { r2("inner"); } }); } }), "inner"],
        ["a Proxy object logging every get", () => new Proxy({ a: 1 }, { get: (o, k) => (k === "then" ? undefined : o[k]) }), { a: 1 }],
        ["a Proxy whose then getter throws", () => new Proxy({}, { get: (_o, k) => { if (k === "then") throw new Error("THEN-TRAP"); return undefined; } }), /THEN-TRAP/],
        ["a revoked Proxy", () => { const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy; }, /revoked|proxy/i],
        ["a thenable rejecting with a non-Error", () => ({ then(_res, rej) { rej("plain string"); } }), /plain string/],
        ["a rejection with undefined", () => Promise.reject(undefined), /t\.x|undefined|failed/i],
        ["a rejection with an object without message", () => Promise.reject({ code: 42 }), /t\.x|42|failed/i],
    ];
    for (const [what, make, want] of returns) {
        test(`execute returns ${what}`, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", make)] });
            const s = api.createSession();
            const r = await within(run(s, "try { return { v: await tools.t.x({}) } } catch (e) { return { err: String(e && e.message) } }"), 20_000);
            const got = ok(r);
            assertBounded(r);
            if (want instanceof RegExp) assert.match(String(got.err), want, JSON.stringify(got));
            else assert.deepEqual(got, { v: want });
            assert.equal(ok(await run(s, "return 1 + 1")), 2);
        });
    }

    test("execute returns a thenable that never calls back: TIMEOUT", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 500, tools: [tool("t.x", () => ({ then() {} }))] });
        const r = await within(run(api.createSession(), "return await tools.t.x({})"), 20_000);
        assert.notEqual(r, "hung");
        assert.equal(r.error?.code, "TIMEOUT", JSON.stringify(r));
    });

    test("a Proxy as the tool definition registers as a plain object or is refused, never half", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const reads = [];
        const def = new Proxy(tool("t.p", () => "proxied"), { get: (o, k) => { reads.push(k); return o[k]; } });
        let registered = true;
        try { api.registerTool(def); } catch (e) { registered = false; assert.ok(e instanceof TypeError, String(e)); }
        const names = api.listTools().map((x) => x.name);
        assert.deepEqual(names, registered ? ["t.p"] : []);
        if (registered) assert.equal(ok(await run(api.createSession(), "return await tools.t.p({})")), "proxied");
    });

    test("executeCode of the same session from inside onToolCall: no deadlock", async (t) => {
        let s;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [tool("t.x", () => "tool")],
            interceptors: { onToolCall: async ({ tool: d }) => { if (d.name === "t.x") { const inner = await run(s, "return 40 + 2"); return inner.result === 42 ? { allowed: true } : { allowed: false, reason: "inner failed" }; } return { allowed: true }; } },
        });
        s = api.createSession();
        const r = await within(run(s, "return await tools.t.x({})"), 20_000);
        assert.equal(ok(r), "tool");
    });
});

describe("searchTools given odd queries and limits", () => {
    const queries = [
        ["980 KB (a program quoting it stays within 1 MiB)", "orders ".repeat(140_000)],
        ["lone surrogates", "\uD800orders\uDC00 \uDFFF"],
        ["NUL characters", "orders\u0000search\u0000"],
        ["regex metacharacters", ".*(+[?{\\ orders ^$|)"],
        ["__proto__", "__proto__"],
        ["constructor", "constructor"],
        ["hasOwnProperty toString valueOf", "hasOwnProperty toString valueOf"],
        ["empty", ""],
        ["only spaces", "     "],
        ["10,000 distinct words", Array.from({ length: 10_000 }, (_, i) => `w${i}`).join(" ")],
    ];
    const catalog = [
        tool("orders.search", () => 1, { description: "Search orders." }),
        tool("orders.cancel", () => 1, { description: "Cancel an order." }),
        tool("admin.secret", () => 1, { description: "Hidden admin tool: orders search constructor __proto__." }),
    ];
    for (const [what, query] of queries) {
        test(`query: ${what}`, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath, tools: catalog, toolFilter: (d) => !d.name.startsWith("admin.") });
            const s = api.createSession();
            const { searchTools } = llmTools(s);
            const r = await within(searchTools.execute({ query }), 20_000);
            assert.notEqual(r, "hung");
            assertBounded(r);
            assert.ok(!JSON.stringify(r).includes("admin"), JSON.stringify(r).slice(0, 500));
            const inner = await within(run(s, `const r = await tool_search({ query: ${JSON.stringify(query)} }); return r.map((x) => x.name)`), 20_000);
            const names = ok(inner);
            assert.ok(Array.isArray(names));
            assert.ok(!names.some((n) => n.startsWith("admin")), names.join());
        });
    }

    const limits = [0, -1, 1e9, NaN, "5", 2.5, Infinity, -Infinity, null, "abc", 1e-9, 2 ** 53 + 2, [], {}, true];
    for (const limit of limits) {
        test(`limit ${typeof limit === "string" ? JSON.stringify(limit) : String(limit)} (${typeof limit})`, async (t) => {
            const many = Array.from({ length: 40 }, (_, i) => tool(`orders.t${i}`, () => 1, { description: `Order tool ${i}.` }));
            const api = await withFactory(t, { wasmLocation: assetPath, tools: many });
            const s = api.createSession();
            const { searchTools } = llmTools(s);
            const r = await within(searchTools.execute({ query: "order", limit }), 20_000);
            assert.notEqual(r, "hung");
            assertBounded(r);
            const text = JSON.stringify(r);
            if (r && r.ok === false) {
                assert.equal(r.error.code, "INVALID_INPUT", text);
                assert.match(r.error.message, /limit/, text);
            }
            const inner = await within(run(s, `try { const r = await tool_search({ query: "order", limit: ${JSON.stringify(limit) ?? "undefined"} }); return { n: r.length } } catch (e) { return { err: e.message } }`), 20_000);
            const got = ok(inner);
            if (got.err !== undefined) assert.match(got.err, /limit/, got.err);
            else assert.ok(got.n >= 0 && got.n <= 40, JSON.stringify(got));
        });
    }

    const badQueries = [["a number", 42], ["an object", { q: "orders" }], ["an array", ["orders"]], ["null", null], ["missing", undefined]];
    for (const [what, query] of badQueries) {
        test(`query that is ${what}: answered or INVALID_INPUT naming query`, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath, tools: catalog.slice(0, 2) });
            const { searchTools } = llmTools(api.createSession());
            const r = await within(searchTools.execute(query === undefined ? {} : { query }), 20_000);
            assert.notEqual(r, "hung");
            assertBounded(r);
            if (r && r.ok === false) {
                assert.equal(r.error.code, "INVALID_INPUT", JSON.stringify(r));
                assert.match(r.error.message, /query/, JSON.stringify(r));
            }
        });
    }
});

describe("adapters fed a hostile source", () => {
    /** A minimal MCP client: tools/list answers `tools`, callTool runs `call`. */
    function fakeMcp(tools, call = async () => ({ content: [{ type: "text", text: "ok" }] }), extra = {}) {
        return {
            getServerVersion: () => ({ name: "evil", version: "1" }),
            getServerCapabilities: () => ({ tools: {} }),
            request: async () => ({ tools }),
            callTool: (params, _schema, options) => call(params, options),
            setNotificationHandler() {},
            removeNotificationHandler() {},
            ...extra,
        };
    }

    test("MCP tool names of every shape register under valid names or are reported, never throw", async (t) => {
        const mcp = await loadAdapter("mcp");
        const names = ["a.b c", "", "..", ".", "__proto__", "constructor", "then", "x.then", "résumé", "検索", "a".repeat(300), "a/b\\c", "tab\there", "emoji😀", "x.__proto__.y", "prototype", "0", "-", "$", "a..b", "a.", ".a"];
        const errors = [];
        const src = await within(mcp.fromMcpClient(fakeMcp(names.map((name) => ({ name, description: `the ${name}`, inputSchema: { type: "object" } }))), { onError: (e) => errors.push(String(e?.message ?? e)) }), 20_000);
        assert.notEqual(src, "hung");
        const api = await withFactory(t, { wasmLocation: assetPath });
        const off = src.registerTools(api);
        t.after(() => { off(); src.close(); });
        const listed = api.listTools().map((x) => x.name);
        for (const n of listed) assert.match(n, /^[A-Za-z0-9_$.-]{1,128}$/, n);
        assert.equal(new Set(listed).size, listed.length);
        const r = await run(api.createSession(), "return Object.keys(tools).length");
        assert.ok(ok(r) >= 1);
        assert.ok(listed.length + errors.length >= names.length - 2, `${listed.length} listed, ${errors.length} reported of ${names.length}: ${JSON.stringify(errors)}`);
    });

    test("an MCP server with 10,000 tools registers, and search answers", async (t) => {
        const mcp = await loadAdapter("mcp");
        const tools = Array.from({ length: 10_000 }, (_, i) => ({ name: `tool_${i}`, description: `Does thing number ${i}.`, inputSchema: { type: "object", properties: { q: { type: "string" } } } }));
        const src = await mcp.fromMcpClient(fakeMcp(tools), { namespace: "big" });
        const api = await withFactory(t, { wasmLocation: assetPath });
        const off = src.registerTools(api);
        t.after(() => { off(); src.close(); });
        // Past 2,048 tools the rest come in slices over later tasks
        // (registering.mjs): ready() settles after the last.
        await api.ready();
        assert.equal(api.listTools().length, 10_000);
        const { searchTools } = llmTools(api.createSession());
        const r = await within(searchTools.execute({ query: "thing number 9999", limit: 3 }), 60_000);
        assert.notEqual(r, "hung");
        assertBounded(r);
    });

    const schemas = [
        ["a $ref to the root", { type: "object", properties: { self: { $ref: "#" } } }],
        ["definitions a -> b -> a", { type: "object", properties: { x: { $ref: "#/definitions/a" } }, definitions: { a: { $ref: "#/definitions/b" }, b: { $ref: "#/definitions/a" } } }],
        ["a $ref to itself", { $ref: "#/definitions/a", definitions: { a: { $ref: "#/definitions/a" } } }],
        ["a dangling $ref", { type: "object", properties: { x: { $ref: "#/definitions/nope" } } }],
        ["a remote $ref", { type: "object", properties: { x: { $ref: "https://example.invalid/schema.json" } } }],
        ["1,000 levels deep", (() => { let s = { type: "string" }; for (let i = 0; i < 1000; i++) s = { type: "object", properties: { a: s } }; return s; })()],
        ["not an object", "object"],
        ["null", null],
    ];
    for (const [what, inputSchema] of schemas) {
        test(`MCP inputSchema with ${what}: that tool is refused and reported or works; the others register`, async (t) => {
            const mcp = await loadAdapter("mcp");
            const errors = [];
            const src = await within(mcp.fromMcpClient(fakeMcp([
                { name: "good", description: "fine", inputSchema: { type: "object" } },
                { name: "evil", description: "loops", inputSchema },
            ]), { onError: (e) => errors.push(String(e?.message ?? e)) }), 20_000);
            assert.notEqual(src, "hung");
            const api = await withFactory(t, { wasmLocation: assetPath });
            const warned = [];
            const warn = console.warn;
            console.warn = (...a) => warned.push(a.join(" "));
            let off;
            try { off = src.registerTools(api); } finally { console.warn = warn; }
            t.after(() => { off(); src.close(); });
            const listed = api.listTools().map((x) => x.name);
            assert.ok(listed.includes("evil.good"), listed.join());
            const s = api.createSession();
            assert.equal(ok(await run(s, "return await tools.evil.good({})")), "ok");
            if (listed.includes("evil.evil")) {
                const r = await within(run(s, "try { return await tools.evil.evil({ self: {}, x: 1 }) } catch (e) { return 'E:' + e.message }"), 20_000);
                assert.notEqual(r, "hung");
                assert.equal(typeof ok(r), "string");
                const srch = await within(run(s, "return (await tool_search({ query: 'loops' })).map((x) => x.signature.length)"), 20_000);
                ok(srch);
            } else {
                assert.ok(errors.length + warned.length >= 1, "the refused tool was not reported");
                assert.ok([...errors, ...warned].some((m) => m.includes("evil")), JSON.stringify([errors, warned]));
            }
        });
    }

    test("an MCP description of 1 MB: registered, instruction and search bounded", async (t) => {
        const mcp = await loadAdapter("mcp");
        const src = await mcp.fromMcpClient(fakeMcp([{ name: "big", description: "huge ".repeat(200_000), inputSchema: { type: "object" } }]));
        const api = await withFactory(t, { wasmLocation: assetPath });
        const off = src.registerTools(api);
        t.after(() => { off(); src.close(); });
        const s = api.createSession();
        assert.ok(s.getSystemInstruction().length < 200_000);
        const r = await run(s, "return JSON.stringify(await tool_search({ query: 'huge' })).length");
        assert.ok(ok(r) < 200_000, String(r.result));
    });

    test("an MCP server that never answers tools/list: fromMcpClient's timeout bounds the listing too", async () => {
        const mcp = await loadAdapter("mcp");
        const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
        const { Server } = await import("@modelcontextprotocol/sdk/server/index.js");
        const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
        const { ListToolsRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
        const server = new Server({ name: "mute", version: "1.0.0" }, { capabilities: { tools: {} } });
        server.setRequestHandler(ListToolsRequestSchema, () => new Promise(() => {}));
        const [a, b] = InMemoryTransport.createLinkedPair();
        const client = new Client({ name: "test-client", version: "1.0.0" });
        await Promise.all([server.connect(b), client.connect(a)]);
        try {
            // Without it the SDK's own 60 s default was the only bound.
            const r = await within(mcp.fromMcpClient(client, { timeout: 300 }).then((v) => ({ v }), (e) => ({ e })), 10_000);
            assert.notEqual(r, "hung", "fromMcpClient waited past its timeout for tools/list");
            assert.ok(r.e instanceof Error, JSON.stringify(r));
            assert.match(r.e.message, /timed out/i);
        } finally {
            await client.close();
        }
    });

    const throwsMcp = [
        ["a string", () => { throw "plain string"; }, /plain string/],
        ["null", () => { throw null; }, /null|failed|evil\.x/i],
        ["an object without message", () => { throw { code: -1 }; }, /-1|failed|evil\.x/i],
        ["a Symbol", () => { throw Symbol("sym"); }, /sym|failed|evil\.x/i],
        ["an Error with a 1 MB message", () => { throw new Error("m".repeat(1e6)); }, /m{20}/],
        ["a result with isError and no content", async () => ({ isError: true }), /evil\.x|error|failed/i],
        ["a result that is null", async () => null, null],
        ["a result with content that is not an array", async () => ({ content: "text" }), null],
    ];
    for (const [what, call, want] of throwsMcp) {
        test(`an MCP callTool that throws or returns ${what}: the program gets a clear error, the page lives`, async (t) => {
            const mcp = await loadAdapter("mcp");
            const src = await mcp.fromMcpClient(fakeMcp([{ name: "x", description: "x", inputSchema: { type: "object" } }], call));
            const api = await withFactory(t, { wasmLocation: assetPath });
            const off = src.registerTools(api);
            t.after(() => { off(); src.close(); });
            const s = api.createSession();
            const r = await within(run(s, "try { return { v: await tools.evil.x({}) } } catch (e) { return { err: String(e.message) } }"), 20_000);
            const got = ok(r);
            assertBounded(r);
            if (want) assert.match(String(got.err), want, JSON.stringify(got).slice(0, 300));
            assert.equal(ok(await run(s, "return 2")), 2);
        });
    }

    test("io.Connect methods that throw non-Errors: the program gets a clear error", async (t) => {
        const { fromIoConnect } = await loadAdapter("io-connect");
        const { FakeBus } = await import("./fakes/io-connect.mjs");
        const bus = new FakeBus();
        const server = bus.connect("server");
        const throwers = { S: () => { throw "plain string"; }, U: () => { throw undefined; }, O: () => { throw {}; }, N: () => { throw null; }, Y: () => { throw Symbol("y"); } };
        for (const [name, fn] of Object.entries(throwers)) await server.register(name, fn);
        const me = bus.connect("me");
        const src = fromIoConnect({ interop: me });
        const api = await withFactory(t, { wasmLocation: assetPath });
        const off = src.registerTools(api);
        t.after(() => { off(); src.close(); });
        const s = api.createSession();
        for (const name of Object.keys(throwers)) {
            const r = await within(run(s, `try { await tools.interop.${name}({}); return 'no error' } catch (e) { return typeof e.message === 'string' && e.message.length > 0 ? 'E:' + e.message : 'bad:' + typeof e.message }`), 20_000);
            const got = ok(r);
            assert.match(got, /^E:/, `${name}: ${got}`);
            assertBounded(r);
        }
    });

    test("io.Connect method names of every shape: valid tool names or left out, nothing throws", async (t) => {
        const { fromIoConnect } = await loadAdapter("io-connect");
        const { FakeBus } = await import("./fakes/io-connect.mjs");
        const bus = new FakeBus();
        const server = bus.connect("server");
        const names = ["a..b", ".", "__proto__.x", "constructor", "x.then", "検索", "with space", "a".repeat(300), "T42.Snapshot", "emoji😀", "a.", ".a"];
        for (const n of names) await server.register(n, () => n);
        const errors = [];
        const src = fromIoConnect({ interop: bus.connect("me") }, { onError: (e) => errors.push(String(e?.message ?? e)) });
        const api = await withFactory(t, { wasmLocation: assetPath });
        const off = src.registerTools(api);
        t.after(() => { off(); src.close(); });
        const listed = api.listTools().map((x) => x.name);
        for (const n of listed) assert.match(n, /^[A-Za-z0-9_$.-]{1,128}$/, n);
        assert.ok(listed.length >= 1);
        assert.equal(ok(await run(api.createSession(), "return await tools.interop.T42.Snapshot({})")), "T42.Snapshot");
    });

    test("FDC3 raiseIntent rejecting with non-Errors: a clear error names the kind", async (t) => {
        const { fromFdc3 } = await loadAdapter("fdc3");
        const rejections = ["plain", undefined, null, {}, Symbol("s")];
        let i = 0;
        const agent = {
            findIntentsByContext: async () => [{ intent: { name: "Boom", displayName: "Boom" }, apps: [{ appId: "a" }] }],
            raiseIntent: async () => { throw rejections[i++]; },
            getInfo: async () => ({ fdc3Version: "2.2", provider: "fake" }),
        };
        const src = await fromFdc3(agent, { contextTypes: ["fdc3.instrument"] });
        const api = await withFactory(t, { wasmLocation: assetPath });
        const off = src.registerTools(api);
        t.after(() => { off(); src.close?.(); });
        const s = api.createSession();
        for (const rej of rejections) {
            const r = await within(run(s, "try { await tools.fdc3.Boom({ type: 'fdc3.instrument' }); return 'no error' } catch (e) { return typeof e.message === 'string' && e.message.length > 0 ? 'E:' + e.message : 'bad:' + typeof e.message }"), 20_000);
            assert.match(ok(r), /^E:/, String(rej?.toString?.() ?? rej));
        }
    });

    const argTexts = [
        ["10 MB of code", JSON.stringify({ code: "return 1; //" + "x".repeat(1e7), explanation: "x" })],
        ["invalid JSON", "{code: 'return 1'"],
        ["JSON null", "null"],
        ["a JSON array", "[\"return 1\"]"],
        ["a JSON string", "\"return 1\""],
        ["a lone surrogate in code", JSON.stringify({ code: "return '\uD800'.length", explanation: "x" })],
    ];
    for (const [what, args] of argTexts) {
        test(`handleToolCall with ${what}: a result, never a throw`, async (t) => {
            const { handleToolCall } = await loadAdapter("llm");
            const api = await withFactory(t, { wasmLocation: assetPath });
            const r = await within(handleToolCall(api.createSession(), "executeCode", args), 30_000);
            assert.notEqual(r, "hung");
            assertBounded(r);
            if (r.ok === false) assert.ok(["INVALID_INPUT", "SYNTAX"].includes(r.error.code), JSON.stringify(r).slice(0, 300));
        });
    }
});

describe("second batch: observers, inferred types, and the adapters' other direction", () => {
    test("a run's own onEvent never hears the other run in flight; the factory's hears both apart", async (t) => {
        const factoryEvents = [];
        let release;
        const gate = new Promise((r) => { release = r; });
        let waiting;
        const waited = new Promise((r) => { waiting = r; });
        const api = await withFactory(t, { wasmLocation: assetPath, onEvent: (e) => factoryEvents.push(e), tools: [tool("t.wait", () => (waiting(), gate.then(() => 1))), tool("t.x", () => 2)] });
        const s = api.createSession();
        const evA = [], evB = [];
        const a = run(s, "console.log('from A'); await tools.t.wait({}); return 'A'", { onEvent: (e) => evA.push(e) });
        // B runs while A is in flight.
        await waited;
        const b = await run(s, "console.log('from B'); await tools.t.x({}); return 'B'", { onEvent: (e) => evB.push(e) });
        release();
        await a;
        assert.equal(ok(b), "B");
        const idsA = new Set(evA.map((e) => e.runId)), idsB = new Set(evB.map((e) => e.runId));
        assert.equal(idsA.size, 1);
        assert.equal(idsB.size, 1);
        assert.notDeepEqual([...idsA], [...idsB]);
        assert.ok(!JSON.stringify(evA).includes("from B") && !JSON.stringify(evA).includes("t.x"), JSON.stringify(evA));
        assert.ok(!JSON.stringify(evB).includes("from A") && !JSON.stringify(evB).includes("t.wait"), JSON.stringify(evB));
        assert.deepEqual(new Set(factoryEvents.map((e) => e.runId)), new Set([...idsA, ...idsB]));
    });

    test("a result whose keys are data never reaches another session's inferred signature", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [tool("users.lookup", (_i, { context }) => ({ [context]: { plan: "gold" } }), { inputSchema: undefined })],
        });
        const a = api.createSession(), b = api.createSession();
        ok(await run(a, "return await tools.users.lookup({})", { context: "alice_at_example" }));
        const sig = ok(await run(b, "return (await tool_search({ query: 'users lookup' })).map((x) => x.signature).join('\\n')"));
        assert.ok(!sig.includes("alice_at_example"), sig);
        const { searchTools } = llmTools(b);
        assert.ok(!JSON.stringify(await searchTools.execute({ query: "users lookup" })).includes("alice_at_example"));
        assert.ok(!b.getSystemInstruction().includes("alice_at_example"));
    });

    test("toMcpServer: a context(extra) that throws, and hostile arguments, give readable isError results", async (t) => {
        const mcp = await loadAdapter("mcp");
        const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
        const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
        const ran = [];
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => { ran.push(1); return 1; })] });
        const connect = async (opts) => {
            const server = await mcp.toMcpServer(api.createSession(), opts);
            const [x, y] = InMemoryTransport.createLinkedPair();
            const client = new Client({ name: "c", version: "1" });
            await Promise.all([server.connect(y), client.connect(x)]);
            t.after(() => client.close());
            return client;
        };
        const throwing = await connect({ context: () => { throw new Error("CTXFAIL"); } });
        const r1 = await within(throwing.callTool({ name: "executeCode", arguments: { code: "return await tools.t.x({})", explanation: "x" } }).then((v) => v, (e) => ({ rejected: String(e.message) })), 20_000);
        assert.notEqual(r1, "hung");
        assert.ok(r1.rejected || r1.isError, JSON.stringify(r1));
        assert.deepEqual(ran, [], "the run went ahead without its context");
        const client = await connect({});
        const args = [{ code: 42, explanation: "x" }, { code: "return 1//" + "x".repeat(5e6), explanation: "x" }, { code: "return 1", explanation: "x", context: "forged", timeout: 1e9 }, { query: { $gt: "" } }];
        for (const a of args) {
            const name = "query" in a ? "searchTools" : "executeCode";
            const r = await within(client.callTool({ name, arguments: a }).then((v) => v, (e) => ({ rejected: String(e.message) })), 30_000);
            assert.notEqual(r, "hung");
            assertBounded(r);
        }
        assert.deepEqual((await client.callTool({ name: "executeCode", arguments: { code: "return 7", explanation: "x" } })).structuredContent?.result, 7);
    });

    /** A WebMCP model context listing `tools`, whose executeTool runs `exec`. */
    function webMcpContext(tools, exec) {
        const ctx = new EventTarget();
        ctx.getTools = async () => tools;
        ctx.registerTool = async () => {};
        ctx.executeTool = async (tool, json) => exec(tool, json);
        return ctx;
    }

    test("fromWebMcp: names of every shape, 10,000 tools, non-Error throws", async (t) => {
        const webmcp = await loadAdapter("webmcp");
        const names = ["a.b c", "", "..", "__proto__", "constructor", "then", "検索", "a".repeat(300), "emoji😀", "x.__proto__.y"];
        const many = Array.from({ length: 10_000 }, (_, i) => `bulk_${i}`);
        const tools = [...names, ...many].map((name) => ({ name, description: `the ${name}`, inputSchema: { type: "object" } }));
        const throws = ["plain", undefined, null, {}, Symbol("s")];
        let i = 0;
        const errors = [];
        const src = await within(webmcp.fromWebMcp({ modelContext: webMcpContext(tools, () => { throw throws[i++ % throws.length]; }), onError: (e) => errors.push(String(e?.message ?? e)) }), 30_000);
        assert.notEqual(src, "hung");
        const api = await withFactory(t, { wasmLocation: assetPath });
        const off = src.registerTools(api);
        t.after(() => { off(); src.close(); });
        await api.ready(); // the slices past 2,048 tools (registering.mjs)
        const listed = api.listTools().map((x) => x.name);
        for (const n of listed) assert.match(n, /^[A-Za-z0-9_$.-]{1,128}$/, n);
        assert.equal(new Set(listed).size, listed.length);
        assert.ok(listed.length >= 10_000, String(listed.length));
        const s = api.createSession();
        for (let k = 0; k < throws.length; k++) {
            const r = await within(run(s, "try { await tools.webmcp.bulk_1({}); return 'no error' } catch (e) { return typeof e.message === 'string' && e.message.length > 0 ? 'E:' + e.message : 'bad:' + typeof e.message }"), 20_000);
            assert.match(ok(r), /^E:/);
        }
    });

    test("exposeToWebMcp: a browser agent's arguments of every shape come back as readable results", async (t) => {
        const webmcp = await loadAdapter("webmcp");
        const registered = [];
        const ctx = new EventTarget();
        ctx.registerTool = (def) => { registered.push(def); return { unregister() {} }; };
        ctx.getTools = async () => [];
        const api = await withFactory(t, { wasmLocation: assetPath });
        const unexpose = await webmcp.exposeToWebMcp(api.createSession(), { modelContext: ctx });
        t.after(() => unexpose());
        const exec = registered.find((d) => /executeCode$/.test(d.name));
        const search = registered.find((d) => /searchTools$/.test(d.name));
        assert.ok(exec && search, registered.map((d) => d.name).join());
        for (const [d, a] of [[exec, "return 1"], [exec, null], [exec, 42], [exec, { code: ["return 1"] }], [exec, { code: "return 1", explanation: "x", __proto__: { code: "x" } }], [search, { query: "\uD800", limit: "lots" }], [search, undefined]]) {
            const r = await within(Promise.resolve().then(() => d.execute(a, {})).then((v) => ({ v }), (e) => ({ rejected: String(e?.message ?? e) })), 20_000);
            assert.notEqual(r, "hung");
            assertBounded(r);
            assert.ok(!r.rejected, `threw instead of answering: ${r.rejected}`);
        }
    });
});

describe("dispose from an observer, at every kind of event", () => {
    test("the run's signal aborted by an observer at tool-call: the run rejects, the tool never runs", async (t) => {
        const ran = [];
        const ac = new AbortController();
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => { ran.push(1); return 1; })] });
        const r = await within(run(api.createSession(), "await tools.t.x({}); return 'done'", { signal: ac.signal, onEvent: (e) => { if (e.type === "tool-call") ac.abort(); } }).then((v) => v, (e) => ({ rejected: e })), 20_000);
        assert.notEqual(r, "hung");
        assert.equal(r.rejected?.name, "AbortError", JSON.stringify(r));
        await sleep(50);
        assert.deepEqual(ran, []);
    });

    for (const what of ["factory", "session"]) {
        for (const type of ["tool-call", "tool-result", "console", "run-end"]) {
            test(`${what}.dispose() at ${type}: the run settles, no tool runs after it`, async (t) => {
                let api, s, disposedAt = -1;
                const ran = [];
                const unhandled = [];
                const onUnhandled = (e) => unhandled.push(e);
                process.on("unhandledRejection", onUnhandled);
                t.after(() => process.off("unhandledRejection", onUnhandled));
                api = await withFactory(t, {
                    wasmLocation: assetPath,
                    tools: [tool("t.x", () => { ran.push(disposedAt >= 0 ? "after" : "before"); return 1; })],
                    onEvent: (e) => {
                        if (e.type !== type || disposedAt >= 0) return;
                        disposedAt = ran.length;
                        (what === "factory" ? api : s).dispose();
                    },
                });
                s = api.createSession();
                const r = await within(run(s, "console.log('hi'); await tools.t.x({}); await tools.t.x({}); return 'done'").then((v) => v, (e) => ({ rejected: e })), 20_000);
                assert.notEqual(r, "hung");
                if (r.rejected) assert.match(String(r.rejected.message), /dispos/i);
                else if (type !== "run-end") assert.equal(r.ok, false, JSON.stringify(r));
                assert.ok(disposedAt >= 0, "the event never came");
                assert.deepEqual(ran.filter((x) => x === "after"), [], `ran: ${ran}`);
                await sleep(50);
                assert.deepEqual(unhandled.map(String), []);
            });
        }
    }
});

describe("third batch: tool sources against disposed factories, bursts, removals mid-call", () => {
    async function sdkPair(tools, onCall) {
        const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
        const { Server } = await import("@modelcontextprotocol/sdk/server/index.js");
        const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
        const { ListToolsRequestSchema, CallToolRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
        const state = { tools, lists: 0 };
        const server = new Server({ name: "burst", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
        server.setRequestHandler(ListToolsRequestSchema, async () => { state.lists++; return { tools: state.tools.map((name) => ({ name, inputSchema: { type: "object" } })) }; });
        server.setRequestHandler(CallToolRequestSchema, (req) => (onCall ? onCall(req) : { content: [{ type: "text", text: JSON.stringify({ called: req.params.name }) }] }));
        const [a, b] = InMemoryTransport.createLinkedPair();
        const client = new Client({ name: "c", version: "1" });
        await Promise.all([server.connect(b), client.connect(a)]);
        return { server, client, state };
    }

    test("registerTools into a disposed factory throws naming the disposal and leaves nothing behind", async () => {
        const mcp = await loadAdapter("mcp");
        const { server, client, state } = await sdkPair(["a"]);
        const src = await mcp.fromMcpClient(client);
        const { IoCodeModeFactory } = await import("../../dist/index.mjs");
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        api.dispose();
        const unhandled = [];
        const onUnhandled = (e) => unhandled.push(String(e));
        process.on("unhandledRejection", onUnhandled);
        try {
            assert.throws(() => src.registerTools(api), /dispos/i);
            state.tools = ["a", "b"];
            await server.sendToolListChanged();
            await sleep(200);
            assert.deepEqual(unhandled, []);
        } finally {
            process.off("unhandledRejection", onUnhandled);
            src.close();
            await client.close();
        }
    });

    test("500 list_changed notifications in a burst: listings stay few, the last list wins", async (t) => {
        const mcp = await loadAdapter("mcp");
        const { server, client, state } = await sdkPair(["a"]);
        t.after(() => client.close());
        const src = await mcp.fromMcpClient(client);
        const api = await withFactory(t, { wasmLocation: assetPath });
        const off = src.registerTools(api);
        t.after(() => { off(); src.close(); });
        const before = state.lists;
        state.tools = ["a", "b", "c"];
        await Promise.all(Array.from({ length: 500 }, () => server.sendToolListChanged()));
        for (let i = 0; i < 200 && api.listTools().length !== 3; i++) await sleep(25);
        await sleep(200);
        assert.deepEqual(api.listTools().map((x) => x.name).sort(), ["burst.a", "burst.b", "burst.c"]);
        assert.ok(state.lists - before <= 10, `${state.lists - before} listings for one burst`);
    });

    test("source.close() and the server closing while a call is in flight: that call settles clearly, the page lives", async (t) => {
        const mcp = await loadAdapter("mcp");
        let entered;
        const inCall = new Promise((r) => { entered = r; });
        const { client } = await sdkPair(["slow"], () => { entered(); return new Promise(() => {}); });
        const src = await mcp.fromMcpClient(client);
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 5000 });
        const off = src.registerTools(api);
        const s = api.createSession();
        const p = run(s, "try { await tools.burst.slow({}); return 'no error' } catch (e) { return 'E:' + e.message }");
        await inCall;
        src.close();
        off();
        await client.close();
        const r = await within(p, 20_000);
        assert.match(ok(r), /^E:/);
        assertBounded(r);
        assert.equal(ok(await run(s, "return 1")), 1);
    });

    test("an io.Connect method removed while a call to it is in flight: that call completes, the next is unregistered", async (t) => {
        const { fromIoConnect } = await loadAdapter("io-connect");
        const { FakeBus } = await import("./fakes/io-connect.mjs");
        const bus = new FakeBus();
        const server = bus.connect("server");
        await server.register("Slow", async () => { server.unregister("Slow"); await sleep(30); return "done"; });
        const src = fromIoConnect({ interop: bus.connect("me") });
        const api = await withFactory(t, { wasmLocation: assetPath });
        const off = src.registerTools(api);
        t.after(() => { off(); src.close(); });
        const r = await run(api.createSession(), "const a = await tools.interop.Slow({}); try { await tool_call('interop.Slow', {}); return [a, 'ran again'] } catch (e) { return [a, e.message] }");
        const [first, second] = ok(r);
        assert.equal(first, "done");
        assert.match(second, /interop\.Slow.*unregistered|unknown/i);
    });

    test("one source in two factories; one disposed: the other keeps working and follows changes", async (t) => {
        const mcp = await loadAdapter("mcp");
        const { server, client, state } = await sdkPair(["a"]);
        t.after(() => client.close());
        const src = await mcp.fromMcpClient(client);
        const api1 = await withFactory(t, { wasmLocation: assetPath });
        const api2 = await withFactory(t, { wasmLocation: assetPath });
        const off1 = src.registerTools(api1);
        const off2 = src.registerTools(api2);
        t.after(() => { off2(); src.close(); });
        api1.dispose();
        off1();
        state.tools = ["a", "b"];
        await server.sendToolListChanged();
        for (let i = 0; i < 200 && api2.listTools().length !== 2; i++) await sleep(25);
        assert.deepEqual(api2.listTools().map((x) => x.name).sort(), ["burst.a", "burst.b"]);
        assert.deepEqual(ok(await run(api2.createSession(), "return await tools.burst.b({})")), { called: "b" });
    });

    test("FDC3 intent names of every shape become valid tool names or are left out", async (t) => {
        const { fromFdc3 } = await loadAdapter("fdc3");
        const names = ["View.Chart", "with space", "__proto__", "constructor", "then", "検索", "a".repeat(300), "", "x.then"];
        const agent = {
            findIntentsByContext: async () => names.map((name) => ({ intent: { name, displayName: name }, apps: [{ appId: "a" }] })),
            raiseIntent: async (intent) => ({ intent, source: { appId: "a" }, getResult: async () => ({ type: "fdc3.nothing", name: intent }) }),
            getInfo: async () => ({ fdc3Version: "2.2", provider: "fake" }),
        };
        const errors = [];
        const src = await within(fromFdc3(agent, { contextTypes: ["fdc3.instrument"], onError: (e) => errors.push(String(e?.message ?? e)) }), 20_000);
        assert.notEqual(src, "hung");
        const api = await withFactory(t, { wasmLocation: assetPath });
        const off = src.registerTools(api);
        t.after(() => { off(); src.close?.(); });
        const listed = api.listTools().map((x) => x.name);
        for (const n of listed) assert.match(n, /^[A-Za-z0-9_$.-]{1,128}$/, n);
        assert.equal(new Set(listed).size, listed.length);
        assert.ok(listed.length >= 1, JSON.stringify([listed, errors]));
        const s = api.createSession();
        const r = await run(s, "return Object.keys(tools.fdc3 || {}).length");
        assert.ok(ok(r) >= 1);
    });
});

describe("fourth batch: tool names that are Object.prototype keys", () => {
    test("__proto__, constructor, toString and friends as tool names and namespaces: callable, nothing polluted", async (t) => {
        const names = ["__proto__", "__proto__.x", "constructor", "constructor.prototype.polluted", "hasOwnProperty", "toString", "valueOf", "x.__proto__", "prototype.x", "x.constructor", "Object.prototype.y"];
        const api = await withFactory(t, { wasmLocation: assetPath });
        for (const n of names) api.registerTool(tool(n, () => `ran ${n}`));
        const code = `const out = new Map(); for (const n of ${JSON.stringify(names)}) { try { out.set(n, await tool_call(n, {})) } catch (e) { out.set(n, 'E:' + e.message) } }
            out.set('dot', [await tools.__proto__({}), await tools.__proto__.x({}), await tools.constructor({}), await tools.constructor.prototype.polluted({}), await tools.x.__proto__({})]);
            out.set('polluted', [({}).polluted, ({}).x, ({}).y, Object.keys(Object.prototype), Object.getOwnPropertyNames(Function.prototype).includes('polluted')]);
            return Object.fromEntries(out);`;
        const got = ok(await run(api.createSession(), code));
        for (const n of names) assert.equal(got[n], `ran ${n}`, n);
        assert.deepEqual(got.dot, ["ran __proto__", "ran __proto__.x", "ran constructor", "ran constructor.prototype.polluted", "ran x.__proto__"]);
        assert.deepEqual(got.polluted, [null, null, null, [], false]);
        assert.equal(({}).polluted, undefined);
        assert.deepEqual(Object.keys(Object.prototype), []);
    });

    // A tool named toString or valueOf was what String(tools), `${tools}`
    // and tools + "" called (the namespace's own key): a tool call, through
    // onToolCall, from a program that only logged a namespace. Conversions
    // now read as a namespace's without such a tool; explicit calls call it.
    test("a toString or valueOf tool is not called by converting its namespace; an explicit call still calls it", async (t) => {
        const ran = [], asked = [];
        const names = ["toString", "valueOf", "ns.toString", "ns.valueOf", "plain.x", "f", "f.toString"];
        const api = await withFactory(t, { wasmLocation: assetPath, interceptors: { onToolCall: ({ tool }) => (asked.push(tool.name), { allowed: true }) } });
        for (const n of names) api.registerTool(tool(n, () => (ran.push(n), `ran ${n}`)));
        const conversions = ["String(tools)", "`${tools}`", "tools + ''", "+tools", "tools == 1", "String(tools.ns)", "`${tools.ns}`", "tools.ns * 1", "String(tools.plain)"];
        const code = `const t = (f) => { try { return f() } catch (e) { return e.name + ': ' + e.message } };
            const conv = [${conversions.map((c) => `t(() => ${c})`).join(", ")}];
            const f = String(tools.f) === Function.prototype.toString.call(tools.f);
            return { conv, f, explicit: [await tools.toString({}), await tools.valueOf({}), await tools.ns.toString({}), await tools.ns.valueOf({}), await tools.f.toString({})] };`;
        const got = ok(await run(api.createSession(), code));
        const plain = got.conv.at(-1);
        assert.match(plain, /^TypeError: /);
        assert.deepEqual(got.conv, conversions.map(() => plain));
        assert.equal(got.f, true);
        assert.deepEqual(got.explicit, ["ran toString", "ran valueOf", "ran ns.toString", "ran ns.valueOf", "ran f.toString"]);
        assert.deepEqual(ran, ["toString", "valueOf", "ns.toString", "ns.valueOf", "f.toString"]);
        assert.deepEqual(asked, ran);
    });
});
