// A run that times out while runs wait for a run slot says how many of its
// own session's were waiting (the nested-executeCode deadlock it explains),
// and counts no other session's: 84b80f8 counted the engine's, so a
// program that spun into its timeout could read how busy other sessions
// kept the engine.
import { test } from "node:test";
import assert from "node:assert/strict";
import { WORKER, assetPath, run, sleep, tool, withFactory } from "./helpers.mjs";

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

// Runs of one thread (in-thread: the page's, for every factory on it; in a
// worker: the worker's, for its factory's sessions) take turns: a run that
// awaits a tool cannot take its result while another spins, and its timeout
// counted that time without a word of it.
const HELD = /^the program did not finish within 1\.5s; another run held the engine's thread for (\d+ms|1\.\d+s) of it(; it was waiting for the result of tool mark\.it \(called at line 1\))?$/;

/**
 * The waiter awaits mark.it; the spinner starts once mark.it is called and
 * holds the thread until its own timeout, past the waiter's. mark.it
 * answers once the spinner spins (its console line, which the page hears
 * from inside the run in-thread, from the worker's message in a worker):
 * it answered in 100 ms, and a spinner that took longer to start on a
 * loaded machine let the waiter take the answer and end with it, never
 * held. A waiter of its own worker (separate factories, worker mode) is
 * never held: it gets the answer while the other worker spins, with room
 * for a slow start.
 */
async function waitWhileAnotherSpins(config, separate) {
    let mark, spins;
    const marked = new Promise((r) => (mark = r));
    const spun = new Promise((r) => (spins = r));
    const tools = [tool("mark.it", () => (mark(), spun.then(() => 1)))];
    const one = await withFactory(config.t, { wasmLocation: assetPath, timeout: separate && WORKER ? 60_000 : 1500, tools });
    const two = separate ? await withFactory(config.t, { wasmLocation: assetPath, timeout: 1500 }) : one;
    const waiting = one.createSession();
    const spinning = two.createSession();
    await run(waiting, "1");
    await run(spinning, "1");
    const waiter = run(waiting, "return await tools.mark.it({})");
    await marked;
    const onEvent = (/** @type {any} */ e) => e.type === "console" && spins();
    const spinner = await run(spinning, "console.log('spinning'); for (;;) {}", { onEvent });
    // Its own timeout: the waiter held the thread for nothing like a tenth of it.
    assert.equal(spinner.error?.message, "the program did not finish within 1.5s");
    return await waiter;
}

/** Asserts the waiter's timeout says that another run held its thread, and for how long. */
function assertHeld(waiter) {
    const held = HELD.exec(waiter.error?.message);
    assert.ok(held, `waiter: ${JSON.stringify(waiter)}`);
    const ms = held[1].endsWith("ms") ? parseInt(held[1]) : parseFloat(held[1]) * 1000;
    assert.ok(ms >= 150 && ms <= 1500, held[0]);
}

test("a timeout says how long another run of the factory held the thread", { timeout: 60_000 }, async (t) => {
    assertHeld(await waitWhileAnotherSpins({ t }, false));
});

test("a timeout says how long a run of another factory on its thread held it; a worker's is its own", { timeout: 60_000 }, async (t) => {
    const waiter = await waitWhileAnotherSpins({ t }, true);
    if (WORKER) assert.deepEqual([waiter.ok, waiter.result], [true, 1], "each factory has a worker of its own");
    else assertHeld(waiter);
});
