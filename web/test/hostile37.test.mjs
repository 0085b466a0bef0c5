// Attempts of the thirty-seventh session (security37), written before
// reading the code under test: host hooks and tools that answer with
// values whose reading throws, tools that return too much, schemas that
// cost too much to check, and what a run leaves to the next. Each row is
// what the page must get, in both engine modes (CODE_MODE_WORKER=1).
// In worker mode a toolFilter whose answer threw when its `then` was read
// (a getter, a revoked Proxy, a Proxy's get trap) failed IoCodeModeFactory
// (and left its worker running: the process never exited), registerTool
// and createSession; on the calling thread it hid the tool.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, run, tool, withFactory } from "./helpers.mjs";

const revoked = () => {
    const r = Proxy.revocable({}, {});
    r.revoke();
    return r.proxy;
};

describe("hostile37: host hooks, tool results and schemas that hurt", () => {
    test("a toolFilter answer whose then cannot be read hides the tool, wherever the filter is asked", async (t) => {
        const answers = {
            "a throwing then getter": () => ({ get then() { throw new Error("then getter"); } }),
            "a revoked Proxy": revoked,
            "a Proxy whose get trap throws": () => new Proxy({}, { get() { throw new Error("get trap"); } }),
        };
        for (const [what, answer] of Object.entries(answers)) {
            const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: answer, tools: [tool("made", () => 1)] });
            api.registerTool(tool("registered", () => 1));
            const s = api.createSession({ tools: [tool("own", () => 1)] });
            assert.deepEqual(api.listTools(), [], what);
            const r = await run(s, `const seen = []; for (const n of ["made", "registered", "own"]) { try { await tool_call(n, {}); seen.push(n); } catch (e) { if (!/unknown tool/.test(e.message)) seen.push(e.message); } } return seen;`);
            assert.deepEqual(r.result, [], `${what}: ${JSON.stringify(r.error ?? r.result)}`);
        }
    });
});
