// Hostile programs (hostile15), written from what a model's code knows: the
// two tools, the documented globals and QuickJS. Host objects that tools and
// interceptors hand back, tools hidden by toolFilter, data a run leaves for
// the next, built-ins that fail at the memory limit, and the values JSON
// bends (-0, NaN, holes, lone surrogates, Symbols, toJSON). Each row states
// the safe outcome, in both engine modes (CODE_MODE_WORKER=1).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, llmTools, run, sleep, tool, withFactory } from "./helpers.mjs";

describe("what tools and interceptors hand back is data, never a host object", () => {
    test("a tool's class instance, prototype, getter and function arrive as plain data", async (t) => {
        class Account {
            constructor() { this.id = 1; }
            get balance() { return "GETTER"; }
            close() { return "METHOD"; }
        }
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [
                tool("t.instance", () => new Account()),
                tool("t.inherits", () => Object.create({ inherited: "PROTO" }, { own: { value: 1, enumerable: true } })),
                tool("t.getter", () => ({ get g() { return "G"; }, fn: () => "HOST-FN" })),
            ],
        });
        const r = await run(
            api.createSession(),
            `const a = await tools.t.instance({}), b = await tools.t.inherits({}), c = await tools.t.getter({});
             const plain = (o) => Object.getPrototypeOf(o) === Object.prototype && o.constructor === Object;
             return [plain(a), typeof a.close, "balance" in a, Object.keys(a), plain(b), "inherited" in b, Object.keys(b),
                     Object.getOwnPropertyDescriptor(c, "g"), "fn" in c]`,
        );
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(r.result, [true, "undefined", false, ["id"], true, false, ["own"], { value: "G", writable: true, enumerable: true, configurable: true }, false]);
    });

    // A tool's or an interceptor's error is a message for the program: its
    // cause, its errors, its own properties and its host stack stay on the page.
    test("errors thrown by tools and interceptors carry their message only: no cause, errors, own properties or host stack", async (t) => {
        const fail = {
            "t.cause": () => { const e = new Error("with cause", { cause: new Error("CAUSE-SECRET") }); e.secret = "PROP-SECRET"; throw e; },
            "t.agg": () => { throw new AggregateError([new Error("AGG-SECRET")], "aggregate"); },
            "t.obj": () => { throw { message: "an object", secret: "OBJ-SECRET" }; },
            "t.str": () => { throw "a string"; },
            "i.cause": () => 1,
            "i.agg": () => 1,
            "i.reason": () => 1,
        };
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: {
                onToolCall: async ({ tool: { name } }) => {
                    if (name === "i.cause") throw new Error("deny", { cause: new Error("ICAUSE-SECRET") });
                    if (name === "i.agg") throw new AggregateError([new Error("IAGG-SECRET")], "deny all");
                    if (name === "i.reason") return { allowed: false, reason: { toString: () => "REASON-OBJ-SECRET" } };
                    return { allowed: true };
                },
            },
            tools: Object.entries(fail).map(([n, f]) => tool(n, f)),
        });
        const r = await run(
            api.createSession(),
            `const out = {};
             for (const n of ${JSON.stringify(Object.keys(fail))}) {
                 try { await tool_call(n, {}); out[n] = "ran" } catch (e) {
                     out[n] = [e.name, e.message, "cause" in e, "errors" in e, "secret" in e, Object.getOwnPropertyNames(e).sort(), e.stack.replace(/code\\.js:\\d+:\\d+/g, "code.js")];
                 }
             }
             return out`,
        );
        assert.equal(r.ok, true, JSON.stringify(r.error));
        const shape = (message) => ["ToolError", message, false, false, false, ["message", "name", "stack"], "    at <anonymous> (code.js)\n"];
        assert.deepEqual(r.result, {
            "t.cause": shape("with cause"),
            "t.agg": shape("aggregate"),
            "t.obj": shape("an object"),
            "t.str": shape("a string"),
            "i.cause": shape("call to i.cause denied: the interceptor failed (onToolCall rejected: deny)"),
            "i.agg": shape("call to i.agg denied: the interceptor failed (onToolCall rejected: deny all)"),
            "i.reason": shape("call to i.reason denied: denied by onToolCall"),
        });
        assert.doesNotMatch(JSON.stringify(r), /SECRET/);
    });
});

describe("a tool hidden by toolFilter (or another session's own) leaves no trace", () => {
    // The same probe on a factory that has the hidden tools and on one that
    // never had them must see exactly the same: calls, suggestions, search
    // ranking, namespaces, the instruction and searchTools.
    test("a program cannot tell a hidden tool from one that was never registered", async (t) => {
        const visible = () => [
            tool("orders.list", () => [], { description: "List the orders of a customer." }),
            tool("orders.get", () => ({}), { description: "Get one order by id." }),
            tool("payments.refund", () => 1, { description: "Refund a payment of an order." }),
        ];
        const hidden = [
            tool("orders.delete", () => 1, { description: "Delete an order and refund its payment for ever.", inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } }),
            tool("admin.refundAll", () => 1, { description: "Refund every order payment." }),
        ];
        const probe = `const out = {};
            const msg = async (f) => { try { return ["ran", await f()] } catch (e) { return [e.name, e.message] } };
            for (const n of ["orders.delete", "orders.delet", "orders.deleted", "orders.Delete", "admin.refundAll", "admin.refund", "crm.wipe"]) {
                out[n] = [await msg(() => tool_call(n, {})), await msg(() => tool_call(n, { id: 5 }))];
            }
            out.dotted = await msg(() => tools.orders.delete({ id: "1" }));
            out.names = [Object.keys(tools.orders), Reflect.ownKeys(tools).map(String), typeof tools.admin, typeof tools.crm];
            for (const q of ["delete order", "refund payment", "orders", "delete", "admin", "refund every order payment", "for ever", "wipe crm"]) out["search " + q] = await tool_search({ query: q, limit: 10 });
            for (const ns of ["admin", "orders", "crm", "zzz"]) out["namespace " + ns] = await msg(() => tool_search({ namespace: ns }));
            out["namespace orders, delete"] = await msg(() => tool_search({ namespace: "orders", query: "delete" }));
            return out`;
        const outcome = async (withHidden) => {
            const intercepted = [];
            const api = await withFactory(t, {
                wasmLocation: assetPath,
                tools: withHidden ? [...visible(), ...hidden] : visible(),
                toolFilter: (d) => d.name !== "orders.delete" && !d.name.startsWith("admin."),
                interceptors: { onToolCall: async (c) => (intercepted.push(c.tool.name), { allowed: true }) },
            });
            if (withHidden) api.createSession({ tools: [tool("crm.wipe", () => 1, { description: "Wipe the CRM for ever." })] });
            const s = api.createSession();
            const r = await run(s, probe);
            assert.equal(r.ok, true, JSON.stringify(r.error));
            const searched = await llmTools(s).searchTools.execute({ query: "delete refund order payment wipe", limit: 20 });
            return { result: r.result, logs: r.logs, calls: r.toolCalls.map(({ durationMs, ...c }) => c), instruction: s.getSystemInstruction(), searched, listed: api.listTools().map((d) => d.name), intercepted };
        };
        const [a, b] = [await outcome(true), await outcome(false)];
        for (const k of Object.keys(b)) assert.deepEqual(a[k], b[k], k);
        assert.deepEqual(a.intercepted, []);
        assert.match(a.result["orders.delete"][0][1], /^unknown tool "orders.delete"/);
    });
});

describe("nothing of one run reaches another", () => {
    // Inferred result types hold a result's keys, which can be data.
    test("the result type a session inferred from its results is not in another session's search or instruction", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("crm.lookup", (i) => ({ [i.key]: 1, ok: true }), { description: "Look up a customer." })] });
        const a = api.createSession(), b = api.createSession();
        assert.equal((await run(a, "await tools.crm.lookup({ key: 'ALICE_SSN_123' }); return 1")).result, 1);
        const mine = await run(a, "return (await tool_search({ query: 'customer' }))[0].signature");
        assert.match(mine.result, /ALICE_SSN_123: number/);
        const other = await run(b, "return JSON.stringify([await tool_search({ query: 'customer' }), await tool_search({ namespace: 'crm' })])");
        assert.equal(other.ok, true, JSON.stringify(other.error));
        const searched = await llmTools(b).searchTools.execute({ query: "customer" });
        assert.doesNotMatch(JSON.stringify([other.result, b.getSystemInstruction(), searched, api.listTools()]), /ALICE/);
    });
    // FinalizationRegistry is withheld (its callbacks run from QuickJS's
    // collector, where its use-after-free bugs are: bellard/quickjs#494,
    // quickjs-ng#1318): a run cannot register a finalizer, and what it
    // leaves (a WeakRef, a global) never reaches a later run.
    test("a run can register no finalizer, and nothing it left calls a tool in a later run", async (t) => {
        const calls = [];
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.log", (i, o) => (calls.push(`${i.who}/${o.context}`), 1))] });
        const s = api.createSession();
        const a = await run(
            s,
            "let why; try { const f = new FinalizationRegistry((who) => { tools.t.log({ who }); console.log('A-finalizer') }); (() => { for (let i = 0; i < 100; i++) f.register({}, 'A') })() } catch (e) { why = e.name } globalThis.keep = { big: 'x'.repeat(1e5) }; globalThis.ref = new WeakRef({}); return [typeof FinalizationRegistry, Object.getOwnPropertyNames(globalThis).includes('FinalizationRegistry'), why]",
            { context: "A" },
        );
        assert.deepEqual(a.result, ["undefined", false, "ReferenceError"], JSON.stringify(a.error));
        const b = await run(
            s,
            "const junk = []; for (let i = 0; i < 3e5; i++) junk.push({ i }); junk.length = 0; await new Promise((r) => setTimeout(r, 100)); await tools.t.log({ who: 'B' }); return [typeof keep, typeof ref]",
            { context: "B" },
        );
        assert.deepEqual(b.result, ["undefined", "undefined"], JSON.stringify(b.error));
        assert.deepEqual(b.toolCalls.map((c) => c.name), ["t.log"]);
        assert.doesNotMatch(JSON.stringify(b.logs), /A-/);
        assert.deepEqual(calls, ["B/B"]);
    });
    test("a run in flight and one that starts meanwhile do not share globals or prototypes", async (t) => {
        // A awaits a tool until B has run: B starts while A is in flight,
        // its globals set (a fixed 50 ms, which a loaded machine did not
        // always give A, let B check nothing).
        let release, waiting;
        const gate = new Promise((r) => { release = r; });
        const waited = new Promise((r) => { waiting = r; });
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.wait", () => (waiting(), gate.then(() => 1)))] });
        const s = api.createSession();
        const a = run(s, "globalThis.shared = 'A'; Object.prototype.polluted = 'A'; Symbol.for('A-key'); await tools.t.wait({}); return [globalThis.shared, ({}).polluted]");
        await waited;
        const b = await run(s, "return [typeof globalThis.shared, typeof ({}).polluted, 'polluted' in Object.prototype]");
        release();
        assert.deepEqual(b.result, ["undefined", "undefined", false], JSON.stringify(b.error));
        assert.deepEqual((await a).result, ["A", "A"]);
    });
    // A sandbox image that held the generator's state would give every run
    // the same numbers: one run could then predict another's.
    test("Math.random and crypto differ between runs of a session and between factories", async (t) => {
        const code = "return [Math.random(), Math.random(), crypto.randomUUID()]";
        const api = await withFactory(t, { wasmLocation: assetPath });
        const other = await withFactory(t, { wasmLocation: assetPath });
        const s = api.createSession();
        const got = [await run(s, code), await run(s, code), await run(api.createSession(), code), await run(other.createSession(), code)].map((r) => r.result);
        assert.equal(new Set(got.flat()).size, 12, JSON.stringify(got));
    });
});

describe("resource attacks end as the API says, and the next run works", () => {
    // QuickJS's normalize and localeCompare allocate through the runtime and
    // fail at the limit without setting an exception: the run read "a
    // non-Error value was thrown: [unsupported type]" (RUNTIME).
    test("normalize and localeCompare past memoryLimit are MEMORY_LIMIT", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 16, timeout: 30000 });
        const s = api.createSession();
        for (const code of [
            "return '\\uFDFA'.repeat(1e6).normalize('NFKD').length",
            "const a = '\\u00e9'.repeat(4e6); return a.localeCompare('e'.repeat(4e6))",
        ]) {
            const r = await run(s, code);
            assert.deepEqual([r.error?.code, r.error?.name, r.error?.message], ["MEMORY_LIMIT", "InternalError", "out of memory (the run's memory limit is 16 MB: hold less data at once, e.g. work through it in parts and keep only what the result needs)"], code);
            assert.equal((await run(s, "return 'ok'")).result, "ok", code);
        }
    });
    test("memory filled to just under the limit, then a tool's result pushes it over: MEMORY_LIMIT", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 64, timeout: 30000, tools: [tool("t.big", ({ n }) => "y".repeat(n))] });
        const s = api.createSession();
        const r = await run(
            s,
            // 60 MB held, then a 10 MB string refused: the catch has room
            // for its error. (Filling until refused may leave a few bytes,
            // and a full heap ends the run at once.)
            "const keep = []; for (let i = 0; i < 60; i++) keep.push('x'.repeat(1e6) + i); try { keep.push('x'.repeat(1e7)) } catch (e) { console.log('full: ' + e.message) } keep.length -= 3; const big = await tools.t.big({ n: 3e7 }); return [keep.length, big.length]",
        );
        assert.equal(r.error?.code, "MEMORY_LIMIT", JSON.stringify(r.error));
        assert.deepEqual(r.logs.map((l) => l.message), ["full: out of memory"]);
        assert.deepEqual(r.toolCalls.map((c) => [c.name, c.ok]), [["t.big", true]]);
        assert.equal((await run(s, "return (await tools.t.big({ n: 10 })).length")).result, 10);
    });
    test("promise jobs that queue themselves for ever: TIMEOUT", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 1000 });
        const s = api.createSession();
        const r = await run(s, "console.log('before'); function f() { Promise.resolve().then(f) } f(); await new Promise((r) => setTimeout(r, 10)); return 'never'");
        assert.equal(r.error?.code, "TIMEOUT", JSON.stringify(r.error));
        assert.deepEqual(r.logs.map((l) => l.message), ["before"]);
        assert.equal((await run(s, "return 1")).result, 1);
    });
    test("1e6 promises left pending: the run returns, the next run works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 30000 });
        const s = api.createSession();
        const r = await run(s, "const ps = []; for (let i = 0; i < 1e6; i++) ps.push(new Promise(() => {})); return ps.length");
        assert.equal(r.result, 1e6, JSON.stringify(r.error));
        assert.equal((await run(s, "return 1")).result, 1);
    });
    test("a result string past memoryLimit: MEMORY_LIMIT that says the result could not be converted", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 64, timeout: 30000 });
        const s = api.createSession();
        const r = await run(s, "return 'x'.repeat(5e7)");
        assert.deepEqual([r.error?.code, r.error?.message], ["MEMORY_LIMIT", "the result cannot be converted to JSON: out of memory (the run's memory limit is 64 MB: hold less data at once, e.g. work through it in parts and keep only what the result needs)"]);
        assert.equal((await run(s, "return 1")).result, 1);
    });
    // JSON writes, and String joins, every index of a sparse array: a log
    // line, an uncaught timer error or the run's error of one held the run
    // until its timeout (the result and tool inputs refuse one already).
    test("an array of 1e9 elements logged, thrown from a timer, thrown, or as a cause: the run goes on or fails as RUNTIME", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 10000 });
        const s = api.createSession();
        const logged = await run(s, "const a = []; a.length = 1e9; console.log(a); setTimeout(() => { throw a }, 0); await new Promise((r) => setTimeout(r, 20)); const e = new Error('x'); e.name = a; console.log(e); return 1");
        assert.equal(logged.result, 1, JSON.stringify(logged.error));
        assert.deepEqual(logged.logs.map((l) => l.message.slice(0, 50)), ["[null,null,null,null,null,null,null,null,null,null", "uncaught in a setTimeout callback: [null,null,null", "[an array of 1000000000 elements]: x"]);
        const thrown = await run(s, "const a = []; a.length = 1e9; throw a");
        assert.equal(thrown.error?.code, "RUNTIME", JSON.stringify(thrown.error));
        assert.match(thrown.error.message, /^a non-Error value was thrown: \[null,null,null,/);
        const cause = await run(s, "const a = []; a.length = 1e9; throw new Error('x', { cause: a })");
        assert.equal(cause.error?.code, "RUNTIME", JSON.stringify(cause.error));
        assert.match(cause.error.message, /^x; cause: \[null,null,null,/);
    });
    // A Map or Set converts to a new object each time JSON meets it, so a
    // cycle through one was nested 1,000 levels deep (seconds of work)
    // and reported as too deep, or timed out. In a tool's input it was
    // then a bare synchronous "TypeError: circular reference", naming no
    // tool, with no record: now it is refused as an object's cycle is.
    test("a Map or Set that holds itself, as the result or in a tool's input: a circular reference, and no call", async (t) => {
        let ran = 0;
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 10000, tools: [tool("t.x", () => ++ran)] });
        const s = api.createSession();
        const result = await run(s, "const m = new Map(); m.set('self', m); return m");
        assert.deepEqual([result.error?.code, result.error?.message], ["RESULT_NOT_SERIALIZABLE", "the result cannot be converted to JSON: circular reference"]);
        const input = await run(s, "const st = new Set(); st.add({ list: [st] }); let p; try { p = tools.t.x({ st }) } catch (e) { return 'thrown: ' + e.message } try { await p } catch (e) { return (e instanceof TypeError) + ' ' + e.message }");
        assert.equal(input.result, "true tool_call t.x: its input is circular (an object in it refers to itself), which JSON cannot write; pass data without cycles", JSON.stringify(input.error));
        assert.deepEqual(input.toolCalls.map((c) => [c.name, c.ok, c.reason]), [["t.x", false, "input circular: an object in it refers to itself"]]);
        const twice = await run(s, "const m = new Map([['a', 1]]); return [m, { x: m }]");
        assert.deepEqual(twice.result, [{ a: 1 }, { x: { a: 1 } }]);
        assert.equal(ran, 0);
    });
    // The page's conversion of a tool's value had the same blind spot: it
    // recursed until V8's stack overflowed ("Maximum call stack size exceeded").
    test("a page tool returning a Map that holds itself: the call fails as a circular reference", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [
                tool("t.map", () => { const m = new Map(); m.set("self", m); return m; }),
                tool("t.twice", () => { const m = new Map([["a", 1]]); return [m, { x: m }, [m]]; }),
            ],
        });
        const r = await run(api.createSession(), "const out = []; for (const f of [tools.t.map, tools.t.twice]) { try { out.push(await f({})) } catch (e) { out.push(e.message) } } return out");
        assert.deepEqual(r.result, ["the tool returned a value that is not JSON data: circular reference", [{ a: 1 }, { x: { a: 1 } }, [{ a: 1 }]]], JSON.stringify(r.error));
    });
    // A plain object that holds itself was left to the page's JSON.stringify,
    // whose words the model read: V8's "Converting circular structure to
    // JSON --> starting at object with constructor 'Object' ...", Firefox's
    // "cyclic object value". It fails as the Map above does, in one text.
    test("a page tool returning an object or array that holds itself: the call fails as a circular reference, in every engine's words", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [
                tool("t.obj", () => { const o = { a: 1 }; o.self = o; return o; }),
                tool("t.arr", () => { const a = [1]; a.push({ back: a }); return a; }),
                tool("t.shared", () => { const o = { a: 1 }; return [o, { x: o }]; }),
            ],
        });
        const r = await run(api.createSession(), "const out = []; for (const f of [tools.t.obj, tools.t.arr, tools.t.shared]) { try { out.push(await f({})) } catch (e) { out.push(e.message) } } return out");
        assert.deepEqual(r.result, ["the tool returned a value that is not JSON data: circular reference", "the tool returned a value that is not JSON data: circular reference", [{ a: 1 }, { x: { a: 1 } }]], JSON.stringify(r.error));
    });
    // onToolCall's replacement input that holds itself was refused in the
    // page engine's words too ("onToolCall returned an input that is not
    // JSON: Converting circular structure to JSON --> starting at ..."),
    // in both modes: the core's strict check left the cycle to
    // JSON.stringify. Refused as the tool result above is, in one text.
    test("onToolCall's replacement input that holds itself: the call is denied as a circular reference, in every engine's words", async (t) => {
        const inputs = {
            obj: () => { const o = { a: 1 }; o.self = o; return o; },
            deep: () => { const o = { a: { b: [1] } }; o.a.b.push({ up: o.a }); return o; },
            shared: () => { const o = { a: 1 }; return { x: o, y: [o] }; },
        };
        const ran = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: ({ input }) => ({ allowed: true, input: inputs[input.kind]() }) },
            tools: [tool("t.echo", (i) => (ran.push(i), "ran"))],
        });
        const r = await run(api.createSession(), "const out = []; for (const kind of ['obj', 'deep', 'shared']) { try { out.push(await tools.t.echo({ kind })) } catch (e) { out.push(e.message) } } return out");
        const why = "onToolCall returned an input that is not JSON: value is not JSON data: it holds a circular reference";
        const refused = `call to t.echo denied: the interceptor failed (${why})`;
        assert.deepEqual(r.result, [refused, refused, "ran"], JSON.stringify(r.error));
        assert.deepEqual(ran, [{ x: { a: 1 }, y: [{ a: 1 }] }]);
        assert.deepEqual(r.toolCalls.map((c) => [c.allowed, c.reason]), [
            [false, `interceptor failed: ${why}`],
            [false, `interceptor failed: ${why}`],
            [true, undefined],
        ]);
    });
    test("a sort comparator that calls tools: each call runs in its own run, with its context", async (t) => {
        const calls = [];
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.cmp", ({ x, y }, o) => (calls.push(o.context), x - y))] });
        const r = await run(
            api.createSession(),
            "const ps = []; const a = [3, 1, 2, 5, 4]; a.sort((x, y) => { ps.push(tools.t.cmp({ x, y })); return x - y }); const d = await Promise.all(ps); return [a, d.length === ps.length]",
            { context: "S" },
        );
        assert.deepEqual(r.result, [[1, 2, 3, 4, 5], true], JSON.stringify(r.error));
        assert.ok(calls.length > 0 && calls.every((c) => c === "S"), JSON.stringify(calls));
        assert.equal(r.toolCalls.length, calls.length);
    });
});

describe("values JSON bends cross the tool boundary by the documented rules", () => {
    test("-0, NaN, Infinity, holes, lone surrogates, Symbols and __proto__ in a tool's input", async (t) => {
        const got = [];
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.echo", (i) => (got.push(i), 1))] });
        const r = await run(
            api.createSession(),
            "const holes = [1]; holes[3] = 4; const sym = Symbol('k'); await tools.t.echo({ nz: -0, nan: NaN, inf: -Infinity, holes, lone: 'a\\uD800b', low: '\\uDC00', [sym]: 1, s: sym, __proto__: { inherited: 1 }, ['__proto__']: { own: 1 }, constructor: { prototype: { x: 1 } } }); return 1",
        );
        assert.equal(r.ok, true, JSON.stringify(r.error));
        const [i] = got;
        assert.equal(JSON.stringify(i), '{"nz":0,"nan":"NaN","inf":"-Infinity","holes":[1,null,null,4],"lone":"a\\ud800b","low":"\\udc00","s":"Symbol(k)","__proto__":{"own":1},"constructor":{"prototype":{"x":1}}}');
        assert.equal(Object.getPrototypeOf(i), Object.prototype);
        assert.deepEqual([i.lone.charCodeAt(1), i.low.charCodeAt(0), ({}).own, ({}).x], [0xd800, 0xdc00, undefined, undefined]);
        assert.deepEqual(r.logs.map((l) => l.message), [
            'input.nan: NaN, converted to the string "NaN"',
            'input.inf: -Infinity, converted to the string "-Infinity"',
            "input.holes[1]: undefined, converted to null",
            "input.holes[2]: undefined, converted to null",
            'input.s: a symbol, converted to the string "Symbol(k)"',
        ]);
    });
    test("the same values in a tool's result and in the run's result", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [tool("t.weird", () => ({ nz: -0, nan: NaN, holes: [1, , 3], lone: "a\uD800b", low: "\uDC00", sym: Symbol("s"), big: 10n, u: undefined }))],
        });
        const r = await run(
            api.createSession(),
            "const w = await tools.t.weird({}); return [Object.is(w.nz, -0), w.nan, w.holes, 1 in w.holes, w.lone.charCodeAt(1), w.low.charCodeAt(0), w.sym, w.big, 'u' in w, w.lone, '\\uDFFF', -0]",
        );
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(r.result, [false, "NaN", [1, null, 3], true, 0xd800, 0xdc00, "Symbol(s)", "10", false, "a\uD800b", "\uDFFF", 0]);
    });
    test("an input changed after the call started, or by the tool, is the call's own copy", async (t) => {
        const got = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: async () => (await sleep(50), { allowed: true }) },
            tools: [tool("t.keep", (i) => (got.push(structuredClone(i)), i.list.push("tool"), i.x = "tool", i))],
        });
        const r = await run(
            api.createSession(),
            "let reads = 0; const a = { x: 1, list: [1], get once() { return ++reads } }; const p = tools.t.keep(a); a.x = 2; a.list.push(2); const back = await p; return [a.x, a.list, reads, back]",
        );
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(got, [{ x: 1, list: [1], once: 1 }]);
        assert.deepEqual(r.result, [2, [1, 2], 1, { x: "tool", list: [1, "tool"], once: 1 }]);
    });
    // An input is converted where the call is made: a toJSON that throws
    // throws there (before any promise), and no call starts.
    test("toJSON on an input: its value is sent; one that throws fails the call where it is made and nothing starts", async (t) => {
        const got = [];
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.echo", (i) => (got.push(i), 1))] });
        const r = await run(
            api.createSession(),
            "await tools.t.echo({ a: { toJSON() { return { swapped: 1 } } } }); let e; try { await tools.t.echo({ b: { toJSON() { throw new TypeError('no JSON') } } }) } catch (x) { e = x.name + ': ' + x.message } return e",
        );
        assert.equal(r.result, "TypeError: no JSON", JSON.stringify(r.error));
        assert.deepEqual(got, [{ a: { swapped: 1 } }]);
        assert.equal(r.toolCalls.length, 1);
    });
});
