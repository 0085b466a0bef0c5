// Node.js with a DOM: what a test environment (Vitest's or Jest's jsdom,
// happy-dom) makes of the process's global before the test file imports
// Code Mode. Each row sets the global up as that environment does, in a
// child process of its own (the global is the process's), then makes a
// factory with the QuickJS asset's file: URL and runs a program with a tool
// call (which reads its signal), text that is not ASCII (the Go core
// encodes it) and a busy loop.
// Both engine modes (CODE_MODE_WORKER=1); the in-thread engine is the one
// that shares the test's global.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { WORKER, assetPath, assetURL, indexURL } from "./helpers.mjs";

// A page's document and location, as those environments give them.
const DOM = `
    globalThis.location = new URL("http://localhost:3000/");
    globalThis.document = { baseURI: "http://localhost:3000/", URL: "http://localhost:3000/" };
`;

/**
 * Runs `setup`, then imports the package and runs `body` (which sets `out`), in a child process; gives `out`.
 * @param {string} setup @param {string} body
 */
function inChild(setup, body) {
    const script = `
        ${setup}
        const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
        const tools = [{ name: "t.x", description: "d", inputSchema: { type: "object" }, execute: async (_, { signal }) => ({ n: signal.aborted ? 0 : 1, s: "héllo ✓" }) }];
        let out;
        ${body}
        process.stdout.write(JSON.stringify(out));
        process.exit(0);
    `;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
    assert.equal(child.signal, null, `the child was killed after 60 s: ${child.stderr.slice(-2000)}`);
    assert.equal(child.status, 0, `the child failed (status ${child.status}): ${child.stderr.slice(-2000)}`);
    return JSON.parse(child.stdout);
}

const RUNS = `
    try {
        const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetURL)}, worker: ${WORKER}, timeout: 500, tools });
        const exec = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
        const r = await exec.execute({ code: "const v = await tools.t.x({}); return [v.n, v.s, 'ünï']", explanation: "" });
        const loop = await exec.execute({ code: "for (;;) {}", explanation: "" });
        api.dispose();
        out = { result: r.result ?? r.error, loop: loop.error?.code };
    } catch (e) {
        out = { error: String(e && e.message) };
    }
`;
const WANT = { result: [1, "héllo ✓", "ünï"], loop: "TIMEOUT" };

const environments = [
    // Vitest's jsdom environment copies jsdom's typed arrays onto the global
    // (another realm's), while Node's TextEncoder, Buffer and WebAssembly
    // memory stay Node's: "syscall/js: CopyBytesToGo: expected src to be a
    // Uint8Array or Uint8ClampedArray".
    ["Vitest's jsdom: the global's typed arrays are another realm's", `
        const other = (await import("node:vm")).runInNewContext("this");
        for (const name of ["Uint8Array", "Uint8ClampedArray", "Uint16Array", "Int32Array", "Float64Array"]) globalThis[name] = other[name];
        ${DOM}`],
    // Jest's jsdom environment has no TextEncoder, TextDecoder or fetch:
    // "globalThis.TextEncoder is not available, polyfill required".
    ["Jest's jsdom: no TextEncoder, TextDecoder or fetch", `
        delete globalThis.TextEncoder; delete globalThis.TextDecoder; delete globalThis.fetch;
        ${DOM}`],
    // happy-dom's AbortController has its signal as each instance's own
    // property (no getter on the prototype): a tool's call failed, in
    // worker mode every one ("signalOf is not a function").
    ["happy-dom: AbortController's signal is the instance's own property", `
        const RealController = AbortController;
        globalThis.AbortController = class AbortController {
            constructor() { const c = new RealController(); this.signal = c.signal; this.c = c; }
            abort(reason) { this.c.abort(reason); }
        };
        ${DOM}`],
];
for (const [what, setup] of environments) {
    test(`${what}: a factory from the asset's file: URL runs programs`, () => {
        assert.deepEqual(inChild(setup, RUNS), WANT);
    });
}

/**
 * The message of the factory's rejection for wasmLocation `loc` in a child
 * set up by `setup` ("made" if it resolved).
 * @param {string} loc @param {string} [setup]
 */
function factoryError(loc, setup = DOM) {
    return inChild(setup, `
        try {
            const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(loc)}, worker: ${WORKER}, tools });
            api.dispose();
            out = "made";
        } catch (e) {
            out = String(e && e.message);
        }
    `);
}

// There a path is a URL of the page's, as on a page: USAGE's Node.js form
// (require.resolve(...)) was fetched from http://localhost:3000/, and the
// error said "fetch failed (connect ECONNREFUSED ...)" and no more.
test("a path as wasmLocation in Node.js with a DOM: the error says to give its file: URL", () => {
    const got = factoryError(assetPath);
    assert.match(got, /^Cannot load the QuickJS asset from \/.*emscripten-module\.wasm \(http:\/\/localhost:3000\/.*\): /);
    assert.match(got, /this is Node\.js with a DOM \(a test environment such as jsdom or happy-dom\), where wasmLocation is a URL read against the page's \(http:\/\/localhost:3000\/\): to read the file, give its file: URL, pathToFileURL\(require\.resolve\("@interopio\/code-mode\/emscripten-module\.wasm"\)\)\.href, or run the test in Node\.js's own environment$/);
});

// The page's own URL of the asset (Vitest's jsdom: Vite rewrites new
// URL("@interopio/code-mode/emscripten-module.wasm", import.meta.url) in the
// app's module to http://localhost:3000/node_modules/...) was fetched from
// there with "fetch failed (connect ECONNREFUSED ...)" and no more. A URL of
// another origin is not the test environment's (no hint), nor is any on a
// page without a root (about:blank), whose error stays the fetch's.
test("the page's absolute URL as wasmLocation in Node.js with a DOM: the error says to give its file: URL", () => {
    const loc = "http://localhost:3000/node_modules/@interopio/code-mode/emscripten-module.wasm";
    const got = factoryError(loc);
    assert.ok(got.startsWith(`Cannot load the QuickJS asset from ${loc}: `), got);
    assert.ok(got.endsWith("; this is Node.js with a DOM (a test environment such as jsdom or happy-dom), where wasmLocation is a URL read against the page's (http://localhost:3000/): to read the file, give its file: URL, pathToFileURL(require.resolve(\"@interopio/code-mode/emscripten-module.wasm\")).href, or run the test in Node.js's own environment"), got);
    const other = factoryError("http://127.0.0.1:9/emscripten-module.wasm");
    assert.ok(other.startsWith("Cannot load the QuickJS asset from http://127.0.0.1:9/emscripten-module.wasm: ") && !other.includes("Node.js with a DOM"), other);
    const blank = factoryError(loc, DOM.replaceAll("http://localhost:3000/", "about:blank"));
    assert.ok(blank.startsWith(`Cannot load the QuickJS asset from ${loc}: `) && !blank.includes("Node.js with a DOM"), blank);
});

// Without a DOM a path stays a path (no hint).
test("a path as wasmLocation in Node.js without a DOM still works", () => {
    const got = inChild("", RUNS.replace(JSON.stringify(assetURL), JSON.stringify(assetPath)));
    assert.deepEqual(got, WANT);
});
