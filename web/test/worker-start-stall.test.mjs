// @mode-independent: worker mode only (each case sets worker: true).
// A worker that goes silent in its start's fixed work (its script's load,
// its answer to init) is started once more, and a second silence ends the
// factory with an error naming the step (written for the engine suite's
// Firefox hang, "no answer within 150 s; steps begun: factory at 20", which
// turned out to be the app's worker blocked in the new Worker itself:
// browser-test/host-worker-files.mjs, BLOCKED_IN_NEW_WORKER).
// Each case runs in a child process with a copy of the package whose
// code-mode.worker.mjs is a stand-in that stalls where the case says, and
// whose setTimeout (installed before the import: the package keeps the
// timers it finds at load) makes the start's 60 s wait 5 s.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { assetPath, coreWasmPath, dist } from "./helpers.mjs";

// The stand-ins, beside the real worker (real-worker.mjs).
const STALLS = {
    // Its script never ends its evaluation (a timer keeps the thread alive).
    script: `setInterval(() => {}, 1 << 30);\nawait new Promise(() => {});\n`,
    // The real worker, which never gets init (a message lost on the way).
    init: `import { MessagePort } from "node:worker_threads";\nconst on = MessagePort.prototype.on;\nMessagePort.prototype.on = function (event, fn) {\n    return on.call(this, event, event === "message" ? (m) => (m && m.t === "init" ? undefined : fn(m)) : fn);\n};\nawait import("./real-worker.mjs");\n`,
    // The first worker stalls in its script, the next one is the real worker.
    once: `import { existsSync, writeFileSync } from "node:fs";\nconst mark = new URL("./stalled-once", import.meta.url);\nif (existsSync(mark)) await import("./real-worker.mjs");\nelse {\n    writeFileSync(mark, "");\n    setInterval(() => {}, 1 << 30);\n    await new Promise(() => {});\n}\n`,
};

const script = (indexURL) => `
const realSet = globalThis.setTimeout;
globalThis.setTimeout = function (fn, ms, ...args) { return realSet(fn, ms === 60000 ? 5000 : ms, ...args); };
const errors = [];
console.error = (...args) => errors.push(args.join(" "));
const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
const out = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, worker: true }).then(
    async (api) => {
        const r = await api.createSession().getLlmTools()[1].execute({ code: "return 6 * 7", explanation: "x" });
        api.dispose();
        return r.result;
    },
    (e) => e.message,
);
console.log(JSON.stringify({ out, errors }));
`;

function run(stall) {
    const dir = mkdtempSync(join(tmpdir(), "code-mode-stall-"));
    try {
        copyFileSync(join(dist, "index.mjs"), join(dir, "index.mjs"));
        copyFileSync(coreWasmPath, join(dir, "code-mode.wasm"));
        copyFileSync(join(dist, "code-mode.worker.mjs"), join(dir, "real-worker.mjs"));
        writeFileSync(join(dir, "code-mode.worker.mjs"), STALLS[stall]);
        // Before the watch, such a factory never settled: the child's timeout says so.
        const child = spawnSync(process.execPath, ["--input-type=module", "-e", script(pathToFileURL(join(dir, "index.mjs")).href)], { encoding: "utf8", timeout: 60_000 });
        assert.equal(child.status, 0, `${child.error ? `${child.error.message}: the factory never settled` : ""}\n${child.stderr}`);
        return JSON.parse(child.stdout.trim().split("\n").pop());
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}

const retried = (what) => `Code Mode: the engine's worker did not ${what} within 60 s: a new one is started`;

test("a worker whose script never loads: another is started, and when it does not load either the factory fails naming the step", () => {
    const { out, errors } = run("script");
    assert.equal(out, "Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: it did not run its script within 60 s, twice");
    assert.deepEqual(errors, [retried("run its script")]);
});

test("a worker that never answers init (a lost message): the factory fails naming the step, after a second worker", () => {
    const { out, errors } = run("init");
    assert.equal(out, "Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: it did not take init within 60 s, twice");
    assert.deepEqual(errors, [retried("take init")]);
});

test("a first worker that never loads, then one that does: the factory works, and the console names the step it was lost in", () => {
    const { out, errors } = run("once");
    assert.equal(out, 42);
    assert.deepEqual(errors, [retried("run its script")]);
});
