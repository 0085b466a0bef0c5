// Attempts of the thirty-seventh session (security37), written before
// reading the code under test: host hooks and tools that answer with
// values whose reading throws, tools that return too much, schemas that
// cost too much to check, and what a run leaves to the next. Each row is
// what the page must get, in both engine modes (CODE_MODE_WORKER=1).
// In worker mode a toolFilter whose answer threw when its `then` was read
// (a getter, a revoked Proxy, a Proxy's get trap) failed IoCodeModeFactory
// (and left its worker running: the process never exited), registerTool
// and createSession; on the calling thread it hid the tool. A schema of
// n subschemas compiled in O(n^2) (the vendored jsonschema's queue found
// each location by a linear search): an anyOf of 100,000 consts held the
// page's thread 465 s on its first check, past a 5 s timeout (50,000:
// TIMEOUT at 60 s; now an answer in a few seconds). A tool's result that
// holds one object many times (40 levels of { l: o, r: o }: 2^40 values)
// was written out by JSON.stringify on the page's thread: in-thread the run
// ended at its timeout; in worker mode the page froze for good (11 min and
// 1.7 GB when stopped). Its conversion stops past what the run's memory
// limit can hold. A denial whose reason was a revoked Proxy said "the
// interceptor failed (... 'IsArray' on a proxy that has been revoked)" in
// worker mode only (the copy posted to the worker failed).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, run, tool, withFactory, within } from "./helpers.mjs";

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

    test("an anyOf of 50,000 alternatives compiles in time linear in its size: the call is checked, not ended by the timeout", async (t) => {
        const anyOf = Array.from({ length: 50_000 }, (_, i) => ({ const: i }));
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 60_000,
            tools: [tool("pick", ({ a }) => a, { inputSchema: { type: "object", properties: { a: { anyOf } } } })],
        });
        const s = api.createSession();
        const r = await within(run(s, `let bad; try { await tools.pick({ a: -1 }); } catch (e) { bad = e.message; } return [bad.split("\\n")[0], await tools.pick({ a: 49_999 })];`), 300_000);
        assert.notEqual(r, "hung");
        assert.deepEqual(r.result, ["pick: invalid input:", 49_999], JSON.stringify(r.error));
    });

    test("a tool's result that holds one object 2^40 times, under short or long keys, fails its call as too large, in both modes, and the next call works", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 30_000,
            memoryLimit: 16,
            tools: [
                tool("dag", () => {
                    let o = { v: 1 };
                    for (let i = 0; i < 40; i++) o = { l: o, r: o };
                    return o;
                }),
                // The same under keys of 1,000 characters: counted by its
                // values alone, the JSON passed V8's longest string (~1 GB
                // of the page's memory) before the count reached the limit.
                tool("keyed", () => {
                    const [a, b] = ["a", "b"].map((c) => c.repeat(1000));
                    let o = { v: 1 };
                    for (let i = 0; i < 40; i++) o = { [a]: o, [b]: o };
                    return o;
                }),
                tool("small", () => ({ l: "x", r: "x" })),
            ],
        });
        const s = api.createSession();
        const r = await run(s, `const m = []; for (const t of ["dag", "keyed"]) { try { await tools[t]({}); } catch (e) { m.push(e.message); } } return [...m, await tools.small({})];`);
        const tooLarge = (name) => `tool ${name} returned more than 16777216 characters of JSON, more than the run's memory limit (16 MB) can hold: ask it for less (a page, a filter), if its input allows`;
        assert.deepEqual(
            r.result,
            [
                tooLarge("dag"),
                tooLarge("keyed"),
                { l: "x", r: "x" },
            ],
            JSON.stringify(r.error),
        );
    });

    test("a denial's reason that is not a string is no reason, in both modes: even a revoked Proxy or a function", async (t) => {
        const reasons = [revoked(), () => "why", Symbol("why"), 5, { why: 1 }, null];
        let i = 0;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: () => ({ allowed: false, reason: reasons[i++] }) },
            tools: [tool("t", () => 1)],
        });
        const s = api.createSession();
        for (let k = 0; k < reasons.length; k++) {
            const r = await run(s, `try { await tools.t({}); return "ran"; } catch (e) { return e.message; }`);
            assert.deepEqual([r.result, r.toolCalls[0]?.reason], ["call to t denied: denied by onToolCall", "denied by onToolCall"], `reason ${k}`);
        }
    });
});
