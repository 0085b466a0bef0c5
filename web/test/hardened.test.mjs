// The package in hardened JavaScript, as wallet snaps and plugin hosts run
// their apps: Node's --frozen-intrinsics with
// --disallow-code-generation-from-strings, and SES's lockdown() (the ses
// package: its default tamings and its strictest), before the package is
// imported or after. The package takes builtins at load, wraps errors and
// names them (err.name = "AbortError" on an Error whose prototype's name
// is frozen), and uses no eval or new Function: each child process runs the
// same calls and lifecycle paths in the suite's mode, with its config, tools
// and arguments harden()ed under SES, and must print what a plain process
// prints. Under Node.js's permission model a factory refused worker threads
// or a read of its files says which and the flag that allows it (Node's own
// words, "Access to this API has been restricted", said neither). Without
// WebAssembly (node --jitless; Chromium's --jitless, Apple's Lockdown
// Mode) the factory says Code Mode needs it: it said "WebAssembly is not
// defined", in worker mode after "the engine's worker stopped".
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import { WORKER, assetPath, dist, indexURL, root } from "./helpers.mjs";

// Each outcome as a line: "ok <result>", "error <code>" or "rejected <name>: <message>".
const PATHS = `
const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
const h = globalThis.harden || ((x) => x);
const settle = (p) => p.then((r) => (r.error ? "error " + r.error.code : "ok " + JSON.stringify(r.result)), (e) => "rejected " + e.name + ": " + e.message);
const out = [];
// The tool "wait" calls the run's hook of the moment, then waits for its signal.
let onWait = () => {};
const tools = h([
    { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] }, execute: ({ a, b }) => a + b },
    { name: "boom", execute: () => { throw new TypeError("bad"); } },
    { name: "wait", execute: (_input, { signal }) => new Promise((resolve) => { signal.addEventListener("abort", () => resolve("aborted")); onWait(); }) },
]);
const api = await IoCodeModeFactory(h({ wasmLocation: ${JSON.stringify(assetPath)}, worker: ${WORKER}, timeout: 1000, tools, interceptors: { onToolCall: () => ({ allowed: true }) }, onEvent: () => {} }));
const session = api.createSession();
const [searchTools, executeCode] = session.getLlmTools();
const run = (code, options) => settle(executeCode.execute(h({ code, explanation: "x" }), options));
out.push(await run("return { sum: await tools.add({ a: 2, b: 40 }), big: String(2n ** 70n), date: new Date(0).toISOString(), map: new Map([[1, 2]]).size }"));
out.push(await run("try { await tools.boom({}) } catch (e) { return e.name + ': ' + e.message }"));
out.push(await run("return await tools.add({ a: 'x' })"));
out.push(await run("let i = 0; for (;;) i++"));
out.push(await run("await tools.wait({})"));
out.push(JSON.stringify((await searchTools.execute(h({ query: "add" }))).map((t) => t.name)));
const before = new AbortController();
before.abort();
out.push(await run("return 1", { signal: before.signal }));
const during = new AbortController();
onWait = () => during.abort();
out.push(await run("return await tools.wait({})", { signal: during.signal }));
onWait = () => session.dispose();
out.push(await run("return await tools.wait({})"));
out.push(await run("return 1"));
const other = api.createSession();
onWait = () => api.dispose();
out.push(await settle(other.getLlmTools()[1].execute({ code: "return await tools.wait({})", explanation: "x" })));
console.log(JSON.stringify(out));
`;

const dir = mkdtempSync(join(tmpdir(), "codemode-hardened-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "paths.mjs"), PATHS);
const ses = pathToFileURL(createRequire(join(root, "package.json")).resolve("ses")).href;
const lockdown = (options, when) => {
    const file = join(dir, `lockdown-${when}-${Object.keys(options).length}.mjs`);
    const lock = `lockdown(${JSON.stringify(options)});\n`;
    const load = `await import(${JSON.stringify(indexURL)});\n`;
    writeFileSync(join(file), `import ${JSON.stringify(ses)};\n${when === "before" ? lock + load : load + lock}await import("./paths.mjs");\n`);
    return file;
};

/** The child's printed outcomes; its stderr must hold nothing but Node's warning for the experimental flag. */
function outcomes(args) {
    const r = spawnSync(process.execPath, args, { encoding: "utf8", timeout: 120_000 });
    const stderr = r.stderr.split("\n").filter((l) => l && !/ExperimentalWarning: Frozen intri|--trace-warnings/.test(l));
    assert.deepEqual(stderr, [], `node ${args.join(" ")}`);
    assert.equal(r.status, 0, `node ${args.join(" ")}: ${r.stdout}`);
    return JSON.parse(r.stdout);
}

const plain = outcomes([join(dir, "paths.mjs")]);

test("a plain process: what each hardened one must match", () => {
    assert.deepEqual(plain, [
        'ok {"sum":42,"big":"1180591620717411303424","date":"1970-01-01T00:00:00.000Z","map":1}',
        'ok "ToolError: bad"',
        "error RUNTIME",
        "error TIMEOUT",
        "error TIMEOUT",
        '["add"]',
        "rejected AbortError: This operation was aborted",
        "rejected AbortError: This operation was aborted",
        "rejected AbortError: Code Mode: the session was disposed while this run was in flight.",
        "rejected Error: Code Mode: this session has been disposed; create a new one with createSession().",
        "rejected AbortError: Code Mode: the instance was disposed while this run was in flight.",
    ]);
});

for (const [name, args] of [
    ["node --frozen-intrinsics --disallow-code-generation-from-strings", ["--frozen-intrinsics", "--disallow-code-generation-from-strings", join(dir, "paths.mjs")]],
    ["SES lockdown() before the import", [lockdown({}, "before")]],
    ["SES lockdown() after the import", [lockdown({}, "after")]],
    ["SES lockdown() with its strictest tamings", [lockdown({ errorTaming: "safe", overrideTaming: "min", consoleTaming: "safe", evalTaming: "no-eval", stackFiltering: "concise", domainTaming: "safe" }, "before")]],
]) {
    test(`${name}: the same outcomes`, () => {
        assert.deepEqual(outcomes(args), plain);
    });
}

// One factory in the suite's mode: its run's result, or its error's message.
const ONE = `
const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
try {
    const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, worker: ${WORKER}, tools: [{ name: "add", execute: ({ a, b }) => a + b }] });
    console.log(JSON.stringify((await api.createSession().getLlmTools()[1].execute({ code: "return await tools.add({ a: 2, b: 40 })", explanation: "x" })).result));
    api.dispose();
} catch (e) {
    console.log(e.message);
}
`;
writeFileSync(join(dir, "one.mjs"), ONE);
// Node.js 22.13 and later name the model --permission; 20 only --experimental-permission.
const PERMISSION = process.allowedNodeEnvironmentFlags.has("--permission") ? "--permission" : "--experimental-permission";
const permitted = (...allow) => {
    const r = spawnSync(process.execPath, [PERMISSION, ...allow, join(dir, "one.mjs")], { encoding: "utf8", timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim();
};
const MODEL = String.raw`Access to this API has been restricted: Node\.js's permission model \(--permission, or --experimental-permission before Node\.js 22\) refuses`;

test("Node.js's permission model: reads allowed, worker threads not: worker mode names --allow-worker; with it, or in-thread, it runs", () => {
    if (WORKER) {
        assert.match(permitted("--allow-fs-read=*"), new RegExp(`^Code Mode: the engine's worker stopped: ${MODEL} worker threads; allow it with --allow-worker \\(or use worker: false\\)$`));
        assert.equal(permitted("--allow-fs-read=*", "--allow-worker"), "42");
    } else {
        assert.equal(permitted("--allow-fs-read=*"), "42");
    }
});

test("Node.js's permission model: the package's files not readable: the error names the file and the flag; the worker is held to the model too", () => {
    const out = permitted(`--allow-fs-read=${join(dir, "one.mjs")}`, `--allow-fs-read=${join(dist, "index.mjs")}`, ...(WORKER ? ["--allow-worker"] : []));
    const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // In-thread the core is read first; in worker mode the page's reads fail
    // quietly (the worker reads the files itself) and the worker's own file
    // is read as it starts. With execArgv [] the worker was free of the
    // model: it read them all and this printed 42.
    const file = escape(join(dist, WORKER ? "code-mode.worker.mjs" : "code-mode.wasm"));
    const head = WORKER ? "Code Mode: the engine's worker stopped: " : "Cannot load the Code Mode core from file://.*: ";
    assert.match(out, new RegExp(`^${head}${MODEL} reading ${file}; allow it with --allow-fs-read=${file}$`));
});

test("node --jitless (no WebAssembly): the factory says Code Mode needs WebAssembly and what turns it off", () => {
    const r = spawnSync(process.execPath, ["--jitless", join(dir, "one.mjs")], { encoding: "utf8", timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), "Code Mode needs WebAssembly, which this JavaScript engine does not have (WebAssembly is not defined): settings that turn off its JIT turn it off too (node or Chromium with --jitless; Apple's Lockdown Mode); allow WebAssembly here, or run Code Mode where it is on");
});
