// Where a cold start's time goes: import of dist/index.mjs to the first
// result of executeCode, split into phases, in fresh Node processes. Prints
// the medians of each phase's wall time and main-thread CPU time, and the
// process's CPU time over all its threads (V8's background compilers
// included). CPU time is what load on a shared machine barely moves, so it
// compares builds where wall times do not.
//
//   node bench/cold-phases.mjs [runs] [node flags...]     e.g. 7 --liftoff-only
//
// DIST=dir measures another build (default dist/). Linux only: CPU times
// come from /proc/thread-self/schedstat. The phases are marked by wrapping
// the WebAssembly API: the core is the module of more than 1 MB.

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const dist = path.resolve(process.env.DIST ?? path.join(root, "dist"));

if (process.argv[2] === "child") {
  await child();
} else {
  parent(Number(process.argv[2] ?? 7), process.argv.slice(3));
}

async function child() {
  const ms = (s) => Number(s.split(" ")[0]) / 1e6;
  const mainCpu = () => ms(readFileSync("/proc/thread-self/schedstat", "utf8"));
  const allCpu = () =>
    readdirSync("/proc/self/task").reduce((a, t) => {
      try {
        return a + ms(readFileSync(`/proc/self/task/${t}/schedstat`, "utf8"));
      } catch {
        return a; // a thread that ended meanwhile
      }
    }, 0);
  const t0 = performance.now(), c0 = mainCpu(), a0 = allCpu();
  const marks = {};
  const mark = (name) => (marks[name] ??= [performance.now() - t0, mainCpu() - c0]);
  const W = WebAssembly;
  const big = (b) => (b instanceof W.Module ? false : (b?.byteLength ?? 0) > 1 << 20);
  const { compile, instantiate } = W;
  let coreDone = false;
  W.compile = async (b, ...rest) => {
    if (big(b)) mark("core");
    return compile.call(W, b, ...rest);
  };
  W.instantiate = async (b, ...rest) => {
    if (big(b)) mark("core");
    const r = await instantiate.call(W, b, ...rest);
    if (!coreDone && (big(b) || marks.core)) {
      coreDone = true;
      mark("core instantiated");
    }
    return r;
  };
  const Instance = W.Instance;
  W.Instance = function (m, i) {
    const r = new Instance(m, i);
    if (marks.session) mark("QuickJS instantiated");
    return r;
  };
  W.Instance.prototype = Instance.prototype;
  const { IoCodeModeFactory } = await import(pathToFileURL(path.join(dist, "index.mjs")).href);
  mark("imported");
  const api = await IoCodeModeFactory({ wasmLocation: path.join(dist, "emscripten-module.wasm") });
  mark("factory");
  api.registerTool({ name: "bench.echo", description: "Returns its input.", inputSchema: { type: "object" }, execute: async (x) => x });
  const [, executeCode] = api.createSession().getLlmTools();
  mark("session");
  const r = await executeCode.execute({ code: "return 1+1", explanation: "" });
  if (r.result !== 2) throw new Error(`first run: ${JSON.stringify(r)}`);
  mark("first result");
  await executeCode.execute({ code: "return 1+1", explanation: "" });
  mark("second result");
  api.dispose();
  console.log(JSON.stringify({ marks, all: allCpu() - a0 }));
}

function parent(runs, flags) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(process.execPath, [...flags, fileURLToPath(import.meta.url), "child"], { env: { ...process.env, DIST: dist }, encoding: "utf8" });
    samples.push(JSON.parse(out.trim().split("\n").pop()));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const phases = [
    ["import of dist/index.mjs", null, "imported"],
    ["loader, until the core's compile starts", "imported", "core"],
    ["core: compile + instantiate", "core", "core instantiated"],
    ["Go runtime + package inits + newFactory", "core instantiated", "factory"],
    ["registerTool + createSession + getLlmTools", "factory", "session"],
    ["first execute, until QuickJS is instantiated", "session", "QuickJS instantiated"],
    ["first execute, the rest", "QuickJS instantiated", "first result"],
    ["total to the first result", null, "first result"],
    ["second execute", "first result", "second result"],
  ];
  const at = (s, name, k) => (name === null ? 0 : s.marks[name][k]);
  console.log(`${dist}, ${runs} fresh processes${flags.length ? " " + flags.join(" ") : ""}; medians in ms`);
  console.log(`${"phase".padEnd(46)} ${"main CPU".padStart(9)} ${"wall".padStart(8)}`);
  for (const [name, a, b] of phases) {
    const cpu = median(samples.map((s) => at(s, b, 1) - at(s, a, 1)));
    const wall = median(samples.map((s) => at(s, b, 0) - at(s, a, 0)));
    console.log(`${name.padEnd(46)} ${cpu.toFixed(1).padStart(9)} ${wall.toFixed(1).padStart(8)}`);
  }
  console.log(`${"process CPU, all threads, to the end".padEnd(46)} ${median(samples.map((s) => s.all)).toFixed(1).padStart(9)}`);
}
