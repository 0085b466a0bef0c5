// The error table (errors-cases.mjs): each bad input meets the error it
// must, from the public API, in the mode of this process (in-thread, or
// CODE_MODE_WORKER=1 for worker_threads), and no message carries the
// implementation's own words (LEAKS).
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { cases, LEAKS, outcome } from "./errors-cases.mjs";
import { assetPath, coreWasmPath, dist, indexURL, WORKER } from "./helpers.mjs";

const { IoCodeModeFactory } = await import(indexURL);

const ctx = {
    worker: WORKER,
    wasm: assetPath,
    coreWasm: coreWasmPath,
    packageJson: join(dist, "package.json"),
    outcome,
    rawFactory: (/** @type {any[]} */ ...a) => IoCodeModeFactory(...a),
    // The mode is added as a key of the case's own config (a copy would
    // run its getters here, outside the factory).
    factory: (/** @type {any} */ config) => {
        if (config !== null && typeof config === "object" && !("worker" in config)) {
            Object.defineProperty(config, "worker", { value: WORKER, enumerable: true });
        }
        return IoCodeModeFactory(config);
    },
};

/** @param {unknown} o */
const show = (o) => JSON.stringify(o, (k, v) => (v instanceof Error ? undefined : typeof v === "bigint" ? `${v}n` : v));

// A case's id is how a failure and the notes name it: two cases with one
// id read as one.
test("every case has an id of its own", () => {
    const seen = new Set();
    for (const c of cases) {
        assert.ok(!seen.has(c.id), `two cases have the id ${c.id}`);
        seen.add(c.id);
    }
});

for (const c of cases) {
    test(`${c.id}: ${c.input}`, async () => {
        const o = await c.run(ctx);
        const text = show(o);
        assert.ok(c.want(o), `${c.id}: expected ${c.expect}\ngot ${text.slice(0, 2000)}`);
        assert.doesNotMatch(text, LEAKS, `${c.id}: the implementation's words reach the user`);
    });
}
