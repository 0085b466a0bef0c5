// Where does a workload's time go? Runs one side of the benchmark on one
// workload for a few seconds under `node --cpu-prof`, then prints the self
// time per run by category (QuickJS's own wasm, Go code by package, the
// syscall/js glue of wasm_exec.js, the wasm<->JS wrappers, GC, ...) and the
// hottest functions.
//
//   node bench/profile.mjs ours hostcall-async [seconds]
//   node bench/profile.mjs base hostcall-async [seconds]
//
// TOP=n lists n functions; FILTER=regexp keeps the matching ones (e.g.
// FILTER='Go (runtime|other)'). Uses build/bench-engine.wasm as built by bench/run.mjs (or BENCH_ENGINE).
//
// The end-to-end workloads (api-warm, api-toolcall, ... of
// bench/api-workloads.json) run bench/api.mjs instead: ours through the
// public API of a copy of dist/ in build/api-prof-dist whose code-mode.wasm
// is rebuilt without -s -w, so that the profile names Go functions (run
// `make build` first); base through quickjs-emscripten's JS host.

import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const [side, workload, seconds = "5"] = process.argv.slice(2);
if (!["ours", "base"].includes(side) || !workload) {
  console.error("usage: node bench/profile.mjs ours|base <workload> [seconds]");
  process.exit(2);
}
const go = process.env.GO ?? "go";
const engine = process.env.BENCH_ENGINE ?? path.join(root, "build/bench-engine.wasm");
const dir = mkdtempSync(path.join(tmpdir(), "bench-prof-"));
const prof = ["--cpu-prof", "--cpu-prof-dir", dir, "--cpu-prof-interval", "100"];
const apiWorkloads = JSON.parse(readFileSync(path.join(root, "bench/api-workloads.json"), "utf8"));
let env = { ...process.env, BENCH_ROOT: root };
let args;
if (workload in apiWorkloads) {
  if (side === "ours") {
    // dist/ with a Go core that keeps its function names.
    const profDist = path.join(root, "build/api-prof-dist");
    mkdirSync(profDist, { recursive: true });
    for (const f of readdirSync(path.join(root, "dist"))) {
      if (f !== "code-mode.wasm" && statSync(path.join(root, "dist", f)).isFile()) copyFileSync(path.join(root, "dist", f), path.join(profDist, f));
    }
    execFileSync(go, ["build", "-trimpath", "-o", path.join(profDist, "code-mode.wasm"), "./wasm"], { cwd: root, stdio: "inherit", env: { ...process.env, GOOS: "js", GOARCH: "wasm" } });
    env.BENCH_API_DIST = profDist;
  }
  args = [...prof, path.join(root, "bench/api.mjs"), side, "profile", workload, seconds];
} else args =
  side === "ours"
    ? // As bench/run.mjs runs it: with its own exports, for jsbridge's fast host imports.
      [...prof, path.join(root, "scripts/wasmexec/wasm_exec_node.cjs"), engine, "profile", workload, seconds]
    : [...prof, path.join(root, "bench/baseline.mjs"), "profile", workload, seconds];
const out = execFileSync(process.execPath, args, { cwd: root, encoding: "utf8", env });
const runs = JSON.parse(out.trim().split("\n").pop()).results[workload].runs;
const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
const p = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
rmSync(dir, { recursive: true });

const nodes = new Map(p.nodes.map((n) => [n.id, n]));
const selfUs = new Map();
for (let i = 0; i < p.samples.length; i++) selfUs.set(p.samples[i], (selfUs.get(p.samples[i]) ?? 0) + p.timeDeltas[i]);

function category(cf) {
  const f = cf.functionName, u = cf.url;
  if (f.startsWith("(")) return f; // (garbage collector), (idle), (program)
  if (/^(wasm-to-js|js-to-wasm|GenericJSToWasmWrapper|WasmToJs|JSToWasm)/.test(f)) return "wasm<->JS wrappers";
  if (u.startsWith("wasm://")) {
    if (f.startsWith("wasm-function[")) return "QuickJS (asset wasm)";
    if (f.startsWith("runtime.") || f.startsWith("runtime_")) return "Go runtime";
    if (f.startsWith("syscall_js.") || f.startsWith("syscall/js.")) return "Go syscall/js";
    if (f.startsWith("main.")) return "Go main (wasm/)";
    if (/^(encoding_json|encoding\/json)\./.test(f)) return "Go encoding/json";
    const m = f.match(/^github\.com_interopio_code_mode(?:_([a-z_]+?)(?:_internal_([a-z]+))?)?\./);
    if (m) return `Go ${m[2] ?? m[1] ?? "codemode"}`;
    if (f.startsWith("github.com_santhosh_tekuri_jsonschema")) return "Go jsonschema";
    return "Go other (std)";
  }
  if (u.includes("wasm_exec")) return "wasm_exec.js (syscall/js glue)";
  if (u.includes("quickjs-emscripten-core") || u.includes("quickjs-ffi-types") || u.includes("quickjs-wasmfile")) return "quickjs-emscripten JS glue";
  if (/\/(dist|api-prof-dist)\/index\.mjs$/.test(u)) return "Code Mode loader (index.mjs)";
  if (u.includes("bench/")) return "bench harness";
  return "other JS / V8 builtins";
}

const cats = new Map();
const funcs = new Map();
let total = 0;
for (const [id, t] of selfUs) {
  const cf = nodes.get(id).callFrame;
  if (cf.functionName === "(idle)") continue;
  total += t;
  const c = category(cf);
  cats.set(c, (cats.get(c) ?? 0) + t);
  const k = `${cf.functionName || "(anonymous)"} [${c}]`;
  funcs.set(k, (funcs.get(k) ?? 0) + t);
}
const perRun = (t) => (t / runs).toFixed(1).padStart(9);
console.log(`${side} ${workload}: ${runs} runs in ${seconds}s; busy ${(total / 1000).toFixed(0)} ms = ${(total / runs).toFixed(1)} µs/run (includes start-up)`);
console.log("µs/run  share  category");
for (const [c, t] of [...cats].sort((a, b) => b[1] - a[1])) console.log(`${perRun(t)} ${((100 * t) / total).toFixed(1).padStart(5)}%  ${c}`);
console.log("\nhottest functions (self µs/run)");
const filter = new RegExp(process.env.FILTER ?? ""); // e.g. FILTER=Go to see only Go code
for (const [k, t] of [...funcs].filter(([k]) => filter.test(k)).sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30))) console.log(`${perRun(t)} ${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`);
