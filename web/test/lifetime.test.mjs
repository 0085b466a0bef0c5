// A factory the page drops without dispose() is freed once collected: in
// worker mode its worker is terminated (lifetime.mjs), in-thread its Go
// program is no longer kept by its own idle timers (core.mjs). The cases
// need --expose-gc, so they run in a child process
// (fixtures/dropped-factories.mjs), in the suite's mode.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { WORKER, assetPath, indexURL } from "./helpers.mjs";

const fixture = join(fileURLToPath(new URL(".", import.meta.url)), "fixtures", "dropped-factories.mjs");

/** @param {string} scenario */
function inChild(scenario) {
    const child = spawnSync(process.execPath, ["--expose-gc", fixture, indexURL, assetPath, WORKER ? "1" : "0", scenario], {
        encoding: "utf8",
        timeout: 240_000,
        maxBuffer: 64 << 20,
    });
    assert.equal(child.status, 0, `the child failed (status ${child.status}, signal ${child.signal}): ${child.stderr.slice(-2000)}`);
    return JSON.parse(child.stdout);
}

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

test("tools unregistered from a factory that lives on are freed", () => {
    // 60 definitions registered (registerTool and registerTools), called,
    // unregistered. In-thread, each unregister function kept its
    // registration (and the definitions) until the factory's dispose.
    const out = inChild("unregistered");
    assert.deepEqual(out, { released: true, defsAlive: 0, tools: 0 });
});

test("factories collected for while they start still start", () => {
    // Only their promises kept: until the page has the factory, neither the
    // engine's own timers (in-thread) nor the worker's listeners (worker
    // mode) may be all that keeps it.
    const out = inChild("starting");
    assert.deepEqual(out, { settled: true, results: ["fulfilled", "fulfilled", "fulfilled"] });
});
