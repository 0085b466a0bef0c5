// A run that times out while runs wait for a run slot says how many of its
// own session's were waiting (the nested-executeCode deadlock it explains),
// and counts no other session's: 84b80f8 counted the engine's, so a
// program that spun into its timeout could read how busy other sessions
// kept the engine.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, run, sleep, tool, withFactory } from "./helpers.mjs";

const SLOTS = 16; // the core's run slots (sandbox MaxInstances)

test("a timeout counts the runs of its own session waiting for a run slot, not another session's", { timeout: 60_000 }, async (t) => {
    let called = 0;
    const api = await withFactory(t, {
        wasmLocation: assetPath,
        timeout: 10000,
        tools: [tool("hold.it", (_input, { signal }) => (called++, new Promise((resolve) => signal.addEventListener("abort", () => resolve(null)))))],
    });
    const own = api.createSession();
    const other = api.createSession();
    const until = async (n) => {
        while (called < n) await sleep(10);
    };
    // Every run awaits a tool that ends only with the run: the first one
    // started times out first, while the others still hold their slots
    // (10 s: the others must have started and queued by then, on a loaded
    // machine too).
    // The others are stopped once it has timed out.
    const first = run(own, "await tools.hold.it({})");
    await until(1);
    const stop = new AbortController();
    const later = (s, code) => run(s, code, { signal: stop.signal }).catch(() => {});
    const rest = [];
    for (let i = 1; i < SLOTS; i++) rest.push(later(own, "await tools.hold.it({})"));
    await until(SLOTS);
    rest.push(later(other, "1"), later(other, "1"), later(own, "1"));
    const r = await first;
    stop.abort();
    assert.deepEqual(r.error, {
        name: "TimeoutError",
        code: "TIMEOUT",
        message: "the program did not finish within 10s; meanwhile 1 other run was waiting for a run slot, all 16 in use (a run started from inside a run, by a tool, waits for one while the runs that called it hold theirs); it was waiting for the result of tool hold.it (called at line 1)",
    });
    await Promise.all(rest);
});
