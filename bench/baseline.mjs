// Baseline side of `make bench`: the workloads of bench/workloads.json on
// quickjs-emscripten's own JavaScript host (quickjs-emscripten-core with the
// @jitl/quickjs-wasmfile-release-sync variant, the same asset our engine
// runs). Prints one JSON object on stdout; bench/run.mjs compares it with
// bench/engine (our engine under GOOS=js).
//
//   node bench/baseline.mjs cold   one cold sample (run it in a fresh process)
//   node bench/baseline.mjs all    every other workload
//   node bench/baseline.mjs all fib25,warm   only these
//   node bench/baseline.mjs profile fib25 5  repeat one workload 5 s (for --cpu-prof)
//
// All times are microseconds of wall clock (performance.now), medians over
// the runs the workload asks for, after its warm-up runs.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";
import variant from "@jitl/quickjs-wasmfile-release-sync";

const here = fileURLToPath(new URL(".", import.meta.url));
const workloads = JSON.parse(readFileSync(here + "workloads.json", "utf8"));
const codeOf = (w) => w.base ?? w.code;

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function check(name, got, want) {
  if (got !== want) throw new Error(`${name}: result ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

// cold: compile + instantiate the asset, runtime + context, evaluate 1+1.
// The glue's JS modules are imported before the clock starts (our side's Go
// code is loaded too); the asset itself is read and compiled inside it, by
// the glue, as a user's first use would.
async function cold() {
  const w = workloads.cold;
  await variant.importFFI();
  await variant.importModuleLoader();
  const t0 = performance.now();
  const mod = await newQuickJSWASMModuleFromVariant(variant);
  const t1 = performance.now();
  const ctx = mod.newContext();
  const r = ctx.evalCode(codeOf(w));
  const v = ctx.dump(ctx.unwrapResult(r));
  ctx.dispose();
  const t2 = performance.now();
  check("cold", v, w.expect);
  // Diagnostic, outside the sample: the same steps again in this process
  // (V8 reuses the compiled module for identical bytes, and the glue's JS
  // has run once).
  const t3 = performance.now();
  const mod2 = await newQuickJSWASMModuleFromVariant(variant);
  const ctx2 = mod2.newContext();
  check("cold", ctx2.dump(ctx2.unwrapResult(ctx2.evalCode(codeOf(w)))), w.expect);
  ctx2.dispose();
  const t4 = performance.now();
  return { median: (t2 - t0) * 1000, samples: [(t2 - t0) * 1000], compile: (t1 - t0) * 1000, firstRun: (t2 - t1) * 1000, again: (t4 - t3) * 1000 };
}

// One synchronous run: runtime, context, eval, result, dispose.
function runSync(mod, code) {
  const rt = mod.newRuntime();
  const ctx = rt.newContext();
  const h = ctx.unwrapResult(ctx.evalCode(code));
  const v = ctx.dump(h);
  h.dispose();
  ctx.dispose();
  rt.dispose();
  return v;
}

// One run with an async host function `host`: each call returns a promise
// made with context.newPromise, resolved from the host (as soon as the host's
// own work, here none, completes), after which the job queue is drained:
// quickjs-emscripten's documented pattern.
async function runHost(mod, code) {
  const rt = mod.newRuntime();
  const ctx = rt.newContext();
  const host = ctx.newFunction("host", () => {
    const d = ctx.newPromise();
    Promise.resolve().then(() => d.resolve());
    d.settled.then(() => rt.executePendingJobs());
    return d.handle;
  });
  ctx.setProp(ctx.global, "host", host);
  host.dispose();
  const p = ctx.unwrapResult(ctx.evalCode(code));
  const settled = ctx.resolvePromise(p);
  p.dispose();
  rt.executePendingJobs();
  const h = ctx.unwrapResult(await settled);
  const v = ctx.dump(h);
  h.dispose();
  ctx.dispose();
  rt.dispose();
  return v;
}

async function measure(name, mod) {
  const w = workloads[name];
  const code = codeOf(w);
  const batch = w.batch ?? 1;
  const per = w.per ?? 1;
  const isHost = name.startsWith("hostcall") || name.startsWith("promise");
  const once = async () => {
    let v;
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) v = isHost ? await runHost(mod, code) : runSync(mod, code);
    const t1 = performance.now();
    check(name, v, w.expect);
    return ((t1 - t0) * 1000) / batch / per;
  };
  for (let i = 0; i < (w.warmup ?? 1); i++) await once();
  const samples = [];
  for (let i = 0; i < (w.runs ?? 7); i++) samples.push(await once());
  return { median: median(samples), samples };
}

const [mode = "all", only] = process.argv.slice(2);
const out = { side: "base", engine: "quickjs-emscripten-core 0.32.0 + @jitl/quickjs-wasmfile-release-sync 0.32.0", results: {} };
if (mode === "cold") {
  out.results.cold = await cold();
} else if (mode === "profile") {
  // Repeat one workload for a while, for node --cpu-prof (bench/profile.mjs).
  const mod = await newQuickJSWASMModuleFromVariant(variant);
  const w = workloads[only];
  const secs = Number(process.argv[4] ?? 5);
  const isHost = only.startsWith("hostcall") || only.startsWith("promise");
  let n = 0;
  for (const t0 = performance.now(); performance.now() - t0 < secs * 1000; n++) {
    check(only, isHost ? await runHost(mod, codeOf(w)) : runSync(mod, codeOf(w)), w.expect);
  }
  out.results[only] = { runs: n };
} else {
  const mod = await newQuickJSWASMModuleFromVariant(variant);
  const names = only ? only.split(",") : Object.keys(workloads).filter((n) => n !== "cold" && !n.startsWith("_"));
  for (const n of names) out.results[n] = await measure(n, mod);
}
process.stdout.write(JSON.stringify(out) + "\n");
