// The hostile-program suite (issue 9) through dist/ under Node: programs,
// tools and interceptors written as an attacker or a careless host would.
// hostile_test.go runs the same cases against the native engine. Cases
// that once killed the host process run in a child process.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { WORKER, assetPath, dist, indexURL, llmTools, run, sleep, tool, withFactory } from "./helpers.mjs";

// Bounds a string from the sandbox gets before it is encoded (names, error
// messages and reasons), with room for the marker saying what was cut.
const NAME_BOUND = 128 + 64;
const TEXT_BOUND = 4000 + 64;

/**
 * Runs `body` (an async function body with IoCodeModeFactory, assetPath) in a
 * fresh Node process, killed after `timeout` ms (a hang fails).
 */
function inChild(body, timeout = 240_000) {
    const script = `
        const { IoCodeModeFactory: factory } = await import(${JSON.stringify(indexURL)});
        // The suite's mode (CODE_MODE_WORKER=1: worker_threads) in the child too.
        const IoCodeModeFactory = ${WORKER} ? (c) => factory({ ...c, worker: true }) : factory;
        const assetPath = ${JSON.stringify(assetPath)};
        const out = await (async () => { ${body} })();
        process.stdout.write(JSON.stringify(out));
        process.exit(0);
    `;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout, maxBuffer: 64 << 20 });
    assert.equal(child.status, 0, `the host process died (status ${child.status}, signal ${child.signal}): ${child.stderr.slice(-2000)}`);
    return JSON.parse(child.stdout);
}

/** A probe of starts: which interceptors and tools started, and whether after the run had ended. */
function probe() {
    const p = { ended: false, starts: [], late: [], signals: [] };
    p.start = (what) => {
        p.starts.push(what);
        if (p.ended) p.late.push(what);
    };
    p.endedP = new Promise((r) => (p.end = () => ((p.ended = true), r())));
    return p;
}

describe("item 1: a one-line program cannot take the host down", () => {
    test("a 9e7-character error.name: the process lives, the name is cut", () => {
        const out = inChild(`
            const api = await IoCodeModeFactory({ wasmLocation: assetPath, memoryLimit: 512, timeout: 120000 });
            const ex = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
            const r = await ex.execute({ code: "const e = new Error('x'); e.name = '<'.repeat(9e7); throw e", explanation: "" });
            const next = await ex.execute({ code: "return 1", explanation: "" });
            api.dispose();
            return { ok: r.ok, name: r.error.name.length, message: r.error.message.length, next: next.result };
        `);
        assert.equal(out.ok, false);
        assert.ok(out.name <= NAME_BOUND && out.message <= TEXT_BOUND, JSON.stringify(out));
        assert.equal(out.next, 1);
    });
    test("four tool_call()s with 25M-character names: the process lives, names are cut", () => {
        const out = inChild(`
            const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 120000 });
            const ex = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
            const r = await ex.execute({ code: "const m = []; for (let i = 0; i < 4; i++) { try { await tool_call('<'.repeat(25e6) + i, {}) } catch (e) { m.push(e.message.length) } } return m", explanation: "" });
            api.dispose();
            return { result: r.result, names: r.toolCalls.map((c) => c.name.length), reasons: r.toolCalls.map((c) => (c.reason || "").length) };
        `);
        assert.equal(out.result.length, 4, JSON.stringify(out));
        for (const n of [...out.result]) assert.ok(n <= TEXT_BOUND, `a message of ${n} chars`);
        assert.equal(out.names.length, 4);
        for (const n of out.names) assert.ok(n <= NAME_BOUND, `a recorded name of ${n} chars`);
    });
    test("huge error messages, stacks, thrown strings and logs are cut", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 256 });
        const session = api.createSession();
        for (const code of [
            "throw new Error('<'.repeat(5e7))",
            "throw '<'.repeat(5e7)",
            "const e = new Error('x'); e.stack = '<'.repeat(5e7); throw e",
            "const e = new Error('x'); e.name = Symbol('<'.repeat(1e6)); throw e",
            "console.log('<'.repeat(5e7)); throw new Error('after')",
        ]) {
            const r = await run(session, code);
            assert.equal(r.ok, false, code);
            assert.ok(r.error.name.length <= NAME_BOUND && r.error.message.length <= TEXT_BOUND && (r.error.stack || "").length <= TEXT_BOUND, `${code}: ${r.error.name.length}/${r.error.message.length}`);
            assert.ok(JSON.stringify(r).length < 100_000, `${code}: ${JSON.stringify(r).length} chars`);
        }
    });
    test("the Go runtime's own output (its crash report) goes through the shadow fs, not a bare global", () => {
        for (const file of ["index.mjs", "code-mode.global.js"]) {
            const text = readFileSync(join(dist, file), "utf8");
            assert.doesNotMatch(text, /(?<![.\w])fs\.writeSync\(/, `${file} writes the Go runtime's output through a bare fs`);
            assert.match(text, /globalThis\d*\.fs\.writeSync\(fd/, file);
        }
    });
});

describe("a tool that throws a Promise", () => {
    // `throw Promise.reject(e)` read "[object Promise]", and the thrown
    // promise's rejection was the host's own, unhandled: the end of a Node
    // process.
    test("the code gets an error that says so, the host process lives", () => {
        const out = inChild(`
            const schema = { type: "object" };
            const api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: [
                { name: "t.rejected", inputSchema: schema, execute: async () => { throw Promise.reject(new Error("inner")); } },
                { name: "t.pending", inputSchema: schema, execute: () => { throw new Promise(() => {}); } },
                { name: "t.resolved", inputSchema: schema, execute: () => { throw Promise.resolve(1); } },
            ] });
            const ex = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
            const r = await ex.execute({ code: "const m = []; for (const n of ['rejected', 'pending', 'resolved']) { try { await tools.t[n]({}) } catch (e) { m.push(e.name + ': ' + e.message) } } return m", explanation: "" });
            await new Promise((r) => setTimeout(r, 50));
            api.dispose();
            return r.result;
        `);
        assert.deepEqual(out, Array(3).fill("ToolError: a tool threw a Promise, not an Error (a missing await before throw?)"));
    });
});

// A tool (or an interceptor) that throws an object that is not an Error,
// as an API client throws its error body: the program read "[object
// Object]". Its JSON now; an Error-like object keeps its message, and one
// JSON cannot write keeps String's words.
describe("a tool or an interceptor that throws a plain object", () => {
    test("the code gets its JSON", async (t) => {
        const cyclic = { a: 1 };
        cyclic.self = cyclic;
        const thrown = { body: { status: 404, error: "order not found" }, list: ["a", 1], like: { message: "like an Error", code: 7 }, cyclic, empty: {} };
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: Object.keys(thrown).map((n) => ({ name: "t." + n, execute: () => { throw thrown[n]; } })).concat({ name: "i.denied", execute: () => 1 }),
            interceptors: { onToolCall: ({ tool }) => { if (tool.name === "i.denied") throw { reason: "policy", rule: 12 }; return { allowed: true }; } },
        });
        const ex = api.createSession().getLlmTools().find((x) => x.name === "executeCode");
        const r = await ex.execute({ code: "const m = []; for (const n of ['t.body', 't.list', 't.like', 't.cyclic', 't.empty', 'i.denied']) { try { await tool_call(n, {}) } catch (e) { m.push(e.name + ': ' + e.message) } } return m", explanation: "" });
        assert.deepEqual(r.result, [
            'ToolError: {"status":404,"error":"order not found"}',
            'ToolError: ["a",1]',
            "ToolError: like an Error",
            'ToolError: {"a":1,"self":"[Circular]"}',
            "ToolError: [object Object]",
            'ToolError: call to i.denied denied: the interceptor failed (onToolCall rejected: {"reason":"policy","rule":12})',
        ], JSON.stringify(r));
        assert.deepEqual(r.toolCalls[0].reason, '{"status":404,"error":"order not found"}');
    });

    // Its arrays are shown as the core shows them in a log line: a typed
    // array as an array, a long one cut (a Uint8Array of 5e6 was written
    // whole, as {"0":0,...}, to keep 1,000 characters of it; a sparse
    // array of 2**32-1 held the page forever).
    test("its long and typed arrays are cut, as in a log line", async (t) => {
        const sparse = [];
        sparse.length = 2 ** 32 - 1;
        const thrown = { typed: { status: 500, data: new Uint8Array(5e6) }, sparse: { list: sparse } };
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: Object.keys(thrown).map((n) => ({ name: "t." + n, execute: () => { throw thrown[n]; } })),
        });
        const ex = api.createSession().getLlmTools().find((x) => x.name === "executeCode");
        const r = await ex.execute({ code: "const m = []; for (const n of ['t.typed', 't.sparse']) { try { await tool_call(n, {}) } catch (e) { m.push(e.name + ': ' + e.message) } } return m", explanation: "" });
        assert.ok(r.ok, JSON.stringify(r).slice(0, 300));
        assert.ok(r.result[0].startsWith('ToolError: {"status":500,"data":[0,0,0,'), r.result[0].slice(0, 100));
        assert.ok(r.result[1].startsWith('ToolError: {"list":[null,null,'), r.result[1].slice(0, 100));
    });
});

describe("an interceptor or a toolFilter that throws a Promise", () => {
    // As for a tool: the thrown promise's rejection was the host's own,
    // unhandled, and ended the Node process.
    test("the call is denied with an error that says so, the host process lives", () => {
        const out = inChild(`
            const schema = { type: "object" };
            const thrown = { rejected: () => Promise.reject(new Error("inner")), pending: () => new Promise(() => {}), resolved: () => Promise.resolve(1) };
            const api = await IoCodeModeFactory({ wasmLocation: assetPath,
                tools: ["rejected", "pending", "resolved", "async", "ok", "hidden", "late"].map((n) => ({ name: "t." + n, inputSchema: schema, execute: () => n })),
                // Each hides its tool: a filter's throw, or its rejected promise.
                toolFilter: (t) => {
                    if (t.name === "t.hidden") throw Promise.reject(new Error("filter"));
                    return t.name === "t.late" ? Promise.reject(new Error("late")) : true;
                },
                interceptors: { onToolCall: ({ tool }) => {
                    const n = tool.name.slice(2);
                    if (n === "async") return (async () => { throw Promise.reject(new Error("inner")); })();
                    if (n in thrown) throw thrown[n]();
                    return { allowed: true };
                } },
            });
            const session = api.createSession();
            const ex = session.getLlmTools().find((t) => t.name === "executeCode");
            const r = await ex.execute({ code: "const m = []; for (const n of ['rejected', 'pending', 'resolved', 'async', 'ok', 'hidden', 'late']) { try { m.push(await tools.t[n]({})) } catch (e) { m.push(e.name + ': ' + e.message) } } return m", explanation: "" });
            await new Promise((r) => setTimeout(r, 50));
            api.dispose();
            return r.result;
        `);
        const denied = "ToolError: call to t.NAME denied: the interceptor failed (onToolCall rejected: onToolCall threw a Promise, not an Error (a missing await before throw?))";
        assert.deepEqual(out.slice(0, 4), ["rejected", "pending", "resolved", "async"].map((n) => denied.replace("NAME", n)));
        assert.deepEqual(out.slice(4), ["ok", "TypeError: not a function", "TypeError: not a function"]);
    });
});

describe("item 2: a rewrite that is not JSON denies the call", () => {
    const cyclic = { to: "x" };
    cyclic.self = cyclic;
    for (const [name, input] of [
        ["a function", () => ({ to: "attacker" })],
        ["a Symbol", Symbol("x")],
        ["a BigInt", 10n],
        ["a cycle", cyclic],
        ["a function inside", { to: "shop", amount: () => 1 }],
        ["NaN inside", { amount: NaN }],
    ]) {
        test(`{ allowed: true, input: ${name} }`, async (t) => {
            const ran = [];
            const api = await withFactory(t, {
                wasmLocation: assetPath,
                interceptors: { onToolCall: () => ({ allowed: true, input }) },
                tools: [tool("pay.send", (i) => ran.push(i))],
            });
            const r = await run(api.createSession(), "try { await tools.pay.send({ to: 'attacker' }); return 'ran' } catch (e) { return e.message }");
            assert.deepEqual(ran, [], "the tool ran");
            assert.notEqual(r.result, "ran");
            assert.equal(r.toolCalls.length, 1);
            assert.equal(r.toolCalls[0].allowed, false);
            assert.match(r.toolCalls[0].reason, /not JSON/);
        });
    }
});

describe("item 3: once a run has ended, none of its tools or interceptors starts", () => {
    // The approval comes after ms and only once the run has ended (p.end):
    // after ms alone, a run that a loaded machine held off the CPU could
    // still be live, and rightly run the tool.
    const slowApproval = (p, ms) => async ({ tool: t }) => {
        p.start(`interceptor ${t.name}`);
        await Promise.all([sleep(ms), Promise.race([p.endedP, new Promise((r) => setTimeout(r, 60_000).unref())])]);
        return { allowed: true };
    };
    test("timeout, approval after it: TIMEOUT, and the tool never runs", async (t) => {
        const p = probe();
        let timedOut = () => {};
        const approvedLate = new Promise((r) => (timedOut = r)).then(() => sleep(100));
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            // Long enough for the call to reach the interceptor on a loaded
            // machine; the approval comes only after the run has ended.
            timeout: 1500,
            interceptors: { onToolCall: ({ tool: t }) => (p.start(`interceptor ${t.name}`), approvedLate.then(() => ({ allowed: true }))) },
            tools: [tool("pay.send", () => p.start("tool"))],
        });
        const r = await run(api.createSession(), "await tools.pay.send({ amount: 100 })");
        p.ended = true;
        timedOut();
        assert.equal(r.error?.code, "TIMEOUT");
        await sleep(600);
        assert.deepEqual(p.starts, ["interceptor pay.send"]);
        assert.equal(r.toolCalls.length, 1, "the call in flight is recorded");
    });
    test("signal.abort() while the approval is pending (approval at 500 ms): rejects with the reason, and the tool never runs", async (t) => {
        const p = probe();
        const ctrl = new AbortController();
        const reason = new Error("the user pressed stop");
        const approve = slowApproval(p, 500);
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            // The abort comes once the approval is pending, however long
            // the call took to get there (a cold worker on a loaded machine).
            interceptors: { onToolCall: (c) => (setTimeout(() => ctrl.abort(reason), 0), approve(c)) },
            tools: [tool("pay.send", () => p.start("tool"))],
        });
        await assert.rejects(run(api.createSession(), "await tools.pay.send({ amount: 100 })", { signal: ctrl.signal }), (e) => e === reason);
        p.end();
        await sleep(600);
        assert.deepEqual(p.starts, ["interceptor pay.send"]);
    });
    for (const [name, code] of [
        ["an un-awaited call, then return", "tools.pay.send({}); return 1"],
        ["20 un-awaited calls, then return", "for (let i = 0; i < 20; i++) tools.pay.send({ i }); return 1"],
        ["an un-awaited call, then throw", "tools.pay.send({}); throw new Error('bye')"],
        ["a call from a promise job after return", "Promise.resolve().then(() => tools.pay.send({})); return 1"],
        ["a call from a timer after return", "setTimeout(() => tools.pay.send({}), 0); return 1"],
    ]) {
        test(`${name}: no approval dialog and no tool after the run`, async (t) => {
            const p = probe();
            const api = await withFactory(t, {
                wasmLocation: assetPath,
                interceptors: { onToolCall: slowApproval(p, 300) },
                tools: [tool("pay.send", () => p.start("tool"))],
            });
            const r = await run(api.createSession(), code);
            p.end();
            await sleep(500);
            assert.deepEqual(p.late, [], `started after the run: ${p.late}`);
            assert.ok(!p.starts.includes("tool"), "a tool ran on an approval that came after its run");
            for (const c of r.toolCalls) assert.ok(!c.ok, JSON.stringify(c));
        });
    }
    test("every tool call in flight gets an aborted signal with the caller's reason", async (t) => {
        const signals = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [tool("slow.wait", (input, { signal }) => (signals.push(signal), new Promise(() => {})))],
        });
        const ctrl = new AbortController();
        const reason = { why: "stop" };
        const running = run(api.createSession(), "await Promise.all([tools.slow.wait({}), tools.slow.wait({})])", { signal: ctrl.signal });
        while (signals.length < 2) await sleep(5);
        ctrl.abort(reason);
        await assert.rejects(running, (e) => e === reason);
        assert.equal(signals.length, 2);
        for (const s of signals) {
            assert.equal(s.aborted, true);
            assert.equal(s.reason, reason, "the tool's signal carries the caller's reason");
        }
    });
    test("a timeout aborts the signals of the calls in flight, saying so", async (t) => {
        const signals = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            // Time for the call to reach its tool on a loaded machine (one
            // that comes after the timeout rightly does not start).
            timeout: 1000,
            tools: [tool("slow.wait", (input, { signal }) => (signals.push(signal), new Promise(() => {})))],
        });
        const r = await run(api.createSession(), "await tools.slow.wait({})");
        assert.equal(r.error.code, "TIMEOUT");
        assert.equal(signals.length, 1, "the tool started");
        // In worker mode the abort reaches the page's signal in a message.
        for (let i = 0; i < 400 && !signals[0].aborted; i++) await sleep(5);
        assert.equal(signals[0].aborted, true);
        assert.match(String(signals[0].reason?.message), /timed out/);
    });
});

describe("item 4: toolCalls holds every call that reached the pipeline", () => {
    test("un-awaited calls, and calls in flight at the timeout", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            // Time for t.echo to start and return before the timeout on a
            // loaded machine.
            timeout: 1000,
            tools: [tool("t.echo", (i) => i), tool("t.block", () => new Promise(() => {}))],
        });
        const session = api.createSession();
        let r = await run(session, "tools.t.echo({}); return 1");
        assert.equal(r.toolCalls.length, 1);
        r = await run(session, "for (let i = 0; i < 5; i++) tools.t.echo({ i }); return 1");
        assert.equal(r.toolCalls.length, 5);
        r = await run(session, "await Promise.all([tools.t.block({}), tools.t.block({}), tools.t.echo({})])");
        assert.equal(r.error.code, "TIMEOUT");
        assert.equal(r.toolCalls.length, 3, JSON.stringify(r.toolCalls));
        assert.deepEqual(r.toolCalls.map((c) => c.ok).sort(), [false, false, true]);
        for (const c of r.toolCalls) if (!c.ok) assert.match(c.reason, /TIMEOUT/);
    });
});

describe("item 5: bounded host resources", () => {
    test("1000 un-awaited calls to a tool that never settles: the run ends, every call is recorded, the next run works", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            maxToolCalls: 2000,
            tools: [tool("t.hang", () => new Promise(() => {}))],
        });
        const session = api.createSession();
        const r = await run(session, "for (let i = 0; i < 1000; i++) tools.t.hang({}); return 1");
        assert.equal(r.ok, true);
        assert.equal(r.toolCalls.length, 1000);
        assert.equal((await run(session, "return 2")).result, 2);
    });
    test("calls to unknown tools count against maxToolCalls", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, maxToolCalls: 5 });
        for (const code of [
            "for (let i = 0; i < 100; i++) { try { await tool_call('nope' + i, {}) } catch (e) {} } return 'survived'",
            "for (let i = 0; i < 100; i++) tool_call('nope' + i, {}).catch(() => {}); return 'survived'",
        ]) {
            const r = await run(api.createSession(), code);
            assert.equal(r.error?.code, "TOOL_LIMIT", code);
            assert.ok(r.toolCalls.length <= 6, `${r.toolCalls.length} records`);
        }
    });
    test("a tool's 5 MB error message and an interceptor's 5 MB reason are cut", async (t) => {
        const huge = "<".repeat(5 << 20);
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: ({ tool: d }) => (d.name === "t.denied" ? { allowed: false, reason: huge } : { allowed: true }) },
            tools: [tool("t.fails", () => { throw new Error(huge); }), tool("t.denied", () => 1)],
        });
        for (const name of ["t.fails", "t.denied"]) {
            const r = await run(api.createSession(), `try { await tool_call(${JSON.stringify(name)}, {}) } catch (e) { return e.message.length }`);
            assert.ok(r.result > 0 && r.result <= TEXT_BOUND, `${name}: the sandbox saw ${r.result} chars`);
            assert.ok(r.toolCalls[0].reason.length <= TEXT_BOUND, `${name}: reason of ${r.toolCalls[0].reason.length} chars`);
        }
    });
});

describe("item 6: the outcome names what really ended the run", () => {
    test("timeouts in jobs, while awaiting and in result conversion are TIMEOUT", async (t) => {
        // Not shorter: the check run after each one ("return 1") must fit
        // in it on a loaded machine (300 ms failed once in a full suite run).
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 1000 });
        const session = api.createSession();
        for (const code of [
            "Promise.resolve().then(() => { for (;;) {} }); return 1",
            "await new Promise(r => { Promise.resolve().then(() => { for (;;) {} }) })",
            "const f = () => { Promise.resolve().then(f) }; f(); return 1",
            "return { get x() { for (;;) {} } }",
            "return { toJSON() { for (;;) {} } }",
        ]) {
            const r = await run(session, code);
            assert.equal(r.error?.code, "TIMEOUT", `${code}: ${JSON.stringify(r.error ?? r.result)}`);
            assert.equal((await run(session, "return 1")).result, 1);
        }
    });
    test("out of memory in a promise job is MEMORY_LIMIT", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 32, timeout: 60000 });
        const session = api.createSession();
        for (const code of [
            "await null; const a = []; for (;;) a.push('x'.repeat(1e4) + a.length)",
            "await Promise.resolve().then(() => { const a = []; for (;;) a.push('x'.repeat(1e4) + a.length) })",
            // QuickJS throws null when it cannot allocate the error either,
            // and loses a job it cannot allocate (its promise never settles).
            "for (;;) Promise.resolve().then(() => {})",
            "await null; for (;;) Promise.resolve().then(() => {})",
            "const a = []; const f = () => { a.push({}); return Promise.resolve().then(f) }; await f()",
            // Each promise resolved with the next, still pending: the chain
            // holds ever more memory.
            "const f = () => Promise.resolve().then(f); f(); return 1",
        ]) {
            const r = await run(session, code);
            assert.equal(r.error?.code, "MEMORY_LIMIT", `${code}: ${JSON.stringify(r.error)}`);
        }
        const own = await run(session, "const a = []; for (let i = 0; i < 1e5; i++) a.push({}); throw null");
        assert.equal(own.error?.code, "RUNTIME", JSON.stringify(own.error));
        assert.match(own.error.message, /null/);
        assert.equal((await run(session, "return 1")).result, 1);
    });
    test("deep nesting: JSON.parse, JSON.stringify, tool inputs, recursion throw a catchable RangeError; a deep result is a clean RangeError run error; the next run works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 120000, tools: [tool("t.echo", (i) => i)] });
        const session = api.createSession();
        const arrays = (n) => `let d = []; for (let i = 0; i < ${n}; i++) d = [d];`;
        const objects = (n) => `let d = {}; for (let i = 0; i < ${n}; i++) d = { d };`;
        for (const code of [
            "JSON.parse('['.repeat(1e5) + ']'.repeat(1e5))",
            "JSON.parse('{\"a\":'.repeat(1e5) + '1' + '}'.repeat(1e5))",
            "function f(n) { return f(n + 1) + 1 } f(0)",
            // Past V8's stack (~5,000 levels) and just past the 1,000 bound.
            ...[1e5, 6000, 1001].flatMap((n) => [
                `${arrays(n)} JSON.stringify(d)`,
                `${objects(n)} JSON.stringify(d, null, 2)`,
                `${arrays(n)} JSON.stringify(d, (k, v) => v)`,
                `${arrays(n)} await tools.t.echo(d)`,
                `${objects(n)} await tool_call('t.echo', { d })`,
            ]),
        ]) {
            const r = await run(session, `try { ${code}; return 'no error' } catch (e) { return [e instanceof RangeError, e.name, e.message] }`);
            assert.equal(r.ok, true, `${code}: ${JSON.stringify(r.error)}`);
            assert.equal(r.result[0], true, `${code}: caught ${JSON.stringify(r.result)}`);
            assert.equal((await run(session, "return 1")).result, 1);
        }
        // 1,000 levels still fit, both ways.
        const fit = await run(session, `${arrays(998)} return [JSON.stringify({ d }).length, JSON.stringify(await tools.t.echo({ d })).length]`);
        assert.deepEqual(fit.result, [2004, 2004], JSON.stringify(fit.error));
        const r = await run(session, `${arrays(1e5)} return d`);
        assert.equal(r.error?.code, "RESULT_NOT_SERIALIZABLE", JSON.stringify(r.error));
        assert.equal(r.error.name, "RangeError");
        assert.doesNotMatch(r.error.message, /crash|trap/);
        assert.equal((await run(session, "return 1")).result, 1);
    });
    test("a self-referencing schema is rejected at registration", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const cyclic = { type: "object", properties: {} };
        cyclic.properties.self = cyclic;
        for (const [name, inputSchema] of [
            ["a cyclic object", cyclic],
            ["$ref to itself", { $ref: "#" }],
            ["a $defs cycle", { $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, $ref: "#/$defs/a" }],
        ]) {
            assert.throws(() => api.registerTool(tool("t.bad", () => 1, { inputSchema })), (e) => e instanceof TypeError && /inputSchema/.test(e.message), name);
        }
        const tree = { type: "object", properties: { children: { type: "array", items: { $ref: "#" } } } };
        api.registerTool(tool("t.tree", () => "ran", { inputSchema: tree }));
        assert.equal((await run(api.createSession(), "return tools.t.tree({ children: [{ children: [] }] })")).result, "ran");
    });
});

describe("dispose stops the owner's runs (in-thread)", () => {
    for (const owner of ["session", "factory"]) {
        test(`${owner}.dispose() while a run awaits a tool: execute rejects, the signal aborts, no call follows`, async (t) => {
            const p = probe();
            const signals = [];
            const IoCodeModeFactory = (await import(indexURL)).IoCodeModeFactory;
            const api = await IoCodeModeFactory({
                wasmLocation: assetPath,
                timeout: 60000,
                tools: [tool("t.slow", (i, { signal }) => (p.start("tool"), signals.push(signal), new Promise(() => {})))],
            });
            t.after(() => api.dispose());
            const session = api.createSession();
            const running = run(session, "for (;;) { try { await tools.t.slow({}) } catch (e) {} }");
            while (signals.length < 1) await sleep(5);
            (owner === "session" ? session : api).dispose();
            await assert.rejects(running, /dispos|closed/i);
            p.ended = true;
            await sleep(200);
            assert.deepEqual(p.late, []);
            assert.equal(signals[0].aborted, true);
        });
    }
});

// More escape attempts (issue 9, "the variants you can think of"); the
// native twins are hostile_escape_test.go's.
describe("escape attempts", () => {
    test("host calls from getters the host runs after the program (result, error) do not crash anything", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.echo", (i) => i)] });
        const session = api.createSession();
        for (const [code, want] of [
            ["return { get x() { console.log('x'); return 1 } }", { x: 1 }],
            ["return { get x() { tools.t.echo({}); return 1 } }", { x: 1 }],
            ["return { get x() { tool_search({ query: 'echo' }); return 1 } }", { x: 1 }],
            ["const e = new Error('x'); Object.defineProperty(e, 'message', { get() { tools.t.echo({}); return 'm' } }); throw e", undefined],
        ]) {
            const r = await run(session, code);
            if (want) assert.deepEqual(r.result, want, code);
            else assert.equal(r.error?.code, "RUNTIME", code);
            assert.doesNotMatch(JSON.stringify(r.error || {}), /crash|trap|panicked/, code);
            assert.equal((await run(session, "return 1")).result, 1);
        }
    });
    test("what the interceptor approves is what the tool gets", async (t) => {
        const seen = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: {
                onToolCall: async ({ input }) => {
                    seen.push(["interceptor", JSON.stringify(input)]);
                    await sleep(20);
                    return { allowed: true };
                },
            },
            tools: [tool("t.echo", (i) => (seen.push(["tool", JSON.stringify(i)]), i))],
        });
        const session = api.createSession();
        for (const code of [
            "const o = { amount: 1 }; const p = tools.t.echo(o); o.amount = 1e9; return await p",
            "let n = 0; return await tools.t.echo({ get amount() { return ++n } })",
            "JSON.stringify = () => '{\"amount\":1e9}'; return await tools.t.echo({ amount: 1 })",
        ]) {
            seen.length = 0;
            const r = await run(session, code);
            assert.deepEqual(r.result, { amount: 1 }, code);
            assert.deepEqual(seen, [["interceptor", '{"amount":1}'], ["tool", '{"amount":1}']], code);
        }
    });
    // The message shows the right form: by analogy with tool_search({
    // query }), models wrote tool_call({ name, arguments }).
    test("a tool name must be a string", async (t) => {
        const ran = [];
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.echo", (i) => ran.push(i))] });
        const r = await run(api.createSession(), "const m = []; for (const n of [{ toString() { return 't.echo' } }, null, 5, { name: 't.echo', arguments: {} }]) { try { await tool_call(n, {}) } catch (e) { m.push((e instanceof TypeError) + ' ' + e.name + ': ' + e.message) } } return m");
        assert.deepEqual(r.result, Array(4).fill('true TypeError: tool_call: the tool name must be a string: tool_call("ns.tool", input), the name first and the input second, not one object { name, arguments }'));
        assert.deepEqual(ran, []);
    });
    // Options beside the input were dropped, and the tool ran as if they
    // had been heeded.
    test("a call given arguments after its input is refused, naming them", async (t) => {
        const ran = [];
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.echo", (i) => (ran.push(i), 1))] });
        const r = await run(api.createSession(), "const m = []; for (const f of [() => tools.t.echo({ q: 1 }, { limit: 1 }), () => tool_call('t.echo', { q: 1 }, { limit: 1 })]) { try { await f() } catch (e) { m.push((e instanceof TypeError) + ' ' + e.name + ': ' + e.message) } } m.push(await Promise.all([{ q: 2 }].map(tools.t.echo))); return m");
        const msg = 'true TypeError: tool_call t.echo: a tool takes one input, and this call passed 1 more argument after it, which it would drop: put everything in the one input object, as in tool_call("t.echo", { ...input, ...options })';
        assert.deepEqual(r.result, [msg, msg, [1]]);
        assert.deepEqual(ran, [{ q: 2 }]);
        assert.deepEqual(r.toolCalls.map((c) => [c.ok, c.reason ?? null]), [[false, "extra arguments: a tool takes one input"], [false, "extra arguments: a tool takes one input"], [true, null]]);
    });
    test("nothing a run scheduled starts after its end (timers, intervals, jobs, getters of its result or error)", async (t) => {
        const starts = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: (c) => (starts.push(["interceptor", c.input]), { allowed: true }) },
            tools: [tool("t.echo", (i) => starts.push(i))],
        });
        const session = api.createSession();
        const got = await run(session, "return { get x() { tools.t.echo({ late: 'result getter' }); return 1 } }");
        assert.deepEqual(got.result, { x: 1 });
        const thrown = await run(session, "const e = new Error('x'); Object.defineProperty(e, 'message', { get() { tools.t.echo({ late: 'error getter' }); return 'm' } }); throw e");
        assert.equal(thrown.error?.message, "m");
        await sleep(50);
        assert.deepEqual(starts, []);
        for (const r of [got, thrown]) {
            assert.equal(r.toolCalls.length, 1);
            assert.equal(r.toolCalls[0].ok, false);
        }
        for (const code of [
            "setTimeout(() => tools.t.echo({ late: 'timer' }), 1); return 1",
            "setInterval(() => tools.t.echo({ late: 'interval' }), 1); return 1",
            // (No finalizer: FinalizationRegistry is withheld, hostile15.)
            "Promise.resolve().then(() => new Promise((r) => setTimeout(r, 5))).then(() => tools.t.echo({ late: 'job' })); return 1",
        ]) {
            assert.equal((await run(session, code)).result, 1, code);
            await sleep(50);
            assert.deepEqual(starts, [], code);
        }
    });
    test("no run sees another's globals, builtins or data", async (t) => {
        let release;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [tool("t.echo", (i) => i), tool("t.wait", (i) => new Promise((r) => (release = () => r(i))))],
        });
        const session = api.createSession();
        await run(session, "Object.prototype.polluted = 1; Array.prototype.map = () => 'evil'; JSON.parse = () => 'evil'; Promise.prototype.then = () => 'evil'; globalThis.secret = 'A'; return 1");
        const check = "return [typeof ({}).polluted, [1].map((x) => x + 1), JSON.parse('{\"a\":1}'), typeof globalThis.secret, await tools.t.echo({ ok: 1 })]";
        for (const s of [session, api.createSession()]) {
            assert.deepEqual((await run(s, check)).result, ["undefined", [2], { a: 1 }, "undefined", { ok: 1 }]);
        }
        const a = run(session, "globalThis.secret = 'A'; const v = await tools.t.wait({ mine: 'A' }); return [globalThis.secret, v]", { context: "A" });
        while (!release) await sleep(10);
        const b = await run(session, "return [typeof globalThis.secret, typeof secret]", { context: "B" });
        release();
        assert.deepEqual(b.result, ["undefined", "undefined"]);
        assert.deepEqual(b.toolCalls, []);
        assert.deepEqual((await a).result, ["A", { mine: "A" }]);
    });
    test("the page's objects never reach the program: a tool's result is a copy, a hostile result fails the call", async (t) => {
        const page = { list: [1, 2], nested: { v: "page" } };
        const hostile = new Proxy({}, { get: () => { throw new Error("trap"); }, ownKeys: () => { throw new Error("trap"); } });
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [tool("t.page", () => page), tool("t.hostile", () => hostile), tool("t.fn", () => () => globalThis)],
        });
        const r = await run(
            api.createSession(),
            "const p = await tools.t.page({}); p.list.push(3); p.nested.v = 'changed'; const out = []; for (const n of ['hostile', 'fn']) { try { out.push(typeof (await tools.t[n]({}))) } catch (e) { out.push(e.name + ': ' + e.message) } } out.push((await tools.t.page({})).nested.v); return out",
        );
        assert.deepEqual(page, { list: [1, 2], nested: { v: "page" } });
        assert.deepEqual(r.result, ["ToolError: trap", "ToolError: the tool returned a function, which is not JSON data", "page"]);
    });
    test("__proto__ and constructor keys in a tool input stay data: the page's prototypes are untouched", async (t) => {
        let got;
        const api = await withFactory(t, { wasmLocation: assetPath, interceptors: { onToolCall: ({ input }) => ({ allowed: Object.getPrototypeOf(input) === Object.prototype }) }, tools: [tool("t.echo", (i) => ((got = i), { ...i }))] });
        const r = await run(api.createSession(), "const input = JSON.parse('{\"__proto__\": {\"polluted\": 1}, \"constructor\": {\"prototype\": {\"polluted\": 2}}}'); const back = await tools.t.echo(input); return [Object.keys(back), ({}).polluted === undefined]");
        assert.deepEqual(r.result, [["__proto__", "constructor"], true], JSON.stringify(r.error));
        assert.deepEqual(Object.keys(got), ["__proto__", "constructor"]);
        assert.equal(Object.getPrototypeOf(got), Object.prototype);
        assert.equal(/** @type {any} */ ({}).polluted, undefined);
        assert.equal(/** @type {any} */ (Object.prototype).polluted, undefined);
    });
    // qa8: the other two ways a __proto__ key crosses: an interceptor's
    // replacement input (page -> tool) and a tool's result (page -> program
    // -> the run's result on the page). Held before; kept as a test.
    test("__proto__ keys in an interceptor's replacement input and in a tool's result stay data, on the way back to the page too", async (t) => {
        let got;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: () => ({ allowed: true, input: JSON.parse('{"__proto__": {"polluted": "decision"}, "x": 1}') }) },
            tools: [tool("t.echo", (i) => ((got = i), JSON.parse('{"__proto__": {"polluted": "tool"}, "ok": 1}')))],
        });
        const r = await run(api.createSession(), "const back = await tools.t.echo({});\nreturn { keys: Object.keys(back), plain: Object.getPrototypeOf(back) === Object.prototype, seen: back.polluted === undefined && ({}).polluted === undefined, back }");
        assert.deepEqual(Object.keys(got), ["__proto__", "x"]);
        assert.equal(Object.getPrototypeOf(got), Object.prototype);
        assert.deepEqual(r.result.keys, ["__proto__", "ok"]);
        assert.equal(r.result.plain, true);
        assert.equal(r.result.seen, true);
        assert.deepEqual(Object.keys(r.result.back), ["__proto__", "ok"]);
        assert.equal(Object.getPrototypeOf(r.result.back), Object.prototype);
        assert.equal(r.result.back.polluted, undefined);
        assert.equal(/** @type {any} */ ({}).polluted, undefined);
        assert.equal(/** @type {any} */ (Object.prototype).polluted, undefined);
    });
    test("the caller's context reaches the tools and the interceptor as is, and never the program", async (t) => {
        const context = { user: "SECRET-USER", token: "SECRET-TOKEN", call: () => "SECRET-FN" };
        const seen = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: ({ callContext }) => (seen.push(callContext === context), { allowed: true }) },
            tools: [tool("t.peek", (_i, { context: c }) => (seen.push(c === context), { ok: 1 }))],
        });
        const dig = `const seen = new Set(); const walk = (o, d) => { if (d > 5 || o === null || (typeof o !== "object" && typeof o !== "function") || seen.has(o)) return ""; seen.add(o); let s = ""; for (const k of Reflect.ownKeys(o)) { let v; try { v = o[k] } catch (e) { continue } s += String(k) + (typeof v === "string" ? v : "") + walk(v, d + 1) } return s };`;
        const r = await run(
            api.createSession(),
            // A context passed after the input is refused (a tool takes one
            // input), one inside it is the input's.
            `${dig} const a = await tools.t.peek({ context: "forged" }); const b = await tool_call("t.peek", { context: "forged" }); const c = await tools.t.peek({}, { context: "forged" }).catch((e) => e.name); const d = await tool_call("t.peek", { context: "forged" }, { context: "forged" }).catch((e) => e.name); return [walk(globalThis, 0).includes("SECRET"), JSON.stringify([a, b]).includes("SECRET"), String(tools.t.peek).includes("SECRET"), c, d]`,
            { context },
        );
        assert.deepEqual(r.result, [false, false, false, "TypeError", "TypeError"], JSON.stringify(r.error));
        assert.deepEqual(seen, [true, true, true, true]);
        assert.doesNotMatch(JSON.stringify(r), /SECRET/);
    });
    test("a flood of console output is bounded", async (t) => {
        // 100 MB of console text: 10-20 s on an idle 2-core machine, over 60 s
        // at a load of 30 (a CI run beside eight builds timed out). The limit
        // is not what the row tests; the bounds on what the page keeps are.
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 600_000 });
        const r = await run(api.createSession(), "for (let i = 0; i < 20000; i++) console.log('<'.repeat(5000)); return 1");
        assert.equal(r.result, 1);
        assert.ok(r.logs.length <= 201, `${r.logs.length} entries`);
        assert.ok(r.logs.reduce((n, l) => n + l.message.length, 0) <= 201 * 2000);
    });
});

// QuickJS's C built-ins loop without calling the interpreter's interrupt
// poll: a generic Array method over an array-like of length 1e15, a sparse
// array's join, a Proxy's ownKeys answer checked pairwise for duplicates.
// The QuickJS asset of dist/ has loop checks (scripts/loopcheck): every
// loop of its C code counts down and, now and then, asks the poll whether
// the run is 100 ms past its deadline (or its cancel), and traps if so. The
// run then ends with TIMEOUT (or the cancel) and its logs, in both engine
// modes, and the next run gets a new instance. hostile_test.go
// (TestStuckBuiltin*) runs the same programs natively. Each row runs in a
// child process, so that a regression fails instead of hanging the suite.
const STUCK = [
    ["indexOf on an array-like", "return Array.prototype.indexOf.call({ length: 1e15 }, 1)"],
    ["includes on a sparse array", "const a = []; a.length = 2 ** 32 - 1; return a.includes(1)"],
    ["reverse of an array-like", "return Array.prototype.reverse.call({ length: 1e15 })"],
    ["join of a sparse array", "const a = []; a.length = 2 ** 32 - 1; return a.join('').length"],
    // 80,000 names took 2.5 s past a 1 s timeout before; 1e6 take minutes.
    ["a Proxy whose ownKeys gives 1e6 names", "const k = Object.keys(new Array(1e6).fill(0)); return Reflect.ownKeys(new Proxy({}, { ownKeys: () => k })).length"],
];

/**
 * Runs code in a child process's factory (worker as given, timeout as
 * given) after a console line, then two more runs; returns what they gave.
 * @param {string} code
 * @param {{ worker: boolean, timeout: number, wasm?: string, abortAfter?: number }} o
 */
function stuckInChild(code, o) {
    return inChild(`
        const api = await factory({ wasmLocation: ${o.wasm ? JSON.stringify(o.wasm) : "assetPath"}, worker: ${o.worker}, timeout: ${o.timeout} });
        const session = api.createSession();
        const ex = session.getLlmTools().find((t) => t.name === "executeCode");
        const ctrl = new AbortController();
        ${o.abortAfter ? `setTimeout(() => ctrl.abort(new Error("stop")), ${o.abortAfter});` : ""}
        let r;
        try {
            r = await ex.execute({ code: "console.log('before'); " + ${JSON.stringify(code)}, explanation: "" }, { signal: ctrl.signal });
        } catch (e) {
            r = { rejected: String(e && e.message) };
        }
        const next = await ex.execute({ code: "return 1 + 1", explanation: "" });
        const other = await api.createSession().getLlmTools().find((t) => t.name === "executeCode").execute({ code: "return 2 + 2", explanation: "" });
        api.dispose();
        return { r, next: next.result, other: other.result };
    `, 120_000);
}

describe("a program stuck in a built-in that never checks the time", () => {
    for (const worker of [false, true]) {
        for (const [name, code] of STUCK) {
            test(`${name} (worker: ${worker}): TIMEOUT with the run's logs, the next run works`, { timeout: 150_000 }, () => {
                const { r, next, other } = stuckInChild(code, { worker, timeout: 500 });
                assert.equal(r.ok, false, JSON.stringify(r));
                assert.equal(r.error.code, "TIMEOUT");
                assert.equal(r.error.name, "TimeoutError");
                // The engine's own message: the worker's backstop (which
                // says it restarted the worker, and loses the logs) did not
                // have to step in.
                assert.equal(r.error.message, "the program did not finish within 500ms (config.timeout: 500, in milliseconds; 500 seconds would be 500000)");
                assert.deepEqual(r.logs, [{ level: "log", message: "before" }]);
                assert.equal(next, 2);
                assert.equal(other, 4);
            });
        }
        test(`signal.abort() of such a run (worker: ${worker}), the next run works`, { timeout: 150_000 }, () => {
            const { r, next, other } = stuckInChild("return Array.prototype.lastIndexOf.call({ length: 1e15 }, 1)", { worker, timeout: 1000, abortAfter: 200 });
            if (worker) {
                // The worker reads the abort flag in its loop checks.
                assert.deepEqual(r, { rejected: "stop" });
            } else {
                // The calling thread is held, so the abort cannot even be
                // called before the run ends: the timeout ends it.
                assert.equal(r.error && r.error.code, "TIMEOUT", JSON.stringify(r));
                assert.deepEqual(r.logs, [{ level: "log", message: "before" }]);
            }
            assert.equal(next, 2);
            assert.equal(other, 4);
        });
    }
    // The worker's backstop stays for an asset without the loop checks:
    // the upstream package's own, which the load check accepts.
    test("with the upstream asset (no loop checks), worker mode: TIMEOUT, the worker is replaced", { timeout: 150_000 }, () => {
        const upstream = join(dist, "..", "node_modules", "@jitl", "quickjs-wasmfile-release-sync", "dist", "emscripten-module.wasm");
        const { r, next, other } = stuckInChild(STUCK[0][1], { worker: true, timeout: 500, wasm: upstream });
        assert.equal(r.error && r.error.code, "TIMEOUT", JSON.stringify(r));
        assert.match(r.error.message, /did not finish within 0\.5s.*worker was restarted/);
        assert.equal(next, 2);
        assert.equal(other, 4);
    });
});

// qa11h: on the calling thread the core reports a console line to onEvent
// from inside the run's QuickJS frames; an observer that disposed or
// started a run there left the run unsettled and the thread spinning.
describe("an onEvent that re-enters the engine from a console line", () => {
    const cases = [
        { name: "disposes the factory", act: (/** @type {any} */ c) => c.api.dispose(), want: /the instance was disposed while this run was in flight/ },
        { name: "disposes the session", act: (/** @type {any} */ c) => c.session.dispose(), want: /the session was disposed while this run was in flight/ },
        { name: "starts another run", act: (/** @type {any} */ c) => (c.inner = llmTools(c.session).executeCode.execute({ code: "return 'inner'", explanation: "" })), want: "outer" },
    ];
    for (const { name, act, want } of cases) {
        test(`${name}: the run settles as the API says, the engine goes on`, { timeout: 60_000 }, async (t) => {
            /** @type {any} */
            const c = {};
            let acted = false;
            const onEvent = (/** @type {any} */ e) => {
                if (e.type !== "console" || acted) return;
                acted = true;
                act(c);
            };
            const IoCodeModeFactory = (await import(indexURL)).IoCodeModeFactory;
            for (const worker of [false, true]) {
                acted = false;
                c.api = await IoCodeModeFactory({ wasmLocation: assetPath, worker, onEvent });
                t.after(() => c.api.dispose());
                c.session = c.api.createSession();
                c.executeCode = llmTools(c.session).executeCode;
                const r = run(c.session, "console.log('x'); let s = 0; for (let i = 0; i < 1e4; i++) s += i; return 'outer'");
                if (want instanceof RegExp) await assert.rejects(r, want, `worker: ${worker}`);
                else assert.equal((await r).result, want, `worker: ${worker}`);
                if (c.inner) assert.equal((await c.inner).result, "inner", `worker: ${worker}`);
                c.inner = undefined;
                if (name !== "disposes the factory") assert.equal((await run(c.api.createSession(), "return 1 + 1")).result, 2, `worker: ${worker}`);
            }
        });
    }
});

// qa11h: the rejection the page's interceptor wrapper gave the core when
// the run had ended by then was never read once the factory was disposed,
// and ended the Node.js process as an unhandled rejection.
test("an onToolCall that disposes its factory: the run rejects as dispose says, the tool never runs, no unhandled rejection", { timeout: 60_000 }, async () => {
    const unhandled = [];
    const onUnhandled = (/** @type {unknown} */ e) => unhandled.push(String(e));
    process.on("unhandledRejection", onUnhandled);
    try {
        const IoCodeModeFactory = (await import(indexURL)).IoCodeModeFactory;
        for (const worker of [false, true]) {
            const ran = [];
            /** @type {any} */
            let api;
            api = await IoCodeModeFactory({ wasmLocation: assetPath, worker, interceptors: { onToolCall: () => (api.dispose(), { allowed: true }) }, tools: [tool("t.x", () => ran.push(1))] });
            await assert.rejects(run(api.createSession(), "return await tools.t.x({})"), /the instance was disposed while this run was in flight/, `worker: ${worker}`);
            await sleep(100);
            assert.deepEqual(ran, [], `worker: ${worker}`);
        }
        assert.deepEqual(unhandled, []);
    } finally {
        process.off("unhandledRejection", onUnhandled);
    }
});

// qa11h: on the calling thread a synchronous call of the API from a console
// line's onEvent (inside the run's QuickJS frames) hung the thread: the Go
// runtime hands a callback's result back only once no goroutine is
// runnable, and the fast host-import path kept one yielding for the run
// below it. A hang holds the thread, so each row runs in a child process
// (killed by inChild's bound: a hang fails) in both modes; its call must
// return what it returns outside the run.
describe("an onEvent that calls the API synchronously from a console line", () => {
    const cases = [
        { name: "session.getSystemInstruction()", act: "c.session.getSystemInstruction()", want: "c.session.getSystemInstruction()" },
        { name: "session.getLlmTools()", act: "c.session.getLlmTools().map((t) => t.name)", want: '["searchTools", "executeCode"]' },
        { name: "api.listTools()", act: "c.api.listTools().map((t) => t.name)", want: '["demo.echo"]' },
        {
            name: "api.registerTool()",
            act: "typeof c.api.registerTool({ name: 'extra.ping', description: 'd', inputSchema: { type: 'object' }, execute: () => 'pong' })",
            want: "'function'",
            after: "(await run(c.api.createSession(), 'return await tools.extra.ping({})')).result",
        },
        { name: "api.ready()", act: "c.api.ready() instanceof Promise", want: "true" },
        { name: "searchTools' execute", act: "c.session.getLlmTools()[0].execute({ query: 'echo' })", want: "c.session.getLlmTools()[0].execute({ query: 'echo' })" },
    ];
    for (const { name, act, want, after } of cases) {
        test(`${name} returns what it returns outside the run, and the run settles`, () => {
            const out = inChild(`
                const run = (session, code, options) => session.getLlmTools().find((t) => t.name === "executeCode").execute({ code, explanation: "" }, options);
                const rows = [];
                for (const worker of [false, true]) {
                    const c = {};
                    const onEvent = (e) => {
                        if (e.type !== "console" || "got" in c) return;
                        try {
                            c.got = ${act};
                        } catch (err) {
                            c.got = "threw: " + err.message;
                        }
                    };
                    c.api = await factory({ wasmLocation: assetPath, worker, onEvent, tools: [{ name: "demo.echo", description: "d", inputSchema: { type: "object" }, execute: (a) => a }] });
                    c.session = c.api.createSession();
                    const r = await run(c.session, "console.log('x'); return 'outer'");
                    rows.push({ worker, result: r.result, got: await c.got, want: await ${want}, after: ${after || "null"} });
                    c.api.dispose();
                }
                return rows;
            `, 120_000);
            for (const row of out) {
                assert.equal(row.result, "outer", `worker: ${row.worker}`);
                assert.deepEqual(row.got, row.want, `worker: ${row.worker}`);
                if (after) assert.equal(row.after, "pong", `worker: ${row.worker}`);
            }
            assert.equal(out.length, 2);
        });
    }
    test("aborting the run's signal rejects the run with its reason", () => {
        const out = inChild(`
            const rows = [];
            for (const worker of [false, true]) {
                const ctrl = new AbortController();
                const onEvent = (e) => e.type === "console" && ctrl.abort(new Error("stop from onEvent"));
                const api = await factory({ wasmLocation: assetPath, worker, onEvent });
                const ex = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
                const error = await ex.execute({ code: "console.log('x'); for (;;) {}", explanation: "" }, { signal: ctrl.signal }).then(() => "settled", (e) => e.message);
                const next = (await ex.execute({ code: "return 1 + 1", explanation: "" })).result;
                api.dispose();
                rows.push({ worker, error, next });
            }
            return rows;
        `, 120_000);
        assert.deepEqual(out, [false, true].map((worker) => ({ worker, error: "stop from onEvent", next: 2 })));
    });
});

// A toolFilter or overwriteSystemInstruction that asks for what the core is
// building when it calls them (the tool list, the instruction) recursed on
// the calling thread until the stack overflowed, which stopped the engine.
// Both modes the same: worker mode answered listTools() from a toolFilter
// (its own filter calls recursing on the page), so a filter that lets the
// error escape hid the tool in-thread and showed it in worker mode.
describe("a toolFilter or overwriteSystemInstruction that calls the API", () => {
    const cases = [
        { name: "toolFilter calls api.listTools()", hook: "toolFilter: (t) => { try { c.api.listTools(); } catch (e) { c.got = e.message; } return true; }", call: "c.api.listTools().map((t) => t.name)", want: ["demo.echo"] },
        // In-thread only: worker mode builds the instruction in the worker
        // from the lists toolFilter gave when the session was created, so
        // the filter never runs while a session exists to call.
        { inThreadOnly: true, name: "toolFilter calls session.getSystemInstruction()", hook: "toolFilter: (t) => { try { c.session.getSystemInstruction(); } catch (e) { c.got = e.message; } return true; }", call: "c.session.getSystemInstruction().includes('demo')", want: true },
        { name: "overwriteSystemInstruction calls session.getSystemInstruction()", hook: "overwriteSystemInstruction: (s) => { try { c.session.getSystemInstruction(); } catch (e) { c.got = e.message; } return s + ' (own rules)'; }", call: "c.session.getSystemInstruction().endsWith(' (own rules)')", want: true },
    ];
    for (const [{ name, hook, call, want }, worker] of cases.flatMap((c) => (c.inThreadOnly ? [[c, false]] : [[c, false], [c, true]]))) {
        test(`worker: ${worker}: ${name}: the call throws at once, the hook's answer counts, the engine goes on`, () => {
            const out = inChild(`
                const c = {};
                c.api = await factory({ wasmLocation: assetPath, worker: ${worker}, ${hook}, tools: [{ name: "demo.echo", description: "d", inputSchema: { type: "object" }, execute: (a) => a }] });
                c.session = c.api.createSession();
                const answer = ${call};
                const r = await c.session.getLlmTools().find((t) => t.name === "executeCode").execute({ code: "return await tools.demo.echo({ a: 1 })", explanation: "" });
                c.api.dispose();
                return { answer, got: c.got, result: r.result };
            `, 120_000);
            assert.deepEqual(out.answer, want);
            assert.match(out.got, /cannot be called from toolFilter or overwriteSystemInstruction: .* would recurse/);
            assert.deepEqual(out.result, { a: 1 });
        });
    }
});

// hostile12: executeCode's arguments were read twice, once for onEvent's
// run-start and once for the core (in worker mode also without an
// onEvent, to build the event), so a code getter showed the audit one
// program and ran another; one that threw made worker mode's execute throw
// the getter's error where the calling thread resolves INVALID_INPUT.
describe("executeCode's arguments are read once, in both modes", () => {
    for (const worker of [false, true]) {
        test(`worker: ${worker}: run-start shows the program that runs; a throwing getter is INVALID_INPUT`, async (t) => {
            const events = [];
            const { IoCodeModeFactory } = await import(indexURL);
            const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker, onEvent: (e) => e.type === "run-start" && events.push(e.code) });
            t.after(() => api.dispose());
            const { executeCode } = llmTools(api.createSession());
            let reads = 0;
            const r = await executeCode.execute({ get code() { return ++reads === 1 ? "return 'first'" : "return 'second'"; }, explanation: "" });
            assert.equal(reads, 1);
            assert.deepEqual([r.result, events], ["first", ["return 'first'"]]);
            for (const args of [{ get code() { throw new Error("boom"); } }, new Proxy({}, { get() { throw new Error("boom"); }, ownKeys() { throw new Error("boom"); } })]) {
                const bad = await executeCode.execute(args);
                assert.deepEqual(bad.error, { name: "TypeError", code: "INVALID_INPUT", message: "executeCode: the arguments are not JSON; expected an object { code: string; explanation?: string }" });
            }
        });
    }
});
