// @mode-independent: worker mode only, set by each test.
// A tool's input check is Go work on the worker's thread, where no
// interrupt poll runs: it asks its own stop (the run's end), but showed no
// life to the page, which took the worker for one held where nothing polls
// (a built-in looping in C) and replaced it: under load past a run's
// deadline (an anyOf of 100,000 alternatives, once in 13 calls, its
// compiled schema lost), and here at an abort while the check holds the
// thread, failing the worker's other runs with "restarted to cancel a run
// that held it". The check now shows life as it asks its stop (sandbox.Beat:
// the worker's clock, which counts a sign and reads the abort flags), naming
// its run. A run held where nothing polls is still replaced
// (worker-backstop.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, deepAnyOf, inChild, indexURL } from "./helpers.mjs";

const deep = deepAnyOf;
const CHECK = "let o = {}; for (let i = 0; i < 40; i++) o = { c: o }\nreturn await tools.deep.check(o)";

// With SharedArrayBuffer (Node's default) the page writes the abort where
// the worker's clock reads it. The aborted run's check never read it: after
// 5 s without a poll the page replaced the worker, and the other run,
// awaiting a tool of 7 s, failed.
test("an abort of a run whose input check holds the worker stops the check; the worker is kept and the other run finishes", { timeout: 60_000 }, () =>
    abortWhileChecking({ name: "deep.check", inputSchema: deep, execute: () => "ran" }, CHECK));

/**
 * A run awaiting a tool of 7 s, then a run of code whose call's check of
 * tool holds the worker, aborted 500 ms later: the abort is read (the
 * checking run rejects with its reason), the worker is kept (the waiting
 * run gets its result) and runs the next program.
 */
async function abortWhileChecking(tool, code) {
    const { IoCodeModeFactory } = await import(indexURL);
    const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker: true, timeout: 20_000 });
    try {
        api.registerTool({ name: "slow.wait", inputSchema: { type: "object" }, execute: () => new Promise((r) => setTimeout(() => r("waited"), 7000)) });
        api.registerTool(tool);
        const ex = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
        await api.ready();
        const waiting = ex.execute({ code: "return await tools.slow.wait({});", explanation: "" });
        await new Promise((r) => setTimeout(r, 100));
        const stop = new AbortController();
        const checking = ex.execute({ code, explanation: "" }, { signal: stop.signal });
        await new Promise((r) => setTimeout(r, 500));
        stop.abort(new Error("stopped by the user"));
        await assert.rejects(checking, /stopped by the user/);
        const r = await waiting;
        assert.deepEqual([r.ok, r.result, r.error], [true, "waited", undefined]);
        const next = await ex.execute({ code: "return 1 + 1", explanation: "" });
        assert.equal(next.result, 2);
    } finally {
        api.dispose();
    }
}

// Without SharedArrayBuffer the worker reads an abort only once its thread
// is free; the page replaces it for an aborted run that a sign names as
// holding it, or after 400 ms of silence. A run aborted while another run's
// check held the thread: the silence replaced the worker, and the checking
// run, well within its timeout, failed with "restarted to cancel a run".
// Its signs now name it: the page waits, the check ends at its deadline
// with its own TIMEOUT, and then the aborted run's abort is read.
test("no SharedArrayBuffer: an abort while another run's input check holds the worker keeps it, and that run ends with its TIMEOUT", { timeout: 150_000 }, () => {
    const r = inChild(`
        await import("node:worker_threads");
        delete globalThis.SharedArrayBuffer;
        const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
        const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, worker: true, timeout: 6000 });
        let called;
        const calledP = new Promise((r) => (called = r));
        api.registerTool({ name: "slow.wait", inputSchema: { type: "object" }, execute: () => (called(), new Promise((r) => setTimeout(() => r("waited"), 1000))) });
        api.registerTool({ name: "deep.check", inputSchema: ${JSON.stringify(deep)}, execute: () => "ran" });
        const ex = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
        await api.ready();
        const outcome = (p) => p.then((r) => ({ ok: r.ok, result: r.result, error: r.error }), (e) => ({ rejected: e.message }));
        const stop = new AbortController();
        const b = outcome(ex.execute({ code: "return await tools.slow.wait({})", explanation: "" }, { signal: stop.signal }));
        await calledP;
        let checking;
        const checkingP = new Promise((r) => (checking = r));
        const a = outcome(ex.execute({ code: "console.log('checking');\\n" + ${JSON.stringify(CHECK)}, explanation: "" }, { onEvent: (e) => e.type === "console" && checking() }));
        await checkingP;
        await new Promise((r) => setTimeout(r, 300));
        stop.abort(new Error("stopped by the user"));
        const out = { a: await a, b: await b };
        out.next = (await ex.execute({ code: "return 1 + 1", explanation: "" })).result;
        api.dispose();
        process.stdout.write(JSON.stringify(out));
        process.exit(0);
    `);
    assert.equal(r.a.error?.code, "TIMEOUT", JSON.stringify(r));
    assert.equal(r.a.error.message, "the program did not finish within 6s; it was checking the input of tool deep.check (called at line 3) against the tool's inputSchema");
    assert.equal(r.b.rejected, "stopped by the user");
    assert.equal(r.next, 2);
});

// A result's check against the tool's outputSchema is the same Go work on
// the worker's thread: it asked only the run's time, so an abort meanwhile
// went unread and the page, hearing nothing for 5 s, replaced the worker,
// failing the other run ("restarted to cancel a run that held it"). It
// shows life and reads the abort as the input check does.
test("an abort of a run whose result check holds the worker stops the check; the worker is kept and the other run finishes", { timeout: 60_000 }, () =>
    abortWhileChecking(
        {
            name: "deep.result",
            inputSchema: { type: "object" },
            outputSchema: deep,
            execute: () => {
                let o = {};
                for (let i = 0; i < 40; i++) o = { c: o };
                return o;
            },
        },
        "return await tools.deep.result({})",
    ));
