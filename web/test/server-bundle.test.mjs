// @mode-independent: each case sets worker itself, true and false.
// The package bundled into a Node.js server program (SSR, an API route), as
// esbuild does it for platform node: an ES module bundle finds the Go core
// and the worker beside itself, and says what to copy when they are not
// there; a CommonJS bundle leaves the package no URL of its own (import.meta
// becomes {}), where the factory said only "Invalid URL".
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { dist } from "./helpers.mjs";

const wasmLocation = join(dist, "emscripten-module.wasm");
let dir;

// The server's code: one factory in the mode of its argv, one run.
const program = (load) => `${load}
const worker = process.argv[2] === "true";
IoCodeModeFactory({ wasmLocation: ${JSON.stringify(wasmLocation)}, worker, tools: [{ name: "add", execute: ({ a, b }) => a + b }] })
    .then(async (api) => {
        const [, executeCode] = api.createSession().getLlmTools();
        const r = await executeCode.execute({ code: "return await tools.add({ a: 2, b: 40 })", explanation: "x" });
        api.dispose();
        console.log(JSON.stringify({ result: r.result }));
    }, (err) => console.log(JSON.stringify({ error: err.message })));
`;

async function bundle(name, format, load) {
    const out = join(dir, name);
    writeFileSync(join(dir, `${name}.src.js`), program(load));
    await esbuild.build({ entryPoints: [join(dir, `${name}.src.js`)], bundle: true, platform: "node", format, outfile: out, logLevel: "silent" });
    return out;
}

function run(file, worker) {
    const r = spawnSync(process.execPath, [file, String(worker)], { encoding: "utf8", timeout: 60000 });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout.trim().split("\n").pop());
}

before(() => {
    dir = mkdtempSync(join(tmpdir(), "codemode-server-bundle-"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const index = JSON.stringify(join(dist, "index.mjs"));

for (const worker of [false, true]) {
    test(`an ES module server bundle without the package's files names them and what to do (worker: ${worker})`, async () => {
        const file = await bundle(`esm-${worker}.mjs`, "esm", `import { IoCodeModeFactory } from ${index};`);
        const { error } = run(file, worker);
        assert.match(error, worker ? /Cannot find module '.*code-mode\.worker\.mjs'/ : /Cannot load the Code Mode core from file:.*code-mode\.wasm: ENOENT/);
        assert.match(error, /code-mode\.wasm and code-mode\.worker\.mjs are looked up beside the script that loads them: a bundler that does not copy them \(esbuild, Rollup, bun build, Angular's ng build\) needs them copied next to its output/);
    });

    test(`an ES module server bundle with the package's files beside it runs (worker: ${worker})`, async () => {
        const sub = join(dir, `copied-${worker}`);
        mkdirSync(sub);
        const file = await bundle(`copied-${worker}/server.mjs`, "esm", `import { IoCodeModeFactory } from ${index};`);
        for (const f of ["code-mode.wasm", "code-mode.worker.mjs"]) copyFileSync(join(dist, f), join(sub, f));
        assert.deepEqual(run(file, worker), { result: 42 });
    });

    test(`a CommonJS server bundle says the package cannot locate its files, not "Invalid URL" (worker: ${worker})`, async () => {
        const file = await bundle(`cjs-${worker}.cjs`, "cjs", `const { IoCodeModeFactory } = require(${index});`);
        const { error } = run(file, worker);
        assert.match(error, new RegExp(`Cannot locate the package's ${worker ? "code-mode\\.worker\\.mjs" : "code-mode\\.wasm"}: this copy of @interopio/code-mode does not know its own URL \\(a bundler that turns it into CommonJS, or into a classic script \\(an IIFE\\) for a browser, leaves it none\\); keep the package out of the bundle`));
    });
}

// Bun's bun build --compile embeds the program in a file system of its own,
// /$bunfs/root/, holding only the files named on its command line: the
// package's files were not there and the error said to copy them, which
// cannot be done into an executable. A folder of that name stands in for it.
for (const worker of [false, true]) {
    test(`a program compiled by bun build --compile (under /$bunfs/root/) is told the flags that embed the package's files (worker: ${worker})`, async () => {
        mkdirSync(join(dir, `bun-${worker}`, "$bunfs", "root"), { recursive: true });
        const file = await bundle(`bun-${worker}/$bunfs/root/agent.mjs`, "esm", `import { IoCodeModeFactory } from ${index};`);
        const { error } = run(file, worker);
        assert.match(error, worker ? /code-mode\.worker\.mjs/ : /Cannot load the Code Mode core from file:.*\/\$bunfs\/root\/code-mode\.wasm: ENOENT/);
        assert.match(error, /this program was compiled by bun build --compile, which embeds only the files named to it: add node_modules\/@interopio\/code-mode\/code-mode\.wasm and node_modules\/@interopio\/code-mode\/code-mode\.worker\.mjs to its command line, with --asset-naming="\[name\]\.\[ext\]" --entry-naming="\[name\]\.mjs"/);
    });
}

// Deno's and Bun's Worker (which the package uses there, as on a page) report
// a worker file that is not there in the error event's message, where
// Node.js's worker_threads gives a code: worker mode said only Deno's
// `Module not found "file:///.../code-mode.worker.mjs".`, with nothing of
// what to copy. A Worker of that kind stands in for theirs.
for (const [runtime, message] of [
    ["Deno", (url) => `Module not found "${url}".`],
    ["Bun", (url) => `BuildMessage: ModuleNotFound resolving "${new URL(url).pathname}" (entry point)`],
]) {
    test(`${runtime}'s Worker that finds no code-mode.worker.mjs beside a bundle: the error names the files to copy`, async () => {
        const load = `globalThis.Worker = class extends EventTarget {
    constructor(url) {
        super();
        setTimeout(() => { const e = new Event("error", { cancelable: true }); e.message = (${message})(String(url)); this.dispatchEvent(e); });
    }
    postMessage() {}
    terminate() {}
};
const { IoCodeModeFactory } = await import(${index});`;
        const file = await bundle(`${runtime}-worker.mjs`, "esm", load);
        const { error } = run(file, true);
        assert.match(error, /Cannot start the Code Mode worker: (Module not found|BuildMessage: ModuleNotFound resolving) "[^"]*code-mode\.worker\.mjs"(; | \(entry point\); )the package's code-mode\.wasm and code-mode\.worker\.mjs are looked up beside the script that loads them/);
    });
}
