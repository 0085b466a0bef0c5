// Attempts of the thirty-ninth session (security39), written before
// reading the code they hit, in areas session 38 left: MCP servers whose
// tool lists are huge or oddly named and whose results are of unknown
// kinds or huge, WebMCP / io.Connect / FDC3 sources made of getters that
// throw and Proxies, programs that call tools after their run ended or
// their session was disposed, interceptors that never settle, onEvent
// handlers that throw or run programs of their own, and the three host
// values session 38 left open (a replacement input holding one object
// 2^40 times, a hidden tool's name posted to the worker, a run-end error
// holding the page's whole abort reason). Each row is what the page must
// get, in both engine modes (CODE_MODE_WORKER=1): an answer within a
// bound, never a hang, an uncaught error or a dead factory.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { POST_SPY, WORKER, assetPath, inChild, indexURL, run, tool, watchUncaught, within, withFactory } from "./helpers.mjs";
import { loadAdapter } from "./adapter-helpers.mjs";
import { serverWith, withServerTools } from "./mcp-server.mjs";
import { FakeBus } from "./fakes/io-connect.mjs";
import { FakeAgent } from "./fakes/fdc3.mjs";

const text = (v) => ({ content: [{ type: "text", text: typeof v === "string" ? v : JSON.stringify(v) }] });
const obj = { type: "object" };

// A source's outcome: ["source", its tool names] or ["rejected", name, message].
const settle = (p) =>
    within(
        Promise.resolve(p).then(
            (s) => ["source", (s.tools ?? []).map((x) => x.name)],
            (e) => ["rejected", e?.name, String(e?.message).slice(0, 200)],
        ),
        60_000,
    );

describe("hostile39: MCP servers with huge or odd tool lists and results", () => {
    // Each row: [name, tools/list tools, program, check(run result, source outcome, onError reports)].
    const rows = [
        // 20,000: registerTools of 100,000 held the page's thread 38-44 s in-thread on a loaded 2-core machine.
        ["20,000 tools on one page", Array.from({ length: 20_000 }, (_, i) => ({ name: `t${i}`, inputSchema: obj })), "return await tools.odd.t19999({})",
            (r, src) => src[0] === "rejected" || (src[1].length === 20_000 && r.ok && r.result === "called t19999")],
        ["names of Object.prototype's members", ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "prototype", "__defineGetter__", "isPrototypeOf"].map((name) => ({ name, inputSchema: obj })),
            "const out = []; for (const k of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__', 'isPrototypeOf']) { try { out.push(await tool_call('odd.' + k, {})) } catch (e) { out.push(e.name) } } return [out, typeof ({}).toString, Object.getPrototypeOf(tools.odd ?? {}) === null || typeof tools.odd]",
            (r, src) => src[0] === "source" && r.ok && r.result[0].every((x) => /^called |^ToolError$/.test(x)) && r.result[0].filter((x) => x.startsWith("called")).length >= 4 && r.result[1] === "function"],
        ["a name holding NUL and newlines", [{ name: "a\u0000b\nc", inputSchema: obj }, { name: "ok", inputSchema: obj }], "return await tools.odd.ok({})",
            (r, src) => src[0] === "source" && r.ok && r.result === "called ok" && src[1].every((n) => !n.includes("\u0000") && !n.includes("\n"))],
        ["a name 10 MB long", [{ name: "n".repeat(10_000_000), inputSchema: obj }, { name: "ok", inputSchema: obj }], "return await tools.odd.ok({})",
            (r, src) => src[0] === "rejected" || (r.ok && r.result === "called ok" && src[1].every((n) => n.length < 10_000_000))],
        ["a description of 10 MB", [{ name: "wordy", description: "d".repeat(10_000_000), inputSchema: obj }, { name: "ok", inputSchema: obj }], "return [await tools.odd.ok({}), (await tool_search('wordy')).length >= 0]",
            (r, src) => src[0] === "rejected" || (r.ok && r.result[0] === "called ok")],
        ["an inputSchema whose $ref points at itself", [{ name: "self", inputSchema: { type: "object", properties: { a: { $ref: "#" } } } }, { name: "loop", inputSchema: { type: "object", $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, properties: { x: { $ref: "#/$defs/a" } } } }, { name: "ok", inputSchema: obj }],
            "const out = []; for (const f of [() => tools.odd.self({ a: { a: { a: {} } } }), () => tools.odd.loop({ x: 1 })]) { try { out.push(await f()) } catch (e) { out.push(e.name) } } out.push(await tools.odd.ok({})); return out",
            (r, src) => src[0] === "source" && r.ok && r.result.length === 3 && r.result[2] === "called ok"],
        ["1,000 tools of one name", Array.from({ length: 1000 }, () => ({ name: "same", inputSchema: obj })), "return Object.keys(tools.odd ?? {}).length",
            (r, src) => src[0] === "rejected" || (r.ok && r.result >= 1)],
        ["a tool whose inputSchema is 10,000 levels deep", [{ name: "deep", inputSchema: { type: "object", properties: { a: Array.from({ length: 10_000 }).reduce((s) => ({ type: "object", properties: { a: s } }), { type: "string" }) } } }, { name: "ok", inputSchema: obj }],
            "return await tools.odd.ok({})", (r, src) => src[0] === "rejected" || (r.ok && r.result === "called ok")],
    ];
    for (const [name, list, program, check] of rows) {
        test(`tools/list with ${name}: fromMcpClient settles, the page lives, a run after it works`, async (t) => {
            const uncaught = watchUncaught(t);
            const mcp = await loadAdapter("mcp");
            const { client } = await serverWith("odd", () => ({ tools: list }), (req) => text(`called ${req.params.name}`));
            t.after(() => client.close());
            const reports = [];
            const src = await settle(mcp.fromMcpClient(client, { onError: (e) => reports.push(String(e?.message ?? e).slice(0, 200)) }));
            assert.notEqual(src, "hung", name);
            const api = await withFactory(t, { wasmLocation: assetPath, timeout: 30_000 });
            let r = { ok: false };
            if (src[0] === "source") {
                const source = await mcp.fromMcpClient(client);
                t.after(() => source.close());
                source.registerTools(api);
                r = await within(run(api.createSession(), program), 120_000);
                assert.notEqual(r, "hung", name);
            }
            assert.ok(check(r, src, reports), `${name}: ${JSON.stringify([src[0], src.slice(1).map((x) => (Array.isArray(x) ? x.length : x)), r.ok ? r.result : r.error?.message?.slice(0, 300)])}`);
            assert.deepEqual(uncaught, []);
            assert.equal((await run(api.createSession(), "return 1")).result, 1);
        });
    }

    // Each row: [name, the tools/call answer (or a function of the request and extra), check(program's outcome)].
    const results = [
        ["a content block of an unknown type", { content: [{ type: "hologram", data: 1 }] }, (o) => o[0] === "ok" || o[0] === "err"],
        ["a content block with no type", { content: [{ text: "x" }] }, (o) => o[0] === "ok" || o[0] === "err"],
        ["content that is not an array", { content: { type: "text", text: "x" } }, (o) => o[0] === "ok" || o[0] === "err"],
        ["a text block of 50 MB", { content: [{ type: "text", text: "z".repeat(50_000_000) }] }, (o) => (o[0] === "ok" && o[1] === 50_000_000) || (o[0] === "err" && /large|memory|limit/i.test(o[2]))],
        ["an isError result whose text is 20 MB", { isError: true, content: [{ type: "text", text: "e".repeat(20_000_000) }] }, (o) => o[0] === "err"],
        ["structuredContent 100,000 levels deep", { content: [], structuredContent: { a: Array.from({ length: 100_000 }).reduce((s) => ({ a: s }), 1) } }, (o) => o[0] === "ok" || o[0] === "err"],
        ["a text of JSON holding __proto__", text('{"__proto__":{"polluted":1},"a":1}'), (o) => o[0] === "ok"],
        ["10,000 notifications/tools/list_changed during the call", async (req, ctx) => {
            for (let i = 0; i < 10_000; i++) await ctx.mcpReq.notify({ method: "notifications/tools/list_changed" });
            return text("after flood");
        }, (o) => o[0] === "ok" && o[1] === "after flood".length],
    ];
    test("tools/call answers of unknown kinds or huge sizes: each call settles as data or a bounded error, the next call works", async (t) => {
        const uncaught = watchUncaught(t);
        let lists = 0;
        const { client } = await serverWith("res", () => (lists++, { tools: [...results.map((_, i) => ({ name: `r${i}`, inputSchema: obj })), { name: "ok", inputSchema: obj }] }), (req, ctx) => {
            if (req.params.name === "ok") return text("fine");
            const a = results[Number(req.params.name.slice(1))][1];
            return typeof a === "function" ? a(req, ctx) : a;
        });
        const api = await withServerTools(t, client, { wasmLocation: assetPath, timeout: 60_000, memoryLimit: 256 });
        const s = api.createSession();
        const wrong = [];
        for (const [i, [name, , check]] of results.entries()) {
            const r = await within(run(s, `let o; try { const v = await tools.res.r${i}({}); o = ["ok", typeof v === "string" ? v.length : JSON.stringify(v).length, ({}).polluted] } catch (e) { o = ["err", e.name, e.message] } return [o, await tools.res.ok({})]`), 120_000);
            if (r === "hung") assert.fail(`${name}: hung`);
            if (!r.ok) { wrong.push(`${name}: run ${r.error.code} ${r.error.message.slice(0, 200)}`); continue; }
            const [o, after] = r.result;
            // No Object.prototype.polluted after the call; an error's message cut as a tool's is.
            if (after !== "fine" || !check(o) || (o[0] === "ok" ? o[2] !== null : o[2].length > 1200)) wrong.push(`${name}: ${JSON.stringify(o).slice(0, 300)} then ${after}`);
        }
        assert.deepEqual(wrong, []);
        // The first listing and at most two for the flood (a listing, and
        // one after it for what came meanwhile): 10,000 gave 1,669 listings.
        assert.ok(lists <= 3, `the flood listed the tools ${lists} times`);
        assert.deepEqual(uncaught, []);
    });
});

describe("hostile39: WebMCP, io.Connect and FDC3 sources made of throwing getters and Proxies", () => {
    const thrower = (what) => new Proxy({}, { get(_, k) { if (k === "then") return undefined; throw new Error(`trap ${what} ${String(k)}`); }, ownKeys() { throw new Error(`trap ${what} ownKeys`); }, getOwnPropertyDescriptor() { throw new Error(`trap ${what} gOPD`); }, has() { throw new Error(`trap ${what} has`); } });
    const getterThrows = (base, key) => Object.defineProperty({ ...base }, key, { enumerable: true, get() { throw new Error(`getter ${key}`); } });
    // A WebMCP model context whose listing answers what getTools() gives.
    const context = (getTools, executeTool = async (tl, json) => JSON.stringify({ ran: tl.name })) => {
        const ctx = new EventTarget();
        ctx.getTools = getTools;
        ctx.registerTool = async () => {};
        ctx.executeTool = executeTool;
        return ctx;
    };
    const good = { name: "good", description: "g", inputSchema: JSON.stringify(obj) };
    // Each row: [name, modelContext].
    const webmcpRows = [
        ["getTools() resolves with a Proxy that throws on every read", context(async () => thrower("list"))],
        ["getTools() throws synchronously a non-Error", context(() => { throw { odd: true }; })],
        ["a tool whose name getter throws, beside a good one", context(async () => [getterThrows({ description: "x", inputSchema: "{}" }, "name"), good])],
        ["a tool that is a throwing Proxy, beside a good one", context(async () => [thrower("tool"), good])],
        ["a tool whose inputSchema getter throws, beside a good one", context(async () => [getterThrows({ name: "bad", description: "x" }, "inputSchema"), good])],
        ["a tool whose inputSchema is a throwing Proxy object", context(async () => [{ name: "bad", description: "x", inputSchema: thrower("schema") }, good])],
        ["getTools() never settles", context(() => new Promise(() => {}))],
        ["a model context whose addEventListener throws", Object.assign(context(async () => [good]), { addEventListener() { throw new Error("no events"); } })],
        ["a model context that is itself a throwing Proxy", thrower("context")],
    ];
    for (const [name, ctx] of webmcpRows) {
        test(`fromWebMcp with ${name}: settles or stays pending without harm; the page lives; a good tool runs`, async (t) => {
            const uncaught = watchUncaught(t);
            const webmcp = await loadAdapter("webmcp");
            const errors = [];
            const p = (async () => webmcp.fromWebMcp({ modelContext: ctx, onError: (e) => errors.push(String(e?.message ?? e)) }))();
            const src = await within(p.then((s) => ["source", s], (e) => ["rejected", e]), name.includes("never settles") ? 2000 : 30_000);
            if (src === "hung") {
                assert.ok(name.includes("never settles"), `${name}: hung`);
                return;
            }
            // An Error, or what the page's own context threw, as it threw it.
            if (src[0] === "rejected") assert.ok(src[1] instanceof Error || (name.includes("non-Error") && src[1]?.odd === true), `${name}: rejected with ${String(src[1])}`);
            else {
                const api = await withFactory(t, { wasmLocation: assetPath, timeout: 10_000 });
                src[1].registerTools(api);
                const names = src[1].tools.map((x) => x.name);
                const r = await run(api.createSession(), names.includes("webmcp.good") ? "return await tools.webmcp.good({})" : "return 1");
                assert.ok(r.ok, `${name}: ${JSON.stringify(r.error)}`);
                if (names.includes("webmcp.good")) assert.deepEqual(r.result, { ran: "good" });
                src[1].close?.();
            }
            assert.deepEqual(uncaught, [], name);
        });
    }

    test("WebMCP tools whose executeTool answers a Proxy, a throwing getter, a never-settling promise or throws a Proxy: each call settles within the run, the next call works", async (t) => {
        const uncaught = watchUncaught(t);
        const webmcp = await loadAdapter("webmcp");
        const answers = {
            proxy: async () => thrower("answer"),
            getter: async () => getterThrows({}, "content"),
            never: () => new Promise(() => {}),
            throwsProxy: async () => { throw thrower("thrown"); },
            huge: async () => "h".repeat(30_000_000),
            ok: async () => JSON.stringify("fine"),
        };
        const ctx = context(async () => Object.keys(answers).map((name) => ({ name, description: name, inputSchema: "{}" })), (tl) => answers[tl.name]());
        const source = await webmcp.fromWebMcp({ modelContext: ctx });
        t.after(() => source.close?.());
        // The never-settling answer needs a short run limit to be seen ending
        // (TIMEOUT); the 30 MB one needs a long one: taking 28 MB of JSON in
        // took over 5 s at a load of 30. One factory each, one source.
        const quick = await withFactory(t, { wasmLocation: assetPath, timeout: 5000, memoryLimit: 128 });
        const slow = await withFactory(t, { wasmLocation: assetPath, timeout: 300_000, memoryLimit: 128 });
        source.registerTools(quick);
        source.registerTools(slow);
        const sessions = { quick: quick.createSession(), slow: slow.createSession() };
        for (const name of Object.keys(answers).filter((n) => n !== "ok")) {
            const s = name === "never" ? sessions.quick : sessions.slow;
            const r = await within(run(s, `try { const v = await tools.webmcp.${name}({}); return ["ok", typeof v] } catch (e) { return [e.name, e.message.length] }`), 360_000);
            assert.notEqual(r, "hung", name);
            if (name === "never") assert.equal(r.error?.code, "TIMEOUT", JSON.stringify(r));
            else {
                assert.ok(r.ok, `${name}: ${JSON.stringify(r.error)}`);
                assert.ok(r.result[0] === "ok" || r.result[1] <= 1200, `${name}: ${JSON.stringify(r.result)}`);
            }
            assert.equal((await run(s, "return await tools.webmcp.ok({})")).result, "fine", name);
        }
        assert.deepEqual(uncaught, []);
    });

    test("io.Connect: methods() giving throwing Proxies and getters, and invoke answering a Proxy: the good method registers and runs; nothing is uncaught", async (t) => {
        const uncaught = watchUncaught(t);
        const ioc = await loadAdapter("io-connect");
        const bus = new FakeBus();
        const host = bus.connect("copilot");
        const app = bus.connect("app");
        await app.register({ name: "Good", accepts: "String s" }, ({ s }) => ({ s }));
        await app.register({ name: "Odd" }, () => ({}));
        const methods = host.methods.bind(host);
        host.methods = () => [...methods(), thrower("method"), getterThrows({ name: "X" }, "accepts"), getterThrows({}, "name"), Object.assign(Object.create(thrower("proto")), { name: "Y" })];
        const invoke = host.invoke.bind(host);
        host.invoke = (m, ...rest) => ((typeof m === "string" ? m : m.name) === "Odd" ? Promise.resolve(thrower("invocation")) : invoke(m, ...rest));
        const errors = [];
        let src;
        try {
            src = ["source", ioc.fromIoConnect({ interop: host }, { onError: (e) => errors.push(String(e?.message ?? e)) })];
        } catch (e) {
            src = ["threw", e];
        }
        if (src[0] === "threw") {
            assert.ok(src[1] instanceof Error, String(src[1]));
            return;
        }
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 10_000 });
        src[1].registerTools(api);
        const r = await within(run(api.createSession(), `const out = [await tools.interop.Good({ s: "x" })]; try { out.push(await tools.interop.Odd({})) } catch (e) { out.push(e.name) } return out`), 60_000);
        assert.notEqual(r, "hung");
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.deepEqual(r.result[0], { s: "x" });
        assert.deepEqual(uncaught, []);
    });

    test("FDC3: findIntentsByContext answering a throwing Proxy, and getResult() a Proxy or never settling: fromFdc3 settles, calls settle within the run", async (t) => {
        const uncaught = watchUncaught(t);
        const fdc3 = await loadAdapter("fdc3");
        const agent = new FakeAgent([{ appId: "a", title: "A", intents: { Good: { contexts: ["x.t"], handler: () => ({ type: "x.r", v: 1 }) }, Odd: { contexts: ["x.t"], handler: () => ({ type: "x.r" }) }, Never: { contexts: ["x.t"], handler: () => ({ type: "x.r" }) } } }]);
        const find = agent.findIntentsByContext.bind(agent);
        agent.findIntentsByContext = async (c) => (c.type === "x.bad" ? thrower("intents") : find(c));
        const raise = agent.raiseIntent.bind(agent);
        agent.raiseIntent = async (intent, ...rest) => {
            const res = await raise(intent, ...rest);
            if (intent === "Odd") return { ...res, getResult: async () => thrower("result") };
            if (intent === "Never") return { ...res, getResult: () => new Promise(() => {}) };
            return res;
        };
        const src = await settle(fdc3.fromFdc3(agent, { contextTypes: ["x.t", "x.bad"] }));
        assert.notEqual(src, "hung");
        if (src[0] === "rejected") return;
        const source = await fdc3.fromFdc3(agent, { contextTypes: ["x.t"] });
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 5000 });
        source.registerTools(api);
        const s = api.createSession();
        const ok = await run(s, `return await tools.fdc3.Good({ type: "x.t" })`);
        assert.ok(ok.ok, JSON.stringify(ok.error));
        const odd = await within(run(s, `try { return ["ok", typeof await tools.fdc3.Odd({ type: "x.t" })] } catch (e) { return [e.name] }`), 30_000);
        assert.notEqual(odd, "hung");
        assert.ok(odd.ok, JSON.stringify(odd.error));
        const never = await within(run(s, `return await tools.fdc3.Never({ type: "x.t" })`), 30_000);
        assert.equal(never.error?.code, "TIMEOUT", JSON.stringify(never));
        assert.deepEqual(uncaught, []);
    });
});

describe("hostile39: tool calls after a run ended or its session was disposed", () => {
    // Each row: [name, program, what the tool may have seen after the run].
    const rows = [
        ["a setTimeout that calls a tool after the program returned", `setTimeout(() => tools.t.mark({ from: "timer" }), 0); return "done"`],
        ["a promise chain kept alive past the return", `Promise.resolve().then(() => 0).then(() => 0).then(() => tools.t.mark({ from: "chain" })); return "done"`],
        ["a setInterval calling a tool on every tick", `setInterval(() => tools.t.mark({ from: "interval" }), 1); return "done"`],
        ["a getter of the result that calls a tool", `return { get x() { tools.t.mark({ from: "getter" }); return 1 }, y: "done" }`],
        ["a toJSON of the result that calls a tool", `return { toJSON() { tools.t.mark({ from: "toJSON" }); return "done" } }`],
        ["a then of the result that calls a tool", `return { then(r) { tools.t.mark({ from: "then" }); r("done") } }`],
        ["a FinalizationRegistry's callback that calls a tool", `const f = new FinalizationRegistry(() => tools.t.mark({ from: "finalizer" })); (() => { f.register({}, 1) })(); return "done"`],
        ["an async generator left suspended that calls a tool when resumed by a timer", `async function* g() { await new Promise((r) => setTimeout(r, 5)); yield tools.t.mark({ from: "generator" }) } const it = g(); it.next(); return "done"`],
    ];
    test("nothing of a run reaches a tool after its end", async (t) => {
        const marks = [];
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 5000, tools: [tool("t.mark", (input) => (marks.push(input?.from), "marked")), tool("t.slow", () => new Promise((r) => setTimeout(() => r(1), 50)))] });
        const s = api.createSession();
        const wrong = [];
        for (const [name, program] of rows) {
            marks.length = 0;
            const r = await within(run(s, program), 30_000);
            if (r === "hung") assert.fail(`${name}: hung`);
            // Give a late call every chance to arrive: another run awaits a timer and a tool.
            await run(s, `await new Promise((r) => setTimeout(r, 50)); return await tools.t.slow({})`);
            await new Promise((r) => setTimeout(r, 100));
            const late = marks.filter((m) => m !== undefined);
            if (late.length > 0) wrong.push(`${name}: the tool ran after the end (${late.join(", ")})`);
        }
        assert.deepEqual(wrong, []);
    });

    test("a tool that disposes its session, then the program calls another tool: not called; execute rejects saying disposed", async (t) => {
        const called = [];
        let session;
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.kill", async () => (session.dispose(), "killed")), tool("t.after", () => (called.push("after"), 1))] });
        session = api.createSession();
        const r = await within(run(session, `await tools.t.kill({}); await tools.t.after({}); return 1`).then((x) => ["settled", x.ok, x.error?.code], (e) => ["rejected", e.message]), 30_000);
        assert.notEqual(r, "hung");
        assert.ok(r[0] === "rejected" ? /dispos/.test(r[1]) : r[1] === false, JSON.stringify(r));
        assert.deepEqual(called, []);
        assert.equal((await run(api.createSession(), "return 1")).result, 1);
    });

    test("a tool that disposes the factory, then the program's timer calls a tool: not called, no uncaught error", async (t) => {
        const uncaught = watchUncaught(t);
        const called = [];
        let api;
        api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.kill", async () => (api.dispose(), "killed")), tool("t.after", () => (called.push("after"), 1))] });
        const r = await within(run(api.createSession(), `setTimeout(() => tools.t.after({}), 0); await tools.t.kill({}); await new Promise((r) => setTimeout(r, 20)); return await tools.t.after({})`).then((x) => ["settled", x.ok], (e) => ["rejected", e.message]), 30_000);
        assert.notEqual(r, "hung");
        assert.ok(r[0] === "rejected" || r[1] === false, JSON.stringify(r));
        await new Promise((r) => setTimeout(r, 100));
        assert.ok(called.length <= 1, JSON.stringify(called));
        assert.deepEqual(uncaught, []);
    });
});

describe("hostile39: interceptors that never settle", () => {
    test("an onToolCall that never answers: the run ends at its timeout naming the decision; abort and dispose end it too; the page lives", async (t) => {
        const uncaught = watchUncaught(t);
        const ran = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 1500,
            interceptors: { onToolCall: ({ tool: tl }) => (tl.name === "t.ok" ? { allowed: true } : new Promise(() => {})) },
            tools: [tool("t.hang", () => (ran.push("hang"), 1)), tool("t.ok", () => "ok")],
        });
        const s = api.createSession();
        const timedOut = await within(run(s, "return await tools.t.hang({})"), 30_000);
        assert.equal(timedOut.error?.code, "TIMEOUT", JSON.stringify(timedOut));
        assert.match(timedOut.error.message, /onToolCall|decision/);
        const controller = new AbortController();
        const aborted = run(s, "return await tools.t.hang({})", { signal: controller.signal });
        setTimeout(() => controller.abort(new Error("stop")), 100);
        const ab = await within(aborted.then((x) => x.error?.code ?? "ok", (e) => `rejected ${e.name}`), 30_000);
        assert.notEqual(ab, "hung");
        assert.notEqual(ab, "ok");
        // 1,000 calls left waiting on the interceptor at once.
        const many = await within(run(s, "await Promise.all(Array.from({ length: 1000 }, () => tools.t.hang({}))); return 1"), 30_000);
        assert.ok(many.error?.code === "TIMEOUT" || many.error?.code === "TOOL_LIMIT" || many.ok === false, JSON.stringify(many).slice(0, 300));
        const s2 = api.createSession();
        const pending = run(s2, "return await tools.t.hang({})");
        await new Promise((r) => setTimeout(r, 100));
        s2.dispose();
        const disposed = await within(pending.then((x) => x.ok, (e) => e.message), 30_000);
        assert.notEqual(disposed, "hung");
        assert.notEqual(disposed, true);
        assert.equal((await run(s, "return await tools.t.ok({})")).result, "ok");
        assert.deepEqual(ran, []);
        assert.deepEqual(uncaught, []);
    });

    test("an onToolCall answering a thenable whose then never calls back, or calls back 1e5 times: the call settles once or the run times out", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 1500,
            interceptors: {
                onToolCall: ({ tool: tl }) => (tl.name === "t.a" ? { then() {} } : { then(r) { for (let i = 0; i < 1e5; i++) r({ allowed: i % 2 === 0 }); } }),
            },
            tools: [tool("t.a", () => 1), tool("t.b", () => 2)],
        });
        const s = api.createSession();
        const a = await within(run(s, "return await tools.t.a({})"), 30_000);
        assert.ok(a !== "hung" && a.ok === false, JSON.stringify(a));
        const b = await within(run(s, "return await tools.t.b({})"), 30_000);
        assert.ok(b !== "hung", "hung");
        assert.ok(b.ok ? b.result === 2 : /thenable|decision|onToolCall/i.test(b.error.message), JSON.stringify(b));
    });
});

describe("hostile39: onEvent handlers that throw or run programs of their own", () => {
    test("an onEvent that throws an Error, a non-Error, a Proxy on every event: the run's result is unchanged", async (t) => {
        const uncaught = watchUncaught(t);
        const errs = [];
        const saved = console.error;
        console.error = (...a) => errs.push(a.length);
        t.after(() => (console.error = saved));
        for (const thrown of [() => new Error("observer"), () => ({ odd: 1 }), () => new Proxy({}, { get() { throw new Error("trap"); } }), () => Symbol("s")]) {
            const api = await withFactory(t, { wasmLocation: assetPath, onEvent: () => { throw thrown(); }, tools: [tool("t.a", () => 5)] });
            const r = await within(run(api.createSession(), `console.log("x"); return await tools.t.a({})`, { onEvent: () => { throw thrown(); } }), 30_000);
            assert.equal(r.result, 5, JSON.stringify(r));
        }
        assert.deepEqual(uncaught, []);
    });

    test("an onEvent that runs executeCode on the same session at every event: the outer run ends, the inner runs end, bounded", async (t) => {
        let depth = 0;
        let started = 0;
        let session;
        const inner = [];
        // 51 runs share 16 run slots: the outer run's timeout bounds a
        // deadlock, not their speed (5 s: it timed out at load ~20).
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 60_000,
            tools: [tool("t.a", () => 1)],
            onEvent: (e) => {
                if (e.type !== "run-start" || started >= 50) return;
                started++;
                depth++;
                inner.push(run(session, "return await tools.t.a({})").finally(() => depth--));
            },
        });
        session = api.createSession();
        const r = await within(run(session, "return await tools.t.a({}) + 1"), 120_000);
        assert.notEqual(r, "hung");
        assert.equal(r.result, 2, JSON.stringify(r.error));
        const all = await within(Promise.allSettled(inner), 120_000);
        assert.notEqual(all, "hung");
        assert.ok(all.every((x) => x.status === "fulfilled" && x.value.result === 1), JSON.stringify(all.slice(0, 3)));
    });

    test("an onEvent that disposes the session at run-start, or the factory at the first tool-call: the run settles, the tool is not called", async (t) => {
        const uncaught = watchUncaught(t);
        for (const [when, kill] of [["run-start", (ctx) => ctx.session.dispose()], ["tool-call", (ctx) => ctx.api.dispose()], ["console", (ctx) => ctx.session.dispose()]]) {
            const called = [];
            const ctx = {};
            ctx.api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.a", () => (called.push(1), 1))], onEvent: (e) => { if (e.type === when) kill(ctx); } });
            ctx.session = ctx.api.createSession();
            const r = await within(run(ctx.session, `console.log("c"); return await tools.t.a({})`).then((x) => (x.ok ? "ok" : x.error.code), (e) => `rejected: ${e.message.slice(0, 100)}`), 30_000);
            assert.notEqual(r, "hung", when);
            assert.notEqual(r, "ok", when);
            assert.deepEqual(called, [], when);
        }
        assert.deepEqual(uncaught, []);
    });
});

describe("hostile39: host values session 38 left open", () => {
    // FINDING 3 of security38, in a child process: JSON of a replacement
    // input holding one object 2^40 times was written whole on the page's
    // thread, so no timer of the test's process could end it.
    test("onToolCall allowing with an input that holds one object 2^40 times: the call fails naming the tool and onToolCall's input; the page lives", () => {
        const program = `const out = []; try { await tools.t.guarded({}); out.push("ran") } catch (e) { out.push(e.name, e.message.slice(0, 400)) } out.push(await tools.t.ok({})); return out`;
        const out = inChild(`
            const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
            const dag = () => { let o = { v: 1 }; for (let i = 0; i < 40; i++) o = { l: o, r: o }; return o; };
            const t = (name, execute) => ({ name, description: name, inputSchema: { type: "object" }, execute });
            let ran = 0;
            const api = await IoCodeModeFactory({
                wasmLocation: ${JSON.stringify(assetPath)}, worker: ${WORKER}, timeout: 20_000, memoryLimit: 16,
                tools: [t("t.ok", () => 1), t("t.guarded", () => (ran++, 2))],
                interceptors: { onToolCall: ({ tool }) => tool.name === "t.guarded" ? { allowed: true, input: { dag: dag() } } : { allowed: true } },
            });
            let ticks = 0; const tick = setInterval(() => ticks++, 50);
            setTimeout(() => { process.stdout.write(JSON.stringify({ hung: true })); process.exit(0); }, 60_000).unref();
            const ex = api.createSession().getLlmTools().find((x) => x.name === "executeCode");
            const t0 = Date.now();
            const r = await ex.execute({ code: ${JSON.stringify(program)}, explanation: "x" });
            const ms = Date.now() - t0;
            clearInterval(tick);
            await api.dispose();
            process.stdout.write(JSON.stringify({ r: r.ok ? r.result : r.error, ran, ms }));
            process.exit(0);
        `);
        assert.equal(out.hung, undefined, "the page's thread was held");
        assert.ok(Array.isArray(out.r), JSON.stringify(out));
        assert.equal(out.r[0], "ToolError", JSON.stringify(out));
        assert.match(out.r[1], /t\.guarded/);
        assert.match(out.r[1], /onToolCall/);
        assert.match(out.r[1], /too large|more than/);
        assert.equal(out.r[2], 1);
        assert.equal(out.ran, 0);
    });

    test("onToolCall allowing with a large legitimate replacement input (5 MB of JSON): the tool gets it whole", async (t) => {
        const rows = Array.from({ length: 50_000 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ["a", "b"], note: "n".repeat(60) }));
        let got;
        // ~4 s of CPU (in-thread), which at load ~25 passed a timeout of
        // 60 s (112 s): the deadline is not what this checks.
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            memoryLimit: 256,
            timeout: 600_000,
            interceptors: { onToolCall: () => ({ allowed: true, input: { rows } }) },
            tools: [tool("t.take", (input) => ((got = input), input.rows.length))],
        });
        assert.ok(JSON.stringify({ rows }).length > 5_000_000);
        const r = await run(api.createSession(), "return await tools.t.take({})");
        assert.equal(r.result, 50_000, JSON.stringify(r.error));
        assert.deepEqual(got.rows[49_999], rows[49_999]);
    });

    test("a page that replaced JSON.parse, String.prototype.startsWith and slice: onToolCall's replacement input with a function is still refused, a plain one reaches the tool as given", async (t) => {
        let got;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: ({ tool: tl }) => ({ allowed: true, input: tl.name === "t.fn" ? { f() {} } : { n: 1 } }) },
            tools: [tool("t.fn", () => "ran"), tool("t.plain", (input) => ((got = input), "ran"))],
        });
        const s = api.createSession();
        const saved = [JSON.parse, String.prototype.startsWith, String.prototype.slice];
        let fn, plain;
        try {
            JSON.parse = () => ({ stub: true });
            String.prototype.startsWith = () => false;
            String.prototype.slice = () => "";
            fn = await run(s, `try { return await tools.t.fn({}) } catch (e) { return e.message }`);
            plain = await run(s, `return await tools.t.plain({})`);
        } finally {
            [JSON.parse, String.prototype.startsWith, String.prototype.slice] = saved;
        }
        assert.match(String(fn.result), /not JSON/, JSON.stringify(fn));
        assert.equal(plain.result, "ran", JSON.stringify(plain.error));
        assert.deepEqual(got, { n: 1 });
    });

    test("a run the page aborts with a reason of 1e6 characters: the run-end event's error is cut at 1,000 characters; execute's own rejection or error may stay whole", async (t) => {
        const events = [];
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.wait", () => new Promise(() => {}))] });
        const controller = new AbortController();
        const p = run(api.createSession(), "return await tools.t.wait({})", { signal: controller.signal, onEvent: (e) => events.push(e) });
        setTimeout(() => controller.abort(new Error("r".repeat(1_000_000))), 100);
        await p.then(() => {}, () => {});
        const end = events.find((e) => e.type === "run-end");
        assert.ok(end, JSON.stringify(events.map((e) => e.type)));
        const message = typeof end.error === "string" ? end.error : end.error?.message;
        assert.ok(typeof message === "string" && message.length <= 1100, `run-end error of ${message?.length} characters`);
        assert.match(message, /… \[\d+ more characters\]$/);
        const result = events.filter((e) => e.type === "tool-result").map((e) => e.error.length);
        assert.ok(result.every((n) => n <= 1100), JSON.stringify(result));
    });

    // The page holds a tool toolFilter hides, the factory's or a session's
    // own, until a run shows it (hostile40 and hostile41 have the tool
    // shown later, and hidden later).
    test("a tool toolFilter hides: neither its name nor its description is posted to the worker", { skip: !WORKER && "worker mode only" }, () => {
        const out = inChild(`
            ${POST_SPY}
            const api = await IoCodeModeFactory({
                wasmLocation: ${JSON.stringify(assetPath)}, worker: true,
                toolFilter: (t) => !t.name.startsWith("admin."),
                tools: [
                    { name: "t.echo", description: "echo", inputSchema: { type: "object" }, execute: () => "seen" },
                    { name: "admin.HIDDEN39", description: "HIDDENDESC39", inputSchema: { type: "object" }, execute: () => 1 },
                ],
            });
            const s = api.createSession({ tools: [{ name: "admin.SESSIONHIDDEN39", description: "SESSIONDESC39", inputSchema: { type: "object" }, execute: () => 1 }] });
            const late = api.registerTool({ name: "admin.LATE39", description: "LATEDESC39", inputSchema: { type: "object" }, execute: () => 1 });
            const ex = s.getLlmTools().find((t) => t.name === "executeCode");
            const r = await ex.execute({ code: "let hidden; try { await tool_call('admin.HID' + 'DEN39', {}); hidden = 'reached' } catch (e) { hidden = e.name } return [await tools.t.echo({}), hidden]", explanation: "x" });
            await api.dispose();
            const all = posted.join("\\n");
            process.stdout.write(JSON.stringify({ r: r.result, n: posted.length, echo: all.includes("t.echo"), leaked: ["admin.HIDDEN39", "HIDDENDESC39", "admin.LATE39", "LATEDESC39"].filter((w) => all.includes(w)), session: ["SESSIONHIDDEN39", "SESSIONDESC39"].filter((w) => all.includes(w)) }));
            process.exit(0);
        `);
        assert.ok(out.n > 0 && out.echo, "the spy caught no message naming the visible tool");
        assert.deepEqual(out.r, ["seen", "ToolError"]);
        assert.deepEqual(out.leaked, []);
        assert.deepEqual(out.session, []);
    });
});
