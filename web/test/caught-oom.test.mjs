// A program that fills its heap, catches the "out of memory" its limit
// throws, drops what it held and returns a value gets that value, in both
// engine modes (CODE_MODE_WORKER=1), wherever the limit falls after the
// program's own data. It ended MEMORY_LIMIT, uncaught, for about one
// layout in 40: where a string that just fit left less room than the next
// small block (the number of `"x".repeat(8192) + n`), QuickJS's limit
// refused that block, which the sandbox takes for a full heap (QuickJS
// cannot even make its error then). Small blocks now get a reserve past
// the limit (sandbox/internal/ffi/memcount.go); the Go side:
// sandbox TestCaughtOutOfMemoryReturns. A padding string of 0 to 8 KB moves
// the limit as a larger or smaller prelude would.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, run, withFactory, within } from "./helpers.mjs";

describe("a caught out-of-memory", () => {
    test("fill the heap with 8 KB strings, catch, drop them, return: the value, for a padding of every 64 B up to 8 KB", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 4, timeout: 60_000 });
        const session = api.createSession();
        const failed = [];
        for (let pad = 0; pad <= 8192; pad += 64) {
            const code = `const pad = "y".repeat(${pad}); let held = [], n = 0;
try { for (;;) { held.push("x".repeat(8192) + n); n++ } } catch (e) { held = null; return { n: n > 100, name: e.name, message: e.message } }`;
            const r = await within(run(session, code), 120_000);
            if (!r.ok || JSON.stringify(r.result) !== `{"n":true,"name":"InternalError","message":"out of memory"}`) failed.push([pad, r.ok ? r.result : r.error]);
        }
        assert.deepEqual(failed, []);
        const next = await within(run(session, "return 1 + 1"), 60_000);
        assert.equal(next.ok && next.result, 2);
    });
});
