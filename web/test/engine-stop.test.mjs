// @mode-independent: its factories come from core-bundle.mjs, in-thread or worker as each test chooses.
// A fatal error in a factory's Go core ends that factory only (issue 9,
// item 1): every call in flight and every later call rejects with one
// clear error, the other factories keep running programs, and the process
// lives. The trigger is real (the Go program dies) and test-only: the
// factories come from a bundle of web/src (core-bundle.mjs) whose
// threadFactory takes overrides of the Go core's globals, which the page
// cannot reach.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadThreadFactory, loadWorkerFactory } from "./core-bundle.mjs";
import { assetPath, run, sleep, tool } from "./helpers.mjs";

const STOPPED = /^Code Mode's engine stopped: .+; create a new factory with IoCodeModeFactory\(\)\.$/;
/** @param {any} err */
const stopped = (err) => err instanceof Error && STOPPED.test(err.message);

/** @type {Awaited<ReturnType<typeof loadThreadFactory>>} */
let bundle;
before(async () => {
    bundle = await loadThreadFactory();
});
after(() => bundle && bundle.cleanup());

// Two ways a Go program dies: a Go panic nothing recovers (the TypeError
// constructor throws inside jsbridge.NewError, on the goroutine that
// rejects a promise), and a JavaScript exception thrown through the Go
// program's frames (a getter Go reads with Reflect.get, which wasm_exec
// does not catch), which leaves its stack unusable.
const triggers = [
    {
        name: "a Go panic nothing recovers",
        message: /panic: JavaScript error: armed \(exit code 2\)/,
        overrides: (state) => ({
            TypeError: new Proxy(TypeError, {
                construct(target, args, newTarget) {
                    if (state.armed) {
                        state.armed = false;
                        throw new Error("armed");
                    }
                    return Reflect.construct(target, args, newTarget);
                },
            }),
        }),
    },
    {
        name: "a JavaScript exception through the Go program's frames",
        message: /the Go program failed: armed/,
        overrides: (state) => ({
            get TypeError() {
                if (state.armed) {
                    state.armed = false;
                    throw new Error("armed");
                }
                return TypeError;
            },
        }),
    },
];

// What an onEvent listener saw of a run that was in flight when the engine
// stopped: in both modes the tool call is answered and the run ends with
// run-end, naming the error the run rejected with; the tool's signal aborts
// with that error. (In worker mode the run ended before its events, and the
// listener got run-start and tool-call only.)
/**
 * @param {any[]} events
 * @param {Error} err what the run rejected with
 * @param {AbortSignal} signal the tool's
 */
function assertEndedByStop(events, err, signal) {
    assert.deepEqual(events.map((e) => e.type), ["run-start", "tool-call", "tool-result", "run-end"]);
    const [, call, result, end] = events;
    assert.deepEqual([result.callId, result.ok, result.error], [call.callId, false, `the run ended before the tool finished (${err.message})`]);
    assert.equal(end.ok, false);
    assert.deepEqual(end.error, { name: err.name, message: err.message });
    assert.equal(typeof end.durationMs, "number");
    assert.ok(events.every((e) => e.runId === events[0].runId));
    assert.equal(signal.reason, err, "the tool's signal aborts with the run's error");
}

// A tool that never settles, and tells when it was called and with which signal.
function waitTool() {
    /** @type {AbortSignal | undefined} */
    let signal;
    /** @type {() => void} */
    let called = () => {};
    const started = new Promise((r) => (called = r));
    return {
        tool: tool("wait", (_input, opts) => {
            signal = opts.signal;
            called();
            return new Promise(() => {});
        }),
        started,
        signal: () => /** @type {AbortSignal} */ (signal),
    };
}

describe("a fatal error in a factory's Go core ends only that factory", () => {
    for (const trigger of triggers) {
        test(`${trigger.name}: A's run in flight and later calls reject with the clear error; B, created before, runs on`, async () => {
            const state = { armed: false };
            const B = await bundle.threadFactory({ wasmLocation: assetPath, tools: [tool("double", ({ n }) => n * 2)] });
            const wait = waitTool();
            const A = await bundle.threadFactory(
                {
                    wasmLocation: assetPath,
                    tools: [wait.tool],
                },
                trigger.overrides(state),
            );
            try {
                const sa = A.createSession();
                const sb = B.createSession();
                assert.equal((await run(sa, "return 1")).result, 1);
                const events = [];
                const inFlight = run(sa, "await tools.wait({}); return 2", { onEvent: (e) => events.push(e) });
                const loop = run(sb, "let s = 0; for (let i = 0; i < 3e6; i++) s += i % 7; return (await tools.double({ n: s })) > 0");
                await wait.started;

                // The Go program dies: A's next call makes Go build a
                // TypeError (an unknown option), with the trigger armed.
                state.armed = true;
                const exec = sa.getLlmTools().find((t) => t.name === "executeCode");
                await assert.rejects(exec.execute({ code: "1", explanation: "" }, { bogus: 1 }), (err) => {
                    assert.match(err.message, STOPPED);
                    assert.match(err.message, trigger.message);
                    return true;
                });
                assert.equal(state.armed, false, "the trigger fired");
                await assert.rejects(inFlight, (err) => {
                    assert.match(err.message, STOPPED);
                    assert.match(err.message, trigger.message);
                    assertEndedByStop(events, err, wait.signal());
                    return true;
                });
                assert.equal(wait.signal().aborted, true, "the tool in flight gets an aborted signal");
                assert.match(wait.signal().reason.message, STOPPED);

                for (const [what, call] of [
                    ["createSession", () => A.createSession()],
                    ["listTools", () => A.listTools()],
                    ["registerTool", () => A.registerTool(tool("x", () => 1))],
                    ["getLlmTools", () => sa.getLlmTools()],
                    ["getSystemInstruction", () => sa.getSystemInstruction()],
                ]) {
                    assert.throws(call, stopped, what);
                }
                await assert.rejects(exec.execute({ code: "return 3", explanation: "" }), stopped);

                // B, started before A died, runs on: the program in flight
                // and new ones, with tool calls.
                assert.equal((await loop).result, true);
                assert.equal((await run(sb, "return await tools.double({ n: 21 })")).result, 42);
                const sb2 = B.createSession();
                assert.equal((await run(sb2, "return [1, 2].map((x) => x + 1)")).result.join(), "2,3");
                // And so does a factory created after.
                const C = await bundle.threadFactory({ wasmLocation: assetPath });
                assert.equal((await run(C.createSession(), "return 'c'")).result, "c");
                C.dispose();
                // A dead factory's dispose() is quiet, and its timers and late
                // callbacks (the never-settling tool) throw nothing into the
                // process: node:test fails the file on an uncaught error.
                A.dispose();
                await sleep(100);
            } finally {
                A.dispose();
                B.dispose();
            }
        });
    }

    test("a disposed factory's Go program stops; its calls say it was disposed, and the others run on", async () => {
        const A = await bundle.threadFactory({ wasmLocation: assetPath });
        const B = await bundle.threadFactory({ wasmLocation: assetPath });
        const sa = A.createSession();
        const exec = sa.getLlmTools().find((t) => t.name === "executeCode");
        A.dispose();
        await sleep(0);
        assert.throws(() => A.createSession(), /this instance has been disposed/);
        assert.throws(() => sa.getLlmTools(), /this session's factory has been disposed/);
        await assert.rejects(exec.execute({ code: "return 1", explanation: "" }), /this session's factory has been disposed/);
        assert.equal((await run(B.createSession(), "return 7")).result, 7);
        B.dispose();
    });
});

// Worker mode: the Go core dies inside the worker. The page ends that
// factory with the core's own error (the in-thread words), ends the worker,
// and the other factories run on.
// Without the page ending the factory, its calls would wait forever: the
// timeout makes that a failure.
test("worker mode: a fatal error of the worker's Go core ends that factory with the same error; the others run on", { timeout: 60000 }, async () => {
    const tmp = mkdtempSync(join(tmpdir(), "code-mode-arm-"));
    const armFile = join(tmp, "arm");
    const saved = process.env.CODE_MODE_TEST_ARM;
    process.env.CODE_MODE_TEST_ARM = armFile;
    const bundleW = await loadWorkerFactory();
    const wait = waitTool();
    const B = await bundleW.workerFactory({ wasmLocation: assetPath, tools: [tool("double", ({ n }) => n * 2)] });
    const A = await bundleW.workerFactory({ wasmLocation: assetPath, tools: [wait.tool] });
    try {
        const sa = A.createSession();
        assert.equal((await run(sa, "return 1")).result, 1);
        const events = [];
        const inFlight = run(sa, "await tools.wait({}); return 2", { onEvent: (e) => events.push(e) }).then((v) => v, (e) => e);
        await wait.started;
        // Both workers read the same file: whichever Go core builds a
        // TypeError first dies. Only A's is asked to (an unknown option).
        writeFileSync(armFile, "");
        const exec = sa.getLlmTools().find((t) => t.name === "executeCode");
        await assert.rejects(exec.execute({ code: "1", explanation: "" }, { bogus: 1 }), (err) => {
            assert.match(err.message, STOPPED);
            return true;
        });
        assert.equal(existsSync(armFile), false, "the trigger fired");
        const err = await inFlight;
        assert.ok(err instanceof Error, "the run in flight rejects");
        assert.match(err.message, STOPPED);
        assert.equal(wait.signal().aborted, true, "the tool in flight gets an aborted signal");
        assertEndedByStop(events, err, wait.signal());
        for (const [what, call] of [
            ["createSession", () => A.createSession()],
            ["registerTool", () => A.registerTool(tool("x", () => 1))],
            ["getLlmTools", () => sa.getLlmTools()],
        ]) {
            assert.throws(call, stopped, what);
        }
        await assert.rejects(exec.execute({ code: "return 3", explanation: "" }), stopped);
        await assert.rejects(A.ready(), stopped);
        // B runs on.
        assert.equal((await run(B.createSession(), "return await tools.double({ n: 21 })")).result, 42);
    } finally {
        A.dispose();
        B.dispose();
        bundleW.cleanup();
        rmSync(tmp, { recursive: true, force: true });
        if (saved === undefined) delete process.env.CODE_MODE_TEST_ARM;
        else process.env.CODE_MODE_TEST_ARM = saved;
    }
});
