// Code Mode for the browser: the package's entry point (dist/index.mjs, and
// as a classic script dist/code-mode.global.js). scripts/build-dist.mjs
// bundles it with esbuild (the entries are listed in web/entries.mjs).
//
// What it does: for each IoCodeModeFactory call, starts a Go core of its
// own (code-mode.wasm, next to the built file, compiled once per JavaScript
// module: core.mjs), fetches and compiles the QuickJS asset (wasm-load.mjs)
// and asks the core for a new API object, which it wraps (wrap.mjs) so that
// the LLM tools work with the common LLM SDKs as they are (factory.mjs).

import { describe, extensionURL, hasNodeFs, inContentScript, runtimeRefusedWasm } from "./env.mjs";
import { threadFactory } from "./factory.mjs";
import { refuseToolObject } from "./faces.mjs";
import { prototypeHazard, snapshot } from "./fields.mjs";
import { replacedBuiltins } from "./intrinsics.mjs";
import { CONFIG_KEYS, INTERCEPTOR_KEYS, nearest, quoteCut } from "./keys.mjs";
import { coreBuild, isGoModule, isWasmModule } from "./wasm-load.mjs";
import { workerFactory } from "./worker-host.mjs";

const onPage = !hasNodeFs && typeof document !== "undefined" && typeof Worker === "function";

/**
 * Creates a Code Mode instance.
 * @param {import("../index.d.ts").IoCodeMode.Config} config
 * @returns {Promise<import("../index.d.ts").IoCodeMode.API>}
 */
export async function IoCodeModeFactory(config) {
    try {
        return await makeFactory(config);
    } catch (err) {
        // A config's TypeError is the config's, wherever it runs.
        if (err instanceof TypeError) throw namingReplaced(err);
        if (inContentScript()) throw noted(namingReplaced(err), CONTENT_SCRIPT);
        throw inEdgeRuntime(err) ? noted(namingReplaced(err), EDGE_RUNTIME) : namingReplaced(err);
    }
}

// Vercel's Edge runtime, and Next.js's for a route or middleware with
// runtime = "edge" (next start: its bundle's "blob:server/edge/assets/"
// URL of code-mode.wasm failed "fetch failed (invalid method)"), mark
// their global with EdgeRuntime; where the runtime itself refused the
// compile, wasm-load.mjs has said so already. Given the two modules
// (Next.js 16.5's Turbopack imports "<path>.wasm?module" as one), a route
// runs there.
const EDGE_RUNTIME = `; in an edge runtime (globalThis.EdgeRuntime: Vercel's Edge Functions, Next.js routes and middleware with runtime = "edge"), which allows no WebAssembly compiled from bytes, give Code Mode its two modules compiled, imported with ?module, as config.coreModule and config.wasmModule (the package's README, "Cloudflare Workers"), or use the Node.js runtime (in Next.js, leave out export const runtime = "edge")`;

/** @param {unknown} err */
function inEdgeRuntime(err) {
    return typeof (/** @type {any} */ (globalThis).EdgeRuntime) === "string" && !runtimeRefusedWasm(err);
}

const CONTENT_SCRIPT = "; this is a browser extension's content script, which runs with the web page's origin and Content-Security-Policy: create the factory in an extension page (a side panel, popup or offscreen document) and give it the content script's actions as tools through messaging (the package's README, \"Browser extensions\")";

/**
 * err, its message naming the builtins the page replaced since the package
 * loaded, if any: what reads the config (here, in the worker's host, and
 * the in-thread Go core, which takes the page's globals as each factory
 * starts) uses them, and a replaced one made a well-formed config fail
 * with a made-up problem ("config.tools: expected an array of tool
 * definitions, got an object" under an Array.isArray that answers false).
 * @param {unknown} err
 */
function namingReplaced(err) {
    const replaced = err instanceof Error ? replacedBuiltins() : [];
    if (replaced.length === 0) return err;
    const names = replaced.length > 5 ? `${replaced.slice(0, 5).join(", ")}, ...` : replaced.join(", ");
    return noted(err, ` (the page replaced ${names} after the package loaded, which may cause this error: create the factory before replacing ${replaced.length > 1 ? "them" : "it"}, or restore ${replaced.length > 1 ? "them" : "it"})`);
}

/**
 * err, with note added to its message (and to its stack's first line).
 * @param {unknown} err
 * @param {string} note
 */
function noted(err, note) {
    if (!(err instanceof Error)) return err;
    const e = err;
    try {
        const head = `${e.name}: ${e.message}`;
        e.message += note;
        if (typeof e.stack === "string" && e.stack.startsWith(head)) e.stack = head + note + e.stack.slice(head.length);
    } catch {
        // a frozen error: as it is
    }
    return e;
}

/** @param {unknown} v */
const isBytes = (v) => {
    // instanceof throws on a revoked Proxy, whose error then replaced the
    // message naming the field (hostile35).
    try {
        return v instanceof ArrayBuffer || ArrayBuffer.isView(v);
    } catch {
        return false;
    }
};

// A file read by the app (readFileSync, a bundler's ?arraybuffer import)
// given where its compiled module goes: "got an object" said nothing of it.
// WebAssembly.compile, not new WebAssembly.Module: Chromium refuses the
// synchronous compile of more than 8 MB (the core) on a page's thread.
/** @param {string} field */
const bytesGiven = (field) => `the file's bytes (compile them: ${field}: await WebAssembly.compile(bytes); or leave ${field} out, and the package fetches and compiles the file itself)`;

/**
 * @param {import("../index.d.ts").IoCodeMode.Config} config
 * @returns {Promise<import("../index.d.ts").IoCodeMode.API>}
 */
async function makeFactory(config) {
    const hazard = prototypeHazard();
    if (hazard) throw hazard;
    if (config === null || typeof config !== "object") {
        throw new TypeError(`config: expected an object, got ${config === null ? "null" : typeof config}`);
    }
    // Read once, each field, and never from Object.prototype (fields.mjs).
    config = /** @type {any} */ (snapshot(config, "config", CONFIG_KEYS));
    const ic = config.interceptors;
    // A guard given as interceptors itself, not as its onToolCall.
    if (typeof ic === "function") throw new TypeError("config.interceptors: expected an object { onToolCall }, got a function: write interceptors: { onToolCall: yourFunction }");
    refuseToolObject(config.tools, "config.tools");
    if (ic !== null && typeof ic === "object") {
        config.interceptors = snapshot(ic, "config.interceptors", INTERCEPTOR_KEYS);
        if (config.interceptors.onToolCall === undefined) refuseHolder(ic);
    }
    // Without WebAssembly (V8 without its JIT: node --jitless, Chromium's
    // --js-flags=--jitless; Apple's Lockdown Mode) the factory said only
    // "WebAssembly is not defined", in worker mode after "the engine's
    // worker stopped: Cannot start the Code Mode worker: Uncaught ...".
    if (typeof WebAssembly !== "object" || WebAssembly === null) {
        throw new Error(`Code Mode needs WebAssembly, which this JavaScript engine does not have (WebAssembly is not defined): settings that turn off its JIT turn it off too (node or Chromium with --jitless; Apple's Lockdown Mode); allow WebAssembly here, or run Code Mode where it is on`);
    }
    const location = config.wasmLocation;
    if (typeof location !== "string" || location === "") {
        // A URL object is what new URL("...", import.meta.url) and Node's
        // pathToFileURL give: the field is a string, its href.
        // Bytes (a bundler's ?arraybuffer import): the package fetches and
        // compiles the asset itself, in each worker too. A compiled module
        // (Cloudflare Workers' import of the file) has a field of its own.
        const got = location === undefined ? `undefined${unknownKeyNamed(config)}` : location === "" ? "an empty string" : typeof URL === "function" && /** @type {any} */ (location) instanceof URL ? "a URL object (pass its href: wasmLocation: url.href)" : isBytes(location) ? "the file's bytes (give where to fetch them: its URL or path)" : isWasmModule(location) ? "a WebAssembly.Module (give it as config.wasmModule, and name the file in wasmLocation)" : describe(location);
        throw new TypeError(`config.wasmLocation: expected a non-empty string (the URL, or in Node.js the file path, of emscripten-module.wasm), got ${got}`);
    }
    // The files compiled by the app, where the runtime compiles no bytes:
    // each checked to be the one its field takes (swapped, instantiating
    // said only a LinkError's words).
    const quickjs = /** @type {unknown} */ (config.wasmModule);
    if (quickjs !== undefined && !(isWasmModule(quickjs) && !isGoModule(quickjs))) {
        const got = isWasmModule(quickjs) ? "the Code Mode core (code-mode.wasm), which goes in config.coreModule" : isBytes(quickjs) ? bytesGiven("wasmModule") : describe(quickjs);
        throw new TypeError(`config.wasmModule: expected the QuickJS asset (emscripten-module.wasm) compiled, a WebAssembly.Module, got ${got}`);
    }
    const core = /** @type {unknown} */ (config.coreModule);
    if (core !== undefined && !(isWasmModule(core) && isGoModule(core))) {
        const got = isWasmModule(core) ? "another WebAssembly.Module (it imports none of Go's functions: the QuickJS asset goes in config.wasmModule)" : isBytes(core) ? bytesGiven("coreModule") : describe(core);
        throw new TypeError(`config.coreModule: expected the package's code-mode.wasm compiled, a WebAssembly.Module, got ${got}`);
    }
    // A core of another build than this loader's (an older package's file):
    // the two speak one build's protocol, and the mix failed inside the core
    // ("config: unknown key coreModule", "op is not a function"). The id is
    // the build's (scripts/build-dist.mjs); web/src run unbundled has none.
    const build = /** @type {any} */ (globalThis).__CODE_MODE_BUILD__;
    if (core !== undefined && build && coreBuild(core) !== build) {
        const of = coreBuild(core) ? `one of build ${coreBuild(core)}` : "one that names no build (an older package's)";
        throw new TypeError(`config.coreModule: expected the code-mode.wasm of this package's build (${build}), got ${of}: give the code-mode.wasm that came with this copy of the package`);
    }
    const mode = /** @type {any} */ (config).worker;
    if (mode !== undefined && typeof mode !== "boolean") {
        throw new TypeError(`config.worker: expected a boolean, got ${describe(mode)}`);
    }
    // On a web page the engine runs in a Worker unless told otherwise
    // (worker: false), so that a busy program never freezes the page; in
    // Node.js and runtimes without a page, on this thread.
    // Awaited, not returned: see loadCore (core.mjs).
    if (mode === true && !hasNodeFs && typeof Worker !== "function") throw new Error(noWorkerHere());
    if (mode === undefined ? onPage : mode) return await workerFactory(config);
    return await threadFactory(config);
}

/**
 * Where config has no wasmLocation: its first unknown key, which may be it
 * misspelt ("wasmLocaton", "wasmURL"), as "; unknown key ..." (what the
 * core says of an unknown key once it starts); "" where every key is known.
 * @param {object} config
 */
function unknownKeyNamed(config) {
    const keys = Object.keys(config);
    for (let i = 0; i < keys.length; i++) {
        if (CONFIG_KEYS.includes(keys[i])) continue;
        const n = nearest(keys[i], CONFIG_KEYS);
        return `; unknown key ${quoteCut(keys[i], JSON.stringify)}${n ? ` (did you mean ${JSON.stringify(n)}?)` : ""}`;
    }
    return "";
}

/**
 * worker: true where no Worker can be made: an extension's background
 * service worker (no nested Worker there) said only "Worker is not
 * defined", after "the engine's worker stopped". A SharedWorker has none
 * in Chromium (Firefox's has): its own thread is already off every page's,
 * so the extension's way out would mislead there.
 */
function noWorkerHere() {
    const g = /** @type {any} */ (globalThis);
    const within = (/** @type {string} */ name) => typeof g[name] === "function" && globalThis instanceof g[name];
    const thisThread = "leave worker out or set it to false to run the engine on this thread";
    if (within("SharedWorkerGlobalScope")) return `config.worker: true, but this browser's SharedWorker cannot start a Worker: ${thisThread} (the SharedWorker's own, already off the pages' threads)`;
    const sw = within("ServiceWorkerGlobalScope");
    // A web site's service worker: the extension's way out would mislead.
    if (sw && !extensionURL(String(g.location && g.location.protocol))) return `config.worker: true, but a service worker cannot start a Worker: ${thisThread} (the service worker's own, already off the pages' threads)`;
    return `config.worker: true, but ${sw ? "a service worker (an extension's background is one) cannot start a Worker" : "this environment has no Worker"}: ${thisThread}, or create the factory on a page (an extension's offscreen document or side panel) for worker mode (the package's README, "Browser extensions")`;
}

/**
 * An interceptors value that is a collection or an instance of a class
 * without onToolCall (a Map of guards, an array of them, a Date) reads as
 * no guard at all: every tool call would run unchecked while the host
 * believes it guarded. Only a plain object (or one without a prototype)
 * may be empty.
 * @param {object} ic
 */
function refuseHolder(ic) {
    const tag = Object.prototype.toString.call(ic).slice(8, -1);
    const what = Array.isArray(ic) ? "an array" : plain(ic) ? "" : tag === "Object" ? "an instance of a class" : `a ${tag}`;
    if (what) throw new TypeError(`config.interceptors: expected a plain object { onToolCall }, got ${what} without onToolCall (no call would be checked)`);
}

/** @param {object} o */
function plain(o) {
    try {
        const proto = Reflect.getPrototypeOf(o);
        return proto === null || Reflect.getPrototypeOf(proto) === null;
    } catch (err) {
        throw new TypeError(`config.interceptors: reading its prototype threw: ${err instanceof Error ? err.message : String(err)}`);
    }
}

export default IoCodeModeFactory;
