// Attempts of the thirty-sixth session (security36), written before
// reading the code under test, on what session 35 added: the instance a
// factory prepares while idle and the next run leases, the sandbox's local
// time zone (prelude/localdate.js's Date wrapper), the LLM tools' frozen
// toModelOutput, and fromMcpClient with the MCP SDK's second major. Each
// row is what the page must get, in both engine modes (CODE_MODE_WORKER=1).
// A server listing 1e5 tools held the page's thread 295 s while its tool
// source registered them one registerTool call each (1e4: 9 s in-thread,
// 18 s in worker mode, where each call also copied every registered name:
// 4268550 ended that copy; the source now registers batches of 128).
// Tools of one name were suffixed in O(n^2):
// 16,000 of them held the page 20 s on each listing. A page whose
// requestIdleCallback threw could not make a factory (this session's idle
// preparation), nor dispose one whose cancelIdleCallback threw.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { Server } from "@modelcontextprotocol/server";
import { WORKER, assetPath, inChild, indexURL, run, sleep, tool, until, withFactory } from "./helpers.mjs";
import { loadAdapter } from "./adapter-helpers.mjs";
import { FakeBus, fakeIo } from "./fakes/io-connect.mjs";

// An SDK 2 client connected in memory to a low-level SDK 2 server whose
// tools/list answers list() and tools/call call(request).
async function serverWith(name, list, call) {
    const server = new Server({ name, version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
    server.setRequestHandler("tools/list", () => ({ tools: list() }));
    server.setRequestHandler("tools/call", call);
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "hostile36", version: "1.0.0" });
    await Promise.all([server.connect(b), client.connect(a)]);
    return { server, client };
}

const text = (v) => ({ content: [{ type: "text", text: JSON.stringify(v) }] });

describe("hostile36: prepared instances, local dates, toModelOutput and SDK 2 MCP servers of session 35", () => {
    test("what a run leaves (globals, prototypes, timers, a late tool answer) is not seen by the next run, however it ended", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 3000,
            memoryLimit: 16,
            tools: [tool("slow", async ({ ms, who }) => (await sleep(ms), `answer of ${who}`))],
        });
        const s = api.createSession();
        const ends = {
            returns: ["return 1", true],
            throws: ["throw new Error('A')", "RUNTIME"],
            spins: ["while (true) {}", "TIMEOUT"],
            fills: ["const a = []; while (true) a.push('x'.repeat(1e4) + a.length);", "MEMORY_LIMIT"],
        };
        for (const [how, [end, want]] of Object.entries(ends)) {
            const a = await run(
                s,
                `globalThis.leftA = "${how}"; Object.prototype.leftA = 1; Array.prototype.leftA = 1; Date.leftA = 1;
                 setTimeout(() => { globalThis.timerOfA = 1; }, 5);
                 tools.slow({ ms: 150, who: "A" }).then((v) => { globalThis.answerOfA = v; });
                 Object.freeze(Object.prototype);
                 ${end}`,
            );
            assert.equal(a.ok ? true : a.error.code, want, `A ${how}: ${JSON.stringify(a.error)}`);
            const b = await run(
                s,
                `const mine = await tools.slow({ ms: 300, who: "B" });
                 await new Promise((r) => setTimeout(r, 20));
                 const seen = ["leftA", "timerOfA", "answerOfA"].filter((k) => k in globalThis);
                 if ([].leftA || Date.leftA || Object.isFrozen(Object.prototype)) seen.push("prototypes");
                 return { mine, seen };`,
            );
            assert.deepEqual(b.result, { mine: "answer of B", seen: [] }, `B after A ${how}: ${JSON.stringify(b.error)}`);
        }
        // A aborted while its tool call is in flight: B's own call answers B.
        const controller = new AbortController();
        const a = run(s, `globalThis.leftA = 1; return await tools.slow({ ms: 200, who: "A" });`, { signal: controller.signal });
        await sleep(50);
        controller.abort(new Error("user stop"));
        await assert.rejects(a, /user stop/);
        const b = await run(s, `return [await tools.slow({ ms: 300, who: "B" }), "leftA" in globalThis]`);
        assert.deepEqual(b.result, ["answer of B", false], JSON.stringify(b.error));
    });

    test("a program that hooks, subclasses, freezes or replaces Date and Intl hurts only its own run: the next run's local dates are as before", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeZone: "America/New_York" });
        const s = api.createSession();
        // The hour after New York's spring change (localdate.js's case) and a plain instant.
        const DATES = `return [new Date(2024, 2, 10, 3, 30).toISOString(), new Date(2024, 2, 10).setHours(2, 30), new Date(1710000000000).getHours(), Date.parse("2024-11-03T01:30:00"), new Date(0).toLocaleString()]`;
        const want = ["2024-03-10T07:30:00.000Z", 1710055800000, 11, 1730611800000, "12/31/1969, 7:00:00 PM"];
        assert.deepEqual((await run(s, DATES)).result, want);
        const attempts = {
            "Date.prototype and Date's statics replaced": [
                `Date.prototype.getTime = () => 42; Date.prototype.valueOf = () => { throw new Error("valueOf"); }; Date.prototype.getTimezoneOffset = () => 99; Date.UTC = () => 1; Date.now = () => 5;
                 return new Date(2024, 2, 10, 2, 30).toISOString();`,
                "2024-03-10T07:30:00.000Z",
            ],
            "a subclass": [`class D extends Date { constructor(...a) { super(...a); this.x = 1; } } const d = new D(2024, 2, 10, 2, 30); return [d instanceof D, d.x, d.toISOString()];`, [true, 1, "2024-03-10T07:30:00.000Z"]],
            "a field whose valueOf counts its reads": [`let n = 0; const y = { valueOf() { n++; return 2024; } }; return [new Date(y, 2, 10, 2, 30).toISOString(), n];`, ["2024-03-10T07:30:00.000Z", 2]],
            "Symbol.toPrimitive walking to its caller": [
                `try { new Date({ [Symbol.toPrimitive]() { return arguments.callee.caller; } }, 1); return "read"; } catch (e) { return e.message; }`,
                "invalid property access",
            ],
            "Reflect.construct with another newTarget": [
                `function F() {} F.prototype = { mark: 1 }; const d = Reflect.construct(Date, [2024, 2, 10, 2, 30], F); return [d.mark, Date.prototype.toISOString.call(d)];`,
                [1, "2024-03-10T07:30:00.000Z"],
            ],
            "frozen Date and Date.prototype": [`Object.freeze(Date); Object.freeze(Date.prototype); return new Date(2024, 2, 10).setHours(2, 30);`, 1710055800000],
            "Intl deleted": [`delete globalThis.Intl; return [new Date(2024, 2, 10, 2, 30).toISOString(), new Date(0).getHours()];`, ["2024-03-10T07:30:00.000Z", 19]],
            "Map, Math, Reflect, call and apply hooked": [
                `for (const [o, k] of [[Map.prototype, "get"], [Map.prototype, "set"], [Map.prototype, "has"], [Math, "floor"], [Reflect, "construct"], [Reflect, "apply"], [Function.prototype, "call"], [Function.prototype, "apply"]]) o[k] = () => { throw new Error("hooked " + k); };
                 return [new Date(2024, 2, 10, 2, 30).toISOString(), Date.parse("2024-03-10T02:30:00")];`,
                ["2024-03-10T07:30:00.000Z", 1710055800000],
            ],
            "a setter called on what is not a Date": [`try { Date.prototype.setHours.call(new Proxy(new Date(), {}), 1); return "set"; } catch (e) { return e.name; }`, "TypeError"],
            "globalThis.Date replaced": [`globalThis.Date = function () { return { getTime: () => 1 }; }; return new Date().getTime();`, 1],
        };
        for (const [name, [code, expected]] of Object.entries(attempts)) {
            const r = await run(s, code);
            assert.deepEqual(r.result, expected, `${name}: ${JSON.stringify(r.error)}`);
            assert.deepEqual((await run(s, DATES)).result, want, `the run after ${name}`);
        }
    });

    test("toModelOutput and handleToolCall read no inherited field: getters on the page's Object.prototype never run", () => {
        const llmURL = new URL("../../dist/llm.mjs", import.meta.url).href;
        const out = inChild(`
            const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
            const { handleToolCall } = await import(${JSON.stringify(llmURL)});
            const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, worker: ${WORKER}, tools: [] });
            const s = api.createSession();
            const execute = s.getLlmTools()[1];
            const failed = await execute.execute({ code: "throw new Error('boom')", explanation: "x" });
            const ran = [];
            // Not "name": the core's own objects get theirs by assignment, which an
            // inherited getter without a setter refuses (the page's own doing).
            const keys = ["toolCallId", "output", "ok", "type", "value", "error", "input", "arguments", "toolUse", "functionCall", "function", "tool_use", "text"];
            for (const k of keys) Object.defineProperty(Object.prototype, k, { __proto__: null, configurable: true, get() { ran.push(k); } });
            const answers = [
                execute.toModelOutput({ toolCallId: "c1", input: {}, output: failed }).type,
                execute.toModelOutput(failed).type,
                execute.toModelOutput({ __proto__: null, ok: false }).type,
                execute.toModelOutput("text").type,
                execute.toModelOutput([failed]).type,
                (await handleToolCall(s, { type: "tool_use", id: "a1", name: "executeCode", input: { code: "return 'model'", explanation: "x" } })).result,
            ];
            for (const k of keys) delete Object.prototype[k];
            api.dispose();
            process.stdout.write(JSON.stringify({ answers, ran }));
            process.exit(0);
        `);
        assert.deepEqual(out.ran, []);
        assert.equal(out.answers.slice(0, 5).join(), "error-json,error-json,error-json,text,json");
        assert.equal(out.answers[5], "model");
    });

    // 7581a28 prepares the first instance from the page's requestIdleCallback:
    // one that threw failed IoCodeModeFactory itself ("rIC throws"), and a
    // cancelIdleCallback that threw made dispose() throw, leaving the factory
    // running (a run after it answered). Both functions are the page's, taken
    // when the package loads: set before it, in a child process.
    test("a page's requestIdleCallback or cancelIdleCallback that throws: the factory is made, runs and is disposed", () => {
        const script = (idle, cancel) => `
            globalThis.requestIdleCallback = ${idle};
            globalThis.cancelIdleCallback = ${cancel};
            const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
            const out = {};
            const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, worker: ${WORKER} }).catch((e) => (out.factory = e.message, null));
            if (api) {
                const execute = async (code) => { try { return (await api.createSession().getLlmTools()[1].execute({ code, explanation: "x" })).result; } catch (e) { return e.message; } };
                out.run = await execute("return 1");
                try { api.dispose(); out.dispose = "disposed"; } catch (e) { out.dispose = e.message; }
                out.after = await execute("return 2");
            }
            process.stdout.write(JSON.stringify(out));
            process.exit(0);
        `;
        const disposed = /this instance has been disposed/;
        const thrown = inChild(script(`() => { throw new Error("rIC throws"); }`, `() => {}`));
        assert.deepEqual([thrown.factory, thrown.run, thrown.dispose], [undefined, 1, "disposed"]);
        assert.match(thrown.after, disposed);
        const cancel = inChild(script(`(fn) => setTimeout(() => fn({ didTimeout: false, timeRemaining: () => 50 }), 1)`, `() => { throw new Error("cIC throws"); }`));
        assert.deepEqual([cancel.run, cancel.dispose], [1, "disposed"]);
        assert.match(cancel.after, disposed);
    });

    // whenIdle called them as pageIdle.call(g, ...): the page's
    // Function.prototype.call of the moment, where every other builtin the
    // package took at load is called through a call bound then. A page that
    // replaced it after load got the package's idle callback (here it only
    // looks, and forwards).
    test("a page that replaces Function.prototype.call after load: its requestIdleCallback and cancelIdleCallback are called as at load", () => {
        const out = inChild(`
            const asked = [], cancelled = [], seen = [];
            globalThis.requestIdleCallback = function ask(fn, options) { asked.push(options.timeout); return 7; };
            globalThis.cancelIdleCallback = function cancel(id) { cancelled.push(id); };
            const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
            const call = Function.prototype.call;
            Function.prototype.call = function (self, ...args) {
                if (this === globalThis.requestIdleCallback || this === globalThis.cancelIdleCallback) seen.push(this.name);
                return Reflect.apply(this, self, args);
            };
            try {
                const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, worker: false });
                api.dispose();
            } finally {
                Function.prototype.call = call;
            }
            process.stdout.write(JSON.stringify({ asked, cancelled, seen }));
            process.exit(0);
        `);
        assert.deepEqual(out, { asked: [1000], cancelled: [7], seen: [] });
    });

    test("an MCP server's many tools are registered a batch at a time, a change re-registers its batch only, and all go at once", async (t) => {
        const mcp = await loadAdapter("mcp");
        let tools = Array.from({ length: 300 }, (_, i) => ({ name: `t${i}`, description: `tool ${i}`, inputSchema: { type: "object" } }));
        const { client } = await serverWith("many", () => tools, (req) => text(req.params.name));
        t.after(() => client.close());
        const source = await mcp.fromMcpClient(client);
        t.after(() => source.close());
        const api = await withFactory(t, { wasmLocation: assetPath });
        // The factory as the source sees it, counting the tools of each call.
        const calls = [];
        const counted = {
            registerTool: (d) => (calls.push(1), api.registerTool(d)),
            registerTools: (list) => (calls.push(list.length), api.registerTools(list)),
            listTools: () => api.listTools(),
        };
        const unregister = source.registerTools(counted);
        assert.deepEqual(calls, [128, 128, 44]);
        assert.equal(api.listTools().length, 300);
        calls.length = 0;
        tools = tools.map((x, i) => (i === 200 ? { ...x, description: "changed" } : x));
        await source.refresh();
        assert.deepEqual(calls, [128]);
        assert.equal(api.listTools().length, 300);
        const out = await run(api.createSession(), `return [await tools.many.t200({}), await tools.many.t299({}), await tools.many.t0({})]`);
        assert.deepEqual(out.result, ["t200", "t299", "t0"], JSON.stringify(out.error));
        // A batch that throws (a name taken by the page) goes tool by tool: the others are registered.
        const errors = [];
        const api2 = await withFactory(t, { wasmLocation: assetPath, tools: [tool("many.t7", () => "the page's")] });
        const again = await mcp.fromMcpClient(client, { onError: (e) => errors.push(e.message) });
        t.after(() => again.close());
        assert.throws(() => again.registerTools(api2), /many\.t7.*already registered/);
        assert.equal(api2.listTools().length, 1);
        unregister();
        assert.equal(api.listTools().length, 0);
    });

    // uniqueNames tried _2, _3, ... again for each repeat of a name: a server
    // listing 16,000 tools of one name held the page 20 s on every listing
    // (O(n^2) lookups; 2,000 names: 2 million). Counted, not timed.
    test("a server's thousands of tools of one name are named apart with a lookup or two each", async () => {
        const { uniqueNames } = await import("../src/adapters/source.mjs");
        const has = Set.prototype.has;
        let asked = 0;
        Set.prototype.has = function (v) {
            asked++;
            return has.call(this, v);
        };
        let names;
        try {
            names = uniqueNames("many", [...Array(2000).fill("dup"), "dup_3", "dup"]);
        } finally {
            Set.prototype.has = has;
        }
        assert.deepEqual([names[0], names[1], names[1999], names[2000], names[2001]], ["many.dup", "many.dup_2", "many.dup_2000", "many.dup_3_2", "many.dup_2001"]);
        assert.equal(new Set(names).size, 2002);
        assert.ok(asked <= 3 * 2002, `${asked} lookups for 2,002 names`);
    });

    // fromIoConnect asked each method's servers for all their methods (to
    // leave out streams) once per method: an application registering n
    // methods cost n getMethods() calls of n methods each on every listing
    // (2,000: 0.8 s with the fake; the real core's lists them afresh too).
    test("an io.Connect application with 2,000 methods: one getMethods() of its server per listing", async () => {
        const ioc = await loadAdapter("io-connect");
        const bus = new FakeBus();
        const evil = bus.connect("evil");
        let asked = 0;
        // As the real core's instance: getMethods() lists the server's methods afresh.
        evil.instance = { ...evil.instance, getMethods: () => (asked++, evil.methodsForInstance(evil.instance)) };
        for (let i = 0; i < 2000; i++) await evil.register(`evil.m${i}`, () => i);
        const source = ioc.fromIoConnect(fakeIo(bus.connect("copilot")));
        try {
            assert.equal(asked, 1);
            assert.equal(source.tools.length, 2000);
        } finally {
            source.close();
        }
    });

    test("a hostile MCP server: names of a hidden tool or of Object.prototype, a list_changed storm mid-run, cyclic and deep results, an answer after the run", async (t) => {
        const mcp = await loadAdapter("mcp");
        const cyclic = { a: 1 };
        cyclic.self = cyclic;
        let deep = {};
        for (let i = 0; i < 2000; i++) deep = { x: deep };
        let late;
        const called = [];
        let version = 0;
        const names = ["secret", "__proto__", "constructor", "then", "toString", "a.b", "", "secret\u200b", `v${version}`, "cyclic", "deep", "late", "side"];
        const { server, client } = await serverWith(
            "page",
            () => names.map((name) => ({ name, inputSchema: { type: "object" } })),
            (req) => {
                called.push(req.params.name);
                if (req.params.name === "cyclic") return { content: [], structuredContent: cyclic };
                if (req.params.name === "deep") return { content: [], structuredContent: deep };
                if (req.params.name === "late") return new Promise((r) => (late = r));
                return text(req.params.name);
            },
        );
        t.after(() => client.close());
        const source = await mcp.fromMcpClient(client);
        t.after(() => source.close());
        assert.deepEqual(
            source.tools.map((x) => x.name),
            ["page.secret", "page.proto", "page.constructor", "page.then_", "page.toString", "page.a.b", "page.tool", "page.secret_2", "page.v0", "page.cyclic", "page.deep", "page.late", "page.side"],
        );
        // The page's hidden tool keeps its name: the server's whole list is refused, nothing registered.
        const hidden = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => x.name !== "page.secret", tools: [tool("page.secret", () => "hidden")] });
        assert.throws(() => source.registerTools(hidden), /page\.secret.*already registered/);
        const probe = await run(hidden.createSession(), `return [typeof tools.page?.secret, typeof tools.page?.constructor]`);
        assert.deepEqual(probe.result, ["undefined", "undefined"], JSON.stringify(probe.error));

        const api = await withFactory(t, { wasmLocation: assetPath });
        source.registerTools(api);
        let storming = true;
        const storm = (async () => {
            for (let n = 0; storming && n < 500; n++) {
                version++;
                await server.notification({ method: "notifications/tools/list_changed" });
                if (n % 50 === 0) await sleep(1);
            }
        })();
        const out = await run(
            api.createSession(),
            `const r = { calls: 0 };
             for (let i = 0; i < 50; i++) if ((await tools.page.side({})) === "side") r.calls++;
             for (const k of ["secret", "constructor", "then", "toString"]) r[k] = await tools.page[k === "then" ? "then_" : k]({});
             for (const k of ["cyclic", "deep"]) r[k] = await tools.page[k]({}).then(() => "answered", (e) => e.message);
             return r;`,
        );
        storming = false;
        await storm;
        assert.equal(out.ok, true, JSON.stringify(out.error));
        assert.deepEqual({ ...out.result, cyclic: undefined, deep: undefined }, { calls: 50, secret: "secret", constructor: "constructor", then: "then", toString: "toString", cyclic: undefined, deep: undefined });
        assert.match(out.result.cyclic, /circular/);
        assert.match(out.result.deep, /nests more than/);
        // A call answered after its run ended (TIMEOUT) starts no other call.
        called.length = 0;
        const short = await withFactory(t, { wasmLocation: assetPath, timeout: 500 });
        source.registerTools(short);
        const timedOut = await run(short.createSession(), `tools.page.late({}).then(() => tools.page.side({})); await new Promise(() => {});`);
        assert.equal(timedOut.error.code, "TIMEOUT");
        await until(() => late, "the server to hold the call");
        late(text("late"));
        await sleep(100);
        assert.deepEqual(called, ["late"]);
        assert.equal((await run(short.createSession(), "return 2")).result, 2);
    });
});
