// Worker mode, the page's side: IoCodeModeFactory({ worker: true }) runs the
// Go core and QuickJS in a dedicated module Worker (worker_threads in Node)
// and keeps here everything that belongs to the page: the tool definitions
// and their execute, toolFilter, interceptors.onToolCall,
// overwriteSystemInstruction, onEvent, each run's context and signal. Only
// names, descriptions, schemas and JSON cross; a run's context never does
// (the worker sees a run id).
//
// The API's synchronous methods answer from state kept here: listTools and
// tool validation (the rules of tool.go that need no schema compiler), the
// instructions and LLM tools the worker last reported. A tool the worker
// refuses after registerTool returned (a pattern the page cannot judge:
// schemacheck.mjs) is dropped with a console error.
//
// Cancel: with a SharedArrayBuffer (always in Node; in a cross-origin
// isolated page) the page writes the run's id where the worker's interrupt
// poll reads it, which stops that run only. Without one, a run that does
// not answer the abort within ABORT_GRACE_MS (it holds the worker's thread)
// is stopped by terminating the worker, which is replaced at once: other
// runs in flight on it reject with an error that says so, and the next run
// works. The flag is read by the interrupt poll, which QuickJS calls from
// its interpreter only: a built-in looping in C (a generic Array method
// over an array-like of length 1e15) never reads it, nor sees its
// deadline. So a worker that has not answered an abort within
// FLAG_GRACE_MS, or a run still going OVERRUN_GRACE_MS past its timeout,
// is replaced too, and that run ends with TIMEOUT.

import { bundlerHint, describe, describeError, hasNodeFs, nodeModule, thrownByTool } from "./env.mjs";
import { abortReason, filterVerdict, markSchema, normalizeRunOptions, overwriteVerdict, whenAborted } from "./wrap.mjs";
import { callTool, closeCalls, consoleLine, emit, endRun, endedWhy, finishLogs, newOwner, now, observed, runOf, startRun } from "./runs.mjs";
import { SESSION_HINTS, SESSION_KEYS, TOOL_KEYS, unknownKeyError } from "./keys.mjs";
import { convertSchema } from "./schema.mjs";
import { refCycleError } from "./refcycle.mjs";
import { goEscape, goQuote, schemaProblem } from "./schemacheck.mjs";
import { notDataKind, toJSON } from "./tojson.mjs";
import { compileCore } from "./core.mjs";
import { loadQuickJS } from "./wasm-load.mjs";
import { lifetime, weakListener } from "./lifetime.mjs";

const RING = 1024;
const ABORT_GRACE_MS = 30;
const FLAG_GRACE_MS = 5000;
const OVERRUN_GRACE_MS = 2000;
const NAME_RE = /^[A-Za-z0-9_$.-]+$/;

/**
 * The name and message of what a tool or an interceptor threw, for the
 * worker. Reading them runs the page's code (getters, toString), which may
 * throw in turn: that must not escape the message handler, where it would
 * be an unhandled rejection (the end of a Node process).
 * @param {unknown} err
 * @returns {{ name: string, message: string }}
 */
function errorFields(err) {
    let name = "Error";
    try {
        const n = err && /** @type {any} */ (err).name;
        if (n) name = String(n);
    } catch {
        // keep "Error"
    }
    let message;
    try {
        message = describeError(err);
    } catch (e) {
        try {
            message = `a value that cannot be described was thrown (${describeError(e)})`;
        } catch {
            message = "a value that cannot be described was thrown";
        }
    }
    return { name, message };
}

/**
 * What tool.go says is wrong with a name: its length in bytes, or the first
 * character outside the grammar and its byte offset.
 * @param {string} name
 */
function nameProblem(name) {
    const bytes = new TextEncoder().encode(name).length;
    if (bytes < 1 || bytes > 128) return `got ${bytes}`;
    // The characters before the first bad one are ASCII: its index is its
    // byte offset.
    const chars = [...name];
    const at = chars.findIndex((ch) => !NAME_RE.test(ch));
    return at < 0 ? `got ${bytes}` : `found ${quoteRune(chars[at])} at offset ${at}`;
}

/** @param {string} ch */
const quoteRune = (ch) => `'${goEscape(ch, "'")}'`;

/** @param {any} e */
function rebuildError(e) {
    const err = e.name === "TypeError" ? new TypeError(e.message) : new Error(e.message);
    if (e.name && e.name !== "TypeError" && e.name !== "Error") err.name = e.name;
    return err;
}

// The input validators of schema libraries' objects, by tool definition.
/** @type {WeakMap<object, (input: unknown) => Promise<{ ok: boolean, message?: string }>>} */
const validators = new WeakMap();

/**
 * The tool checks that tool.go makes before compiling schemas, with its
 * messages, so that registerTool throws at once as it does in-thread.
 * @param {any} list
 * @param {string} path
 * @param {Set<string>} taken names already registered
 * @returns {any[]} descriptors to send
 */
function checkTools(list, path, taken) {
    if (!Array.isArray(list)) throw new TypeError(`${path}: expected an array of tool definitions, got ${describe(list)}`);
    const seen = new Set();
    return list.map((def, i) => {
        const p = path === "tool" ? path : `${path}[${i}]`;
        if (def === null || typeof def !== "object" || Array.isArray(def)) throw new TypeError(`${p}: expected a tool definition object, got ${describe(def)}`);
        const keyError = unknownKeyError(p, Object.keys(def), TOOL_KEYS);
        if (keyError) throw keyError;
        if (typeof def.name !== "string") throw new TypeError(`${p}.name: expected a string, got ${describe(def.name)}`);
        if (typeof def.execute !== "function") throw new TypeError(`${p}.execute: expected a function, got ${describe(def.execute)}`);
        if (def.description !== undefined && typeof def.description !== "string") throw new TypeError(`${p}.description: expected a string, got ${describe(def.description)}`);
        const a = def.annotations;
        if (a !== undefined && a !== null && (typeof a !== "object" || Array.isArray(a))) throw new TypeError(`${p}.annotations: expected an object (hints and your own metadata), got ${describe(a)}`);
        const name = def.name;
        if (name.length < 1 || name.length > 128 || !NAME_RE.test(name)) {
            throw new TypeError(`codemode: invalid tool: tool name ${goQuote(name)}: must be 1..128 characters of [A-Za-z0-9_$.-], ${nameProblem(name)}`);
        }
        if (name.startsWith(".") || name.endsWith(".") || name.includes("..")) {
            throw new TypeError(`codemode: invalid tool: tool name ${goQuote(name)}: namespaces must be non-empty (a dot may not start or end the name, or follow another dot)`);
        }
        if (name === "then" || name.endsWith(".then")) {
            throw new TypeError(`codemode: invalid tool: tool name ${goQuote(name)}: must not end in "then": await ${`tools.${name.slice(0, -5)}`.replace(/\.$/, "")} would call the tool`);
        }
        if (seen.has(name)) throw new TypeError(`codemode: duplicate tool: tool name ${goQuote(name)}: appears more than once in the batch`);
        if (taken.has(name)) throw new TypeError(`codemode: duplicate tool: tool name ${goQuote(name)}: already registered${path === "options.tools" ? " on the factory" : ""}`);
        seen.add(name);
        /** @type {any} */
        const d = { name };
        if (def.description !== undefined) d.description = def.description;
        // In tool.go's order: both schemas converted, then both walked,
        // then both compiled (where a cycle shows).
        const kinds = /** @type {const} */ (["inputSchema", "outputSchema"]);
        const schemas = kinds.map((k) => {
            const c = convertSchema(def[k], `${p}.${k}`);
            // A schema library's own check (a Zod refinement) runs here,
            // on the page, before execute: its functions cannot cross.
            if (k === "inputSchema" && c.validate) validators.set(def, c.validate);
            return c.schema;
        });
        kinds.forEach((k, j) => {
            const problem = schemas[j] === undefined ? "" : schemaProblem(schemas[j], k === "inputSchema");
            if (problem) throw new TypeError(`codemode: invalid tool: tool ${goQuote(name)}: ${k}: ${problem}`);
        });
        kinds.forEach((k, j) => {
            if (schemas[j] === undefined) return;
            const cycle = refCycleError(schemas[j]);
            if (cycle) throw new TypeError(`codemode: invalid tool: tool ${JSON.stringify(name)}: ${k}: ${cycle}`);
            d[k] = schemas[j];
        });
        // The core's copy of the annotations, as the calling thread makes it:
        // JSON of an object, else none. toolFilter and onToolCall get the
        // page's own definition, annotations as they were given.
        if (def.annotations !== null && typeof def.annotations === "object") {
            try {
                d.annotations = JSON.parse(JSON.stringify(def.annotations));
            } catch {
                // a cycle, a BigInt: none, as in-thread
            }
        }
        return d;
    });
}

/** @typedef {import("../index.d.ts").IoCodeMode.Config} Config */

// The worker's file, beside this module, for Node's worker_threads (see
// spawn). A let, so that no bundler reads it as a constant.
let workerFile = "./code-mode.worker.mjs";

/**
 * Starts a worker (browser: module Worker; Node: worker_threads).
 * @param {(m: any) => void} onMessage
 * @param {(err: Error) => void} onFailure
 */
async function spawn(onMessage, onFailure) {
    if (hasNodeFs && typeof Worker === "undefined") {
        const { Worker: NodeWorker } = await nodeModule("worker_threads");
        // The main thread's stack for JavaScript and WebAssembly (V8's default,
        // 984 KB), so that deep data and recursion overflow where they do
        // in-thread: QuickJS's own limit (a catchable error) is then reached
        // first in both modes. Node keeps 192 KB of a worker's stackSizeMb
        // for itself, so 1 MB gave the worker 832 KB, and a recursion that
        // QuickJS stopped in-thread overflowed the worker's stack first.
        // No execArgv: the process's own flags (node --input-type=module
        // -e ...) would stop the worker's module from loading.
        //
        // The file's name goes through a variable: Vite and webpack copy
        // every file named in new URL("literal", import.meta.url) into the
        // build, and this branch, which never runs in a browser, gave them a
        // second, unused copy of the worker (57 KB). The browser branch
        // below names it for them.
        const w = new NodeWorker(new URL(workerFile, import.meta.url), { resourceLimits: { stackSizeMb: (984 + 192) / 1024 }, execArgv: [] });
        w.on("message", onMessage);
        w.on("error", (/** @type {Error} */ err) => onFailure(err));
        w.on("exit", (/** @type {number} */ code) => onFailure(new Error(`the worker exited (code ${code})`)));
        return {
            post: (/** @type {any} */ m) => w.postMessage(m),
            terminate: () => w.terminate(),
            ref: () => w.ref(),
            unref: () => w.unref(),
        };
    }
    // Written as bundlers expect it (Vite, webpack 5, Rollup): they emit the
    // worker as a chunk of its own and rewrite the URL.
    const w = new Worker(new URL("./code-mode.worker.mjs", import.meta.url), { type: "module" });
    w.addEventListener("message", (e) => onMessage(e.data));
    w.addEventListener("error", (e) => {
        e.preventDefault();
        onFailure(new Error(`Cannot start the Code Mode worker: ${e.message || "it failed to load"}${bundlerHint(import.meta.url)}`));
    });
    return { post: (/** @type {any} */ m) => w.postMessage(m), terminate: () => w.terminate(), ref: () => {}, unref: () => {} };
}

/**
 * @param {Config} config
 * @returns {Promise<import("../index.d.ts").IoCodeMode.API>}
 */
export async function workerFactory(config) {
    const cfg = /** @type {any} */ (config);
    const filter = typeof cfg.toolFilter === "function" ? cfg.toolFilter : undefined;
    const onToolCall = cfg.interceptors && typeof cfg.interceptors === "object" && typeof cfg.interceptors.onToolCall === "function" ? cfg.interceptors.onToolCall : undefined;
    const overwrite = typeof cfg.overwriteSystemInstruction === "function" ? cfg.overwriteSystemInstruction : undefined;
    const factoryOnEvent = typeof cfg.onEvent === "function" ? cfg.onEvent : undefined;
    if (cfg.onEvent !== undefined && !factoryOnEvent) throw new TypeError(`config.onEvent: expected a function, got ${describe(cfg.onEvent)}`);

    // What the worker's Go core gets: the config without page functions
    // (a non-function where one belongs goes as is, for the core's error).
    // Null prototypes: a JSON config's own "__proto__" key stays a key, for
    // the core to refuse as the calling thread does.
    /** @type {any} */
    const sent = Object.create(null);
    /** @type {{ path: string[], kind: string }[]} */
    const standIns = [];
    for (const [k, v] of Object.entries(cfg)) {
        if (k === "worker" || k === "onEvent" || k === "tools") continue;
        if ((k === "toolFilter" || k === "overwriteSystemInstruction") && typeof v === "function") continue;
        if (k === "interceptors" && v && typeof v === "object") {
            const { onToolCall: f, ...rest } = v;
            sent.interceptors = cloneable(typeof f === "function" || f === undefined ? rest : v, [k], standIns);
            continue;
        }
        // Any other value, a misspelt key's included, goes without its
        // functions: postMessage cannot clone them, and the core needs
        // only the keys and the types to name what is wrong.
        sent[k] = cloneable(v, [k], standIns);
    }
    /** @type {Map<string, any>} factory tools by name */
    const tools = new Map();
    /** @type {Map<number, any[]>} registration id -> its definitions */
    const registrations = new Map();
    let nextReg = 1;
    const initialTools = cfg.tools === undefined ? [] : checkTools(cfg.tools, "config.tools", new Set());
    if (cfg.tools !== undefined) {
        registrations.set(0, cfg.tools);
        for (const def of cfg.tools) tools.set(def.name, def);
    }
    // The names toolFilter hides, of the factory's tools and of every
    // session's own (the core filters those too). The worker keeps one set,
    // so a name hidden in one session is hidden in all: fail closed.
    const hiddenNames = () => {
        if (!filter) return [];
        const defs = [...tools.values()];
        for (const s of sessions.values()) defs.push(...s.tools.values());
        return [...new Set(defs.filter((d) => !filterVerdict(filter, d)).map((d) => d.name))];
    };

    const factoryOwner = newOwner();
    let disposed = false;
    let nextSid = 1;
    /** @type {Map<number, { tools: Map<string, any>, defs: any[], info: any, owner: any }>} */
    const sessions = new Map();
    // Session 0 is the worker's own session without tools: its instructions
    // stand in for a new session's until the worker reports them.
    sessions.set(0, { tools: new Map(), defs: [], info: null, owner: factoryOwner });
    /** @type {Map<number, { run: any, resolve: (v: any) => void, reject: (e: any) => void, sid: number, started: boolean, startedAt?: number, message: any }>} */
    const pending = new Map();
    /** @type {Set<number>} runs aborted on the page that the worker has not ended yet */
    const stopping = new Set();
    // The runs' timeout as the core has it (checked there before any run).
    const runTimeout = typeof cfg.timeout === "number" ? cfg.timeout : 30000;
    /** @type {Map<number, ReturnType<typeof setTimeout>>} each started run's overrun timer */
    const overruns = new Map();
    /** @param {number} rid */
    const clearOverrun = (rid) => {
        clearTimeout(overruns.get(rid));
        overruns.delete(rid);
    };
    /** @type {Map<number, AbortController>} page calls the worker may cancel */
    const pageCalls = new Map();
    // ready(): a ping the worker answers after every message sent before it
    // (registrations, sessions), whose info it has pushed by then.
    let nextPing = 1;
    /** @type {Map<number, { resolve: () => void, reject: (e: any) => void }>} */
    const pings = new Map();
    const flagsBuffer =
        typeof SharedArrayBuffer === "function" && (hasNodeFs || /** @type {any} */ (globalThis).crossOriginIsolated === true)
            ? new SharedArrayBuffer(4 * (1 + RING))
            : null;
    const flags = flagsBuffer ? new Int32Array(flagsBuffer) : null;

    /** @type {any} */
    let worker = null;
    /** @type {Promise<void>} */
    let ready = Promise.resolve();
    let busy = 0;
    const hold = () => {
        if (++busy === 1 && worker) worker.ref();
        let done = false;
        return () => {
            if (done) return;
            done = true;
            if (--busy === 0 && worker) worker.unref();
        };
    };
    // A run or a ping in flight holds the worker's ref (Node: the process
    // waits for its answer) and the factory, even when the page keeps
    // nothing of it; the function returned lets both go.
    const holdInFlight = () => {
        const workerHold = hold();
        const keep = life.hold();
        return () => {
            workerHold();
            keep();
        };
    };

    // The current worker's listeners, which the worker holds weakly: what
    // keeps this factory is the page's objects (their closures), and while
    // it starts, or has a run or ready() in flight, lifetime.mjs.
    /** @type {{ listeners: unknown[] }} */
    const self = { listeners: [] };
    // What the safety net terminates when the page drops the factory: the
    // worker alone, never this scope.
    /** @type {{ w: { terminate: () => void } | null }} */
    const engine = { w: null };
    const life = lifetime(engine, terminateDropped, self);

    /** @type {Error | null} set when the worker stopped for good */
    let stoppedError = null;
    const deadError = () =>
        new Error("Code Mode: this instance has been disposed; create a new one with IoCodeModeFactory().");

    // Starts (or restarts) the worker and replays the state the page keeps.
    /** @param {boolean} first */
    function start(first) {
        /** @type {(v?: any) => void} */
        let ok = () => {};
        /** @type {(e: any) => void} */
        let fail = () => {};
        ready = new Promise((res, rej) => ((ok = res), (fail = rej)));
        const me = {};
        const current = () => worker && worker.me === me;
        // stopped: the error every call in flight and later gets (the
        // worker's own words when its Go core stopped).
        const onFailure = (/** @type {Error} */ err, stopped = new Error(`Code Mode: the engine's worker stopped: ${describeError(err)}`)) => {
            if (!current()) return;
            fail(stopped);
            failAll(stopped);
            for (const p of pings.values()) p.reject(stopped);
            pings.clear();
            worker = null;
            // Later calls get the same error (ready may have resolved long ago).
            stoppedError = stopped;
            ready = Promise.reject(stopped);
            ready.catch(() => {});
        };
        const onWorkerMessage = (/** @type {any} */ m) => {
            if (!current()) return;
            if (m.t !== "stopped") return onMessage(m, ok, fail);
            // The Go core in the worker died: this factory ends, as it does
            // in-thread, with the core's own error; the page lives on.
            const err = rebuildError(m.error);
            onFailure(err, err);
            w.then((x) => x.terminate());
        };
        // The worker, a root while it runs, reaches this factory only
        // through a WeakRef (lifetime.mjs): the factory's scope keeps the
        // listeners, and a page that drops the factory drops them.
        self.listeners = [onWorkerMessage, onFailure];
        const w = spawn(weakListener(onWorkerMessage), weakListener(onFailure));
        // The Go core and the QuickJS asset are compiled here while the
        // worker starts, and handed to it with init (a compiled module
        // crosses postMessage without compiling again): the worker would
        // otherwise begin only once it runs. On any failure here the worker
        // loads them itself, and reports what fails in its own words.
        const compiled = Promise.all([compileCore(), loadQuickJS(cfg.wasmLocation)]).then(
            ([core, quickjs]) => ({ core, quickjs }),
            () => ({}),
        );
        /** @type {Record<string, any>} */
        const init = {};
        const p = Promise.all([w, compiled]).then(([w, modules]) => {
            Object.assign(init, modules);
            worker = Object.assign(w, { me });
            engine.w = w;
            if (busy === 0) worker.unref();
        });
        worker = { me, post: (/** @type {any} */ m) => p.then(() => worker && worker.me === me && worker.post(m)), terminate: () => p.then(() => w.then((x) => x.terminate())), ref() {}, unref() {} };
        worker.post(Object.assign(init, {
            t: "init",
            config: sent,
            standIns,
            baseURL: typeof document !== "undefined" ? document.baseURI : undefined,
            tools: first ? initialTools : [],
            hidden: hiddenNames(),
            hasFilter: !!filter,
            hasInterceptor: !!onToolCall,
            hasEmbed: !!(cfg.search && typeof cfg.search === "object" && typeof cfg.search.embed === "function"),
            flags: flagsBuffer,
        }));
        if (!first) {
            for (const [id, defs] of registrations) worker.post({ t: "register", id, tools: checkTools(defs, "tools", new Set()), hidden: hiddenNames() });
            for (const [sid, s] of sessions) if (sid !== 0) worker.post({ t: "session", sid, tools: checkTools(s.defs, "options.tools", new Set()), hidden: hiddenNames() });
            for (const id of pings.keys()) worker.post({ t: "ping", id });
        }
        w.catch((err) => onFailure(err));
    }

    /**
     * @param {any} m
     * @param {(v?: any) => void} ok
     * @param {(e: any) => void} fail
     */
    function onMessage(m, ok, fail) {
        switch (m.t) {
            case "ready":
                ok();
                break;
            case "failed":
                fail(rebuildError(m.error));
                break;
            case "info":
                for (const [sid, info] of Object.entries(m.sessions)) {
                    const s = sessions.get(Number(sid));
                    if (s && info) s.info = info;
                }
                break;
            case "registerFailed": {
                const defs = registrations.get(m.id) || [];
                registrations.delete(m.id);
                for (const d of defs) if (tools.get(d.name) === d) tools.delete(d.name);
                console.error(`Code Mode: the engine refused tools registered earlier: ${m.error.message}`);
                break;
            }
            case "sessionFailed":
                console.error(`Code Mode: the engine refused a session's tools: ${m.error.message}`);
                break;
            case "pong": {
                const p = pings.get(m.id);
                pings.delete(m.id);
                if (p) p.resolve();
                break;
            }
            case "started": {
                const p = pending.get(m.rid);
                if (p) {
                    p.started = true;
                    p.startedAt = now();
                    overruns.set(m.rid, setTimeout(() => overran(m.rid), runTimeout + OVERRUN_GRACE_MS));
                }
                break;
            }
            case "done": {
                stopping.delete(m.rid);
                const p = pending.get(m.rid);
                if (!p) break;
                pending.delete(m.rid);
                if (m.ok) p.resolve(m.value);
                else p.reject(rebuildError(m.error));
                break;
            }
            case "call":
                answer(m);
                break;
            case "log": {
                const run = runOf(m.rid);
                if (run) consoleLine(run, m.level, m.message, factoryOnEvent);
                break;
            }
            case "console":
                if (m.level === "warn" || m.level === "error") console[/** @type {"warn" | "error"} */ (m.level)](...m.args);
                break;
            case "cancelCall": {
                const c = pageCalls.get(m.cid);
                if (c) c.abort(m.reason ? rebuildError(m.reason) : Object.assign(new Error("the run ended before the tool finished"), { name: "AbortError" }));
                break;
            }
        }
    }

    /** @param {any} m a tool call or interceptor question from the worker */
    async function answer(m) {
        if (m.kind === "embed") {
            // Tool search's embeddings: the page's endpoint, no run involved.
            try {
                const vectors = await cfg.search.embed(m.texts);
                // Typed arrays become arrays; anything else goes as it is,
                // for the core's error (Array.from would split a string).
                const value = Array.isArray(vectors) ? vectors.map((v) => (ArrayBuffer.isView(v) ? Array.from(/** @type {any} */ (v)) : v)) : vectors;
                worker && worker.post({ t: "reply", cid: m.cid, ok: true, value });
            } catch (err) {
                worker && worker.post({ t: "reply", cid: m.cid, ok: false, error: { name: "Error", message: describeError(err) } });
            }
            return;
        }
        const run = runOf(m.rid);
        const p = pending.get(m.rid);
        const s = p ? sessions.get(p.sid) : undefined;
        const def = (s && s.tools.get(m.name)) || tools.get(m.name);
        const reply = (/** @type {any} */ r) => {
            try {
                worker && worker.post({ t: "reply", cid: m.cid, ...r });
            } catch (err) {
                const what = m.kind === "intercept" ? "onToolCall returned a value that is not JSON data" : "the tool returned a value that is not JSON data";
                worker && worker.post({ t: "reply", cid: m.cid, ok: false, error: { name: "Error", message: `${what}: ${describeError(err)}` } });
            }
        };
        try {
            if (!run || run.ended) throw Object.assign(new Error(run && run.endReason ? run.endReason : "the run has ended"), { name: "AbortError" });
            // Unregistered on the page after the worker's core began the
            // call: the error the core gives a call made after it took the
            // unregister (toolcall.go errUnregistered).
            if (!def) throw new Error(`tool ${JSON.stringify(m.name)} was unregistered during this run; use tool_search to find tools`);
            let value;
            if (m.kind === "intercept") {
                try {
                    value = await onToolCall({ tool: def, input: m.input, callContext: run.context });
                } catch (err) {
                    throw thrownByTool(err, "onToolCall");
                }
                if (run.ended) throw new Error(run.endReason);
                if (value && typeof value === "object" && value.allowed === false) {
                    emit(run, { type: "tool-call", runId: run.id, callId: 0, name: def.name, input: m.input, decision: { allowed: false, reason: String(value.reason) } }, factoryOnEvent);
                }
            } else {
                const validate = validators.get(def);
                if (validate) {
                    const verdict = await validate(m.input);
                    if (!verdict.ok) throw new Error(`${def.name}: input rejected by its schema: ${verdict.message}`);
                }
                const ctrl = new AbortController();
                pageCalls.set(m.cid, ctrl);
                try {
                    value = await callTool(run, def, m.input, ctrl.signal, factoryOnEvent);
                } finally {
                    pageCalls.delete(m.cid);
                }
                // A result that is itself a function, a Symbol or a BigInt
                // fails the call, as on the calling thread (web/src/call.mjs).
                const kind = notDataKind(value);
                if (kind) throw new Error(`the tool returned a ${kind}, which is not JSON data`);
                // Converted here, by the rules the core applies on the calling
                // thread (tojson.mjs), not by the structured clone of
                // postMessage: that would drop a class's toJSON and refuse a
                // method, a Symbol or a URL that the rules convert.
                let converted;
                try {
                    converted = toJSON(value, `tools.${def.name} result`);
                } catch (err) {
                    throw new Error(`the tool returned a value that is not JSON data: ${describeError(err)}`);
                }
                reply({ ok: true, json: converted.json, warnings: converted.warnings });
                return;
            }
            reply({ ok: true, value });
        } catch (err) {
            reply({ ok: false, error: errorFields(err) });
        }
    }

    /**
     * @param {Error} err
     * @param {boolean} [startedOnly] keep the runs the worker had not
     *   started (they are sent to its replacement)
     */
    function failAll(err, startedOnly) {
        for (const [rid, p] of pending) {
            if (startedOnly && !p.started) continue;
            pending.delete(rid);
            endRun(p.run, err.message);
            p.reject(err);
        }
    }

    const releaseInit = hold();
    // Until the page has the factory, nothing of the page keeps it.
    const starting = life.hold();
    start(true);
    try {
        await ready;
        releaseInit();
    } catch (err) {
        releaseInit();
        starting();
        life.disarm();
        const w = worker;
        worker = null;
        if (w) w.terminate();
        throw err;
    }

    const check = () => {
        if (disposed) throw deadError();
        if (stoppedError) throw stoppedError;
    };
    /** @param {string} raw */
    const applyOverwrite = (raw) => (overwrite ? overwriteVerdict(overwrite, raw) : raw);

    /**
     * Stops a run on the worker: the abort flag (SharedArrayBuffer) and the
     * message; a worker that does not answer within grace (the flag is read
     * sooner than the message) is replaced.
     * @param {number} rid
     * @param {number} [grace] how long the worker has to answer before it is replaced
     */
    function cancelOnWorker(rid, grace = flags ? FLAG_GRACE_MS : ABORT_GRACE_MS) {
        if (!worker) return;
        if (flags) {
            const n = Atomics.load(flags, 0);
            flags[1 + (n % RING)] = rid;
            Atomics.store(flags, 0, n + 1);
        }
        worker.post({ t: "abort", rid });
        const w = worker;
        stopping.add(rid);
        setTimeout(() => {
            if (worker !== w || !w || !stopping.has(rid)) return;
            // The run holds the worker's thread: replace the worker.
            stopping.clear();
            worker = null;
            w.terminate();
            const why = flags ? "in a built-in that does not check for it" : "(no SharedArrayBuffer on this page)";
            failAll(new Error(`Code Mode: the engine's worker was restarted to cancel a run that held it ${why}; run this again`), true);
            start(false);
            for (const p of pending.values()) if (p.message) worker.post(p.message);
        }, grace);
    }

    /**
     * A run still in flight OVERRUN_GRACE_MS past its timeout: the core's
     * interrupt poll would have ended it at the deadline, so the worker's
     * thread is held where nothing polls. The run ends with TIMEOUT and
     * the worker is replaced at once.
     * @param {number} rid
     */
    function overran(rid) {
        overruns.delete(rid);
        const p = pending.get(rid);
        if (!p) return;
        cancelOnWorker(rid, 0);
        const message = `the program did not finish within ${runTimeout / 1000}s and held the engine past it in a built-in that does not check the time (a loop over a huge array-like, such as Array.prototype.indexOf.call({ length: 1e15 })); the engine's worker was restarted`;
        p.resolve({ ok: false, error: { name: "TimeoutError", message, code: "TIMEOUT" }, logs: [], toolCalls: [], durationMs: Math.round(now() - (p.startedAt || 0)) });
    }

    /**
     * @param {number} sid
     * @param {any} owner
     * @param {() => string} deadReason
     */
    function llmTools(sid, owner, deadReason) {
        const s = sessions.get(sid);
        if (!s || !s.info) return [];
        const raw = s.info.instruction;
        return s.info.llmTools.map((/** @type {any} */ t, /** @type {number} */ which) => {
            const execute = (/** @type {any} */ args, /** @type {any} */ options) => {
                let opts;
                try {
                    const why = deadReason();
                    if (why) throw new Error(why);
                    opts = normalizeRunOptions(options);
                } catch (err) {
                    return Promise.reject(err);
                }
                const signal = opts.signal;
                if (signal && signal.aborted) return Promise.reject(abortReason(signal));
                const onEvent = options && typeof options.onEvent === "function" ? options.onEvent : undefined;
                // The keys the caller wrote, for the core's unknown-key check.
                const given = options !== null && typeof options === "object" ? Object.keys(options) : undefined;
                const run = startRun(owner, opts.context, onEvent);
                const isCode = t.name === "executeCode";
                const t0 = now();
                if (isCode) emit(run, { type: "run-start", runId: run.id, code: args && args.code }, factoryOnEvent);
                const release = holdInFlight();
                return new Promise((resolve, reject) => {
                    let unwatch = () => {};
                    const settle = (/** @type {boolean} */ good, /** @type {any} */ v) => {
                        pending.delete(run.id);
                        unwatch();
                        clearOverrun(run.id);
                        release();
                        if (isCode && !run.ended) {
                            if (good) finishLogs(run, v, factoryOnEvent);
                            closeCalls(run, endedWhy(good, v), factoryOnEvent);
                            /** @type {any} */
                            const end = { type: "run-end", runId: run.id, ok: good ? v.ok : false, durationMs: Math.round(now() - t0) };
                            if (good && !v.ok) end.error = v.error;
                            if (!good) end.error = { name: v && v.name, message: describeError(v) };
                            emit(run, end, factoryOnEvent);
                        }
                        endRun(run, "the run has ended");
                        (good ? resolve : reject)(v);
                    };
                    const onAbort = () => {
                        if (!pending.has(run.id)) return;
                        const reason = abortReason(/** @type {AbortSignal} */ (signal));
                        pending.delete(run.id);
                        cancelOnWorker(run.id);
                        settleAborted(reason);
                    };
                    const settleAborted = (/** @type {any} */ reason) => {
                        unwatch();
                        clearOverrun(run.id);
                        release();
                        if (isCode) {
                            closeCalls(run, describeError(reason), factoryOnEvent);
                            emit(run, { type: "run-end", runId: run.id, ok: false, durationMs: Math.round(now() - t0), error: { name: reason && reason.name, message: describeError(reason) } }, factoryOnEvent);
                        }
                        endRun(run, describeError(reason), reason);
                        reject(reason);
                    };
                    pending.set(run.id, {
                        run,
                        sid,
                        started: false,
                        message: null,
                        resolve: (v) => settle(true, v),
                        reject: (e) => settle(false, e),
                    });
                    run.abortHook = (/** @type {Error} */ err) => {
                        if (!pending.has(run.id)) return;
                        pending.delete(run.id);
                        cancelOnWorker(run.id);
                        settleAborted(err);
                    };
                    if (signal) unwatch = whenAborted(signal, onAbort);
                    ready.then(
                        () => {
                            const p = pending.get(run.id);
                            if (!p || !worker) return;
                            const message = { t: "run", rid: run.id, sid, which, args, given, hidden: filter ? hiddenNames() : undefined, logs: isCode && observed(run, factoryOnEvent) };
                            try {
                                worker.post(message);
                            } catch {
                                // Arguments postMessage cannot clone (a function or
                                // a Symbol inside, a Proxy) are read as the calling
                                // thread reads them, as JSON: a function is dropped,
                                // and what JSON.stringify refuses is replaced by a
                                // stand-in the core refuses the same way (a BigInt
                                // inside), for the same INVALID_INPUT result. A throw
                                // here would leave the run unsettled.
                                try {
                                    message.args = JSON.parse(JSON.stringify(args));
                                } catch {
                                    message.args = { args: 0n };
                                }
                                worker.post(message);
                            }
                            p.message = message;
                        },
                        (err) => {
                            const p = pending.get(run.id);
                            if (p) p.reject(err);
                        },
                    );
                });
            };
            return life.attach({
                name: t.name,
                description: t.description === raw ? applyOverwrite(raw) : t.description,
                inputSchema: markSchema(JSON.parse(JSON.stringify(t.inputSchema))),
                execute,
            });
        });
    }

    /**
     * Ends every run of an owner: execute rejects with `message`, tool
     * signals abort, the worker stops them.
     * @param {any} owner
     * @param {string} message
     */
    function stopRuns(owner, message) {
        for (const run of [...owner.runs]) {
            const err = new Error(message);
        err.name = "AbortError";
        if (typeof run.abortHook === "function") run.abortHook(err);
            else endRun(run, message);
        }
    }

    /** @param {() => void} unregister */
    const onceUnregister = (unregister) => {
        let done = false;
        return () => {
            if (done || disposed) return;
            done = true;
            unregister();
        };
    };

    /** @param {any} list @param {string} path */
    function register(list, path) {
        check();
        // A live session's own tool keeps its name (codemode.go
        // RegisterTools): checked first, as there.
        if (Array.isArray(list)) {
            for (const def of list) {
                const name = def !== null && typeof def === "object" ? def.name : undefined;
                if (typeof name !== "string") continue;
                for (const [sid, s] of sessions) {
                    if (sid !== 0 && s.tools.has(name)) throw new TypeError(`codemode: duplicate tool: tool name ${goQuote(name)}: already a tool of a session (createSession's tools)`);
                }
            }
        }
        const taken = new Set(tools.keys());
        const descs = checkTools(list, path, taken);
        const id = nextReg++;
        const defs = [...list];
        registrations.set(id, defs);
        for (const d of defs) tools.set(d.name, d);
        worker && worker.post({ t: "register", id, tools: descs, hidden: hiddenNames() });
        return onceUnregister(() => {
            registrations.delete(id);
            for (const d of defs) if (tools.get(d.name) === d) tools.delete(d.name);
            worker && worker.post({ t: "unregister", id });
        });
    }

    /** @type {import("../index.d.ts").IoCodeMode.API} */
    const api = life.attach({
        registerTool(tool) {
            return register([tool], "tool");
        },
        registerTools(list) {
            return register(list, "tools");
        },
        listTools() {
            check();
            // Sorted by name, as the core on the calling thread lists them.
            return [...tools.values()].filter((d) => !filter || filterVerdict(filter, d)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        },
        ready() {
            if (disposed) return Promise.reject(deadError());
            if (stoppedError) return Promise.reject(stoppedError);
            const id = nextPing++;
            const release = holdInFlight();
            return new Promise((resolve, reject) => {
                pings.set(id, {
                    resolve: () => (release(), resolve()),
                    reject: (/** @type {any} */ e) => (release(), reject(e)),
                });
                worker && worker.post({ t: "ping", id });
            });
        },
        createSession(options) {
            check();
            if (options !== undefined && options !== null && (typeof options !== "object" || Array.isArray(options))) {
                throw new TypeError(`createSession(options): expected an object, got ${describe(options)}`);
            }
            const o = /** @type {any} */ (options || {});
            const keyError = unknownKeyError("createSession(options)", Object.keys(o), SESSION_KEYS, SESSION_HINTS);
            if (keyError) throw keyError;
            const descs = o.tools === undefined ? [] : checkTools(o.tools, "options.tools", new Set(tools.keys()));
            const defs = o.tools === undefined ? [] : [...o.tools];
            const sid = nextSid++;
            const owner = newOwner(factoryOwner);
            /** @type {{ tools: Map<string, any>, defs: any[], info: any, owner: any }} */
            const s = { tools: new Map(defs.map((d) => [d.name, d])), defs, info: null, owner };
            sessions.set(sid, s);
            let sessionDisposed = false;
            const deadReason = () =>
                disposed
                    ? "Code Mode: this session's factory has been disposed."
                    : sessionDisposed
                      ? "Code Mode: this session has been disposed; create a new one with createSession()."
                      : stoppedError
                        ? stoppedError.message
                        : "";
            worker && worker.post({ t: "session", sid, tools: descs, hidden: hiddenNames() });
            // The worker answers with the session's instructions; until then
            // the factory's last known ones stand in (the same tools, less
            // the session's own).
            const template = sessions.get(0);
            if (template && template.info) s.info = template.info;
            return life.attach({
                getLlmTools() {
                    const why = deadReason();
                    if (why) throw new Error(why);
                    return llmTools(sid, owner, deadReason);
                },
                getSystemInstruction() {
                    const why = deadReason();
                    if (why) throw new Error(why);
                    return applyOverwrite(s.info ? s.info.instruction : "");
                },
                dispose() {
                    if (sessionDisposed || disposed) return;
                    sessionDisposed = true;
                    stopRuns(owner, "Code Mode: the session was disposed while this run was in flight.");
                    sessions.delete(sid);
                    worker && worker.post({ t: "disposeSession", sid });
                },
            });
        },
        dispose() {
            life.disarm();
            if (disposed) return;
            disposed = true;
            stopRuns(factoryOwner, "Code Mode: the instance was disposed while this run was in flight.");
            for (const p of pings.values()) p.reject(deadError());
            pings.clear();
            const w = worker;
            worker = null;
            if (w) {
                w.post({ t: "dispose" });
                w.terminate();
            }
        },
    });
    starting();
    return api;
}

/** @param {{ w: { terminate: () => void } | null }} engine */
function terminateDropped(engine) {
    if (engine.w) engine.w.terminate();
}

// Functions and Symbols cannot cross to the worker. Where a value holds one
// (the core does not keep it: a misspelt key, or a function where a number
// belongs) it goes as null and its path in `standIns`, and the worker puts
// a stand-in of that type back, so the core names the key and the type as
// on the calling thread. A cycle is cut with a marker.
/**
 * @param {any} obj
 * @param {string[]} path
 * @param {{ path: string[], kind: string }[]} standIns
 * @param {Set<object>} [seen]
 * @returns {any}
 */
function cloneable(obj, path, standIns, seen = new Set()) {
    if (typeof obj === "function" || typeof obj === "symbol") {
        standIns.push({ path, kind: typeof obj });
        return null;
    }
    if (obj === null || typeof obj !== "object") return obj;
    if (seen.has(obj)) return "[cycle]";
    seen.add(obj);
    /** @type {any} */
    const out = Array.isArray(obj) ? [] : Object.create(null);
    for (const [k, v] of Object.entries(obj)) out[k] = cloneable(v, [...path, k], standIns, seen);
    seen.delete(obj);
    return out;
}
