// @mode-independent: each case sets worker itself, true and false.
// A Node.js agent is done once its last run ended and it disposed the
// factory (or dropped it): nothing of Code Mode's may keep the process
// alive. Each case runs in a child process whose setTimeout records every
// timer the package sets (installed before the import: the package keeps
// the timers it finds at load); at the end no timer of a second or more may
// still be pending with its ref held. After an aborted run in worker mode,
// the page's wait for the worker to answer the abort (5 s) was one: the
// process waited it out before exiting.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { assetPath, indexURL } from "./helpers.mjs";

const script = (worker, dispose, code) => `
const pending = new Map();
const realSet = globalThis.setTimeout, realClear = globalThis.clearTimeout;
globalThis.setTimeout = function (fn, ms, ...args) {
    const t = realSet(function () { pending.delete(t); return fn.apply(this, arguments); }, ms, ...args);
    pending.set(t, ms);
    return t;
};
globalThis.clearTimeout = function (t) { pending.delete(t); return realClear(t); };
const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, worker: ${worker}, timeout: 1500 });
const [, executeCode] = api.createSession().getLlmTools();
const c = new AbortController();
realSet(() => c.abort(new Error("stopped")), 100);
const out = await executeCode.execute({ code: ${JSON.stringify(code)}, explanation: "x" }, { signal: c.signal }).then((r) => r.error.code, (e) => e.message);
${dispose ? "api.dispose();" : ""}
await new Promise((r) => setImmediate(r));
const held = [...pending].filter(([t, ms]) => ms >= 1000 && t.hasRef()).map(([, ms]) => ms);
console.log(JSON.stringify({ out, held }));
`;

function run(worker, dispose, code) {
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script(worker, dispose, code)], { encoding: "utf8", timeout: 120_000 });
    assert.equal(child.status, 0, child.stderr);
    return JSON.parse(child.stdout.trim().split("\n").pop());
}

for (const worker of [true, false]) {
    for (const dispose of [true, false]) {
        test(`worker: ${worker}, ${dispose ? "disposed" : "dropped"}: after an aborted busy run no timer holds the process`, () => {
            // On the calling thread abort() can fire only once the run's
            // timeout freed the thread: the run ends TIMEOUT there.
            const { out, held } = run(worker, dispose, "for (;;) {}");
            assert.equal(out, worker ? "stopped" : "TIMEOUT");
            assert.deepEqual(held, []);
        });
    }
    test(`worker: ${worker}: after a run aborted while it awaits a timer, no timer holds the process`, () => {
        const { out, held } = run(worker, true, "await new Promise((r) => setTimeout(r, 60000)); return 1");
        assert.equal(out, "stopped");
        assert.deepEqual(held, []);
    });
}
