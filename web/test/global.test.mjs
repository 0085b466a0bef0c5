// @mode-independent: the classic script's factory, at its default mode.
// The classic-script build (dist/code-mode.global.js), evaluated the way a
// <script> element would: a plain script with document.currentScript set.
// Loaded once from file: URLs and once over HTTP from 127.0.0.1 (where the
// Go core itself is fetched and instantiated with streaming).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";
import { dist, serve } from "./helpers.mjs";

const scriptPath = join(dist, "code-mode.global.js");
const source = readFileSync(scriptPath, "utf8");

function loadClassic(src, baseURI) {
    delete globalThis.IoCodeModeFactory;
    globalThis.document = { currentScript: { src }, baseURI };
    try {
        // A <script> can use dynamic import(); vm scripts need the loader
        // named explicitly (the build reads file: URLs with node:fs).
        vm.runInThisContext(source, {
            filename: scriptPath,
            importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
        });
    } finally {
        // currentScript is only set while the script runs.
        globalThis.document = { currentScript: null, baseURI };
    }
    return globalThis.IoCodeModeFactory;
}

after(() => {
    delete globalThis.document;
    delete globalThis.IoCodeModeFactory;
});

async function smoke(IoCodeModeFactory, wasmLocation) {
    const api = await IoCodeModeFactory({
        wasmLocation,
        tools: [{ name: "greet", inputSchema: { type: "object", properties: { who: { type: "string" } } }, execute: ({ who }) => `hello ${who}` }],
    });
    try {
        const executeCode = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
        const r = await executeCode.execute({ code: "return await tools.greet({ who: 'page' })", explanation: "x" });
        assert.deepEqual([r.ok, r.result], [true, "hello page"], JSON.stringify(r));
    } finally {
        api.dispose();
    }
}

test("it is a classic script: no import/export, no import.meta", () => {
    assert.doesNotMatch(source, /^\s*(import|export)\s/m);
    assert.doesNotMatch(source, /import\.meta/);
    assert.doesNotThrow(() => new vm.Script(source, { filename: scriptPath }));
});

test("defines globalThis.IoCodeModeFactory and nothing else global (file: URLs)", async () => {
    const before = new Set(Object.getOwnPropertyNames(globalThis));
    const pageURL = pathToFileURL(join(dist, "index.html")).href;
    const IoCodeModeFactory = loadClassic(pathToFileURL(scriptPath).href, pageURL);
    assert.equal(typeof IoCodeModeFactory, "function");
    // wasmLocation relative to the page, as in a browser.
    await smoke(IoCodeModeFactory, "emscripten-module.wasm");
    await smoke(IoCodeModeFactory, "./dist/emscripten-module.wasm");
    const added = Object.getOwnPropertyNames(globalThis).filter((n) => !before.has(n));
    assert.deepEqual(added.sort(), ["IoCodeModeFactory", "document"].filter((n) => !before.has(n)).sort());
    assert.equal(globalThis.Go, undefined);
    await assert.rejects(IoCodeModeFactory({}), /config\.wasmLocation/);
});

test("served over HTTP: the core comes from the script's folder, the asset from the page's", async () => {
    const server = await serve({
        "/static/code-mode.global.js": { body: source, type: "text/javascript" },
        "/static/code-mode.wasm": { body: readFileSync(join(dist, "code-mode.wasm")), type: "application/wasm" },
        "/assets/quickjs.wasm": { body: readFileSync(join(dist, "emscripten-module.wasm")), type: "application/wasm" },
    });
    try {
        const IoCodeModeFactory = loadClassic(`${server.url}/static/code-mode.global.js`, `${server.url}/app/page.html`);
        await smoke(IoCodeModeFactory, "/assets/quickjs.wasm");
        await smoke(IoCodeModeFactory, "../assets/quickjs.wasm");
        assert.equal(server.hits.filter((p) => p === "/static/code-mode.wasm").length, 1, "the core is loaded once");
        await assert.rejects(
            IoCodeModeFactory({ wasmLocation: "/assets/missing.wasm" }),
            (err) => err.message.includes("/assets/missing.wasm") && /404/.test(err.message),
        );
    } finally {
        await server.close();
    }
});
