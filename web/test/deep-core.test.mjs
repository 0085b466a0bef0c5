// Deep input to the Go core, in-thread and in worker_threads. Under
// GOOS=js the core's calls nest on the JavaScript engine's stack (about
// 1 MB), not Go's: a recursive walk a few thousand levels deep threw
// "Maximum call stack size exceeded" inside Go, which ended the Go program
// (in-thread, every later call of the factory failed). Each row's input
// now meets a limit that names itself, and the factory runs the next
// program; rows that ended the engine or hung before say so.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, run, withFactory } from "./helpers.mjs";
import { AT_THE_LIMITS, TOO_DEEP_TO_CHECK, callAndCatch, deepInput, placeChain, recursive, refChain } from "./deep-core-cases.mjs";

const nest = (n, wrap, leaf) => {
    let v = leaf;
    for (let i = 0; i < n; i++) v = wrap(v);
    return v;
};

const tooDeepToCheck = new RegExp(TOO_DEEP_TO_CHECK);

// Rows: [name, tool definition fields, code, check of the run's result].
const CALLS = [
    // Ended the engine: the cycle check walked the chain recursively.
    ["an inputSchema with a chain of 10,000 $ref", { inputSchema: refChain(10000) }, callAndCatch("{ x: 1 }"), (r) => assert.match(r, tooDeepToCheck)],
    ["an outputSchema with a chain of 10,000 $ref", { outputSchema: refChain(10000), execute: () => ({ x: "s" }) }, callAndCatch("{}"),
        (r) => assert.match(r, /^t\.x: the result cannot be checked against its outputSchema: invalid input: the value nests too deeply for its schema/)],
    ["a chain of 1,000 $ref checks its input", { inputSchema: refChain(1000) }, callAndCatch("{ x: 1 }"), (r) => assert.equal(r, "t.x: invalid input: /x: type: got number, want string")],
    // Ended the engine: the validator nested 5 schemas per level.
    ["four in-place steps per level, an input 999 deep", { inputSchema: placeChain(4) }, callAndCatch(deepInput(998, "{}")), (r) => assert.match(r, tooDeepToCheck)],
    ["four in-place steps per level, an input 999 deep, invalid at the bottom", { inputSchema: placeChain(4) }, callAndCatch(deepInput(998, "1")), (r) => assert.match(r, tooDeepToCheck)],
    ["a schema recursing once per level, an input 999 deep", { inputSchema: recursive }, callAndCatch(deepInput(998, "{}")), (r) => assert.equal(r, "ok")],
    // Hung the page's thread (2^depth): the message's choice of a union's
    // closest branch.
    ["a recursive anyOf, an input 300 deep, invalid at the bottom",
        { inputSchema: { type: "object", properties: { a: { anyOf: [{ $ref: "#" }, { type: "string" }] } } } }, callAndCatch(deepInput(300, "1")),
        (r) => assert.equal(r, `t.x: invalid input: /${"a/".repeat(298)}a: type: got object, want string`)],
];

// The rows the Chromium test runs too (web/browser-test/recursion.test.mjs).
for (const [name, inputSchema, code, want] of AT_THE_LIMITS) {
    const check = (r) => (want.startsWith("~") ? assert.ok(r.includes(want.slice(1)), r) : assert.equal(r, want));
    CALLS.push([`${name} (at the limits)`, { inputSchema, execute: () => "ran" }, code, check]);
}

for (const [name, fields, code, check] of CALLS) {
    test(`deep input: ${name}; the factory lives`, async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 60000 });
        api.registerTool({ name: "t.x", inputSchema: { type: "object" }, execute: () => "ok", ...fields });
        await api.ready();
        const r = await run(api.createSession(), code);
        assert.equal(r.ok, true, JSON.stringify(r.error));
        check(r.result);
        assert.equal((await run(api.createSession(), "return 1 + 1")).result, 2);
    });
}

// A schema nested past the sandbox's JSON limit is refused when registered,
// saying so: the page's walk of it recursed and threw a bare "Maximum call
// stack size exceeded".
const SCHEMAS = [
    ["properties", (n) => nest(n, (s) => ({ type: "object", properties: { a: s } }), { type: "string" })],
    ["items", (n) => ({ type: "object", properties: { a: nest(n, (s) => ({ type: "array", items: s }), {}) } })],
    ["allOf", (n) => ({ type: "object", properties: { a: nest(n, (s) => ({ allOf: [s] }), {}) } })],
    ["not", (n) => ({ type: "object", properties: { a: nest(n, (s) => ({ not: s }), {}) } })],
    ["a const value", (n) => ({ type: "object", properties: { a: { const: nest(n, (s) => [s], 1) } } })],
];

for (const [name, schema] of SCHEMAS) {
    test(`deep schema: ${name} nested 10,000 levels is refused, naming the limit; the factory lives`, async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 60000 });
        for (const field of ["inputSchema", "outputSchema"]) {
            assert.throws(() => api.registerTool({ name: "t.x", inputSchema: { type: "object" }, [field]: schema(10000), execute: () => 1 }),
                (e) => e instanceof TypeError && e.message.includes(`${field}: `) && e.message.endsWith("got an object that is not JSON data (schema nests more than 1,000 levels deep)"),
                field);
        }
        api.registerTool({ name: "t.y", inputSchema: { type: "object" }, execute: () => 1 });
        await api.ready();
        assert.equal((await run(api.createSession(), "return await tools.t.y({})")).result, 1);
    });
}

// An interceptor's replacement input is converted with a replacer in Go,
// called by JSON.stringify once per level: nested 5,000 levels, the page's
// stack overflowed inside Go and the engine stopped (in-thread).
test("deep input: an onToolCall replacement input nested 100,000 levels is refused; the factory lives", async (t) => {
    let d = 1;
    for (let i = 0; i < 100000; i++) d = { a: d };
    let replace = { d };
    const api = await withFactory(t, { wasmLocation: assetPath, timeout: 60000, interceptors: { onToolCall: () => ({ allowed: true, input: replace }) } });
    api.registerTool({ name: "t.x", inputSchema: { type: "object" }, execute: () => "ran" });
    await api.ready();
    const r = await run(api.createSession(), callAndCatch("{}"));
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.match(r.result, /^call to t\.x denied: the interceptor failed \(onToolCall returned an input that is not JSON: .*nests more than 1,000 levels deep/);
    replace = { d: nest(998, (v) => ({ a: v }), 1) };
    assert.equal((await run(api.createSession(), callAndCatch("{}"))).result, "ran");
});

// The LLM tools' arguments as JSON text were decoded by encoding/json, which
// recursed once per level: executeCode's arguments holding a value 6,000
// levels deep (a model's text) stopped the engine (in-thread).
test("deep input: LLM tool arguments as JSON text nested 6,000 levels are INVALID_INPUT; the factory lives", async (t) => {
    const api = await withFactory(t, { wasmLocation: assetPath, timeout: 60000 });
    const deep = `${"[".repeat(6000)}${"]".repeat(6000)}`;
    const [searchTools, executeCode] = api.createSession().getLlmTools();
    for (const [tool, args] of [[executeCode, `{"code":"return 1","x":${deep}}`], [searchTools, `{"query":"x","x":${deep}}`]]) {
        const r = await tool.execute(args);
        assert.equal(r.error?.code, "INVALID_INPUT", JSON.stringify(r).slice(0, 300));
        // searchTools's arguments as one JSON string say "not JSON" (as
        // they did before); executeCode's name the limit.
        if (tool === executeCode) assert.match(r.error.message, /^executeCode: the arguments are JSON text that nests more than 1,000 levels deep; expected an object/);
    }
    assert.equal((await run(api.createSession(), "return 1 + 1")).result, 2);
});
