// @mode-independent: a runtime without Worker, where the factory runs on its thread.
// Runtimes that refuse to compile WebAssembly from bytes: Cloudflare
// Workers (workerd: "Wasm code generation disallowed by embedder", and no
// import.meta.url for a module), and the Node.js vm contexts of edge-runtime
// emulators made with codeGeneration: { wasm: false }. The classic script
// in such a context, as @edge-runtime/vm evaluates a script: with no URL
// of its own (as workerd's modules) the factory said "this copy of
// @interopio/code-mode does not know its own URL (a bundler ...)", and with
// one it said only V8's words; each now says the runtime refuses and where
// Code Mode runs. A context that allows WebAssembly runs. Next.js's edge
// runtime (globalThis.EdgeRuntime) gave its bundle a blob:server/edge/...
// URL for code-mode.wasm that its fetch does not serve: "fetch failed
// (invalid method)", now followed by what to do.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import vm from "node:vm";
import { dist, serve } from "./helpers.mjs";

const source = readFileSync(join(dist, "code-mode.global.js"), "utf8");
let server;

before(async () => {
    server = await serve({
        "/pkg/code-mode.wasm": { body: readFileSync(join(dist, "code-mode.wasm")), type: "application/wasm" },
        "/pkg/emscripten-module.wasm": { body: readFileSync(join(dist, "emscripten-module.wasm")), type: "application/wasm" },
    });
});
after(() => server?.close());

// A context with the Web APIs an edge runtime has (no process, no Worker,
// no location), the classic script evaluated in it; currentScript, if
// given, is the script's URL as a page would give it.
function edgeContext(wasm, currentScript, edgeRuntime) {
    const globals = { fetch, Response, Request, Headers, URL, TextEncoder, TextDecoder, AbortController, AbortSignal, setTimeout, clearTimeout, queueMicrotask, console, crypto, structuredClone, performance };
    if (currentScript) globals.document = { currentScript: { src: currentScript } };
    if (edgeRuntime) globals.EdgeRuntime = edgeRuntime;
    const context = vm.createContext(globals, { codeGeneration: { strings: false, wasm } });
    vm.runInContext(source, context);
    return context;
}

const RUN = `(async () => {
    try {
        const api = await IoCodeModeFactory({ wasmLocation: ${"__wasm"}, wasmModule: globalThis.__wasmModule, coreModule: globalThis.__coreModule, tools: [{ name: "add", execute: ({ a, b }) => a + b }] });
        const r = await api.createSession().getLlmTools()[1].execute({ code: "return await tools.add({ a: 2, b: 40 })", explanation: "x" });
        api.dispose();
        return r.error ? r.error.code : r.result;
    } catch (e) {
        return e.message;
    }
})()`;

const run = (context) => {
    context.__wasm = `${server.url}/pkg/emscripten-module.wasm`;
    return vm.runInContext(RUN, context);
};

const WHAT_TO_DO = `this runtime does not allow compiling WebAssembly from bytes (as on Cloudflare Workers): give Code Mode its engine compiled, code-mode.wasm and the QuickJS asset imported as WebAssembly modules (import core from "@interopio/code-mode/code-mode.wasm"), as config.coreModule and config.wasmModule (the package's README, "Cloudflare Workers")`;

test("WebAssembly refused, no URL of its own (workerd's modules): the runtime's refusal, not a bundler's", async () => {
    assert.equal(await run(edgeContext(false)), `Cannot start Code Mode here: WebAssembly.Module(): Wasm code generation disallowed by embedder; ${WHAT_TO_DO}`);
});

test("WebAssembly refused, the script's URL known: the core's compile says the runtime refuses and where Code Mode runs", async () => {
    const out = await run(edgeContext(false, `${server.url}/pkg/code-mode.global.js`));
    const url = `${server.url}/pkg/code-mode.wasm`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    assert.match(out, new RegExp(`^Cannot load the Code Mode core from ${url}: WebAssembly\\.\\w+\\(\\): Wasm code generation disallowed by embedder; ${WHAT_TO_DO.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
});

test("WebAssembly allowed (an edge runtime's default): the program runs", async () => {
    assert.equal(await run(edgeContext(true, `${server.url}/pkg/code-mode.global.js`)), 42);
});

const EDGE = `; in an edge runtime (globalThis.EdgeRuntime: Vercel's Edge Functions, Next.js routes and middleware with runtime = "edge"), which allows no WebAssembly compiled from bytes, give Code Mode its two modules compiled, imported with ?module, as config.coreModule and config.wasmModule (the package's README, "Cloudflare Workers"), or use the Node.js runtime (in Next.js, leave out export const runtime = "edge")`;

test("Next.js's edge runtime (EdgeRuntime set, the core where its fetch finds none): the failure says to use the Node.js runtime", async () => {
    const out = await run(edgeContext(true, `${server.url}/nowhere/code-mode.global.js`, "edge-runtime"));
    assert.ok(out.startsWith(`Cannot load the Code Mode core from ${server.url}/nowhere/code-mode.wasm: HTTP 404`), out);
    assert.ok(out.endsWith(EDGE), out);
});

test("an edge runtime that refuses the compile itself (Vercel's): the runtime's refusal, said once", async () => {
    assert.equal(await run(edgeContext(false, undefined, "edge-runtime")), `Cannot start Code Mode here: WebAssembly.Module(): Wasm code generation disallowed by embedder; ${WHAT_TO_DO}`);
});

// Next.js's edge runtime (and Vercel's) imports "x.wasm?module" as a
// WebAssembly.Module made outside the route's vm context: a module of
// another realm, which instanceof refused ("config.wasmModule: expected
// ... a WebAssembly.Module, got an object"; the core's newFactory check
// likewise). Checked by WebAssembly.Module.imports, it runs where no bytes
// compile.
test("the two modules compiled outside a context that compiles no bytes (another realm's): the program runs", async () => {
    const context = edgeContext(false, undefined, "edge-runtime");
    context.__wasmModule = new WebAssembly.Module(readFileSync(join(dist, "emscripten-module.wasm")));
    context.__coreModule = new WebAssembly.Module(readFileSync(join(dist, "code-mode.wasm")));
    assert.equal(vm.runInContext("__wasmModule instanceof WebAssembly.Module", context), false);
    assert.equal(await run(context), 42);
});
