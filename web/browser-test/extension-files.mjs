// What the extension tests (browser-test/extension.test.mjs in Chromium,
// firefox-test/extension.test.mjs in Firefox) build their extensions from.

// The package's files an extension copies from dist/.
export const EXTENSION_FILES = ["index.mjs", "code-mode.worker.mjs", "code-mode.wasm", "emscripten-module.wasm"];

// USAGE's manifest policy ("Browser extensions"); null: the manifest sets
// none (Manifest V3's default, script-src 'self').
export const POLICIES = { documented: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'", none: null };

// What a factory of an extension's page or worker says under the default.
export const NO_WASM = /WebAssembly.*; the extension's Content-Security-Policy must allow WebAssembly: add 'wasm-unsafe-eval' to the script-src of its manifest\.json \("content_security_policy": \{ "extension_pages": "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'" \}\)/;

// runOnce(worker, code): a factory in that mode (undefined: the default),
// one program, { result } or { error } (the factory's or the run's).
export const RUN = `import { IoCodeModeFactory } from "./index.mjs";
export async function runOnce(worker, code = "return await tools.add({ a: 2, b: 40 })") {
    try {
        const config = { wasmLocation: "./emscripten-module.wasm", tools: [{ name: "add", execute: ({ a, b }) => a + b }] };
        if (worker !== undefined) config.worker = worker;
        const api = await IoCodeModeFactory(config);
        const [, executeCode] = api.createSession().getLlmTools();
        const r = await executeCode.execute({ code, explanation: "x" });
        api.dispose();
        return r.error ? { error: r.error.message } : { result: r.result };
    } catch (e) {
        return { error: String((e && e.message) || e) };
    }
}
`;
