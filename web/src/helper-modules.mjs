// The small WebAssembly modules the Go core compiles in the worker (the
// interrupt poll, jsbridge/poll.go; the host-import trampolines,
// jsbridge/fastimport.go), kept by the page for the life of the process.
//
// Why: a module compiled in a Node.js worker_threads worker whose isolate
// then ends stays allocated (V8 in Node.js 20: its compiled code and the
// worker isolate's counters, ~30 KB of native memory, not of the JavaScript
// heap) when it was linked with a module compiled on another thread (the
// trampolines import the Go core's export, the QuickJS asset imports the
// poll's; the page compiles both). So every worker-mode factory created and
// disposed cost ~40 KB of rss for good (300 factories: 126 -> 143 MB; with
// the page keeping them, 125 -> 124 MB). V8 shares a module compiled from the same
// bytes as one still alive in the process: with the page holding the first
// worker's copies, later workers' compiles reuse them and create nothing
// that could outlive them. The bytes are the same for every worker of one
// QuickJS asset (they follow its imports' types), so a handful are kept.

import { KeptMap, isArray } from "./intrinsics.mjs";

// As at load: the page may replace its globals afterwards (intrinsics.mjs).
const WasmModule = typeof WebAssembly === "object" ? WebAssembly.Module : null;

// A bound on what is kept: an asset has a few import signatures; more than
// this is not one the package knows, and is left to compile per worker.
const MAX_KEPT = 16;
// Helpers are a few hundred bytes to a few KB; a bigger module is not one.
const MAX_BYTES = 1 << 16;

/** @type {Map<string, WebAssembly.Module>} the page's: by the module's bytes */
const kept = new KeptMap();

/**
 * The page keeps a worker's compiled helper modules (worker-protocol.mjs,
 * message "compiled"): one per distinct bytes.
 * @param {unknown} list [key, module] pairs
 */
export function keepHelperModules(list) {
    if (!WasmModule || !isArray(list)) return;
    try {
        for (let i = 0; i < list.length; i++) {
            const pair = list[i];
            if (!isArray(pair) || typeof pair[0] !== "string" || !(pair[1] instanceof WasmModule)) continue;
            if (kept.size >= MAX_KEPT || kept.has(pair[0])) continue;
            kept.set(pair[0], pair[1]);
        }
    } catch {
        // Only memory is at stake: nothing to tell the page (a throw here
        // would escape the worker's message listener).
    }
}

/**
 * The worker's side: a WebAssembly namespace for the Go core's global,
 * whose Module constructor hands each small module it compiles to `send`
 * (as [key, module] pairs, once per bytes), for the page to keep.
 * @param {(pairs: [string, WebAssembly.Module][]) => void} send
 * @returns {typeof WebAssembly}
 */
export function recordingWebAssembly(send) {
    /** @type {Set<string>} */
    const sent = new Set();
    const Module = new Proxy(WebAssembly.Module, {
        construct(target, args) {
            const mod = Reflect.construct(target, args);
            const bytes = args[0];
            if (bytes instanceof Uint8Array && bytes.length <= MAX_BYTES) {
                // A string of the bytes: the key of equal modules.
                let key = "";
                for (let i = 0; i < bytes.length; i += 4096) key += String.fromCharCode.apply(null, /** @type {any} */ (bytes.subarray(i, i + 4096)));
                if (!sent.has(key)) {
                    sent.add(key);
                    try {
                        send([[key, mod]]);
                    } catch {
                        // A page that cannot take it: only memory is at stake.
                    }
                }
            }
            return mod;
        },
    });
    return /** @type {typeof WebAssembly} */ (/** @type {unknown} */ ({ __proto__: WebAssembly, Module }));
}
