// @mode-independent: worker mode only, set by each test.
// Worker mode's backstop for a run that holds the worker's thread past its
// timeout (web/src/worker-engine.mjs watchOverrun): the page replaces the
// worker only once it has been silent for OVERRUN_GRACE_MS past the run's
// deadline. A worker whose poll still runs (the package's asset: its loop
// checks poll, and end the run themselves ~100 ms past the deadline) is
// left to end the run with its own TIMEOUT and logs, however late the page
// gets to its timer. A fixed 2 s timer lost to the engine on a loaded
// machine (hostile.test's stuck-built-in rows, seen once at load ~20 on 2
// cores). Held pages are made here, not waited for: the page's own thread
// spins 4 s, longer than the timeout and the grace together, while the
// worker runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadEngineHelpers, loadWorkerFactory } from "./core-bundle.mjs";
import { assetPath, dist, inChild, indexURL } from "./helpers.mjs";

const upstream = join(dist, "..", "node_modules", "@jitl", "quickjs-wasmfile-release-sync", "dist", "emscripten-module.wasm");

/**
 * A program stuck in a C built-in after a console line, in a worker-mode
 * factory of a child process (timeout 500 ms) whose page thread spins 4 s
 * from the first console line on (in a setImmediate: Node then runs its
 * overdue timers before it reads the worker's messages); then a next run.
 * @param {string} wasm
 */
function heldPage(wasm) {
    const script = `
        const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
        const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(wasm)}, worker: true, timeout: 500 });
        const ex = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
        let held = false;
        const onEvent = (e) => {
            if (e.type !== "console" || held) return;
            held = true;
            setImmediate(() => { const end = Date.now() + 4000; while (Date.now() < end); });
        };
        const r = await ex.execute({ code: "console.log('before'); return Array.prototype.indexOf.call({ length: 1e15 }, 1)", explanation: "" }, { onEvent });
        const next = await ex.execute({ code: "return 1 + 1", explanation: "" });
        api.dispose();
        process.stdout.write(JSON.stringify({ ok: r.ok, error: r.error, logs: r.logs, next: next.result }));
        process.exit(0);
    `;
    return inChild(script);
}

test("a page held past the backstop's time: the worker, which polls, ends the run with its own TIMEOUT and logs", { timeout: 150_000 }, () => {
    const r = heldPage(assetPath);
    assert.equal(r.ok, false, JSON.stringify(r));
    assert.deepEqual(r.error, { name: "TimeoutError", message: "the program did not finish within 500ms (config.timeout: 500, in milliseconds; 500 seconds would be 500000)", code: "TIMEOUT" });
    assert.deepEqual(r.logs, [{ level: "log", message: "before" }]);
    assert.equal(r.next, 2);
});

test("a page held past the backstop's time, a worker silent in C (the upstream asset): replaced, TIMEOUT", { timeout: 150_000 }, () => {
    const r = heldPage(upstream);
    assert.equal(r.error && r.error.code, "TIMEOUT", JSON.stringify(r));
    assert.match(r.error.message, /did not finish within 0\.5s .*the engine's worker was restarted$/);
    assert.equal(r.next, 2);
});

// The rule itself, on a clock given to it: (now, deadline, last sign of
// life, grace) -> how much longer to wait; 0 replaces the worker.
test("overrunWait: silent for the grace past the deadline or the last sign, whichever is later", async (t) => {
    const engine = await loadEngineHelpers();
    t.after(engine.cleanup);
    const deadline = 10_000;
    const rows = [
        // now, last sign, wait
        ["before the deadline, never heard from", 9_000, 0, 3_000],
        ["at the deadline, silent since before it", 10_000, 9_500, 2_000],
        ["the grace over, silent since before the deadline", 12_000, 9_500, 0],
        ["long past, silent since before the deadline", 60_000, 9_500, 0],
        ["a sign after the deadline moves the wait", 12_000, 11_000, 1_000],
        ["signs keep coming: keeps waiting", 30_000, 29_900, 1_900],
        ["signs stopped: replaced a grace after the last", 31_900, 29_900, 0],
    ];
    for (const [name, now, sign, want] of rows) {
        assert.equal(engine.overrunWait(now, deadline, sign, 2_000), want, name);
    }
});

// Aborting one run while another computes: the worker's thread is the
// other run's, so the aborted one can answer only when it is free; the
// worker polls all the while (it read the abort flag), and was replaced
// 5 s after the abort anyway, failing the run that computed well within
// its timeout with "restarted to cancel a run that held it in a built-in
// that does not check for it". Only a worker that stops polling is replaced.
test("an abort while another run computes: the computing run finishes, the worker is kept", { timeout: 60_000 }, async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker: true, timeout: 20_000 });
    try {
        api.registerTool({ name: "slow.wait", inputSchema: { type: "object" }, execute: () => new Promise((r) => setTimeout(() => r("waited"), 1000)) });
        const ex = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
        await api.ready();
        const stop = new AbortController();
        const waiting = ex.execute({ code: "return await tools.slow.wait({});", explanation: "" }, { signal: stop.signal });
        await new Promise((r) => setTimeout(r, 100));
        const computing = ex.execute({ code: "const t = Date.now(); while (Date.now() - t < 6000); return 'computed';", explanation: "" });
        await new Promise((r) => setTimeout(r, 200));
        stop.abort(new Error("stopped by the user"));
        await assert.rejects(waiting, /stopped by the user/);
        const r = await computing;
        assert.deepEqual([r.ok, r.result, r.error], [true, "computed", undefined]);
        const next = await ex.execute({ code: "return 1 + 1", explanation: "" });
        assert.equal(next.result, 2);
    } finally {
        api.dispose();
    }
});

// The end of a child's script with runs a and b: their outcomes, and a next run's result.
const SETTLE = `
        const out = { a: await a, b: await b };
        out.next = (await ex.execute({ code: "return 1 + 1", explanation: "" })).result;
        api.dispose();
        process.stdout.write(JSON.stringify(out));
        process.exit(0);`;

/**
 * Two runs in a worker-mode factory of a child process without
 * SharedArrayBuffer (a page that is not cross-origin isolated: the abort
 * reaches the worker only as a message): run A computes for 3 s, run B is
 * aborted 300 ms in. `b` is B's code; A's is either a spin or a wait on a
 * tool. Then a next run. `replacedMs`: from the abort to A's failure.
 * @param {string} a run A's code
 * @param {string | { expr: string }} b run B's code, the aborted one, or
 *   the child's expression that makes it (a program too large for its command line)
 * @param {string} [wasm] the QuickJS asset
 * @param {number} [timeout] the factory's
 * @param {number} [abortAfter] ms from B's execute to its abort
 * @param {number} [wait] ms the tool slow.wait takes
 */
function withoutShared(a, b, wasm = assetPath, timeout = 20000, abortAfter = 300, wait = 1000) {
    // worker_threads first: Node's own Worker makes a SharedArrayBuffer
    // when that module loads (its cwd counter), and a worker started
    // without it fails at once.
    const script = `
        await import("node:worker_threads");
        delete globalThis.SharedArrayBuffer;
        const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
        const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(wasm)}, worker: true, timeout: ${timeout} });
        api.registerTool({ name: "slow.wait", inputSchema: { type: "object" }, execute: () => new Promise((r) => setTimeout(() => r("waited"), ${wait})) });
        const ex = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
        await api.ready();
        let aborted = 0;
        const outcome = (p) => p.then((r) => ({ ok: r.ok, result: r.result, error: r.error }), (e) => ({ rejected: e.message, replacedMs: Date.now() - aborted }));
        const a = outcome(ex.execute({ code: ${JSON.stringify(a)}, explanation: "" }));
        await new Promise((r) => setTimeout(r, 100));
        const stop = new AbortController();
        const b = outcome(ex.execute({ code: ${typeof b === "string" ? JSON.stringify(b) : b.expr}, explanation: "" }, { signal: stop.signal }));
        await new Promise((r) => setTimeout(r, ${abortAfter}));
        aborted = Date.now();
        stop.abort(new Error("stopped by the user"));
        ${SETTLE}
    `;
    return inChild(script);
}

/**
 * A child process without SharedArrayBuffer that runs `body` with `api`, a
 * worker-mode factory (timeout 20 s) of a test build of the worker whose
 * first import is fixtures/<fixture>, which the file `arm` arms (its path
 * goes to the worker in the environment variable `env`), and
 * writeFileSync and BroadcastChannel.
 * @param {import("node:test").TestContext} t
 * @param {string} fixture
 * @param {string} env
 * @param {string} arm
 * @param {string} body
 */
async function armedChild(t, fixture, env, arm, body) {
    const { hostURL, cleanup } = await loadWorkerFactory(fixture);
    t.after(cleanup);
    process.env[env] = arm;
    return inChild(`
        await import("node:worker_threads");
        delete globalThis.SharedArrayBuffer;
        const { writeFileSync } = await import("node:fs");
        const { BroadcastChannel } = await import("node:worker_threads");
        const { workerFactory } = await import(${JSON.stringify(hostURL)});
        const api = await workerFactory({ wasmLocation: ${JSON.stringify(assetPath)}, timeout: 20000 });
        ${body}`);
}

const COMPUTE = "const t = Date.now(); while (Date.now() - t < 3000); return 'computed';";

// Without SharedArrayBuffer the worker reads the abort only once its
// thread is free, and a run that holds it can be stopped only by replacing
// the worker. The page replaced it 30 ms after any abort the worker had not
// answered, failing whichever run held the thread: here A, computing well
// within its timeout, with "restarted to cancel a run that held it (no
// SharedArrayBuffer on this page)". The worker's signs of life name the run
// that holds its thread, and only that run's abort replaces it.
test("no SharedArrayBuffer: an abort while another run computes keeps the worker, and the computing run finishes", { timeout: 150_000 }, () => {
    const r = withoutShared(COMPUTE, "return await tools.slow.wait({});");
    assert.deepEqual(r.a, { ok: true, result: "computed" }, JSON.stringify(r));
    assert.equal(r.b.rejected, "stopped by the user");
    assert.equal(r.next, 2);
});

// The aborted run had not started: the worker's thread was the other
// run's, busy in work that sends no signs of life (here a built-in looping
// in C without the loop checks; under load, the other run's own start, or
// the factory's preparation, ~0.5 s silent), and the page took the silence
// for the aborted run held where nothing polls: it replaced the worker and
// failed the other run with "restarted to cancel a run that held it" (seen
// under load on the test above, A failing 423 and 525 ms after B's abort).
// A run the worker has not started holds nothing; the other run keeps its
// own deadline's backstop. A's timeout is room, not the subject: its loop
// takes ~1 s alone and must outlast B's abort by more than the silence the
// page waits for (400 ms).
test("no SharedArrayBuffer: an abort of a run not yet started while another run is silent in C keeps the worker, and that run finishes", { timeout: 150_000 }, () => {
    const r = withoutShared("return Array.prototype.indexOf.call({ length: 5e7 }, 1)", "return await tools.slow.wait({});", upstream, 100_000);
    assert.deepEqual(r.a, { ok: true, result: -1 }, JSON.stringify(r));
    assert.equal(r.b.rejected, "stopped by the user");
    assert.equal(r.next, 2);
});

// A large program aborted as it starts: the Go core's preparation of its
// source (~1 s for ~900 KB on a loaded machine) is silent, and then
// QuickJS's compile of its body polled (the asset's loop checks) naming
// the run, which the page took for the aborted run computing: it replaced
// the worker and failed the other run, awaiting its tool, with "restarted
// to cancel a run that held it". The compile ends by itself; the run is
// named from its body's first line (sandbox/run.go). The body here (~320
// KB: its preparation stays well within the 5 s the page waits for a
// silent start on a loaded machine) runs next to nothing (its statements
// are in a branch not taken). A script (no top-level return) is compiled
// and run in one call: its compile names the run as compiling (-rid),
// which the page waits for, and the polls after its first step name the
// run. The script here, a function returning an array literal of ~900 KB
// (never called), polls all along its compile (~0.5 s, more under load):
// the worker was replaced in 3 of 3 tries before. The tool A awaits takes
// 3 s, past the ~2 s the page took to replace the worker. The factory's
// timeout (A's) is room, not the subject: at load ~30 on 2 cores the
// script's run held the worker ~14 s, and A, whose tool had answered,
// ended with its 20 s TIMEOUT once.
for (const [form, expr] of [
    ["program", `"let x = 0;\\nif (x) {\\n" + "x += 1;\\n".repeat(40_000) + "}\\nreturn x;"`],
    ["script (no top-level return)", `"const f = () => [" + "1,".repeat(450_000) + "];\\nf.length"`],
]) {
    test(`no SharedArrayBuffer: an abort of a large ${form} as it starts keeps the worker, and the other run finishes`, { timeout: 150_000 }, () => {
        const big = { expr };
        const r = withoutShared("return await tools.slow.wait({});", big, assetPath, 60000, 5, 3000);
        assert.deepEqual(r.a, { ok: true, result: "waited" }, JSON.stringify(r));
        assert.equal(r.b.rejected, "stopped by the user");
        assert.equal(r.next, 2);
    });
}

// A run aborted as it ends: a run's end polls too (a large program's, at
// its body's first line after its compile; here a run resumed by its
// tool's result), and such a poll's sign of life named the run, which the
// page took for the aborted run computing: it replaced the worker and
// failed the other run, awaiting its tool, with "restarted to cancel a run
// that held it" (the rows above, at load ~20, the run's end 1.2 s after
// the abort, its compile's signs before). The worker was only slow to post
// its end (a loaded machine; here fixtures/slow-end.mjs holds it 1.5 s
// before). A sign now says for how long its run has held the thread, and
// the page waits for one that has held it for less than 200 ms.
test("no SharedArrayBuffer: an abort of a run as it ends, a sign of life naming it, keeps the worker, and the other run finishes", { timeout: 150_000 }, async (t) => {
    const arm = join(tmpdir(), `code-mode-slow-end-${process.pid}`);
    const r = await armedChild(t, "slow-end.mjs", "CODE_MODE_TEST_SLOW_END", arm, `
        let called;
        const calledP = new Promise((r) => (called = r));
        api.registerTool({ name: "slow.wait", inputSchema: { type: "object" }, execute: () => (called(), new Promise((r) => setTimeout(() => r("waited"), 4000))) });
        api.registerTool({ name: "quick.wait", inputSchema: { type: "object" }, execute: () => (writeFileSync(${JSON.stringify(arm)}, ""), new Promise((r) => setTimeout(() => r(1), 300))) });
        const ex = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
        await api.ready();
        const outcome = (p) => p.then((r) => ({ ok: r.ok, result: r.result, error: r.error }), (e) => ({ rejected: e.message }));
        const a = outcome(ex.execute({ code: "return await tools.slow.wait({})", explanation: "" }));
        await calledP;
        const ch = new BroadcastChannel("code-mode-slow-end");
        const named = new Promise((r) => (ch.onmessage = (e) => r(e.data)));
        const stop = new AbortController();
        const b = outcome(ex.execute({ code: "let s = await tools.quick.wait({});\\nfor (let i = 0; i < 12000; i++) s += i;\\nreturn s", explanation: "" }, { signal: stop.signal }));
        const sign = await named;
        ch.close();
        stop.abort(new Error("stopped by the user"));
        const out = { sign, a: await a, b: await b };
        out.next = (await ex.execute({ code: "return 1 + 1", explanation: "" })).result;
        api.dispose();
        process.stdout.write(JSON.stringify(out));
        process.exit(0);
    `);
    assert.equal(r.sign.t, "alive", JSON.stringify(r));
    assert.deepEqual(r.a, { ok: true, result: "waited" }, JSON.stringify(r));
    assert.equal(r.b.rejected, "stopped by the user");
    assert.equal(r.next, 2);
});

// A large program's preparation (the Go core's tsstrip.Prepare, before
// the sandbox) is silent work; on a loaded machine a ~900 KB program's
// once took over 5 s, and the page, stopping a run meanwhile, took the
// silent worker for one held (FLAG_GRACE_MS) and replaced it. It now
// shows life after its two longest passes (tsstrip.Beat): signs
// naming no run, which the page waits on as on another run's work.
// Counted here in the worker (fixtures/slow-prepare.mjs, which makes each
// last 250 ms so that the worker's one sign in 200 ms lets each through):
// none before.
test("no SharedArrayBuffer: the worker shows life while it prepares a large program", { timeout: 150_000 }, async (t) => {
    const arm = join(tmpdir(), `code-mode-slow-prepare-${process.pid}`);
    const r = await armedChild(t, "slow-prepare.mjs", "CODE_MODE_TEST_SLOW_PREPARE", arm, `
        const ex = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
        await api.ready();
        await ex.execute({ code: "return 1", explanation: "" });
        const ch = new BroadcastChannel("code-mode-slow-prepare");
        const signs = new Promise((r) => (ch.onmessage = (e) => r(e.data)));
        writeFileSync(${JSON.stringify(arm)}, "");
        const big = "let x = 0;\\nif (x) {\\n" + "x;\\n".repeat(150_000) + "}\\nx";
        const res = await ex.execute({ code: big, explanation: "" });
        const out = { ok: res.ok, result: res.result, signs: await signs };
        ch.close();
        api.dispose();
        process.stdout.write(JSON.stringify(out));
        process.exit(0);
    `);
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.result, 0);
    assert.ok(r.signs >= 2, `signs of life naming no run while the worker ran the large program: ${r.signs}, want one after each of the two longest passes of its preparation`);
});

// The run that holds the thread names itself (its interrupt poll and the
// asset's loop checks); one held in C code that polls nothing (the
// upstream asset's built-in) leaves the worker silent. Both are replaced.
for (const [name, b, wasm] of [
    ["a spin", "for (;;) {}", assetPath],
    ["a built-in looping in C, with the asset's loop checks", "return Array.prototype.indexOf.call({ length: 1e15 }, 1)", assetPath],
    ["a built-in looping in C, silent (the upstream asset)", "return Array.prototype.indexOf.call({ length: 1e15 }, 1)", upstream],
]) {
    test(`no SharedArrayBuffer: a run that holds the worker's thread is still stopped by replacing the worker: ${name}`, { timeout: 150_000 }, () => {
        const r = withoutShared("return await tools.slow.wait({});", b, wasm);
        console.log(`${name}: A failed ${r.a.replacedMs} ms after the abort`);
        assert.equal(r.b.rejected, "stopped by the user", JSON.stringify(r));
        assert.match(r.a.rejected ?? "", /the engine's worker was restarted to cancel a run that held it \(no SharedArrayBuffer on this page\); run this again$/, JSON.stringify(r));
        assert.equal(r.next, 2);
    });
}

// A run aborted just after the worker started it, while the worker is
// still in its start: a new QuickJS instance made (the other run holds the
// prepared one), the sandbox's sources compiled into it, its setup. That
// work is silent, and then its polls named the run: the page replaced the
// worker after 400 ms of silence, or at that sign of life, failing the
// other run, awaiting its tool, with "restarted to cancel a run that held
// it" (a loaded machine; here fixtures/slow-instance.mjs makes the
// instance's memory take 1.5 s and holds the worker 1 s after its first
// sign). The start ends by itself: its polls name no run (sandbox/run.go),
// and the page waits for a run no sign has named as for another run's work.
// Each half alone fails this test.
test("no SharedArrayBuffer: an abort of a run the worker is still starting keeps the worker, and the other run finishes", { timeout: 150_000 }, async (t) => {
    const arm = join(tmpdir(), `code-mode-slow-${process.pid}`);
    const r = await armedChild(t, "slow-instance.mjs", "CODE_MODE_TEST_SLOW", arm, `
        let called;
        const calledP = new Promise((r) => (called = r));
        api.registerTool({ name: "slow.wait", inputSchema: { type: "object" }, execute: () => (called(), new Promise((r) => setTimeout(() => r("waited"), 1000))) });
        const ex = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
        await api.ready();
        const outcome = (p) => p.then((r) => ({ ok: r.ok, result: r.result, error: r.error }), (e) => ({ rejected: e.message }));
        const a = outcome(ex.execute({ code: "return await tools.slow.wait({})", explanation: "" }));
        await calledP;
        const ch = new BroadcastChannel("code-mode-slow-instance");
        const slow = new Promise((r) => (ch.onmessage = r));
        writeFileSync(${JSON.stringify(arm)}, "");
        const stop = new AbortController();
        const b = outcome(ex.execute({ code: "return 1", explanation: "" }, { signal: stop.signal }));
        await slow;
        ch.close();
        stop.abort(new Error("stopped by the user"));
        ${SETTLE}
    `);
    assert.deepEqual(r.a, { ok: true, result: "waited" }, JSON.stringify(r));
    assert.equal(r.b.rejected, "stopped by the user");
    assert.equal(r.next, 2);
});
