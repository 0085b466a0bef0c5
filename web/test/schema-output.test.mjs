// A tool whose inputSchema is a schema library's object (Zod 4, another
// Standard Schema, the AI SDK's zodSchema()/jsonSchema() with validate)
// gets what that library's check gives: defaults filled in, transforms
// run, as the AI SDK's own tools do. A tool written for the AI SDK that
// read input.tags.map(...) threw when the model left tags out, where the
// schema said .default([]). The model's input as it wrote it is what the
// interceptor and onEvent's tool-call see.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { jsonSchema, zodSchema } from "ai";
import { assetPath, run, tool, withFactory } from "./helpers.mjs";

const echo = (input) => input;

for (const worker of [false, true]) describe(`a schema library's output reaches execute (worker: ${worker})`, () => {
    test("Zod 4: defaults are filled in and transforms run; the tool-call event shows the input as written", async (t) => {
        const events = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            worker,
            onEvent: (e) => e.type === "tool-call" && events.push(e.input),
            tools: [
                tool("docs.find", echo, { inputSchema: z.object({ q: z.string(), limit: z.number().default(10), tags: z.array(z.string()).default([]) }) }),
                tool("docs.when", (i) => ({ isDate: i.when instanceof Date, year: i.when.getUTCFullYear(), upper: i.name }), {
                    inputSchema: z.object({ when: z.string().transform((s) => new Date(s)), name: z.string().transform((s) => s.toUpperCase()) }),
                }),
            ],
        });
        const r = await run(api.createSession(), "return [await tools.docs.find({ q: 'x' }), await tools.docs.when({ when: '2026-12-05T00:00:00Z', name: 'ada' })]");
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(r.result, [{ q: "x", limit: 10, tags: [] }, { isDate: true, year: 2026, upper: "ADA" }]);
        assert.deepEqual(events, [{ q: "x" }, { when: "2026-12-05T00:00:00Z", name: "ada" }]);
    });

    test("the AI SDK's zodSchema() and jsonSchema() with validate: execute gets the value their check gives", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            worker,
            tools: [
                tool("a.zod", echo, { inputSchema: zodSchema(z.object({ n: z.number(), unit: z.enum(["cm", "in"]).default("cm") })) }),
                tool("a.json", echo, {
                    inputSchema: jsonSchema({ type: "object", properties: { n: { type: "number" } } }, { validate: (v) => ({ success: true, value: { ...v, checked: true } }) }),
                }),
                // No validate: the input as the model wrote it.
                tool("a.plain", echo, { inputSchema: jsonSchema({ type: "object", properties: { n: { type: "number" } } }) }),
            ],
        });
        const r = await run(api.createSession(), "return [await tools.a.zod({ n: 1 }), await tools.a.json({ n: 2 }), await tools.a.plain({ n: 3 })]");
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(r.result, [{ n: 1, unit: "cm" }, { n: 2, checked: true }, { n: 3 }]);
    });

    test("a Standard Schema's value is used whatever it is; a success without a value leaves the input as written", async (t) => {
        const std = (validate) => ({ "~standard": { version: 1, vendor: "test", validate, jsonSchema: { input: () => ({ type: "object" }) } } });
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            worker,
            tools: [
                tool("s.wrap", (i) => ({ got: i }), { inputSchema: std((v) => ({ value: [v, "wrapped"] })) }),
                tool("s.async", (i) => ({ got: i }), { inputSchema: std(async (v) => ({ value: { ...v, late: 1 } })) }),
                tool("s.novalue", (i) => ({ got: i }), { inputSchema: std(() => ({})) }),
            ],
        });
        const r = await run(api.createSession(), "return [await tools.s.wrap({ a: 1 }), await tools.s.async({ a: 2 }), await tools.s.novalue({ a: 3 })]");
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(r.result, [{ got: [{ a: 1 }, "wrapped"] }, { got: { a: 2, late: 1 } }, { got: { a: 3 } }]);
    });
});
