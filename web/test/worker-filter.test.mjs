// @mode-independent: compares worker: false with worker: true itself.
// How often toolFilter is asked, and what it decides, when tools are
// registered one by one. In worker mode the page asks it and tells the
// worker the verdicts (worker-host.mjs): it asked about every registered
// tool on each registerTool, so an app registering 4,000 tools one by one
// made 8,002,000 filter calls; now each registration asks about its own
// tools, and runs (and sessions) re-ask about every tool, as the calling
// thread's core does. What the model is shown must not differ by mode.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { assetPath, dist, indexURL, llmTools, run, tool } from "./helpers.mjs";

const { IoCodeModeFactory } = await import(indexURL);
const N = 40;

// Hides tools whose name ends in 7 and those annotated hidden.
function counting() {
    const f = { calls: 0, filter: (/** @type {any} */ t) => (f.calls++, !t.name.endsWith("7") && !(t.annotations && t.annotations.hidden)) };
    return f;
}

const CALLS = `const out = [];
    for (const n of ["x5", "x7", "x17", "x39", "again"]) {
        try { out.push(await tool_call("t." + n, {})); } catch (e) { out.push(e.message); }
    }
    return out;`;

const shown = Array.from({ length: N }, (_, i) => `t.x${i}`).filter((n) => !n.endsWith("7")).sort();

/** N tools one by one, and a name shown, unregistered, then registered again hidden. */
function registerAll(/** @type {any} */ api) {
    for (let i = 0; i < N; i++) api.registerTool(tool(`t.x${i}`, () => `x${i}`));
    api.registerTool(tool("t.again", () => "shown"))();
    api.registerTool(tool("t.again", () => "hidden", { annotations: { hidden: true } }));
}

/** What the model is shown and what its calls reach: the filter's verdicts. */
async function assertVerdicts(/** @type {any} */ api, /** @type {any} */ session) {
    assert.match(session.getSystemInstruction(), new RegExp(`Available tools \\(${shown.length}\\)[^]*- t \\(${shown.length}\\)`), "the instruction counts the tools the filter shows");
    const hits = await llmTools(session).searchTools.execute({ query: "", namespace: "t", limit: 100 });
    assert.deepEqual(hits.map((/** @type {any} */ h) => h.name).sort(), shown);
    assert.deepEqual(api.listTools().map((/** @type {any} */ t) => t.name), shown);
    const r = await run(session, CALLS);
    assert.equal(r.ok, true, JSON.stringify(r));
    const called = ["x5", "x7", "x17", "x39", "again"];
    assert.deepEqual(
        r.result.map((/** @type {string} */ v, /** @type {number} */ i) => (v.startsWith(`unknown tool "t.${called[i]}"`) ? "hidden" : v)),
        ["x5", "hidden", "hidden", "x39", "hidden"],
    );
}

for (const worker of [false, true]) {
    test(`registerTool one by one (worker: ${worker}): the filter is asked about each new tool at most once, and its verdicts hold`, async () => {
        const f = counting();
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker, toolFilter: f.filter });
        try {
            // A session made before the registrations: its instruction is
            // brought up to date by them alone, not by a run.
            const session = api.createSession();
            await api.ready();
            f.calls = 0;
            registerAll(api);
            await api.ready();
            // In-thread the core asks only when it lists tools; in worker
            // mode the page asks about each new tool as it sends it (it
            // asked about every registered tool each time: 902 calls).
            assert.equal(f.calls, worker ? N + 2 : 0);
            await assertVerdicts(api, session);
        } finally {
            api.dispose();
        }
    });
}

// The upstream QuickJS asset has no loop checks: a program in a C
// built-in's loop holds the worker past its timeout, and the page replaces
// the worker, replaying every registration.
const upstream = join(dist, "..", "node_modules", "@jitl", "quickjs-wasmfile-release-sync", "dist", "emscripten-module.wasm");

test("a replaced worker gets the filter's verdicts from one pass over the tools, not one per registration", { timeout: 60_000 }, async () => {
    const f = counting();
    // The timeout ends the stuck run; the runs after it must not reach it
    // (500 ms: the verdicts' five calls timed out 2 in 5 at load ~19).
    const api = await IoCodeModeFactory({ wasmLocation: upstream, worker: true, timeout: 10_000, toolFilter: f.filter });
    try {
        const session = api.createSession();
        registerAll(api);
        await api.ready();
        f.calls = 0;
        const stuck = await run(session, "return Array.prototype.indexOf.call({ length: 1e15 }, 1)");
        assert.match(stuck.error && stuck.error.message, /worker was restarted$/, JSON.stringify(stuck));
        await api.ready();
        // The run's pass, then the new worker's: N + 1 tools each (one per
        // registration and session replayed as well: 1,804 calls before).
        assert.equal(f.calls, 2 * (N + 1));
        await assertVerdicts(api, session);
    } finally {
        api.dispose();
    }
});
