// The engine's worker (dist/code-mode.worker.mjs): runs the Go core and
// QuickJS off the page's thread. The page (worker-host.mjs) keeps every
// page object; what crosses is names, descriptions, schemas and JSON. Tools
// and the interceptor here are proxies that ask the page; a run's context is
// the page's opaque run id.
//
// Cancel while QuickJS is busy: the worker reads no message until the loop
// yields, so the page also writes the run's id into a SharedArrayBuffer
// ring (when it has one). The interrupt poll calls the shadow global's
// Date.now (jsbridge/poll.go) every few thousand QuickJS operations; here it
// reads the ring first and aborts those runs' signals, which the Go core
// turns into an interrupt of that run only.

import { describeError, hasNodeFs, nodeModule } from "./env.mjs";
import { exitedError, loadCore } from "./core.mjs";
import { recordedTool } from "./schema.mjs";
import { recordingWebAssembly } from "./helper-modules.mjs";
import { loadQuickJS } from "./wasm-load.mjs";
import { runInCore } from "./runs.mjs";
import { goSession } from "./go-session.mjs";
import { Converted } from "./tojson.mjs";
import { CALL, LIMIT, cutBefore } from "./call.mjs";
import { warmUp } from "./warm-up.mjs";
import { decisionFromWire, restoreStandIns } from "./worker-wire.mjs";

// No top-level await: bundlers may emit this worker as a classic script
// (Vite's default worker format is iife).
/** @type {{ post: (m: any) => void, on: (fn: (m: any) => void) => void }} */
let port = { post: () => {}, on: () => {} };
const portReady = (async () => {
    if (hasNodeFs && typeof (/** @type {any} */ (globalThis).WorkerGlobalScope) === "undefined") {
        // The page's own channel (worker-engine.mjs spawn), else parentPort.
        const { parentPort, workerData } = await nodeModule("worker_threads");
        const p = workerData && workerData.port ? workerData.port : parentPort;
        return { post: (/** @type {any} */ m) => p.postMessage(m), on: (/** @type {(m: any) => void} */ fn) => p.on("message", fn) };
    }
    const self = /** @type {any} */ (globalThis);
    return {
        post: (/** @type {any} */ m) => self.postMessage(m),
        on: (/** @type {(m: any) => void} */ fn) => self.addEventListener("message", (/** @type {MessageEvent} */ e) => fn(e.data)),
    };
})();

const RING = 1024;
const SIGNS = 1 + RING;
/** @type {Int32Array | null} */
let flags = null;
let seen = 0;
/** @type {Map<number, AbortController>} run id -> the signal the core watches */
const runs = new Map();

function abortRun(/** @type {number} */ rid) {
    const c = runs.get(rid);
    if (!c || c.signal.aborted) return;
    const err = new Error("the run was cancelled");
    err.name = "AbortError";
    c.abort(err);
}

// Runs whose abort flag was read before their run message was handled: a
// poll of another run can see the flag first (the page writes it at once, the
// message waits its turn). Run ids grow, and runs start in the order they
// were posted, so an entry below a starting run's id is stale.
/** @type {Set<number>} */
const abortedEarly = new Set();

function readAborts() {
    if (!flags) return;
    const n = Atomics.load(flags, 0);
    while (seen < n) {
        const rid = flags[1 + (seen % RING)];
        if (runs.has(rid)) abortRun(rid);
        else abortedEarly.add(rid);
        seen++;
    }
}

/** @param {number} rid */
function takeEarlyAbort(rid) {
    readAborts();
    const hit = abortedEarly.has(rid);
    for (const e of abortedEarly) if (e <= rid) abortedEarly.delete(e);
    if (hit) abortRun(rid);
}

const realNow = Date.now.bind(Date);
// The poll also tells the page that this thread is alive and checking
// deadlines: the page replaces a worker that is silent well past a run's
// deadline (worker-engine.mjs overrunWait), and must not replace one that
// is about to end the run itself, only slowly (a loaded machine). With the
// flags' buffer each poll counts itself there; without it, a message now
// and then while a run is in flight, naming the run that polls (the
// interrupt poll passes it: jsbridge/poll.go), so that the page, which can
// stop a run that holds this thread only by replacing the worker, does that
// only when the run it aborted is the one (worker-engine.mjs cancelOnWorker).
// A sign also says how long (held) that run has held the thread: from its
// first poll in this task (the thread's work since a message: a tool's
// result resumes a run in a task of its own), through the polls after it
// that name no run (the Go core's clock: the program's Date.now, a host
// call's work). A run's end polls too (its body's first line, after its
// compile): the page, which replaced the worker at any sign naming a run
// it aborted, failed the worker's other runs when that run was about to
// end; it now waits for one that has held the thread SIGN_MS (a program
// computing, which reads no abort message before it is done).
const SIGN_MS = 200;
let lastSign = 0;
let holder = 0;
let heldFrom = 0;
const pollNow = (/** @type {number | undefined} */ owner) => {
    readAborts();
    const t = realNow();
    if (owner && owner !== holder) {
        if (!holder) queueMicrotask(() => (holder = 0));
        holder = owner;
        heldFrom = t;
    }
    if (flags) Atomics.add(flags, SIGNS, 1);
    else if (runs.size > 0 && t - lastSign >= SIGN_MS) {
        lastSign = t;
        port.post({ t: "alive", rid: holder, held: holder ? t - heldFrom : 0 });
    }
    return t;
};
const PollDate = new Proxy(Date, { get: (t, k) => (k === "now" ? pollNow : Reflect.get(t, k)) });

// The core's warnings and errors (console.warn of a failing search.embed,
// say) are the page's: they are printed by the page's console.
const pageConsole = new Proxy(console, {
    get: (t, k) =>
        k === "warn" || k === "error"
            ? (/** @type {unknown[]} */ ...args) => port.post({ t: "console", level: k, args: args.map((a) => (a instanceof Error ? a.message : typeof a === "string" ? a : String(a))) })
            : Reflect.get(t, k),
});

// The modules the Go core compiles here go to the page, which keeps them so
// that the next worker's compiles share them (helper-modules.mjs).
const helperWebAssembly = recordingWebAssembly((modules) => port.post({ t: "compiled", modules }));

let nextCall = 1;
/** @type {Map<number, { resolve: (v: any) => void, reject: (e: any) => void, cs?: import("./call.mjs").CallSignal }>} */
const calls = new Map();

/**
 * Asks the page (a tool's execute or the interceptor) and awaits its answer.
 * @param {string} kind
 * @param {any} payload
 * @param {AbortSignal} [signal]
 * @param {import("./call.mjs").CallSignal} [cs] a tool call's, told of the page's reports of a large result
 */
function askPage(kind, payload, signal, cs) {
    const cid = nextCall++;
    const answer = new Promise((resolve, reject) => {
        calls.set(cid, { resolve, reject, cs });
        port.post({ t: "call", kind, cid, ...payload });
        if (signal) {
            // The core's reason (a TimeoutError, the caller's own reason, ...)
            // goes along, so the page's tool sees the same signal reason.
            const onAbort = () => port.post({ t: "cancelCall", cid, reason: errorOf(signal.reason) });
            if (signal.aborted) onAbort();
            else signal.addEventListener("abort", onAbort, { once: true });
        }
    });
    // The core may have stopped awaiting (its run ended); an answer that
    // rejects then must not count as unhandled, which ends a Node worker.
    answer.catch(() => {});
    return answer;
}

/** @param {any} e */
function toError(e) {
    const err = e && e.name === "TypeError" ? new TypeError(e.message) : new Error(e ? e.message : "unknown error");
    if (e && e.name && e.name !== "TypeError") err.name = e.name;
    return err;
}

/**
 * Who each tool the core holds belongs to: 0 for the factory, else the id
 * of the session that has it as its own. The core hands toolFilter the
 * definition it was given, and the page judges a session's own tools apart
 * from another's of the same name.
 * @type {WeakMap<object, number>}
 */
const ownerOf = new WeakMap();

/**
 * @param {number} owner 0 for a factory tool, else its session's id
 * @returns {(d: { name: string, record: string }) => any} a tool from the page (worker-tools.mjs checkTools), as the core's tool
 */
const proxyTool = (owner) => (d) => {
    // The core reads the tool from its record (schema.mjs convertTools),
    // and toolFilter its name.
    const p = recordedTool(
        {
            name: d.name,
            execute: (/** @type {unknown} */ input, /** @type {any} */ opts) =>
                askPage("tool", { rid: opts.context, name: d.name, input, limit: opts[LIMIT] }, opts.signal, opts[CALL]),
        },
        d.record,
    );
    ownerOf.set(p, owner);
    return p;
};

/**
 * The tools the page's toolFilter shows: with a filter, the worker's core
 * gets one that shows these and no other (worker-host.mjs visibleNames).
 * @type {{ tools: Set<string>, sessions: Map<number, Set<string>> }}
 */
let visible = { tools: new Set(), sessions: new Map() };

/**
 * @param {import("./worker-engine.mjs").Visible | undefined} v the page's latest list
 * @returns {boolean} whether it shows other tools than the list before (the sessions' instructions are then out of date)
 */
function takeVisible(v) {
    if (!v) return false;
    const before = visible;
    visible = {
        tools: new Set(v.tools),
        sessions: new Map(Object.entries(v.sessions).map(([sid, names]) => [Number(sid), new Set(names)])),
    };
    const same = (/** @type {Set<string> | undefined} */ a, /** @type {Set<string> | undefined} */ b) => (a ? a.size : 0) === (b ? b.size : 0) && (!a || !b || [...a].every((n) => b.has(n)));
    if (!same(before.tools, visible.tools)) return true;
    for (const [sid, names] of visible.sessions) if (sessions.has(sid) && !same(before.sessions.get(sid), names)) return true;
    return false;
}

/**
 * A registration's verdicts (worker-host.mjs register): its names leave the
 * factory's list and those the filter shows come back; the other tools keep
 * theirs.
 * @param {{ name: string }[]} tools
 * @param {string[]} shown
 */
function takeShown(tools, shown) {
    for (const t of tools) visible.tools.delete(t.name);
    for (const name of shown) visible.tools.add(name);
}

/**
 * toolFilter as the worker's core calls it: a definition this worker did
 * not make, or whose owner the page's list does not name, is hidden.
 * @param {any} t
 */
function shown(t) {
    const owner = ownerOf.get(t);
    if (owner === undefined) return false;
    const names = owner === 0 ? visible.tools : visible.sessions.get(owner);
    return !!names && names.has(t.name);
}

/** @type {any} */
let api = null;
/** @type {Map<number, { session: any, llm: any[] }>} */
const sessions = new Map();
/** @type {Map<number, (() => void)[]>} */
const unregisters = new Map();

function sessionInfo(/** @type {number} */ sid) {
    const s = sessions.get(sid);
    if (!s) return null;
    // Asked once: each ask is a pass into the core (twice was 1-1.7 s a
    // rebuild of 1,000 sessions' info under load, in-thread's measure).
    const tools = Array.from(s.session.getLlmTools());
    const llm = tools.map((/** @type {any} */ t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
    s.llm = tools.map((/** @type {any} */ t) => t.execute);
    return { instruction: s.session.getSystemInstruction(), llmTools: llm };
}

function pushInfo() {
    infoDue = false;
    /** @type {Record<number, any>} */
    const out = {};
    for (const sid of sessions.keys()) out[sid] = sessionInfo(sid);
    port.post({ t: "info", sessions: out });
    releaseCollector();
}

// The collector's pace of a registration (wasm/collector.go), held from it
// until the instructions it changed are posted: at the default pace,
// rebuilding them started a full pass over the registration's garbage,
// half of what ready() waited for after registering 1,000 tools. The pass
// runs once they are posted and the worker is idle: no run in flight and
// no message for COLLECT_IDLE_MS (a later registration's hold taken by
// then is let go too: its instructions are then rebuilt at the default
// pace, as before). Run at once, it held the run that the page posted
// right after ready(): 4,000 registrations made that run wait ~2 s on a
// loaded machine, a later one ~20 ms. Dispose drops the holds: the
// worker ends.
const COLLECT_IDLE_MS = 250;
/** @type {(() => void)[]} */
let collectorHolds = [];
/** @type {ReturnType<typeof setTimeout> | null} */
let collectTimer = null;
function holdCollector() {
    try {
        if (api && typeof api.holdCollector === "function") collectorHolds.push(api.holdCollector());
    } catch {
        // the core has stopped: register reports it
    }
}
/** (Again) COLLECT_IDLE_MS from now, if holds wait for their pass; a run's end calls it too. */
function releaseCollector() {
    if (collectTimer !== null) clearTimeout(collectTimer);
    collectTimer = collectorHolds.length > 0 ? setTimeout(collectWhenIdle, COLLECT_IDLE_MS) : null;
}
function collectWhenIdle() {
    collectTimer = null;
    if (runs.size === 0) releaseHolds();
}
function releaseHolds() {
    const holds = collectorHolds;
    collectorHolds = [];
    for (const release of holds) {
        try {
            release();
        } catch {
            // the core has stopped: nothing to collect
        }
    }
}

// A registration's new instructions are sent once for a burst of them: a
// page that registers 2,000 tools one by one made the worker build every
// session's instruction 2,000 times (9.6 s). Any other message sends them
// first, so the page has them before the pong of ready(), a run's end or a
// session's own.
let infoDue = false;
function pushInfoSoon() {
    if (infoDue) return;
    infoDue = true;
    setTimeout(() => infoDue && pushInfo(), 0);
}

/** @param {any} err */
function errorOf(err) {
    return { name: err && err.name ? String(err.name) : "Error", message: describeError(err) };
}

/**
 * The config the worker's core gets, from the init message. Once per
 * message (the stand-ins are restored in place): by startFactory, or by
 * init's check when the asset failed, which then ends.
 * @param {any} m the init message
 */
function factoryConfig(m) {
    // The page's functions and Symbols that the core does not keep,
    // back as stand-ins of their type (cloneable in worker-wire.mjs).
    restoreStandIns(m.config, m.standIns);
    const config = { ...m.config, tools: m.tools.map(proxyTool(0)) };
    if (m.hasEmbed) {
        config.search = { ...config.search, embed: (/** @type {string[]} */ texts) => askPage("embed", { texts }) };
    }
    if (m.hasFilter) config.toolFilter = shown;
    if (m.hasInterceptor) {
        config.interceptors = {
            ...config.interceptors,
            onToolCall: (/** @type {any} */ c) => askPage("intercept", { rid: c.callContext, name: c.tool.name, input: c.input }),
        };
    }
    return config;
}

/**
 * The worker's factory, from the core and the QuickJS asset: a warm-up run,
 * then the page's factory and its first session's instructions.
 * @param {import("./core.mjs").Core} core
 * @param {WebAssembly.Module} module
 * @param {any} m the init message
 */
async function startFactory(core, module, m) {
    const config = factoryConfig(m);
    takeVisible(m.visible);
    // Here rather than on the page's clock: the first QuickJS instance
    // and the engine's first compilation of the await paths cost a few
    // hundred ms, which would otherwise count against the first run's
    // timeout (warm-up.mjs).
    await warmUp(core, module, m.config.wasmLocation);
    api = await core.api.newFactory(config, module);
    // A fatal error of the Go core ends this factory only: the page
    // rejects every call with the core's error and ends the worker.
    core.exited.then(() => port.post({ t: "stopped", error: errorOf(exitedError(core.state)) }));
    sessions.set(0, { session: goSession(api.createSession()), llm: [] });
    port.post({ t: "info", sessions: { 0: sessionInfo(0) } });
    port.post({ t: "ready" });
    // While the page gets its factory: the first instance and the
    // sandbox's sources compiled into it (codemode.Prepare), so that the
    // first run starts as later ones do. A run's message waits for it, its
    // clock not started.
    try {
        api.prepare();
    } catch {
        // Only ever an optimisation: a run does without it.
    }
}

/** @type {Record<string, (m: any) => any>} */
const handlers = {
    async init(m) {
        // Init arrived: the page takes a worker that does not say so for
        // lost (worker-engine.mjs start's watch).
        port.post({ t: "took" });
        if (m.flags) flags = new Int32Array(m.flags);
        try {
            // The page sends both compiled, unless it could not compile them;
            // then the core is loaded from the URL the page found it at
            // (core-url.mjs: this module names no file, which bundlers
            // would emit once more for it).
            const [loaded, asset] = await Promise.allSettled([
                loadCore({ Date: PollDate, console: pageConsole, WebAssembly: helperWebAssembly }, m.core, () => new URL(m.coreURL)),
                m.quickjs instanceof WebAssembly.Module ? m.quickjs : loadQuickJS(m.config.wasmLocation, m.baseURL),
            ]);
            if (loaded.status === "rejected") throw loaded.reason;
            const core = loaded.value;
            // The config's own mistakes before the asset's, as in-thread.
            if (asset.status === "rejected") {
                core.api.checkConfig(factoryConfig(m));
                throw asset.reason;
            }
            const module = asset.value;
            // Until `api` keeps it, the core is kept by this call alone: its
            // timers must hold it (core.mjs keepAliveWhileBusy).
            const release = core.hold();
            try {
                await startFactory(core, module, m);
            } finally {
                release();
            }
        } catch (err) {
            port.post({ t: "failed", error: errorOf(err) });
        }
    },
    // A registration comes in parts: the tools toolFilter showed, then
    // each other one once a run or a session's list shows it.
    register(m) {
        if (m.shown) takeShown(m.tools, m.shown);
        if (m.tools.length === 0) return;
        holdCollector();
        try {
            // registerTool's one tool as registerTool names it, should the
            // core refuse what the page's check left to it.
            const u = m.one ? api.registerTool(proxyTool(0)(m.tools[0])) : api.registerTools(m.tools.map(proxyTool(0)));
            const parts = unregisters.get(m.id);
            if (parts) parts.push(u);
            else unregisters.set(m.id, [u]);
        } catch (err) {
            port.post({ t: "registerFailed", id: m.id, error: errorOf(err) });
        }
        pushInfoSoon();
    },
    unregister(m) {
        const parts = unregisters.get(m.id);
        unregisters.delete(m.id);
        if (parts) for (const u of parts) u();
        pushInfoSoon();
    },
    session(m) {
        // What the filter shows changed: every session's instruction is rebuilt, the new one's with them.
        const changed = takeVisible(m.visible);
        try {
            sessions.set(m.sid, { session: goSession(api.createSession({ tools: m.tools.map(proxyTool(m.sid)) })), llm: [] });
            if (changed) pushInfo();
            else port.post({ t: "info", sessions: { [m.sid]: sessionInfo(m.sid) } });
        } catch (err) {
            port.post({ t: "sessionFailed", sid: m.sid, error: errorOf(err) });
        }
    },
    // The filter hides a tool the instructions name (worker-host.mjs current): they are rebuilt.
    visible(m) {
        if (takeVisible(m.visible)) pushInfo();
    },
    // A session's own tool toolFilter hid until now (worker-host.mjs visibleNames).
    sessionTools(m) {
        const s = sessions.get(m.sid);
        if (!s) return;
        try {
            s.session.addTools(m.tools.map(proxyTool(m.sid)));
        } catch (err) {
            port.post({ t: "sessionFailed", sid: m.sid, error: errorOf(err) });
        }
        pushInfoSoon();
    },
    disposeSession(m) {
        const s = sessions.get(m.sid);
        sessions.delete(m.sid);
        if (s) s.session.dispose();
    },
    async run(m) {
        port.post({ t: "started", rid: m.rid });
        // The sessions' instructions name what the filter shows now, as
        // in-thread, where getSystemInstruction() asks it (hostile42).
        if (takeVisible(m.visible)) pushInfo();
        const s = sessions.get(m.sid);
        const ctrl = new AbortController();
        runs.set(m.rid, ctrl);
        takeEarlyAbort(m.rid);
        try {
            if (!s) throw new Error("Code Mode: this session has been disposed; create a new one with createSession().");
            /** @type {any} */
            const given = m.given ? Object.fromEntries(m.given.map((/** @type {string} */ k) => [k, undefined])) : undefined;
            // Console lines as they are logged, for the page's onEvent.
            const onConsole = m.logs ? (/** @type {string} */ level, /** @type {string} */ message) => port.post({ t: "log", rid: m.rid, level, message }) : undefined;
            // And the calls the core ends before their tool, in the same order.
            const onRefused = m.logs ? (/** @type {string} */ text) => port.post({ t: "refused", rid: m.rid, text }) : undefined;
            const { value } = await runInCore(s.llm[m.which], m.args, m.rid, ctrl.signal, onConsole, given, onRefused);
            // Tool calls can change the session's instructions (result types
            // inferred from what the tools returned): the page's copy is
            // brought up to date before the run settles.
            if (value && Array.isArray(value.toolCalls) && value.toolCalls.length > 0 && sessions.has(m.sid)) {
                port.post({ t: "info", sessions: { [m.sid]: sessionInfo(m.sid) } });
            }
            port.post({ t: "done", rid: m.rid, ok: true, value });
        } catch (err) {
            port.post({ t: "done", rid: m.rid, ok: false, error: errorOf(err) });
        } finally {
            runs.delete(m.rid);
            if (runs.size === 0) releaseCollector();
        }
    },
    // Messages are handled in order, and registrations and sessions push
    // their info at once: the answer tells the page its copy is current.
    ping(m) {
        port.post({ t: "pong", id: m.id });
    },
    abort(m) {
        readAborts();
        abortRun(m.rid);
    },
    // The page converts a large result of a tool (worker-protocol.mjs):
    // the core learns that the tool answered, and how much it is.
    answering(m) {
        const c = calls.get(m.cid);
        if (c && c.cs && c.cs.answering && typeof m.bytes === "number") {
            try {
                c.cs.answering(m.bytes, m.final === true);
            } catch {
                // the call was given up: its answer will find nobody
            }
        }
    },
    reply(m) {
        const c = calls.get(m.cid);
        if (!c) return;
        calls.delete(m.cid);
        if (m.ok && "json" in m) {
            const converted = new Converted(m.json, m.warnings);
            // The page reports the call once the core has checked the
            // result against the tool's outputSchema (call.mjs settle).
            if (m.verdict) converted.verdict = (/** @type {string} */ why) => port.post({ t: "verdict", cid: m.cid, why });
            c.resolve(converted);
        } else if (m.ok) c.resolve("decision" in m ? decisionFromWire(m.decision) : m.value);
        else c.reject(cutBefore(toError(m.error), m.dropped));
    },
    dispose() {
        collectorHolds = [];
        releaseCollector();
        for (const rid of runs.keys()) abortRun(rid);
        if (api) api.dispose();
        api = null;
    },
};

// Messages after init wait for it (a replaced worker gets its tools and
// sessions right behind init); their order is kept.
/** @type {() => void} */
let initialized = () => {};
/** @type {Promise<void> | null} */
let initPromise = new Promise((r) => (initialized = r));
portReady.then((p) => {
    port = p;
    port.on((m) => {
        const h = handlers[m && m.t];
        if (!h) return;
        const handle = () => {
            // Not idle: a pass the collector waits for waits again.
            if (collectTimer !== null) releaseCollector();
            if (infoDue && m.t !== "register" && m.t !== "unregister") pushInfo();
            return h(m);
        };
        if (m.t === "init") {
            Promise.resolve(h(m)).finally(() => {
                initPromise = null;
                initialized();
            });
        } else if (initPromise) initPromise.then(handle);
        else handle();
    });
    port.post({ t: "loaded" });
});
