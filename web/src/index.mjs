// Code Mode for the browser: the package's entry point (dist/index.mjs, and
// as a classic script dist/code-mode.global.js). scripts/build-dist.mjs
// bundles it with esbuild (the entries are listed in web/entries.mjs).
//
// What it does: for each IoCodeModeFactory call, starts a Go core of its
// own (code-mode.wasm, next to the built file, compiled once per JavaScript
// module: core.mjs), fetches and compiles the QuickJS asset (wasm-load.mjs)
// and asks the core for a new API object, which it wraps (wrap.mjs) so that
// the LLM tools work with the common LLM SDKs as they are (factory.mjs).

import { threadFactory } from "./factory.mjs";
import { workerFactory } from "./worker-host.mjs";

/**
 * Creates a Code Mode instance.
 * @param {import("../index.d.ts").IoCodeMode.Config} config
 * @returns {Promise<import("../index.d.ts").IoCodeMode.API>}
 */
export async function IoCodeModeFactory(config) {
    if (config === null || typeof config !== "object") {
        throw new TypeError(`config: expected an object, got ${config === null ? "null" : typeof config}`);
    }
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
    // The engine runs on this thread unless told otherwise. (Worker mode
    // answers getSystemInstruction() and the LLM tools' descriptions from
    // what the worker last reported, so tools registered after the factory
    // resolved show there a message later; until the page can compute them
    // itself, a browser opts in with worker: true.)
    if (mode === true) return workerFactory(config);
    return threadFactory(config);
}

export default IoCodeModeFactory;
