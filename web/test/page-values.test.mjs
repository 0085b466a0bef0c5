// @mode-independent: each row sets worker itself, both modes.
// What the page's code hands back (a tool's result or error, onToolCall's
// decision) is read by the documented rules, the same way in both engine
// modes (worker: false and worker: true): in worker mode the
// page converts a result by the rules of USAGE "What comes back" before it
// crosses to the worker, instead of the structured clone of postMessage,
// which refused methods and Symbols and dropped a class's toJSON; and a
// tool error whose name or message cannot be read is reported, not an
// unhandled rejection that ends the process. A decision with a key
// onToolCall may not return (a misspelt "input") denies the call: the
// tool must never run with the input the interceptor meant to replace.
// executeCode's arguments that postMessage cannot clone no longer throw
// in a callback (an unhandled rejection, and a run that never settled).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assetPath, indexURL, llmTools, root, tool } from "./helpers.mjs";

class Money {
    constructor(cents) {
        this.cents = cents;
    }
    toJSON() {
        return `$${(this.cents / 100).toFixed(2)}`;
    }
}

const results = [
    // name, the tool's return value, what the code gets, the warn logs
    ["a method beside data", () => ({ id: 1, refresh() {} }), { id: 1 }, ["tools.t.get result.refresh: a function, which is not data: omitted"]],
    ["a Symbol inside", () => ({ s: Symbol("s") }), { s: "Symbol(s)" }, ['tools.t.get result.s: a symbol, converted to the string "Symbol(s)"']],
    ["an own toJSON", () => ({ toJSON: () => ({ ok: 1 }) }), { ok: 1 }, []],
    ["a class's toJSON", () => ({ total: new Money(1250) }), { total: "$12.50" }, []],
    ["a URL", () => new URL("https://example.com/a?b=1"), "https://example.com/a?b=1", []],
    ["a Map with a Set", () => new Map([["a", new Set([1])]]), { a: [1] }, ["tools.t.get result: a Map, converted to an object", "tools.t.get result.a: a Set, converted to an array"]],
    // { v } of an undefined v: JSON leaves it out, and says so (session 32).
    ["undefined", () => undefined, undefined, ["result.v: undefined, so JSON leaves it out"]],
    // fetch's Response returned as it is (the tool meant its body): {}
    // without a word before.
    ["a fetch Response", () => ({ res: new Response('{"a":1}'), ok: true }), { res: {}, ok: true },
        ["tools.t.get result.res: a Response object, converted to {}: JSON reads only an object's own properties, and it has none (read its body first: await res.json() or await res.text())"]],
    ["bytes and a WeakMap", () => ({ b: new Uint8Array([7, 8]).buffer, w: new WeakMap() }), { b: [7, 8], w: {} },
        ["tools.t.get result.b: an ArrayBuffer, converted to an array of its bytes", "tools.t.get result.w: a WeakMap, which cannot be listed: converted to {}"]],
];

const throws = [
    // name, what the tool throws, the message the code reads
    ["a name whose toString throws", () => Object.assign(new Error("m"), { name: { toString() { throw new Error("no name"); } } }), "m"],
    ["a name getter that throws", () => Object.defineProperty(new Error("m2"), "name", { get() { throw new Error("no name"); } }), "m2"],
    ["an object without a prototype", () => Object.create(null), /./],
];

const decisions = [
    // name, the decision, the input the tool gets (null: the call is denied), the reason's pattern
    ['a misspelt "input"', { allowed: true, inputt: { to: "shop" } }, null, /unknown key "inputt" \(did you mean "input"\?\)/],
    ['"Input"', { allowed: true, Input: { to: "shop" } }, null, /unknown key "Input" \(did you mean "input"\?\)/],
    ['a misspelt "reason"', { allowed: false, reasn: "no" }, null, /unknown key "reasn" \(did you mean "reason"\?\)/],
    // Without a boolean "allowed", a misspelt key was not named: "onToolCall
    // returned an object; expected {allowed: true, ...}".
    ['a misspelt "allowed"', { allowd: false }, null, /unknown key "allowd" \(did you mean "allowed"\?\)/],
    ['"allowed" as a string', { allowed: "no" }, null, /onToolCall's decision: allowed: expected true or false, got the string "no"/],
    ["a replacement input", { allowed: true, input: { to: "shop" } }, { to: "shop" }, null],
    ["a replacement input and a reason", { allowed: true, input: { to: "shop" }, reason: "policy" }, { to: "shop" }, null],
    ["no input", { allowed: true }, { to: "attacker" }, null],
    // Read as postMessage gives it to the worker: own enumerable properties
    // (an own getter read once); on the calling thread an inherited
    // "allowed" was obeyed while worker mode denied the call.
    ["an inherited allowed", Object.create({ allowed: true }), null, /onToolCall returned an object; expected/],
    ["a prototype getter for allowed", new (class { get allowed() { return true; } })(), null, /onToolCall returned an object; expected/],
    ["an own getter for allowed", { get allowed() { return true; } }, { to: "attacker" }, null],
    ["a class with an own field", new (class { allowed = true; input = { to: "shop" }; })(), { to: "shop" }, null],
];

const loose = [
    // name, executeCode's arguments, the result (a string: the INVALID_INPUT message's start).
    // They are read as JSON, as JSON.stringify reads them: a function or a Symbol inside is
    // dropped, a Proxy that cannot list its keys or a BigInt makes them not JSON.
    ["a Proxy", () => new Proxy({ code: "return 1" }, { ownKeys() { throw new Error("no keys"); } }), "executeCode: the arguments are not JSON"],
    ["a BigInt inside", () => ({ code: "return 1", explanation: 5n }), "executeCode: the arguments are not JSON"],
    ["a function inside", () => ({ code: "return 1", explanation: "x", f() {} }), 1],
    ["a Symbol inside", () => ({ code: "return 1", explanation: Symbol("s") }), 1],
];

for (const worker of [false, true]) {
    describe(`worker: ${worker}`, () => {
        test("a tool's result converts by the documented rules, each change reported", async () => {
            const { IoCodeModeFactory } = await import(indexURL);
            let current;
            const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker, tools: [tool("t.get", () => current())] });
            try {
                const { executeCode } = llmTools(api.createSession());
                for (const [name, value, want, warnings] of results) {
                    current = value;
                    const r = await executeCode.execute({ code: "const v = await tools.t.get({}); return { v, type: typeof v }", explanation: name });
                    assert.equal(r.ok, true, `${name}: ${JSON.stringify(r)}`);
                    assert.deepEqual(r.result.v, want, name);
                    assert.deepEqual(r.logs.filter((l) => l.level === "warn").map((l) => l.message), warnings, name);
                }
            } finally {
                api.dispose();
            }
        });

        // A tool that forgot an await inside its result ({ rows: await a(),
        // total: b() }) hands over a Promise the program never sees (null):
        // its rejection, now or later, was unhandled, which ends a Node.js
        // process.
        test("a Promise inside a tool's result that rejects is marked handled: no unhandled rejection", async (t) => {
            const unhandled = [];
            const onUnhandled = (/** @type {unknown} */ e) => unhandled.push(e);
            process.on("unhandledRejection", onUnhandled);
            t.after(() => process.off("unhandledRejection", onUnhandled));
            const { IoCodeModeFactory } = await import(indexURL);
            const api = await IoCodeModeFactory({
                wasmLocation: assetPath,
                worker,
                tools: [
                    tool("t.now", () => ({ rows: [1], total: Promise.reject(new Error("rejected at once")) })),
                    tool("t.later", () => ({ rows: [2], total: new Promise((_, reject) => setTimeout(() => reject(new Error("rejected later")), 30)) })),
                ],
            });
            try {
                const { executeCode } = llmTools(api.createSession());
                const r = await executeCode.execute({ code: "return [await tools.t.now({}), await tools.t.later({})]", explanation: "" });
                assert.deepEqual(r.result, [{ rows: [1], total: null }, { rows: [2], total: null }], JSON.stringify(r));
                assert.deepEqual(r.logs.map((l) => l.message), ["tools.t.now result.total: a Promise, converted to null (await it)", "tools.t.later result.total: a Promise, converted to null (await it)"]);
                await new Promise((resolve) => setTimeout(resolve, 100));
                assert.deepEqual(unhandled.map(String), []);
            } finally {
                api.dispose();
            }
        });

        test("a tool's error whose name or message throws when read reaches the code as an error", async () => {
            const { IoCodeModeFactory } = await import(indexURL);
            let current;
            const api = await IoCodeModeFactory({
                wasmLocation: assetPath,
                worker,
                tools: [tool("t.fail", () => {
                    throw current();
                })],
            });
            try {
                const { executeCode } = llmTools(api.createSession());
                for (const [name, thrown, message] of throws) {
                    current = thrown;
                    const r = await executeCode.execute({ code: "try { await tools.t.fail({}); return 'no error' } catch (e) { return e.message }", explanation: name });
                    assert.equal(r.ok, true, `${name}: ${JSON.stringify(r)}`);
                    if (message instanceof RegExp) assert.match(r.result, message, name);
                    else assert.equal(r.result, message, name);
                    assert.equal(r.toolCalls[0].ok, false, name);
                }
                const after = await executeCode.execute({ code: "return 1", explanation: "after" });
                assert.equal(after.result, 1);
            } finally {
                api.dispose();
            }
        });

        test("onToolCall's decision: an unknown key denies the call, naming the key", async () => {
            const { IoCodeModeFactory } = await import(indexURL);
            let current;
            const ran = [];
            const api = await IoCodeModeFactory({
                wasmLocation: assetPath,
                worker,
                interceptors: { onToolCall: () => current },
                tools: [tool("pay.send", (input) => (ran.push(input), "sent"))],
            });
            try {
                const { executeCode } = llmTools(api.createSession());
                for (const [name, decision, input, reason] of decisions) {
                    current = decision;
                    ran.length = 0;
                    const r = await executeCode.execute({ code: "try { return await tools.pay.send({ to: 'attacker' }) } catch (e) { return e.message }", explanation: name });
                    assert.equal(r.ok, true, `${name}: ${JSON.stringify(r)}`);
                    if (input === null) {
                        assert.deepEqual(ran, [], `${name}: the tool ran`);
                        assert.equal(r.toolCalls[0].allowed, false, name);
                        assert.match(r.toolCalls[0].reason, reason, name);
                        assert.match(r.result, reason, name);
                    } else {
                        assert.deepEqual(ran, [input], name);
                        assert.equal(r.result, "sent", name);
                    }
                }
            } finally {
                api.dispose();
            }
        });

        test("executeCode's arguments that postMessage cannot clone are read as JSON, as on the calling thread", async () => {
            const { IoCodeModeFactory } = await import(indexURL);
            const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker });
            try {
                const { executeCode } = llmTools(api.createSession());
                for (const [name, args, want] of loose) {
                    const r = await executeCode.execute(args(), {});
                    if (typeof want === "string") {
                        assert.equal(r.ok, false, `${name}: ${JSON.stringify(r)}`);
                        assert.equal(r.error.code, "INVALID_INPUT", name);
                        assert.ok(r.error.message.startsWith(want), `${name}: ${r.error.message}`);
                    } else {
                        assert.equal(r.ok, true, `${name}: ${JSON.stringify(r)}`);
                        assert.equal(r.result, want, name);
                    }
                }
            } finally {
                api.dispose();
            }
        });
    });
}

test("listTools() and tool-name errors are the same in both modes", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    const badNames = ["", "a".repeat(129), "a b", "заказы.поиск", "x\u0001", "x\n", "x'", "x\\", "x\u0085", "a..b"];
    const seen = [];
    for (const worker of [false, true]) {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker });
        try {
            for (const name of ["orders.search", "__proto__", "a.b", "Zeta", "orders", "_x"]) api.registerTool(tool(name, () => 1));
            const errors = badNames.map((name) => {
                try {
                    api.registerTool(tool(name, () => 1));
                    return "registered";
                } catch (err) {
                    return `${err.name}: ${err.message}`;
                }
            });
            seen.push({ names: api.listTools().map((t) => t.name), errors });
        } finally {
            api.dispose();
        }
    }
    assert.deepEqual(seen[0].names, ["Zeta", "__proto__", "_x", "a.b", "orders", "orders.search"]);
    assert.deepEqual(seen[1], seen[0]);
});

test("onToolCall's replacement input that is not JSON: the reason names the interceptor in both modes", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    for (const worker of [false, true]) {
        const ran = [];
        const api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            worker,
            interceptors: { onToolCall: () => ({ allowed: true, input: { to: "shop", f() {} } }) },
            tools: [tool("pay.send", (i) => ran.push(i))],
        });
        try {
            const r = await llmTools(api.createSession()).executeCode.execute({ code: "try { await tools.pay.send({}) } catch (e) { return e.message }", explanation: "x" });
            assert.deepEqual(ran, [], `worker: ${worker}`);
            assert.match(r.toolCalls[0].reason, /onToolCall returned (an input|a value) that is not JSON/, `worker: ${worker}: ${r.toolCalls[0].reason}`);
            assert.doesNotMatch(r.toolCalls[0].reason, /the tool returned/, `worker: ${worker}`);
        } finally {
            api.dispose();
        }
    }
});

// A page tool's result and onToolCall's replacement input are converted on
// the page (tojson.mjs) or by the core's host side (jsbridge.ToJSONStrict):
// an array longer than the core's limit fails the call at once with the
// core's words (testdata/arraycap.json), where it was written element by
// element, holes too, on the page's thread (length 2**32-1: never ending).
test("an array past the core's limit in a tool's result or onToolCall's input fails the call at once, in both modes", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    const { rows } = JSON.parse(readFileSync(join(root, "testdata", "arraycap.json"), "utf8"));
    for (const worker of [false, true]) {
        let length = 0;
        const huge = () => {
            const a = [];
            a.length = length;
            return a;
        };
        const ran = [];
        const api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            worker,
            interceptors: { onToolCall: ({ tool }) => (tool.name === "t.put" ? { allowed: true, input: { list: huge() } } : { allowed: true }) },
            tools: [tool("t.get", () => ({ rows: huge() })), tool("t.put", (i) => (ran.push(i), "put"))],
        });
        try {
            const { executeCode } = llmTools(api.createSession());
            for (const { length: n, message } of rows) {
                length = n;
                const code = "const out = []; for (const f of [tools.t.get, tools.t.put]) { try { await f({}); out.push('ok') } catch (e) { out.push(e.message) } } return out";
                const r = await executeCode.execute({ code, explanation: String(n) });
                const at = `worker: ${worker}, length ${n}`;
                assert.equal(r.ok, true, `${at}: ${JSON.stringify(r)}`);
                assert.equal(r.result[0], `the tool returned a value that is not JSON data: tools.t.get result.rows: ${message}`, at);
                assert.deepEqual(ran, [], `${at}: the tool ran`);
                assert.equal(r.toolCalls[1].allowed, false, at);
                assert.equal(r.toolCalls[1].reason, `interceptor failed: onToolCall returned an input that is not JSON: input.list: ${message}`, at);
            }
        } finally {
            api.dispose();
        }
    }
});

// hostile12: what becomes an array (a typed array, an ArrayBuffer's or a
// DataView's bytes) is held to the same limit, in a tool's result and in a
// program's: a tool's Uint8Array of 5e7 held the page's thread 12 s past a
// 20 s timeout; a program's ArrayBuffer of 5e7 converted in 44 s.
test("a typed array, ArrayBuffer or DataView past the core's limit fails the call or the run at once, in both modes", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    const [{ length, message }] = JSON.parse(readFileSync(join(root, "testdata", "arraycap.json"), "utf8")).rows;
    const words = message.slice(message.indexOf(" elements,"));
    for (const worker of [false, true]) {
        const api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            worker,
            tools: [
                tool("t.u8", () => ({ b: new Uint8Array(length) })),
                tool("t.buf", () => ({ b: new ArrayBuffer(length) })),
                tool("t.dv", () => ({ b: new DataView(new ArrayBuffer(length)) })),
            ],
        });
        try {
            const { executeCode } = llmTools(api.createSession());
            const code = "const out = []; for (const f of [tools.t.u8, tools.t.buf, tools.t.dv]) { try { await f({}); out.push('ok') } catch (e) { out.push(e.message) } } return out";
            const r = await executeCode.execute({ code, explanation: "" });
            assert.deepEqual(
                r.result,
                ["u8", "buf", "dv"].map((n) => `the tool returned a value that is not JSON data: tools.t.${n} result.b: an array of ${length}${words}`),
                `worker: ${worker}: ${JSON.stringify(r)}`,
            );
            const own = await executeCode.execute({ code: `return { b: new Uint8Array(${length}) }`, explanation: "" });
            assert.equal(own.error && own.error.code, "RESULT_NOT_SERIALIZABLE", `worker: ${worker}: ${JSON.stringify(own)}`);
            assert.match(own.error.message, new RegExp(`result\\.b: an array of ${length} elements, more than`));
        } finally {
            api.dispose();
        }
    }
});

// Where in onToolCall's replacement the long array is, as a tool's result
// says it (tojson.mjs): it said 'it holds an array of ...' and no path.
test("onToolCall's replacement input with a long array: the reason names the array's path, in both modes", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    const { rows } = JSON.parse(readFileSync(join(root, "testdata", "arraycap.json"), "utf8"));
    const { length, message } = rows[0];
    const huge = () => {
        const a = [];
        a.length = length;
        return a;
    };
    const shapes = [
        ["the input itself", () => huge(), "input"],
        ["a property", () => ({ a: 1, list: huge() }), "input.list"],
        ["after siblings", () => ({ x: { y: [1, { z: 2 }] }, z: [[], [3, huge()]] }), "input.z[1][1]"],
        ["keys that are not names", () => ({ "b c": { "1a": [{ $k: { _1: huge() } }] } }), 'input["b c"]["1a"][0].$k._1'],
    ];
    for (const worker of [false, true]) {
        let shape;
        const api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            worker,
            interceptors: { onToolCall: () => ({ allowed: true, input: shape() }) },
            tools: [tool("t.put", () => "put")],
        });
        try {
            const { executeCode } = llmTools(api.createSession());
            for (const [name, make, path] of shapes) {
                shape = make;
                const r = await executeCode.execute({ code: "try { return await tools.t.put({}) } catch (e) { return e.message }", explanation: name });
                const at = `worker: ${worker}, ${name}`;
                assert.equal(r.ok, true, `${at}: ${JSON.stringify(r)}`);
                assert.equal(r.toolCalls[0].reason, `interceptor failed: onToolCall returned an input that is not JSON: ${path}: ${message}`, at);
            }
        } finally {
            api.dispose();
        }
    }
});

test("a misspelt config key that holds a function is a TypeError naming it, in both modes", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    const cycle = { f() {} };
    cycle.self = cycle;
    const configs = [
        [{ search: { embedd: async () => [] } }, /^config\.search: unknown key "embedd" \(did you mean "embed"\?\)/],
        [{ interceptorz: { onToolCall: async () => ({ allowed: true }) } }, /^config: unknown key "interceptorz" \(did you mean "interceptors"\?\)/],
        [{ search: { embed: async () => [], options: { normalize() {} } } }, /^config\.search: unknown key "options"/],
        [{ extra: cycle }, /^config: unknown key "extra"/],
    ];
    for (const worker of [false, true]) {
        for (const [config, message] of configs) {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, worker, ...config }), (err) => err instanceof TypeError && message.test(err.message), `worker: ${worker}: ${message}`);
        }
    }
});

// Worker mode sends the config to the worker's core without its
// functions, which postMessage cannot clone; the core then named a function
// or Symbol where a value belongs as 'the string "[function]"', and a JSON
// config's own "__proto__" key, assigned to a plain object, became its
// prototype and was lost, where the calling thread refuses it.
test("config values that cannot cross to the worker are named as on the calling thread", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    for (const [config, message] of [
        [{ interceptors: async () => ({ allowed: true }) }, /^config\.interceptors: expected an object \{ onToolCall \}, got a function: write interceptors: \{ onToolCall: yourFunction \}$/],
        [{ timeout: Symbol("s") }, /^config\.timeout: expected a positive number, got symbol$/],
        [{ search: { embed: async () => [], weight: () => 1 } }, /^config\.search\.weight: expected a positive number, got function$/],
        [JSON.parse('{"__proto__": {"timeout": 1}}'), /^config: unknown key "__proto__"/],
        [{ search: JSON.parse('{"__proto__": {"weight": 1}}') }, /^config\.search: unknown key "__proto__"/],
    ]) {
        for (const worker of [false, true]) {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, worker, ...config }), (err) => err instanceof TypeError && message.test(err.message), `worker: ${worker}: ${message}`);
        }
    }
});

// js.Value.Type panics on a BigInt: wherever the Go core read the type of
// a value the page handed over, a BigInt was "internal error: bad type
// flag" (config, createSession, registerTool on the calling thread) or
// "panic: bad type flag" (onToolCall's decision and a tool error's name,
// in both modes), instead of the TypeError naming the field.
test("a BigInt the page hands over is named as one, in both modes", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    for (const worker of [false, true]) {
        for (const [config, message] of [
            [{ timeout: 10n }, /^config\.timeout: expected a positive number, got bigint$/],
            [{ maxToolCalls: 10n }, /^config\.maxToolCalls: expected a positive integer, got bigint$/],
            [{ search: { embed: async () => [], weight: 1n } }, /^config\.search\.weight: expected a positive number, got bigint$/],
        ]) {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, worker, ...config }), (err) => err instanceof TypeError && message.test(err.message), `worker: ${worker}: ${message}`);
        }
        let decision;
        const ran = [];
        const api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            worker,
            interceptors: { onToolCall: () => decision },
            tools: [
                tool("pay.send", (input) => (ran.push(input), "sent")),
                tool("t.fail", () => {
                    throw Object.assign(new Error("m"), { name: 10n });
                }),
            ],
        });
        try {
            assert.throws(() => api.createSession(10n), (err) => err instanceof TypeError && /^createSession\(options\): expected an object, got bigint$/.test(err.message), `worker: ${worker}`);
            assert.throws(() => api.registerTool({ name: 10n, execute() {} }), (err) => err instanceof TypeError && /^tool\.name: expected a string, got bigint$/.test(err.message), `worker: ${worker}`);
            const { executeCode } = llmTools(api.createSession());
            for (const [d, reason] of [
                [10n, /onToolCall returned bigint; expected/],
                [{ allowed: 1n }, /onToolCall's decision: allowed: expected true or false, got bigint$/],
            ]) {
                decision = d;
                const r = await executeCode.execute({ code: "try { return await tools.pay.send({}) } catch (e) { return e.message }", explanation: "x" });
                assert.deepEqual(ran, [], `worker: ${worker}`);
                assert.match(r.toolCalls[0].reason, reason, `worker: ${worker}: ${r.toolCalls[0].reason}`);
            }
            decision = { allowed: true };
            const r = await executeCode.execute({ code: "try { await tools.t.fail({}) } catch (e) { return [e.name, e.message] }", explanation: "x" });
            assert.deepEqual(r.result, ["ToolError", "m"], `worker: ${worker}: ${JSON.stringify(r)}`);
        } finally {
            api.dispose();
        }
    }
});

test("an embedder's answer that is not number[][] is reported as it is, in both modes", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    const warn = console.warn;
    for (const worker of [false, true]) {
        const lines = [];
        console.warn = (...args) => lines.push(args.join(" "));
        try {
            const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker, search: { embed: async () => "nope" }, tools: [tool("orders.search", () => 1)] });
            try {
                const hits = await llmTools(api.createSession()).searchTools.execute({ query: "find orders" });
                assert.deepEqual(hits.map((h) => h.name), ["orders.search"]);
            } finally {
                api.dispose();
            }
        } finally {
            console.warn = warn;
        }
        assert.ok(lines.some((l) => l.includes('embed returned the string "nope"; expected number[][]')), `worker: ${worker}: ${JSON.stringify(lines)}`);
    }
});

test("toolFilter hides a session's own tools in both modes: not in the instruction, search, tools or tool_call", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    for (const worker of [false, true]) {
        const ran = [];
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker, toolFilter: (t) => !t.name.startsWith("admin.") });
        try {
            const session = api.createSession({
                tools: [tool("admin.wipe", () => (ran.push("wipe"), "wiped"), { description: "Wipe every order." }), tool("orders.list", () => ["o1"])],
            });
            await api.ready();
            assert.doesNotMatch(session.getSystemInstruction(), /admin\.wipe/, `worker: ${worker}`);
            const { executeCode, searchTools } = llmTools(session);
            assert.deepEqual((await searchTools.execute({ query: "wipe orders" })).map((h) => h.name).filter((n) => n.startsWith("admin.")), [], `worker: ${worker}`);
            const r = await executeCode.execute({
                code: "return [typeof tools.admin, await tool_call('admin.wipe', {}).catch((e) => e.message), await tools.orders.list({})]",
                explanation: "x",
            });
            assert.deepEqual(r.result, ["undefined", 'unknown tool "admin.wipe"; use tool_search to find tools', ["o1"]], `worker: ${worker}: ${JSON.stringify(r)}`);
            assert.deepEqual(ran, [], `worker: ${worker}`);
        } finally {
            api.dispose();
        }
    }
});

test("createSession's tool errors are the same in both modes", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    const seen = [];
    for (const worker of [false, true]) {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker, tools: [tool("orders.search", () => 1)] });
        try {
            seen.push(
                [{ tools: {} }, { tools: [tool("orders.search", () => 2)] }, { tools: [tool("a.b", () => 1), tool("a.b", () => 1)] }].map((options) => {
                    try {
                        api.createSession(options);
                        return "created";
                    } catch (err) {
                        return `${err.name}: ${err.message}`;
                    }
                }),
            );
        } finally {
            api.dispose();
        }
    }
    assert.deepEqual(seen[0], [
        "TypeError: options.tools: expected an array of tool definitions, got an object",
        'TypeError: options.tools[0] ("orders.search"): name: already registered on the factory',
        'TypeError: options.tools[1] ("a.b"): name: appears more than once in the batch',
    ]);
    assert.deepEqual(seen[1], seen[0]);
});

// config.tools's errors read as registerTools's, in both modes, naming the
// tool's place in the list and its name: on the
// calling thread they began "Tools: ", the Go core's name of the field.
test("config.tools's errors are the same in both modes", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    const seen = [];
    for (const worker of [false, true]) {
        const errors = [];
        const third = [tool("a", () => 1), tool("b", () => 1), tool("c", () => 1), { ...tool("orders.search", () => 1), inputSchema: { type: "object", properties: { x: { type: "strin" } } } }];
        for (const tools of [[tool("a", () => 1), tool("a", () => 1)], [tool("a b", () => 1)], [{ ...tool("a", () => 1), inputSchema: { type: "nope" } }], third]) {
            errors.push(
                await IoCodeModeFactory({ wasmLocation: assetPath, worker, tools }).then(
                    (api) => (api.dispose(), "created"),
                    (err) => `${err.name}: ${err.message}`,
                ),
            );
        }
        seen.push(errors);
    }
    assert.deepEqual(seen[0], [
        'TypeError: config.tools[1] ("a"): name: appears more than once in the batch',
        "TypeError: config.tools[0] (\"a b\"): name: must be 1..128 characters of [A-Za-z0-9_$.-], found ' ' at offset 1",
        'TypeError: config.tools[0] ("a"): inputSchema: /type: "nope" is not a type (null, boolean, object, array, number, string or integer)',
        'TypeError: config.tools[3] ("orders.search"): inputSchema: /properties/x/type: "strin" is not a type (null, boolean, object, array, number, string or integer)',
    ]);
    assert.deepEqual(seen[1], seen[0]);
});

// annotations are free-form, but an object: a string, a number or an
// array registered without a word (onToolCall saw the string in-thread,
// the core none).
test("annotations that are not an object are refused, naming the field, in both modes; null is none", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    const seen = [];
    for (const worker of [false, true]) {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker });
        try {
            seen.push(
                ["read-only", 5, ["readOnlyHint"], () => {}, null].map((annotations) => {
                    try {
                        api.registerTool({ ...tool("a", () => 1), annotations })();
                        return "registered";
                    } catch (err) {
                        return `${err.name}: ${err.message}`;
                    }
                }),
            );
        } finally {
            api.dispose();
        }
    }
    assert.deepEqual(seen[0], [
        'TypeError: tool ("a"): annotations: expected an object (hints and your own metadata), got the string "read-only"',
        "TypeError: tool (\"a\"): annotations: expected an object (hints and your own metadata), got the number 5",
        "TypeError: tool (\"a\"): annotations: expected an object (hints and your own metadata), got an array",
        "TypeError: tool (\"a\"): annotations: expected an object (hints and your own metadata), got function",
        "registered",
    ]);
    assert.deepEqual(seen[1], seen[0]);
});

test("annotations that are not JSON register in both modes, and reach onToolCall as given", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    const cyclic = { source: "mcp" };
    cyclic.self = cyclic;
    for (const worker of [false, true]) {
        const seen = [];
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker, interceptors: { onToolCall: ({ tool: t }) => (seen.push(t.annotations), { allowed: true }) } });
        try {
            api.registerTools([tool("a.cyclic", () => 1, { annotations: cyclic }), tool("a.big", () => 2, { annotations: { n: 10n } }), tool("a.fn", () => 3, { annotations: { check() {} } })]);
            const r = await llmTools(api.createSession()).executeCode.execute({ code: "return [await tools.a.cyclic({}), await tools.a.big({}), await tools.a.fn({})]", explanation: "x" });
            assert.deepEqual(r.result, [1, 2, 3], `worker: ${worker}: ${JSON.stringify(r)}`);
            assert.equal(seen[0], cyclic, `worker: ${worker}`);
            assert.equal(seen[1].n, 10n, `worker: ${worker}`);
        } finally {
            api.dispose();
        }
    }
});

test("tools registered one by one: after ready() the instruction counts every one, in both modes", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    for (const worker of [false, true]) {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker });
        try {
            const session = api.createSession();
            for (let i = 0; i < 300; i++) api.registerTool(tool(`bulk.t${i}`, () => i));
            await api.ready();
            assert.match(session.getSystemInstruction(), /^- bulk \(300\)$/m, `worker: ${worker}`);
            const unregister = api.registerTool(tool("late.one", () => 1));
            unregister();
            api.registerTool(tool("late.two", () => 2));
            await api.ready();
            assert.doesNotMatch(session.getSystemInstruction(), /late\.one/, `worker: ${worker}`);
            assert.match(session.getSystemInstruction(), /late/, `worker: ${worker}`);
        } finally {
            api.dispose();
        }
    }
});

// Unregistering takes a tool away from the runs in flight too (a host
// revoking it): before, a run on the calling thread went on calling the
// tool it started with, and in worker mode the call failed with "the run
// has ended" while the run went on.
test("a tool unregistered during a run cannot be called by it any more, in both modes", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    const gone = 'ToolError: tool "t.gone" was unregistered during this run; use tool_search to find tools';
    for (const worker of [false, true]) {
        for (const when of ["from another tool", "while onToolCall decides"]) {
            const label = `worker: ${worker}, ${when}`;
            let unregister = () => {};
            let ran = 0;
            const api = await IoCodeModeFactory({
                wasmLocation: assetPath,
                worker,
                interceptors: {
                    onToolCall: ({ tool: t }) => {
                        if (when !== "from another tool" && t.name === "t.gone") unregister();
                        return { allowed: true };
                    },
                },
            });
            try {
                api.registerTool(tool("t.first", () => (when === "from another tool" ? unregister() : 0, 1)));
                unregister = api.registerTool(tool("t.gone", () => ++ran));
                const session = api.createSession();
                await api.ready();
                const { executeCode } = llmTools(session);
                const r = await executeCode.execute({ code: "await tools.t.first({});\ntry { await tools.t.gone({}) } catch (e) { return e.name + ': ' + e.message }", explanation: "x" });
                assert.equal(r.result, gone, label);
                assert.equal(ran, 0, label);
                assert.deepEqual(r.toolCalls.map(({ name, allowed, ok, reason }) => ({ name, allowed, ok, reason })), [
                    { name: "t.first", allowed: true, ok: true, reason: undefined },
                    { name: "t.gone", allowed: false, ok: false, reason: "unregistered during the run" },
                ], label);
                const next = await executeCode.execute({ code: "return Object.keys(tools.t)", explanation: "x" });
                assert.deepEqual(next.result, ["first"], label);
            } finally {
                api.dispose();
            }
        }
    }
});

// An async toolFilter returns a promise for every tool, which was truthy:
// every tool it meant to hide was visible to the model (fail open).
test("an async toolFilter hides the tools it answers with a promise, and says so once, in both modes", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    for (const worker of [false, true]) {
        const errors = [];
        const original = console.error;
        console.error = (...a) => errors.push(a.join(" "));
        let ran = false;
        const api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            worker,
            toolFilter: async (t) => !t.name.startsWith("admin."),
            tools: [tool("admin.wipe", () => ((ran = true), "wiped")), tool("orders.list", () => [])],
        });
        try {
            const session = api.createSession();
            await api.ready();
            assert.deepEqual(api.listTools(), [], `worker: ${worker}`);
            const r = await llmTools(session).executeCode.execute({ code: "try { return await tools.admin.wipe({}) } catch (e) { return e.message }", explanation: "x" });
            assert.match(r.result, /^unknown tool "admin\.wipe"/, `worker: ${worker}`);
            assert.equal(ran, false, `worker: ${worker}`);
            assert.doesNotMatch(session.getSystemInstruction(), /^- (admin|orders) \(/m, `worker: ${worker}`);
            assert.equal(errors.filter((e) => e.includes("toolFilter returned a promise")).length, 1, `worker: ${worker}: ${errors}`);
        } finally {
            console.error = original;
            api.dispose();
        }
    }
});

// A factory tool registered over a live session's own name was accepted:
// that session's program then failed building `tools` ("property is not
// configurable") and tool_call reached the factory's tool.
test("registerTool refuses a live session's own tool name until the session is disposed, in both modes", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    for (const worker of [false, true]) {
        const label = `worker: ${worker}`;
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker });
        try {
            const session = api.createSession({ tools: [tool("mine.x", () => "session")] });
            assert.throws(() => api.registerTool(tool("mine.x", () => "factory")), {
                name: "TypeError",
                message: `tool ("mine.x"): name: already a tool of a session (createSession's tools)`,
            }, label);
            assert.throws(() => api.registerTools([tool("other.y", () => 1), tool("mine.x", () => 2)]), {
                name: "TypeError",
                message: `tools[1] ("mine.x"): name: already a tool of a session (createSession's tools)`,
            }, label);
            await api.ready();
            assert.deepEqual(api.listTools().map((t) => t.name), [], label);
            const r = await llmTools(session).executeCode.execute({ code: "return [await tools.mine.x({}), await tool_call('mine.x', {})]", explanation: "x" });
            assert.deepEqual(r.result, ["session", "session"], `${label}: ${JSON.stringify(r.error)}`);
            session.dispose();
            api.registerTool(tool("mine.x", () => "factory"));
            await api.ready();
            const r2 = await llmTools(api.createSession()).executeCode.execute({ code: "return await tools.mine.x({})", explanation: "x" });
            assert.equal(r2.result, "factory", label);
        } finally {
            api.dispose();
        }
    }
});

// A tool source re-registers a tool whose description changed: a run in
// flight calls it on by its name (the new definition), in both modes.
test("a tool unregistered and registered again under its name during a run is called by its name, in both modes", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    for (const worker of [false, true]) {
        let unregister = () => {};
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, worker });
        try {
            api.registerTool(tool("t.first", () => (unregister(), api.registerTool(tool("t.x", () => "new", { description: "changed" })), 1)));
            unregister = api.registerTool(tool("t.x", () => "old"));
            await api.ready();
            const r = await llmTools(api.createSession()).executeCode.execute({ code: "await tools.t.first({});\nreturn await tools.t.x({})", explanation: "x" });
            assert.equal(r.result, "new", `worker: ${worker}: ${JSON.stringify(r.error)}`);
        } finally {
            api.dispose();
        }
    }
});

// A limit that is not finite is told it must be: "expected a positive
// number, got the number Infinity" read as a contradiction (Infinity is
// positive).
test("a limit of Infinity or NaN is named as JavaScript writes it, and told it must be finite", async () => {
    const { IoCodeModeFactory } = await import(indexURL);
    for (const worker of [false, true]) {
        for (const [field, value, message] of [
            ["timeout", Infinity, "config.timeout: expected a finite positive number, got the number Infinity"],
            ["timeout", NaN, "config.timeout: expected a finite positive number, got the number NaN"],
            ["memoryLimit", -Infinity, "config.memoryLimit: expected a finite positive integer, got the number -Infinity"],
            ["maxToolCalls", Infinity, "config.maxToolCalls: expected a finite positive integer, got the number Infinity"],
            ["maxResultChars", NaN, "config.maxResultChars: expected a finite positive integer, got the number NaN"],
            ["search", { embed: async () => [], weight: Infinity }, "config.search.weight: expected a finite positive number, got the number Infinity"],
            ["search", { embed: async () => [], timeout: Infinity }, "config.search.timeout: expected a finite positive number, got the number Infinity"],
            // Finite values keep their words.
            ["timeout", -1, "config.timeout: expected a positive number, got the number -1"],
            ["memoryLimit", 0.5, "config.memoryLimit: expected a positive integer, got the number 0.5"],
        ]) {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, worker, [field]: value }), (err) => err instanceof TypeError && err.message === message, `worker: ${worker}: ${field}: ${message}`);
        }
    }
});
