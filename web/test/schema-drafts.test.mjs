// A schema is read in its own draft's sense, in every mode (this file runs
// in-thread and with CODE_MODE_WORKER=1): a "$ref" relative to an "$id"
// the schema embeds resolves there (it was refused as a remote reference),
// a keyword the draft does not have is ignored whatever its value (it was
// held to the drafts that define it), and a reference to a schema the tool
// does not hold is still refused, at once, naming its path.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, loadFactory, run } from "./helpers.mjs";

let IoCodeModeFactory;
before(async () => {
    IoCodeModeFactory = await loadFactory();
});

const D4 = "http://json-schema.org/draft-04/schema#";
const D7 = "http://json-schema.org/draft-07/schema#";
const item = (extra) => ({ type: "object", properties: { x: { $ref: "item.json" } }, required: ["x"], ...extra });

// [what, inputSchema, the error of { x: 1 }]
const accepted = [
    ["2020-12: $ref relative to the root's $id", item({ $id: "https://x.test/root.json", $defs: { item: { $id: "item.json", type: "string" } } }), "/x: type: got number, want string"],
    ["2020-12: no root $id", item({ $defs: { item: { $id: "item.json", type: "string" } } }), "/x: type: got number, want string"],
    ["draft-07: under definitions", item({ $schema: D7, definitions: { item: { $id: "item.json", type: "string" } } }), "/x: type: got number, want string"],
    ["draft-04: id", item({ $schema: D4, id: "https://x.test/r.json", definitions: { item: { id: "item.json", type: "string" } } }), "/x: type: got number, want string"],
    [
        "draft-07: keywords of later drafts are not its keywords",
        { $schema: D7, type: "object", properties: { x: { type: "string" } }, $defs: 5, dependentRequired: { x: "y" }, prefixItems: {}, unevaluatedProperties: "no" },
        "/x: type: got number, want string",
    ],
];

// [what, inputSchema, the registration error]
const refused = [
    ["another resource", item({ $id: "https://x.test/root.json" }), 'inputSchema: /properties/x/$ref: remote $ref "item.json" is not allowed: put the definition under $defs'],
    ["draft-07: an $id under $defs names nothing", item({ $schema: D7, $defs: { item: { $id: "item.json" } } }), 'inputSchema: /properties/x/$ref: remote $ref "item.json" is not allowed'],
    ["draft-04: $id names nothing", item({ $schema: D4, definitions: { item: { $id: "item.json" } } }), 'inputSchema: /properties/x/$ref: remote $ref "item.json" is not allowed'],
];

describe("each draft's rules", () => {
    let api, session;
    const seen = [];
    before(async () => {
        api = await IoCodeModeFactory({ wasmLocation: assetPath });
        api.registerTools(accepted.map(([, inputSchema], i) => ({ name: `d.t${i}`, inputSchema, execute: (input) => (seen.push(i), input.x) })));
        session = api.createSession();
    });
    after(() => api?.dispose());

    for (const [i, [what, , error]] of accepted.entries()) {
        test(`${what}: registers, and the input is checked against the referenced schema`, async () => {
            const r = await run(session, `const ok = await tools.d.t${i}({ x: "a" }); try { await tools.d.t${i}({ x: 1 }); return [ok, "passed"]; } catch (e) { return [ok, e.message]; }`);
            assert.equal(r.ok, true, JSON.stringify(r));
            assert.equal(r.result[0], "a");
            assert.ok(r.result[1].includes(error), r.result[1]);
        });
    }

    for (const [what, inputSchema, error] of refused) {
        test(`${what}: refused at registration`, () => {
            assert.throws(
                () => api.registerTool({ name: "d.bad", inputSchema, execute: () => 1 }),
                (err) => err instanceof TypeError && err.message.includes(error),
                error,
            );
            assert.ok(!api.listTools().some((t) => t.name === "d.bad"));
        });
    }
});
