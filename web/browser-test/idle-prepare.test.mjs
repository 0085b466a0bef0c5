// In-thread mode on a page: the factory's first QuickJS instance is made
// (codemode.Prepare, ~20-50 ms of the page's thread) in an idle callback of
// the page's requestIdleCallback, with a timeout so that it happens, not
// from a timer at a moment the page did not choose; dispose() cancels it.
// The page wraps requestIdleCallback and cancelIdleCallback before it
// imports the package, and counts the QuickJS instances' memories (the Go
// core makes them with the WebAssembly.Memory constructor) made inside
// and outside its idle callbacks. Counted, not timed. Both factories are
// worker: false, whatever mode the suite runs in (worker mode prepares in
// its worker).
import { test } from "node:test";
import assert from "node:assert/strict";
import { usePage } from "./harness.mjs";

const PAGE = `<!doctype html><meta charset="utf-8"><title>idle</title>
<script>
window.__idle = { asked: [], cancelled: [], ran: 0, inIdle: false, memories: { idle: 0, other: 0 } };
const idle = window.__idle;
const request = window.requestIdleCallback, cancel = window.cancelIdleCallback;
window.requestIdleCallback = function (fn, options) {
    const id = request.call(window, (deadline) => {
        idle.inIdle = true;
        try { return fn(deadline); } finally { idle.inIdle = false; idle.ran++; }
    }, options);
    idle.asked.push({ id, timeout: options && options.timeout });
    return id;
};
window.cancelIdleCallback = function (id) { idle.cancelled.push(id); return cancel.call(window, id); };
WebAssembly.Memory = new Proxy(WebAssembly.Memory, {
    construct(target, args, newTarget) {
        idle.memories[idle.inIdle ? "idle" : "other"]++;
        return Reflect.construct(target, args, newTarget);
    },
});
// Resolves once the page's idle callbacks asked for so far have run: a
// callback of its own, asked for after them, without a timeout.
const idleNow = () => new Promise((r) => request.call(window, () => r()));
const config = () => ({ wasmLocation: "/dist/emscripten-module.wasm", worker: false, tools: [{ name: "add", execute: ({ a, b }) => a + b }] });
const exec = (api) => api.createSession().getLlmTools()[1].execute({ code: "return await tools.add({ a: 2, b: 40 })", explanation: "x" });
window.__prepared = async () => {
    const mod = await import("/dist/index.mjs");
    const asked = idle.asked.length;
    const api = await mod.IoCodeModeFactory(config());
    const factoryAsked = idle.asked.slice(asked);
    const atFactory = { ...idle.memories };
    await idleNow();
    const atIdle = { ...idle.memories };
    const r = await exec(api);
    const atRun = { ...idle.memories };
    api.dispose();
    return { factoryAsked, atFactory, atIdle, atRun, result: r.result, error: r.error };
};
window.__runFirst = async () => {
    const { IoCodeModeFactory } = await import("/dist/index.mjs");
    const api = await IoCodeModeFactory(config());
    const before = { ...idle.memories };
    const r = await exec(api);
    const atRun = { ...idle.memories };
    await idleNow();
    const atIdle = { ...idle.memories };
    api.dispose();
    return { before, atRun, atIdle, result: r.result, error: r.error };
};
window.__disposedAtOnce = async () => {
    const { IoCodeModeFactory } = await import("/dist/index.mjs");
    const asked = idle.asked.length, cancelled = idle.cancelled.length;
    const api = await IoCodeModeFactory(config());
    const ids = idle.asked.slice(asked).map((a) => a.id);
    const before = { ...idle.memories };
    api.dispose();
    await idleNow();
    return { ids, cancelled: idle.cancelled.slice(cancelled), before, after: { ...idle.memories } };
};
window.__ready = true;
</script>`;

const held = usePage(PAGE);

test("in-thread: the first instance is prepared in an idle callback (with a timeout), and the first run makes none", { timeout: 120_000 }, async () => {
    const out = await held.page.evaluate(() => window.__prepared());
    assert.equal(out.result, 42, JSON.stringify(out));
    assert.equal(out.factoryAsked.length, 1, JSON.stringify(out));
    assert.ok(out.factoryAsked[0].timeout > 0, `a timeout, so that it happens on a busy page: ${JSON.stringify(out)}`);
    assert.equal(out.atIdle.other, out.atFactory.other, `nothing outside the idle callback: ${JSON.stringify(out)}`);
    assert.equal(out.atIdle.idle, out.atFactory.idle + 1, `one instance, in the idle callback: ${JSON.stringify(out)}`);
    assert.deepEqual(out.atRun, out.atIdle, `the first run made no instance: ${JSON.stringify(out)}`);
    assert.deepEqual(held.problems, []);
});

test("in-thread: a run that comes before the idle callback makes its instance itself, and the callback makes none", { timeout: 120_000 }, async () => {
    const out = await held.page.evaluate(() => window.__runFirst());
    assert.equal(out.result, 42, JSON.stringify(out));
    assert.equal(out.atRun.other, out.before.other + 1, `the run made its instance: ${JSON.stringify(out)}`);
    assert.deepEqual(out.atIdle, out.atRun, `the idle callback made none: ${JSON.stringify(out)}`);
    assert.deepEqual(held.problems, []);
});

test("in-thread: dispose() cancels the idle callback; no instance is made", { timeout: 120_000 }, async () => {
    const out = await held.page.evaluate(() => window.__disposedAtOnce());
    assert.equal(out.ids.length, 1, JSON.stringify(out));
    assert.deepEqual(out.cancelled, out.ids, JSON.stringify(out));
    assert.deepEqual(out.after, out.before, JSON.stringify(out));
    assert.deepEqual(held.problems, []);
});
