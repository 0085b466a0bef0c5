// Code Mode for the browser: the package's entry point (dist/index.mjs, and
// as a classic script dist/code-mode.global.js). scripts/build-dist.mjs
// bundles it with esbuild (the entries are listed in web/entries.mjs).
//
// What it does: for each IoCodeModeFactory call, starts a Go core of its
// own (code-mode.wasm, next to the built file, compiled once per JavaScript
// module: core.mjs), fetches and compiles the QuickJS asset (wasm-load.mjs)
// and asks the core for a new API object, which it wraps (wrap.mjs) so that
// the LLM tools work with the common LLM SDKs as they are (factory.mjs).

import { hasNodeFs } from "./env.mjs";
import { threadFactory } from "./factory.mjs";
import { snapshot } from "./fields.mjs";
import { CONFIG_KEYS, INTERCEPTOR_KEYS } from "./keys.mjs";
import { workerFactory } from "./worker-host.mjs";

const onPage = !hasNodeFs && typeof document !== "undefined" && typeof Worker === "function";

/**
 * Creates a Code Mode instance.
 * @param {import("../index.d.ts").IoCodeMode.Config} config
 * @returns {Promise<import("../index.d.ts").IoCodeMode.API>}
 */
export async function IoCodeModeFactory(config) {
    if (config === null || typeof config !== "object") {
        throw new TypeError(`config: expected an object, got ${config === null ? "null" : typeof config}`);
    }
    // Read once, each field, and never from Object.prototype (fields.mjs).
    config = /** @type {any} */ (snapshot(config, "config", CONFIG_KEYS));
    const ic = config.interceptors;
    if (ic !== null && typeof ic === "object") config.interceptors = snapshot(ic, "config.interceptors", INTERCEPTOR_KEYS);
    const location = config.wasmLocation;
    if (typeof location !== "string" || location === "") {
        throw new TypeError(
            "config.wasmLocation: expected a non-empty string (the URL, or in Node.js the file path, " +
                `of emscripten-module.wasm), got ${location === "" ? "an empty string" : location === null ? "null" : typeof location}`,
        );
    }
    const mode = /** @type {any} */ (config).worker;
    if (mode !== undefined && typeof mode !== "boolean") {
        throw new TypeError(`config.worker: expected a boolean, got ${mode === null ? "null" : typeof mode}`);
    }
    // On a web page the engine runs in a Worker unless told otherwise
    // (worker: false), so that a busy program never freezes the page; in
    // Node.js and runtimes without a page, on this thread.
    if (mode === undefined ? onPage : mode) return workerFactory(config);
    return threadFactory(config);
}

export default IoCodeModeFactory;
