// Worker mode checks schema reference cycles on the page (refcycle.mjs) so
// that registerTool throws at once; it must say what the core says
// in-thread (schemacycle.go), schema for schema.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assetPath, tool, withFactory } from "./helpers.mjs";

const schemas = [
    ["$ref to itself", { $ref: "#" }],
    ["a $defs cycle", { $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, $ref: "#/$defs/a" }],
    ["through allOf", { allOf: [{ $ref: "#" }] }],
    ["through not and if", { not: { if: { $ref: "#/not" } } }],
    ["a property to itself", { type: "object", properties: { a: { $ref: "#/properties/a" } } }],
    ["an anchor", { $defs: { x: { $anchor: "foo", $ref: "#foo" } }, $ref: "#/$defs/x" }],
    ["an escaped pointer", { $defs: { "a/b": { anyOf: [{ $ref: "#/$defs/a~1b" }] } }, $ref: "#/$defs/a~1b" }],
    ["a pointer to nothing", { $ref: "#/$defs/missing" }],
    ["an OpenAPI component, copied without its document", { type: "object", properties: { pet: { $ref: "#/components/schemas/Pet" } } }],
    ["an anchor named twice", { $anchor: "x", properties: { p: { $dynamicAnchor: "x" } } }],
    ["an anchor named twice under draft-07, which has no $anchor (fine)", { $schema: "http://json-schema.org/draft-07/schema#", $anchor: "x", properties: { p: { $anchor: "x" } } }],
    ["a tree (fine)", { type: "object", properties: { children: { type: "array", items: { $ref: "#" } } } }],
    ["a shared definition (fine)", { $defs: { id: { type: "string" } }, properties: { a: { $ref: "#/$defs/id" }, b: { allOf: [{ $ref: "#/$defs/id" }] } } }],
];

/** What registerTool does with the schema: "registered" or the error. */
function outcome(api, name, inputSchema) {
    try {
        api.registerTool(tool(name, () => 1, { inputSchema }))();
        return "registered";
    } catch (e) {
        return `${e.name}: ${e.message}`;
    }
}

describe("schema cycles: worker mode says at registration what the core says in-thread", () => {
    test("every schema of the table, both modes", async (t) => {
        const inThread = await withFactory(t, { wasmLocation: assetPath, worker: false });
        const worker = await withFactory(t, { wasmLocation: assetPath, worker: true });
        for (const [name, schema] of schemas) {
            const want = outcome(inThread, "t.x", schema);
            assert.equal(outcome(worker, "t.x", schema), want, name);
            assert.equal(want === "registered", name.endsWith("(fine)"), `${name}: ${want}`);
        }
    });
});
