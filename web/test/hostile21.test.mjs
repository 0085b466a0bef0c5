// Attacks from outside, fourth round (hostile21): a run that exhausts what
// it is given (a million unawaited tool calls, timers, a console flood,
// Proxy chains, BigInts, memory through a tool's input, getters of its
// result), a page's own tool results that are hostile to Code Mode (traps
// and toJSON that throw, a 500 MB typed array, a result too large for the
// run's memory, a value that settles after dispose), limits given as
// strings or odd numbers, a run's lifecycle (dispose during a long call, a
// signal aborted before the run), and what a model sends after reading a
// large catalog (names respelt, a namespace called as a tool, positional
// or JSON-text arguments). Each row states the safe outcome and checks that
// the next run of the same factory works, in both engine modes
// (CODE_MODE_WORKER=1).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, loadFactory, run, sleep, tool, withFactory, within } from "./helpers.mjs";

/** The run's result, or the assertion that it had one. */
const ok = (r) => {
    assert.notEqual(r, "hung");
    assert.equal(r.ok, true, JSON.stringify(r.error));
    return r.result;
};

/** The run failed with `code` and a message holding each of `words`. */
const failed = (r, code, ...words) => {
    assert.notEqual(r, "hung");
    assert.equal(r.ok, false, JSON.stringify(r.result));
    assert.equal(r.error.code, code, r.error.message);
    for (const w of words) assert.ok(r.error.message.includes(w), `${JSON.stringify(w)} not in ${r.error.message}`);
};

/** The session still runs programs. */
async function nextRunWorks(s) {
    assert.equal(ok(await within(run(s, "return 41 + 1"), 30_000)), 42);
}

describe("a run that exhausts what it is given ends clearly, and the next run works", () => {
    // [what, code, check(result, executes)]
    const rows = [
        ["a million tool calls never awaited", "for (let i = 0; i < 1e6; i++) tools.t.x({}).catch(() => {}); return 1", (r, n) => {
            failed(r, "TOOL_LIMIT", "more than 1000 tool calls");
            assert.ok(n <= 1000, `${n} executes`);
            assert.ok(JSON.stringify(r).length < 500_000);
        }],
        // The end's read of which calls the program observed was cut short
        // in the stopped run: each caught call was warned "not awaited".
        ["a thousand failing calls awaited and caught, then the call limit", "for (let i = 0; i < 1005; i++) { try { await tool_call('t.nope' + i, {}) } catch {} }", (r) => {
            failed(r, "TOOL_LIMIT", "more than 1000 tool calls");
            assert.deepEqual(r.logs.filter((l) => l.message.includes("not awaited")), []);
        }],
        ["100,000 timers", "for (let i = 0; i < 1e5; i++) setTimeout(() => console.log('y'.repeat(1000)), 0); await new Promise((r) => setTimeout(r, 50)); return 1",
            (r) => failed(r, "RUNTIME", "more than 1000 timers are pending")],
        ["a console flood of 1 GB", "const m = 'z'.repeat(1e6); for (let i = 0; i < 1000; i++) console.log(m); return 1", (r) => {
            assert.equal(ok(r), 1);
            assert.ok(JSON.stringify(r).length < 100_000, `${JSON.stringify(r).length} chars`);
        }],
        ["catastrophic backtracking in an input schema's pattern", "return await tools.t.pat({ s: 'a'.repeat(40) + '!' })",
            (r) => failed(r, "RUNTIME", "t.pat: invalid input", "/s: pattern")],
        ["a BigInt past QuickJS's size", "const b = 2n ** 2000000n; return b.toString().length", (r) => failed(r, "RUNTIME", "BigInt is too large")],
        ["a large BigInt in a tool's input", "return await tools.t.x({ n: 10n ** 1000n })", (r, n) => {
            assert.equal(ok(r), 1);
            assert.equal(n, 1);
            assert.ok(r.logs.some((l) => l.message === "input.n: a BigInt, converted to a string"), JSON.stringify(r.logs));
        }],
        ["a Proxy chain 100,000 deep, read", "let p = {}; for (let i = 0; i < 1e5; i++) p = new Proxy(p, {}); return p.x ?? 'none'",
            (r) => failed(r, "RUNTIME", "stack overflow")],
        ["a Proxy chain 100,000 deep, returned", "let p = { a: 1 }; for (let i = 0; i < 1e5; i++) p = new Proxy(p, {}); return p",
            (r) => failed(r, "RUNTIME", "stack overflow")],
        ["a Proxy chain 100,000 deep, as a tool's input", "let p = { a: 1 }; for (let i = 0; i < 1e5; i++) p = new Proxy(p, {}); return await tools.t.x(p)", (r, n) => {
            failed(r, "RUNTIME", "stack overflow");
            assert.equal(n, 0);
        }],
        ["a string doubled to the memory limit in a tool's input", "let s = 'x'.repeat(2 ** 20); for (;;) { s = s + s; await tools.t.x({ s }) }",
            (r) => failed(r, "MEMORY_LIMIT", "memory limit is 64 MB")],
        ["10,000 nested arrays returned", "let a = []; for (let i = 0; i < 1e4; i++) a = [a]; return a",
            (r) => failed(r, "RESULT_NOT_SERIALIZABLE", "more than 1,000 levels deep")],
        ["10,000 nested arrays as a tool's input", "let a = []; for (let i = 0; i < 1e4; i++) a = [a]; return await tools.t.x({ a })", (r, n) => {
            failed(r, "RUNTIME", "more than 1,000 levels deep");
            assert.equal(n, 0);
        }],
        ["a getter of the result that allocates for ever", "return { get x() { const a = []; for (;;) a.push('x'.repeat(1000)) } }",
            (r) => failed(r, "MEMORY_LIMIT", "memory limit is 64 MB")],
        ["a result whose toJSON returns itself", "const o = { a: 1 }; o.toJSON = () => o; return o", (r) => assert.deepEqual(ok(r), { a: 1 })],
        ["a result whose toJSON makes a new one each time", "const mk = () => ({ toJSON: mk }); return mk()", (r) => assert.deepEqual(ok(r), {})],
    ];
    for (const [what, code, check] of rows) {
        test(what, async (t) => {
            let n = 0;
            const api = await withFactory(t, {
                wasmLocation: assetPath,
                timeout: 20_000,
                memoryLimit: 64,
                tools: [
                    tool("t.x", () => { n++; return 1; }),
                    tool("t.pat", () => "matched", { inputSchema: { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } } }),
                ],
            });
            const s = api.createSession();
            check(await within(run(s, code), 60_000), n);
            await nextRunWorks(s);
        });
    }

    test("a getter of the result that loops for ever ends at the timeout", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 500 });
        const s = api.createSession();
        failed(await within(run(s, "return { get x() { for (;;) {} } }"), 30_000), "TIMEOUT");
        await nextRunWorks(s);
    });
});

describe("a page tool's result that is hostile to Code Mode", () => {
    const boom = () => { throw new Error("TRAP_BOOM"); };
    // [what, the tool's value, check(result of `return await tools.p.x({})`)]
    const rows = [
        ["a Proxy whose getPrototypeOf throws", () => new Proxy({ a: 1 }, { getPrototypeOf: boom }), (r) => failed(r, "RUNTIME", "TRAP_BOOM")],
        ["a Proxy whose getOwnPropertyDescriptor throws", () => new Proxy({ a: 1 }, { getOwnPropertyDescriptor: boom }), (r) => failed(r, "RUNTIME", "not JSON data: TRAP_BOOM")],
        ["a Proxy whose every trap throws", () => new Proxy({ a: 1 }, { has: boom, get: boom, ownKeys: boom, getPrototypeOf: boom, getOwnPropertyDescriptor: boom }),
            (r) => failed(r, "RUNTIME", "TRAP_BOOM")],
        ["an array Proxy whose length throws", () => new Proxy([1, 2], { get: (o, k) => (k === "length" ? boom() : o[k]) }), (r) => failed(r, "RUNTIME", "TRAP_BOOM")],
        ["a toJSON that throws", () => ({ a: 1, toJSON: () => { throw new Error("TOJSON_BOOM"); } }), (r) => failed(r, "RUNTIME", "not JSON data: TOJSON_BOOM")],
        ["a toJSON that returns itself", () => { const o = { a: 1 }; o.toJSON = () => o; return o; }, (r) => assert.deepEqual(ok(r), { a: 1 })],
        ["a toJSON that makes a new one each time", () => { const mk = () => ({ toJSON: mk }); return mk(); }, (r) => assert.deepEqual(ok(r), {})],
        ["a 500 MB typed array", () => new Uint8Array(5e8), (r) => failed(r, "RUNTIME", "an array of 500000000 elements, more than the 1000000")],
        ["a sparse array of length 1e9", () => { const a = []; a[1e9] = 1; return a; }, (r) => failed(r, "RUNTIME", "an array of 1000000001 elements")],
        ["BigInt, Symbol and function values inside", () => ({ b: 10n, s: Symbol("q"), f() {}, d: new Date(NaN) }), (r) => {
            assert.deepEqual(ok(r), { b: "10", s: "Symbol(q)", d: null });
            assert.equal(r.logs.length, 3, JSON.stringify(r.logs));
        }],
        // The run's memory (16 MB here) cannot hold the text: the call
        // fails, naming the tool, where the whole run ended MEMORY_LIMIT.
        ["a string longer than the run's memory holds", () => "s".repeat(2e7),
            (r) => failed(r, "RUNTIME", "tool p.x returned 20000002 characters of JSON, more than the run's memory limit (16 MB) can hold")],
        ["a toJSON giving a text longer than the run's memory holds", () => ({ toJSON: () => "s".repeat(2e7) }),
            (r) => failed(r, "RUNTIME", "tool p.x returned 20000002 characters of JSON, more than the run's memory limit (16 MB)")],
    ];
    for (const [what, value, check] of rows) {
        test(what, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 16, tools: [tool("p.x", value)] });
            const s = api.createSession();
            check(await within(run(s, "return await tools.p.x({})"), 60_000));
            await nextRunWorks(s);
        });
    }

    test("a too large result is a ToolError the program catches, its call recorded as failed", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 16, tools: [tool("p.x", () => "s".repeat(2e7))] });
        const s = api.createSession();
        const r = await within(run(s, "try { await tools.p.x({}) } catch (e) { return e.name + ': ' + e.message.slice(0, 37) }"), 60_000);
        assert.equal(ok(r), "ToolError: tool p.x returned 20000002 characters");
        assert.equal(r.toolCalls.length, 1);
        assert.equal(r.toolCalls[0].ok, false);
        assert.match(r.toolCalls[0].reason, /memory limit \(16 MB\)/);
    });

    test("a getter of the tool's result that runs executeCode of the same session", async (t) => {
        let s;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [
                tool("p.get", () => ({ get nested() { return run(s, "return 5").then((r) => r.result); } })),
                tool("p.async", async () => (await run(s, "return 5")).result),
            ],
        });
        s = api.createSession();
        const r = await within(run(s, "return await tools.p.get({})"), 30_000);
        assert.deepEqual(ok(r), { nested: null });
        assert.match(r.logs[0].message, /result\.nested: a Promise, converted to null/);
        assert.equal(ok(await within(run(s, "return await tools.p.async({})"), 30_000)), 5);
    });

    test("a tool value that settles after dispose() changes nothing", async (t) => {
        const unhandled = [];
        const onUnhandled = (e) => unhandled.push(e);
        process.on("unhandledRejection", onUnhandled);
        t.after(() => process.off("unhandledRejection", onUnhandled));
        const IoCodeModeFactory = await loadFactory();
        let settle;
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: [tool("p.late", () => new Promise((r) => { settle = r; }))] });
        const s = api.createSession();
        const p = run(s, "return await tools.p.late({})");
        while (!settle) await sleep(10);
        await api.dispose();
        await assert.rejects(within(p, 10_000), /disposed/);
        settle({ late: true });
        await sleep(50);
        assert.deepEqual(unhandled, []);
        await assert.rejects(async () => run(s, "return 1"), /disposed/);
    });
});

describe("limits as odd values, and a run's lifecycle", () => {
    // [config field, value, what the TypeError says]
    const rows = [
        ["timeout", 0, "config.timeout: expected a positive number, got the number 0"],
        ["timeout", -1, "got the number -1"],
        ["timeout", Infinity, "config.timeout: expected a finite positive number, got the number Infinity"],
        ["timeout", NaN, "config.timeout: expected a finite positive number, got the number NaN"],
        ["timeout", "5", 'config.timeout: expected a positive number, got the string "5"'],
        ["timeout", null, "config.timeout: expected a positive number, got null"],
        ["timeout", true, "got boolean"],
        ["timeout", 86_400_001, "config.timeout: must be at most 24h (86400000 ms)"],
        ["maxResultChars", 99, "config.maxResultChars: must be >= 100"],
        ["maxResultChars", 10_000_001, "config.maxResultChars: must be at most 10000000"],
        ["maxResultChars", "20000", 'config.maxResultChars: expected a positive integer, got the string "20000"'],
        ["maxResultChars", Infinity, "config.maxResultChars: expected a finite positive integer, got the number Infinity"],
        ["memoryLimit", "64", 'config.memoryLimit: expected a positive integer, got the string "64"'],
        ["memoryLimit", 0.5, "config.memoryLimit: expected a positive integer, got the number 0.5"],
        ["maxToolCalls", "10", 'config.maxToolCalls: expected a positive integer, got the string "10"'],
    ];
    for (const [field, value, words] of rows) {
        test(`${field}: ${typeof value === "string" ? JSON.stringify(value) : String(value)} is refused, naming it`, async () => {
            const IoCodeModeFactory = await loadFactory();
            await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, [field]: value }), (e) => {
                assert.equal(e.name, "TypeError");
                assert.ok(e.message.includes(words), e.message);
                return true;
            });
        });
    }

    test("maxResultChars at its bounds", async (t) => {
        for (const [max, cut] of [[100, true], [10_000_000, false]]) {
            const api = await withFactory(t, { wasmLocation: assetPath, maxResultChars: max });
            const r = await run(api.createSession(), "return 'x'.repeat(1000)");
            assert.equal(ok(r).length === 1000, !cut, JSON.stringify(r).slice(0, 300));
        }
    });

    for (const which of ["factory", "session"]) {
        test(`${which}.dispose() during a long tool call settles the run and aborts the tool's signal`, async (t) => {
            let signal;
            const api = await withFactory(t, {
                wasmLocation: assetPath,
                tools: [tool("t.slow", (input, o) => { signal = o.signal; return new Promise((r) => setTimeout(() => r(1), 10_000)); }), tool("t.x", () => 2)],
            });
            const s = api.createSession();
            const other = api.createSession();
            const p = run(s, "return await tools.t.slow({})");
            while (!signal) await sleep(10);
            await (which === "factory" ? api.dispose() : s.dispose());
            await assert.rejects(within(p, 5_000), /disposed/);
            assert.equal(signal.aborted, true);
            if (which === "session") assert.equal(ok(await run(other, "return await tools.t.x({})")), 2);
        });
    }

    test("two factories made from one config object are independent", async (t) => {
        const config = { wasmLocation: assetPath, tools: [tool("t.y", () => 2)] };
        const IoCodeModeFactory = await loadFactory();
        const a = await IoCodeModeFactory(config);
        const b = await withFactory(t, config);
        await a.dispose();
        assert.equal(ok(await run(b.createSession(), "return await tools.t.y({})")), 2);
    });

    test("a signal aborted before executeCode is called", async (t) => {
        let ran = 0;
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => ++ran)] });
        const s = api.createSession();
        const gone = AbortSignal.timeout(0);
        await sleep(20);
        const reason = new Error("PRE");
        await assert.rejects(run(s, "return await tools.t.x({})", { signal: AbortSignal.abort(reason) }), (e) => e === reason);
        await assert.rejects(run(s, "return await tools.t.x({})", { signal: gone }), { name: "TimeoutError" });
        await assert.rejects(run(s, "return 1", { signal: { aborted: true } }), /options\.signal: expected an AbortSignal, got an object/);
        await assert.rejects(run(s, "return 1", { signal: "yes" }), /options\.signal: expected an AbortSignal, got the string "yes"/);
        assert.equal(ran, 0);
        await nextRunWorks(s);
    });
});

describe("what a model sends after reading a large catalog", () => {
    const verbs = ["list", "get", "create", "update", "delete", "search", "archive", "invite"];
    const nouns = ["channels", "users", "files", "reminders", "pins", "stars", "usergroups", "views", "team", "bots"];
    const names = ["slack.chat_postMessage", "slack.chat_update", "slack.chat_delete"];
    for (const ns of ["slack", "github", "jira", "stripe", "gmail"]) for (const n of nouns) for (const v of verbs) names.push(`${ns}.${n}_${v}`);
    const post = {
        type: "object",
        properties: { channel: { type: "string" }, text: { type: "string" } },
        required: ["channel", "text"],
        additionalProperties: false,
    };
    const near = "did you mean slack.chat_postMessage";
    // [what, code, words the error holds] (null: the call runs)
    const rows = [
        ["camelCase for snake_case", "return await tools.slack.chatPostMessage({ channel: 'C1', text: 'hi' })", near],
        ["a dot for the underscore", "return await tools.slack.chat.postMessage({ channel: 'C1', text: 'hi' })", near],
        ["the namespace capitalised", "return await tools.Slack.chat_postMessage({ channel: 'C1', text: 'hi' })", near],
        ["a slash for the dot", "return await tool_call('slack/chat_postMessage', { channel: 'C1', text: 'hi' })", near],
        ["an underscore for the dot", "return await tools.slack_chat_postMessage({ channel: 'C1', text: 'hi' })", near],
        ["the full name in brackets", "return await tools['slack.chat_postMessage']({ channel: 'C1', text: 'hi' })", null],
        ["the rest of the name in brackets", "return await tools.slack['chat.postMessage']({ channel: 'C1', text: 'hi' })",
            `tools.slack['chat.postMessage'] is not a function; ${near}`],
        ["the namespace called as a tool", "return await tools.slack({ channel: 'C1', text: 'hi' })",
            "tools.slack is not a function; tools.slack is a namespace of 83 tools, not a tool: call one of them by its full name (e.g. tools.slack.bots_archive"],
        ["tools called as a tool", "return await tools({ name: 'slack.chat_postMessage' })", "tools holds the tools and is not one: call a tool by its name"],
        ["positional arguments", "return await tools.slack.chat_postMessage('C1', 'hi')", "the input is one object of named fields, not a bare value: pass { channel: ..., text: ... }"],
        ["the input as JSON text", `return await tools.slack.chat_postMessage('{"channel":"C1","text":"hi"}')`, "the input is JSON text, a string: pass the object itself"],
        ["a wrong field name", "return await tools.slack.chat_postMessage({ channel: 'C1', message: 'hi' })", 'the input has "message", which is not a property of this object; its properties are channel, text'],
        ["the input wrapped in input", "return await tools.slack.chat_postMessage({ input: { channel: 'C1', text: 'hi' } })", 'missing "channel", "text"'],
    ];
    for (const [what, code, words] of rows) {
        test(what, async (t) => {
            let ran = 0;
            const api = await withFactory(t, {
                wasmLocation: assetPath,
                tools: names.map((name) => tool(name, () => ++ran, name === "slack.chat_postMessage" ? { inputSchema: post } : {})),
            });
            const s = api.createSession();
            const r = await within(run(s, code), 30_000);
            if (words === null) {
                assert.equal(ok(r), 1);
                return;
            }
            failed(r, "RUNTIME", words);
            assert.equal(ran, 0);
            await nextRunWorks(s);
        });
    }
});
