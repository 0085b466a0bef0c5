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
