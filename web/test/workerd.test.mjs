// @mode-independent: workerd has no Worker; the engine runs on the Worker's thread.
// Cloudflare Workers' runtime (workerd, from npm: the devDependency
// `workerd`), which compiles no WebAssembly from bytes: the Worker imports
// the package's two .wasm files as modules and passes them as
// config.wasmModule and config.coreModule. workerd bundles the Worker of a
// wrangler.json with esbuild as wrangler does (the .wasm imports become
// compiled modules). The Worker is web/USAGE.md's "Cloudflare Workers"
// block as written, and beside it routes of this file's: TIMEOUT of a
// busy loop and of a run awaiting a tool, an abort while a tool runs, the
// config's mistakes. Before config.wasmModule and config.coreModule every
// factory there rejected ("Wasm code generation disallowed by embedder").
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dist, root } from "./helpers.mjs";

// The USAGE block, found by its first line.
const FIRST_LINE = "// worker.mjs: a Cloudflare Worker (wrangler bundles it, the .wasm files as modules)";

function usageWorker() {
    const text = readFileSync(join(root, "web", "USAGE.md"), "utf8");
    const at = text.indexOf(FIRST_LINE);
    assert.ok(at >= 0, "web/USAGE.md has no block beginning " + FIRST_LINE);
    return text.slice(at, text.indexOf("\n```", at) + 1);
}

// The routes beside the USAGE Worker: each answers JSON. (Indented: a line
// that begins with import would be this file's, to modes.test.mjs.)
const HARNESS = `
    import usage from "./usage.mjs";
    import { IoCodeModeFactory } from "@interopio/code-mode";
    import wasmModule from "@interopio/code-mode/emscripten-module.wasm";
    import coreModule from "@interopio/code-mode/code-mode.wasm";

    const wasmLocation = "@interopio/code-mode/emscripten-module.wasm";
    let factory;
    const harness = () =>
        (factory ??= IoCodeModeFactory({
            wasmLocation, wasmModule, coreModule, timeout: 1000,
            tools: [
                { name: "never", description: "Never answers.", execute: () => new Promise(() => {}) },
                { name: "answers", description: "Answers.", execute: () => "yes" },
            ],
        }));
    const run = async (api, code, options) => {
        const [, executeCode] = api.createSession().getLlmTools();
        try {
            return await executeCode.execute({ code, explanation: "test" }, options);
        } catch (e) {
            return { thrown: e.name + ": " + e.message };
        }
    };
    const outcome = (p) => p.then(() => "resolved", (e) => e.name + ": " + e.message);
    const routes = {
        "/busy": async () => run(await harness(), "while (true) {}"),
        "/await": async () => run(await harness(), "await tools.never(); return 1"),
        "/abort": async () => {
            const api = await harness();
            const controller = new AbortController();
            const aborted = run(api, "await tools.never(); return 1", { signal: controller.signal });
            await new Promise((r) => setTimeout(r, 50));
            controller.abort();
            return { aborted: await aborted, next: await run(api, "return await tools.answers()") };
        },
        "/errors": async () => ({
            noCore: await outcome(IoCodeModeFactory({ wasmLocation, wasmModule })),
            noAsset: await outcome(IoCodeModeFactory({ wasmLocation, coreModule })),
            swapped: await outcome(IoCodeModeFactory({ wasmLocation, wasmModule: coreModule, coreModule: wasmModule })),
            asLocation: await outcome(IoCodeModeFactory({ wasmLocation: wasmModule, coreModule })),
        }),
    };
    export default {
        async fetch(request) {
            const route = routes[new URL(request.url).pathname];
            return route ? Response.json(await route()) : usage.fetch(request);
        },
    };
`;

let dir, workerd, base;
let stderr = "";

before(async () => {
    dir = mkdtempSync(join(tmpdir(), "workerd-"));
    mkdirSync(join(dir, "node_modules", "@interopio"), { recursive: true });
    symlinkSync(dist, join(dir, "node_modules", "@interopio", "code-mode"), "dir");
    writeFileSync(join(dir, "usage.mjs"), usageWorker());
    writeFileSync(join(dir, "main.mjs"), HARNESS);
    writeFileSync(join(dir, "wrangler.json"), JSON.stringify({ name: "code-mode-test", main: "main.mjs", compatibility_date: "2025-01-01" }));
    // Port 0: workerd reports the port it listens on through the control fd.
    // The binary itself: node_modules/.bin/workerd is a Node.js script (its
    // postinstall, which links the binary there, does not run: allowScripts)
    // that passes it stdin, stdout and stderr alone.
    workerd = spawn(createRequire(import.meta.url)("workerd").default, ["serve", "wrangler.json", "--socket-addr", "http=127.0.0.1:0", "--control-fd", "3"], {
        cwd: dir,
        env: { ...process.env, WORKERD_ESBUILD: join(root, "node_modules", ".bin", "esbuild") },
        stdio: ["ignore", "ignore", "pipe", "pipe"],
    });
    workerd.stderr.on("data", (d) => (stderr += d));
    base = await new Promise((resolve, reject) => {
        let control = "";
        workerd.stdio[3].on("data", (d) => {
            control += d;
            const m = /"event":"listen","socket":"http","port":(\d+)/.exec(control);
            if (m) resolve(`http://127.0.0.1:${m[1]}`);
        });
        workerd.on("exit", (code) => reject(new Error(`workerd exited (${code}): ${stderr}`)));
        workerd.on("error", reject);
    });
});

after(() => {
    workerd?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
});

const get = async (path, body) => {
    const res = await fetch(base + path, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) });
    const text = await res.text();
    assert.equal(res.status, 200, `${path}: ${text} ${stderr}`);
    return JSON.parse(text);
};

test("USAGE's Worker runs the model's code and its tool call, and its factory serves the next request", async () => {
    const first = await get("/", { code: "return await tools.add({ a: 2, b: 40 })" });
    assert.equal(first.ok, true, JSON.stringify(first));
    assert.equal(first.result, 42);
    assert.deepEqual(first.toolCalls.map((c) => [c.name, c.ok]), [["add", true]]);
    const next = await get("/", { code: "const r = await tools.add({ a: 1, b: 2 }); console.log('sum', r); return r" });
    assert.equal(next.result, 3, JSON.stringify(next));
    assert.deepEqual(next.logs, [{ level: "log", message: "sum 3" }]);
});

test("a busy loop ends at the timeout: the interrupt poll, with no helper module compiled", async () => {
    const r = await get("/busy");
    assert.equal(r.ok, false, JSON.stringify(r));
    assert.equal(r.error.code, "TIMEOUT");
    assert.equal(r.error.message, "the program did not finish within 1s");
});

test("a run awaiting a tool that never answers ends at the timeout", async () => {
    const r = await get("/await");
    assert.equal(r.error?.code, "TIMEOUT", JSON.stringify(r));
    assert.match(r.error.message, /^the program did not finish within 1s; it was waiting for the result of tool never/);
});

test("a run's signal aborts it while a tool runs, and the factory's next run goes on", async () => {
    const r = await get("/abort");
    assert.equal(r.aborted.thrown, "AbortError: The operation was aborted", JSON.stringify(r));
    assert.equal(r.next.result, "yes", JSON.stringify(r));
});

test("a missing or misplaced module: what to give, and where", async () => {
    const r = await get("/errors");
    const giveIt = `this runtime does not allow compiling WebAssembly from bytes (as on Cloudflare Workers): give Code Mode its engine compiled, code-mode.wasm and the QuickJS asset imported as WebAssembly modules (import core from "@interopio/code-mode/code-mode.wasm"), as config.coreModule and config.wasmModule (the package's README, "Cloudflare Workers")`;
    assert.equal(r.noCore, `Error: Cannot start Code Mode here: WebAssembly.Module(): Wasm code generation disallowed by embedder; ${giveIt}`);
    // workerd's modules have no URL to read the location against.
    assert.equal(r.noAsset, `Error: Cannot load the QuickJS asset from @interopio/code-mode/emscripten-module.wasm: Invalid URL string; ${giveIt}`);
    assert.equal(r.swapped, "TypeError: config.wasmModule: expected the QuickJS asset (emscripten-module.wasm) compiled, a WebAssembly.Module, got the Code Mode core (code-mode.wasm), which goes in config.coreModule");
    assert.equal(r.asLocation, "TypeError: config.wasmLocation: expected a non-empty string (the URL, or in Node.js the file path, of emscripten-module.wasm), got a WebAssembly.Module (give it as config.wasmModule, and name the file in wasmLocation)");
});
