// A factory the page drops without dispose() is freed once collected: in
// worker mode its worker is terminated (lifetime.mjs), in-thread its Go
// program is no longer kept by its own idle timers (core.mjs). The cases
// need --expose-gc, so they run in a child process
// (fixtures/dropped-factories.mjs), in the suite's mode.
import { test } from "node:test";
import assert from "node:assert/strict";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { loadWrap } from "./core-bundle.mjs";
import { WORKER, inGcChild } from "./helpers.mjs";

/** @param {string} scenario */
const inChild = (scenario) => inGcChild("dropped-factories.mjs", scenario, 240_000);

test("factories dropped without dispose() are freed: their tools released, their workers ended", () => {
    // Three factories, each with a tool that refers to the factory itself,
    // a session, its LLM tools and a run, then dropped.
    const out = inChild("dropped");
    assert.equal(out.startedWorkers, WORKER ? 3 : 0);
    assert.deepEqual(
        { released: out.released, defsAlive: out.defsAlive, liveWorkers: out.liveWorkers },
        { released: true, defsAlive: 0, liveWorkers: 0 },
    );
});

test("what the page keeps of a factory, or a run in flight, keeps the engine", () => {
    const out = inChild("kept");
    // Only a session's executeCode kept, the factory and session dropped:
    // it still runs after collection.
    assert.equal(out.afterGc.ok, true, JSON.stringify(out.afterGc));
    assert.equal(out.afterGc.result, 5);
    // Nothing kept but the run's promise, collected while its tool waits:
    // the run finishes.
    assert.equal(out.inFlight.ok, true, JSON.stringify(out.inFlight));
    assert.equal(out.inFlight.result, 7);
    // The same for a run busy in the engine, with no page tool in flight
    // (in worker mode only the factory's listeners hear its end), and for
    // ready().
    assert.equal(out.busyInFlight.ok, true, JSON.stringify(out.busyInFlight));
    assert.equal(out.busyInFlight.result, 8);
    assert.equal(out.readyInFlight, "ready");
    if (WORKER) assert.ok(out.liveWorkersWhileKept >= 1, `live workers while kept: ${out.liveWorkersWhileKept}`);
    // Then dropped too, both are freed.
    assert.deepEqual({ released: out.released, liveWorkers: out.liveWorkers }, { released: true, liveWorkers: 0 });
});

test("what the page keeps of a disposed factory keeps nothing of it, and answers as disposed", () => {
    // Two factories used (a tool of the config's, one registered, a
    // session's own, a run of each) and disposed, the second's session
    // first, every handle kept: the factory, its methods, registerTool's
    // unregister, a ready() promise, the session, its methods, its LLM
    // tools and their execute. Each kept the whole factory: in-thread its
    // engine's WebAssembly memories (8 kept executeCode, 60 MB) and the
    // page's tools; in a worker the page's tools and the sessions' state.
    const out = inChild("disposed");
    assert.deepEqual(
        { released: out.released, defsAlive: out.defsAlive, memories: out.memories, memoriesAlive: out.memoriesAlive },
        { released: true, defsAlive: 0, memories: !WORKER, memoriesAlive: 0 },
    );
    const factoryGone = "Code Mode: this instance has been disposed; create a new one with IoCodeModeFactory().";
    const sessionsFactoryGone = "Code Mode: this session's factory has been disposed.";
    const disposed = {
        execute: sessionsFactoryGone,
        search: sessionsFactoryGone,
        getLlmTools: sessionsFactoryGone,
        instruction: sessionsFactoryGone,
        registerTool: factoryGone,
        listTools: factoryGone,
        createSession: factoryGone,
        apiReady: factoryGone,
        ready: "undefined",
        unregister: "undefined",
        dispose: "undefined",
    };
    assert.deepEqual(out.answers, [disposed, disposed]);
    // A session disposed on a factory that lives on: its own tool freed
    // (counted above), its kept execute says so, then its factory's end.
    const sessionGone = "Code Mode: this session has been disposed; create a new one with createSession().";
    assert.deepEqual(out.sessionAnswers, { execute: sessionGone, getLlmTools: sessionGone });
    assert.equal(out.afterFactory, sessionsFactoryGone);
});

test("tools unregistered from a factory that lives on are freed", () => {
    // 60 definitions registered (registerTool and registerTools), called,
    // unregistered. In-thread, each unregister function kept its
    // registration (and the definitions) until the factory's dispose.
    const out = inChild("unregistered");
    assert.deepEqual(out, { released: true, defsAlive: 0, tools: 0 });
});

test("sessions disposed on a factory that lives on are freed", async () => {
    // The public API's wrapper (wrap.mjs, on the calling thread and inside
    // a worker) around a fake Go core whose engine never stops: 30
    // sessions created, run, disposed and dropped. Each one's guard stayed
    // a reaction of the engine's exit promise, with the session, about
    // 4.7 KB each, for the factory's life.
    v8.setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc");
    const { pagePipeline, wrapApi, cleanup } = await loadWrap();
    try {
        const core = { state: { exited: false }, exited: new Promise(() => {}), hold: () => () => {}, stop() {} };
        // The core's session is one function, op(kind, ...) (wasm/session.go,
        // web/src/go-session.mjs): 0 instruction, 1 LLM tools, 2 execute
        // (tool index, then runInCore's arguments), 3 dispose.
        const goSession = () => (kind, i, ...a) =>
            kind === 1
                ? [{ name: "searchTools", description: "", inputSchema: {} }, { name: "executeCode", description: "", inputSchema: {} }]
                : kind === 2
                  ? i === 0
                      ? a[5](true, "[]")
                      : queueMicrotask(() => a[5](true, '{"ok":true,"result":1}'))
                  : kind === 0
                    ? ""
                    : undefined;
        /** @type {WeakRef<object>[]} */
        const sessions = [];
        const api = wrapApi({ createSession: () => { const s = goSession(); sessions.push(new WeakRef(s)); return s; }, dispose() {} }, core, pagePipeline({}));
        await runSessions(api, 30);
        let alive = sessions.length;
        for (let i = 0; i < 50 && alive > 0; i++) {
            await new Promise((r) => setTimeout(r, 10));
            gc();
            alive = sessions.filter((r) => r.deref() !== undefined).length;
        }
        assert.equal(alive, 0, `${alive} of 30 disposed sessions still reachable`);
        // The engine's stop still rejects the runs in flight, of every
        // session, once.
        let stop = () => {};
        const core2 = { state: { exited: false, cause: new Error("gone") }, exited: new Promise((r) => (stop = r)), hold: () => () => {}, stop() {} };
        const never = () => (kind) => (kind === 1 ? [{ name: "executeCode", description: "", inputSchema: {} }] : undefined);
        const api2 = wrapApi({ createSession: never, dispose() {} }, core2, pagePipeline({}));
        const runs = [api2.createSession(), api2.createSession()].map((s) => s.getLlmTools()[0].execute({ code: "return 1", explanation: "x" }));
        core2.state.exited = true;
        stop();
        for (const r of await Promise.allSettled(runs)) assert.match(String(r.reason && r.reason.message), /engine stopped: gone/);
    } finally {
        cleanup();
    }
});

/** Sessions created, run once and disposed; in a function, so that no local keeps the last. */
async function runSessions(api, n) {
    for (let i = 0; i < n; i++) {
        const session = api.createSession();
        const r = await session.getLlmTools()[1].execute({ code: "return 1", explanation: "x" });
        assert.equal(r.ok, true);
        session.dispose();
    }
}

test("factories collected for while they start still start", () => {
    // Only their promises kept: until the page has the factory, neither the
    // engine's own timers (in-thread) nor the worker's listeners (worker
    // mode) may be all that keeps it.
    const out = inChild("starting");
    assert.deepEqual(out, { settled: true, results: ["fulfilled", "fulfilled", "fulfilled"] });
});
