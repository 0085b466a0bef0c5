// Hostile programs (hostile13): the model's code reaching for what it must
// not have: host objects, the caller's context, the page's stack, tools
// hidden by toolFilter, another run's globals, timers, jobs and
// finalizers, side channels through Date and Math.random; and programs
// that try to exhaust the engine (catastrophic regexps, deep recursion,
// doubling strings, getters that never return). Each must end as the API
// says, and the next run must start clean.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, llmTools, run, sleep, tool, withFactory } from "./helpers.mjs";

describe("the program reaching out of the sandbox", () => {
    // require, XMLHttpRequest and WebSocket exist as stand-ins that throw a
    // hint; SharedArrayBuffer is QuickJS's own (no Atomics, no threads).
    test("no host global exists (or only as a stand-in that says to use tools), and the global object is the sandbox's own", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const names = ["process", "require", "module", "Deno", "Bun", "window", "document", "self", "postMessage", "importScripts", "XMLHttpRequest", "WebSocket", "Worker", "Atomics", "WebAssembly", "navigator", "location", "localStorage", "indexedDB", "__dirname", "Buffer"];
        const r = await run(
            api.createSession(),
            `const found = ${JSON.stringify(names)}.filter((n) => typeof globalThis[n] !== "undefined").filter((n) => { try { globalThis[n](); return true } catch (e) { return !/^\\w+ is not available in this sandbox: .*use the tools you are given/.test(e.message) } });
             const g1 = (function () { return this })();
             const g2 = Function("return this")();
             const g3 = tool_call.constructor.constructor("return this")();
             const g4 = (() => {}).constructor("return globalThis")();
             return [found, g1 === undefined || g1 === globalThis, g2 === globalThis, g3 === globalThis, g4 === globalThis]`,
        );
        assert.deepEqual(r.result, [[], true, true, true, true], JSON.stringify(r.error));
    });
    test("a tool's function shows no page source, and its prototype chain is the sandbox's", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => "PAGE-SOURCE-MARK")] });
        const r = await run(
            api.createSession(),
            "const f = tools.t.x; return [String(f).includes('PAGE-SOURCE-MARK'), Object.getPrototypeOf(f) === Function.prototype, Object.getPrototypeOf(tools) === Object.prototype || Object.getPrototypeOf(tools) === null]",
        );
        assert.deepEqual(r.result, [false, true, true], JSON.stringify(r.error));
    });
    // QuickJS keeps a typed array's pointer or length across the JavaScript
    // a builtin calls (here the new.target's prototype getter): a buffer
    // detached or resized there gave a view of the QuickJS instance's memory
    // from address 0, which the program could read and write.
    test("no buffer can be detached or resized under a typed array: its view stays inside its buffer", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const r = await run(
            api.createSession(),
            `const view = (ab, change) => {
                 const nt = function () {}.bind();
                 Object.defineProperty(nt, "prototype", { get() { change(ab); return Uint8Array.prototype; } });
                 try { const u = Reflect.construct(Uint8Array, [ab, 0, ab.byteLength], nt); let sum = 0; for (let i = 0; i < u.length; i++) sum += u[i]; return [u.length, ab.byteLength, sum]; }
                 catch (e) { return e.message }
             };
             return [
                 view(new ArrayBuffer(4096), (ab) => ab.transfer()),
                 view(new ArrayBuffer(4096, { maxByteLength: 4096 }), (ab) => ab.resize(0)),
                 view(new ArrayBuffer(4096), (ab) => structuredClone(0, { transfer: [ab] })),
             ]`,
        );
        assert.deepEqual(r.result, [
            "ArrayBuffer.prototype.transfer is not available here: buffer.slice() copies a buffer",
            "ArrayBuffer.prototype.resize is not available here: make a new ArrayBuffer of the size needed and copy the bytes into it",
            [4096, 4096, 0],
        ], JSON.stringify(r.error));
    });
    // QuickJS made the result of toReversed, toSorted, toSpliced and with
    // with every element counted before reading one: a garbage collection
    // run by a Proxy's trap took the unread ones for values (the words a
    // freed buffer left, here objects at 0xfffffff0) and followed them
    // out of the instance's memory, a crash. The sandbox's own versions
    // hold only what they read.
    test("toReversed, toSorted, toSpliced and with of a Proxy whose trap runs the garbage collector: no element is read before it is written", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const session = api.createSession();
        for (const call of ["toReversed.call(p)", "toSorted.call(p)", "toSpliced.call(p, 0, 0)", "with.call(p, 1, 1)"]) {
            const r = await run(
                session,
                `const N = 4096;
                 for (let k = 0; k < 20; k++) { const u = new Uint32Array(N * 2); for (let i = 0; i < u.length; i += 2) { u[i] = 0xFFFFFFF0; u[i + 1] = 0xFFFFFFFF; } }
                 let fired = 0;
                 const p = new Proxy([], { has() { return true }, get(t, k) { if (k === "length") return N; if (!fired) { fired = 1; const junk = []; for (let i = 0; i < 100000; i++) junk.push({ i }); } return 1; } });
                 const r = Array.prototype.${call};
                 return [r.length, r[0], r[N - 1], fired]`,
            );
            assert.deepEqual(r.result, [4096, 1, 1, 1], `${call}: ${JSON.stringify(r.error)}`);
        }
    });
    // QuickJS sized its table of a Proxy's ownKeys as 8 bytes times their
    // count in 32 bits: 2^29 + 1 keys made a table of 8 bytes that the
    // program's keys were written past, 2^29 failed an assertion.
    test("a Proxy whose ownKeys returns an array-like of 2^29 or 2^29 + 1 keys: a RangeError, nothing written past QuickJS's table", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const session = api.createSession();
        for (const n of [0x20000000, 0x20000001]) {
            const r = await run(
                session,
                `const keys = new Proxy({}, { get(t, k) { if (k === "length") return ${n}; const i = Number(k); if (i < 64) return "k" + i; throw new Error("stop") } });
                 try { return Object.keys(new Proxy({}, { ownKeys() { return keys } })).length } catch (e) { return e.name + ": " + e.message }`,
            );
            assert.equal(r.result, `RangeError: proxy: ownKeys returned ${n} keys; at most 536870911 are possible`, JSON.stringify(r.error));
        }
    });
    // `tools` is built on its first read, after the program ran.
    test("`tools` is whole and frozen after the program changed the built-ins it could have used", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("orders.list", () => 1), tool("ping", () => 2)] });
        const r = await run(
            api.createSession(),
            "const K = Object.keys, F = Object.isFrozen; Object.prototype.get = function () {}; String.prototype.split = () => []; Array.prototype[Symbol.iterator] = function* () {}; globalThis.Object = 5; return [typeof tools.orders.list, typeof tools['orders.list'], K(tools), F(tools), F(tools.orders), F(tools.orders.list)].join(' ')",
        );
        assert.equal(r.result, "function function orders,ping true true true", JSON.stringify(r.error));
    });
    test("the caller's context is not in an error, a search or a console line of the program", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => { throw new Error("tool failed"); })] });
        const r = await run(
            api.createSession(),
            "const out = []; try { await tools.t.x({}) } catch (e) { out.push(e.message, String(e.stack), JSON.stringify(Object.getOwnPropertyNames(e).map((k) => String(e[k])))) } out.push(JSON.stringify(await tool_search({ query: 'x' }))); console.log(out); return out.join(' ')",
            { context: { token: "CTX-SECRET" } },
        );
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.doesNotMatch(JSON.stringify(r), /CTX-SECRET/);
    });
});

describe("tools hidden by toolFilter do not exist for the program", () => {
    test("not callable, not listed, not suggested, and their error is an unknown tool's", async (t) => {
        let ran = 0;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            toolFilter: (d) => !d.name.startsWith("admin."),
            tools: [tool("admin.deleteAll", () => ++ran, { description: "Delete every account." }), tool("orders.list", () => [])],
        });
        const r = await run(
            api.createSession(),
            `const out = {};
             const msg = async (f) => { try { await f(); return "ran" } catch (e) { return e.message } };
             out.call = await msg(() => tool_call("admin.deleteAll", {}));
             out.dotted = await msg(() => tools.admin.deleteAll({}));
             out.key = await msg(() => tools["admin.deleteAll"]({}));
             out.typo = await msg(() => tool_call("admin.deleteAl", {}));
             out.never = await msg(() => tool_call("zzz.deleteAll", {}));
             out.search = JSON.stringify(await tool_search({ query: "delete every account admin", limit: 50 }));
             return out`,
        );
        assert.equal(r.ok, true, JSON.stringify(r.error));
        const o = r.result;
        assert.equal(ran, 0);
        for (const k of ["call", "dotted", "key", "typo"]) assert.match(o[k], /unknown tool/, k);
        assert.equal(o.call.replace("admin.deleteAll", "zzz.deleteAll"), o.never);
        assert.doesNotMatch(JSON.stringify([o.typo, o.search]), /deleteAll|Delete every/);
        // A program that does not write the name (tools.admin... makes a stand-in) cannot list it.
        const keys = await run(api.createSession(), "const n = ['ad', 'min'].join(''); return [Object.getOwnPropertyNames(tools), Reflect.ownKeys(tools).map(String), n in tools, typeof tools[n], JSON.stringify(tools)]");
        // A full name ("orders.list") reads through the namespaces and is no
        // own key (USAGE).
        assert.deepEqual(keys.result, [["orders"], ["orders"], false, "undefined", JSON.stringify({ orders: {} })], JSON.stringify(keys.error));
        // Nor does reading a full name through them find a hidden tool.
        const full = await run(api.createSession(), "const n = ['admin', 'deleteAll'].join('.'); return [n in tools, typeof tools[n], 'orders.list' in tools, typeof tools['orders.list']]");
        assert.deepEqual(full.result, [false, "undefined", true, "function"], JSON.stringify(full.error));
    });
});

describe("no run sees another's data", () => {
    test("timers, intervals and jobs of a finished run log nothing into the next (there are no finalizers: FinalizationRegistry is withheld, hostile15)", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const s = api.createSession();
        const a = await run(
            s,
            "setTimeout(() => console.log('A-timer'), 20); setInterval(() => console.log('A-interval'), 5); Promise.resolve().then(() => new Promise((r) => setTimeout(r, 20))).then(() => console.log('A-job')); globalThis.leak = 'A'; return 1",
        );
        assert.equal(a.result, 1);
        const b = await run(s, "const junk = []; for (let i = 0; i < 2e5; i++) junk.push({ i }); await new Promise((r) => setTimeout(r, 200)); return typeof globalThis.leak");
        assert.equal(b.result, "undefined");
        assert.doesNotMatch(JSON.stringify([a.logs, b.logs]), /A-/);
    });
    test("a concurrent run's interval calls tools only in its own run", async (t) => {
        let release;
        const calls = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [tool("t.wait", () => new Promise((r) => (release = r))), tool("t.log", (i, o) => (calls.push(`${i.who}/${o.context}`), 1))],
        });
        const s = api.createSession();
        const a = run(s, "setInterval(() => tools.t.log({ who: 'A' }), 5); await tools.t.wait({}); return 'A'", { context: "A" });
        while (!release) await sleep(10);
        const b = await run(s, "await new Promise((r) => setTimeout(r, 100)); await tools.t.log({ who: 'B' }); return 'B'", { context: "B" });
        release();
        const ra = await a;
        assert.deepEqual(b.toolCalls.map((c) => c.name), ["t.log"]);
        assert.equal(ra.result, "A");
        assert.ok(ra.toolCalls.length >= 2, JSON.stringify(ra.toolCalls));
        assert.ok(calls.every((c) => c === "A/A" || c === "B/B"), JSON.stringify(calls));
        assert.equal(calls.filter((c) => c === "B/B").length, 1);
    });
    test("Date and Math.random replaced by one run are the real ones in the next", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const s = api.createSession();
        await run(s, "Math.random = () => 0.5; Date.now = () => 0; Date.prototype.getTime = () => 0; globalThis.Date = function () { return 'fake' }; return 1");
        const r = await run(s, "const v = new Set([Math.random(), Math.random(), Math.random()]); return [v.size, Date.now() > 1.7e12, new Date().getTime() > 1.7e12, typeof new Date()]");
        assert.deepEqual(r.result, [3, true, true, "object"]);
    });
});

describe("programs that try to exhaust the engine", () => {
    test("catastrophic regexp backtracking: TIMEOUT, the next run works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 1000 });
        const s = api.createSession();
        const r = await run(s, "console.log('before'); return /^(a+)+$/.test('a'.repeat(40) + 'b')");
        assert.equal(r.error?.code, "TIMEOUT", JSON.stringify(r.error));
        assert.deepEqual(r.logs.map((l) => l.message), ["before"]);
        assert.equal((await run(s, "return 1")).result, 1);
    });
    // QuickJS's stack overflow is an InternalError ("stack overflow").
    test("unbounded recursion is an error the program catches, and one it does not is RUNTIME", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const s = api.createSession();
        const caught = await run(s, "const f = (n) => f(n + 1) + 1; try { f(0) } catch (e) { return e.name + ': ' + e.message }");
        assert.equal(caught.result, "InternalError: stack overflow");
        const uncaught = await run(s, "function f(n) { return [f(n + 1)] } return f(0)");
        assert.equal(uncaught.error?.code, "RUNTIME");
        // The run's error says RangeError, as V8 would (sandbox/errors.go).
        assert.deepEqual([uncaught.error?.name, uncaught.error?.message], ["RangeError", "stack overflow"]);
        assert.equal((await run(s, "return 1")).result, 1);
    });
    // Concatenation makes ropes: doubling reaches QuickJS's string length
    // limit (2^30 - 1) before it takes memory; flat strings kept take memory.
    test("a string doubled for ever is a RUNTIME 'string too long', flat strings kept are MEMORY_LIMIT; the next run works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 64 });
        const s = api.createSession();
        const doubled = await run(s, "let s = 'x'; for (;;) s = s + s");
        assert.deepEqual([doubled.error?.code, doubled.error?.name, doubled.error?.message], ["RUNTIME", "InternalError", "string too long"]);
        const r = await run(s, "const keep = []; for (;;) keep.push('x'.repeat(1e6) + keep.length)");
        assert.equal(r.error?.code, "MEMORY_LIMIT", JSON.stringify(r.error));
        assert.equal((await run(s, "return 'x'.repeat(1e6).length")).result, 1e6);
    });
    test("an error whose message getter never returns: TIMEOUT, the next run works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 1000 });
        const s = api.createSession();
        const r = await run(s, "const e = new Error('x'); Object.defineProperty(e, 'message', { get() { for (;;) {} } }); throw e");
        assert.equal(r.error?.code, "TIMEOUT", JSON.stringify(r.error));
        assert.equal((await run(s, "return 1")).result, 1);
    });
    // Both read "[object Object]", saying nothing of why.
    test("a 1e5-deep object logged or thrown says why it is not shown whole", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const r = await run(api.createSession(), "let o = 1; for (let i = 0; i < 1e5; i++) o = { a: o }; console.log(o); throw o");
        assert.equal(r.logs[0].message, '{"a":'.repeat(100) + '"[more than 100 levels deep]"' + "}".repeat(100));
        assert.equal(r.error.message, "a non-Error value was thrown: [object Object] (not shown as JSON: JSON.stringify: the value nests more than 1,000 levels deep)");
    });
    test("a result Proxy whose ownKeys lies: RESULT_NOT_SERIALIZABLE or a converted value, never a crash", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const s = api.createSession();
        const r = await run(s, "return new Proxy({}, { ownKeys: () => ['a', 'a'], getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }) })");
        assert.equal(r.ok, false);
        assert.equal(r.error.code, "RESULT_NOT_SERIALIZABLE", JSON.stringify(r.error));
        assert.equal((await run(s, "return 1")).result, 1);
    });
    test("tool_search with hostile query and limit: a clear error or an answer, the run goes on", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("orders.list", () => [])] });
        const r = await run(
            api.createSession(),
            "const out = []; for (const a of [{ query: { toString() { return 'orders' } } }, { query: 'orders', limit: { valueOf() { return 1e9 } } }, { query: 'orders', limit: 1e9 }, { query: 'orders', limit: -1 }, { query: 'orders', limit: NaN }]) { try { out.push((await tool_search(a)).length) } catch (e) { out.push(e.name) } } return out",
        );
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.equal(r.result.length, 5);
        for (const v of r.result) assert.ok(v === 1 || v === 0 || v === "TypeError" || v === "RangeError", JSON.stringify(r.result));
        assert.equal(r.result[2], 1);
    });
    test("a tool input that is a revoked Proxy is a catchable TypeError, and no call starts", async (t) => {
        let ran = 0;
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => ++ran)] });
        const r = await run(api.createSession(), "const p = Proxy.revocable({}, {}); p.revoke(); try { await tools.t.x(p.proxy) } catch (e) { return e.name + ': ' + e.message }");
        assert.match(r.result, /^TypeError: .*revoked/);
        assert.equal(ran, 0);
    });
    test("executeCode's code given as an object with toString is INVALID_INPUT, not run", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        let called = 0;
        const r = await llmTools(api.createSession()).executeCode.execute({ code: { toString: () => (++called, "return 1") }, explanation: "" });
        assert.equal(r.ok, false);
        assert.equal(r.error.code, "INVALID_INPUT");
        assert.match(r.error.message, /code/);
        assert.equal(called, 0);
    });
});
