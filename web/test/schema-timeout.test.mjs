// A run whose time goes to a tool's schema, in both engine modes
// (CODE_MODE_WORKER=1). The page's tools check their input inside the
// program's call, on the run's own thread: a check that took the run's time
// ended in a TIMEOUT that said only "did not finish within 2s", where the
// native build (whose tools the core calls on a goroutine of their own)
// named the tool and the check.
import assert from "node:assert/strict";
import { test } from "node:test";
import { assetPath, run, tool, withFactory } from "./helpers.mjs";

// An exponential anyOf: checking 40 levels of { c } against it takes far
// longer than a run (timeoutwait_test.go's TestTimeoutNamesAnInputCheck).
const deep = {
    $defs: {
        n: {
            anyOf: [
                { type: "object", properties: { c: { $ref: "#/$defs/n" } }, required: ["z"] },
                { type: "object", properties: { c: { $ref: "#/$defs/n" } }, required: ["y"] },
                { type: "object", properties: { c: { $ref: "#/$defs/n" } } },
            ],
        },
    },
    type: "object",
    properties: { c: { $ref: "#/$defs/n" } },
};

test("a TIMEOUT that came while a tool's input was checked names the tool and the check", async (t) => {
    const api = await withFactory(t, { wasmLocation: assetPath, timeout: 2000 });
    api.registerTool(tool("deep.check", () => "ran", { inputSchema: deep }));
    await api.ready();
    const r = await run(api.createSession(), "let o = {}; for (let i = 0; i < 40; i++) o = { c: o }\nreturn await tools.deep.check(o)");
    assert.equal(r.error?.code, "TIMEOUT", JSON.stringify(r));
    assert.equal(r.error.message, "the program did not finish within 2s; it was checking the input of tool deep.check (called at line 2) against the tool's inputSchema");
});
