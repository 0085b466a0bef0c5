// @mode-independent: compares worker: false with worker: true itself.
// The same program with the same page values gives the same run in both
// engine modes: each case runs on the calling thread (worker: false) and in
// a worker (worker: true), and what the program, the tools and the records
// saw must be equal (durations aside). What the calling thread gives is
// the reference: worker mode is the one that has to carry page values
// across postMessage.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, indexURL, llmTools, tool } from "./helpers.mjs";

class Money {
    constructor(/** @type {number} */ cents) {
        this.cents = cents;
    }
    toJSON() {
        return `$${(this.cents / 100).toFixed(2)}`;
    }
}

/**
 * Runs code once in each mode with the config make() gives, and returns
 * what each run gave, without durations, beside what the tools received.
 * @param {() => any} make
 * @param {string} code
 */
async function inBothModes(make, code) {
    const { IoCodeModeFactory } = await import(indexURL);
    const out = [];
    for (const worker of [false, true]) {
        const { config, ran } = make();
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker, ...config });
        try {
            const r = await llmTools(api.createSession()).executeCode.execute({ code, explanation: "" });
            delete r.durationMs;
            for (const c of r.toolCalls || []) delete c.durationMs;
            out.push({ r, ran });
        } finally {
            api.dispose();
        }
    }
    return out;
}

// onToolCall's decisions that postMessage cannot clone as they are: worker
// mode denied each with "onToolCall returned a value that is not JSON
// data: ... could not be cloned", ran the tool with what the clone kept of
// a class (its toJSON lost), or read a Proxy's traps and a getter in
// another order, where the calling thread's core reads the decision itself.
const decisions = [
    ["a replacement holding a method", () => ({ allowed: true, input: { to: "shop", f() {} } })],
    ["a replacement that is a function", () => ({ allowed: true, input: () => ({ to: "shop" }) })],
    ["a replacement holding a Symbol", () => ({ allowed: true, input: { to: Symbol("shop") } })],
    ["a replacement holding NaN", () => ({ allowed: true, input: { to: "shop", n: NaN } })],
    ["a replacement holding a BigInt", () => ({ allowed: true, input: { to: "shop", n: 1n } })],
    ["a method before a cycle (not read past the method)", () => {
        const o = { f() {}, to: "shop" };
        /** @type {any} */ (o).self = { o };
        return { allowed: true, input: o };
    }],
    ["a replacement with a cycle", () => {
        /** @type {any} */
        const o = { to: "shop" };
        o.self = o;
        return { allowed: true, input: o };
    }],
    ["a replacement with a class's toJSON", () => ({ allowed: true, input: { to: "shop", total: new Money(1250) } })],
    ["a replacement that is a Proxy", () => ({ allowed: true, input: new Proxy({ to: "shop" }, {}) })],
    ["a replacement whose getter throws", () => ({ allowed: true, input: { get to() { throw new Error("no to today"); } } })],
    ["a replacement whose getter throws a string", () => ({ allowed: true, input: { get to() { throw "plain"; } } })],
    ["a replacement whose toJSON gives nothing", () => ({ allowed: true, input: { toJSON() {} } })],
    ["a replacement holding a function after a long array", () => {
        const list = [];
        list.length = 2 ** 32 - 1;
        return { allowed: true, input: { list, f() {} } };
    }],
    ["a replacement holding a Date and a Map", () => ({ allowed: true, input: { to: "shop", at: new Date(0), m: new Map([["a", 1]]) } })],
    ["a replacement with a string like a marker", () => ({ allowed: true, input: { to: "\u0000code-mode:x:function:" } })],
    ["a reason that is a function", () => ({ allowed: false, reason: () => "no" })],
    ["a reason that is an object holding a function", () => ({ allowed: false, reason: { why() {} } })],
    ["an unknown key holding a function", () => ({ allowed: true, check() {} })],
    ["allowed as a function", () => ({ allowed: () => true })],
    ["a decision that is a function", () => () => ({ allowed: true })],
    ["a decision that is a Symbol", () => Symbol("yes")],
    ["a decision that is an array holding a function", () => [() => ({ allowed: true })]],
];

for (const [name, decide] of decisions) {
    test(`onToolCall: ${name}: the same in both modes`, async () => {
        const [thread, worker] = await inBothModes(() => {
            const ran = [];
            return {
                ran,
                config: {
                    interceptors: { onToolCall: decide },
                    tools: [tool("pay.send", (/** @type {any} */ input) => (ran.push(input), "sent"))],
                },
            };
        }, "try { return await tools.pay.send({ to: 'attacker' }) } catch (e) { return 'denied: ' + e.message }");
        assert.doesNotMatch(JSON.stringify(worker), /could not be cloned|DataCloneError/);
        assert.deepEqual(worker, thread);
    });
}

test("a SharedArrayBuffer a tool returns converts to its bytes, as an ArrayBuffer does, in both modes", async () => {
    const [thread, worker] = await inBothModes(
        () => ({
            ran: [],
            config: {
                tools: [tool("t.get", () => {
                    const s = new SharedArrayBuffer(3);
                    new Uint8Array(s).set([7, 0, 255]);
                    return { s, u: new Uint8Array(s, 1), d: new DataView(s, 2) };
                })],
            },
        }),
        "const s = new SharedArrayBuffer(2); new Uint8Array(s)[1] = 9; return { tool: await tools.t.get({}), own: s }",
    );
    assert.deepEqual(worker, thread);
    assert.deepEqual(thread.r.result, { tool: { s: [7, 0, 255], u: [0, 255], d: [255] }, own: [0, 9] });
    assert.deepEqual(thread.r.logs.map((/** @type {any} */ l) => l.message), [
        "tools.t.get result.s: a SharedArrayBuffer, converted to an array of its bytes",
        "tools.t.get result.u: a typed array, converted to an array",
        "tools.t.get result.d: a DataView, converted to an array of its bytes",
        "result.own: a SharedArrayBuffer, converted to an array of its bytes",
    ]);
});

// Runs that end while a page call is in flight: what the run gives, what
// the tool's signal says, the events, and whether the engine goes on. Each
// factory makes one run first: in-thread the first run also makes the
// first sandbox instance, which a worker does before it is ready.
/**
 * @param {(worker: boolean, IoCodeModeFactory: any) => Promise<any>} scenario
 */
async function sameInBothModes(scenario) {
    const { IoCodeModeFactory } = await import(indexURL);
    const [thread, worker] = [await scenario(false, IoCodeModeFactory), await scenario(true, IoCodeModeFactory)];
    assert.deepEqual(worker, thread);
    return thread;
}

/** What a run gave, without durations and run ids. @param {any} v */
const plain = (v) => JSON.parse(JSON.stringify(v, (k, x) => (k === "durationMs" || k === "runId" ? undefined : x)));

/** A factory after one run, its executeCode, and a run function that reports a rejection. @param {any} IoCodeModeFactory @param {any} config */
async function warmed(IoCodeModeFactory, config) {
    const api = await IoCodeModeFactory({ wasmLocation: assetPath, ...config });
    const session = api.createSession();
    const { executeCode } = llmTools(session);
    await executeCode.execute({ code: "return 0", explanation: "" });
    const run = (/** @type {string} */ code, /** @type {any} */ options) =>
        executeCode.execute({ code, explanation: "" }, options).then(plain, (/** @type {any} */ e) => ({ rejected: `${e.name}: ${e.message}` }));
    return { api, session, run };
}

test("a tool that never settles: TIMEOUT, the tool's signal says why, the events close the call, in both modes", async () => {
    const seen = await sameInBothModes(async (worker, IoCodeModeFactory) => {
        const reasons = [];
        const { api, run } = await warmed(IoCodeModeFactory, {
            worker,
            timeout: 2000,
            tools: [tool("t.hang", (/** @type {any} */ _, /** @type {any} */ { signal }) => new Promise(() => signal.addEventListener("abort", () => reasons.push(`${signal.reason.name}: ${signal.reason.message}`))))],
        });
        const events = [];
        const r = await run("console.log('a'); return await tools.t.hang({})", { onEvent: (/** @type {any} */ e) => events.push(e.type) });
        const next = await run("return 2");
        api.dispose();
        return { r, reasons, events, next: next.result };
    });
    assert.equal(seen.r.error.code, "TIMEOUT");
    assert.deepEqual(seen.reasons, ["TimeoutError: the run timed out before the tool finished"]);
    assert.deepEqual(seen.events, ["run-start", "console", "tool-call", "tool-result", "run-end"]);
});

test("onToolCall that answers after the run timed out: the tool never runs, the next run works, in both modes", async () => {
    await sameInBothModes(async (worker, IoCodeModeFactory) => {
        const ran = [];
        /** @type {() => void} */
        let allow = () => {};
        let asked = false;
        const { api, run } = await warmed(IoCodeModeFactory, {
            worker,
            timeout: 1000,
            // The first call's answer comes after the run's end; the next run's at once.
            interceptors: { onToolCall: () => (asked ? { allowed: true } : ((asked = true), new Promise((res) => (allow = () => res({ allowed: true }))))) },
            tools: [tool("t.x", () => (ran.push(1), "ran"))],
        });
        const r = await run("return await tools.t.x({})");
        allow();
        const next = await run("return await tools.t.x({})");
        api.dispose();
        return { r, ran, next: next.result };
    });
});

for (const what of ["factory", "session"]) {
    test(`the ${what} disposed while a tool call is in flight: execute rejects, the tool's signal aborts, in both modes`, async () => {
        const seen = await sameInBothModes(async (worker, IoCodeModeFactory) => {
            const reasons = [];
            /** @type {any} */
            let target;
            const { api, session, run } = await warmed(IoCodeModeFactory, {
                worker,
                tools: [tool("t.d", (/** @type {any} */ _, /** @type {any} */ { signal }) => new Promise(() => {
                    signal.addEventListener("abort", () => reasons.push(`${signal.reason.name}: ${signal.reason.message}`));
                    setTimeout(() => target.dispose(), 0);
                }))],
            });
            target = what === "factory" ? api : session;
            const r = await run("return await tools.t.d({})");
            const after = what === "factory" ? await run("return 1") : plain(await llmTools(api.createSession()).executeCode.execute({ code: "return 5", explanation: "" })).result;
            api.dispose();
            return { r, reasons, after };
        });
        assert.match(seen.r.rejected, /^AbortError: Code Mode: the (instance|session) was disposed while this run was in flight/);
        assert.deepEqual(seen.reasons, [seen.r.rejected]);
    });
}
