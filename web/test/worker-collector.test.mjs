// @mode-independent: worker mode only, a test build of the worker.
// The worker's pass of the collector over a registration's garbage
// (web/src/worker.mjs releaseCollector, wasm/collector.go) waits for the
// worker to be idle: it ran in a task of its own right after the answer
// to ready(), and a run the page posted at once waited for it (4,000
// registrations one by one: 0.7-1.5 s at load ~25, where a later run
// started in ~20 ms).
import { test } from "node:test";
import assert from "node:assert/strict";
import { BroadcastChannel } from "node:worker_threads";
import { loadWorkerFactory } from "./core-bundle.mjs";
import { assetPath, until } from "./helpers.mjs";

/** The worker's list of fixtures/collector-order.mjs. @returns {Promise<string[]>} */
function orderOfWorker() {
    const ch = new BroadcastChannel("code-mode-collector-order");
    return new Promise((resolve) => {
        ch.onmessage = (e) => {
            ch.close();
            resolve(e.data);
        };
        ch.postMessage("order?");
    });
}

test("registrations, then ready() and a run at once: the run starts before the collector's pass over their garbage, which comes once the worker is idle", { timeout: 120_000 }, async (t) => {
    const { workerFactory, cleanup } = await loadWorkerFactory("collector-order.mjs");
    t.after(cleanup);
    const api = await workerFactory({ wasmLocation: assetPath });
    t.after(() => api.dispose());
    const ex = api.createSession().getLlmTools().find((/** @type {any} */ x) => x.name === "executeCode");
    await api.ready();
    // Enough that the page reads the new instructions for a while before
    // it answers ready(): the pass scheduled at once came first (3 of 3).
    for (let i = 0; i < 1000; i++) {
        api.registerTool({ name: `svc.op${i}`, description: `Operation ${i}.`, inputSchema: { type: "object", properties: { id: { type: "string" } } }, execute: () => i });
    }
    await api.ready();
    const r = await ex.execute({ code: "return 1", explanation: "" });
    assert.equal(r.result, 1);
    /** @type {string[]} */
    let order = [];
    await until(async () => (order = await orderOfWorker()).includes("collect"), "the collector's pass");
    // From the answer to the last ready() on.
    assert.deepEqual(order.slice(order.lastIndexOf("pong")), ["pong", "started", "done", "collect"]);
});
