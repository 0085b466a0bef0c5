// Page tools: registration, filtering, interceptors, and how tool values and
// failures reach the sandbox.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, llmTools, loadFactory, run, sleep, tool } from "./helpers.mjs";

let IoCodeModeFactory;
before(async () => {
    IoCodeModeFactory = await loadFactory();
});

const ok = (r) => {
    assert.equal(r.ok, true, `run failed: ${JSON.stringify(r)}`);
    return r.result;
};

describe("registerTool / registerTools", () => {
    let api;
    before(async () => {
        api = await IoCodeModeFactory({ wasmLocation: assetPath });
    });
    after(() => api.dispose());

    test("registers, lists (copies of the definitions) and unregisters", async () => {
        const def = tool("inventory.count", () => 7);
        const unregister = api.registerTool(def);
        assert.equal(typeof unregister, "function");
        const listed = api.listTools().find((t) => t.name === "inventory.count");
        assert.deepEqual(listed, def, "listTools returns the definition's fields");
        assert.notEqual(listed, def, "a copy, not the page's object");
        const session = api.createSession();
        assert.equal(ok(await run(session, "return await tools.inventory.count({})")), 7);
        unregister();
        unregister(); // idempotent
        assert.ok(!api.listTools().some((t) => t.name === "inventory.count"));
        const r = ok(await run(session, "try { await tool_call('inventory.count', {}); } catch (e) { return e.message }"));
        assert.match(r, /unknown tool/i);
        assert.equal(ok(await run(session, "return typeof tools.inventory")), "undefined");
    });

    test("registerTools adds all or nothing, and its unregister removes them all", () => {
        const before = api.listTools().length;
        assert.throws(() => api.registerTools([tool("batch.a", () => 1), tool("bad name", () => 1)]), TypeError);
        assert.equal(api.listTools().length, before, "nothing of a failed batch is registered");
        const unregister = api.registerTools([tool("batch.a", () => 1), tool("batch.b", () => 2)]);
        assert.equal(api.listTools().length, before + 2);
        unregister();
        assert.equal(api.listTools().length, before);
    });

    test("a duplicate name throws a TypeError", () => {
        const unregister = api.registerTool(tool("dup.tool", () => 1));
        try {
            assert.throws(() => api.registerTool(tool("dup.tool", () => 2)), (err) => err instanceof TypeError && /dup\.tool/.test(err.message));
            assert.throws(() => api.registerTools([tool("dup.other", () => 1), tool("dup.other", () => 1)]), TypeError);
        } finally {
            unregister();
        }
    });

    const invalid = [
        ["an empty name", ""],
        ["a space", "a b"],
        ["129 characters", "a".repeat(129)],
        ["non-ASCII", "héllo"],
        ["a slash", "a/b"],
        ["a number", 5],
        ["a missing name", undefined],
    ];
    for (const [what, name] of invalid) {
        test(`an invalid name (${what}) throws a TypeError`, () => {
            assert.throws(() => api.registerTool({ name, execute: () => 1 }), TypeError);
        });
    }

    // The worker checks names itself with tool.go's wording; a lone
    // surrogate reaches Go as U+FFFD, so the worker says U+FFFD too.
    test("an invalid name's message is the same in both modes (a lone surrogate is U+FFFD)", () => {
        const msg = (quoted, found, offset) => `tool ("${quoted}"): name: must be 1..128 characters of [A-Za-z0-9_$.-], found '${found}' at offset ${offset}`;
        for (const [name, message] of [
            ["ab\ud800c", msg("ab\ufffdc", "\ufffd", 2)],
            ["x\ud83d", msg("x\ufffd", "\ufffd", 1)],
            ["a\udc00\ud800.b", msg("a\ufffd\ufffd.b", "\ufffd", 1)],
            ["\ud800".repeat(42) + "ab", msg("\ufffd".repeat(42) + "ab", "\ufffd", 0)],
            ["a\u{1F600}", msg("a\u{1F600}", "\u{1F600}", 1)],
            ["h\u00e9llo", msg("h\u00e9llo", "\u00e9", 1)],
            ["a\tb", msg("a\\tb", "\\t", 1)],
        ]) {
            assert.throws(() => api.registerTool({ name, execute: () => 1 }), { name: "TypeError", message }, JSON.stringify(name));
        }
        assert.throws(() => api.registerTool({ name: "\ud800".repeat(43), execute: () => 1 }), { name: "TypeError", message: `tool ("${"\ufffd".repeat(43)}"): name: must be 1..128 characters of [A-Za-z0-9_$.-], got 129` });
    });

    // tools.orders.then would make tools.orders a thenable: `await
    // tools.orders` would call the tool with resolve and reject.
    test("a name ending in then is refused in both modes, with the same message", () => {
        for (const [name, awaited] of [["then", "tools"], ["orders.then", "tools.orders"], ["a.b.then", "tools.a.b"]]) {
            assert.throws(() => api.registerTool({ name, execute: () => 1 }), { name: "TypeError", message: `tool ("${name}"): name: must not end in "then": await ${awaited} would call the tool` });
        }
        api.registerTools([tool("orders.then.x", () => 1), tool("orders.thenx", () => 1)])();
    });

    // JSON.stringify calls an object's toJSON: JSON.stringify(tools), which
    // a program may write to look at what it has, called a tool named
    // toJSON (or x.toJSON, through tools.x), its approval and its side
    // effects included.
    test("a name ending in toJSON is refused in both modes, with the same message; JSON.stringify(tools) calls no tool", async () => {
        for (const [name, holder] of [["toJSON", "tools"], ["orders.toJSON", "tools.orders"], ["a.b.toJSON", "tools.a.b"]]) {
            assert.throws(() => api.registerTool({ name, execute: () => 1 }), { name: "TypeError", message: `tool ("${name}"): name: must not end in "toJSON": JSON.stringify(${holder}) would call the tool` });
        }
        let ran = 0;
        const unregister = api.registerTools([tool("orders.toJSON.x", () => ran++), tool("orders.tojson", () => ran++), tool("orders.list", () => ran++)]);
        try {
            const r = await run(api.createSession(), "return [JSON.stringify(tools.orders), JSON.stringify(tools).length > 0]");
            assert.deepEqual([r.result, r.toolCalls, ran], [['{"toJSON":{}}', true], [], 0], JSON.stringify(r));
        } finally {
            unregister();
        }
    });

    test("valid names: 128 characters, $, _, -, dots", () => {
        const names = ["a".repeat(128), "$x", "snake_case", "kebab-case", "deeply.nested.name.space"];
        const unregister = api.registerTools(names.map((n) => tool(n, () => n)));
        unregister();
    });

    test("a missing or non-function execute, or a non-object tool, throws a TypeError", () => {
        assert.throws(() => api.registerTool({ name: "noexec" }), /execute/);
        assert.throws(() => api.registerTool({ name: "noexec", execute: "x" }), TypeError);
        assert.throws(() => api.registerTool(null), TypeError);
        assert.throws(() => api.registerTool("tool"), TypeError);
        assert.throws(() => api.registerTools("not an array"), TypeError);
    });

    test("a hole in the list is refused as undefined, in its turn, and nothing of the list registers", () => {
        const refused = (i, got = "undefined") => ({ name: "TypeError", message: `tools[${i}]: expected a tool definition object, got ${got}` });
        assert.throws(() => api.registerTools([tool("hole.a", () => 1), , tool("hole.c", () => 3)]), refused(1));
        assert.throws(() => api.registerTools([tool("hole.a", () => 1), ,]), refused(1));
        assert.throws(() => api.registerTools([null, , tool("hole.c", () => 3)]), refused(0, "null"));
        assert.deepEqual(api.listTools().filter((t) => t.name.startsWith("hole.")), []);
    });

    test("session tools are visible to that session only", async () => {
        const a = api.createSession({ tools: [tool("session.only", () => "mine")] });
        const b = api.createSession();
        assert.equal(ok(await run(a, "return await tools.session.only({})")), "mine");
        assert.equal(ok(await run(b, "return typeof tools.session")), "undefined");
        assert.ok(!api.listTools().some((t) => t.name === "session.only"));
        assert.throws(() => api.createSession({ tools: [{ name: "x" }] }), TypeError);
    });
});

describe("toolFilter", () => {
    let api;
    const ran = [];
    before(async () => {
        api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            toolFilter: (t) => !t.name.startsWith("admin.") && !t.annotations?.hidden,
            tools: [
                tool("orders.list", () => ["o1"]),
                tool("admin.reset", () => ran.push("admin.reset"), { description: "Reset all orders" }),
                tool("orders.secret", () => ran.push("orders.secret"), { annotations: { hidden: true } }),
            ],
        });
    });
    after(() => api.dispose());

    test("hides tools from listTools", () => {
        assert.deepEqual(api.listTools().map((t) => t.name), ["orders.list"]);
    });

    test("hides tools from tool_search, searchTools and the instructions", async () => {
        const session = api.createSession();
        // A query about the hidden tools finds nothing, not the visible
        // tool that shares a word with it.
        const hits = ok(await run(session, "return await tool_search({ query: 'reset orders secret', limit: 50 })"));
        assert.deepEqual(hits, []);
        assert.deepEqual((await llmTools(session).searchTools.execute({ query: "", limit: 50 })).map((h) => h.name), ["orders.list"]);
        const hits2 = await llmTools(session).searchTools.execute({ query: "reset" });
        assert.ok(!hits2.some((h) => h.name === "admin.reset"));
        assert.doesNotMatch(session.getSystemInstruction(), /admin|secret/);
    });

    test("hides tools from tools.* and makes tool_call fail as an unknown tool", async () => {
        const session = api.createSession();
        const r = ok(
            await run(
                session,
                `const out = { admin: typeof tools.admin, secret: typeof tools.orders.secret };
                 for (const n of ["admin.reset", "orders.secret"]) {
                   try { await tool_call(n, {}); out[n] = "ran"; } catch (e) { out[n] = e.message; }
                 }
                 return out;`,
            ),
        );
        assert.equal(r.admin, "undefined");
        assert.equal(r.secret, "undefined");
        assert.match(r["admin.reset"], /unknown tool/i);
        assert.match(r["orders.secret"], /unknown tool/i);
        assert.deepEqual(ran, []);
    });

    // Two live sessions may each have a tool of their own under one name;
    // toolFilter judges each definition, so one session can show it while
    // the other hides it. In worker mode the worker kept one list of shown
    // names for the factory and left out any name one definition hid: the
    // session that shows "notes.add" got "unknown tool".
    test("judges each session's own tools apart: one shows a name another hides", async () => {
        const calls = [];
        const shown = api.createSession({ tools: [tool("notes.add", () => calls.push("shown") && "added")] });
        const hidden = api.createSession({ tools: [tool("notes.add", () => calls.push("hidden"), { annotations: { hidden: true } })] });
        const probe = `const out = { type: typeof tools.notes?.add };
            try { out.value = await tool_call("notes.add", {}); } catch (e) { out.error = e.message; }
            return out;`;
        assert.deepEqual(ok(await run(shown, probe)), { type: "function", value: "added" });
        const h = ok(await run(hidden, probe));
        assert.equal(h.type, "undefined");
        assert.match(h.error, /unknown tool/i);
        // And again once the shown session has run: nothing it did shows the
        // other's, nor hides its own.
        assert.deepEqual(ok(await run(shown, probe)), { type: "function", value: "added" });
        assert.match(ok(await run(hidden, probe)).error, /unknown tool/i);
        assert.deepEqual(calls, ["shown", "shown"]);
        shown.dispose();
        hidden.dispose();
    });
});

describe("interceptors.onToolCall", () => {
    let api;
    let session;
    const executed = [];
    let decide = async () => ({ allowed: true });
    const seen = [];
    before(async () => {
        api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            interceptors: {
                onToolCall: (c) => {
                    seen.push(c);
                    return decide(c);
                },
            },
            tools: [
                tool("bank.pay", (input) => {
                    executed.push(input);
                    return { paid: input.amount };
                }, { inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] } }),
            ],
        });
        session = api.createSession();
    });
    after(() => api.dispose());

    const pay = async () => {
        executed.length = 0;
        seen.length = 0;
        return ok(
            await run(session, "try { return { value: await tools.bank.pay({ amount: 5 }) }; } catch (e) { return { error: e.message, name: e.name }; }"),
        );
    };

    test("allow keeps the input; the interceptor sees tool, input and callContext", async () => {
        decide = async () => ({ allowed: true });
        const ctx = { user: "u" };
        executed.length = 0;
        seen.length = 0;
        const r = await run(session, "return await tools.bank.pay({ amount: 5 })", { context: ctx });
        assert.deepEqual(ok(r), { paid: 5 });
        assert.equal(seen.length, 1);
        assert.equal(seen[0].tool.name, "bank.pay");
        assert.deepEqual(seen[0].input, { amount: 5 });
        assert.equal(seen[0].callContext, ctx);
        assert.deepEqual(r.toolCalls.map((c) => [c.name, c.allowed, c.ok]), [["bank.pay", true, true]]);
    });

    test("deny with a reason: the call throws that reason in the sandbox", async () => {
        decide = async () => ({ allowed: false, reason: "Over the daily limit." });
        const r = await pay();
        assert.match(r.error, /Over the daily limit\./);
        assert.deepEqual(executed, []);
    });

    test("allow with a replacement input runs the tool with it", async () => {
        decide = async ({ input }) => ({ allowed: true, input: { amount: input.amount * 10 } });
        const r = await pay();
        assert.deepEqual(r.value, { paid: 50 });
        assert.deepEqual(executed, [{ amount: 50 }]);
    });

    test("a replacement input is validated against the schema", async () => {
        decide = async () => ({ allowed: true, input: { amount: "lots" } });
        const r = await pay();
        assert.match(r.error, /amount/);
        assert.deepEqual(executed, []);
    });

    test("a synchronous decision works too", async () => {
        decide = () => ({ allowed: true });
        assert.deepEqual((await pay()).value, { paid: 5 });
    });

    const failClosed = [
        ["throws", () => {
            throw new Error("interceptor exploded");
        }, /interceptor exploded|interceptor/],
        ["rejects", () => Promise.reject(new Error("interceptor rejected")), /interceptor rejected|interceptor/],
        ["returns undefined", () => undefined, /interceptor|onToolCall/],
        ["returns a string", () => "yes", /interceptor|onToolCall/],
        ["returns {allowed: 'true'}", () => ({ allowed: "true" }), /interceptor|onToolCall/],
        ["returns {}", async () => ({}), /interceptor|onToolCall/],
    ];
    for (const [what, fn, message] of failClosed) {
        test(`an interceptor that ${what} denies the call (fail closed)`, async () => {
            decide = fn;
            const r = await pay();
            assert.ok(r.error, `the call must fail: ${JSON.stringify(r)}`);
            assert.match(r.error, message);
            assert.deepEqual(executed, [], "the tool did not run");
        });
    }
});

describe("tool values and failures", () => {
    let api;
    let session;
    let neverSignal;
    before(async () => {
        api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            timeout: 1500,
            tools: [
                tool("t.sync", (input) => ({ echo: input, kind: "sync" })),
                tool("t.async", async (input) => {
                    await sleep(5);
                    return { echo: input, kind: "async" };
                }),
                tool("t.date", () => ({ at: new Date(Date.UTC(2020, 0, 2, 3, 4, 5)) })),
                tool("t.undefined", () => undefined),
                tool("t.nested", () => ({ a: [1, "two", null, { b: true }], n: 1.5 })),
                tool("t.throws", () => {
                    throw new Error("the warehouse is closed");
                }),
                tool("t.throwsTypeError", () => {
                    throw new TypeError("bad sku");
                }),
                tool("t.rejects", () => Promise.reject(new Error("upstream 503"))),
                tool("t.function", () => () => 1),
                tool("t.bigint", () => 10n),
                tool("t.never", (input, { signal }) => {
                    neverSignal = signal;
                    return new Promise(() => {});
                }),
            ],
        });
        session = api.createSession();
    });
    after(() => api.dispose());

    const attempt = (call) =>
        run(session, `try { return { value: await ${call} }; } catch (e) { return { error: e.message, name: e.name }; }`).then(ok);

    test("sync and async tools", async () => {
        assert.deepEqual(await attempt("tools.t.sync({ x: 1 })"), { value: { echo: { x: 1 }, kind: "sync" } });
        assert.deepEqual(await attempt("tools.t.async({ x: 2 })"), { value: { echo: { x: 2 }, kind: "async" } });
        assert.deepEqual(await attempt("tool_call('t.async', { x: 3 })"), { value: { echo: { x: 3 }, kind: "async" } });
    });

    test("values come back as structured copies: Date as ISO string, undefined as absent", async () => {
        assert.deepEqual(await attempt("tools.t.date()"), { value: { at: "2020-01-02T03:04:05.000Z" } });
        assert.deepEqual(await attempt("tools.t.undefined()"), {});
        assert.deepEqual(await attempt("tools.t.nested()"), { value: { a: [1, "two", null, { b: true }], n: 1.5 } });
    });

    test("a tool that throws: its message reaches the sandbox", async () => {
        assert.equal((await attempt("tools.t.throws()")).error, "the warehouse is closed");
        assert.equal((await attempt("tools.t.throwsTypeError()")).error, "bad sku");
        const r = await run(session, "await tools.t.throws()");
        assert.equal(r.ok, false);
        assert.equal(r.error.code, "RUNTIME");
        assert.match(r.error.message, /the warehouse is closed/);
        assert.deepEqual(r.toolCalls.map((c) => [c.name, c.allowed, c.ok]), [["t.throws", true, false]]);
        assert.match(r.toolCalls[0].reason, /the warehouse is closed/);
    });

    test("a tool that rejects: its message reaches the sandbox", async () => {
        assert.equal((await attempt("tools.t.rejects()")).error, "upstream 503");
    });

    test("a tool that returns a BigInt fails the call with a clear error", async () => {
        // itself, not inside its value (which converts to a string)
        assert.deepEqual(await attempt("tools.t.bigint()"), { error: "the tool returned a bigint, which is not JSON data", name: "ToolError" });
    });

    test("a tool that returns a function fails the call with a clear error", async () => {
        const r = await attempt("tools.t.function()");
        assert.ok(r.error, `a function is not JSON data, the call must fail: ${JSON.stringify(r)}`);
        assert.match(r.error, /JSON|function|serializ|clone/i);
    });

    test("a tool that never settles: the run times out and the tool's signal is aborted", async () => {
        const start = Date.now();
        const r = await run(session, "await tools.t.never({}); return 'unreachable'");
        const elapsed = Date.now() - start;
        assert.equal(r.ok, false);
        assert.equal(r.error.code, "TIMEOUT");
        // The upper bound is a safety net (a timeout that did not count the
        // wait would hang for good), not a measurement.
        assert.ok(elapsed >= 1400 && elapsed < 15_000, `took ${elapsed} ms for a 1500 ms timeout`);
        assert.ok(neverSignal instanceof AbortSignal);
        assert.equal(neverSignal.aborted, true);
        // The session keeps working.
        assert.deepEqual(await attempt("tools.t.sync({})"), { value: { echo: {}, kind: "sync" } });
    });

    test("the input is checked against inputSchema, naming the path", async () => {
        const unregister = api.registerTool(
            tool("t.validated", (i) => i, {
                inputSchema: {
                    type: "object",
                    properties: { sku: { type: "string" }, qty: { type: "integer", minimum: 1 } },
                    required: ["sku"],
                },
            }),
        );
        try {
            const s = api.createSession();
            const missing = ok(await run(s, "try { await tools.t.validated({ qty: 1 }) } catch (e) { return e.message }"));
            assert.match(missing, /sku/);
            const low = ok(await run(s, "try { await tools.t.validated({ sku: 'a', qty: 0 }) } catch (e) { return e.message }"));
            assert.match(low, /qty/);
            assert.deepEqual(ok(await run(s, "return await tools.t.validated({ sku: 'a', qty: 2 })")), { sku: "a", qty: 2 });
        } finally {
            unregister();
        }
    });
});
