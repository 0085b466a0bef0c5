// Attempts of the thirty-second session (security32), written before
// reading the code under test: the memory count and GC threshold of
// session 31 (realloc growth and shrink, churn, runs at the limit, what a
// session holds from one run to the next), approvals and interceptors that
// answer late, twice or never, tool names that are Object.prototype's
// keys, and tool results and errors that cannot be read. Each row is the
// outcome a run must have, the host runs only the tools the row names,
// and the next run of the same session works, in both engine modes
// (CODE_MODE_WORKER=1). The three that did not hold are fixed and tested
// here too: a URL and a Proxy whose handler reaches it were kept for the
// whole run (QuickJS keeps a WeakMap entry whose value reaches its key;
// root TestURLsLeaveNoGarbageForTheRun, sandbox
// TestProxiesLeaveNoGarbageForTheRun), and a run that once held nearly its
// limit never collected again (TestCyclicGarbageAfterHoldingNearTheLimit).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, run, sleep, tool, withFactory, within } from "./helpers.mjs";

/** How many 64 KB strings a run holds before QuickJS's "out of memory". */
const capacity = `const held = []; let n = 0; try { for (;;) { held.push("x".repeat(65536) + n); n++ } } catch (e) { return n }`;

describe("hostile32: the memory count, approvals, Object.prototype names, unreadable results", () => {
    test("what a session can hold is the same after runs that churn memory, end at the limit or catch it", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 16, timeout: 60_000 });
        const session = api.createSession();
        const base = await run(session, capacity);
        assert.equal(base.ok, true, JSON.stringify(base.error));
        assert.ok(base.result > 200, `only ${base.result} x 64 KB under 16 MB`);
        const churn = [
            ["arrays grown and truncated", `for (let k = 0; k < 10; k++) { const a = []; for (let i = 0; i < 2e5; i++) a.push(i); a.length = 0; for (let i = 0; i < 1e5; i++) a.push({ i }); a.length = 10 } return 1`, null],
            ["strings built by += and dropped", `for (let k = 0; k < 10; k++) { let s = ""; for (let i = 0; i < 1e5; i++) s += "abcdefghij"; s.length } return 1`, null],
            ["typed arrays, Map and Set churn", `for (let k = 0; k < 10; k++) { const u = new Uint8Array(1e6).fill(1); Uint8Array.from(function* () { for (let i = 0; i < 1e4; i++) yield i }()); u.subarray(5).map((x) => x); const m = new Map(), st = new Set(); for (let i = 0; i < 5e4; i++) { m.set(i, i); st.add("k" + i) } m.clear(); st.clear() } return 1`, null],
            ["a cyclic graph grown to the limit", `const root = {}; let cur = root; for (;;) { const o = { p: cur, a: [cur, root, "s" + Math.random()] }; cur.n = o; cur = o }`, "MEMORY_LIMIT"],
            ["out of memory caught 100 times over cycles", `let caught = 0; const held = []; for (let k = 0; k < 100; k++) { try { for (;;) { const o = { s: "y".repeat(1e5) + k }; o.o = o; held.push(o) } } catch (e) { caught++; held.length = 0 } } return caught`, null],
            ["a global of 8 MB", `globalThis.kept = "k".repeat(8e6); return 1`, null],
        ];
        for (const [name, code, code_] of churn) {
            for (let i = 0; i < 2; i++) {
                const r = await within(run(session, code), 120_000);
                assert.notEqual(r, "hung", name);
                if (code_ === null) assert.equal(r.ok, true, `${name}: ${JSON.stringify(r.error)}`);
                else assert.equal(r.error && r.error.code, code_, `${name}: ${JSON.stringify(r.error || r.result)}`);
            }
            const after = await run(session, `if (typeof kept !== "undefined") return -1; ${capacity}`);
            assert.ok(after.ok && Math.abs(after.result - base.result) <= 4, `after ${name}: ${JSON.stringify(after)} x 64 KB, ${base.result} before`);
        }
    });

    test("URLs and Proxies whose handler reaches them, made and dropped, are collected within the run", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 8, timeout: 120_000 });
        const session = api.createSession();
        for (const [name, code] of [
            // About 650 bytes each were kept: 13 MB under a limit of 8 MB.
            ["20,000 URLs", `let n = 0; for (let i = 0; i < 2e4; i++) { const u = new URL("http://x/a" + i + "?q=" + i); u.searchParams.set("r", i); n += u.search.length > 0 } return n`],
            ["20,000 Proxies whose trap names the proxy", `let n = 0; for (let i = 0; i < 2e4; i++) { const p = new Proxy({ pad: "p".repeat(300) + i }, { get(t, k) { return k === "self" ? p : t[k] } }); n += p.self === p } return n`],
        ]) {
            const r = await within(run(session, code), 180_000);
            assert.notEqual(r, "hung", name);
            assert.equal(r.ok, true, `${name}: ${JSON.stringify(r.error)}`);
            assert.equal(r.result, 20000, name);
        }
        const live = await run(session, `const u = new URL("http://x/a?q=1"); u.searchParams.append("k", "v w"); u.searchParams.delete("q"); return [u.href, Object.getOwnPropertyNames(URLSearchParams).includes("_own")]`);
        assert.deepEqual(live.result, ["http://x/a?k=v+w", false], JSON.stringify(live.error));
    });

    // A collection with less than limit/16 left put the next one past the
    // limit, where it stayed once the program let go of what it held: its
    // cyclic garbage was never collected again (sandbox
    // TestCyclicGarbageAfterHoldingNearTheLimit, ffi TestGCThreshold).
    test("a run that held nearly its limit and let go of it still collects its cyclic garbage", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 16, timeout: 120_000 });
        const session = api.createSession();
        const r = await within(run(session, `let h = []; for (let i = 0; i < 990; i++) h.push("x".repeat(16000) + i); const o0 = {}; o0.o = o0; h = null;
            let n = 0; for (let i = 0; i < 5000; i++) { const o = { s: "y".repeat(16000) + i }; o.o = o; n++ } return n`), 180_000);
        assert.notEqual(r, "hung");
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.equal(r.result, 5000);
    });

    test("onToolCall answers that never settle, throw from then, settle twice or come after the run: the tool runs only when allowed, once", async (t) => {
        const calls = [];
        let decide = () => ({ allowed: true });
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 2000,
            interceptors: { onToolCall: (c) => decide(c) },
            tools: [tool("a.one", () => (calls.push("one"), "one"))],
        });
        const session = api.createSession();
        const call = `try { return await tools.a.one({}) } catch (e) { return "threw: " + e.message }`;
        let late = null;
        for (const [name, d, want] of [
            ["a thenable whose then throws", () => ({ then() { throw new Error("then threw") } }), /^threw: call to a\.one denied: the interceptor failed \(onToolCall rejected: then threw\)$/],
            ["a then getter that throws", () => ({ get then() { throw new Error("getter threw") } }), /^threw: call to a\.one denied: the interceptor failed \(onToolCall rejected: getter threw\)$/],
            ["a thenable that denies, then allows", () => ({ then(r) { r({ allowed: false, reason: "no" }); r({ allowed: true }) } }), /^threw: call to a\.one denied: no$/],
            ["an input getter that throws", () => ({ allowed: true, get input() { throw new Error("input getter") } }), /^threw: call to a\.one denied: the interceptor failed \(onToolCall rejected: input getter\)$/],
            ["a Proxy for a decision", () => new Proxy({}, { get: (o, k) => (k === "allowed" ? true : undefined) }), /^threw: call to a\.one denied: the interceptor failed \(onToolCall returned an object; expected/],
            ["allowed: 'yes'", () => ({ allowed: "yes" }), /^threw: call to a\.one denied: the interceptor failed \(onToolCall's decision: allowed: expected true or false/],
        ]) {
            decide = d;
            const r = await run(session, call);
            assert.match(r.result, want, `${name}: ${JSON.stringify(r.error)}`);
            assert.deepEqual(calls, [], name);
        }
        for (const d of [() => ({ then() {} }), () => new Promise((resolve) => (late = resolve))]) {
            decide = d;
            const r = await within(run(session, call), 60_000);
            assert.equal(r.error && r.error.code, "TIMEOUT", JSON.stringify(r));
            assert.match(r.error.message, /waiting for the host's decision \(onToolCall\) on its call of tool a\.one/);
        }
        late({ allowed: true });
        decide = () => ({ allowed: true });
        await sleep(100);
        assert.deepEqual(calls, [], "the approval that came after its run ended ran the tool");
        const next = await run(session, call);
        assert.equal(next.result, "one");
        assert.deepEqual(calls, ["one"]);
        // An approval after the session was disposed.
        calls.length = 0;
        decide = () => new Promise((resolve) => (late = resolve));
        const other = api.createSession();
        const pending = run(other, call);
        for (let i = 0; i < 400 && late === null; i++) await sleep(25);
        other.dispose();
        late({ allowed: true });
        await assert.rejects(pending, /disposed/);
        await sleep(100);
        assert.deepEqual(calls, []);
    });

    test("tools named as Object.prototype's keys register, are found and run as themselves; a hidden one stays unknown", async (t) => {
        const calls = [];
        const names = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "__defineGetter__", "prototype", "a.__proto__", "__proto__.x", "constructor.prototype", "toString.call", "hid.__proto__"];
        const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (d) => !d.name.startsWith("hid."), tools: names.map((n) => tool(n, () => (calls.push(n), { ran: n }))) });
        assert.deepEqual(api.listTools().map((d) => d.name).sort(), names.filter((n) => !n.startsWith("hid.")).sort());
        const session = api.createSession();
        const r = await run(session, `const out = []; for (const n of ${JSON.stringify(names)}) { try { out.push((await tool_call(n, {})).ran) } catch (e) { out.push(e.message) } }
            for (const f of [() => tools.constructor({}), () => tools.__proto__({}), () => tools.toString({}), () => tools.a.__proto__({}), () => tools.__proto__.x({}), () => tools.constructor.prototype({})]) out.push((await f()).ran);
            const found = (await tool_search({ query: "__proto__" })).map((d) => d.name);
            return JSON.stringify([out, Object.getPrototypeOf(tools) === null, found.includes("hid.__proto__"), found.includes("__proto__")])`);
        assert.equal(r.ok, true, JSON.stringify(r.error));
        const [out, nullProto, hiddenFound, found] = JSON.parse(r.result);
        assert.match(out[names.length - 1], /^unknown tool "hid\.__proto__"; /);
        assert.ok(!out[names.length - 1].replace('"hid.__proto__"', "").includes("hid"), out[names.length - 1]);
        out[names.length - 1] = "unknown";
        assert.deepEqual(out, [...names.slice(0, -1), "unknown", "constructor", "__proto__", "toString", "a.__proto__", "__proto__.x", "constructor.prototype"]);
        assert.deepEqual([nullProto, hiddenFound, found], [true, false, true]);
        assert.ok(!calls.includes("hid.__proto__"));
    });

    test("tool results and throws that cannot be read end the call with a clear error, and the next run works", async (t) => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        const big = new Error("m".repeat(1e7));
        big.cause = big;
        const results = {
            getter: () => ({ ok: 1, get bad() { throw new Error("getter boom") } }),
            revoked: () => ({ a: [1, proxy] }),
            keys: () => new Proxy({}, { ownKeys() { throw new Error("ownKeys boom") } }),
            sab: () => new SharedArrayBuffer(4),
            port: () => new MessageChannel().port1,
            self: () => ({ then(r) { r(this) } }),
        };
        const throws = {
            bigCause: () => { throw big },
            revokedThrown: () => { throw proxy },
            toStringThrows: () => { throw { toString() { throw new Error("ts boom") } } },
            messageGetter: () => { const e = new Error("x"); Object.defineProperty(e, "message", { get() { throw new Error("msg boom") } }); throw e },
        };
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [...Object.entries(results), ...Object.entries(throws)].map(([k, f]) => tool("x." + k, f)),
        });
        const session = api.createSession();
        const r = await run(session, `const out = {}; for (const k of ${JSON.stringify([...Object.keys(results), ...Object.keys(throws)])}) { try { out[k] = "got " + JSON.stringify(await tool_call("x." + k, {})) } catch (e) { out[k] = e.name + ": " + e.message.slice(0, 80) + " " + e.message.length } } return out`);
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(r.result, {
            getter: "ToolError: the tool returned a value that is not JSON data: getter boom 60",
            revoked: "ToolError: the tool returned a value that is not JSON data: Cannot perform 'get' on a proxy 102",
            keys: "ToolError: the tool returned a value that is not JSON data: ownKeys boom 61",
            sab: "got [0,0,0,0]",
            port: "got {}",
            self: r.result.self.startsWith("ToolError: the tool's value is a thenable that resolved with a thenable 32 times over") ? r.result.self : "a thenable that resolves with itself",
            bigCause: `ToolError: ${"m".repeat(80)} 1027`,
            revokedThrown: "ToolError: a tool threw an object that cannot be read (Cannot perform 'get' on a proxy that 98",
            toStringThrows: "ToolError: {} 2",
            messageGetter: "ToolError: (its message cannot be read: reading it threw: msg boom) 56",
        });
        const next = await run(session, "return 2");
        assert.equal(next.result, 2, JSON.stringify(next.error));
    });
});
