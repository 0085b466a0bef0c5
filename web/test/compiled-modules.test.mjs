// config.wasmModule and config.coreModule: the package's two .wasm files
// compiled by the app (Cloudflare Workers imports them so, as modules
// compiled at deploy: web/test/workerd.test.mjs runs that), used as they
// are, in both engine modes (in worker mode the page hands them to the
// worker); wasmLocation then only names the asset. Each field refuses what
// is not its module with a TypeError naming it.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { assetPath, coreWasmPath, loadFactory, run } from "./helpers.mjs";

let IoCodeModeFactory;
const wasmModule = new WebAssembly.Module(readFileSync(assetPath));
const coreModule = new WebAssembly.Module(readFileSync(coreWasmPath));
before(async () => {
    IoCodeModeFactory = await loadFactory();
});

test("the compiled modules run a program and its tool call; wasmLocation, where no file is, is not read", async () => {
    const api = await IoCodeModeFactory({
        wasmLocation: "/nowhere/emscripten-module.wasm",
        wasmModule,
        coreModule,
        tools: [{ name: "add", execute: ({ a, b }) => a + b }],
    });
    try {
        const r = await run(api.createSession(), "return await tools.add({ a: 2, b: 40 })");
        assert.equal(r.result, 42, JSON.stringify(r));
    } finally {
        api.dispose();
    }
});

test("a factory without them still fetches the asset from wasmLocation, and names it when it cannot", async () => {
    await assert.rejects(IoCodeModeFactory({ wasmLocation: "/nowhere/emscripten-module.wasm", coreModule }), {
        message: /^Cannot load the QuickJS asset from \/nowhere\/emscripten-module\.wasm: /,
    });
});

test("each field refuses what is not its module, naming the field", async () => {
    const cases = [
        // The file read instead of compiled: "got an object" said nothing of it.
        [{ wasmModule: readFileSync(assetPath) }, "config.wasmModule: expected the QuickJS asset (emscripten-module.wasm) compiled, a WebAssembly.Module, got the file's bytes (compile them: wasmModule: await WebAssembly.compile(bytes); or leave wasmModule out, and the package fetches and compiles the file itself)"],
        [{ coreModule: readFileSync(coreWasmPath).buffer }, "config.coreModule: expected the package's code-mode.wasm compiled, a WebAssembly.Module, got the file's bytes (compile them: coreModule: await WebAssembly.compile(bytes); or leave coreModule out, and the package fetches and compiles the file itself)"],
        [{ wasmModule: coreModule }, "config.wasmModule: expected the QuickJS asset (emscripten-module.wasm) compiled, a WebAssembly.Module, got the Code Mode core (code-mode.wasm), which goes in config.coreModule"],
        [{ coreModule: "code-mode.wasm" }, 'config.coreModule: expected the package\'s code-mode.wasm compiled, a WebAssembly.Module, got the string "code-mode.wasm"'],
        [{ coreModule: wasmModule }, "config.coreModule: expected the package's code-mode.wasm compiled, a WebAssembly.Module, got another WebAssembly.Module (it imports none of Go's functions: the QuickJS asset goes in config.wasmModule)"],
        [{ wasmLocation: wasmModule }, "config.wasmLocation: expected a non-empty string (the URL, or in Node.js the file path, of emscripten-module.wasm), got a WebAssembly.Module (give it as config.wasmModule, and name the file in wasmLocation)"],
    ];
    for (const [fields, message] of cases) {
        const err = await IoCodeModeFactory({ wasmLocation: assetPath, ...fields }).then(
            (api) => (api.dispose(), null),
            (e) => e,
        );
        assert.ok(err instanceof TypeError, `${Object.keys(fields)}: ${err}`);
        if (typeof message === "string") assert.equal(err.message, message);
        else assert.match(err.message, message);
    }
});
