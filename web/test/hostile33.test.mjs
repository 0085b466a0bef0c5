// Attempts of the thirty-third session (security33), written before
// reading the code under test: values crossing the tool boundary that are
// not plain data (class instances, Proxies that log their traps, arrays of
// 2^32 - 1 elements, Dates, RegExps, Maps, typed arrays, Symbol keys,
// __proto__ and constructor.prototype keys both ways), re-entrant tools
// (one that awaits the very run that called it; a result whose toJSON
// disposes, aborts or starts a run), input schemas whose check is
// exponential, and handleToolCall and an MCP server fed what no client
// should send. These held; each row is what the run must give, the host's
// objects stay untouched, and the next run works, in both engine modes
// (CODE_MODE_WORKER=1). Two memory items left by session 32 are fixed and
// tested here: a cleared timer held its callback until its delay passed
// (root TestClearedTimersLetGo, TestTimerClearedBeforeItsWait), and every
// rejected host call's Error stayed for the whole run
// (TestRejectedCallsKeepNoErrors, sandbox TestUnobservedRejectionsPastTheCap).
// And the third: QuickJS collected cycles only when an object was made, so
// cyclic garbage followed by strings alone ended MEMORY_LIMIT (sandbox
// TestCyclicGarbageThenNoObjects).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, run, tool, withFactory, within, WORKER } from "./helpers.mjs";
import { loadAdapter } from "./adapter-helpers.mjs";

/** How many 64 KB strings a run holds before QuickJS's "out of memory". */
const capacity = `const held = []; let n = 0; try { for (;;) { held.push("x".repeat(65536) + n); n++ } } catch (e) { return n }`;

describe("hostile33: odd values across the boundary, re-entrant tools, hostile clients, memory a run let go of", () => {
    test("tool results that are not plain data reach the program as a copy, and nothing calls back into them afterwards", async (t) => {
        const traps = [];
        class Secret {
            #hidden = "private";
            constructor() { this.a = 1; }
            get viaPrototype() { traps.push("prototype getter"); return "leaked"; }
            method() { return this.#hidden; }
        }
        const logged = new Proxy({ a: 1, b: { c: 2 } }, {
            get(o, k, r) { traps.push(`get ${String(k)}`); return Reflect.get(o, k, r); },
            ownKeys(o) { traps.push("ownKeys"); return Reflect.ownKeys(o); },
        });
        const huge = [];
        huge.length = 2 ** 32 - 1;
        const rows = [
            ["a class instance", () => new Secret(), '{"a":1}'],
            ["a Proxy logging its traps", () => logged, '{"a":1,"b":{"c":2}}'],
            ["a Date", () => new Date(0), '"1970-01-01T00:00:00.000Z"'],
            ["a RegExp", () => /a+/g, '"/a+/g"'],
            ["a Map", () => new Map([[1, 2]]), "[[1,2]]"],
            ["typed arrays and a DataView", () => [new Uint8Array([1, 2]), new Float64Array([0.5]), new DataView(new ArrayBuffer(2))], "[[1,2],[0.5],[0,0]]"],
            ["Symbol keys and values", () => ({ [Symbol("k")]: 1, a: Symbol("v") }), '{"a":"Symbol(v)"}'],
            ["own __proto__ and constructor.prototype keys", () => JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}}}'), '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}}}'],
            ["an array of 2^32 - 1 elements", () => huge, /an array of 4294967295 elements, more than the 1000000/],
            ["one nested in a result", () => ({ x: huge }), /result\.x: an array of 4294967295 elements/],
        ];
        const api = await withFactory(t, { wasmLocation: assetPath, tools: rows.map(([, f], i) => tool(`v.r${i}`, f)) });
        const session = api.createSession();
        for (const [i, [name, , want]] of rows.entries()) {
            traps.length = 0;
            const r = await run(session, `const v = await tools.v.r${i}({}); return [JSON.stringify(v), Object.getPrototypeOf(v) === Object.prototype || Array.isArray(v) || typeof v === "string", v.polluted, ({}).polluted]`);
            const seen = traps.length;
            if (typeof want === "string") {
                assert.equal(r.ok, true, `${name}: ${JSON.stringify(r.error)}`);
                // The last two: v.polluted and ({}).polluted, undefined (null in JSON).
                assert.deepEqual(r.result, [want, true, null, null], name);
            } else {
                assert.equal(r.error && r.error.code, "RUNTIME", `${name}: ${JSON.stringify(r.result)}`);
                assert.match(r.error.message, want, name);
            }
            assert.equal((await run(session, "return 2")).result, 2, `the run after ${name}`);
            assert.equal(traps.length, seen, `${name}: the host's object was read after the call: ${traps.slice(seen)}`);
        }
        assert.ok(!traps.includes("prototype getter"), "a getter of the class's prototype ran");
        assert.equal({}.polluted, undefined, "the host's Object.prototype was written");
    });

    test("tool inputs that are not plain data: the host gets own data keys on an ordinary object, never the program's getters or prototypes", async (t) => {
        const got = [];
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("echo", (input) => { got.push(input); return Reflect.ownKeys(input).map(String); })] });
        const session = api.createSession();
        for (const [name, code, want] of [
            ["__proto__ and constructor.prototype keys", `return await tools.echo(JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}}}'))`, ["__proto__", "constructor"]],
            ["a Symbol key", `return await tools.echo({ [Symbol("s")]: 1, b: 2 })`, ["b"]],
            ["a getter, read once", `let n = 0; return [await tools.echo({ get a() { return ++n } }), n]`, [["a"], 1]],
            ["a Proxy", `return await tools.echo(new Proxy({ a: 1 }, {}))`, ["a"]],
            ["Date, RegExp, Map, typed array", `return await tools.echo({ d: new Date(0), r: /x/, m: new Map([[1, 2]]), u: new Uint8Array(2) })`, ["d", "r", "m", "u"]],
        ]) {
            got.length = 0;
            const r = await run(session, code);
            assert.deepEqual(r.result, want, `${name}: ${JSON.stringify(r.error)}`);
            assert.equal(got.length, 1, name);
            assert.equal(Object.getPrototypeOf(got[0]), Object.prototype, name);
            assert.ok(Reflect.ownKeys(got[0]).every((k) => { const d = Object.getOwnPropertyDescriptor(got[0], k); return "value" in d && d.enumerable; }), name);
        }
        assert.equal(got.length === 1 && got[0].d, "1970-01-01T00:00:00.000Z");
        assert.equal({}.polluted, undefined);
        const sparse = await run(session, `const a = []; a.length = 2 ** 32 - 1; try { await tools.echo({ a }) } catch (e) { return e.message }`);
        assert.match(sparse.result, /^input\.a: an array of 4294967295 elements, more than the 1000000/, JSON.stringify(sparse.error));
    });

    test("re-entrant tools: one awaiting the run that called it ends at the timeout; a result whose toJSON disposes, aborts or starts a run settles as the API says", async (t) => {
        let outer;
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 3000, tools: [tool("self.wait", () => outer)] });
        const session = api.createSession();
        outer = run(session, "return await tools.self.wait({})");
        const r = await within(outer, 60_000);
        assert.equal(r.error && r.error.code, "TIMEOUT", JSON.stringify(r));
        assert.match(r.error.message, /waiting for the result of tool self\.wait/);
        assert.equal((await run(session, "return 2")).result, 2);
        for (const mode of ["dispose the session", "abort the run", "start a run of the session"]) {
            const ctl = new AbortController();
            const ran = [];
            const api2 = await withFactory(t, { wasmLocation: assetPath, timeout: 10_000 });
            const s2 = api2.createSession();
            api2.registerTools([
                tool("re.t", () => ({ toJSON() {
                    if (mode === "dispose the session") s2.dispose();
                    if (mode === "abort the run") ctl.abort(new Error("aborted by the tool"));
                    if (mode === "start a run of the session") run(s2, "return 5").then((x) => ran.push(`nested ${x.result}`));
                    return { a: 1 };
                } })),
                tool("re.u", () => (ran.push("u"), 2)),
            ]);
            const out = await within(run(s2, "const v = await tools.re.t({}); return [v, await tools.re.u({})]", { signal: ctl.signal }).catch((e) => `rejected: ${e.message}`), 60_000);
            if (mode === "dispose the session") {
                assert.match(String(out), /^rejected: .*disposed/, mode);
                assert.deepEqual(ran, [], mode);
            } else if (mode === "abort the run") {
                assert.equal(out, "rejected: aborted by the tool", mode);
                assert.deepEqual(ran, [], mode);
            } else {
                assert.deepEqual(out.result, [{ a: 1 }, 2], JSON.stringify(out));
                assert.deepEqual(ran.sort(), ["nested 5", "u"], mode);
            }
        }
    });

    test("an input schema whose check is exponential ends at the timeout, the page's timers run (worker), and the next run works", async (t) => {
        const ref = { $ref: "#/$defs/n" };
        const branch = (extra) => ({ type: "object", properties: { c: ref }, ...extra });
        const schema = { $defs: { n: { anyOf: [branch({ required: ["z"] }), branch({ required: ["y"] }), branch({})] } }, type: "object", properties: { c: ref } };
        const ran = [];
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 3000, tools: [tool("deep.check", () => ran.push(1), { inputSchema: schema })] });
        const session = api.createSession();
        let ticks = 0;
        const timer = setInterval(() => ticks++, 20);
        const r = await within(run(session, "let o = {}; for (let i = 0; i < 40; i++) o = { c: o }; return await tools.deep.check(o)"), 60_000);
        clearInterval(timer);
        assert.equal(r.error && r.error.code, "TIMEOUT", JSON.stringify(r));
        if (WORKER) assert.ok(ticks > 0, "the page's timer never fired while the worker checked the input");
        const shallow = await run(session, "let o = {}; for (let i = 0; i < 3; i++) o = { c: o }; return await tools.deep.check(o)");
        assert.equal(shallow.ok, true, JSON.stringify(shallow.error));
        assert.deepEqual(ran, [1]);
    });

    test("handleToolCall and an MCP server given what no client should send: a readable answer, never a throw or a polluted host", async (t) => {
        const llm = await loadAdapter("llm");
        const mcp = await loadAdapter("mcp");
        const ran = [];
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", (i) => (ran.push(i), 1))] });
        const session = api.createSession();
        for (const [name, args, want] of [
            ["text that is not JSON", "{code: return 1", /not valid JSON/],
            ["an array 10^6 deep as text", "[".repeat(1e6) + "]".repeat(1e6), /must be a JSON object, got an array/],
            ["a field 10^5 deep", `{"code":"return 1","explanation":"x","x":${"[".repeat(1e5)}${"]".repeat(1e5)}}`, /the arguments are not JSON/],
            ["code only under __proto__", JSON.parse('{"__proto__":{"code":"return 9"},"explanation":"x"}'), /code: required/],
            ["a 50 MB string", "x".repeat(5e7), /a string of 50000000 bytes, more than the 4194304/],
        ]) {
            const out = await within(llm.handleToolCall(session, "executeCode", args), 60_000);
            assert.notEqual(out, "hung", name);
            assert.equal(out.ok, false, name);
            assert.equal(out.error.code, "INVALID_INPUT", name);
            assert.match(out.error.message, want, name);
            assert.ok(JSON.stringify(out).length < 2000, `${name}: ${JSON.stringify(out).length} characters`);
        }
        const withConstructor = await llm.handleToolCall(session, "executeCode", { code: "return 1", explanation: "x", constructor: { prototype: { polluted: 1 } } });
        assert.equal(withConstructor.result, 1, JSON.stringify(withConstructor));
        assert.equal({}.polluted, undefined);

        const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
        const server = await mcp.toMcpServer(session, {});
        const [client, end] = InMemoryTransport.createLinkedPair();
        const replies = new Map();
        client.onmessage = (m) => { if ("id" in m) replies.set(m.id, m); };
        await server.connect(end);
        t.after(() => client.close());
        await client.start();
        await client.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } } });
        await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
        const call = (id, params) => client.send({ jsonrpc: "2.0", id, method: "tools/call", params });
        const bigId = "i".repeat(1e6);
        await client.send({ jsonrpc: "2.0", id: bigId, method: "tools/list" });
        await call(2, { name: "executeCode", arguments: "return 1" });
        await call(3, { name: "executeCode", arguments: JSON.parse('{"__proto__":{"code":"return await tools.t.x({})"},"explanation":"x"}') });
        await call(4, { name: "__proto__", arguments: {} });
        await call(5, { name: "constructor", arguments: {} });
        await call(6, { name: "executeCode", arguments: { code: "return 1", explanation: "x", nest: JSON.parse("[".repeat(5000) + "]".repeat(5000)) } });
        await call(7, { name: "executeCode", arguments: { code: "return 7", explanation: "x" } });
        for (let i = 0; i < 400 && !replies.has(7); i++) await new Promise((r) => setTimeout(r, 25));
        assert.ok(replies.get(bigId)?.result?.tools?.length === 2, "tools/list with a 1 MB id");
        assert.ok(replies.get(2)?.error, JSON.stringify(replies.get(2)));
        for (const id of [3, 4, 5, 6]) assert.equal(replies.get(id)?.result?.isError, true, `${id}: ${JSON.stringify(replies.get(id))}`);
        assert.deepEqual(replies.get(7)?.result?.structuredContent?.result, 7);
        assert.deepEqual(ran, [], "a tool ran from code under __proto__");
        assert.equal({}.polluted, undefined);
    });

    test("a cleared timer lets go of its callback, rejected calls of their errors, and cyclic garbage is collected without a new object", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 16, timeout: 60_000 });
        const session = api.createSession();
        const base = await run(session, capacity);
        assert.equal(base.ok, true, JSON.stringify(base.error));
        for (const [name, code] of [
            // 94 of 254 x 64 KB were left: each callback's 50 KB stayed for the timer's 20 s.
            ["200 timers closing over 50 KB, set and cleared", `for (let i = 0; i < 200; i++) { const big = "z".repeat(50000) + i; clearTimeout(setTimeout(() => big, 20000)) }`],
            ["200 intervals closing over 50 KB, set and cleared", `for (let i = 0; i < 200; i++) { const big = "z".repeat(50000) + i; clearInterval(setInterval(() => big, 20000)) }`],
            // 193 were left: ~195 bytes a rejected call, its Error, for the run.
            ["20,000 refused tool_search calls, awaited and caught", `for (let i = 0; i < 2e4; i++) { try { await tool_search({ query: {} }) } catch {} }`],
        ]) {
            const r = await within(run(session, `${code}\n${capacity}`), 120_000);
            assert.notEqual(r, "hung", name);
            assert.ok(r.ok && r.result >= base.result - 8, `${name}: ${JSON.stringify(r.result ?? r.error)} x 64 KB held after, ${base.result} before`);
        }
        // QuickJS collected only when an object was made: 9 MB of objects,
        // each in a cycle, dropped, then only strings, ended MEMORY_LIMIT
        // (sandbox TestCyclicGarbageThenNoObjects; the interrupt poll collects now).
        const garbage = `let g = []; for (let i = 0; i < 9000; i++) { const o = { s: "x".repeat(1000) + i }; o.self = o; g.push(o) } g = null;`;
        for (const [name, code] of [
            ["strings into an array made before", `const parts = new Array(9000).fill(0); ${garbage} for (let i = 0; i < 9000; i++) parts[i] = "y".repeat(1000) + i; return parts.length`],
            ["a string built by +=", `${garbage} let s = ""; for (let i = 0; i < 9000; i++) s += "y".repeat(1000); return s.length / 1000`],
        ]) {
            const r = await within(run(session, code), 120_000);
            assert.equal(r.result, 9000, `9 MB of cyclic garbage dropped, then ${name}: ${JSON.stringify(r.error)}`);
        }
        const small = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 8, timeout: 120_000 });
        const r = await within(run(small.createSession(), `let n = 0; for (let i = 0; i < 5e4; i++) { try { await tool_search({ query: {} }) } catch { n++ } } return n`), 180_000);
        assert.notEqual(r, "hung");
        assert.equal(r.result, 50000, `50,000 refused calls under 8 MB ended ${JSON.stringify(r.error)}`);
    });
});
