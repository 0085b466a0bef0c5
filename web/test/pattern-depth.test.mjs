// A counted repeat in a catalog's pattern must not stop the engine. Go's
// regexp spelled .{1,576} (AWS accessanalyzer's
// "arn:[^:]*:iam::[^:]*:(role|user)/.{1,576}") as 575 nested optional
// copies and compiled them recursively, some 1,150 frames on V8's stack:
// after the page had loaded another module, registering it overflowed the
// stack ("Code Mode's engine stopped: the Go program failed: Maximum call
// stack size exceeded") and every later call of the factory failed.
import assert from "node:assert/strict";
import { test } from "node:test";
import { assetPath, dist, run, until, withFactory } from "./helpers.mjs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const AWS = "arn:[^:]*:iam::[^:]*:(role|user)/.{1,576}";
const schema = (pattern) => ({ type: "object", properties: { a: { type: "string", pattern } }, required: ["a"] });

test("large counted repeats register and check inputs after the page has loaded more code", async (t) => {
    const api = await withFactory(t, { wasmLocation: assetPath });
    const patterns = [".{1,576}", AWS, "^[a-z]{0,1000}$", "^(ab){1,1000}$", "(a|b){1,1000}?"];
    // The state catalogs30 found it in: a pattern registered and removed,
    // then a module the page had not loaded yet.
    api.registerTool({ name: "x.t", inputSchema: schema(".{1,576}"), execute: () => 1 })();
    await import(pathToFileURL(join(dist, "mcp.mjs")).href);
    patterns.forEach((pattern, i) => api.registerTool({ name: `x.t${i}`, inputSchema: schema(pattern), execute: () => "ok" }));
    await api.ready();
    const session = api.createSession();
    const r = await run(
        session,
        `const out = [];
        const tries = [["t0", "x".repeat(576)], ["t1", "arn:aws:iam::123456789012:role/" + "r".repeat(576)], ["t1", "arn:aws:s3:::bucket"],
            ["t2", "a".repeat(1000)], ["t2", "a".repeat(1001)], ["t3", "ab".repeat(1000)], ["t3", "ab".repeat(1000) + "a"], ["t4", "b"], ["t4", "c"]];
        for (const [t, a] of tries) {
            try { out.push(await tools.x[t]({ a })); } catch (e) { out.push(e.message); }
        }
        return out;`,
    );
    assert.equal(r.ok, true, JSON.stringify(r.error));
    const refused = (t, pattern) => (m) => typeof m === "string" && m.startsWith(`x.${t}: invalid input: /a: pattern:`) && m.includes(JSON.stringify(pattern));
    const want = ["ok", "ok", refused("t1", AWS), "ok", refused("t2", "^[a-z]{0,1000}$"), "ok", refused("t3", "^(ab){1,1000}$"), "ok", refused("t4", "(a|b){1,1000}?")];
    assert.equal(r.result.length, want.length);
    r.result.forEach((got, i) => (typeof want[i] === "string" ? assert.equal(got, want[i]) : assert.ok(want[i](got), `${i}: ${got}`)));
    // The factory lives on.
    assert.equal((await run(api.createSession(), "return 1 + 1")).result, 2);
});

test("a pattern nesting past Go's limit once its repeats are spelled out is refused as RE2's limits are", async (t) => {
    const api = await withFactory(t, { wasmLocation: assetPath });
    const deep = "(".repeat(900) + "a{1,64}" + ")".repeat(900);
    let message = "";
    const printed = [];
    const original = console.error;
    console.error = (...args) => printed.push(args.join(" "));
    try {
        api.registerTool({ name: "d.t", inputSchema: schema(deep), execute: () => 1 });
        await api.ready();
        // The page's copy of Go's parser leaves a pattern this deep to the
        // core: in a worker the core refuses it when the tool is sent, and
        // says so (console.error, no onError given).
        await until(() => printed.length > 0, "the worker's core to refuse the tool");
        message = printed.join("\n");
        assert.match(message, /^Code Mode: the engine refused tools registered earlier: /);
    } catch (e) {
        message = e.message;
    } finally {
        console.error = original;
    }
    assert.match(message, /cannot be enforced: Go's RE2 syntax takes a counted repeat .*expression nests too deeply/s);
    assert.equal((await run(api.createSession(), "return 1 + 1")).result, 2);
});
