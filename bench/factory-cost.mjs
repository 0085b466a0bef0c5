// What a factory costs now that each in-thread factory has a Go core of its
// own (issue 9: a fatal error in the Go core ends only its factory). Not a
// test (no thresholds): `node --expose-gc bench/factory-cost.mjs` after
// `make build`. Prints one line per factory (1..N, all kept alive):
//
//   BENCH factory n=<i> createMs=<ms> firstRunMs=<ms> rss=+<MB> heap+external=+<MB>
//
// createMs is IoCodeModeFactory's time, firstRunMs the factory's first
// `return 1` run, and the memory columns the growth the factory brought,
// after a full GC (the Go core's WebAssembly memory shows in both).
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

if (typeof globalThis.gc !== "function") {
    console.error("run with node --expose-gc");
    process.exit(2);
}
const n = Number(process.argv[2] || 4);
const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
const { IoCodeModeFactory } = await import(pathToFileURL(join(dist, "index.mjs")).href);
const mem = () => {
    globalThis.gc();
    const m = process.memoryUsage();
    return { rss: m.rss, heap: m.heapUsed + m.external };
};
const mb = (b) => (b / 1048576).toFixed(1);
const keep = [];
let before = mem();
for (let i = 1; i <= n; i++) {
    const t0 = performance.now();
    const api = await IoCodeModeFactory({ wasmLocation: join(dist, "emscripten-module.wasm") });
    const t1 = performance.now();
    const exec = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
    const r = await exec.execute({ code: "return 1", explanation: "" });
    const t2 = performance.now();
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    keep.push(api);
    const after = mem();
    console.log(
        `BENCH factory n=${i} createMs=${(t1 - t0).toFixed(0)} firstRunMs=${(t2 - t1).toFixed(0)} rss=+${mb(after.rss - before.rss)} heap+external=+${mb(after.heap - before.heap)}`,
    );
    before = after;
}
for (const api of keep) api.dispose();
