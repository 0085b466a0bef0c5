// A tool's value that comes after its run ended (aborted, timed out, its
// session disposed) is nobody's: the page converted it all the same, so
// its toJSON and getters (the tool's own code) ran after the run, and a
// large value cost its conversion for nothing. Both modes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, run, sleep, tool, withFactory } from "./helpers.mjs";

test("a tool's value that comes after its run ended is not converted: its toJSON and getters do not run", { timeout: 60_000 }, async (t) => {
    const seen = [];
    let called = 0;
    let release;
    const late = (label) => ({
        toJSON() {
            seen.push(`${label}: toJSON`);
            return { label };
        },
    });
    const api = await withFactory(t, {
        wasmLocation: assetPath,
        timeout: 1000,
        tools: [tool("late.value", async (input) => {
            called++;
            await new Promise((r) => (release = r));
            return late(input.label);
        })],
    });
    const untilCalled = async (n) => {
        while (called < n) await sleep(5);
    };
    // Aborted by its caller.
    const stop = new AbortController();
    const aborted = run(api.createSession(), "return await tools.late.value({ label: 'aborted' })", { signal: stop.signal });
    await untilCalled(1);
    stop.abort(new Error("stopped by the user"));
    await assert.rejects(aborted, /stopped by the user/);
    release();
    // Timed out.
    const timedOut = await Promise.all([run(api.createSession(), "return await tools.late.value({ label: 'timed out' })"), untilCalled(2).then(() => sleep(1200)).then(() => release())]);
    assert.equal(timedOut[0].error.code, "TIMEOUT");
    // Its session disposed.
    const s = api.createSession();
    const disposed = run(s, "return await tools.late.value({ label: 'disposed' })");
    await untilCalled(3);
    s.dispose();
    await assert.rejects(disposed, /disposed/);
    release();
    // A run that is alive takes it, converted (the guard).
    const alive = run(api.createSession(), "return await tools.late.value({ label: 'alive' })");
    await untilCalled(4);
    release();
    assert.deepEqual((await alive).result, { label: "alive" });
    await sleep(300);
    assert.deepEqual(seen, ["alive: toJSON"]);
});
