// Worker mode against the engine on the calling thread, through the public
// API of dist/index.mjs (run by `make bench` after bench/run.mjs; lines of
// the same form, `ours` = worker mode, `base` = in-thread, this machine,
// this run):
//
//   api-worker-cold      import to first result, fresh processes (median)
//   api-worker-toolcall  one run that awaits one page tool (median, warm)
//   cancel-busy          abort() of a run spinning in a loop to the next
//                        run's result, i.e. until the engine is free again
//                        (in-thread nothing can call abort() while the loop
//                        holds the thread: the loop's own bound, 2 s by
//                        the clock, ends it)
//   api-worker-instruction-10000
//                        getSystemInstruction() on a factory of 10,000
//                        catalog tools with a toolFilter (each call asks it
//                        of every tool, in both modes): the page thread's
//                        time of one call (median, warm)
//   api-worker-run-10000 one run of return 1 there, execute to result
//
//   node bench/worker.mjs            all lines
//   node bench/worker.mjs cold MODE  one cold sample (MODE: worker|thread)

import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { catalogTools } from "./catalog.mjs";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const distIndex = pathToFileURL(path.join(root, "dist", "index.mjs")).href;
const wasmLocation = path.join(root, "dist", "emscripten-module.wasm");
const echo = { name: "bench.echo", inputSchema: { type: "object" }, execute: async (input) => ({ id: input.i, ok: true }) };

const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function cold(worker) {
    const t0 = performance.now();
    const { IoCodeModeFactory } = await import(distIndex);
    const api = await IoCodeModeFactory({ wasmLocation, worker, tools: [echo] });
    const r = await api.createSession().getLlmTools()[1].execute({ code: "return await tools.bench.echo({ i: 1 })", explanation: "" });
    const ms = performance.now() - t0;
    if (!r.ok) throw new Error(JSON.stringify(r));
    api.dispose();
    return ms;
}

async function warm(worker) {
    const { IoCodeModeFactory } = await import(distIndex);
    // The default timeout: with timeout 2000 (which ended the in-thread
    // spin) a run slowed past 2 s on a loaded machine failed warm() at load
    // ~30. The spin bounds itself instead.
    const api = await IoCodeModeFactory({ wasmLocation, worker, tools: [echo] });
    const exec = api.createSession().getLlmTools()[1];
    const call = async () => {
        const t0 = performance.now();
        const r = await exec.execute({ code: "return await tools.bench.echo({ i: 1 })", explanation: "" });
        if (!r.ok) throw new Error(JSON.stringify(r));
        return performance.now() - t0;
    };
    for (let i = 0; i < 30; i++) await call();
    const toolcall = [];
    for (let i = 0; i < 60; i++) toolcall.push(await call());
    const cancel = [];
    for (let i = 0; i < 5; i++) {
        // Measured from the moment the abort was due (100 ms into the
        // run): in-thread the timer that calls abort() cannot fire before
        // the loop gives the thread back.
        const c = new AbortController();
        const due = performance.now() + 100;
        setTimeout(() => c.abort(new Error("stop")), 100);
        await exec.execute({ code: "const end = Date.now() + 2000; for (;;) if (Date.now() > end) break", explanation: "" }, { signal: c.signal }).catch(() => {});
        await call();
        cancel.push(performance.now() - due);
    }
    api.dispose();
    return { toolcall: median(toolcall), cancel: median(cancel) };
}

// A factory of 10,000 catalog tools and a toolFilter that shows them all:
// getSystemInstruction()'s time on the page thread, and a run's (the
// filter's list goes with each run in worker mode).
async function catalog(worker) {
    const { IoCodeModeFactory } = await import(distIndex);
    const api = await IoCodeModeFactory({ wasmLocation, worker, toolFilter: () => true });
    api.registerTools(catalogTools(10000).map((t) => ({ ...t, execute: async () => null })));
    const s = api.createSession();
    const exec = s.getLlmTools()[1];
    const run = async () => {
        const t0 = performance.now();
        const r = await exec.execute({ code: "return 1", explanation: "" });
        if (!r.ok) throw new Error(JSON.stringify(r));
        return performance.now() - t0;
    };
    await run();
    await api.ready();
    const instruction = [];
    for (let i = 0; i < 21; i++) {
        const t0 = performance.now();
        if (!s.getSystemInstruction().includes("github")) throw new Error("the instruction names no catalog tool");
        instruction.push(performance.now() - t0);
    }
    const runs = [];
    for (let i = 0; i < 11; i++) runs.push(await run());
    api.dispose();
    return { instruction: median(instruction), run: median(runs) };
}

if (process.argv[2] === "cold") {
    console.log(JSON.stringify({ ms: await cold(process.argv[3] === "worker") }));
} else {
    const coldOf = (mode) => {
        const xs = [];
        for (let i = 0; i < 5; i++) {
            const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "cold", mode], { encoding: "utf8" });
            if (r.status !== 0) throw new Error(r.stderr);
            xs.push(JSON.parse(r.stdout.trim().split("\n").pop()).ms);
        }
        return median(xs);
    };
    const line = (name, ours, base, digits = 1) => console.log(`BENCH ${name} ours=${ours.toFixed(digits)}ms base=${base.toFixed(digits)}ms ratio=${(ours / base).toFixed(2)}`);
    line("api-worker-cold", coldOf("worker"), coldOf("thread"));
    const w = await warm(true);
    const t = await warm(false);
    line("api-worker-toolcall", w.toolcall, t.toolcall);
    line("cancel-busy", w.cancel, t.cancel);
    const wc = await catalog(true);
    const tc = await catalog(false);
    line("api-worker-instruction-10000", wc.instruction, tc.instruction, 2);
    line("api-worker-run-10000", wc.run, tc.run);
}
