// Attempts of the thirty-eighth session (security38), written before
// reading the code under test, after the names of the earlier hostile
// suites only: program texts that hurt the host's own parsers, built-ins
// asked for what no memory holds, marks a run leaves on every object it
// can reach, page tools whose results are huge behind a Map, a sparse
// array or a getter, page values that cannot be posted to a worker, MCP
// servers whose listing never ends or who flood the client, runs that
// start runs of their own session without end, a factory disposed under
// a hundred runs, and what a script of the page could read off the
// messages to the worker. Each row is what the page must get, in both
// engine modes (CODE_MODE_WORKER=1).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { POST_SPY, WORKER, assetPath, inChild, indexURL, loadFactory, run, tool, within, withFactory } from "./helpers.mjs";
import { loadAdapter } from "./adapter-helpers.mjs";
import { serverWith, withServerTools } from "./mcp-server.mjs";

// Each row: [name, code, check(r) -> undefined or what went wrong].
const okIn = (...values) => (r) =>
    r.ok && values.some((v) => JSON.stringify(v) === JSON.stringify(r.result)) ? undefined : `want one of ${JSON.stringify(values)}, got ${JSON.stringify(r.ok ? r.result : r.error)}`;
const endsAs = (codes, ...values) => (r) => {
    if (r.ok) return values.some((v) => JSON.stringify(v) === JSON.stringify(r.result)) ? undefined : `got ${JSON.stringify(r.result)}`;
    return codes.includes(r.error.code) ? undefined : `want ${codes} or ${JSON.stringify(values)}, got ${r.error.code}: ${r.error.message.slice(0, 300)}`;
};
const caught = (...names) => okIn(...names);

const nested = (open, inner, close, n) => open.repeat(n) + inner + close.repeat(n);

describe("hostile38: program texts and built-ins written to hurt", () => {
    test("each program ends as its row says within a bound, and the next run works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 5000, memoryLimit: 64 });
        const s = api.createSession();
        // A row whose outcomes leave out TIMEOUT must end on its own: it runs
        // with a timeout of 60 s, which time alone does not reach (the
        // structuredClone of a 1e5-deep object, ~1 s of CPU, passed 5 s at
        // load 10-17 on 2 cores).
        const roomy = (await withFactory(t, { wasmLocation: assetPath, timeout: 60_000, memoryLimit: 64 })).createSession();
        const rows = [
            // Program texts: the host strips TypeScript and fences before
            // QuickJS parses; a recursive parser of its own must not take
            // the page down on deep nesting. A parse on a loaded machine
            // may pass the 5 s timeout (TIMEOUT: in a worker, restarted).
            ["1e5 nested parentheses as the program", `return ${nested("(", "1", ")", 1e5)}`, endsAs(["SYNTAX", "RUNTIME", "TIMEOUT"], 1)],
            ["1e5 nested array brackets as the program", `return ${nested("[", "1", "]", 1e5)}.flat(Infinity)`, endsAs(["SYNTAX", "RUNTIME", "TIMEOUT"], [1])],
            ["1e5 nested blocks as the program", `${nested("{", "", "}", 1e5)} return 1`, endsAs(["SYNTAX", "RUNTIME", "TIMEOUT"], 1)],
            ["1e4 nested template literals as the program", `return ${nested("`${", "1", "}`", 1e4)}`, endsAs(["SYNTAX", "RUNTIME", "TIMEOUT"], "1")],
            ["a TypeScript type nested 1e5 deep", `let x: ${nested("Array<", "number", ">", 1e5)} = []; return x.length`, endsAs(["SYNTAX", "RUNTIME", "TIMEOUT"], 0)],
            ["a TypeScript object type nested 1e5 deep", `let x: ${nested("{ a: ", "number", " }", 1e5)} | null = null; return x`, endsAs(["SYNTAX", "RUNTIME", "TIMEOUT"], null)],
            ["1e5 arrows in a row", `const f = ${"(a) => ".repeat(1e5)}1; return typeof f`, endsAs(["SYNTAX", "RUNTIME", "TIMEOUT"], "function")],
            ["1e6 unary operators", `return ${"!".repeat(1e6)}0`, endsAs(["SYNTAX", "RUNTIME", "TIMEOUT"], true)],
            ["1e5 nested ternaries", `return ${"1 ? ".repeat(1e5)}1${" : 0".repeat(1e5)}`, endsAs(["SYNTAX", "RUNTIME", "TIMEOUT"], 1)],
            ["eval of 1e5 nested parentheses", `try { eval(${JSON.stringify(nested("(", "1", ")", 1e5))}); return "parsed" } catch (e) { return e.name }`, endsAs(["RUNTIME"], "parsed", "SyntaxError", "RangeError", "InternalError")],
            ["new Function of 1e5 nested blocks", `try { new Function(${JSON.stringify(nested("{", "", "}", 1e5))}); return "parsed" } catch (e) { return e.name }`, caught("parsed", "SyntaxError", "RangeError", "InternalError")],
            // Built-ins whose C code recurses or allocates on the program's word.
            ["a bound function 1e5 deep, called", `let f = () => 1; for (let i = 0; i < 1e5; i++) f = f.bind(null); try { return f() } catch (e) { return e.name }`, endsAs(["MEMORY_LIMIT", "RUNTIME"], 1, "RangeError", "InternalError")],
            ["a bound function 1e5 deep, constructed", `let F = function () { this.a = 1 }; for (let i = 0; i < 1e5; i++) F = F.bind(null); try { return new F().a } catch (e) { return e.name }`, endsAs(["MEMORY_LIMIT", "RUNTIME"], 1, "RangeError", "InternalError")],
            ["a Proxy of a Proxy 1e5 deep, called", `let f = () => 1; for (let i = 0; i < 1e5; i++) f = new Proxy(f, {}); try { return f() } catch (e) { return e.name }`, endsAs(["MEMORY_LIMIT", "RUNTIME"], 1, "RangeError", "InternalError")],
            ["a RegExp of 1e5 nested groups", `try { return new RegExp(${JSON.stringify(nested("(", "a", ")", 1e5))}).test("a") } catch (e) { return e.name }`, caught(true, "SyntaxError", "RangeError", "InternalError")],
            ["a RegExp of nested counted quantifiers", `try { return /((a{1000}){1000}){1000}/.test("a") } catch (e) { return e.name }`, endsAs(["MEMORY_LIMIT", "TIMEOUT"], false, "SyntaxError", "RangeError", "InternalError")],
            ["padEnd to 2^30 characters", `try { return "x".padEnd(2 ** 30 - 1).length } catch (e) { return e.name }`, endsAs(["MEMORY_LIMIT"], "RangeError", "InternalError")],
            ["'ß' toUpperCase past the limit", `try { return "ß".repeat(2 ** 25).toUpperCase().length } catch (e) { return e.name }`, endsAs(["MEMORY_LIMIT"], 2 ** 26, "RangeError", "InternalError")],
            ["join of 1e5 holes with a 1e5-character separator", `try { return Array(1e5).join("x".repeat(1e5)).length } catch (e) { return e.name }`, endsAs(["MEMORY_LIMIT"], "RangeError", "InternalError")],
            ["a join that re-enters itself through toString", `const a = [1]; a.push({ toString() { return a.join("-") } }); try { return String(a).length } catch (e) { return e.name }`, endsAs(["TIMEOUT"], "RangeError", "InternalError", 3, 4, 2)],
            ["console.log of 1e6 spread arguments", `try { console.log(...Array(1e6).fill("x")); return "logged" } catch (e) { return e.name }`, caught("logged", "RangeError", "InternalError")],
            ["console.dir of a 1e5-deep object at depth Infinity", `let d = {}; for (let i = 0; i < 1e5; i++) d = { d }; console.dir(d, { depth: Infinity }); return 1`, okIn(1)],
            ["structuredClone of a cycle and of a 1e5-deep object", `const o = {}; o.o = o; const c = structuredClone(o); let d = {}; for (let i = 0; i < 1e5; i++) d = { d }; let deep; try { structuredClone(d); deep = "cloned" } catch (e) { deep = e.name } return [c.o === c, deep]`, endsAs(["MEMORY_LIMIT"], [true, "cloned"], [true, "RangeError"], [true, "InternalError"], [true, "DataCloneError"])],
            ["structuredClone of a Proxy, a function and a Symbol", `const r = []; for (const v of [new Proxy({}, {}), () => 1, Symbol("s")]) { try { structuredClone(v); r.push("cloned") } catch (e) { r.push(e.name) } } return r`, (r) => (r.ok && r.result.length === 3 ? undefined : JSON.stringify(r.error ?? r.result))],
            ["a SharedArrayBuffer of 2^31 bytes", `try { return new SharedArrayBuffer(2 ** 31).byteLength } catch (e) { return e.name }`, endsAs(["MEMORY_LIMIT"], "RangeError", "InternalError")],
            ["a SharedArrayBuffer grown past the limit", `try { const b = new SharedArrayBuffer(1, { maxByteLength: 2 ** 32 }); b.grow(2 ** 31); return b.byteLength } catch (e) { return e.name }`, endsAs(["MEMORY_LIMIT"], "RangeError", "InternalError", "TypeError")],
            ["a resizable ArrayBuffer grown past the limit under a length-tracking view", `try { const b = new ArrayBuffer(1, { maxByteLength: 2 ** 32 }); const v = new Uint8Array(b); b.resize(2 ** 31); return v.length } catch (e) { return e.name }`, endsAs(["MEMORY_LIMIT"], "RangeError", "InternalError", "TypeError")],
            ["a private field stamped on tools, tool_call and globalThis", `class A { constructor(o) { return o } } class B extends A { #s = "x"; static has(o) { return #s in o } } const r = []; for (const o of [tools, tool_call, globalThis, console]) { try { new B(o); r.push(B.has(o)) } catch (e) { r.push(e.name) } } return r`, (r) => (r.ok && r.result.length === 4 ? undefined : JSON.stringify(r.error ?? r.result))],
            ["a WeakRef and a WeakMap of tools and tool_call", `const w = new WeakRef(tools); const m = new WeakMap([[tool_call, 1]]); return [w.deref() === tools, m.get(tool_call)]`, okIn([true, 1])],
        ];
        const wrong = [];
        for (const [name, code, check] of rows) {
            const on = check({ ok: false, error: { code: "TIMEOUT", message: "" } }) === undefined ? s : roomy;
            const r = await within(run(on, code), 120_000);
            if (r === "hung") assert.fail(`${name}: hung`);
            const w = check(r);
            if (w !== undefined) wrong.push(`${name}: ${w}`);
            const next = await run(on, "return 2");
            assert.equal(next.result, 2, `the run after ${name}: ${JSON.stringify(next.error)}`);
        }
        assert.deepEqual(wrong, []);
    });

    test("marks a run leaves on every object it can reach, and intrinsics it freezes, are not seen by the next run", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 10_000, tools: [tool("t.echo", (x) => x)] });
        const s = api.createSession();
        // A walk of what a program reaches: globals, prototypes, functions'
        // own properties, to a depth of 4.
        const walk = `const seen = new Set(); const out = []; const dig = (o, path, d) => {
            if (d > 4 || o === null || (typeof o !== "object" && typeof o !== "function") || seen.has(o)) return;
            seen.add(o); visit(o, path);
            let keys = []; try { keys = Reflect.ownKeys(o) } catch (e) {}
            for (const k of keys) { let desc; try { desc = Reflect.getOwnPropertyDescriptor(o, k) } catch (e) { continue } if (desc && "value" in desc) dig(desc.value, path + "." + String(k), d + 1); if (desc && desc.get) dig(desc.get, path + ".get " + String(k), d + 1) }
            let p = null; try { p = Reflect.getPrototypeOf(o) } catch (e) {} dig(p, path + ".__proto__", d + 1);
        }; `;
        const mark = walk + `const visit = (o, path) => {
            try { Object.defineProperty(o, "__left38", { value: "SECRET38", configurable: false, enumerable: false }) } catch (e) {}
            try { Object.defineProperty(o, Symbol.for("left38"), { value: "SECRET38", configurable: false }) } catch (e) {}
            try { Object.preventExtensions(o) } catch (e) {}
        };
        /SECRET38-(\\d+)/.exec("SECRET38-42"); try { Error.stackTraceLimit = 0 } catch (e) {}
        dig(globalThis, "globalThis", 0); dig(tools, "tools", 0); dig(tool_call, "tool_call", 0);
        for (const f of [Object, Array, Function, Promise, RegExp, Error, JSON, Math, Reflect, Date, String, Number, Symbol, Map, Set]) { try { Object.freeze(f); Object.freeze(f.prototype) } catch (e) {} }
        return seen.size;`;
        const look = walk + `const visit = (o, path) => {
            try { if (Object.prototype.hasOwnProperty.call(o, "__left38") || Object.prototype.hasOwnProperty.call(o, Symbol.for("left38"))) out.push(path) } catch (e) {}
            try { if (!Object.isExtensible(o) && !Object.isFrozen(o) && out.length < 20) {} } catch (e) {}
        };
        dig(globalThis, "globalThis", 0); dig(tools, "tools", 0); dig(tool_call, "tool_call", 0);
        const legacy = ["$1", "lastMatch", "input", "lastParen", "leftContext", "rightContext"].map((k) => { try { return RegExp[k] } catch (e) { return undefined } }).filter((v) => typeof v === "string" && v.includes("SECRET38"));
        Object.prototype.added38 = 1; Array.prototype.added38 = 1; Promise.prototype.added38 = 1;
        const extensible = [({}).added38, [].added38, Promise.resolve().added38];
        let stack = ""; try { null.x } catch (e) { stack = String(e.stack) }
        return { out: out.slice(0, 20), legacy, extensible, stack: stack.length > 0, echoed: await tools.t.echo({ a: 1 }) };`;
        const first = await run(s, mark);
        assert.ok(first.ok, JSON.stringify(first.error));
        assert.ok(first.result > 100, `the walk reached ${first.result} objects`);
        const second = await run(s, look);
        assert.deepEqual(second.result, { out: [], legacy: [], extensible: [1, 1, 1], stack: true, echoed: { a: 1 } }, JSON.stringify(second.error ?? second.result));
        // And another session of the factory.
        const other = await run(api.createSession(), look);
        assert.deepEqual(other.result, { out: [], legacy: [], extensible: [1, 1, 1], stack: true, echoed: { a: 1 } }, JSON.stringify(other.error ?? other.result));
    });
});

describe("hostile38: page tools whose results are huge or odd behind another shape", () => {
    test("each result fails its call as too large, or arrives as data, without freezing the page, and the next call works", async (t) => {
        const big = "x".repeat(10_000);
        const results = {
            sparse: () => { const a = []; a.length = 2 ** 32 - 1; return a; },
            sparseInside: () => { const a = []; a.length = 2 ** 30; return { rows: a }; },
            mapOfOne: () => new Map(Array.from({ length: 100_000 }, (_, i) => [i, big])),
            setOfOne: () => { const arr = Array(10_000).fill(big); return new Set(Array.from({ length: 1000 }, () => [...arr])); },
            typed: () => new Uint8Array(2 ** 27),
            growing: () => { const a = [1, 2, 3]; Object.defineProperty(a, 0, { enumerable: true, get() { a.length = 2 ** 32 - 1; return 1; } }); return a; },
            addingKeys: () => { let n = 0; const o = {}; Object.defineProperty(o, "a", { enumerable: true, get() { for (let i = 0; i < 100; i++) o[`k${n++}`] = big; return 1; } }); return o; },
            toJSONSparse: () => ({ toJSON() { const a = []; a.length = 2 ** 32 - 1; return a; } }),
        };
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 30_000,
            memoryLimit: 16,
            tools: [...Object.entries(results).map(([name, f]) => tool(`r.${name}`, f)), tool("r.ok", () => "fine")],
        });
        const s = api.createSession();
        for (const name of Object.keys(results)) {
            const r = await within(run(s, `let got; try { const v = await tools.r.${name}({}); got = ["ok", JSON.stringify(v).length] } catch (e) { got = [e.name, e.message.slice(0, 200)] } return [got, await tools.r.ok({})]`), 120_000);
            assert.notEqual(r, "hung", name);
            assert.ok(r.ok, `${name}: ${JSON.stringify(r.error)}`);
            assert.equal(r.result[1], "fine", name);
            if (r.result[0][0] !== "ok") assert.match(r.result[0][1], /too large|memory|limit|more than/i, `${name}: ${JSON.stringify(r.result[0])}`);
        }
    });

    test("page values that cannot be posted arrive alike in both modes: as data or as the same clear failure", async (t) => {
        const values = {
            sharedBuffer: () => { const b = new SharedArrayBuffer(4); new Uint8Array(b).set([1, 2, 3, 4]); return { b, v: new Uint8Array(b) }; },
            bigints: () => new BigInt64Array([1n, -1n]),
            port: () => { const { port1, port2 } = new MessageChannel(); port1.close(); port2.close(); return { port: port1 }; },
            blob: () => ({ blob: new Blob(["secret"]) }),
            stream: () => ({ s: new ReadableStream() }),
            weak: () => ({ w: new WeakMap(), r: new WeakRef({}) }),
            domException: () => ({ e: new DOMException("m", "AbortError") }),
            signal: () => ({ s: AbortSignal.abort("why") }),
            tagThrows: () => ({ a: 1, get [Symbol.toStringTag]() { throw new Error("tag getter"); } }),
            protoProxy: () => Object.assign(Object.create(new Proxy({}, { get(target, key) { if (key === "then") return undefined; return Reflect.get(target, key); } })), { a: 1 }),
            protoProxyThrows: () => Object.assign(Object.create(new Proxy({}, { get() { throw new Error("proto trap"); } })), { a: 1 }),
            theGlobal: () => globalThis,
        };
        const outcome = async (worker) => {
            const IoCodeModeFactory = (await import(indexURL)).IoCodeModeFactory;
            const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker, timeout: 20_000, tools: Object.entries(values).map(([n, f]) => tool(`v.${n}`, f)) });
            try {
                const s = api.createSession();
                const out = {};
                for (const name of Object.keys(values)) {
                    const r = await within(run(s, `try { return ["ok", await tools.v.${name}({})] } catch (e) { return [e.name, e.message.replace(/\\s+/g, " ").slice(0, 120)] }`), 60_000);
                    out[name] = r === "hung" ? "hung" : r.ok ? r.result : ["run", r.error.code, r.error.message.slice(0, 120)];
                }
                return out;
            } finally {
                await api.dispose();
            }
        };
        const inThread = await outcome(false);
        const inWorker = await outcome(true);
        for (const name of Object.keys(values)) {
            assert.notEqual(inThread[name], "hung", name);
            assert.ok(Array.isArray(inThread[name]) && inThread[name][0] !== "run", `${name}: ${JSON.stringify(inThread[name])}`);
            assert.deepEqual(inWorker[name], inThread[name], `${name} differs between modes`);
        }
        assert.equal(JSON.stringify(inThread.blob).includes("secret"), false);
    });
});

const text = (v) => ({ content: [{ type: "text", text: JSON.stringify(v) }] });

describe("hostile38: MCP servers that never end an answer or flood the client", () => {
    // In a child process: over the in-memory transport an endless listing
    // never gave the thread back, so no timer of this process could end it.
    for (const [what, cursor, pages, message] of [
        ["a new nextCursor on every page", "`c${pages}`", 1000, "mcp:endless: tools/list gave more than 1,000 pages"],
        ["the same nextCursor for ever", `"again"`, 2, 'mcp:endless: tools/list returned the cursor "again" twice'],
    ]) {
        test(`tools/list with ${what}: fromMcpClient rejects after ${pages} pages, saying why; the page lives`, () => {
            const out = inChild(`
                import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
                import { Server } from "@modelcontextprotocol/server";
                const mcp = await import(${JSON.stringify(new URL("../../dist/mcp.mjs", import.meta.url).href)});
                let pages = 0;
                const server = new Server({ name: "endless", version: "1.0.0" }, { capabilities: { tools: {} } });
                server.setRequestHandler("tools/list", () => (pages++, { tools: [{ name: "t" + pages, inputSchema: { type: "object" } }], nextCursor: ${cursor} }));
                const [a, b] = InMemoryTransport.createLinkedPair();
                const client = new Client({ name: "x", version: "1.0.0" });
                await Promise.all([server.connect(b), client.connect(a)]);
                setTimeout(() => { process.stdout.write(JSON.stringify({ hung: pages })); process.exit(0); }, 30_000);
                const r = await mcp.fromMcpClient(client).then((s) => ["source", s.tools.length], (e) => ["rejected", e.message]);
                process.stdout.write(JSON.stringify({ r, pages }));
                process.exit(0);
            `);
            assert.deepEqual(out, { r: ["rejected", message], pages });
        });
    }

    test("a server flooding log and progress notifications and asking the client for sampling during a call: the call settles, the page's console is not flooded", async (t) => {
        const mcp = await loadAdapter("mcp");
        const { client } = await serverWith("noisy", () => ({ tools: [{ name: "talk", inputSchema: { type: "object" } }] }), async (req, ctx) => {
            for (let i = 0; i < 5000; i++) {
                await ctx.mcpReq.notify({ method: "notifications/message", params: { level: "error", data: `line ${i}` } });
                await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: i, progress: i } });
            }
            const asked = [];
            for (const ask of [
                () => ctx.mcpReq.requestSampling({ messages: [], maxTokens: 1 }, { timeout: 2000 }),
                () => ctx.mcpReq.elicitInput({ message: "your context?", requestedSchema: { type: "object", properties: {} } }, { timeout: 2000 }),
                () => ctx.mcpReq.send({ method: "roots/list" }, undefined, { timeout: 2000 }),
            ]) {
                try {
                    await ask();
                    asked.push("answered");
                } catch (e) {
                    asked.push("refused");
                }
            }
            return text({ asked });
        });
        t.after(() => client.close());
        const source = await mcp.fromMcpClient(client);
        t.after(() => source.close());
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 30_000 });
        source.registerTools(api);
        const counts = { log: 0, warn: 0, error: 0, info: 0, debug: 0 };
        const saved = {};
        for (const k of Object.keys(counts)) {
            saved[k] = console[k];
            console[k] = (...a) => { counts[k]++; };
        }
        let r;
        try {
            r = await within(run(api.createSession(), `return await tools.noisy.talk({})`), 60_000);
        } finally {
            Object.assign(console, saved);
        }
        assert.notEqual(r, "hung");
        assert.deepEqual(r.result, { asked: ["refused", "refused", "refused"] }, JSON.stringify(r.error));
        const total = Object.values(counts).reduce((a, b) => a + b, 0);
        assert.ok(total <= 10, `the page's console got ${JSON.stringify(counts)}`);
    });

    test("a call answered with 100,000 content blocks: returned or failed as too large; the next call works", async (t) => {
        const { client } = await serverWith("blocks", () => ({ tools: [{ name: "many", inputSchema: { type: "object" } }, { name: "one", inputSchema: { type: "object" } }] }), (req) =>
            req.params.name === "many" ? { content: Array.from({ length: 100_000 }, (_, i) => ({ type: "text", text: "y".repeat(100) + i })) } : text(1));
        const api = await withServerTools(t, client, { wasmLocation: assetPath, timeout: 30_000, memoryLimit: 16 });
        const s = api.createSession();
        const r = await within(run(s, `let got; try { got = (await tools.blocks.many({})).length } catch (e) { got = e.message.slice(0, 100) } return [got, await tools.blocks.one({})]`), 60_000);
        assert.notEqual(r, "hung");
        // 100,000 blocks hold more than the run's 16 MB: the run ends as its memory limit says.
        if (!r.ok) assert.equal(r.error.code, "MEMORY_LIMIT", r.error.message);
        else {
            assert.equal(r.result[1], 1);
            assert.ok(r.result[0] === 100_000 || /too large|memory|limit/i.test(r.result[0]), JSON.stringify(r.result[0]));
        }
        const next = await run(s, `return await tools.blocks.one({})`);
        assert.equal(next.result, 1, JSON.stringify(next.error));
    });
});

describe("hostile38: runs that start runs, and disposal under load", () => {
    test("a tool that always runs its own session's program calling that tool again: bounded, the page lives, the next run works", async (t) => {
        let depth = 0;
        let max = 0;
        let session;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 3000,
            tools: [tool("again", async () => {
                depth++;
                max = Math.max(max, depth);
                try {
                    const r = await session.getLlmTools().find((x) => x.name === "executeCode").execute({ code: "return await tools.again({})", explanation: "again" });
                    return r.ok ? r.result : r.error.code;
                } finally {
                    depth--;
                }
            })],
        });
        session = api.createSession();
        const r = await within(run(session, `return await tools.again({})`), 120_000);
        assert.notEqual(r, "hung", `depth ${max}`);
        assert.ok(max < 10_000, `depth ${max}`);
        const next = await run(session, "return 2");
        assert.equal(next.result, 2, JSON.stringify(next.error));
        const other = await run(api.createSession(), "return 3");
        assert.equal(other.result, 3, JSON.stringify(other.error));
    });

    test("100 runs started at once and the factory disposed in the same tick: every run settles as not ok, no unhandled rejection, a new factory works", async (t) => {
        const unhandled = [];
        const onUnhandled = (e) => unhandled.push(e);
        process.on("unhandledRejection", onUnhandled);
        t.after(() => process.off("unhandledRejection", onUnhandled));
        const IoCodeModeFactory = await loadFactory();
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: [tool("t.slow", () => new Promise((r) => setTimeout(() => r(1), 50)))] });
        const sessions = Array.from({ length: 10 }, () => api.createSession());
        const runs = Array.from({ length: 100 }, (_, i) => run(sessions[i % 10], `await tools.t.slow({}); return ${i}`).then((r) => (r.ok ? "ok" : r.error.code), (e) => `rejected ${e.name}`));
        const disposed = api.dispose();
        const outcomes = await within(Promise.all(runs), 60_000);
        await disposed;
        assert.notEqual(outcomes, "hung");
        assert.equal(outcomes.filter((o) => o === "ok").length, 0, JSON.stringify(outcomes.slice(0, 5)));
        await new Promise((r) => setTimeout(r, 200));
        assert.deepEqual(unhandled, []);
        const again = await withFactory(t, { wasmLocation: assetPath });
        assert.equal((await run(again.createSession(), "return 1")).result, 1);
    });

    test("a tool that disposes its factory, makes a new one and runs a program on it: the outer run settles, the inner run works", async (t) => {
        const IoCodeModeFactory = await loadFactory();
        let inner;
        let toolDone;
        const done = new Promise((r) => { toolDone = r; });
        const api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            tools: [tool("t.swap", async () => {
                const disposed = api.dispose();
                const fresh = await IoCodeModeFactory({ wasmLocation: assetPath });
                t.after(() => fresh.dispose());
                inner = await run(fresh.createSession(), "return 41 + 1");
                await disposed;
                toolDone();
                return inner.result;
            })],
        });
        t.after(() => api.dispose());
        const r = await within(run(api.createSession(), `return await tools.t.swap({})`).catch((e) => ({ rejected: e.name })), 60_000);
        assert.notEqual(r, "hung");
        assert.ok(r.rejected !== undefined || r.ok === false, JSON.stringify(r));
        assert.notEqual(await within(done, 60_000), "hung");
        assert.equal(inner?.result, 42, JSON.stringify(inner));
    });

    test("a context the page cannot copy (a revoked Proxy, a function, a port): tools get it as is, in both modes", async (t) => {
        const r0 = Proxy.revocable({}, {});
        r0.revoke();
        const { port1, port2 } = new MessageChannel();
        t.after(() => (port1.close(), port2.close()));
        const contexts = [r0.proxy, () => "fn", port1, { s: Symbol("x") }];
        let seen;
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.ctx", (_, { context }) => ((seen = context), "ran"))] });
        const s = api.createSession();
        for (const context of contexts) {
            seen = undefined;
            const r = await run(s, `return await tools.t.ctx({})`, { context });
            assert.equal(r.result, "ran", JSON.stringify(r.error));
            assert.equal(seen, context);
        }
    });
});

describe("hostile38: what another script of the page sees of the worker's messages", () => {
    // A tool hidden by toolFilter is posted to the worker (its name and
    // description: the worker holds the registry, the page asks the filter);
    // the program still cannot reach it (hostile15, hostile17). The
    // caller's context stays on the page.
    test("the caller's context is never posted to the worker", { skip: !WORKER && "worker mode only" }, () => {
        const out = inChild(`
            ${POST_SPY}
            const api = await IoCodeModeFactory({
                wasmLocation: ${JSON.stringify(assetPath)}, worker: true,
                toolFilter: (t) => !t.name.startsWith("admin."),
                interceptors: { onToolCall: ({ callContext }) => ({ allowed: false, reason: "denied DENY38" }) },
                tools: [
                    { name: "t.echo", description: "echo", inputSchema: { type: "object" }, execute: (x, { context }) => context.visible },
                    { name: "admin.HIDDEN38", description: "HIDDENDESC38", inputSchema: { type: "object" }, execute: () => 1 },
                ],
            });
            const s = api.createSession();
            const ex = s.getLlmTools().find((t) => t.name === "executeCode");
            const r = await ex.execute({ code: "try { await tools.t.echo({}) } catch (e) { return e.message.includes('DENY38') }", explanation: "x" }, { context: { secret: "CONTEXT38" } });
            await api.dispose();
            const all = posted.join("\\n");
            process.stdout.write(JSON.stringify({ r: r.result, n: posted.length, context: all.includes("CONTEXT38") }));
            process.exit(0);
        `);
        assert.ok(out.n > 0, "no message was seen: the spy caught nothing");
        assert.deepEqual({ r: out.r, context: out.context }, { r: true, context: false });
    });

    test("a BroadcastChannel of any name the package opens on the page: a forged message changes no run", () => {
        const out = inChild(`
            const names = [];
            const Orig = globalThis.BroadcastChannel;
            globalThis.BroadcastChannel = class extends Orig { constructor(n) { super(n); names.push(n) } };
            const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
            const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, worker: ${WORKER}, tools: [{ name: "t.n", description: "n", inputSchema: { type: "object" }, execute: () => 1 }] });
            const s = api.createSession();
            const ex = s.getLlmTools().find((t) => t.name === "executeCode");
            const forged = names.map((n) => new Orig(n));
            for (const b of forged) for (const m of [{}, null, "x", { type: "result", id: 1, result: 99 }, { id: 0, ok: true, value: 99 }]) b.postMessage(m);
            const r = await ex.execute({ code: "return await tools.t.n({})", explanation: "x" });
            for (const b of forged) b.close();
            await api.dispose();
            process.stdout.write(JSON.stringify({ names, r: r.result }));
            process.exit(0);
        `);
        assert.equal(out.r, 1, JSON.stringify(out));
    });
});

describe("hostile38: objects thrown by a tool or onToolCall that hold one object 2^40 times", () => {
    // In a child process: JSON.stringify wrote the object whole on the
    // page's thread (in both modes), so no timer of this process could
    // end the test.
    test("the program gets the start of its JSON, and the page lives", () => {
        const program = `const out = []; for (const f of [tools.t.throws, tools.t.guarded]) { try { await f({}); out.push("ran") } catch (e) { out.push(e.message.includes('{"dag":{"l":{"l":{"l":{"l"'), e.message.length) } } out.push(await tools.t.ok({})); return out`;
        const out = inChild(`
            const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
            const dag = () => { let o = { v: 1 }; for (let i = 0; i < 40; i++) o = { l: o, r: o }; return o; };
            const t = (name, execute) => ({ name, description: name, inputSchema: { type: "object" }, execute });
            const api = await IoCodeModeFactory({
                wasmLocation: ${JSON.stringify(assetPath)}, worker: ${WORKER}, timeout: 20_000, memoryLimit: 16,
                tools: [t("t.throws", () => { throw { dag: dag() }; }), t("t.ok", () => 1), t("t.guarded", () => 2)],
                interceptors: { onToolCall: ({ tool }) => { if (tool.name === "t.guarded") throw { dag: dag() }; return { allowed: true }; } },
            });
            setTimeout(() => { process.stdout.write(JSON.stringify({ hung: true })); process.exit(0); }, 60_000).unref();
            const ex = api.createSession().getLlmTools().find((x) => x.name === "executeCode");
            const r = await ex.execute({ code: ${JSON.stringify(program)}, explanation: "x" });
            await api.dispose();
            process.stdout.write(JSON.stringify(r.ok ? r.result : r.error));
            process.exit(0);
        `);
        assert.equal(out.length, 5, JSON.stringify(out));
        // Each message holds the start of the object's JSON, cut as a long one is.
        assert.deepEqual([out[0], out[2]], [true, true], JSON.stringify(out));
        assert.ok(out[1] <= 1100 && out[3] <= 1100, JSON.stringify(out));
        assert.equal(out[4], 1);
    });
});
