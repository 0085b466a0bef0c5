// @mode-independent: its factories come from core-bundle.mjs, one of each mode.
// A factory's first run starts as later runs do: the factory makes its
// first QuickJS instance, and compiles the sandbox's sources into it, once
// the caller has it and the thread is free (codemode.Prepare), instead of
// inside the first run (in WebKit under load that run's 1 s timeout ran
// out before it reached its first tool call). Counted, not timed: the
// QuickJS instances made (each has a memory of its own, made with
// WebAssembly.Memory: fixtures/go-memory.mjs), before and after the first
// run. Before, the first run made the factory's first instance.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { quickJSMemoriesMade } from "./fixtures/go-memory.mjs";
import { loadThreadFactory, loadWorkerFactory, quickJSMemoriesMadeInWorker } from "./core-bundle.mjs";
import { assetPath, tool } from "./helpers.mjs";

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

const CODE = "return await tools.add({ a: 2, b: 40 })";
const config = () => ({ wasmLocation: assetPath, tools: [tool("add", ({ a, b }) => a + b)] });
// The timers' queue: what the factory left for when the thread is free
// has run once a task queued after it has.
const free = () => new Promise((resolve) => setTimeout(resolve, 0));

for (const [mode, make, made] of [
    ["thread", (/** @type {any} */ c) => thread.threadFactory(c), async () => quickJSMemoriesMade()],
    ["worker", (/** @type {any} */ c) => worker.workerFactory(c), quickJSMemoriesMadeInWorker],
]) {
    test(`${mode}: the factory's first QuickJS instance is made once the caller has it; the first run makes none`, { timeout: 60_000 }, async () => {
        for (let k = 0; k < 2; k++) {
            // The first factory of the thread also warms up on an instance of its own (warm-up.mjs).
            const api = await make(config());
            try {
                await free();
                const ready = await made();
                const [, exec] = api.createSession().getLlmTools();
                for (let run = 1; run <= 2; run++) {
                    const r = await exec.execute({ code: CODE, explanation: "" });
                    assert.equal(r.result, 42, JSON.stringify(r.error));
                    assert.equal(await made(), ready, `factory ${k + 1}, run ${run}: it made a QuickJS instance (the factory had not made it ready)`);
                }
            } finally {
                api.dispose();
            }
        }
    });
}

test("thread: a factory disposed before the thread is free makes no instance", { timeout: 60_000 }, async () => {
    const api = await thread.threadFactory(config());
    const before = quickJSMemoriesMade();
    api.dispose();
    await free();
    await free();
    assert.equal(quickJSMemoriesMade(), before);
});
