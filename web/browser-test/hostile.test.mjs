// Hostile page set-ups in Chromium (hostile13), in a Worker (the browser
// default) and, with CODE_MODE_WORKER=0, on the page's thread: a page tool
// or onToolCall returning a thenable that resolves with itself (awaited,
// its then() jobs never end and the page freezes), and a page whose
// Object.prototype.then was set by a dependency (every object a thenable).
// The page must stay live and the library must say what is wrong.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CHROMIUM, IN_THREAD, usePage } from "./harness.mjs";

// Each helper answers with strings and numbers only: with
// Object.prototype.then set, an object the page's evaluate returned would
// itself be a thenable.
const PAGE = `<!doctype html><meta charset="utf-8"><title>hostile</title><script>
const CALL = "try { return await tools.t.x({}) } catch (e) { return e.name + ': ' + e.message }";
const make = async (worker, extra) => {
    const { IoCodeModeFactory } = await import("/dist/index.mjs");
    return IoCodeModeFactory({ wasmLocation: "/dist/emscripten-module.wasm", worker, timeout: 60000, ...extra });
};
const exe = (api) => api.createSession().getLlmTools().find((t) => t.name === "executeCode");
// Whether a timer of the page fires within 5 s of being set, once the run is over.
const live = () => new Promise((r) => { setTimeout(() => r("live"), 10); });
window.__selfThenable = async (worker, where) => {
    const self = () => { const t = { then(r) { r(t); } }; return t; };
    let ran = 0;
    const api = await make(worker, where === "tool"
        ? { tools: [{ name: "t.x", description: "d", execute: self }] }
        : { interceptors: { onToolCall: self }, tools: [{ name: "t.x", description: "d", execute: () => ++ran }] });
    try {
        const r = await exe(api).execute({ code: CALL, explanation: "" });
        const next = await exe(api).execute({ code: "return 2", explanation: "" });
        return JSON.stringify([r.result, await live(), next.result, ran]);
    } finally {
        api.dispose();
    }
};
window.__thenPolluted = async (worker) => {
    const out = [];
    Object.prototype.then = function (r) { r(this); };
    try { await make(worker, {}); out.push("created"); } catch (e) { out.push(e.message); }
    delete Object.prototype.then;
    const api = await make(worker, { tools: [{ name: "t.x", description: "d", execute: () => "ran" }] });
    Object.prototype.then = function (r) { r("THEN"); };
    try { await exe(api).execute({ code: CALL, explanation: "" }); out.push("ran"); } catch (e) { out.push(e.message); }
    delete Object.prototype.then;
    const r = await exe(api).execute({ code: CALL, explanation: "" });
    out.push(r.result);
    api.dispose();
    return JSON.stringify(out);
};
// A typed array made while its buffer is detached (the new.target's
// prototype getter): QuickJS kept the old length, a view of its memory.
window.__bufferView = async (worker) => {
    const api = await make(worker, {});
    try {
        const r = await exe(api).execute({ code: "const ab = new ArrayBuffer(4096); const nt = function () {}.bind(); Object.defineProperty(nt, 'prototype', { get() { try { ab.transfer() } catch (e) { structuredClone(0, { transfer: [ab] }) } return Uint8Array.prototype } }); const u = Reflect.construct(Uint8Array, [ab, 0, 4096], nt); let sum = 0; for (let i = 0; i < u.length; i++) sum += u[i]; return [u.length, ab.byteLength, sum]", explanation: "" });
        return JSON.stringify(r.ok ? r.result : r.error.message);
    } finally {
        api.dispose();
    }
};
// toReversed, toSorted, toSpliced and with of a Proxy whose trap makes the
// garbage collector run: QuickJS counted the result's elements before
// reading them, and the collector followed the words a freed buffer left
// there (pointers out of memory).
window.__copyUnread = async (worker) => {
    const api = await make(worker, {});
    const exec = exe(api);
    const out = [];
    try {
        for (const call of ["toReversed.call(p)", "toSorted.call(p)", "toSpliced.call(p, 0, 0)", "with.call(p, 1, 1)"]) {
            const r = await exec.execute({ code: "const N = 4096; for (let k = 0; k < 20; k++) { const u = new Uint32Array(N * 2); for (let i = 0; i < u.length; i += 2) { u[i] = 0xFFFFFFF0; u[i + 1] = 0xFFFFFFFF; } } let fired = 0; const p = new Proxy([], { has() { return true }, get(t, k) { if (k === 'length') return N; if (!fired) { fired = 1; const junk = []; for (let i = 0; i < 100000; i++) junk.push({ i }); } return 1; } }); const r = Array.prototype." + call + "; return [r.length, r[0], fired].join()", explanation: "" });
            out.push(r.ok ? r.result : r.error.message);
        }
        return JSON.stringify(out);
    } finally {
        api.dispose();
    }
};
// A Proxy whose ownKeys returns an array-like of 2^29 + 1 keys: QuickJS's
// table of them was 8 bytes (8 times the count in 32 bits).
window.__proxyKeys = async (worker) => {
    const api = await make(worker, {});
    try {
        const r = await exe(api).execute({ code: "const keys = new Proxy({}, { get(t, k) { if (k === 'length') return 0x20000001; const i = Number(k); if (i < 64) return 'k' + i; throw new Error('stop') } }); try { return Object.keys(new Proxy({}, { ownKeys() { return keys } })).length } catch (e) { return e.name }", explanation: "" });
        return JSON.stringify(r.ok ? r.result : r.error.message);
    } finally {
        api.dispose();
    }
};
</script>`;

const held = usePage(PAGE);

const mode = IN_THREAD ? "on the page's thread" : "in a Worker";
const THENABLE = /thenable that resolved with a thenable 32 times over \(one whose then resolves with itself\?\)/;

for (const where of ["tool", "onToolCall"]) {
    test(`${mode} (${CHROMIUM}): ${where === "tool" ? "a tool" : "an onToolCall"} returning a self-resolving thenable fails the call saying so; the page lives`, { timeout: 120_000 }, async () => {
        const [r, live, next, ran] = JSON.parse(await held.page.evaluate(([w, x]) => window.__selfThenable(w, x), [!IN_THREAD, where]));
        assert.match(r, where === "tool" ? /^ToolError: the tool's value is a / : /denied.*onToolCall's answer is a /);
        assert.match(r, THENABLE);
        assert.deepEqual([live, next, ran], ["live", 2, 0]);
        assert.deepEqual(held.problems, []);
    });
}

test(`${mode} (${CHROMIUM}): Object.prototype.then set by the page: the factory and a run reject saying so, and runs work once it is gone`, { timeout: 120_000 }, async () => {
    const [factory, run, after] = JSON.parse(await held.page.evaluate((w) => window.__thenPolluted(w), !IN_THREAD));
    assert.match(factory, /^Code Mode cannot run on this page: Object\.prototype\.then is a function \(a polluted prototype\)/);
    assert.match(run, /^Code Mode cannot run on this page: Object\.prototype\.then is a function/);
    assert.equal(after, "ran");
    assert.deepEqual(held.problems, []);
});

test(`${mode} (${CHROMIUM}): a buffer detached under a typed array's constructor: the sandbox detaches nothing, the view stays inside its buffer`, { timeout: 120_000 }, async () => {
    assert.deepEqual(JSON.parse(await held.page.evaluate((w) => window.__bufferView(w), !IN_THREAD)), [4096, 4096, 0]);
    assert.deepEqual(held.problems, []);
});

test(`${mode} (${CHROMIUM}): toReversed, toSorted, toSpliced and with of a Proxy whose trap runs the garbage collector: the collector never reads an element not yet written`, { timeout: 120_000 }, async () => {
    assert.deepEqual(JSON.parse(await held.page.evaluate((w) => window.__copyUnread(w), !IN_THREAD)), ["4096,1,1", "4096,1,1", "4096,1,1", "4096,1,1"]);
    assert.deepEqual(held.problems, []);
});

test(`${mode} (${CHROMIUM}): a Proxy whose ownKeys returns an array-like of 2^29 + 1 keys: a RangeError, nothing written past QuickJS's table`, { timeout: 120_000 }, async () => {
    assert.equal(JSON.parse(await held.page.evaluate((w) => window.__proxyKeys(w), !IN_THREAD)), "RangeError");
    assert.deepEqual(held.problems, []);
});
