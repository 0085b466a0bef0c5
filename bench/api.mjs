// End-to-end side of `make bench`: the workloads of bench/api-workloads.json
// through the public JavaScript API, on either side:
//
//   ours: dist/index.mjs as a user imports it (IoCodeModeFactory({
//         wasmLocation }), registerTool, createSession, getLlmTools, and
//         executeCode.execute({ code, explanation }) per run);
//   base: quickjs-emscripten's own JS host (quickjs-emscripten-core with
//         @jitl/quickjs-wasmfile-release-sync, the same QuickJS asset) doing
//         what a careful integration does per isolated run (baseRun below).
//
//   node bench/api.mjs ours|base cold                one cold sample (fresh process)
//   node bench/api.mjs ours|base all [a,b]           the other workloads
//   node bench/api.mjs ours|base profile <name> [s]  repeat one workload s seconds (for --cpu-prof;
//                                                    api-cold: one cold sample)
//
// Prints one JSON object on stdout (bench/run.mjs reads its last line). All
// times are microseconds of wall clock (performance.now) around whole runs.
// BENCH_API_DIST: the folder holding index.mjs (default dist/).

import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import { catalogTools } from "./catalog.mjs";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const workloads = JSON.parse(readFileSync(path.join(root, "bench/api-workloads.json"), "utf8"));
const distDir = path.resolve(root, process.env.BENCH_API_DIST ?? "dist");
const distIndex = pathToFileURL(path.join(distDir, "index.mjs")).href;
const wasmLocation = path.join(distDir, "emscripten-module.wasm");

// The page tool of every workload, the same function on both sides: a small
// JSON object back, as a typical read tool returns.
const echo = {
  name: "bench.echo",
  description: "Returns a small record for the index it is given.",
  inputSchema: { type: "object", properties: { i: { type: "number" } }, required: ["i"] },
  execute: async (input) => ({ id: input.i, name: "item-" + input.i, tags: ["alpha", "beta"], active: input.i % 2 === 0 }),
};

// The JSON-heavy workloads' tools (api-json-*): 2,000 records are 123 KB
// of JSON, as a list or search tool returns them, as a value or as the
// text of an MCP tool's content. Made once per size, so both sides time
// the hand-over and the parse, not the making.
const recordsOf = new Map();
const records = (n) => {
  if (!recordsOf.has(n)) {
    const list = Array.from({ length: n }, (_, i) => ({ id: i, name: "item-" + i, tags: ["a", "b"], active: i % 2 === 0 }));
    recordsOf.set(n, { list, text: JSON.stringify(list) });
  }
  return recordsOf.get(n);
};
const countSchema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
const extraTools = new Map(
  [
    { name: "bench.records", description: "Returns n records.", inputSchema: countSchema, execute: async (input) => records(input.n).list },
    { name: "bench.recordsText", description: "Returns n records as JSON text.", inputSchema: countSchema, execute: async (input) => records(input.n).text },
  ].map((t) => [t.name, t]),
);
// toolsOf is the page tools of workload w: bench.echo, and those it names.
const toolsOf = (w) => [echo, ...(w?.tools ?? []).map((n) => extraTools.get(n))];

const codeOf = (side, w, n) => (w[side] ?? w.code).replaceAll("{N}", String(n ?? w.calls ?? 0));

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function check(name, got, want) {
  if (got !== want) throw new Error(`${name}: result ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

// ---------------------------------------------------------------------------
// ours: the public API of dist/index.mjs

async function oursSession(IoCodeModeFactory, tools = [echo], worker = false) {
  const api = await IoCodeModeFactory({ wasmLocation, worker });
  for (const t of tools) api.registerTool(t);
  const session = api.createSession();
  const [, executeCode] = session.getLlmTools();
  const run = async (code) => {
    const r = await executeCode.execute({ code, explanation: "" });
    if (!r.ok) throw new Error(`ours: run failed: ${JSON.stringify(r.error)}`);
    return r.result;
  };
  return { api, run };
}

// ---------------------------------------------------------------------------
// base: quickjs-emscripten's JS host, one isolated run
//
// What our executeCode does, the way a careful quickjs-emscripten integration
// does it: a fresh runtime per run with a memory limit and a deadline
// (interrupt handler), a context, one host function for tool calls (it
// returns a context.newPromise() resolved from JS with the tool's value
// marshalled as JSON, then drains the job queue: the documented pattern), a
// prelude that defines tool_call and the namespaced `tools` object, the code
// as the body of an async function, the result as JSON, everything disposed.

const tools = new Map([echo, ...extraTools.values()].map((t) => [t.name, t]));

// tools = { bench: { echo: (input) => tool_call("bench.echo", input) } }
function toolsLiteral(names) {
  const tree = {};
  for (const name of names) {
    const parts = name.split(".");
    let node = tree;
    for (const p of parts.slice(0, -1)) node = node[p] ??= {};
    node[parts.at(-1)] = name;
  }
  const lit = (node) =>
    typeof node === "string"
      ? `(input) => tool_call(${JSON.stringify(node)}, input)`
      : `{ ${Object.entries(node).map(([k, v]) => `${JSON.stringify(k)}: ${lit(v)}`).join(", ")} }`;
  return lit(tree);
}

const preludeOf = (names) => `(() => {
  const call = globalThis.__host_call;
  delete globalThis.__host_call;
  globalThis.tool_call = async (name, input) => JSON.parse(await call(name, JSON.stringify(input === undefined ? null : input)));
  globalThis.tools = ${toolsLiteral(names)};
})();`;
const PRELUDE = preludeOf([echo.name]);

const CRYPTO_PRELUDE = `(() => {
  const random = globalThis.__host_random;
  delete globalThis.__host_random;
  globalThis.crypto = { getRandomValues(a) { new Uint8Array(a.buffer, a.byteOffset, a.byteLength).set(new Uint8Array(random(a.byteLength))); return a; } };
})();`;

const MEMORY_LIMIT = 128 << 20; // our default memoryLimit (MB)
const TIMEOUT_MS = 30000; // our default timeout

async function baseRun(mod, code, prelude = PRELUDE) {
  const rt = mod.newRuntime();
  rt.setMemoryLimit(MEMORY_LIMIT);
  const deadline = Date.now() + TIMEOUT_MS;
  rt.setInterruptHandler(() => Date.now() > deadline);
  const ctx = rt.newContext();
  try {
    const host = ctx.newFunction("__host_call", (nameH, inputH) => {
      const tool = tools.get(ctx.getString(nameH));
      const input = JSON.parse(ctx.getString(inputH));
      const d = ctx.newPromise();
      Promise.resolve()
        .then(() => tool.execute(input, {}))
        .then(
          (v) => {
            const h = ctx.newString(JSON.stringify(v) ?? "null");
            d.resolve(h);
            h.dispose();
          },
          (e) => {
            const h = ctx.newError(String(e?.message ?? e));
            d.reject(h);
            h.dispose();
          },
        );
      d.settled.then(() => rt.executePendingJobs());
      return d.handle;
    });
    ctx.setProp(ctx.global, "__host_call", host);
    host.dispose();
    if (code.includes("crypto")) {
      // crypto.getRandomValues over the host's Web Crypto, its bytes handed
      // over as an ArrayBuffer (api-random-64k).
      const random = ctx.newFunction("__host_random", (nH) => ctx.newArrayBuffer(crypto.getRandomValues(new Uint8Array(ctx.getNumber(nH))).buffer));
      ctx.setProp(ctx.global, "__host_random", random);
      random.dispose();
      ctx.unwrapResult(ctx.evalCode(CRYPTO_PRELUDE)).dispose();
    }
    ctx.unwrapResult(ctx.evalCode(prelude)).dispose();
    const p = ctx.unwrapResult(ctx.evalCode(`(async () => {\n${code}\n})()`));
    const settled = ctx.resolvePromise(p);
    p.dispose();
    rt.executePendingJobs();
    const h = ctx.unwrapResult(await settled);
    const v = ctx.dump(h);
    h.dispose();
    return v;
  } finally {
    ctx.dispose();
    rt.dispose();
  }
}

// ---------------------------------------------------------------------------
// cold: import, load, first run; one sample per process

async function cold(side) {
  const w = workloads["api-cold"];
  let t0, t1, t2, t3, v, dispose;
  if (side === "ours") {
    t0 = performance.now();
    const { IoCodeModeFactory } = await import(distIndex);
    t1 = performance.now();
    const api = await IoCodeModeFactory({ wasmLocation });
    t2 = performance.now();
    api.registerTool(echo);
    const [, executeCode] = api.createSession().getLlmTools();
    const r = await executeCode.execute({ code: codeOf(side, w), explanation: "" });
    t3 = performance.now();
    v = r.result;
    dispose = () => api.dispose();
  } else {
    // The brief's baseline: import, module (the glue reads, compiles and
    // instantiates the asset), context, one host function, evalCode("1+1").
    t0 = performance.now();
    const { newQuickJSWASMModuleFromVariant } = await import("quickjs-emscripten-core");
    const variant = (await import("@jitl/quickjs-wasmfile-release-sync")).default;
    t1 = performance.now();
    const mod = await newQuickJSWASMModuleFromVariant(variant);
    t2 = performance.now();
    const ctx = mod.newContext();
    const host = ctx.newFunction("__host_call", () => ctx.undefined);
    ctx.setProp(ctx.global, "__host_call", host);
    host.dispose();
    const h = ctx.unwrapResult(ctx.evalCode(codeOf(side, w)));
    v = ctx.dump(h);
    h.dispose();
    ctx.dispose();
    t3 = performance.now();
    dispose = () => {};
  }
  check("api-cold", v, w.expect);
  dispose();
  const us = (a, b) => (b - a) * 1000;
  return { median: us(t0, t3), samples: [us(t0, t3)], import: us(t0, t1), factory: us(t1, t2), firstRun: us(t2, t3) };
}

// ---------------------------------------------------------------------------
// warm workloads

async function measure(name, run, side) {
  const w = workloads[name];
  const batch = w.batch ?? 1;
  let once;
  if (w.calls) {
    // Per awaited call: runs of N sequential calls minus runs of none,
    // interleaved, divided by N.
    const code = w[side] ?? w.code;
    const withCalls = code.replaceAll("{N}", String(w.calls));
    const without = code.replaceAll("{N}", "0");
    once = async () => {
      let tN = 0, t0 = 0;
      for (let i = 0; i < batch; i++) {
        let t = performance.now();
        check(name, await run(without), 0);
        t0 += performance.now() - t;
        t = performance.now();
        check(name, await run(withCalls), w.calls);
        tN += performance.now() - t;
      }
      return ((tN - t0) * 1000) / batch / w.calls;
    };
  } else {
    const code = w.code;
    once = async () => {
      let v;
      const t0 = performance.now();
      for (let i = 0; i < batch; i++) v = await run(code);
      const t1 = performance.now();
      check(name, v, w.expect);
      return ((t1 - t0) * 1000) / batch;
    };
  }
  for (let i = 0; i < (w.warmup ?? 1); i++) await once();
  const samples = [];
  for (let i = 0; i < (w.runs ?? 7); i++) samples.push(await once());
  return { median: median(samples), samples };
}

// runner runs code with the given page tools: ours on a session of its
// own factory, base with a prelude defining them.
async function runner(side, tools = [echo]) {
  if (side === "ours") {
    const { IoCodeModeFactory } = await import(distIndex);
    const { api, run } = await oursSession(IoCodeModeFactory, tools);
    return { run, close: () => api.dispose() };
  }
  const { newQuickJSWASMModuleFromVariant } = await import("quickjs-emscripten-core");
  const variant = (await import("@jitl/quickjs-wasmfile-release-sync")).default;
  const mod = await newQuickJSWASMModuleFromVariant(variant);
  const prelude = preludeOf(tools.map((t) => t.name));
  return { run: (code) => baseRun(mod, code, prelude), close: () => {} };
}

// ---------------------------------------------------------------------------
// registration and search over a real catalog (internal/search/eval)

const noop = async () => null;

// One sample per fresh factory: the time of registerTools to ready() (ours:
// in-thread, ready() at once up to 2,048 tools), or of JSON.parse of the
// catalog's text (base: no registry to compare with).
// In worker mode (w.worker) registerTools returns once the page has checked
// the tools and posted them; the sample runs to ready(), when the worker's
// core has taken them and sent back the instructions (page: the call alone).
// w.batches: the sample is w.batches registerTools calls of w.batch tools
// (an adapter's source registers by 128) on a factory that has w.register
// tools already, registered untimed; base: JSON.parse of their text.
async function measureRegister(side, w) {
  const all = catalogTools(w.register + (w.batches ?? 0) * (w.batch ?? 0));
  const text = JSON.stringify(w.batches ? all.slice(w.register) : all);
  const before = w.batches ? JSON.stringify(all.slice(0, w.register)) : "";
  const samples = [];
  // CPU time of the process during registerTools (microseconds): on a busy
  // machine the wall time is mostly waiting for a CPU.
  const cpu = [];
  const page = [];
  let filterCalls = 0;
  const calls = [];
  const IoCodeModeFactory = side === "ours" ? (await import(distIndex)).IoCodeModeFactory : null;
  for (let i = 0; i < (w.runs ?? 7); i++) {
    if (side === "ours") {
      const tools = JSON.parse(text).map((t) => ({ ...t, execute: noop }));
      // w.filter: a toolFilter that shows every tool, so that what is timed
      // is how often it is asked (its calls on stderr, .filterCalls).
      const api = await IoCodeModeFactory({ wasmLocation, worker: w.worker === true, ...(w.filter && { toolFilter: () => (filterCalls++, true) }) });
      if (before) api.registerTools(JSON.parse(before).map((t) => ({ ...t, execute: noop })));
      await api.ready();
      filterCalls = 0;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      // w.each: tool by tool, as an adapter's source registered them.
      if (w.each) for (const t of tools) api.registerTool(t);
      else if (w.batches) for (let b = 0; b < tools.length; b += w.batch) api.registerTools(tools.slice(b, b + w.batch));
      else api.registerTools(tools);
      page.push((performance.now() - t0) * 1000);
      // In-thread too: past 2,048 tools a registerTools call registers the
      // rest in slices over later tasks (registering.mjs), done at ready().
      await api.ready();
      samples.push((performance.now() - t0) * 1000);
      const c = process.cpuUsage(c0);
      cpu.push(c.user + c.system);
      calls.push(filterCalls);
      if (api.listTools().length !== all.length) throw new Error("api-register: tools missing");
      api.dispose();
    } else {
      const t0 = performance.now();
      const tools = JSON.parse(text);
      samples.push((performance.now() - t0) * 1000);
      check("api-register", tools.length, all.length - (before ? w.register : 0));
    }
  }
  if (side !== "ours") return { median: median(samples), samples };
  return { median: median(samples), samples, cpu: median(cpu), ...(w.worker && { page: median(page) }), ...(w.filter && { filterCalls: median(calls) }) };
}

// One session made and ended: createSession() and dispose() on a factory
// with bench.echo (ours), a context made and disposed (base).
async function sessionMaker(side) {
  if (side === "ours") {
    const { IoCodeModeFactory } = await import(distIndex);
    const api = await IoCodeModeFactory({ wasmLocation, tools: [echo] });
    return { make: () => api.createSession().dispose(), close: () => api.dispose() };
  }
  const { newQuickJSWASMModuleFromVariant } = await import("quickjs-emscripten-core");
  const variant = (await import("@jitl/quickjs-wasmfile-release-sync")).default;
  const mod = await newQuickJSWASMModuleFromVariant(variant);
  return { make: () => mod.newContext().dispose(), close: () => {} };
}

// Per session, timed over batches of w.sessions.
async function measureSessions(side, w) {
  const { make, close } = await sessionMaker(side);
  const once = () => {
    const t0 = performance.now();
    for (let i = 0; i < w.sessions; i++) make();
    return ((performance.now() - t0) * 1000) / w.sessions;
  };
  for (let i = 0; i < (w.warmup ?? 1); i++) once();
  const samples = [];
  for (let i = 0; i < (w.runs ?? 7); i++) samples.push(once());
  close();
  return { median: median(samples), samples };
}

// A factory with n catalog tools and bench.echo, for the workloads that
// need a large registry; its own, so the other workloads keep one tool.
// worker: the factory's engine in a worker, which has them at ready().
async function withCatalog(n, f, worker) {
  const { IoCodeModeFactory } = await import(distIndex);
  const { api, run } = await oursSession(IoCodeModeFactory, [echo], worker);
  api.registerTools(catalogTools(n).map((t) => ({ ...t, execute: noop })));
  await api.ready();
  try {
    return await f(run);
  } finally {
    api.dispose();
  }
}

const [side, mode = "all", only, secs] = process.argv.slice(2);
if (!["ours", "base"].includes(side)) {
  console.error("usage: node bench/api.mjs ours|base cold|all|profile [workloads] [seconds]");
  process.exit(2);
}
const out = { side, api: true, results: {} };
if (mode === "cold") {
  out.results["api-cold"] = await cold(side);
} else if (mode === "profile" && only === "api-cold") {
  // One cold sample: the profile's "per run" is the whole start-up.
  const r = await cold(side);
  out.results["api-cold"] = { ...r, runs: 1 };
} else {
  const r = await runner(side, mode === "profile" ? toolsOf(workloads[only]) : undefined);
  if (mode === "profile") {
    const w = workloads[only];
    if (!w) throw new Error(`profile: no workload ${only}`);
    if (w.register) {
      // Registration: one fresh factory per sample, as in measureRegister.
      let n = 0;
      for (const t0 = performance.now(); performance.now() - t0 < Number(secs ?? 5) * 1000; n++) await measureRegister(side, { ...w, runs: 1 });
      out.results[only] = { runs: n };
      r.close();
      process.stdout.write(JSON.stringify(out) + "\n", () => process.exit(0));
      await new Promise(() => {});
    }
    if (w.sessions) {
      // Sessions made and ended on one factory, as measureSessions does.
      const { make, close } = await sessionMaker(side);
      let n = 0;
      for (const t0 = performance.now(); performance.now() - t0 < Number(secs ?? 5) * 1000; n++) make();
      out.results[only] = { runs: n };
      close();
      r.close();
      process.stdout.write(JSON.stringify(out) + "\n", () => process.exit(0));
      await new Promise(() => {});
    }
    const code = codeOf(side, w);
    const want = w.calls ?? w.expect;
    let n = 0;
    for (const t0 = performance.now(); performance.now() - t0 < Number(secs ?? 5) * 1000; n++) check(only, await r.run(code), want);
    out.results[only] = { runs: n };
  } else {
    const names = only ? only.split(",") : Object.keys(workloads).filter((n) => !n.startsWith("_") && n !== "api-cold");
    for (const n of names) {
      const w = workloads[n];
      if (w.register) out.results[n] = await measureRegister(side, w);
      else if (w.sessions) out.results[n] = await measureSessions(side, w);
      else if (w.catalog && side === "ours") out.results[n] = await withCatalog(w.catalog, (run) => measure(n, run, side), w.worker === true);
      else if (w.tools) {
        // Its own factory (or prelude), so the other workloads keep one tool.
        const rt = await runner(side, toolsOf(w));
        out.results[n] = await measure(n, rt.run, side);
        rt.close();
      } else out.results[n] = await measure(n, r.run, side);
    }
  }
  r.close();
}
// The Go core may leave a timer behind; the result is all that matters.
process.stdout.write(JSON.stringify(out) + "\n", () => process.exit(0));
