// Hostile programs in Chromium (hostile15), in a Worker (the browser
// default) and, with CODE_MODE_WORKER=0, on the page's thread: the host is
// V8 and the page's own structured clone, so what crosses between the page,
// the worker and the sandbox is checked here as in web/test/hostile15.test.mjs
// under Node: values JSON bends, errors of page tools, built-ins that fail
// at the memory limit, a tool result that pushes memory over it, jobs that
// queue themselves for ever. The page must stay live and every run end as
// the API says.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CHROMIUM, IN_THREAD, usePage } from "./harness.mjs";

const PAGE = `<!doctype html><meta charset="utf-8"><title>hostile15</title><script>
window.__hostile15 = async (worker) => {
    const { IoCodeModeFactory } = await import("/dist/index.mjs");
    const got = [];
    const api = await IoCodeModeFactory({
        wasmLocation: "/dist/emscripten-module.wasm", worker, timeout: 60000, memoryLimit: 32,
        tools: [
            { name: "t.echo", description: "d", execute: (i) => (got.push(i), i) },
            { name: "t.weird", description: "d", execute: () => ({ nz: -0, nan: NaN, holes: [1, , 3], lone: "a\\uD800b", low: "\\uDC00", big: 10n, fn: () => 1, get g() { return "G"; } }) },
            { name: "t.fail", description: "d", execute: () => { const e = new Error("failed", { cause: new Error("CAUSE-SECRET") }); e.secret = "PROP-SECRET"; throw e; } },
            { name: "t.big", description: "d", execute: ({ n }) => "y".repeat(n) },
        ],
    });
    const exe = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
    const run = async (code) => {
        const r = await exe.execute({ code, explanation: "" });
        return r.ok ? { result: r.result, logs: r.logs.map((l) => l.message) } : { code: r.error.code, message: r.error.message };
    };
    const live = () => new Promise((r) => setTimeout(() => r("live"), 10));
    try {
        const out = {};
        out.input = await run("const holes = [1]; holes[3] = 4; await tools.t.echo({ nz: -0, nan: NaN, holes, lone: 'a\\\\uD800b', low: '\\\\uDC00', s: Symbol('k'), [Symbol('x')]: 1, ['__proto__']: { own: 1 } }); return 1");
        out.received = JSON.stringify(got);
        out.output = await run("const w = await tools.t.weird({}); return [Object.is(w.nz, -0), w.nan, w.holes, w.lone.charCodeAt(1), w.low.charCodeAt(0), w.big, 'fn' in w, w.g, w.lone]");
        out.fail = await run("try { await tools.t.fail({}) } catch (e) { return [e.name, e.message, 'cause' in e, 'secret' in e, Object.getOwnPropertyNames(e).sort()] }");
        out.normalize = await run("return '\\\\uFDFA'.repeat(1e6).normalize('NFKD').length");
        out.afterNormalize = await run("return 'ok'");
        out.pushedOver = await run("const keep = []; try { for (;;) keep.push('x'.repeat(1e6) + keep.length) } catch (e) {} keep.length -= 2; const big = await tools.t.big({ n: 2e7 }); return [keep.length, big.length]");
        out.jobs = await (async () => {
            const slow = await IoCodeModeFactory({ wasmLocation: "/dist/emscripten-module.wasm", worker, timeout: 1000 });
            try {
                const e = slow.createSession().getLlmTools().find((t) => t.name === "executeCode");
                const r = await e.execute({ code: "function f() { Promise.resolve().then(f) } f(); await new Promise((r) => setTimeout(r, 10)); return 'never'", explanation: "" });
                return [r.error && r.error.code, await live()];
            } finally { slow.dispose(); }
        })();
        out.last = await run("return (await tools.t.big({ n: 5 })).length");
        return JSON.stringify(out);
    } finally {
        api.dispose();
    }
};
</script>`;

const held = usePage(PAGE);
const mode = IN_THREAD ? "on the page's thread" : "in a Worker";

test(`${mode} (${CHROMIUM}): values JSON bends, a page tool's error, normalize at the memory limit, a tool result past it, self-queueing jobs: each as the API says, the page lives`, { timeout: 240_000 }, async () => {
    const out = JSON.parse(await held.page.evaluate((w) => window.__hostile15(w), !IN_THREAD));
    assert.deepEqual(out.input.result, 1, JSON.stringify(out.input));
    assert.equal(out.received, '[{"nz":0,"nan":"NaN","holes":[1,null,null,4],"lone":"a\\ud800b","low":"\\udc00","s":"Symbol(k)","__proto__":{"own":1}}]');
    assert.deepEqual(out.output.result, [false, "NaN", [1, null, 3], 0xd800, 0xdc00, "10", false, "G", "a\uD800b"], JSON.stringify(out.output));
    assert.deepEqual(out.fail.result, ["ToolError", "failed", false, false, ["message", "name", "stack"]], JSON.stringify(out.fail));
    assert.deepEqual(out.normalize, { code: "MEMORY_LIMIT", message: "out of memory (the run's memory limit is 32 MB: hold less data at once, e.g. work through it in parts and keep only what the result needs)" });
    assert.equal(out.afterNormalize.result, "ok");
    assert.equal(out.pushedOver.code, "MEMORY_LIMIT", JSON.stringify(out.pushedOver));
    assert.deepEqual(out.jobs, ["TIMEOUT", "live"]);
    assert.equal(out.last.result, 5);
    assert.deepEqual(held.problems, []);
});
