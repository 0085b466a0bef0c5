// Registering a list of tools: the core reads a well-formed list in one
// call to the loader's converter (convertTools in web/src/schema.mjs) and
// keeps each tool's execute, schema validation and definition in the
// converter's arrays. These tests check that every tool gets its own, and
// that a malformed list still fails as it always did.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, llmTools, loadFactory, run } from "./helpers.mjs";
import { convertTools } from "../src/schema.mjs";

const IoCodeModeFactory = await loadFactory();

// Descriptions with what the one-call text must carry through: quotes,
// backslashes, the text's own separators, line breaks, non-ASCII.
const tricky = ['Say "hi" \\ back.', "Tab\there, \x1e and \x1f inside.", "Line\nbreak \u2028 and emoji 🚀 café."];

describe("registerTools reads the list in one call", () => {
    test("each tool keeps its own name, description, schema, validation and execute", async () => {
        const { z } = await import("zod");
        const calls = [];
        const defs = Array.from({ length: 30 }, (_, i) => ({
            name: `bulk.t${String(i).padStart(2, "0")}`,
            description: `${tricky[i % 3]} Number ${i}.`,
            // every third a Zod schema whose own check only accepts this tool's number
            inputSchema: i % 3 === 0 ? z.object({ n: z.number() }).refine((o) => o.n === i, `t${i} wants ${i}`) : { type: "object", properties: { n: { type: "integer", maximum: i } }, required: ["n"] },
            annotations: { readOnlyHint: i % 2 === 0 },
            execute: (input) => (calls.push([i, input.n]), `t${i}:${input.n}`),
        }));
        const listed = [];
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, toolFilter: (t) => (listed.push(t), true) });
        try {
            api.registerTools(defs);
            const first = defs[0].execute;
            defs[0].execute = () => "replaced"; // execute as it was when registered
            assert.deepEqual(api.listTools(), defs, "listTools gives the definitions themselves, in name order");
            assert.ok(listed.length > 0 && listed.every((t) => defs.includes(t)), "toolFilter sees the definitions themselves");
            defs[0].execute = first;

            const session = api.createSession();
            const hits = await llmTools(session).searchTools.execute({ query: "", namespace: "bulk", limit: 50 });
            assert.deepEqual(hits.map((h) => [h.name, h.description]), defs.map((d) => [d.name, d.description]));

            const r = await run(
                session,
                `const out = [];
                for (const [i, n] of [[0, 0], [0, 1], [1, 1], [1, 2], [3, 3], [3, 2], [29, 29], [29, 30]]) {
                    const name = "t" + String(i).padStart(2, "0");
                    try { out.push(await tools.bulk[name]({ n })); } catch (e) { out.push(e.message); }
                }
                return out;`,
            );
            assert.equal(r.ok, true, JSON.stringify(r));
            const [ok0, bad0, ok1, bad1, ok3, bad3, ok29, bad29] = r.result;
            assert.deepEqual([ok0, ok1, ok3, ok29], ["t0:0", "t1:1", "t3:3", "t29:29"]);
            assert.match(bad0, /t0 wants 0/, "tool 0's own Zod check");
            assert.match(bad3, /t3 wants 3/, "tool 3's own Zod check");
            assert.match(bad1, /^bulk\.t01: .*maximum|^bulk\.t01: .*1/, "tool 1's own JSON Schema");
            assert.match(bad29, /^bulk\.t29: .*maximum|^bulk\.t29: .*29/, "tool 29's own JSON Schema");
            assert.deepEqual(calls, [[0, 0], [1, 1], [3, 3], [29, 29]], "rejected input never reached a tool");
        } finally {
            api.dispose();
        }
    });

    test("a malformed definition anywhere in the list fails the whole list, naming it", async () => {
        const good = (name) => ({ name, inputSchema: { type: "object" }, execute: () => 1 });
        const cases = [
            [[good("a.x"), { name: 7, execute: () => 1 }], /^tools\[1\]\.name: expected a string, got the number 7/],
            [[good("a.x"), good("a.y"), { name: "a.z", execute: () => 1, inputschema: {} }], /^tools\[2\]: unknown key "inputschema"/],
            [[{ name: "a.x", execute: "no" }], /^tools\[0\]\.execute: expected a function/],
            [[good("a.x"), { name: "a.y", execute: () => 1, inputSchema: { status: "string" } }], /^tools\[1\]\.inputSchema: must be a JSON Schema/],
        ];
        for (const [list, message] of cases) {
            const api = await IoCodeModeFactory({ wasmLocation: assetPath });
            try {
                assert.throws(() => api.registerTools(list), (err) => err instanceof TypeError && message.test(err.message), String(message));
                assert.deepEqual(api.listTools(), [], "nothing of a failed list is registered");
            } finally {
                api.dispose();
            }
        }
    });
});

describe("convertTools", () => {
    test("well-formed definitions: one text, the execute functions and validations in order", () => {
        const exec = () => 1;
        const out = convertTools(
            [
                { name: "a.x", description: tricky[1], inputSchema: { type: "object" }, outputSchema: true, annotations: { title: "X" }, execute: exec },
                { name: "a.y", execute: exec },
            ],
            "tools",
        );
        assert.ok(out);
        assert.deepEqual(
            out.text.split("\x1e").map((r) => r.split("\x1f")),
            [
                ['"a.x"', JSON.stringify(tricky[1]), '{"type":"object"}', "true", '{"title":"X"}'],
                ['"a.y"', "", "", "", ""],
            ],
        );
        assert.deepEqual(out.execs, [exec, exec]);
        assert.equal(out.defs.length, 2);
    });

    test("anything else is left to the core's field-by-field reading", () => {
        const exec = () => 1;
        const throwing = { get name() { throw new Error("no"); }, execute: exec };
        for (const [i, list] of [
            "not a list",
            [null],
            [[]],
            [{ name: "a", execute: exec, extra: 1 }],
            [{ name: 1, execute: exec }],
            [{ name: "a", execute: 1 }],
            [{ name: "a", description: null, execute: exec }],
            [{ name: "a", inputSchema: { status: "string" }, execute: exec }],
            [throwing],
        ].entries()) {
            assert.equal(convertTools(list, "tools"), undefined, `case ${i}`);
        }
    });
});
