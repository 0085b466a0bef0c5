// Hostile pages and programs (hostile16), from angles the earlier suites
// left out: values the worker boundary alters, a page that replaces its
// globals after the factory loaded (fake timers, stubbed AbortController,
// a broken Array.prototype), re-entrant tools, interceptors and filters,
// abort reasons no one can clone, resource floods aimed at the page, and
// what a host error tells the model. Each row states the safe outcome, in
// both engine modes (CODE_MODE_WORKER=1).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { WORKER, assetPath, llmTools, run, sleep, tool, withFactory, within } from "./helpers.mjs";

const CALL = "try { return await tools.t.x({}) } catch (e) { return e.name + ': ' + e.message }";

/** The next run of `s` works. */
async function nextRunWorks(s) {
    const r = await run(s, "return 1 + 1");
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.result, 2);
}

/** A JSON text of the run without the page's file paths. */
function assertNoHostPaths(value) {
    const text = JSON.stringify(value);
    for (const word of ["file:", "/work/", "node:internal", ".mjs", "hostile16"]) {
        assert.ok(!text.includes(word), `${word} in ${text.slice(0, 2000)}`);
    }
}

describe("tool results the worker boundary could alter arrive as on the calling thread", () => {
    class Secretive {
        #hidden = "PRIVATE";
        pub = 1;
        reveal() { return this.#hidden; }
    }
    const detached = () => {
        const buf = new ArrayBuffer(8);
        const view = new Uint8Array(buf), dv = new DataView(buf, 2);
        structuredClone(buf, { transfer: [buf] });
        return { buf, view, dv };
    };
    /** @type {[string, () => unknown, unknown][]} */
    const rows = [
        ["a class instance with a private field: its public field only", () => new Secretive(), { pub: 1 }],
        ["a detached ArrayBuffer, a typed array and a DataView of it: no bytes", detached, { buf: [], view: [], dv: [] }],
        ["a Promise inside the result (never settling) is null, and does not hold the call", () => ({ p: new Promise(() => {}), v: 1 }), { p: null, v: 1 }],
        ["an invalid Date is null, as JSON writes it", () => ({ d: new Date(NaN) }), { d: null }],
        ["an Error value is { name, message }: no stack, no cause, no own properties", () => ({ e: Object.assign(new TypeError("m", { cause: new Error("CAUSE-SECRET") }), { secret: "PROP" }) }), { e: { name: "TypeError", message: "m" } }],
        ["a WeakRef is null", () => ({ w: new WeakRef({}) }), { w: null }],
        ["a non-enumerable and a Symbol-keyed property are left out", () => Object.defineProperty({ [Symbol("s")]: 1, a: 1 }, "hidden", { value: 2 }), { a: 1 }],
    ];
    for (const [name, value, want] of rows) {
        test(name, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", value)] });
            const r = await run(api.createSession(), CALL);
            assert.equal(r.ok, true, JSON.stringify(r.error));
            assert.deepEqual(r.result, want);
            assertNoHostPaths(r);
        });
    }

    test("a Proxy whose ownKeys throws fails the call with its message; the next run works", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [tool("t.x", () => ({ inner: new Proxy({}, { ownKeys() { throw new Error("ownKeys boom"); } }) }))],
        });
        const s = api.createSession();
        const r = await run(s, CALL);
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.match(r.result, /^ToolError: .*ownKeys boom/);
        await nextRunWorks(s);
    });

    test("a result nested 1e5 levels deep fails the call saying so; the page lives", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [tool("t.x", () => { let o = {}; for (let i = 0; i < 1e5; i++) o = [o]; return o; })],
        });
        const s = api.createSession();
        const r = await run(s, CALL);
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.match(r.result, /^ToolError: the tool returned a value that is not JSON data: tools\.t\.x result: the value nests more than 1,000 levels deep$/);
        assert.ok(!/Maximum call stack/.test(r.result), r.result);
        await nextRunWorks(s);
    });

    test("a getter that makes an endless tree fails the call at the depth limit, not by hanging", async (t) => {
        const deep = () => ({ get next() { return deep(); } });
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 20_000, tools: [tool("t.x", deep)] });
        const s = api.createSession();
        const r = await run(s, CALL);
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.match(r.result, /^ToolError: the tool returned a value that is not JSON data: tools\.t\.x result: the value nests more than 1,000 levels deep$/);
        await nextRunWorks(s);
    });
});

describe("a page that replaces its globals after the factory loaded", () => {
    /** @type {(() => void)[]} */
    const restore = [];
    /**
     * Replaces owner[key] until the row's body ends (restored before the
     * factory's dispose, which may need what was replaced).
     * @param {any} _t @param {any} owner @param {string} key @param {unknown} value
     */
    const replace = (_t, owner, key, value) => {
        const had = Object.getOwnPropertyDescriptor(owner, key);
        Object.defineProperty(owner, key, { value, writable: true, configurable: true });
        restore.push(() => (had ? Object.defineProperty(owner, key, had) : delete owner[key]));
    };
    /** A test whose replacements are undone when its body settles. */
    const stubTest = (/** @type {string} */ name, /** @type {(t: any) => Promise<void>} */ body) =>
        test(name, async (t) => {
            try {
                await body(t);
            } finally {
                while (restore.length) restore.pop()();
            }
        });

    stubTest("Array.prototype methods broken: a hidden tool stays hidden, a denial still denies", async (t) => {
        const ran = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            toolFilter: (d) => d.name !== "t.hidden",
            interceptors: { onToolCall: ({ tool: { name } }) => (name === "t.denied" ? { allowed: false, reason: "no" } : { allowed: true }) },
            tools: [tool("t.hidden", () => ran.push("hidden")), tool("t.denied", () => ran.push("denied")), tool("t.x", () => "ok")],
        });
        const s = api.createSession();
        await nextRunWorks(s);
        const { executeCode } = llmTools(s);
        for (const m of ["some", "every", "includes", "indexOf", "find", "filter", "map", "forEach"]) {
            replace(t, Array.prototype, m, function () { return m === "filter" || m === "map" ? [] : m === "indexOf" ? -1 : m === "every" || m === "some" || m === "includes" ? false : undefined; });
        }
        const r = await executeCode.execute({ explanation: "", code: "const out = []; for (const n of ['t.hidden', 't.denied']) { try { await tool_call(n, {}); out.push('ran ' + n) } catch (e) { out.push(e.message.slice(0, 30)) } } return out" }).catch((e) => ({ rejected: String(e) }));
        while (restore.length) restore.pop()();
        assert.deepEqual(ran, []);
        if (r.ok) assert.ok(!r.result.some((x) => x.startsWith("ran")), JSON.stringify(r.result));
    });

    // Test setups make console.error throw, to fail a test on any error.
    stubTest("console.error that throws: a throwing or rejecting onEvent is still no more than a report, the run settles", async (t) => {
        const unhandled = [];
        const onUnhandled = (/** @type {unknown} */ e) => unhandled.push(e);
        process.on("unhandledRejection", onUnhandled);
        t.after(() => process.off("unhandledRejection", onUnhandled));
        const api = await withFactory(t, { wasmLocation: assetPath, onEvent: () => { throw new Error("onEvent boom"); } });
        const s = api.createSession();
        replace(t, console, "error", () => { throw new Error("console.error stubbed"); });
        const r = await run(s, "console.log('a'); return 5");
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.equal(r.result, 5);
        const r2 = await run(s, "console.log('b'); return 6", { onEvent: async () => { throw new Error("async onEvent boom"); } });
        assert.equal(r2.result, 6);
        await sleep(50);
        assert.deepEqual(unhandled, []);
    });
});

describe("re-entrant tools, interceptors and filters", () => {
    test("a tool that runs executeCode of its own session, with another context: each run's tools see their own context", async (t) => {
        const seen = [];
        let session;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [
                tool("t.who", (_, o) => (seen.push(o.context), o.context)),
                tool("t.nest", async (_, o) => {
                    const inner = await run(session, "return await tools.t.who({})", { context: "INNER" });
                    return { inner: inner.result, outer: o.context };
                }),
            ],
        });
        session = api.createSession();
        const r = await run(session, "const a = await tools.t.nest({}); const b = await tools.t.who({}); return [a, b]", { context: "OUTER" });
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(r.result, [{ inner: "INNER", outer: "OUTER" }, "OUTER"]);
        assert.deepEqual(seen, ["INNER", "OUTER"]);
    });

    test("tools nesting runs 8 deep through other sessions: every level returns, the page lives", { timeout: 120_000 }, async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [
                tool("t.down", async (input, o) => {
                    if (input.n === 0) return `bottom:${o.context}`;
                    const r = await run(api.createSession(), `return await tools.t.down({ n: ${input.n - 1} })`, { context: `L${input.n - 1}` });
                    return r.ok ? r.result : `failed: ${JSON.stringify(r.error)}`;
                }),
            ],
        });
        const r = await run(api.createSession(), "return await tools.t.down({ n: 8 })", { context: "L8" });
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.equal(r.result, "bottom:L0");
    });

    test("an onToolCall that unregisters the tool it is asked about, then approves: the tool never runs", async (t) => {
        const ran = [];
        let off;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: async () => { off(); await sleep(5); return { allowed: true }; } },
        });
        off = api.registerTool(tool("t.x", () => (ran.push("x"), "ran")));
        const r = await run(api.createSession(), CALL);
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.match(r.result, /^ToolError: tool "t\.x" was unregistered during this run/);
        assert.deepEqual(ran, []);
        assert.equal(r.toolCalls[0].ok, false);
    });

    test("a tool registered by a tool during a run is unknown to that run and callable in the next", async (t) => {
        let api;
        api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [tool("t.add", () => { api.registerTool(tool("t.late", () => "late")); return "added"; })],
        });
        const s = api.createSession();
        const r = await run(s, "await tools.t.add({}); try { return await tool_call('t.late', {}) } catch (e) { return e.message }");
        assert.match(r.result, /^unknown tool "t\.late"/);
        const r2 = await run(s, "return await tools.t.late({})");
        assert.equal(r2.result, "late");
    });

    test("a toolFilter that starts showing a tool mid-run: still unknown to that run", async (t) => {
        let show = false;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            toolFilter: (d) => d.name !== "t.secret" || show,
            tools: [tool("t.secret", () => "SECRET-RAN"), tool("t.flip", () => { show = true; return 1; })],
        });
        const s = api.createSession();
        const r = await run(s, "await tools.t.flip({}); await new Promise((r) => setTimeout(r, 20)); try { return await tool_call('t.secret', {}) } catch (e) { return e.message }");
        assert.match(r.result, /^unknown tool "t\.secret"/);
        const r2 = await run(s, "return await tools.t.secret({})");
        assert.equal(r2.result, "SECRET-RAN");
    });

    test("session.dispose() from onToolCall: the tool never runs, execute rejects saying the session was disposed", async (t) => {
        const ran = [];
        let s;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: () => { s.dispose(); return { allowed: true }; } },
            tools: [tool("t.x", () => ran.push("x"))],
        });
        s = api.createSession();
        await assert.rejects(run(s, CALL), /session was disposed/);
        await sleep(50);
        assert.deepEqual(ran, []);
        await nextRunWorks(api.createSession());
    });

    test("a run-end onEvent that starts the next run of its session: it runs, once", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const s = api.createSession();
        let second;
        const r = await run(s, "return 1", { onEvent: (e) => { if (e.type === "run-end" && !second) second = run(s, "return 2"); } });
        assert.equal(r.result, 1);
        assert.ok(second, "run-end was reported");
        assert.equal((await second).result, 2);
    });

    test("a tool that aborts its own run's signal and then returns: execute rejects with the reason, the value reaches nothing", async (t) => {
        const ac = new AbortController();
        const events = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [tool("t.x", async () => { ac.abort("STOP"); await sleep(20); return "LATE-VALUE"; }), tool("t.after", () => events.push("after-ran"))],
        });
        const s = api.createSession();
        await assert.rejects(run(s, "await tools.t.x({}); await tools.t.after({}); return 1", { signal: ac.signal, onEvent: (e) => events.push(e.type) }), (e) => e === "STOP");
        await sleep(100);
        assert.ok(!events.includes("after-ran"), JSON.stringify(events));
        const end = events.indexOf("run-end");
        assert.ok(end >= 0 && events.slice(end + 1).length === 0, `events after run-end: ${JSON.stringify(events)}`);
    });
});

describe("abort reasons and signals written to hurt", () => {
    const revoked = () => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; };
    for (const [name, reason] of [["a revoked Proxy", revoked()], ["a function", () => "fn"], ["a Symbol", Symbol("why")]]) {
        test(`abort(${name}) of a busy run and of an awaiting one: rejects with that reason, the tool's signal has it, the next run works`, async (t) => {
            const signals = [];
            const api = await withFactory(t, {
                wasmLocation: assetPath,
                timeout: 20_000,
                tools: [tool("t.x", (_, o) => { signals.push(o.signal); return new Promise(() => {}); })],
            });
            const s = api.createSession();
            await nextRunWorks(s);
            for (const code of ["await tools.t.x({})", "for (;;) {}"]) {
                if (!WORKER && code.startsWith("for")) continue; // the calling thread is held: only the timeout ends it
                const ac = new AbortController();
                const p = run(s, code, { signal: ac.signal });
                // The awaiting run is aborted once its tool has started.
                for (let i = 0; i < 600 && code.startsWith("await") && signals.length === 0; i++) await sleep(50);
                await sleep(50);
                ac.abort(reason);
                // Boxed: a revoked Proxy cannot resolve a promise (its then is read).
                const got = await within(p.then(() => "resolved", (e) => ({ e })), 5_000);
                assert.ok(typeof got === "object" && got.e === reason, `${code}: settled with ${String(typeof got === "symbol" ? got.toString() : typeof got)}`);
            }
            assert.equal(signals[0].aborted, true);
            assert.ok(signals[0].reason === reason);
            await nextRunWorks(s);
        });
    }

    test("a signal whose addEventListener throws: execute rejects with that error, the program never runs, run-end closes the run", async (t) => {
        const ran = [];
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => ran.push("x"))] });
        const s = api.createSession();
        const ac = new AbortController();
        ac.signal.addEventListener = () => { throw new Error("no listeners here"); };
        const events = [];
        const got = await within(run(s, "await tools.t.x({}); return 1", { signal: ac.signal, onEvent: (e) => events.push(e.type) }).then((r) => r, (e) => e.message), 60_000);
        assert.equal(got, "no listeners here");
        await sleep(100);
        assert.deepEqual(ran, []);
        assert.deepEqual(events, ["run-start", "run-end"]);
        await nextRunWorks(s);
    });

    test("abort from run-start's onEvent: the program runs no tool, execute rejects with the reason", async (t) => {
        const ran = [];
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => ran.push("x"))] });
        const s = api.createSession();
        const ac = new AbortController();
        await assert.rejects(run(s, "await tools.t.x({}); return 1", { signal: ac.signal, onEvent: (e) => e.type === "run-start" && ac.abort("EARLY") }), (e) => e === "EARLY");
        await sleep(100);
        assert.deepEqual(ran, []);
        await nextRunWorks(s);
    });

    test("abort while onToolCall is pending, then the interceptor throws: no unhandled rejection, the tool never runs", async (t) => {
        const ran = [];
        const unhandled = [];
        const onUnhandled = (e) => unhandled.push(e);
        process.on("unhandledRejection", onUnhandled);
        t.after(() => process.off("unhandledRejection", onUnhandled));
        let asked, release;
        const askedP = new Promise((r) => (asked = r));
        const gate = new Promise((r) => (release = r));
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: async () => { asked(); await gate; throw new Error("late interceptor failure"); } },
            tools: [tool("t.x", () => ran.push("x"))],
        });
        const s = api.createSession();
        const ac = new AbortController();
        const p = run(s, CALL, { signal: ac.signal });
        await askedP;
        ac.abort("STOP");
        release();
        await assert.rejects(p, (e) => e === "STOP");
        await sleep(200);
        assert.deepEqual(ran, []);
        assert.deepEqual(unhandled, []);
    });
});

describe("config guards read once: a getter or a later change turns none off", () => {
    test("interceptors.onToolCall as a getter that denies once, then is undefined: every call is denied", async (t) => {
        const ran = [];
        let reads = 0;
        const deny = () => ({ allowed: false, reason: "guarded" });
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { get onToolCall() { reads++; return reads === 1 ? deny : undefined; } },
            tools: [tool("t.x", () => ran.push("x"))],
        });
        const s = api.createSession();
        for (let i = 0; i < 3; i++) assert.match((await run(s, CALL)).result, /denied: guarded/);
        assert.deepEqual(ran, []);
    });

    test("toolFilter as a getter that hides once, then is undefined: the tool stays hidden", async (t) => {
        let reads = 0;
        const hide = (d) => d.name !== "t.x";
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            get toolFilter() { reads++; return reads === 1 ? hide : undefined; },
            tools: [tool("t.x", () => "RAN")],
        });
        const s = api.createSession();
        for (let i = 0; i < 3; i++) assert.match((await run(s, CALL)).result, /unknown tool "t\.x"/);
        assert.deepEqual(api.listTools().map((d) => d.name), []);
    });

    test("the config changed after the factory: its guards and timeout stay as they were", async (t) => {
        const ran = [];
        const config = {
            wasmLocation: assetPath,
            timeout: 5000,
            toolFilter: (d) => d.name !== "t.hidden",
            interceptors: { onToolCall: ({ tool: { name } }) => (name === "t.x" ? { allowed: false, reason: "guarded" } : { allowed: true }) },
            tools: [tool("t.x", () => ran.push("x")), tool("t.hidden", () => ran.push("hidden"))],
        };
        const api = await withFactory(t, config);
        config.interceptors.onToolCall = () => ({ allowed: true });
        config.toolFilter = () => true;
        config.timeout = 1;
        delete config.interceptors;
        const s = api.createSession();
        assert.match((await run(s, CALL)).result, /denied: guarded/);
        assert.match((await run(s, "try { await tool_call('t.hidden', {}) } catch (e) { return e.message }")).result, /unknown tool/);
        assert.equal((await run(s, "await new Promise((r) => setTimeout(r, 50)); return 'no timeout'")).result, "no timeout");
        assert.deepEqual(ran, []);
    });

    test("a registered tool definition changed afterwards: its inputSchema is still enforced", async (t) => {
        const got = [];
        const def = tool("t.x", (i) => (got.push(i), "ran"), { inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } });
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [def] });
        def.inputSchema = { type: "object" };
        def.inputSchema.required = [];
        const r = await run(api.createSession(), "try { return await tools.t.x({ n: 'not a number' }) } catch (e) { return e.message }");
        assert.match(r.result, /invalid input/);
        assert.deepEqual(got, []);
    });
});

describe("a 1 MB name or key is a short TypeError, in both modes", () => {
    const CUT = /"(\w)\1{99}"… \(1000000 characters\)/;
    /** @param {unknown} e */
    const short = (e) => e instanceof TypeError && e.message.length < 1000 && CUT.test(e.message);
    test("a tool name", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        assert.throws(() => api.registerTool(tool("a".repeat(1e6), () => 1)), short);
    });
    test("an unknown key in the config", async () => {
        const { IoCodeModeFactory } = await import("../../dist/index.mjs");
        await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, worker: WORKER, ["k".repeat(1e6)]: 1 }), short);
    });
    test("an unknown key in execute's options", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        await assert.rejects(run(api.createSession(), "return 1", { ["o".repeat(1e6)]: 1 }), short);
    });
    test("an unknown key in a tool definition, and in createSession's options", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        assert.throws(() => api.registerTool({ ...tool("t.x", () => 1), ["d".repeat(1e6)]: 1 }), short);
        assert.throws(() => api.createSession({ ["s".repeat(1e6)]: 1 }), short);
    });
});

describe("resource attacks aimed at the page", () => {
    test("a program that makes an onEvent throw 20,000 times: the page's console.error is not flooded", async (t) => {
        let errors = 0;
        const original = console.error;
        console.error = () => { errors++; };
        t.after(() => (console.error = original));
        const api = await withFactory(t, { wasmLocation: assetPath, onEvent: () => { throw new Error("observer bug"); } });
        const r = await run(api.createSession(), "for (let i = 0; i < 20000; i++) console.log(i); return 1");
        assert.equal(r.result, 1);
        // Not one report per line: the lines an observer hears are capped.
        assert.ok(errors < 1000, `${errors} console.error calls`);
    });

    test("a program that makes a toolFilter throw 500 times: the page's console.error is not flooded", async (t) => {
        let errors = 0;
        const original = console.error;
        console.error = () => { errors++; };
        t.after(() => (console.error = original));
        const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (d) => { if (d.name === "t.bad") throw new Error("filter bug"); return true; }, tools: [tool("t.bad", () => 1), tool("t.x", () => 1)] });
        const r = await run(api.createSession(), "for (let i = 0; i < 500; i++) { try { await tool_call('t.bad', {}) } catch {} } return 1", {});
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.ok(errors <= 10, `${errors} console.error calls`);
    });

    test("a program that makes 100,000 timers: the run ends, the next run works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 10_000 });
        const s = api.createSession();
        const r = await run(s, "for (let i = 0; i < 1e5; i++) setTimeout(() => {}, 1e6); return 1");
        assert.ok(r.ok || ["RUNTIME", "MEMORY_LIMIT"].includes(r.error.code), JSON.stringify(r.error));
        await nextRunWorks(s);
    });

    test("Atomics.wait in the sandbox: an error or TIMEOUT, never a frozen thread", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 500 });
        const s = api.createSession();
        const r = await run(s, "const ia = new Int32Array(new SharedArrayBuffer(4)); return Atomics.wait(ia, 0, 0, 1e9)");
        assert.ok(!r.ok && ["RUNTIME", "TIMEOUT"].includes(r.error.code), JSON.stringify(r));
        await nextRunWorks(s);
    });
});

describe("what the model learns from the page's failures", () => {
    test("a toolFilter that throws with a secret: the program sees an unknown tool, never the secret", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            toolFilter: (d) => { if (d.name === "t.x") throw new Error("FILTER-SECRET"); return true; },
            tools: [tool("t.x", () => 1), tool("t.y", () => 1)],
        });
        const r = await run(api.createSession(), `${CALL.replace("return e.name", "console.log(e); return e.name")}`);
        assert.match(r.result, /unknown tool "t\.x"/);
        assert.ok(!JSON.stringify(r).includes("FILTER-SECRET"));
    });

    test("a page bug in onToolCall (reading a property of an undefined context): the reason has no page path or stack", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: ({ callContext }) => ({ allowed: callContext.user.admin }) },
            tools: [tool("t.x", () => 1)],
        });
        const r = await run(api.createSession(), CALL);
        assert.match(r.result, /denied/);
        assertNoHostPaths(r);
    });

    test("a tool's uncaught error: the run's error and stack show no page path", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => { null.boom; })] });
        const r = await run(api.createSession(), "await tools.t.x({})");
        assert.equal(r.ok, false);
        assertNoHostPaths(r);
    });

    test("a tool's error whose message holds the context: the model sees the message (the page chose it), and no other context", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => { const e = new Error("m"); e.context = "CTX-SECRET"; e.toString = () => "CTX-SECRET"; throw e; })] });
        const r = await run(api.createSession(), CALL, { context: { token: "CTX-SECRET" } });
        assert.equal(r.result, "ToolError: m");
        assert.ok(!JSON.stringify(r).includes("CTX-SECRET"));
    });
});

describe("programs written to hurt, on paths earlier suites left", () => {
    test("setTimeout with a string runs nothing on the page", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const s = api.createSession();
        const r = await run(s, "try { setTimeout('globalThis.__h16 = 1', 0) } catch (e) { return e.name } await new Promise((r) => setTimeout(r, 20)); return typeof globalThis.__h16");
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.equal(globalThis.__h16, undefined);
    });

    test("Date.now replaced in the sandbox: a busy loop still times out", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 300 });
        const r = await run(api.createSession(), "Date.now = () => 0; Date.prototype.getTime = () => 0; for (;;) {}");
        assert.equal(r.error?.code, "TIMEOUT");
    });

    test("a loop in finally or catch after the timeout: TIMEOUT, not caught", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 300 });
        const s = api.createSession();
        for (const code of ["try { for (;;) {} } catch (e) { return 'caught ' + e } ", "try { for (;;) {} } finally { for (;;) {} }", "for (;;) { try { for (;;) {} } catch {} }"]) {
            const r = await run(s, code);
            assert.equal(r.error?.code, "TIMEOUT", `${code}: ${JSON.stringify(r)}`);
        }
        await nextRunWorks(s);
    });

    test("a tool call made from the toJSON of another call's input: both recorded, each tool gets what onToolCall approved", async (t) => {
        const approved = [], got = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: ({ input }) => (approved.push(JSON.stringify(input)), { allowed: true }) },
            tools: [tool("t.x", (i) => (got.push(JSON.stringify(i)), i))],
        });
        const r = await run(api.createSession(), "let inner; const outer = await tools.t.x({ toJSON() { inner = tools.t.x({ inner: 1 }); return { outer: 1 } } }); return [outer, await inner]");
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(r.result, [{ outer: 1 }, { inner: 1 }]);
        assert.deepEqual(approved.sort(), got.sort());
        assert.equal(r.toolCalls.length, 2);
    });

    test("Object.prototype.then set in the sandbox, then tool calls and a return: the run settles, the page lives", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 2000, tools: [tool("t.x", () => ({ a: 1 }))] });
        const s = api.createSession();
        const r = await within(run(s, "Object.prototype.then = function (res) { delete Object.prototype.then; res(7) }; const v = await tools.t.x({}); return [v, { b: 2 }]"), 60_000);
        assert.notEqual(r, "hung");
        await nextRunWorks(s);
    });

    test("Promise and its prototype replaced in the sandbox: tool calls still go through onToolCall, once each", async (t) => {
        const approved = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 2000,
            interceptors: { onToolCall: ({ input }) => (approved.push(input.n), { allowed: true }) },
            tools: [tool("t.x", (i) => i.n)],
        });
        const s = api.createSession();
        const r = await run(s, "const P = Promise; Promise.prototype.then = function (a, b) { return P.prototype.catch.call(this, b) }; globalThis.Promise = function () { throw 1 }; const p = tools.t.x({ n: 1 }); tools.t.x({ n: 2 }); return 'ok'");
        assert.ok(r.ok || r.error, JSON.stringify(r));
        await sleep(50);
        assert.ok(approved.length <= 2 && new Set(approved).size === approved.length, JSON.stringify(approved));
        assert.ok(r.toolCalls.length === 2, JSON.stringify(r.toolCalls));
        await nextRunWorks(s);
    });

    test("a tool called with new: an error or a call, through the pipeline", async (t) => {
        const ran = [];
        const api = await withFactory(t, { wasmLocation: assetPath, interceptors: { onToolCall: () => ({ allowed: false, reason: "no" }) }, tools: [tool("t.x", () => ran.push(1))] });
        const r = await run(api.createSession(), "try { await new tools.t.x({}); return 'called' } catch (e) { return e.name }");
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(ran, []);
    });
});
