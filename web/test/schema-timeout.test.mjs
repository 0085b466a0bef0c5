// A run whose time goes to a tool's schema, in both engine modes
// (CODE_MODE_WORKER=1). The page's tools check their input inside the
// program's call, on the run's own thread: a check that took the run's time
// ended in a TIMEOUT that said only "did not finish within 2s", where the
// native build (whose tools the core calls on a goroutine of their own)
// named the tool and the check.
import assert from "node:assert/strict";
import { test } from "node:test";
import { assetPath, deepAnyOf, run, tool, withFactory } from "./helpers.mjs";

const deep = deepAnyOf;

test("a TIMEOUT that came while a tool's input was checked names the tool and the check", async (t) => {
    const api = await withFactory(t, { wasmLocation: assetPath, timeout: 2000 });
    api.registerTool(tool("deep.check", () => "ran", { inputSchema: deep }));
    await api.ready();
    const r = await run(api.createSession(), "let o = {}; for (let i = 0; i < 40; i++) o = { c: o }\nreturn await tools.deep.check(o)");
    assert.equal(r.error?.code, "TIMEOUT", JSON.stringify(r));
    assert.equal(r.error.message, "the program did not finish within 2s; it was checking the input of tool deep.check (called at line 2) against the tool's inputSchema");
});

// The same check of the tool's result against its outputSchema ended with
// the call's ToolError ("... the result cannot be checked against its
// outputSchema: the check against the schema was stopped: the run's time
// ran out"), which the program could catch and go on from; it is the
// input check's TIMEOUT, naming the tool and the check.
test("a TIMEOUT that came while a tool's result was checked names the tool and the check, also when the program catches the call's errors", async (t) => {
    const api = await withFactory(t, { wasmLocation: assetPath, timeout: 2000 });
    const nested = () => {
        let o = {};
        for (let i = 0; i < 40; i++) o = { c: o };
        return o;
    };
    api.registerTool(tool("deep.result", nested, { outputSchema: deep }));
    await api.ready();
    const want = "the program did not finish within 2s; it was checking the result of tool deep.result (called at line 1) against the tool's outputSchema";
    for (const code of ["return await tools.deep.result({})", "try { return await tools.deep.result({}) } catch (e) { return 'caught: ' + e.message }"]) {
        const r = await run(api.createSession(), code);
        assert.equal(r.error?.code, "TIMEOUT", JSON.stringify(r));
        assert.equal(r.error.message, want);
    }
});

// An anyOf of 100,000 alternatives: its first calls prepare and compile the
// schema, each going on where the last stopped, and their TIMEOUTs say so.
// Then an input matching none of them timed out at every call (100,000
// errors worded and sorted, longer than the run); now its ValidationError
// names the field, worded from the first 1,000 alternatives.
test("an anyOf of 100,000 alternatives: each TIMEOUT of a 2 s run names the tool and its check; an invalid input is refused in one roomy run, worded from the first 1,000 alternatives with a count of the rest; a valid input passes", async (t) => {
    const anyOf = Array.from({ length: 100_000 }, (_, i) => ({ const: i }));
    const inputSchema = { type: "object", properties: { v: { anyOf } } };
    const refused = "big.pick: invalid input:\n/v: const: got -1, want 0\n/v: const: got -1, want 1\n/v: const: got -1, want 10\n/v: const: got -1, want 100\n... and 996 more\n... and 99000 more alternatives that fail";
    const api = await withFactory(t, { wasmLocation: assetPath, timeout: 2000 });
    api.registerTool(tool("big.pick", () => "ran", { inputSchema }));
    await api.ready();
    const session = api.createSession();
    const said = /^the program did not finish within 2s(; it was (preparing the input schema of tool big\.pick \(called at line 1\)|checking the input of tool big\.pick \(called at line 1\) against the tool's inputSchema)| and held the engine past it .*)$/s;
    const timeouts = [];
    let r;
    for (let i = 0; i < 30; i++) {
        r = await run(session, "return await tools.big.pick({ v: -1 })");
        if (r.error?.code !== "TIMEOUT") break;
        timeouts.push(r.error.message);
    }
    // Each TIMEOUT names the tool: preparing its schema, or checking the
    // input once the preparation is done, which on a quiet machine it is
    // within the first run (that run then says "checking": this asserted
    // a "preparing" one, and failed 2 in 2 at load 2, main too; the
    // preparation's words: TestTimeoutNamesASchemaPreparation).
    for (const m of timeouts) assert.match(m, said);
    // The call that was not a TIMEOUT is the refusal. A whole check of the
    // input starts over at each call: 0.4-0.47 s of CPU, 3.5-7 s at load
    // ~24 on 2 cores, where each of the 30 calls passed 2 s (all TIMEOUTs
    // naming the check). What bounds the refusal is its words, worded from
    // the first 1,000 alternatives whatever the machine: asserted below in
    // one call with a timeout of 10 minutes, which only a check that never
    // ends reaches (the preparation and the check, 5.2 s of CPU, took 75 s
    // at load ~24; the old check, wording 100,000 errors, ran a quiet
    // machine's 2 s out at every call).
    if (r.error?.code !== "TIMEOUT") assert.equal(r.error?.message, refused, `after ${timeouts.length} TIMEOUTs: ${JSON.stringify(r.error)}`);
    const roomy = await withFactory(t, { wasmLocation: assetPath, timeout: 600_000 });
    roomy.registerTool(tool("big.pick", () => "ran", { inputSchema }));
    const other = roomy.createSession();
    const once = await run(other, "return await tools.big.pick({ v: -1 })");
    assert.equal(once.error?.name, "ValidationError", JSON.stringify(once.error));
    assert.equal(once.error.message, refused);
    // And a valid input passes, in both.
    const valid = await run(other, "return await tools.big.pick({ v: 99999 })");
    assert.equal(valid.result, "ran", JSON.stringify(valid.error));
    let first;
    for (let i = 0; i < 10; i++) {
        // After TIMEOUTs if the page replaced the worker, silent for 2 s
        // past a deadline (under load, Go work that polls nothing, a
        // collection of its heap or the compile's last steps, can hold it
        // so long; the new one prepares the schema again).
        first = await run(session, "return await tools.big.pick({ v: 99999 })");
        if (first.error?.code !== "TIMEOUT") break;
        assert.match(first.error.message, said);
    }
    if (first.error?.code !== "TIMEOUT") assert.equal(first.result, "ran", JSON.stringify(first.error));
});
