// @mode-independent: its factories are in-thread (worker: false), the mode whose warm-up it checks.
// A factory warms the engine up before it returns (web/src/warm-up.mjs):
// the first run that awaits a timer and a tool must not compile, inside its
// timeout, the code of those paths. What is checked is what V8 compiles on
// first use, counted with --trace-wasm-compilation-times in fresh
// processes (a count of functions, not a time: the same on any machine),
// and that the warm-up leaves nothing a host or a program can see.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { assetPath, indexURL, tool } from "./helpers.mjs";

// A fresh process: a factory, then (what === "run") one run that awaits a
// timer and a tool. The engine's WebAssembly functions compiled on first
// use are the "using Liftoff" lines V8 prints (its first tier; every
// function gets one before it runs); the process's total is counted, as
// V8 buffers these lines apart from what JavaScript writes.
const CHILD = `
const [indexURL, assetPath, mode, what] = process.argv.slice(1);
const { IoCodeModeFactory } = await import(indexURL);
const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker: mode === "worker",
    tools: [{ name: "echo", description: "Echo.", inputSchema: { type: "object" }, execute: async (x) => x }] });
await api.ready();
const [, exec] = api.createSession().getLlmTools();
if (what === "run") {
    const r = await exec.execute({ code: "await new Promise((r) => setTimeout(r, 5));\\nreturn (await tools.echo({ i: 1 })).i", explanation: "" });
    if (r.result !== 1) throw new Error(JSON.stringify(r));
}
api.dispose();
`;

/** @returns {number} the WebAssembly functions V8 compiled in the child */
function compiled(mode, what) {
    const r = spawnSync(process.execPath, ["--trace-wasm-compilation-times", "--input-type=module", "-e", CHILD, indexURL, assetPath, mode, what], {
        encoding: "utf8",
        maxBuffer: 64 << 20,
    });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.split("\n").filter((l) => l.includes(" using Liftoff")).length;
}

// Measured before the warm-up (main at ad16a7c): the run compiled 1,103
// functions; with it, 28. Worker mode warms up in its worker, but there
// the count varies from one process to the next (the worker is ended
// while its compilers may still print), so it is not checked here.
test("thread: the first run awaiting a timer and a tool compiles little of the engine, the factory did", { timeout: 120_000 }, () => {
    const factory = compiled("thread", "factory");
    // The trace works, and the factory's making compiled the engine.
    assert.ok(factory > 500, `only ${factory} functions compiled by the factory: is --trace-wasm-compilation-times still printing "using Liftoff"?`);
    const run = compiled("thread", "run") - factory;
    assert.ok(run < 100, `the first run compiled ${run} WebAssembly functions (at most 100 expected): the factory's warm-up no longer covers the paths a run's first awaits take`);
});

test("thread: the warm-up leaves no trace: no event, tool call, interceptor call or console line, and clean globals", { timeout: 60_000 }, async () => {
    // This process's first in-thread factory is the one that warms up.
    const { IoCodeModeFactory } = await import(indexURL);
    const seen = [];
    const names = ["log", "info", "warn", "error", "debug", "trace"];
    const saved = names.map((n) => console[n]);
    names.forEach((n) => (console[n] = (...a) => seen.push(`console.${n} ${a.join(" ")}`)));
    let api;
    try {
        api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            worker: false,
            onEvent: (e) => seen.push(`event ${e.type}`),
            interceptors: {
                onToolCall: (c) => {
                    seen.push(`onToolCall ${c.tool.name}`);
                    return { allowed: true };
                },
            },
            tools: [tool("echo", async (x) => (seen.push("echo"), x))],
        });
    } finally {
        names.forEach((n, i) => (console[n] = saved[i]));
    }
    try {
        assert.deepEqual(seen, [], "nothing seen while the factory was made");
        const [, exec] = api.createSession().getLlmTools();
        const code =
            "await new Promise((r) => setTimeout(r, 1));\n" +
            "const before = Object.getOwnPropertyNames(globalThis).sort();\n" +
            "await tools.echo({ i: 1 });\n" +
            "return { globals: before, warm: typeof tools.warm, names: Object.keys(tools) };";
        const first = await exec.execute({ code, explanation: "" });
        const second = await exec.execute({ code, explanation: "" });
        assert.equal(first.ok, true, JSON.stringify(first.error));
        assert.deepEqual(first.result, second.result, "the first run's globals and tools are those of any later run");
        assert.equal(first.result.warm, "undefined");
        assert.deepEqual(first.result.names, ["echo"]);
        assert.deepEqual(first.logs, []);
        assert.deepEqual(
            first.toolCalls.map((c) => c.name),
            ["echo"],
        );
        const perRun = ["event run-start", "event tool-call", "onToolCall echo", "echo", "event tool-result", "event run-end"];
        assert.deepEqual(seen.filter((s) => !s.startsWith("event") || perRun.includes(s)), seen);
        assert.equal(seen.filter((s) => s === "echo").length, 2, "the page's tool ran once per run, never for the warm-up");
        assert.equal(seen.filter((s) => s === "event run-start").length, 2);
    } finally {
        api.dispose();
    }
});
