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

// The same for a rejection (74f6e44 fixed the value's path only): an Error
// whose message, name or stack are getters, or a thrown object with a
// toJSON, was still described on the page after its run ended.
test("a tool's rejection that comes after its run ended is not described: its getters and toJSON do not run", { timeout: 60_000 }, async (t) => {
    const seen = [];
    let called = 0;
    let release;
    const lateError = (label) => {
        const e = new Error("x");
        // The stack first: redefining it has V8 format the stack, which
        // reads the name and the message.
        for (const key of ["stack", "message", "name"]) {
            Object.defineProperty(e, key, { get: () => (seen.push(`${label}: ${key}`), key === "name" ? "Error" : `${label} failed`), configurable: true });
        }
        return e;
    };
    const lateObject = (label) => ({ toJSON: () => (seen.push(`${label}: toJSON`), { label }) });
    const api = await withFactory(t, {
        wasmLocation: assetPath,
        timeout: 1000,
        tools: [tool("late.error", async (input) => {
            called++;
            await new Promise((r) => (release = r));
            throw input.object ? lateObject(input.label) : lateError(input.label);
        })],
    });
    const untilCalled = async (n) => {
        while (called < n) await sleep(5);
    };
    for (const object of [false, true]) {
        const n = called;
        const code = (label) => `return await tools.late.error({ label: '${label}', object: ${object} })`;
        const stop = new AbortController();
        const aborted = run(api.createSession(), code("aborted"), { signal: stop.signal });
        await untilCalled(n + 1);
        stop.abort(new Error("stopped by the user"));
        await assert.rejects(aborted, /stopped by the user/);
        release();
        const timedOut = await Promise.all([run(api.createSession(), code("timed out")), untilCalled(n + 2).then(() => sleep(1200)).then(() => release())]);
        assert.equal(timedOut[0].error.code, "TIMEOUT");
        const s = api.createSession();
        const disposed = run(s, code("disposed"));
        await untilCalled(n + 3);
        s.dispose();
        await assert.rejects(disposed, /disposed/);
        release();
        await sleep(300);
        assert.deepEqual(seen, [], `object: ${object}`);
        // A run that is alive reads it (the guard).
        const alive = run(api.createSession(), `try { ${code("alive")} } catch (e) { return e.message }`);
        await untilCalled(n + 4);
        release();
        assert.match((await alive).result, object ? /"label":"alive"/ : /alive failed/);
        assert.ok(seen.length > 0);
        seen.length = 0;
    }
});
