// What the host-worker tests (browser-test/host-workers.test.mjs in
// Chromium, firefox-test/firefox.test.mjs in Firefox) serve: an app's own
// dedicated Worker and SharedWorker, each as a module that imports the
// package and as a classic script that loads code-mode.global.js with
// importScripts. The scripts live in workers/, the package in dist/ (as an
// app's node_modules would be): a worker's location is not the package's
// folder. Each runs CHECKS in the mode of its ?worker= and reports.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { ROOT } from "./harness.mjs";

// checks(IoCodeModeFactory, worker, timeout): a tool call, a spinning
// program (its TIMEOUT) and the run after it; or the factory's error. The
// factory's timeout (?timeout=, default 1 s) is room for the runs, not their
// subject: the spin needs only to end with TIMEOUT.
const CHECKS = `let step = (what) => {};
self.__step = (what) => step(what);
async function checks(IoCodeModeFactory, worker, timeout) {
    try {
        step("factory");
        const config = { wasmLocation: "../dist/emscripten-module.wasm", timeout, tools: [{ name: "add", execute: ({ a, b }) => a + b }] };
        if (worker !== undefined) config.worker = worker;
        const api = await IoCodeModeFactory(config);
        const executeCode = api.createSession().getLlmTools()[1];
        // An error other than the spin's TIMEOUT comes with its message, for the assertion's diff: a TIMEOUT of
        // the tool call or of the next run too (WebKit at load 8: "TIMEOUT: the program did not finish within 1s").
        const run = async (code, spin) => { const r = await executeCode.execute({ code, explanation: "x" }); return r.error ? (spin && r.error.code === "TIMEOUT" ? r.error.code : r.error.code + ": " + r.error.message) : r.result; };
        step("tool call");
        const out = [await run("return await tools.add({ a: 2, b: 40 }) + ' é'")];
        step("spin");
        out.push(await run("for (;;) {}", true));
        step("next run");
        out.push(await run("return 1"));
        api.dispose();
        return out;
    } catch (e) {
        return String((e && e.message) || e);
    }
}
const query = new URLSearchParams(location.search);
const mode = query.get("worker");
const run = () => checks(factory, mode === null ? undefined : mode === "true", Number(query.get("timeout")) || 1000);
`;
const MODULE = `import "./trace.js";\nimport { IoCodeModeFactory as factory } from "../dist/index.mjs";\n`;
const CLASSIC = `importScripts("./trace.js");\nimportScripts("../dist/code-mode.global.js");\nconst factory = self.IoCodeModeFactory;\n`;
// Loaded before the package (a module's import, a classic script's
// importScripts): the worker's fetches, WebAssembly compiles and nested
// Worker (its messages until "ready", init posted to it) reported as steps,
// so that a worker that never answers names where its factory stopped (the
// package takes these builtins at load: wrapped before, it calls these).
const TRACE = `(() => {
    const note = (what) => self.__step && self.__step(what);
    const name = (u) => String((u && u.url) || u).replace(/[?#].*$/, "").replace(/^.*\\//, "");
    const fetch0 = self.fetch;
    self.fetch = function (input, init) {
        const n = name(input);
        note("fetch " + n);
        const p = fetch0.call(this, input, init);
        p.then(() => note("response " + n), () => note("fetch " + n + " failed"));
        return p;
    };
    for (const k of ["compile", "compileStreaming", "instantiate", "instantiateStreaming"]) {
        const f = WebAssembly[k];
        WebAssembly[k] = function (...args) {
            note("WebAssembly." + k);
            const p = f.apply(this, args);
            p.then(() => note("WebAssembly." + k + " done"), () => note("WebAssembly." + k + " failed"));
            return p;
        };
    }
    if (typeof Worker !== "function") return;
    self.Worker = class extends Worker {
        constructor(url, options) {
            super(url, options);
            note("nested Worker made");
            let ready = false;
            this.addEventListener("message", (e) => {
                if (ready) return;
                const t = e.data && e.data.t;
                note("nested Worker sent " + t);
                ready = t === "ready";
            });
            this.addEventListener("error", () => note("nested Worker: error event"));
            this.addEventListener("messageerror", () => note("nested Worker: messageerror"));
        }
        postMessage(m, ...rest) {
            if (m && m.t === "init") note("init posted");
            return super.postMessage(m, ...rest);
        }
    };
})();
`;
// SES's lockdown() before the classic script hides the stack trace it
// reads its URL from; after it, the script has read it.
const LOCKED = (first) => `importScripts("../ses.js");\n${first ? "lockdown();\n" : ""}importScripts("../dist/code-mode.global.js");\n${first ? "" : "lockdown();\n"}const factory = self.IoCodeModeFactory;\n`;
// The dedicated and shared workers also report each step of CHECKS as it
// begins ({ step }), which start's page expression keeps for its answer
// should the worker never report, and a beat every 10 s from a timer of
// their own ({ beat }): an answer that never comes says whether the
// worker's event loop still ran (idle, waiting for something) or its
// thread never came back from a call (Firefox's CI: "factory at 19" and
// nothing more, the start watch's 60 s timers never firing either).
const DEDICATED = `step = (what) => postMessage({ step: what });\nsetInterval(() => postMessage({ beat: 1 }), 10000);\nrun().then((out) => postMessage(out));\n`;
const SHARED = `onconnect = (e) => { step = (what) => e.ports[0].postMessage({ step: what }); setInterval(() => e.ports[0].postMessage({ beat: 1 }), 10000); run().then((out) => e.ports[0].postMessage(out)); };\n`;
const SERVICE = `addEventListener("install", () => skipWaiting());\naddEventListener("message", (e) => e.waitUntil(run().then((out) => e.source.postMessage(out))));\n`;

/** name -> () => body, below the policy's folder (harness.mjs's servePolicyPages). */
export const HOST_WORKER_FILES = {
    "host-workers.html": () => `<!doctype html><meta charset="utf-8"><title>host workers</title>`,
    "workers/trace.js": () => TRACE,
    "workers/dedicated.mjs": () => MODULE + CHECKS + DEDICATED,
    "workers/dedicated.js": () => CLASSIC + CHECKS + DEDICATED,
    "workers/shared.mjs": () => MODULE + CHECKS + SHARED,
    "workers/shared.js": () => CLASSIC + CHECKS + SHARED,
    "workers/service.mjs": () => MODULE + CHECKS + SERVICE,
    "workers/locked-first.js": () => LOCKED(true) + CHECKS + DEDICATED,
    "workers/locked-after.js": () => LOCKED(false) + CHECKS + DEDICATED,
    "ses.js": () => readFileSync(createRequire(join(ROOT, "package.json")).resolve("ses").replace(/[^/]+$/, "ses.umd.js")),
};

// The page's expression that registers the module service worker with
// ?worker=mode (a scope of its own for each mode), asks it to run and
// resolves with its report.
export const service = (mode) => `(async () => {
    const mode = ${JSON.stringify(mode ?? null)};
    const reg = await navigator.serviceWorker.register("./workers/service.mjs" + (mode === null ? "" : "?worker=" + mode), { type: "module", scope: "./workers/sw-" + mode + "/" });
    const sw = reg.installing || reg.waiting || reg.active;
    if (sw.state !== "activated") await new Promise((resolve) => sw.addEventListener("statechange", () => sw.state === "activated" && resolve()));
    return new Promise((resolve) => {
        navigator.serviceWorker.addEventListener("message", (e) => resolve(e.data), { once: true });
        sw.postMessage("run");
    });
})()`;

// The page's expression that starts the worker (kind "dedicated" or
// "shared", file's ".mjs" as a module) with ?worker=mode (and &timeout= for
// its factory's, when given) and resolves with its report, its error
// event's message, or "no answer within 150 s" with the steps the worker
// began and when (ms from the start): where it hung (CHECKS' steps, and
// TRACE's: the worker's fetches and compiles, its nested Worker's messages),
// and its beats: whether its thread was blocked or idle. again: a case run
// once more, in a new worker (&again=1: a SharedWorker of the same URL
// would be the first one, blocked).
export const start = (kind, file, mode, timeout, again) => `new Promise((resolve) => {
    const [kind, file, mode, timeout, again] = ${JSON.stringify([kind, file, mode ?? null, timeout ?? null, again === true])};
    const options = file.endsWith(".mjs") ? { type: "module" } : {};
    const query = new URLSearchParams();
    if (mode !== null) query.set("worker", mode);
    if (timeout !== null) query.set("timeout", timeout);
    if (again) query.set("again", "1");
    const url = "./workers/" + file + (String(query) ? "?" + query : "");
    const w = kind === "shared" ? new SharedWorker(url, options) : new Worker(url, options);
    const port = kind === "shared" ? w.port : w;
    const t0 = Date.now();
    const steps = [];
    let beats = 0;
    let lastBeat = 0;
    port.onmessage = (e) => {
        if (e.data && e.data.beat === 1) {
            beats += 1;
            lastBeat = Date.now() - t0;
        } else if (e.data && typeof e.data.step === "string") steps.push(e.data.step + " at " + (Date.now() - t0));
        else resolve(e.data);
    };
    w.onerror = (e) => resolve("error event: " + (e.message || e.type));
    if (kind === "shared") port.start();
    // Under the driver's 180 s protocol timeout, so that a worker that never
    // answers fails its own assertion, which names the file and the mode
    // (Firefox under load once hung here: which case was not known).
    const beat = () => "; the worker's beats (one per 10 s): " + (beats > 0 ? beats + ", the last at " + lastBeat + " (its event loop ran until then)" : "none (its thread was blocked)");
    setTimeout(() => resolve("no answer within 150 s; steps begun: " + (steps.join(", ") || "none") + beat()), 150000);
})`;

// What each reports where it runs.
export const RAN = ["42 é", "TIMEOUT", 1];
// What start answers when the app's worker never came back from the
// package's new Worker (its nested engine): the factory began, the Worker
// was never made (TRACE notes it once the constructor returns) and the
// worker's timer never beat again. Firefox (153 ESR) does this, rarely and
// only on a loaded machine, under its WebDriver BiDi driver (or DevTools):
// the remote agent's WorkerDebuggerManager listener makes a worker that
// constructs a Worker wait, in the constructor, until the main thread has
// registered the new Worker's debugger; the main thread wakes it with one
// Notify of the new Worker's condition variable, which the new Worker's own
// thread, started just before and idle, waits on too. When that thread
// waits first, it takes the wake-up and the app's worker sleeps forever (no
// code of the package runs there again: no timer, no error). Seen live: gdb
// showed both threads in pthread_cond_wait on the new worker's condition
// variable, and MOZ_LOG=WorkerPrivate:4 the new worker's DoRunLoop, then
// nothing from either (the new worker's script never dispatched).
export const BLOCKED_IN_NEW_WORKER = /^no answer within 150 s; steps begun: factory at \d+; the worker's beats \(one per 10 s\): none \(its thread was blocked\)$/;
// What worker: true reports in a SharedWorker that has no Worker (Chromium's, WebKit's).
export const NO_NESTED = "config.worker: true, but this browser's SharedWorker cannot start a Worker: leave worker out or set it to false to run the engine on this thread (the SharedWorker's own, already off the pages' threads)";
