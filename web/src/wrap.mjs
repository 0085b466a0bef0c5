// Wrapping the core's API objects on the calling thread: every call checks
// that the core still runs and that its owner is not disposed, and the LLM
// tools take the options of the common LLM SDKs as they are
// (run-options.mjs). What both engine modes share lives beside it: the
// page's hooks (page-hooks.mjs), the runs (runs.mjs).

import { CALL, PARSED, SETTLE, cutBefore, cutThrown } from "./call.mjs";
import { exitedError } from "./core.mjs";
import { cannotRead, field, listedTool, prototypeHazard } from "./fields.mjs";
import { partLifetime, weakly } from "./lifetime.mjs";
import { goSession } from "./go-session.mjs";
import { callerStack, thrownByTool } from "./env.mjs";
import { KeptMap, KeptSet, KeptWeakMap, arrayOf, forEachEntry, isArray, map, newAbortController, objectKeys, queueMicrotask, then, whenIdle } from "./intrinsics.mjs";
import { callTool, consoleLine, emit, finishRun, newOwner, now, observed, refusedCall, runInCore, runOf, settledAs, startRun, stopRuns } from "./runs.mjs";
import { askInterceptor, filterVerdict, notFromHook, overwriteVerdict } from "./page-hooks.mjs";
import { inputFromWire, inputToWire } from "./worker-wire.mjs";
import { FIRST, inFlight, renumbered, sliced } from "./registering.mjs";
import { FACTORY_OF_SESSION_DISPOSED, SESSION_DISPOSED, apiFace, deadApi, deadSession, executeFace, instanceDisposed, sessionFace, unregisterFace } from "./faces.mjs";
import { abortReason, argsOnce, markSchema, normalizeRunOptions, toModelOutput, whenAborted } from "./run-options.mjs";

/**
 * @typedef {import("../index.d.ts").IoCodeMode.API} API
 * @typedef {import("../index.d.ts").IoCodeMode.Session} Session
 * @typedef {import("../index.d.ts").IoCodeMode.LlmTool} LlmTool
 * @typedef {import("./core.mjs").Core} Core
 * @typedef {{ check: () => void, sync: <T>(fn: () => T) => T, async: (fn: () => any) => Promise<any> }} Guard
 */

// How long the first instance's preparation waits at most for the page to
// be idle (wrapApi).
const PREPARE_WITHIN_MS = 1000;

/**
 * The page's side of the in-thread engine: the core gets wrappers of the
 * tools, toolFilter and onToolCall that see a run token as the run's
 * context and map it back to the run (runs.mjs), so that ended or disposed
 * runs get no call, tool calls are observed (onEvent), and the caller's
 * objects reach the caller's functions unchanged.
 * @param {any} config
 */
export function pagePipeline(config) {
    const onEvent = typeof config.onEvent === "function" ? config.onEvent : undefined;
    /** @type {WeakMap<object, any>} wrapper -> the caller's definition */
    const originals = new KeptWeakMap();
    /** @type {WeakMap<object, { deref: () => any }>} a session's own tool's wrapper -> its definition, weakly */
    const ownOriginals = new KeptWeakMap();
    /** @param {any} w */
    const orig = (w) => {
        if (!w || typeof w !== "object") return w;
        if (originals.has(w)) return originals.get(w);
        const ref = ownOriginals.get(w);
        return (ref && ref.deref()) || w;
    };
    /**
     * @param {any} def
     * @param {Own} [own] a session's own tools (ownList): gets the definition
     *   and the function that lets go of it
     */
    const wrapDef = (def, own) => {
        if (def === null || typeof def !== "object" || Array.isArray(def) || typeof field(def, "execute") !== "function") return def;
        // A session's own tool is reached weakly, its session's keeper
        // holding it (own.defs, lifetime.mjs weakly): the core keeps the
        // wrapper, and a tool that refers to its session kept the session
        // for as long as the factory.
        /** @type {any} */
        let held = own ? undefined : def;
        let ref = own ? weakly(def) : undefined;
        /** @type {any} */
        const w = {
            ...def,
            // The engine's CallSignal of the call (call.mjs), not its
            // signal, which reading would make; and its settle step, run
            // before the call is reported.
            execute: (/** @type {unknown} */ input, /** @type {any} */ opts) => {
                const d = held || (ref && ref.deref());
                return d
                    ? callTool(runOf(opts && opts.context), d, input, opts && (opts[CALL] || opts.signal), onEvent, opts && opts[SETTLE], opts && opts[PARSED])
                    : Promise.reject(new Error(SESSION_DISPOSED));
            },
        };
        if (!own) {
            originals.set(w, def);
            return w;
        }
        ownOriginals.set(w, /** @type {{ deref: () => any }} */ (ref));
        own.defs[own.defs.length] = def;
        own.cuts[own.cuts.length] = () => {
            ref = undefined;
            ownOriginals.delete(w);
            const keys = objectKeys(w);
            for (let i = 0; i < keys.length; i++) delete w[keys[i]];
        };
        return w;
    };
    /**
     * @param {any} list
     * @param {Own} [own] as wrapDef's
     * @param {string} [path] how errors name the list ("tool": one definition)
     */
    const wrapList = (list, own, path = "tools") =>
        Array.isArray(list)
            ? list.map((/** @type {any} */ d, /** @type {number} */ i) => {
                  try {
                      return wrapDef(d, own);
                  } catch (err) {
                      throw cannotRead(path === "tool" ? path : `${path}[${i}]`, err);
                  }
              })
            : list;
    /**
     * A session's own tools, wrapped as wrapList does, and the function
     * its dispose calls to let go of them: the core's values (the list, the
     * wrappers) stay in syscall/js's table until Go's collector finalizes
     * them, which Go's pacer, seeing only its own small heap, may not do
     * for thousands of sessions. Cut, the wrappers keep nothing of
     * the page's definitions (their execute functions and what those close
     * over), which go at the page's next collection. `defs` is what the
     * session's keeper holds (wrapDef).
     * @param {any} list
     */
    const ownList = (list) => {
        /** @type {(() => void)[]} */
        const cuts = [];
        /** @type {any[]} */
        const defs = [];
        const wrapped = wrapList(list, { cuts, defs }, "options.tools");
        // Closes over the cuts alone: the factory keeps it (wrap.mjs
        // LiveSession), and through the definitions it kept a session
        // whose tool refers to it.
        const release = () => {
            for (let i = 0; i < cuts.length; i++) cuts[i]();
            cuts.length = 0;
        };
        return { list: wrapped, release, defs };
    };
    /** @type {any} */
    const goConfig = { ...config };
    // config.tools past FIRST: the rest in slices (wrapApi).
    if ("tools" in config) goConfig.tools = wrapList(isArray(config.tools) && config.tools.length > FIRST ? config.tools.slice(0, FIRST) : config.tools, undefined, "config.tools");
    if (typeof config.toolFilter === "function") {
        const filter = config.toolFilter;
        goConfig.toolFilter = (/** @type {any} */ t) => filterVerdict(filter, orig(t), t.name);
    }
    if (typeof config.overwriteSystemInstruction === "function") {
        const overwrite = config.overwriteSystemInstruction;
        goConfig.overwriteSystemInstruction = (/** @type {string} */ raw) => overwriteVerdict(overwrite, raw);
    }
    const ic = config.interceptors;
    if (ic && typeof ic === "object" && typeof ic.onToolCall === "function") {
        const onToolCall = ic.onToolCall;
        const decide = async (/** @type {any} */ c) => {
            const run = runOf(c.callContext);
            if (!run || run.ended) throw new Error(run ? run.endReason : "the run has ended");
            let decision;
            try {
                decision = await askInterceptor(onToolCall, { tool: orig(c.tool), input: c.input, callContext: run.context }, c.tool.name);
            } catch (err) {
                // Cut before the core copies it in, as a tool's (call.mjs).
                const cut = cutThrown(thrownByTool(err, "onToolCall"));
                throw cutBefore(/** @type {Error} */ (cut[0]), cut[1]);
            }
            if (run.ended) throw new Error(run.endReason);
            // The replacement input is written as for a worker (one rule,
            // and one bound on its size, in both modes: worker-wire.mjs).
            if (decision !== null && typeof decision === "object" && !Array.isArray(decision) && decision.input !== undefined)
                decision.input = inputFromWire(inputToWire(decision.input, config.memoryLimit));
            // A denial's tool-call event is the core's (refusedCall), as
            // every call it ends before the tool.
            return decision;
        };
        goConfig.interceptors = {
            ...ic,
            // Marked handled: an interceptor that disposes the factory ends
            // the core before it reads this rejection (the run has ended),
            // which was then unhandled (the end of a Node.js process).
            onToolCall: (/** @type {any} */ c) => handled(decide(c)),
        };
    }
    return { goConfig, wrapList, ownList, orig, onEvent, regs: inFlight() };
}

/**
 * @template T
 * @param {Promise<T>} p
 * @returns {Promise<T>}
 */
function handled(p) {
    then(p, undefined, () => {});
    return p;
}

/** @typedef {ReturnType<typeof pagePipeline>} Pipeline */
/** @typedef {{ cuts: (() => void)[], defs: any[] }} Own */

/**
 * The guards of a core with calls pending (their rejecters, and how each
 * says that the core stopped), all rejected by one reaction on
 * core.exited. A reaction per guard (one per session) kept every session
 * a factory ever ran, disposed or not, until the core stopped: about
 * 4.7 KB a session. (A Promise.race per call, before that, left one per
 * call.)
 * @type {WeakMap<Core, Map<Set<(err: Error) => void>, () => Error>>}
 */
const exitWatches = new KeptWeakMap();

/** @param {Core} core */
function exitWatch(core) {
    let watch = exitWatches.get(core);
    if (!watch) {
        const guards = new KeptMap();
        watch = guards;
        exitWatches.set(core, guards);
        then(core.exited, () => {
            // Copies first (each fail unwatches itself), indexed: the
            // page's Array iterator may be broken.
            const lists = arrayOf(guards.keys());
            for (let i = 0; i < lists.length; i++) {
                const stopped = guards.get(lists[i]);
                const fails = arrayOf(lists[i]);
                for (let j = 0; j < fails.length; j++) fails[j](stopped());
            }
        });
    }
    return watch;
}

// Calls fn (which may throw or return a promise) unless the owner was
// disposed or the core stopped; a pending call rejects when the core stops.
// Whatever a call ends with while the core stops (a Go fatal error unwinds
// through wasm_exec, whose own TypeErrors would say nothing), it rejects
// with the one error that says the engine stopped.
/**
 * @param {Core} core
 * @param {() => string} isDisposed the reason the owner is unusable, or ""
 * @returns {Guard}
 */
function makeGuard(core, isDisposed) {
    const stopped = () => {
        const why = isDisposed();
        return why ? new Error(why) : exitedError(core.state);
    };
    const check = () => {
        const why = isDisposed();
        if (why) throw new Error(why);
        if (core.state.exited) throw exitedError(core.state);
    };
    /** @type {<T>(fn: () => T) => T} */
    const sync = (fn) => {
        check();
        let value;
        try {
            value = fn();
        } catch (err) {
            throw core.state.exited ? stopped() : callerStack(err, sync);
        }
        if (core.state.exited) throw stopped();
        return value;
    };
    // The pending calls' rejecters, all rejected once when the core stops
    // (watchExit). Watched only while a call is pending, so that an idle
    // or disposed session leaves nothing on the core.
    /** @type {Set<(err: Error) => void>} */
    const pending = new KeptSet();
    /** @param {(err: Error) => void} fail */
    const unwatch = (fail) => {
        if (!pending.delete(fail)) return false;
        if (pending.size === 0) exitWatch(core).delete(pending);
        return true;
    };
    /** @param {() => any} fn */
    const async = (fn) => {
        /** @type {(() => void) | undefined} */
        let release;
        try {
            check();
            release = core.hold();
            const value = fn();
            if (core.state.exited) throw stopped();
            if (!value || typeof value.then !== "function") {
                release();
                return Promise.resolve(value);
            }
            const done = /** @type {() => void} */ (release);
            return new Promise((resolve, reject) => {
                /** @param {Error} err */
                const fail = (err) => {
                    if (!unwatch(fail)) return;
                    done();
                    reject(err);
                };
                if (pending.size === 0) exitWatch(core).set(pending, stopped);
                pending.add(fail);
                then(
                    value,
                    (/** @type {any} */ v) => {
                        if (!unwatch(fail)) return;
                        done();
                        resolve(v);
                    },
                    (/** @type {any} */ err) => fail(core.state.exited ? stopped() : err),
                );
            });
        } catch (err) {
            if (release) release();
            return Promise.reject(core.state.exited ? stopped() : err);
        }
    };
    return { check, sync, async };
}

// The core calls onConsole synchronously, from inside a run's QuickJS
// frames (a run's console lines reach onEvent as they are logged). An
// observer that disposed or started a run there re-entered the core in the
// middle of that run: on the calling thread the run never settled and the
// thread spun. Those calls into the core wait for its frames to return.
let inConsole = 0;
/** @param {() => void} fn */
const afterCore = (fn) => (inConsole > 0 ? queueMicrotask(fn) : fn());

/**
 * Calls an observer from inside the core's frames (afterCore).
 * @param {() => void} fn
 */
function inCore(fn) {
    inConsole++;
    try {
        fn();
    } finally {
        inConsole--;
    }
}

/**
 * An LLM tool of a session, as the page gets it: its execute reaches the
 * session through its box (faces.mjs).
 * @param {any} tool the core's LLM tool
 * @param {number} which its index in the core's list
 * @param {{ m: import("./faces.mjs").SessionMethods }} box the session's
 * @param {import("./lifetime.mjs").Lifetime} life the session's: the tool keeps it, a run holds it
 * @returns {LlmTool}
 */
function llmTool(tool, which, box, life) {
    return life.attach({
        name: tool.name,
        description: tool.description,
        inputSchema: markSchema(tool.inputSchema),
        execute: executeFace(box, tool.name, which),
        toModelOutput,
    });
}

/**
 * A run of a live session's LLM tool (its execute).
 * @param {Function} goExecute the core's execute of the tool
 * @param {string} name the tool's
 * @param {any} args
 * @param {any} options
 * @param {Guard} guard
 * @param {Pipeline} pipe
 * @param {import("./runs.mjs").Owner} owner
 * @param {import("./lifetime.mjs").Lifetime} life the session's: a run holds it
 * @returns {Promise<any>}
 */
function runLlmTool(goExecute, name, args, options, guard, pipe, owner, life) {
    const isCode = name === "executeCode", isSearch = name === "searchTools";
    // Checked first: a toJSON there would change what argsOnce reads.
    const hazard = prototypeHazard();
    if (hazard) return Promise.reject(hazard);
    let opts;
    args = argsOnce(args, isSearch);
    try {
        guard.check();
        opts = normalizeRunOptions(options);
    } catch (err) {
        return Promise.reject(err);
    }
    const signal = opts.signal;
    if (signal && signal.aborted) return Promise.reject(abortReason(signal));
    const run = startRun(owner, opts.context, opts.onEvent, pipe.onEvent);
    // The core sees the run's token, never its context, and, when the
    // caller gave a signal, a signal of ours: aborted by the caller's
    // signal or by dispose(). Without one, dispose() stops the run in
    // the core itself (session.dispose, api.dispose) right after
    // stopRuns, and every tool's own signal aborts from endRun: no
    // controller and no listener in the core per run.
    const ctrl = signal ? newAbortController() : undefined;
    // A run nobody observes (no onEvent) makes no events at all.
    const watched = isCode && observed(run, pipe.onEvent);
    const t0 = watched ? now() : 0;
    if (watched) emit(run, { type: "run-start", runId: run.id, code: args && args.code }, pipe.onEvent);
    const onConsole = watched
        ? (/** @type {string} */ level, /** @type {string} */ message) => inCore(() => consoleLine(run, level, message, pipe.onEvent))
        : undefined;
    // The calls the core ends before their tool, as they are: from
    // inside the run's frames too (an unknown name is refused as the
    // program calls it).
    const onRefused = watched ? (/** @type {string} */ text) => inCore(() => refusedCall(run, text, pipe.onEvent)) : undefined;
    // The session stays while its run is in flight, whatever the page keeps.
    const unhold = life.hold();
    return new Promise((resolve, reject) => {
        let settled = false;
        let unwatch = () => {};
        /**
         * @param {boolean} good
         * @param {any} v
         */
        const settle = (good, v) => {
            if (settled) return;
            settled = true;
            unwatch();
            unhold();
            const out = settledAs(good, v);
            finishRun(run, out.good, out.v, t0, watched, pipe.onEvent);
            (out.good ? resolve : reject)(out.v);
        };
        const onAbort = () => {
            const reason = abortReason(/** @type {AbortSignal} */ (signal));
            if (ctrl) ctrl.abort(reason);
            settle(false, reason);
        };
        run.abortHook = (err) => {
            if (ctrl) ctrl.abort(err);
            settle(false, err);
        };
        // An onEvent that aborted the signal from run-start did so after
        // the check above, and 'abort' fires only once: the run ends
        // here, before the program starts.
        if (signal && signal.aborted) return onAbort();
        if (run.stopped) return settle(false, run.stopped);
        try {
            if (signal) unwatch = whenAborted(signal, onAbort);
        } catch (err) {
            // A signal whose addEventListener throws: the run, started
            // (run-start) and never to be stopped by it, ends with that.
            return settle(false, err);
        }
        // Started once abortHook is set: the core runs the program, and
        // calls a tool, before runInCore returns, and a tool that
        // disposes its session or factory at once (before any await)
        // must end this run as dispose() says, not with the core's
        // "codemode: closed". The options as given go along, for the
        // core's unknown-key check.
        const start = () => runInCore(goExecute, args, run.id, ctrl && ctrl.signal, onConsole, options, onRefused);
        const go = () =>
            settled ||
            then(
                guard.async(() => (inConsole > 0 ? then(undefined, start, start) : start())),
                (box) => settle(true, box.value),
                (e) => settle(false, e),
            );
        // After the registrations in flight (registering.mjs), failed or
        // not: the run sees every tool of a big registerTools call or a
        // source's listing.
        const wait = pipe.regs.wait();
        if (wait) then(wait, go, go);
        else go();
    });
}

/**
 * A live session of a factory, as the factory keeps it.
 * @typedef {{ session: any, core: Core, factoryDisposed: () => boolean, release: () => void, cut: () => void }} LiveSession
 */

/**
 * The factory lets go of a session: the core's, and its own tools (ownList).
 * @param {Map<number, LiveSession>} live the factory's sessions
 * @param {number} id
 */
function endSession(live, id) {
    const rec = live.get(id);
    if (!rec) return;
    live.delete(id);
    if (rec.factoryDisposed() || rec.core.state.exited) return;
    afterCore(() => {
        try {
            rec.session.dispose();
        } finally {
            rec.release();
        }
    });
}

/**
 * @param {any} session the core's session
 * @param {Core} core
 * @param {import("./faces.mjs").FactoryState} factory
 * @param {Pipeline} pipe
 * @param {import("./runs.mjs").Owner} factoryOwner
 * @param {() => void} release lets go of the session's own tools (ownList)
 * @param {any[]} defs the session's own tools, which its keeper holds (ownList)
 * @param {Map<number, LiveSession>} live the factory's sessions, where this one goes
 * @param {number} id its key there
 * @returns {Session}
 */
function wrapSession(session, core, factory, pipe, factoryOwner, release, defs, live, id) {
    let disposed = false;
    const factoryDisposed = () => factory.disposed;
    const owner = newOwner(factoryOwner);
    // Dropped without dispose(), the session goes when nothing of it is
    // left (lifetime.mjs): the factory reaches it through `live` alone.
    const life = partLifetime(live, id, endSession, { defs });
    /** @type {{ m: import("./faces.mjs").SessionMethods }} */
    const box = { m: deadSession(factory) };
    // At the session's dispose, or its factory's: what the page kept of it
    // answers as a disposed session, holding nothing else (faces.mjs), nor
    // its keeper its own tools (disarm). Not `defs` itself: the factory
    // keeps this, and a tool that refers to its session kept the session.
    const cut = () => {
        box.m = deadSession(factory);
        life.disarm();
    };
    live.set(id, { session, core, factoryDisposed, release, cut });
    const guard = makeGuard(core, () => {
        if (factoryDisposed()) return FACTORY_OF_SESSION_DISPOSED;
        if (disposed) return SESSION_DISPOSED;
        return "";
    });
    box.m = {
        getLlmTools() {
            // The core's pair, [searchTools, executeCode].
            return guard.sync(() => /** @type {[any, any]} */ (map(session.getLlmTools(), (/** @type {any} */ t, i) => llmTool(t, i, box, life))));
        },
        getSystemInstruction() {
            notFromHook("session.getSystemInstruction()");
            return guard.sync(() => session.getSystemInstruction());
        },
        dispose() {
            if (disposed) return;
            disposed = true;
            cut();
            if (factoryDisposed() || core.state.exited) return;
            stopRuns(owner, "Code Mode: the session was disposed while this run was in flight.");
            endSession(live, id);
        },
        execute: (name, which, args, options) => runLlmTool(session.executeOf(which), name, args, options, guard, pipe, owner, life),
    };
    return life.attach(sessionFace(box));
}

/**
 * @param {any} api the core's API object
 * @param {Core} core
 * @param {Pipeline} pipe
 * @param {any[]} [rest] config.tools past FIRST (their first FIRST are the core's): registered in slices, which the factory's promise waits for
 * @returns {API}
 */
export function wrapApi(api, core, pipe, rest) {
    /** @type {import("./faces.mjs").FactoryState} */
    const factory = { disposed: false };
    const owner = newOwner();
    /** @type {Map<number, LiveSession>} */
    const live = new KeptMap();
    let nextSession = 1;
    const guard = makeGuard(core, () => (factory.disposed ? instanceDisposed().message : ""));
    // Whether slices in flight (registering.mjs) may go on.
    const taking = () => !factory.disposed && !core.state.exited;
    /** @type {{ m: import("./faces.mjs").ApiMethods }} */
    const box = { m: deadApi };
    /** @type {Map<number, () => void>} the core's unregister functions, by registration */
    const unregisters = new KeptMap();
    let nextRegistration = 1;
    /** @param {() => void} unregister */
    const wrapUnregister = (unregister) => {
        const id = nextRegistration++;
        unregisters.set(id, unregister);
        return unregisterFace(box, id);
    };
    // The engine's first instance is made, and the sandbox's sources are
    // compiled into it, once the caller has the factory and the host is
    // idle (codemode.Prepare, ~20-50 ms of this thread): the first run then
    // starts as later runs do. A page's idle time, not a moment it did not
    // choose (a timer's, before its own next task); within PREPARE_WITHIN_MS
    // on a page never idle. A run that comes first does that work itself,
    // before its clock; this does nothing then (its instance is running, or
    // ready). Not while a run is in flight: one asked for but not yet on
    // the engine would wait for it, and an abort given meanwhile would find
    // it not yet started. dispose() cancels it.
    const unprepare = whenIdle(() => {
        if (factory.disposed || core.state.exited || owner.runs.size > 0) return;
        try {
            api.prepare();
        } catch {
            // Only ever an optimisation: a run does without it.
        }
    }, PREPARE_WITHIN_MS);
    box.m = {
        registerTool(tool) {
            return guard.sync(() => wrapUnregister(api.registerTool(pipe.wrapList([tool], undefined, "tool")[0])));
        },
        registerTools(tools) {
            /** @param {any[]} part @param {number} at */
            const reg = (part, at) => {
                try {
                    return guard.sync(() => api.registerTools(pipe.wrapList(part)));
                } catch (err) {
                    throw renumbered(err, at);
                }
            };
            // Past FIRST tools, in slices over later tasks (registering.mjs).
            if (isArray(tools) && tools.length > FIRST) return wrapUnregister(sliced(tools, pipe.regs, reg, undefined, taking));
            return wrapUnregister(reg(tools, 0));
        },
        unregister(id) {
            const unregister = unregisters.get(id);
            if (!unregister || factory.disposed || core.state.exited) return;
            unregisters.delete(id);
            unregister();
        },
        listTools() {
            notFromHook("listTools()");
            // Copies: the wrapper holds the fields as the core read them.
            return guard.sync(() => map(api.listTools(), (/** @type {any} */ w) => listedTool(w, pipe.orig(w))));
        },
        ready() {
            // On this thread a registration is in the engine when it
            // returns; slices still in flight are waited for.
            return guard.async(() => {
                const wait = pipe.regs.wait();
                return wait && then(wait, () => guard.check());
            });
        },
        registering(step) {
            guard.check();
            return pipe.regs.slices(step, taking);
        },
        createSession(options) {
            const o = /** @type {any} */ (options);
            const tools = field(o, "tools");
            const own = tools !== undefined ? pipe.ownList(tools) : undefined;
            const goOptions = own ? { ...o, tools: own.list } : options;
            const release = own ? own.release : () => {};
            const defs = own ? own.defs : [];
            try {
                return guard.sync(() => wrapSession(goSession(api.createSession(goOptions)), core, factory, pipe, owner, release, defs, live, nextSession++));
            } catch (err) {
                release();
                throw err;
            }
        },
        dispose() {
            unprepare();
            if (factory.disposed) return;
            factory.disposed = true;
            // What the page kept of the factory and of its sessions answers
            // as disposed, holding nothing else (faces.mjs).
            box.m = deadApi;
            unregisters.clear();
            forEachEntry(live, (rec) => rec.cut());
            live.clear();
            if (core.state.exited) return;
            stopRuns(owner, "Code Mode: the instance was disposed while this run was in flight.");
            afterCore(() => api.dispose());
            // The factory's Go program goes with it, once the Go frames of
            // the current call (dispose() from a tool, say) have returned.
            queueMicrotask(() => core.stop(new Error("the factory was disposed")));
        },
    };
    if (rest) {
        const reg = (/** @type {any[]} */ part, /** @type {number} */ at) => {
            try {
                return guard.sync(() => api.registerTools(pipe.wrapList(part)));
            } catch (err) {
                throw renumbered(err, at, "config.tools");
            }
        };
        sliced(rest, pipe.regs, reg, undefined, taking, "config.tools");
    }
    return apiFace(box);
}
