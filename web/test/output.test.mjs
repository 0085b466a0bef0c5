// A tool's outputSchema is enforced: every result is checked against it
// before the program sees it, in every mode (this file runs in-thread and
// with CODE_MODE_WORKER=1), and a mismatch fails that call with an error
// naming the tool, the path in the result and the rule.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, loadFactory, run } from "./helpers.mjs";

let IoCodeModeFactory;
before(async () => {
    IoCodeModeFactory = await loadFactory();
});

const mismatch = (name, rest) => `ToolError: ${name}: the tool's result does not match its outputSchema: ${rest}`;
const idSchema = { type: "object", properties: { id: { type: "string" } }, required: ["id"] };
const rowsSchema = {
    type: "object",
    properties: { rows: { type: "array", items: { $ref: "#/$defs/row" } } },
    $defs: { row: { type: "object", properties: { id: { type: "string" }, n: { type: "integer" } }, required: ["id"] } },
};
const rows = (n, last) => ({ rows: Array.from({ length: n }, (_, i) => ({ id: i === n - 1 ? last : `r${i}`, n: i })) });

// [what, outputSchema, what execute returns, the call's value or undefined, the error the program catches or undefined]
const cases = [
    ["a conforming result passes unchanged", idSchema, { id: "o1", extra: [1, 2.5, { a: null }] }, { id: "o1", extra: [1, 2.5, { a: null }] }],
    ["a wrong type fails the call, naming the path", idSchema, { id: 5 }, undefined, mismatch("t.x", "/id: type: got number, want string")],
    ["a missing required property", idSchema, {}, undefined, mismatch("t.x", '/: required: missing "id"')],
    ["no result is null", idSchema, undefined, undefined, mismatch("t.x", "/: type: got null, want object")],
    ["a Date is checked as the ISO string the program gets", { type: "object", properties: { at: { type: "string" } } }, { at: new Date(0) }, { at: "1970-01-01T00:00:00.000Z" }],
    ["no outputSchema, no check", undefined, { id: 5 }, { id: 5 }],
    ["$ref and $defs, conforming", rowsSchema, rows(3, "last"), rows(3, "last")],
    ["$ref and $defs, mismatch", rowsSchema, { rows: [{ id: "a" }, { n: 1 }] }, undefined, mismatch("t.x", '/rows/1: required: missing "id"')],
    ["a large result, conforming", rowsSchema, rows(2000, "last"), rows(2000, "last")],
    ["a large result, its last row wrong", rowsSchema, rows(2000, false), undefined, mismatch("t.x", "/rows/1999/id: type: got boolean, want string")],
];

describe("outputSchema is enforced", () => {
    let api, session;
    before(async () => {
        api = await IoCodeModeFactory({ wasmLocation: assetPath, maxResultChars: 1 << 20 });
        session = api.createSession();
    });
    after(() => api.dispose());

    for (const [what, outputSchema, value, want, error] of cases) {
        test(what, async () => {
            const def = { name: "t.x", execute: () => value };
            if (outputSchema !== undefined) def.outputSchema = outputSchema;
            const unregister = api.registerTool(def);
            try {
                const out = await run(session, "try { return { value: await tools.t.x({}) } } catch (e) { return { caught: e.name + ': ' + e.message } }");
                assert.equal(out.ok, true, JSON.stringify(out));
                assert.equal(out.toolCalls.length, 1);
                const [rec] = out.toolCalls;
                if (error === undefined) {
                    assert.deepEqual(out.result, { value: want });
                    assert.deepEqual([rec.allowed, rec.ok, rec.reason], [true, true, undefined]);
                } else {
                    assert.deepEqual(out.result, { caught: error });
                    assert.deepEqual([rec.allowed, rec.ok, rec.reason], [true, false, error.slice("ToolError: ".length)]);
                }
            } finally {
                unregister();
            }
        });
    }

    test("a session's own tool is checked too", async () => {
        const s = api.createSession({ tools: [{ name: "own.x", outputSchema: idSchema, execute: () => ({ id: 1 }) }] });
        const out = await run(s, "try { await tools.own.x({}) } catch (e) { return e.message }");
        assert.equal(out.result, mismatch("own.x", "/id: type: got number, want string").slice("ToolError: ".length));
        s.dispose();
    });
});

// A mismatch is visible to the host as any failed call: its tool-result
// event says ok: false and why (the page reports the call once the core
// has checked the result, in both modes), as for a value that is not JSON
// data (whose event said ok: true before).
describe("the host sees a result refused by its outputSchema", () => {
    test("onEvent's tool-result says ok: false with the error, a conforming result ok: true", async () => {
        const events = [];
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, onEvent: (e) => e.type === "tool-result" && events.push(e) });
        try {
            api.registerTools([
                { name: "t.bad", outputSchema: idSchema, execute: () => ({ id: 5 }) },
                { name: "t.good", outputSchema: idSchema, execute: () => ({ id: "a" }) },
                { name: "t.none", execute: () => ({ id: 5 }) },
                { name: "t.fn", execute: () => () => 1 },
            ]);
            const out = await run(api.createSession(), "const r = []; for (const n of ['bad', 'good', 'none', 'fn']) { try { r.push(await tools.t[n]({})) } catch (e) { r.push(e.message) } } return r");
            assert.equal(out.ok, true, JSON.stringify(out));
            const refused = mismatch("t.bad", "/id: type: got number, want string").slice("ToolError: ".length);
            const notData = "the tool returned a function, which is not JSON data";
            assert.deepEqual(out.result, [refused, { id: "a" }, { id: 5 }, notData]);
            assert.deepEqual(
                events.map((e) => [e.name, e.ok, e.ok ? e.result : e.error]),
                [["t.bad", false, refused], ["t.good", true, { id: "a" }], ["t.none", true, { id: 5 }], ["t.fn", false, notData]],
            );
        } finally {
            api.dispose();
        }
    });
});

// A schema library's outputSchema: its JSON Schema is the core's check, and
// its own validation (a refinement JSON Schema cannot express) runs too, on
// the value execute returned, as an inputSchema's does on the input.
describe("a library schema as outputSchema", () => {
    let api, session, z, jsonSchema;
    before(async () => {
        ({ z } = await import("zod"));
        ({ jsonSchema } = await import("ai"));
        api = await IoCodeModeFactory({ wasmLocation: assetPath });
        session = api.createSession();
    });
    after(() => api.dispose());

    const call = async (name) => {
        const out = await run(session, `try { return { value: await tools.${name}({}) } } catch (e) { return { caught: e.name + ': ' + e.message } }`);
        assert.equal(out.ok, true, JSON.stringify(out));
        return out.result;
    };

    test("Zod: a conforming result passes, a refinement and a type are enforced", async () => {
        const schema = z.object({ id: z.string(), total: z.number() }).refine((o) => o.total >= 0, "total must not be negative");
        api.registerTools([
            { name: "z.good", outputSchema: schema, execute: () => ({ id: "a", total: 1 }) },
            { name: "z.refined", outputSchema: schema, execute: () => ({ id: "a", total: -1 }) },
            { name: "z.typed", outputSchema: schema, execute: () => ({ id: 5, total: 1 }) },
        ]);
        assert.deepEqual(await call("z.good"), { value: { id: "a", total: 1 } });
        assert.deepEqual(await call("z.refined"), { caught: mismatch("z.refined", "total must not be negative") });
        assert.deepEqual(await call("z.typed"), { caught: mismatch("z.typed", "id: Invalid input: expected string, received number") });
    });

    test("AI SDK jsonSchema() with its own validate", async () => {
        const schema = jsonSchema({ type: "object", properties: { n: { type: "number" } } }, {
            validate: (v) => (v && v.n % 2 === 0 ? { success: true, value: v } : { success: false, error: new Error("n must be even") }),
        });
        api.registerTools([
            { name: "ai.even", outputSchema: schema, execute: () => ({ n: 2 }) },
            { name: "ai.odd", outputSchema: schema, execute: () => ({ n: 3 }) },
            { name: "ai.typed", outputSchema: jsonSchema({ type: "object", properties: { n: { type: "number" } } }), execute: () => ({ n: "2" }) },
        ]);
        assert.deepEqual(await call("ai.even"), { value: { n: 2 } });
        assert.deepEqual(await call("ai.odd"), { caught: mismatch("ai.odd", "n must be even") });
        assert.deepEqual(await call("ai.typed"), { caught: mismatch("ai.typed", "/n: type: got string, want number") });
    });
});

