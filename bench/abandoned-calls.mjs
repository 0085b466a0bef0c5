// How much memory tool calls that never settle hold after their runs ended
// (issue 9: it was about 13 KB per call, +133 MB per 10,000, forever).
// Not a test (no thresholds): `node --expose-gc bench/abandoned-calls.mjs`
// after `make build`. Prints one line:
//
//   BENCH abandoned-calls calls=10000 heap+external=<MB> rss=<MB> perCall=<KB>
//
// the growth of V8's heap plus external memory (ArrayBuffers: the Go core's
// and the sandboxes' WebAssembly memories) and of the process's RSS, from
// before the 10,000 calls to after them, each after a full GC.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

if (typeof globalThis.gc !== "function") {
    console.error("run with node --expose-gc");
    process.exit(2);
}
const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
const { IoCodeModeFactory } = await import(pathToFileURL(join(dist, "index.mjs")).href);
const api = await IoCodeModeFactory({
    wasmLocation: join(dist, "emscripten-module.wasm"),
    maxToolCalls: 2000,
    tools: [{ name: "t.hang", description: "Never settles.", execute: () => new Promise(() => {}) }],
});
const executeCode = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
const runs = (n) => {
    let p = Promise.resolve();
    for (let i = 0; i < n; i++) {
        p = p.then(async () => {
            const r = await executeCode.execute({ code: "for (let i = 0; i < 1000; i++) tools.t.hang({}); return 1", explanation: "" });
            if (!r.ok || r.toolCalls.length !== 1000) throw new Error(JSON.stringify(r.error ?? r.toolCalls.length));
        });
    }
    return p;
};
const settle = async () => {
    for (let i = 0; i < 3; i++) {
        await new Promise((r) => setTimeout(r, 50));
        globalThis.gc();
    }
    const m = process.memoryUsage();
    return { heap: m.heapUsed + m.external, rss: m.rss };
};
await runs(3); // warm: instances, compiled code, Go's heap
const before = await settle();
await runs(10);
const after = await settle();
const mb = (b) => (b / 2 ** 20).toFixed(1);
console.log(`BENCH abandoned-calls calls=10000 heap+external=${mb(after.heap - before.heap)}MB rss=${mb(after.rss - before.rss)}MB perCall=${((after.heap - before.heap) / 10000 / 1024).toFixed(2)}KB`);
api.dispose();
process.exit(0);
