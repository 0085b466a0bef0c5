// Worker mode: starting, replacing and terminating the engine's worker, and
// the backstop for a run that holds it. One worker at a time serves a
// factory; a replacement gets the state the page keeps (registrations,
// sessions, pings, runs not yet started) replayed, so the page sees one
// engine throughout. A worker that is no longer the current one is ignored
// (its late messages and failures too): only `host.worker` speaks for the
// factory.
//
// Cancel: with a SharedArrayBuffer (always in Node; in a cross-origin
// isolated page) the page writes the run's id where the worker's interrupt
// poll reads it, which stops that run only. Without one, a run that does
// not answer the abort within ABORT_GRACE_MS and that the worker's signs of
// life name as the one polling for HELD_MS and more (it holds the worker's
// thread), or a worker silent for SIGN_WAIT_MS after such a sign
// (FLAG_GRACE_MS after any other: a run that polled for less may be
// ending), is stopped by terminating the worker, which is
// replaced at once: other runs in flight on it reject with an error that
// says so, and the next run works. The flag is read by the interrupt poll,
// which QuickJS calls from its interpreter, and by the loop checks the
// package's asset has in its C code (scripts/loopcheck), which stop a
// built-in looping in C (a generic Array method over an array-like of
// length 1e15) 100 ms past the deadline or the abort. An asset without them (the QuickJS package's own) never
// reads the flag there, nor sees its deadline; so a worker that has not
// answered an abort within FLAG_GRACE_MS and polls no more (one that polls
// is computing another run), or a run past its timeout in a worker silent
// for OVERRUN_GRACE_MS, is replaced too, and that run ends with TIMEOUT.
//
// Silent: the worker's poll (which the interpreter and the loop checks
// call) counts itself in the abort flags' buffer (read by the page without
// waiting for its messages, which a page thread that was held would handle
// only after its overdue timers) or, without one, posts a sign of life now
// and then while a run is in flight; any message counts too. A worker that polls is checking the deadline and ends
// the run itself, with its own TIMEOUT and the run's logs; a fixed 2 s past
// the deadline was not always enough on a loaded machine (the worker's
// thread gets little CPU, so the ~100 ms of work to the loop check's trap
// took longer in wall time), and the backstop's answer, without the logs,
// replaced the engine's. Only a worker that stops showing life (held in C
// code without the loop checks, or in the Go core) is replaced.

import { accessDenied, bundlerHint, describeError, extensionFileHint, extensionURL, fileURLHint, hasNodeFs, inContentScript, noModuleURL, nodeModule, nodeProcess, otherOriginHint, report } from "./env.mjs";
import { KeptMap, all, clearTimeout, forEachEntry, isArray, keptSetOf, now, setTimeout, then, uncurry } from "./intrinsics.mjs";
import { rebuildError } from "./worker-wire.mjs";
import { compileCore } from "./core.mjs";
import { coreURL } from "./core-url.mjs";
import { loadQuickJS, refusalHint } from "./wasm-load.mjs";
import { refusedFetch } from "./csp-refusal.mjs";
import { weakListener } from "./lifetime.mjs";

const RING = 1024;
// The flags' last slot counts the worker's polls (worker.mjs pollNow).
const SIGNS = 1 + RING;
// How often the page reads that count while a run is past its deadline.
const LOOK_MS = 250;
const ABORT_GRACE_MS = 30;
// Without the flags: how long an abort waits for the worker's next sign of
// life (worker.mjs posts one every 200 ms while it polls) before it takes a
// silent worker for one held where nothing polls, when the last named the
// aborted run as holding the thread HELD_MS and more (it computed, then
// stopped polling: a built-in in C); after any other, FLAG_GRACE_MS.
const SIGN_WAIT_MS = 400;
// A run that has held the worker's thread this long when a sign names it
// is computing (its signs come every 200 ms while it polls).
const HELD_MS = 200;
const FLAG_GRACE_MS = 5000;
const OVERRUN_GRACE_MS = 2000;

/**
 * The names toolFilter shows, of the factory's tools and of each live
 * session's own (by session id): the worker's core calls no other.
 * @typedef {{ tools: string[], sessions: Record<number, string[]> }} Visible
 * @typedef {{ tools: Map<string, any>, descs: { name: string, record: string }[], held: Map<string, { name: string, record: string }> }} OwnTools
 *   a session's own tools, by the names checked at createSession, as checkTools gave them, and those toolFilter
 *   has hidden so far (not posted to the worker yet: worker-host.mjs visibleNames)
 * @typedef {{ own: { deref: () => OwnTools | undefined }, info: any, owner: any, cut?: () => void }} HostSession
 *   a session as the page keeps it: its own tools weakly (the session's keeper holds them, lifetime.mjs);
 *   cut makes what the page has of it answer as disposed (faces.mjs)
 */

/**
 * The state of one worker-mode factory: worker-host.mjs makes it, and the
 * worker-*.mjs modules share it. The fields that change (worker, ready,
 * busy, stoppedError) are read from here at each use, never kept.
 * @typedef {object} Host
 * @property {any} cfg the page's config, as given
 * @property {any} filter toolFilter, if a function
 * @property {any} onToolCall interceptors.onToolCall, if a function
 * @property {any} overwrite overwriteSystemInstruction, if a function
 * @property {any} factoryOnEvent config.onEvent
 * @property {any} sent the config for the worker's core, without the page's functions
 * @property {{ path: string[], kind: string }[]} standIns where those functions were
 * @property {any[]} initialTools config.tools, checked, for the first worker
 * @property {(quiet?: boolean) => Visible} visibleNames the names toolFilter shows (worker.mjs runs no other),
 *   posting the held tools among them unless quiet
 * @property {Map<string, any>} tools factory tools by name
 * @property {number} toolsChanged counts the changes of tools (registrations, and their ends): the definitions a
 *   list of the filter's was made of are the registered ones while it has not moved (worker-host.mjs current)
 * @property {Map<number, { defs: any[], descs: { name: string, record: string }[], fields: any[] }>} registrations registration id ->
 *   its definitions, what checkTools made of them (their names as registered: a definition renamed since keeps its name)
 *   and the fields it read
 * @property {Map<string, { id: number, desc: { name: string, record: string } }>} held factory tools
 *   toolFilter has hidden, not posted to the worker yet (worker-host.mjs visibleNames posts them when shown)
 * @property {Map<number, HostSession>} sessions
 * @property {Map<number, { run: any, resolve: (v: any) => void, reject: (e: any) => void, sid: number, started: boolean, startedAt?: number, message: any }>} pending
 * @property {Map<number, number>} stopping runs aborted on the page that the worker has not ended yet:
 *   when (now()) the page learned that the worker started each, 0 while it has not
 * @property {number} runTimeout the runs' timeout as the core has it (checked there before any run)
 * @property {Map<number, ReturnType<typeof setTimeout>>} overruns each started run's overrun timer
 * @property {number} lastSign when (now()) the current worker last showed life: a message, its poll's sign
 * @property {{ rid: number, n: number, held: number }} holder without the flags: the run the worker's last sign of life
 *   named as the one polling (0: none, the Go core's own clock), how many signs came, and for how long (ms) that run
 *   had held the worker's thread
 * @property {Map<number, { abort: (reason?: unknown) => void }>} pageCalls page calls the worker may cancel
 * @property {Map<number, (why: string) => void>} verdicts page calls whose result the worker's core is checking against the tool's outputSchema
 * @property {Map<number, { resolve: () => void, reject: (e: any) => void }>} pings ready() calls in flight
 * @property {number} staleAfter while the sessions' instructions may name a tool toolFilter hides now: the id of the
 *   first ping posted since, whose pong (or a later one's) ends it (worker-host.mjs current); 0 otherwise
 * @property {ReturnType<typeof import("./registering.mjs").inFlight>} regs registrations in flight (an adapter's source's slices)
 * @property {SharedArrayBuffer | null} flagsBuffer
 * @property {Int32Array | null} flags the abort flags the worker's interrupt poll reads
 * @property {any} worker the current worker, null once it stopped or was disposed
 * @property {Promise<void>} ready settles when the current worker has started
 * @property {number} busy runs and pings in flight (and the start)
 * @property {Error | null} stoppedError set when the worker stopped for good
 * @property {{ listeners: unknown[] }} self the current worker's listeners, which the worker holds weakly
 * @property {{ w: { terminate: () => void } | null }} engine what the safety net terminates
 * @property {import("./lifetime.mjs").Lifetime} life
 * @property {(m: any, ok: (v?: any) => void, fail: (e: any) => void) => void} onMessage worker-protocol.mjs
 */

/**
 * The abort flags the page shares with the worker, where it can.
 * @returns {SharedArrayBuffer | null}
 */
export function abortFlags() {
    return typeof SharedArrayBuffer === "function" && (hasNodeFs || /** @type {any} */ (globalThis).crossOriginIsolated === true)
        ? new SharedArrayBuffer(4 * (2 + RING))
        : null;
}

// The worker's file, beside this module, for Node's worker_threads (see
// spawn) and a browser's report of a worker that did not load. A let, so
// that no bundler reads it as a constant. Resolved against moduleURL, not
// import.meta.url written in place: webpack warns "Critical dependency: the
// request of a dependency is an expression" at every new URL(expression,
// import.meta.url), in every app that bundles the package.
let workerFile = "./code-mode.worker.mjs";
const moduleURL = import.meta.url;

/**
 * Starts a worker (browser: module Worker; Node: worker_threads).
 * @param {(m: any) => void} onMessage
 * @param {(err: Error) => void} onFailure
 */
async function spawn(onMessage, onFailure) {
    if (hasNodeFs && typeof Worker === "undefined") {
        const { Worker: NodeWorker, MessageChannel: NodeChannel } = await nodeModule("worker_threads");
        // The main thread's stack for JavaScript and WebAssembly (V8's default,
        // 984 KB), so that deep data and recursion overflow where they do
        // in-thread: QuickJS's own limit (a catchable error) is then reached
        // first in both modes. Node keeps 192 KB of a worker's stackSizeMb
        // for itself, so 1 MB gave the worker 832 KB, and a recursion that
        // QuickJS stopped in-thread overflowed the worker's stack first.
        // Of the process's own flags, only those of Node.js's permission
        // model: others (node --input-type=module -e ...) would stop the
        // worker's module from loading, but without these (execArgv: [])
        // the worker was free of the model, reading what the process may not.
        //
        // The file's name goes through a variable: Vite and webpack copy
        // every file named in new URL("literal", import.meta.url) into the
        // build, and this branch, which never runs in a browser, gave them a
        // second, unused copy of the worker (57 KB). The browser branch
        // below names it for them.
        //
        // Messages go through a channel of our own, not the worker's
        // parentPort: Node's Worker re-emits those from a listener of its
        // own that returns emit's boolean, and Node reads a then from a
        // listener's return value and calls it. A page that set
        // Object.prototype.then after the factory (a polluted prototype)
        // had that then called on every message, and its throw ended the
        // process. Our listener returns nothing.
        /** @type {URL} */
        let file;
        try {
            file = new URL(workerFile, moduleURL);
        } catch (cause) {
            throw noModuleURL("code-mode.worker.mjs", cause);
        }
        const { port1, port2 } = new NodeChannel();
        /** @type {any} */
        let w;
        try {
            w = new NodeWorker(file, {
                resourceLimits: { stackSizeMb: (984 + 192) / 1024 },
                execArgv: permissionFlags(nodeProcess.execArgv),
                workerData: { port: port2 },
                transferList: [port2],
            });
        } catch (err) {
            port1.close();
            throw accessDenied(err);
        }
        port1.on("message", (/** @type {any} */ m) => {
            onMessage(m);
        });
        // A server bundle without the copied worker: its file is not there.
        // (The worker is one file: the module it cannot find is its own; Node.js
        // 20 says MODULE_NOT_FOUND, later ones ERR_MODULE_NOT_FOUND.)
        w.on("error", (/** @type {Error} */ err) => {
            const missing = String(/** @type {any} */ (err)?.code || "").endsWith("MODULE_NOT_FOUND");
            onFailure(missing ? new Error(`${describeError(err)}${bundlerHint(file.href, true)}`, { cause: err }) : accessDenied(err));
        });
        w.on("exit", (/** @type {number} */ code) => {
            port1.close();
            onFailure(new Error(`the worker exited (code ${code})`));
        });
        // Null prototypes, here and below: an async function's object
        // result is adopted as a thenable when Object.prototype.then is set.
        return Object.assign(Object.create(null), {
            post: (/** @type {any} */ m) => port1.postMessage(m),
            terminate: () => w.terminate(),
            ref: () => (w.ref(), port1.ref()),
            unref: () => (w.unref(), port1.unref()),
        });
    }
    const other = otherOriginWorker();
    const w = other ? other.worker : ownOriginWorker();
    w.addEventListener("message", (e) => onMessage(e.data));
    w.addEventListener("error", (e) => {
        e.preventDefault();
        if (e.message) {
            // Deno ("Module not found \"file:///...\"") and Bun ("ModuleNotFound
            // resolving ...") report a worker file that is not there in the
            // event's message, where Node.js's worker_threads has a code.
            const missing = /module ?not ?found/i.test(e.message);
            onFailure(new Error(`Cannot start the Code Mode worker: ${missing ? e.message.replace(/\.$/, "") : e.message}${bundlerHint(import.meta.url, missing)}`));
            return;
        }
        // A script that did not load: the event says nothing more.
        const url = other ? other.url : workerURL().href;
        if (buildPath(url)) {
            onFailure(new Error(`Cannot start the Code Mode worker: ${BUNDLED_WORKER}`));
            return;
        }
        then(whyNotLoaded(url), (why) => onFailure(new Error(`Cannot start the Code Mode worker: it failed to load from ${url}${why}`)));
    });
    return { post: (/** @type {any} */ m) => w.postMessage(m), terminate: () => w.terminate(), ref: () => {}, unref: () => {} };
}

/**
 * Whether the worker's URL as this module reckons it is a file: URL that a
 * bundler wrote at build time (webpack writes import.meta.url as the
 * source's file: URL on the build machine, and rewrites the new Worker to a
 * chunk of its own) on a page that was not opened from a file: the
 * worker the page tried is that chunk, whose URL is not known here, and the
 * file: URL is neither what failed nor a reason (a webpack app's page whose
 * chunk was missing or refused by its Content-Security-Policy was told to
 * serve its folder over HTTP, with the build machine's path).
 * @param {string} url
 */
function buildPath(url) {
    const page = /** @type {any} */ (globalThis).location;
    return url.startsWith("file:") && typeof page?.protocol === "string" && page.protocol !== "file:";
}
const BUNDLED_WORKER = "its script, which your bundler (webpack) emitted as a file of its own, did not load: the server does not have that file (deploy every file of the build), or the page's Content-Security-Policy refused it (allow its URL in worker-src, or where that is not set, child-src, script-src or default-src); the browser's console names the URL and the cause (the package's README, \"Content-Security-Policy\")";

/**
 * The flags of Node.js's permission model among the process's (argv), with
 * the values given as the next entry ("--allow-fs-read /data"); none when
 * the model is off.
 * @param {unknown} argv
 * @returns {string[]}
 */
function permissionFlags(argv) {
    /** @type {string[]} */
    const out = [];
    if (!isArray(argv)) return out;
    // By index and the exec taken at load: the page's Array and RegExp
    // methods of the moment may be broken (intrinsics.mjs).
    let on = false;
    for (let i = 0; i < argv.length; i++) on = on || argv[i] === "--permission" || argv[i] === "--experimental-permission";
    for (let i = 0; on && i < argv.length; i++) {
        const m = execRegExp(PERMISSION_FLAG, String(argv[i]));
        if (!m) continue;
        out[out.length] = argv[i];
        if (m[2] && !m[3] && i + 1 < argv.length) out[out.length] = argv[++i];
    }
    return out;
}
// The model's flags; group 2 an fs flag, whose value may be the next entry.
const PERMISSION_FLAG = /^--(experimental-permission|permission|allow-(fs-read|fs-write)|allow-(?:child-process|worker|wasi|addons|net|inspector))(=.*)?$/;
const execRegExp = uncurry(RegExp.prototype.exec);

/**
 * The worker from the package's folder on the page's origin. Written as
 * bundlers expect it (Vite, webpack 5, Rollup): they emit the worker as a
 * chunk of its own and rewrite the URL. Its name (the browser's devtools
 * show it) is what webpack and Rspack name that chunk by: Rsbuild's dev
 * server named it after its HMR entry, a data: URL holding the build
 * machine's path, and its build by a number.
 * @returns {Worker}
 */
function ownOriginWorker() {
    try {
        return new Worker(new URL("./code-mode.worker.mjs", import.meta.url), { type: "module", name: "code-mode" });
    } catch (err) {
        // No URL of its own (an IIFE bundle): said as for the core, not
        // "Failed to construct 'URL': Invalid URL".
        try {
            new URL(workerFile, moduleURL);
        } catch (cause) {
            throw noModuleURL("code-mode.worker.mjs", cause);
        }
        // Refused before it loads, by the page's rules: said with what to do.
        throw new Error(`Cannot start the Code Mode worker: ${describeError(err).replace(/\.$/, "")}${workerRefusedHint(err)}`, { cause: err });
    }
}

/**
 * The package imported from another origin (a CDN): a page starts a Worker
 * only from its own origin, but a module worker of its own origin may
 * import one from another (CORS, which CDNs send). So the worker is a
 * same-origin blob: module that imports the package's code-mode.worker.mjs;
 * that module's import.meta.url is still the CDN's, where it finds
 * code-mode.wasm. Decided before new Worker is tried, not from its error:
 * Chromium's constructor throws a SecurityError, but Firefox's makes the
 * worker and only fails to load it later, an error event that says nothing.
 * Null for a package of the page's origin, or one whose import.meta.url is
 * no http(s) URL (webpack writes a file: URL of the source there and
 * rewrites the new Worker below), or where a blob: worker cannot be made;
 * else the worker and the URL it imports.
 * @returns {{ worker: Worker, url: string } | null}
 */
function otherOriginWorker() {
    // A sandboxed page's blob: worker cannot load the package either (an
    // opaque origin): the page's own new Worker says so (SANDBOXED).
    if (typeof Blob !== "function" || typeof location === "undefined" || opaqueOrigin()) return null;
    let url;
    try {
        url = workerURL();
    } catch {
        return null; // no URL of its own (bundled as CommonJS)
    }
    if (!/^https?:$/.test(url.protocol) || url.origin === location.origin) return null;
    const blobURL = URL.createObjectURL(new Blob([`import ${JSON.stringify(url.href)};`], { type: "text/javascript" }));
    try {
        const w = new Worker(blobURL, { type: "module" });
        // The worker has read it once it answers (or failed to).
        const revoke = () => URL.revokeObjectURL(blobURL);
        w.addEventListener("message", revoke, { once: true });
        w.addEventListener("error", revoke, { once: true });
        return { worker: w, url: url.href };
    } catch {
        URL.revokeObjectURL(blobURL);
        return null;
    }
}

/**
 * The URL of the package's worker: beside this module, but where Vite's dev
 * server pre-bundled it into node_modules/.vite/deps/: Vite 8 rewrites the
 * literal new URL(..., import.meta.url) of the core and the worker to the
 * package's own folder, but not this one (a 404 under .vite/deps/), so the
 * worker beside the core there. Throws where this copy has no URL of its
 * own (bundled as CommonJS).
 */
function workerURL() {
    const url = new URL(workerFile, moduleURL);
    if (url.pathname.includes("/.vite/deps/")) {
        try {
            return new URL(workerFile, coreURL());
        } catch {}
    }
    return url;
}

/**
 * What to do when the browser refused to construct the worker (a
 * synchronous throw of new Worker): a page that enforces Trusted Types
 * accepts no plain URL there, and a worker's script must be on the page's
 * origin (the package imported from a CDN is not). "" for anything else.
 * @param {unknown} err
 */
function workerRefusedHint(err) {
    if (inContentScript()) return ""; // the factory says what to do (index.mjs)
    const message = describeError(err);
    // Chromium: "... requires 'TrustedScriptURL' assignment"; Firefox: "Sink type mismatch violation blocked by CSP".
    if (/TrustedScriptURL|Sink type mismatch/.test(message)) {
        return "; the page enforces Trusted Types (Content-Security-Policy: require-trusted-types-for 'script'), which refuse a plain URL here: a default policy that lets the package's code-mode.worker.mjs through (trustedTypes.createPolicy(\"default\", { createScriptURL })) or worker: false starts the engine (the package's README, \"Content-Security-Policy\")";
    }
    if (/** @type {any} */ (err)?.name === "SecurityError" || /cannot be accessed from origin/.test(message)) {
        if (opaqueOrigin()) return fileURLHint(String(globalThis.location?.href)) || SANDBOXED;
        return "; a page starts a Worker only from its own origin: serve the package (its code-mode.worker.mjs and code-mode.wasm) from the page's origin, or use worker: false (the package's README, \"Content-Security-Policy\")";
    }
    return "";
}

// A sandboxed page or iframe: no Worker's script is of its origin
// (Chromium's constructor throws; Firefox's worker fails to load).
const SANDBOXED = "; a sandboxed page or iframe (its origin is opaque, \"null\") starts no Worker of the package's: use worker: false (the package's README, \"Content-Security-Policy\")";
const opaqueOrigin = () => /** @type {any} */ (globalThis).origin === "null";

/**
 * Why the worker's script did not load, as far as the page can tell (a
 * browser's error event for it has no message): the HTTP status of the
 * same URL, or the MIME type of what came instead (a server's fallback
 * page for a file it does not have, which a module worker refuses), and
 * the bundler hint. A string: an object would be adopted as a thenable on
 * a page whose Object.prototype.then is set.
 * @param {string} url
 * @returns {Promise<string>}
 */
async function whyNotLoaded(url) {
    let why = "";
    let missing = false;
    let refused = "";
    try {
        const signal = typeof AbortSignal.timeout === "function" ? AbortSignal.timeout(5000) : undefined;
        const res = await fetch(url, { cache: "no-store", signal });
        let lost = "";
        if (extensionURL(url)) {
            // Firefox answers a file its extension lacks with 200 and a
            // body whose read aborts.
            try {
                await res.arrayBuffer();
            } catch {
                lost = extensionFileHint(url);
            }
        } else if (res.status !== 403) {
            // (A 403's page is read for what it says: refusalHint.)
            const cancelled = res.body?.cancel();
            if (cancelled) then(cancelled, undefined, () => {});
        }
        const type = (res.headers.get("content-type") || "").split(";")[0].trim().toLowerCase();
        if (lost) {
            why = lost;
            missing = true;
        } else if (!res.ok) {
            refused = await refusalHint(res);
            why = ` (HTTP ${res.status}${res.statusText ? " " + res.statusText : ""})${refused}`;
            missing = res.status === 404;
        } else if (!/javascript|ecmascript/.test(type)) {
            why = ` (the server sent ${type || "no MIME type"}, not JavaScript)`;
            missing = type === "text/html";
        } else if (opaqueOrigin()) {
            // Firefox makes the worker, which then fails to load.
            why = SANDBOXED;
        } else {
            // There, and JavaScript: the page itself refused to run it.
            why = " (the server sends it as JavaScript, so the page most likely refused it: its Content-Security-Policy must allow that URL in worker-src (or where that is not set, child-src, script-src or default-src); the browser's console names the directive; the package's README, \"Content-Security-Policy\")";
        }
    } catch {
        // Nothing more to say than that it failed to load, unless no
        // fetch of that URL can work (Firefox makes a file: page's worker),
        // or it is on another origin (a server without CORS headers).
        const none = extensionFileHint(url);
        why = fileURLHint(url) || otherOriginHint(url) || none;
        missing = none !== "";
    }
    // Vite's refusal names its own fix, not the pre-bundling's.
    return why + (refused ? "" : bundlerHint(import.meta.url, missing));
}

/** @type {OwnTools} */
const noOwnTools = { tools: new KeptMap(), descs: [], held: new KeptMap() };

/** The core's URL (core-url.mjs), or undefined where this copy has none: the worker then says so. */
function coreHref() {
    try {
        return coreURL().href;
    } catch {
        return undefined;
    }
}

/**
 * A session's own tools; none once the page dropped the session (the
 * safety net is about to end it, and nothing of the page can use it).
 * @param {HostSession} s
 */
export function ownTools(s) {
    return s.own.deref() || noOwnTools;
}

/**
 * Holds the worker's ref (Node: the process waits for it) until the
 * returned function is called.
 * @param {Host} h
 */
export function hold(h) {
    if (++h.busy === 1 && h.worker) h.worker.ref();
    let done = false;
    return () => {
        if (done) return;
        done = true;
        if (--h.busy === 0 && h.worker) h.worker.unref();
    };
}

/**
 * A run or a ping in flight holds the worker's ref (Node: the process
 * waits for its answer) and the factory (a run: its session, whose keeper
 * keeps the factory's), even when the page keeps nothing of it; the
 * function returned lets both go.
 * @param {Host} h
 * @param {import("./lifetime.mjs").Lifetime} [life] the session's, for a run
 */
export function holdInFlight(h, life = h.life) {
    const workerHold = hold(h);
    const keep = life.hold();
    return () => {
        workerHold();
        keep();
    };
}

/**
 * Starts (or restarts) the worker and replays the state the page keeps.
 * @param {Host} h
 * @param {boolean} first
 * @param {boolean} [again] this start replaces one that went silent (stalled)
 */
export function start(h, first, again) {
    /** @type {(v?: any) => void} */
    let ok = () => {};
    /** @type {(e: any) => void} */
    let fail = () => {};
    h.ready = new Promise((res, rej) => ((ok = res), (fail = rej)));
    const me = {};
    const current = () => h.worker && h.worker.me === me;
    // stopped: the error every call in flight and later gets (the
    // worker's own words when its Go core stopped).
    const onFailure = (/** @type {Error} */ err, stopped = new Error(`Code Mode: the engine's worker stopped: ${describeError(err)}`)) => {
        if (!current()) return;
        expect(null);
        fail(stopped);
        failAll(h, stopped);
        for (const p of h.pings.values()) p.reject(stopped);
        h.pings.clear();
        h.worker = null;
        // Later calls get the same error (ready may have resolved long ago).
        h.stoppedError = stopped;
        h.ready = Promise.reject(stopped);
        then(h.ready, undefined, () => {});
    };
    // The page's fetch of a file that its Content-Security-Policy refused
    // (compiled, below). WebKit (Safari) fires no violation event in a
    // worker, so the worker's own attempt failed with "Load failed" and no
    // more: the page's error says which directive refused the file.
    /** @type {Error | null} */
    let refused = null;
    const failStart = (/** @type {Error} */ err) => fail(refused && /^Cannot load the /.test(err.message) && !/Content-Security-Policy/.test(err.message) ? refused : err);
    // The start's watch: a worker that does not run its script, or does not
    // take init once the page sent it, within 60 s is taken for lost (the
    // browser's part, which takes well under a second: the page's fetches
    // and compiles, and the worker's own work, the app's tools among it, are
    // not timed). One new worker is tried. (Firefox's CI hang this was
    // written for, "no answer within 150 s; steps begun: factory at 20", was
    // most likely no such worker: the app's worker never came back from the
    // new Worker below, made before this watch is set, and ran no timer
    // again: browser-test/host-worker-files.mjs, BLOCKED_IN_NEW_WORKER.)
    /** @type {any} */
    let watch;
    // 2 once the worker's script ran ("loaded") and init was sent.
    let both = 0;
    // The number of the last call this worker asked (onWorkerMessage).
    let lastCid = 0;
    const expect = (/** @type {string | null} */ what) => {
        clearTimeout(watch);
        watch = what && setTimeout(() => stalled(what), 60000);
        unref(watch);
    };
    const stalled = (/** @type {string} */ what) => {
        if (!current()) return;
        then(w, (x) => x.terminate());
        const why = `did not ${what} within 60 s`;
        if (again) return onFailure(new Error(`Cannot start the Code Mode worker: it ${why}, twice`));
        // Once more, with a new worker: the page's state is replayed to it
        // as to any replacement, and this start settles with its start.
        h.worker = null;
        report(`Code Mode: the engine's worker ${why}: a new one is started`);
        start(h, first, true);
        then(h.ready, ok, fail);
        for (const p of h.pending.values()) if (p.message) h.worker.post(p.message);
    };
    const onWorkerMessage = (/** @type {any} */ m) => {
        if (!current()) return;
        // The worker numbers its calls 1, 2, ...: one seen before (or out
        // of order) is no call of the worker's, and is not answered.
        if (m.t === "call") {
            if (!(m.cid > lastCid)) return;
            if (typeof m.name === "string" || m.kind === "embed") lastCid = m.cid;
        }
        // "loaded": its script ran; "took": it has init (worker.mjs).
        // Not timed while the page still compiles (init not sent).
        if (m.t === "loaded") expect(++both > 1 ? "take init" : null);
        if (m.t === "took") expect(null);
        if (m.t !== "stopped") return h.onMessage(m, ok, failStart);
        // The Go core in the worker died: this factory ends, as it does
        // in-thread, with the core's own error; the page lives on.
        const err = rebuildError(m.error);
        onFailure(err, err);
        then(w, (x) => x.terminate());
    };
    // The worker, a root while it runs, reaches this factory only
    // through a WeakRef (lifetime.mjs): the factory's scope keeps the
    // listeners, and a page that drops the factory drops them.
    h.self.listeners = [onWorkerMessage, onFailure];
    const w = spawn(weakListener(onWorkerMessage), weakListener(onFailure));
    expect("run its script");
    // The Go core and the QuickJS asset are compiled here while the
    // worker starts, and handed to it with init (a compiled module
    // crosses postMessage without compiling again): the worker would
    // otherwise begin only once it runs. What fails here the worker loads
    // itself, and reports in its own words; the other is sent (the core
    // was fetched again, 8 MB, when only the QuickJS asset failed here).
    // all() and then() of intrinsics.mjs, and no destructuring: the page's
    // Promise.all and Array iterator of the moment may be broken.
    const orNone = (/** @type {Promise<any>} */ p) =>
        then(p, undefined, (err) => {
            if (refusedFetch(err) && !refused) refused = err;
        });
    const compiled = then(all([orNone(compileCore(h.cfg.coreModule, coreURL)), orNone(loadQuickJS(h.cfg.wasmLocation, undefined, h.cfg.wasmModule))]), (pair) => ({
        core: pair[0],
        quickjs: pair[1],
    }));
    /** @type {Record<string, any>} */
    const init = {};
    const p = then(all([w, compiled]), (pair) => {
        const w = pair[0];
        const modules = pair[1];
        Object.assign(init, modules);
        h.worker = Object.assign(w, { me });
        h.engine.w = w;
        if (h.busy === 0) h.worker.unref();
        if (++both > 1) expect("take init");
    });
    // A worker that never started leaves these undone; onFailure (below)
    // reports it, once, so their own promises end quietly (a rejection of
    // theirs was unhandled: in Node.js the end of the process).
    const quiet = () => {};
    h.worker = { me, post: (/** @type {any} */ m) => then(p, () => h.worker && h.worker.me === me && h.worker.post(m), quiet), terminate: () => then(p, () => then(w, (x) => x.terminate()), quiet), ref() {}, unref() {} };
    const visible = h.filter && h.visibleNames(true);
    /** @type {any[]} */
    const initial = [];
    if (first) {
        // config.tools that the filter hides wait, as a registration's (id 0).
        const yes = visible && keptSetOf(visible.tools);
        for (let i = 0; i < h.initialTools.length; i++) {
            const d = h.initialTools[i];
            if (!yes || yes.has(d.name)) initial[initial.length] = d;
            else h.held.set(d.name, { id: 0, desc: d });
        }
    }
    h.worker.post(Object.assign(init, {
        t: "init",
        config: h.sent,
        // Where the worker loads the core from when this message has it
        // not compiled: the worker's module names no file of its own.
        coreURL: coreHref(),
        standIns: h.standIns,
        baseURL: typeof document !== "undefined" ? document.baseURI : undefined,
        tools: initial,
        visible,
        hasFilter: !!h.filter,
        hasInterceptor: !!h.onToolCall,
        hasEmbed: !!(h.cfg.search && typeof h.cfg.search === "object" && typeof h.cfg.search.embed === "function"),
        flags: h.flagsBuffer,
    }));
    if (!first) {
        // init's list names what the filter shows of all of them: a list
        // per message asked it about every tool once per registration.
        // Less the tools still held (hidden at every ask so far).
        // As checked at registration: a definition the page renamed since
        // is replayed under the name it has for the page and the model.
        forEachEntry(h.registrations, ({ descs }, id) => {
            /** @type {any[]} */
            const post = [];
            for (let i = 0; i < descs.length; i++) {
                const e = h.held.get(descs[i].name);
                if (!e || e.id !== id) post[post.length] = descs[i];
            }
            h.worker.post({ t: "register", id, tools: post });
        });
        forEachEntry(h.sessions, (s, sid) => {
            // A session whose own tools are gone is one the page dropped,
            // which the safety net is about to end.
            const own = s.own.deref();
            if (sid === 0 || !own) return;
            /** @type {any[]} */
            const post = [];
            for (let i = 0; i < own.descs.length; i++) if (!own.held.has(own.descs[i].name)) post[post.length] = own.descs[i];
            h.worker.post({ t: "session", sid, tools: post });
        });
        for (const id of h.pings.keys()) h.worker.post({ t: "ping", id });
    }
    // By the then taken at load, as every promise here: the page's of the
    // moment may do nothing (a worker that failed to start was then never
    // reported, and its factory stayed pending).
    then(w, undefined, (err) => onFailure(err));
}

/**
 * Forgets a registration's tools by the names checked at registration (a
 * definition the page renamed since kept its old name taken), unless
 * another registration has a name since.
 * @param {Host} h
 * @param {{ defs: any[], descs: { name: string }[] }} reg
 */
export function forget(h, { defs, descs }) {
    h.toolsChanged++;
    for (let i = 0; i < defs.length; i++) if (h.tools.get(descs[i].name) === defs[i]) h.tools.delete(descs[i].name);
}

/**
 * Forgets the held tools of a registration (unregistered, or refused by the worker).
 * @param {Host} h
 * @param {number} id
 */
export function dropHeld(h, id) {
    forEachEntry(h.held, (e, name) => {
        if (e.id === id) h.held.delete(name);
    });
}

/**
 * @param {Host} h
 * @param {Error} err
 * @param {boolean} [startedOnly] keep the runs the worker had not
 *   started (they are sent to its replacement)
 */
export function failAll(h, err, startedOnly) {
    forEachEntry(h.pending, (p, rid) => {
        if (startedOnly && !p.started) return;
        h.pending.delete(rid);
        // The run's events and its end come from its own settle (finishRun),
        // as for every other way a run ends.
        p.reject(err);
    });
}

/**
 * Stops a run on the worker: the abort flag (SharedArrayBuffer) and the
 * message; a worker that does not answer within grace (the flag is read
 * sooner than the message) is replaced.
 * @param {Host} h
 * @param {number} rid
 * @param {number} [grace] how long the worker has to answer before it is replaced
 */
export function cancelOnWorker(h, rid, grace = h.flags ? FLAG_GRACE_MS : ABORT_GRACE_MS) {
    const entry = h.pending.get(rid);
    // Not sent yet (the worker was starting): it never will be, and the
    // worker would never answer for it.
    if (!h.worker || (entry && !entry.message)) return;
    const flags = h.flags;
    if (flags) {
        const n = Atomics.load(flags, 0);
        flags[1 + (n % RING)] = rid;
        Atomics.store(flags, 0, n + 1);
    }
    h.worker.post({ t: "abort", rid });
    const w = h.worker;
    h.stopping.set(rid, entry && entry.started ? entry.startedAt || now() : 0);
    // A worker that polls on has read the flag: its thread is another
    // run's (a program computing within its timeout, which it ends itself
    // if need be), and the aborted run answers once it is free. Replacing
    // it failed that other run. One that stopped polling is held in C.
    // Without the flags the worker reads the abort only once its thread is
    // free, so its signs of life name the run that polls: one that names
    // this run replaces it, others are waited for as the flags' polls are.
    let polls = flags ? Atomics.load(flags, SIGNS) : h.holder.n;
    const t0 = now();
    // When the page last saw a sign come (without the flags).
    let heard = 0;
    // Until a sign names it, a started run is still in its start (a new
    // sandbox instance made, the sandbox's sources compiled into it, its
    // setup: the core's work, whose polls name no run), which ends by
    // itself: its silence is waited for as another run's work is. Taken for
    // a run held in C after SIGN_WAIT_MS, it replaced the worker and failed
    // the worker's other runs (a run aborted as it started, on a loaded
    // machine). A sign naming it is no more, unless it has held the thread
    // HELD_MS: a run's end polls too (a large program's, twice, at its
    // body's first line after its compile, and a run resumed by a tool's
    // result), and a worker slow to post its end (a loaded machine) was
    // replaced at that sign, failing its other runs. The cost: a program
    // held in C within HELD_MS of its first poll, or before it ever polls
    // (the upstream asset's built-ins, without the loop checks), is stopped
    // after FLAG_GRACE_MS instead.
    const look = () => {
        if (h.worker !== w || !w || !h.stopping.has(rid)) return;
        // A run the worker has not started holds nothing: it reads its abort
        // as it starts. The thread is another run's, and a silence there (a
        // built-in in C, or a run's own start on a loaded machine) is that
        // run's deadline's business (watchOverrun); taking it for this run's
        // replaced the worker and failed a run computing within its timeout.
        const started = h.stopping.get(rid) || 0;
        if (grace && !started) return unref(setTimeout(look, LOOK_MS));
        if (flags) {
            const n = Atomics.load(flags, SIGNS);
            if (grace && n !== polls) {
                polls = n;
                return unref(setTimeout(look, grace));
            }
        } else if (grace) {
            const fresh = h.holder.n !== polls;
            polls = h.holder.n;
            if (fresh) heard = now();
            const holds = h.holder.rid === rid && h.holder.held >= HELD_MS;
            if (!(fresh && holds) && now() - Math.max(heard, t0, started) < (holds ? SIGN_WAIT_MS : FLAG_GRACE_MS)) return unref(setTimeout(look, LOOK_MS));
        }
        // The run holds the worker's thread: replace the worker.
        h.stopping.clear();
        h.worker = null;
        w.terminate();
        const why = flags ? "in a built-in that does not check for it" : "(no SharedArrayBuffer on this page)";
        failAll(h, new Error(`Code Mode: the engine's worker was restarted to cancel a run that held it ${why}; run this again`), true);
        start(h, false);
        for (const p of h.pending.values()) if (p.message) h.worker.post(p.message);
    };
    unref(setTimeout(look, grace));
}

/**
 * Node.js: the wait alone keeps no process alive. After an abort (and a
 * dispose) a program that was done waited out the 5 s grace to exit; a
 * run in flight holds the worker, and so the process, itself. (A
 * browser's timer is a number: nothing to read on it, not even a page's
 * Object.prototype.unref.)
 * @param {any} t a timer
 */
function unref(t) {
    if (t !== null && typeof t === "object" && typeof t.unref === "function") t.unref();
}

/**
 * How long the page still waits before it replaces the worker for a run
 * past its deadline: until the worker has been silent for grace, counted
 * from the deadline or from its last sign of life, whichever is later.
 * 0: replace it now.
 * @param {number} t now()
 * @param {number} deadline when the run's timeout passed (now() clock)
 * @param {number} lastSign when the worker last showed life
 * @param {number} [grace]
 */
export function overrunWait(t, deadline, lastSign, grace = OVERRUN_GRACE_MS) {
    return Math.max(0, Math.max(deadline, lastSign) + grace - t);
}

/**
 * The worker has started a run: from now on its deadline is watched from
 * the page too (overran).
 * @param {Host} h
 * @param {number} rid
 */
export function watchOverrun(h, rid) {
    const deadline = now() + h.runTimeout;
    // The worker's poll count at the last look (the first at the deadline,
    // or as soon after as the page's thread gets to it).
    let polls = h.flags ? Atomics.load(h.flags, SIGNS) : 0;
    const check = () => {
        if (h.flags) {
            const n = Atomics.load(h.flags, SIGNS);
            if (n !== polls) h.lastSign = Math.max(h.lastSign, now());
            polls = n;
        }
        const wait = overrunWait(now(), deadline, h.lastSign);
        if (wait === 0) overran(h, rid);
        else h.overruns.set(rid, setTimeout(check, h.flags ? Math.min(wait, LOOK_MS) : wait));
    };
    h.overruns.set(rid, setTimeout(check, h.runTimeout));
}

/**
 * @param {Host} h
 * @param {number} rid
 */
export function clearOverrun(h, rid) {
    clearTimeout(h.overruns.get(rid));
    h.overruns.delete(rid);
}

/**
 * A run still in flight past its timeout, in a worker silent for
 * OVERRUN_GRACE_MS: the core's interrupt poll would have ended it at the
 * deadline, so the worker's thread is held where nothing polls. The run
 * ends with TIMEOUT and the worker is replaced at once.
 * @param {Host} h
 * @param {number} rid
 */
function overran(h, rid) {
    h.overruns.delete(rid);
    const p = h.pending.get(rid);
    if (!p) return;
    cancelOnWorker(h, rid, 0);
    const message = `the program did not finish within ${h.runTimeout / 1000}s and held the engine past it in work that does not check the time (a built-in's loop over a huge array-like, such as Array.prototype.indexOf.call({ length: 1e15 }), or the parse of a huge text given to eval); the engine's worker was restarted`;
    p.resolve({ ok: false, error: { name: "TimeoutError", message, code: "TIMEOUT" }, logs: [], toolCalls: [], durationMs: Math.round(now() - (p.startedAt || 0)) });
}

/**
 * The safety net's release (lifetime.mjs): terminates the worker of a
 * factory the page dropped, and reaches nothing else of it.
 * @param {{ w: { terminate: () => void } | null }} engine
 */
export function terminateDropped(engine) {
    if (engine.w) engine.w.terminate();
}
