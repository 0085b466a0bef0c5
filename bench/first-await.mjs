// The first run of a fresh in-thread factory that awaits, against the same
// run repeated on that factory, in fresh Node processes (run by `make bench`
// after bench/worker.mjs; a line of the same form, `ours` = that first
// awaiting run, `base` = the median of its repeats in the same process):
//
//   api-first-await   a run that awaits a timer and then a page tool, after
//                     one `return 1` run (so both sides run on an instance
//                     already made), wall time of executeCode.execute
//
// Details go to stderr as '#' lines: IoCodeModeFactory's own time (what a
// warm-up before the first run costs) and main-thread CPU times, which load
// on a shared machine barely moves (Linux: /proc/thread-self/schedstat).
//
//   node bench/first-await.mjs [processes]     default 5
//   node bench/first-await.mjs child           one sample (JSON on stdout)
//
// DIST=dir measures another build (default dist/).

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const dist = path.resolve(process.env.DIST ?? path.join(root, "dist"));
const CODE = "await new Promise((r) => setTimeout(r, 1));\nreturn (await tools.bench.echo({ i: 1 })).i;";
const REPEATS = 5;

const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// Main-thread CPU in ms, or NaN where the kernel does not say.
const cpu = () => (existsSync("/proc/thread-self/schedstat") ? Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6 : NaN);

async function child() {
    const { IoCodeModeFactory } = await import(pathToFileURL(path.join(dist, "index.mjs")).href);
    let c0 = cpu();
    let t0 = performance.now();
    const api = await IoCodeModeFactory({ wasmLocation: path.join(dist, "emscripten-module.wasm"), timeout: 5000 });
    const factory = [performance.now() - t0, cpu() - c0];
    api.registerTool({ name: "bench.echo", description: "Returns its input.", inputSchema: { type: "object" }, execute: async (x) => x });
    const [, executeCode] = api.createSession().getLlmTools();
    const run = async (code, want) => {
        c0 = cpu();
        t0 = performance.now();
        const r = await executeCode.execute({ code, explanation: "" });
        if (!r.ok || r.result !== want) throw new Error(`first-await: ${JSON.stringify(r)}`);
        return [performance.now() - t0, cpu() - c0];
    };
    await run("return 1", 1);
    const first = await run(CODE, 1);
    const repeats = [];
    for (let i = 0; i < REPEATS; i++) repeats.push(await run(CODE, 1));
    api.dispose();
    const med = (k) => median(repeats.map((r) => r[k]));
    console.log(JSON.stringify({ factory, first, repeat: [med(0), med(1)] }));
}

function parent(n) {
    const samples = [];
    for (let i = 0; i < n; i++) {
        const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "child"], { encoding: "utf8", env: process.env });
        if (r.status !== 0) throw new Error(`first-await child: ${r.stderr}`);
        samples.push(JSON.parse(r.stdout.trim().split("\n").pop()));
    }
    const m = (k, j) => median(samples.map((s) => s[k][j]));
    const ours = m("first", 0);
    const base = m("repeat", 0);
    console.log(`BENCH api-first-await ours=${ours.toFixed(1)}ms base=${base.toFixed(1)}ms ratio=${(ours / base).toFixed(2)}`);
    console.error(
        `# api-first-await: ${n} processes; main-thread CPU first ${m("first", 1).toFixed(1)} ms, repeat ${m("repeat", 1).toFixed(1)} ms; ` +
            `IoCodeModeFactory ${m("factory", 0).toFixed(1)} ms (main-thread CPU ${m("factory", 1).toFixed(1)} ms); ` +
            `first runs ${samples.map((s) => s.first[0].toFixed(0)).join(", ")} ms`,
    );
}

if (process.argv[2] === "child") await child();
else parent(Number(process.argv[2] ?? 5));
