// @mode-independent: worker mode only (the page keeps what its workers compiled).
// Node.js, worker mode: each worker's Go core compiles small WebAssembly
// modules of its own (the interrupt poll, the host-import trampolines), and
// V8 in Node.js 20 keeps such a module, with ~30 KB of the worker's native
// memory, after the worker ends (helper-modules.mjs): every factory created
// and disposed cost ~40 KB of rss for good. The page now keeps the first
// worker's copies, and V8 gives later workers those instead of compiling
// new ones. Counted here as what the page holds: the WebAssembly.Module
// objects alive on its heap (the inspector's queryObjects, after a full
// GC) after one factory and after four, in a child process. Before, the
// page held only the Go core's module (the QuickJS asset's goes with its
// factory): the helpers were not kept, and each worker compiled its own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { loadWorkerFactory } from "./core-bundle.mjs";
import { assetPath, dist, inChild, indexURL } from "./helpers.mjs";

const script = `
import { Session } from "node:inspector/promises";
const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
const session = new Session();
session.connect();
// The Go core's helper modules (jsbridge/poll.go's exports "poll",
// jsbridge/fastimport.go's "t") among the WebAssembly.Module objects alive
// on this thread's heap, by their exports, sorted.
const HELPERS = "function () { return this.map((m) => WebAssembly.Module.exports(m).map((e) => e.name)).filter((n) => n.includes('poll') || n.includes('t')).map((n) => n.join(',')).sort(); }";
const modules = async () => {
    globalThis.gc();
    // In an object group released after: the inspector holds what it returned.
    const objectGroup = "count";
    const { result: proto } = await session.post("Runtime.evaluate", { expression: "WebAssembly.Module.prototype", objectGroup });
    const { objects } = await session.post("Runtime.queryObjects", { prototypeObjectId: proto.objectId, objectGroup });
    const { result } = await session.post("Runtime.callFunctionOn", { objectId: objects.objectId, functionDeclaration: HELPERS, returnByValue: true });
    await session.post("Runtime.releaseObjectGroup", { objectGroup });
    return result.value;
};
const counts = [];
for (let i = 1; i <= 4; i++) {
    const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, worker: true, tools: [{ name: "add", execute: ({ a, b }) => a + b }] });
    const [, executeCode] = api.createSession().getLlmTools();
    const r = await executeCode.execute({ code: "return await tools.add({ a: 2, b: 40 })", explanation: "x" });
    if (r.result !== 42) throw new Error(JSON.stringify(r));
    api.dispose();
    if (i === 1 || i === 4) counts.push(await modules());
}
session.disconnect();
console.log(JSON.stringify(counts));
`;

test("worker mode: the page keeps the modules its workers compile, once for all factories", () => {
    const child = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 120_000 });
    assert.equal(child.status, 0, child.stderr);
    const [afterOne, afterFour] = JSON.parse(child.stdout.trim().split("\n").pop());
    // The poll module and a trampoline, kept from the first worker.
    assert.ok(afterOne.some((e) => e.startsWith("poll,")), JSON.stringify(afterOne));
    assert.ok(afterOne.some((e) => e.startsWith("t,")), JSON.stringify(afterOne));
    // The same ones after four: nothing more per factory.
    assert.deepEqual(afterFour, afterOne);
});

// The page compiles the Go core and the QuickJS asset while the worker
// starts, and hands them over with init. When the asset failed there (here
// a wasmLocation with no file), init carried neither, and the worker
// fetched and compiled the 8 MB core again (outside38's notes); now it gets
// the core the page compiled. Counted in the worker (fixtures/
// core-compiles.mjs): 1 compile of the core before, 0 now.
test("worker mode: when only the QuickJS asset fails on the page, the worker gets the core the page compiled", { timeout: 150_000 }, async (t) => {
    const { hostURL, cleanup } = await loadWorkerFactory("core-compiles.mjs");
    t.after(cleanup);
    const r = inChild(`
        const { BroadcastChannel } = await import("node:worker_threads");
        const ch = new BroadcastChannel("code-mode-core-compiles");
        const compiles = new Promise((r) => (ch.onmessage = (e) => r(e.data)));
        const { workerFactory } = await import(${JSON.stringify(hostURL)});
        const error = await workerFactory({ wasmLocation: ${JSON.stringify(join(dist, "no-such-asset.wasm"))} }).then(() => "", (e) => e.message);
        const out = { error, compiles: await compiles };
        ch.close();
        process.stdout.write(JSON.stringify(out));
        process.exit(0);
    `);
    assert.match(r.error, /no-such-asset\.wasm/);
    assert.equal(r.compiles, 0, "the worker compiled the Go core again");
});
