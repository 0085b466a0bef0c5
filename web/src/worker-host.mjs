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
// refuses after registerTool returned (the little the page's checks leave
// to it: schemacheck.mjs, refcycle.mjs) is dropped with a console error.
//
// This file holds the factory: its state (a Host, shared with the modules
// below) and the public API's methods. The rest of worker mode, by job:
//   worker-engine.mjs    starting, replacing and terminating the worker,
//                        and the backstop for a run that holds it
//   worker-protocol.mjs  the worker's messages and the page's replies
//   worker-runs.mjs      the LLM tools' execute: runs and their events
//   worker-tools.mjs     the tool checks made before anything crosses
//   worker-wire.mjs      errors and the config as they cross postMessage

import { describe, describeError } from "./env.mjs";
import { FACTORY_OF_SESSION_DISPOSED, SESSION_DISPOSED, apiFace, deadApi, deadSession, instanceDisposed, sessionFace, unregisterFace } from "./faces.mjs";
import { field, listedTool } from "./fields.mjs";
import { KeptMap, KeptSet, forEachEntry, isArray, keptSetOf, map, objectKeys, promiseResolve, then } from "./intrinsics.mjs";
import { filterVerdict, notFromHook } from "./page-hooks.mjs";
import { newOwner, stopRuns } from "./runs.mjs";
import { SESSION_HINTS, SESSION_KEYS, unknownKeyError } from "./keys.mjs";
import { goQuote } from "./schemacheck.mjs";
import { lifetime, weakly } from "./lifetime.mjs";
import { abortFlags, dropHeld, forget, hold, holdInFlight, ownTools, start, terminateDropped } from "./worker-engine.mjs";
import { onMessage } from "./worker-protocol.mjs";
import { applyOverwrite, llmTools, runLlmTool } from "./worker-runs.mjs";
import { checkTools } from "./worker-tools.mjs";
import { cloneable } from "./worker-wire.mjs";
import { FIRST, inFlight, sliced } from "./registering.mjs";

/** @typedef {import("../index.d.ts").IoCodeMode.Config} Config */

/**
 * The factory lets go of a session (its own tools, its state in the worker).
 * @param {import("./worker-engine.mjs").Host} h
 * @param {number} sid
 */
function endSession(h, sid) {
    h.sessions.delete(sid);
    h.worker && h.worker.post({ t: "disposeSession", sid });
}

/**
 * The safety net's release of a session the page dropped without
 * dispose() (lifetime.mjs): no run of it is in flight, and nothing of the
 * page can call it any more.
 * @param {import("./worker-engine.mjs").Host} h
 * @param {number} sid
 */
function endDroppedSession(h, sid) {
    if (h.sessions.has(sid)) endSession(h, sid);
}

/**
 * The names of the definitions (a list and their checked names, or a map
 * by registered name) that toolFilter shows, made by index writes and the
 * Map iteration taken at load: a page whose builtins broke after the
 * factory loaded must not empty it.
 * @param {any} filter
 * @param {any[] | Map<string, any>} defs
 * @param {{ name: string }[]} [descs] the list's, as checkTools gave them
 * @param {any[]} [kept] gets the definitions of the names, in their order
 * @returns {string[]}
 */
function shownOf(filter, defs, descs, kept) {
    /** @type {string[]} */
    const names = [];
    const add = (/** @type {any} */ d, /** @type {string} */ name) => {
        if (filterVerdict(filter, d, name)) (names[names.length] = name), kept && (kept[kept.length] = d);
    };
    if (isArray(defs)) for (let i = 0; i < defs.length; i++) add(defs[i], /** @type {any} */ (descs)[i].name);
    else forEachEntry(defs, add);
    return names;
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
    // By index, as each list of the factory's and a run's paths: the page's
    // Array iterator of the moment may be broken (intrinsics.mjs).
    const cfgKeys = objectKeys(cfg);
    for (let i = 0; i < cfgKeys.length; i++) {
        const k = cfgKeys[i];
        const v = cfg[k];
        // The modules go compiled with init (worker-engine.mjs).
        if (k === "worker" || k === "onEvent" || k === "tools" || k === "wasmModule" || k === "coreModule") continue;
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
    const tools = new KeptMap();
    /** @type {import("./worker-engine.mjs").Host["registrations"]} */
    const registrations = new KeptMap();
    // The factory's tools toolFilter has hidden whenever it was asked, by
    // name: not posted to the worker (a place of another trust: a page's
    // own Worker, devtools) until a run or a session's list shows them.
    /** @type {Map<string, { id: number, desc: { name: string, record: string } }>} */
    const held = new KeptMap();
    let nextReg = 1;
    // config.tools past FIRST: the first FIRST go with init, the rest in
    // slices once the worker has started (registering.mjs).
    const rest = isArray(cfg.tools) && cfg.tools.length > FIRST;
    const head = rest ? map(cfg.tools, (d) => d).slice(0, FIRST) : cfg.tools;
    /** @type {any[]} */
    const initialFields = [];
    const initialTools = head === undefined ? [] : checkTools(head, "config.tools", new KeptSet(), 0, initialFields);
    if (head !== undefined) {
        registrations.set(0, { defs: map(head, (d) => d), descs: initialTools, fields: initialFields });
        for (let i = 0; i < head.length; i++) tools.set(initialTools[i].name, head[i]);
    }
    // The names toolFilter shows: of the factory's tools, and of each
    // session's own apart (two live sessions may each have a tool of their
    // own under one name, which the filter may show in one and hide in the
    // other). The worker runs a tool only if the list of its owner names it
    // (an allow-list: a list that comes out short hides tools, it never
    // shows one). It was a list of the hidden names, and a page whose
    // builtins broke after the factory loaded (Array.prototype's filter(),
    // then Set.prototype.add or Set iteration) emptied it, so the worker ran
    // a hidden tool. It is made with no builtin the page can replace: the
    // Map iteration taken at load, null-prototype records and index writes.
    /** @type {import("./worker-engine.mjs").Host["visibleNames"]} */
    const visibleNames = (quiet) => {
        // A literal's null prototype: no Object.create, no inherited keys.
        /** @type {Record<number, string[]>} */
        const own = /** @type {any} */ ({ __proto__: null });
        forEachEntry(sessions, (s, sid) => {
            if (sid === 0) return;
            const o = ownTools(s);
            const names = (own[sid] = shownOf(filter, o.tools));
            // A session's own tool the filter hid so far, and shows now,
            // goes to the worker before the message (the Go session adds it).
            if (quiet || o.held.size === 0) return;
            /** @type {any[]} */
            const add = [];
            for (let i = 0; i < names.length; i++) {
                const d = o.held.get(names[i]);
                if (d) o.held.delete(names[i]), (add[add.length] = d);
            }
            if (add.length > 0 && h.worker) h.worker.post({ t: "sessionTools", sid, tools: add });
        });
        /** @type {any[]} */
        const defs = [];
        const shown = shownOf(filter, tools, undefined, defs);
        // A held tool the filter now shows goes to the worker before the
        // message this list is for (a run's, a session's); not before a
        // (new) worker's init, which replays the registrations after it.
        if (held.size > 0 && !quiet) {
            for (let i = 0; i < shown.length; i++) {
                const e = held.get(shown[i]);
                if (!e) continue;
                held.delete(shown[i]);
                h.worker && h.worker.post({ t: "register", id: e.id, tools: [e.desc] });
            }
        }
        const v = { tools: shown, sessions: own };
        made = { v, defs, at: h.toolsChanged };
        if (!quiet) tell(v);
        return v;
    };
    /** The last list made, the definitions of its factory tools, and h.toolsChanged then. */
    /** @type {{ v: import("./worker-engine.mjs").Visible, defs: any[], at: number } | null} */
    let made = null;
    // What the worker's instructions may name, of the filter's answers: the
    // lists last posted to it (a run's, a session's, a rebuild's). A name of
    // them the filter hides now makes the page's copies stale, until the
    // pong of a ping posted after the list that tells the worker
    // (h.staleAfter, worker-protocol.mjs). Until then getSystemInstruction()
    // leaves the catalog out: it named a tool hidden since (a user signed
    // out) until the next run or search, and a new session's too.
    /** @type {import("./worker-engine.mjs").Visible | null} */
    let told = null;
    /** @type {{ v: import("./worker-engine.mjs").Visible, defs: any[], at: number } | null} told's, as visibleNames made it */
    let toldMade = null;
    let pingDue = false;
    /** Whether a name told shows is left out of v: a factory tool's, or a session's own. */
    const hides = (/** @type {import("./worker-engine.mjs").Visible} */ v) => {
        if (!told) return false;
        const was = /** @type {Record<string, string[]>} */ (told.sessions);
        const now = /** @type {Record<string, string[]>} */ (v.sessions);
        const sids = objectKeys(now);
        for (let k = -1; k < sids.length; k++) {
            const a = k < 0 ? told.tools : was[sids[k]];
            if (!a) continue;
            const b = (k < 0 ? v.tools : now[sids[k]]) || [];
            // As a run's list after a run's, b begins with a's names (new
            // tools come last): no Set of 100,000 names per run.
            let i = 0;
            if (a.length <= b.length) while (i < a.length && a[i] === b[i]) i++;
            const yes = i < a.length && keptSetOf(b);
            if (yes) for (; i < a.length; i++) if (!yes.has(a[i])) return true;
        }
        return false;
    };
    /**
     * Whether a name of names (told) the filter hides now, or defs no
     * longer has; of the factory's (byName: its definitions as told, while
     * no registration came or ended since), without a look-up per name.
     */
    const hiddenOf = (/** @type {string[] | undefined} */ names, /** @type {Map<string, any>} */ defs, /** @type {any[] | null} */ byName = null) => {
        for (let i = 0; names && i < names.length; i++) {
            const d = byName ? byName[i] : defs.get(names[i]);
            if (!d || !filterVerdict(filter, d, names[i])) return true;
        }
        return false;
    };
    const stale = () => h.staleAfter || ((h.staleAfter = nextPing), (pingDue = true));
    const tell = (/** @type {import("./worker-engine.mjs").Visible} */ v) => {
        if (hides(v)) stale();
        told = v;
        toldMade = made && made.v === v ? made : null;
    };
    /**
     * A session's instruction as the worker made it, or, while it may name a
     * tool the filter hides now, without its catalog.
     * @param {number} sid
     * @param {string} raw
     */
    const current = (sid, raw) => {
        const s = sessions.get(sid);
        // The filter is asked of the names told alone, with their
        // definitions as told while no registration came or ended since:
        // one ask per tool, where two lists of every tool and a Set of them
        // were made on each call (100,000 tools: 27 -> 6 ms).
        if (filter && s && told && (hiddenOf(told.tools, tools, toldMade && toldMade.at === h.toolsChanged ? toldMade.defs : null) || hiddenOf(/** @type {any} */ (told.sessions)[sid], ownTools(s).tools))) {
            const v = visibleNames(true);
            tell(v);
            h.worker && h.worker.post({ t: "visible", visible: v });
        }
        if (!h.staleAfter) return raw;
        if (pingDue) {
            pingDue = false;
            const id = nextPing++;
            h.pings.set(id, { resolve() {}, reject() {} });
            h.worker && h.worker.post({ t: "ping", id });
        }
        const at = raw.indexOf("\nAvailable tools (");
        return at < 0 ? raw : raw.slice(0, at) + "\nFind the available tools with searchTools.\n";
    };

    const factoryOwner = newOwner();
    /** @type {import("./faces.mjs").FactoryState} */
    const factory = { disposed: false };
    let nextSid = 1;
    /** @type {import("./worker-engine.mjs").Host["sessions"]} */
    const sessions = new KeptMap();
    // Session 0 is the worker's own session without tools (ownTools finds
    // none): its instructions stand in for a new session's until the worker
    // reports them.
    sessions.set(0, { own: { deref: () => undefined }, info: null, owner: factoryOwner });
    // ready(): a ping the worker answers after every message sent before it
    // (registrations, sessions), whose info it has pushed by then.
    let nextPing = 1;
    const flagsBuffer = abortFlags();

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

    /** @type {import("./worker-engine.mjs").Host} */
    const h = {
        cfg,
        filter,
        onToolCall,
        overwrite,
        factoryOnEvent,
        sent,
        standIns,
        initialTools,
        visibleNames,
        tools,
        toolsChanged: 0,
        registrations,
        held,
        sessions,
        pending: new KeptMap(),
        stopping: new KeptMap(),
        runTimeout: typeof cfg.timeout === "number" ? cfg.timeout : 30000,
        overruns: new KeptMap(),
        lastSign: 0,
        holder: { rid: 0, n: 0, held: 0 },
        pageCalls: new KeptMap(),
        verdicts: new KeptMap(),
        pings: new KeptMap(),
        staleAfter: 0,
        regs: inFlight(),
        flagsBuffer,
        flags: flagsBuffer ? new Int32Array(flagsBuffer) : null,
        worker: null,
        // The page's of load: one that threw when a factory was made failed it.
        ready: promiseResolve(undefined),
        busy: 0,
        stoppedError: null,
        self,
        engine,
        life,
        onMessage: (m, ok, fail) => onMessage(h, m, ok, fail),
    };

    const releaseInit = hold(h);
    // Until the page has the factory, nothing of the page keeps it.
    const starting = life.hold();
    start(h, true);
    try {
        await h.ready;
        releaseInit();
    } catch (err) {
        releaseInit();
        starting();
        life.disarm();
        const w = h.worker;
        h.worker = null;
        if (w) w.terminate();
        throw err;
    }

    const check = () => {
        if (factory.disposed) throw instanceDisposed();
        if (h.stoppedError) throw h.stoppedError;
    };
    // Whether slices in flight (registering.mjs) may go on.
    const taking = () => !factory.disposed && !h.stoppedError;

    // What the page is given reaches the factory through this box, which
    // dispose() empties (faces.mjs).
    /** @type {{ m: import("./faces.mjs").ApiMethods }} */
    const box = { m: deadApi };

    /** @param {any} list @param {string} path @param {number} [at] the index of list's first tool in the call (sliced) */
    function register(list, path, at = 0) {
        check();
        // A live session's own tool keeps its name (codemode.go
        // RegisterTools): checked first, as there (checkTools' first).
        // By index and forEachEntry, not forEach and a destructuring for-of:
        // the page's Array methods and iterator of the moment may be broken,
        // and its Array.isArray (one answering false skipped this check).
        const sessionNames = (/** @type {any[]} */ names) => {
            for (let i = 0; i < names.length; i++) {
                const name = names[i];
                if (typeof name !== "string") continue;
                forEachEntry(sessions, (s, sid) => {
                    if (sid !== 0 && ownTools(s).tools.has(name)) {
                        throw new TypeError(`${path === "tool" ? path : `${path}[${i + at}]`} (${goQuote(name)}): name: already a tool of a session (createSession's tools)`);
                    }
                });
            }
        };
        // The map itself, not a copy of its names: a copy per call made
        // registering n tools one by one O(n^2) (10,000: 7 of 9 s copying).
        /** @type {any[]} */
        const fields = [];
        const descs = checkTools(list, path, tools, at, fields, sessionNames);
        const id = nextReg++;
        // By index, with the load-time map (intrinsics.mjs): the page's
        // Array iterator or map of the moment lost the definitions.
        const defs = map(list, (d) => d);
        registrations.set(id, { defs, descs, fields });
        for (let i = 0; i < defs.length; i++) tools.set(descs[i].name, defs[i]);
        h.toolsChanged++;
        // The filter is asked about this registration's tools alone: the
        // others keep the verdicts the worker has (the last full list: a
        // run's, a session's), as runs re-ask it about every tool. Asking it
        // about every tool here cost an app registering 4,000 tools one by
        // one 8,002,000 filter calls.
        let post = descs;
        const shown = filter && shownOf(filter, defs, descs);
        if (shown && shown.length < descs.length) {
            const yes = keptSetOf(shown);
            post = [];
            for (let i = 0; i < descs.length; i++) {
                if (yes.has(descs[i].name)) post[post.length] = descs[i];
                else held.set(descs[i].name, { id, desc: descs[i] });
            }
        }
        h.worker && h.worker.post({ t: "register", id, one: path === "tool", tools: post, shown });
        return unregisterFace(box, id);
    }

    box.m = {
        registerTool(tool) {
            return register([tool], "tool");
        },
        registerTools(list) {
            // Past FIRST tools, in slices over later tasks (registering.mjs).
            if (isArray(list) && list.length > FIRST) return sliced(list, h.regs, (part, at) => register(part, "tools", at), tools, taking);
            return register(list, "tools");
        },
        unregister(id) {
            const reg = registrations.get(id);
            // Gone already: unregistered, or refused by the worker (registerFailed).
            if (factory.disposed || !reg) return;
            registrations.delete(id);
            // The worker's instructions name its tools it had until they are rebuilt (current).
            for (let i = 0; i < reg.descs.length; i++) {
                const e = held.get(reg.descs[i].name);
                if (!e || e.id !== id) stale();
            }
            forget(h, reg);
            dropHeld(h, id);
            h.worker && h.worker.post({ t: "unregister", id });
        },
        listTools() {
            // As in-thread (wrap.mjs): from toolFilter it would call the
            // filter again, and a filter that let this escape hid the tool
            // in-thread while worker mode showed it.
            notFromHook("listTools()");
            check();
            // Sorted by name, as the core on the calling thread lists them;
            // copies of the fields registration read (fields.mjs listedTool).
            /** @type {[string, any][]} */
            const out = [];
            forEachEntry(registrations, ({ defs, descs, fields }) => {
                for (let i = 0; i < defs.length; i++) {
                    const name = descs[i].name;
                    if (tools.get(name) === defs[i] && (!filter || filterVerdict(filter, defs[i], name))) out.push([name, listedTool(fields[i], defs[i])]);
                }
            });
            return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((e) => e[1]);
        },
        ready() {
            // After the registrations in flight (registering.mjs), whose
            // slices go to the worker before the ping.
            const ping = () => {
                if (factory.disposed) return Promise.reject(instanceDisposed());
                if (h.stoppedError) return Promise.reject(h.stoppedError);
                const id = nextPing++;
                const release = holdInFlight(h);
                return /** @type {Promise<void>} */ (
                    new Promise((resolve, reject) => {
                        h.pings.set(id, {
                            resolve: () => (release(), resolve()),
                            reject: (/** @type {any} */ e) => (release(), reject(e)),
                        });
                        h.worker && h.worker.post({ t: "ping", id });
                    })
                );
            };
            const wait = factory.disposed || h.stoppedError ? undefined : h.regs.wait();
            return wait ? then(wait, ping) : ping();
        },
        registering(step) {
            check();
            return h.regs.slices(step, taking);
        },
        createSession(options) {
            check();
            if (options !== undefined && options !== null && (typeof options !== "object" || isArray(options))) {
                throw new TypeError(`createSession(options): expected an object, got ${describe(options)}`);
            }
            const o = /** @type {any} */ (options || {});
            let given;
            try {
                given = objectKeys(o);
            } catch (err) {
                // The core's words (wasm/config.go checkKeys), as in-thread.
                throw new TypeError(`createSession(options): cannot list its keys: ${describeError(err)}`);
            }
            const keyError = unknownKeyError("createSession(options)", given, SESSION_KEYS, SESSION_HINTS);
            if (keyError) throw keyError;
            const list = field(o, "tools"); // never from Object.prototype (fields.mjs)
            const descs = list === undefined ? [] : checkTools(list, "options.tools", tools);
            const defs = list === undefined ? [] : map(list, (d) => d); // as register's
            const sid = nextSid++;
            const owner = newOwner(factoryOwner);
            // The session's own tools, which its keeper holds: the factory
            // reaches them weakly (lifetime.mjs weakly), so that a tool that
            // refers to its session does not keep it.
            // held: its tools toolFilter hides, by name, not posted to the
            // worker until a run's list shows them (visibleNames).
            const ownRec = { tools: new KeptMap(map(defs, (d, i) => [descs[i].name, d])), descs, held: new KeptMap() };
            /** @type {import("./worker-engine.mjs").HostSession} */
            const s = { own: weakly(ownRec), info: null, owner };
            sessions.set(sid, s);
            let sessionDisposed = false;
            const deadReason = () =>
                factory.disposed
                    ? FACTORY_OF_SESSION_DISPOSED
                    : sessionDisposed
                      ? SESSION_DISPOSED
                      : h.stoppedError
                        ? h.stoppedError.message
                        : "";
            const visible = filter && visibleNames();
            let post = descs;
            if (visible && visible.sessions[sid].length < descs.length) {
                const yes = keptSetOf(visible.sessions[sid]);
                post = [];
                for (let i = 0; i < descs.length; i++) {
                    if (yes.has(descs[i].name)) post[post.length] = descs[i];
                    else ownRec.held.set(descs[i].name, descs[i]);
                }
            }
            h.worker && h.worker.post({ t: "session", sid, tools: post, visible });
            // The worker answers with the session's instructions; until then
            // the factory's last known ones stand in (the same tools, less
            // the session's own).
            const template = sessions.get(0);
            if (template && template.info) s.info = template.info;
            // Dropped without dispose(), the session goes when nothing of
            // it is left (lifetime.mjs); its objects keep the factory.
            const sessionLife = life.part(h, sid, endDroppedSession, ownRec);
            /** @type {{ m: import("./faces.mjs").SessionMethods }} */
            const sbox = { m: deadSession(factory) };
            // At the session's dispose, or its factory's: what the page kept
            // of it answers as a disposed session, holding nothing else
            // (faces.mjs), nor its keeper its own tools (disarm). Not ownRec
            // itself: the factory keeps this, and a tool that refers to its
            // session kept the session.
            const cut = () => {
                sbox.m = deadSession(factory);
                sessionLife.disarm();
            };
            s.cut = cut;
            sbox.m = {
                getLlmTools() {
                    const why = deadReason();
                    if (why) throw new Error(why);
                    return llmTools(h, sid, sbox, sessionLife);
                },
                getSystemInstruction() {
                    notFromHook("session.getSystemInstruction()"); // as in-thread (wrap.mjs)
                    const why = deadReason();
                    if (why) throw new Error(why);
                    return applyOverwrite(h, current(sid, s.info ? s.info.instruction : ""));
                },
                dispose() {
                    if (sessionDisposed || factory.disposed) return;
                    sessionDisposed = true;
                    cut();
                    stopRuns(owner, "Code Mode: the session was disposed while this run was in flight.");
                    endSession(h, sid);
                },
                execute: (name, which, args, options) => runLlmTool(h, sid, owner, deadReason, sessionLife, name, which, args, options),
            };
            return sessionLife.attach(sessionFace(sbox));
        },
        dispose() {
            life.disarm();
            if (factory.disposed) return;
            factory.disposed = true;
            // What the page kept of the factory and of its sessions answers
            // as disposed, holding nothing else (faces.mjs), nor their
            // keepers the worker's listeners (disarm).
            box.m = deadApi;
            forEachEntry(sessions, (s) => s.cut && s.cut());
            stopRuns(factoryOwner, "Code Mode: the instance was disposed while this run was in flight.");
            for (const p of h.pings.values()) p.reject(instanceDisposed());
            h.pings.clear();
            const w = h.worker;
            h.worker = null;
            if (w) {
                w.post({ t: "dispose" });
                w.terminate();
            }
        },
    };
    const api = life.attach(apiFace(box));
    if (rest) {
        // The factory is the caller's once the last slice is in; a tool
        // refused there fails it, as one of the first would.
        try {
            sliced(cfg.tools, h.regs, (part, at) => register(part, "config.tools", at), tools, taking, "config.tools");
            await h.regs.wait();
        } catch (err) {
            box.m.dispose();
            starting();
            throw err;
        }
    }
    starting();
    return api;
}
