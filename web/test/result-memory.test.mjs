// @mode-independent: its factories come from core-bundle.mjs, one of each mode.
// A page tool's result whose JSON text the run's memory cannot hold is
// refused on the page, before it is copied into the Go core (in-thread) or
// posted to the worker: the Go core's WebAssembly memory, which never
// shrinks, grew by the whole text (and more) for the factory's life,
// though the core then refused the result. The call fails as the core's
// own check words it (toolcall.go checkOutput), which stays as a backstop.
// The sizes are the Go core's memory's own (fixtures/go-memory.mjs).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { goMemoryBytes } from "./fixtures/go-memory.mjs";
import { goMemoryOfWorker, loadThreadFactory, loadWorkerFactory } from "./core-bundle.mjs";
import { assetPath, run, tool } from "./helpers.mjs";

/** @type {Awaited<ReturnType<typeof loadThreadFactory>>} */
let thread;
/** @type {Awaited<ReturnType<typeof loadWorkerFactory>>} */
let worker;
before(async () => {
    thread = await loadThreadFactory();
    worker = await loadWorkerFactory("go-memory.mjs");
});
after(() => {
    if (thread) thread.cleanup();
    if (worker) worker.cleanup();
});

const SIZE = 128 << 20; // characters of the tool's string
const MESSAGE = `tool t.big returned ${SIZE + 2} characters of JSON, more than the run's memory limit (16 MB) can hold: ask it for less (a page, a filter), if its input allows`;

/**
 * @param {string} mode
 * @param {(config: any) => Promise<any>} factory
 * @param {() => Promise<number>} goMemory the byte length of the factory's Go core's memory
 */
async function refusedWithoutGrowth(mode, factory, goMemory) {
    const config = {
        wasmLocation: assetPath,
        memoryLimit: 16,
        timeout: 120_000,
        tools: [tool("t.big", () => "x".repeat(SIZE)), tool("t.small", () => "x".repeat(1000))],
    };
    const api = await factory(config);
    try {
        const s = api.createSession();
        assert.equal((await run(s, "return (await tools.t.small({})).length")).result, 1000);
        const before = await goMemory();
        const events = [];
        const r = await run(s, "try { await tools.t.big({}); return 'no error' } catch (e) { return e.name + ': ' + e.message }", {
            onEvent: (/** @type {any} */ e) => events.push(e),
        });
        const grown = (await goMemory()) - before;
        console.log(`${mode}: the Go core's memory ${before} bytes before the call, grown by ${grown}`);
        assert.ok(grown < SIZE / 8, `${mode}: the Go core's memory grew by ${grown} bytes for a result of ${SIZE} characters it refused`);
        assert.equal(r.result, `ToolError: ${MESSAGE}`, JSON.stringify(r.error));
        assert.deepEqual(
            r.toolCalls.map((/** @type {any} */ c) => [c.name, c.allowed, c.ok, c.reason]),
            [["t.big", true, false, MESSAGE]],
        );
        // The page's report of the call says so too: it was refused before
        // the page reported it (the core's check came after, ok: true).
        const result = events.find((e) => e.type === "tool-result");
        assert.deepEqual([result.ok, result.error], [false, MESSAGE]);
        assert.equal((await run(s, "return (await tools.t.small({})).length")).result, 1000);
    } finally {
        api.dispose();
    }
}

test("in-thread: a result past the run's memory is refused before it is copied into the Go core", { timeout: 300_000 }, async () => {
    const first = goMemoryBytes().length;
    await refusedWithoutGrowth("in-thread", thread.threadFactory, async () => goMemoryBytes()[first]);
});

test("worker: a result past the run's memory is refused before it is posted to the worker", { timeout: 300_000 }, async () => {
    await refusedWithoutGrowth("worker", worker.workerFactory, goMemoryOfWorker);
});
