// Registering a list of tools: the core reads a well-formed list in one
// call to the loader's converter (convertTools in web/src/schema.mjs) and
// keeps each tool's execute, schema validation and definition in the
// converter's arrays. These tests check that every tool gets its own, and
// that a malformed list still fails as it always did.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, llmTools, loadFactory, run } from "./helpers.mjs";
import { convertTools, recordedTool } from "../src/schema.mjs";
import { checkTools } from "../src/worker-tools.mjs";

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
            assert.deepEqual(api.listTools(), defs, "listTools gives copies of the definitions, in name order");
            assert.ok(api.listTools().every((d, i) => d !== defs[i]), "listTools gives copies, not the page's objects");
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
            [[{ name: "a.x", execute: "no" }], /^tools\[0\] \("a\.x"\): execute: expected a function/],
            [[good("a.x"), { name: "a.y", execute: () => 1, inputSchema: { status: "string" } }], /^tools\[1\] \("a\.y"\): inputSchema: must be a JSON Schema/],
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
                ['"a.x"', JSON.stringify(tricky[1]), '{"type":"object"}', "true", '{"title":"X"}', ""],
                ['"a.y"', "", "", "", "", ""],
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

// Worker mode: the page posts each schema as the JSON text it checked, and
// the worker's core takes that text as it is. Objects were cloned to the
// worker, then walked and written out again there: for 1,000 tools about a
// tenth of registerTools to ready().
describe("worker mode sends each tool as the record its core reads", () => {
    // The page writes each tool's record in convertTools' text as it
    // checks the tool, and the worker registers a stand-in of a name and
    // an execute for it: it used to read every field of a copy of the
    // definition and write the same record again, 7 ms of its
    // registration of 1,000 tools.
    test("checkTools gives the records convertTools writes on the calling thread, and the worker's stand-ins give them back", () => {
        const exec = () => 1;
        const input = { type: "object", properties: { q: { type: "string", description: 'a "quoted" \\ word' } }, required: ["q"] };
        const defs = [
            { name: "a.x", description: tricky[1], inputSchema: input, outputSchema: { type: "array" }, annotations: { readOnlyHint: true, tags: ["\u2028", 1.5e300] }, execute: exec },
            { name: "a.y", description: tricky[2], inputSchema: true, annotations: { toJSON: () => ({ made: "by toJSON" }) }, execute: exec },
            { name: "a.z", outputSchema: false, annotations: { toJSON: () => 5 }, execute: exec },
            { name: "a.w", annotations: null, execute: exec },
        ];
        const sent = checkTools(defs, "tools", new Set());
        assert.deepEqual(
            sent.map((d) => Object.keys(d)),
            defs.map(() => ["name", "record"]),
        );
        const own = convertTools(defs, "tools");
        const noFlag = (/** @type {string} */ r) => r.split("\x1f").slice(0, 5);
        assert.deepEqual(
            sent.map((d) => noFlag(d.record)),
            own.text.split("\x1e").map(noFlag),
        );
        assert.deepEqual(noFlag(sent[0].record), ['"a.x"', JSON.stringify(tricky[1]), JSON.stringify(input), '{"type":"array"}', '{"readOnlyHint":true,"tags":["\u2028",1.5e+300]}']);
        // As the worker hands them to its core (worker.mjs proxyTool).
        const standIns = sent.map((d) => recordedTool({ name: d.name, execute: exec }, d.record));
        const out = convertTools(standIns, "tools");
        assert.equal(out && out.text, sent.map((d) => d.record).join("\x1e"));
        assert.deepEqual([out.defs, out.execs], [standIns, standIns.map(() => exec)]);
    });

    // The page walks each schema with the core's own check (schemacheck.mjs),
    // and the worker's core walked it again: for 1,000 tools about a
    // quarter of the worker's registration (its walk and the garbage that
    // made the collector run). A tool whose schemas the page walked whole
    // is marked so, and the core skips its walk; one with a reference or
    // a pattern the page leaves to the core is not.
    test("the worker's core is told which tools' schemas the page walked whole", () => {
        const exec = () => 1;
        const deep = "(".repeat(1001) + "a" + ")".repeat(1001); // nests too deeply for Go: the core's to say
        const defs = [
            { name: "a.plain", inputSchema: { type: "object", properties: { q: { type: "string", pattern: "^[a-z]+$" } } }, outputSchema: { type: "array" }, execute: exec },
            { name: "a.draft", inputSchema: { $schema: "http://json-schema.org/draft-07/schema#", type: "object" }, execute: exec },
            { name: "a.ref", inputSchema: { $defs: { s: { type: "string" } }, properties: { q: { $ref: "#/$defs/s" } } }, execute: exec },
            { name: "a.outref", inputSchema: { type: "object" }, outputSchema: { $dynamicRef: "#x", $defs: { x: { $dynamicAnchor: "x" } } }, execute: exec },
            { name: "a.deep", inputSchema: { type: "object", patternProperties: { [deep]: {} } }, execute: exec },
            { name: "a.none", execute: exec },
            { name: "a.bool", inputSchema: true, execute: exec },
            { name: "a.mixed", inputSchema: { type: "object" }, outputSchema: true, execute: exec },
        ];
        const sent = checkTools(defs, "tools", new Set());
        const out = convertTools(
            sent.map((d) => recordedTool({ name: d.name, execute: exec }, d.record)),
            "tools",
        );
        assert.deepEqual(out && out.text.split("\x1e").map((r) => r.split("\x1f")[5]), ["1", "1", "", "", "", "", "", ""]);
        // The page's own definitions, on the calling thread, never are.
        const own = convertTools(defs, "tools");
        assert.deepEqual(own && own.text.split("\x1e").map((r) => r.split("\x1f")[5]), ["", "", "", "", "", "", "", ""]);
    });
});

// What the core refuses at registration, refused at once in every mode with
// the core's words: in worker mode the page makes the core's schema checks
// itself (web/src/schemacheck.mjs), where the tool used to be dropped a
// message later with a console.error. The messages are the in-thread core's.
describe("registration errors are the same in every mode", () => {
    const tool = (extra) => ({ name: "t.x", execute: () => 1, ...extra });
    // registerTool's words; registerTools and createSession name the
    // tool's place in their list instead of "tool".
    const invalid = (rest) => `tool ("t.x"): ${rest}`;
    const inList = (path, message) => message.replace(/^tool /, `${path} `);
    const unenforceable = (at, pattern, problem) =>
        invalid(
            `inputSchema: ${at}: ${pattern} cannot be enforced: patterns are checked with Go's RE2 syntax, which has no lookahead, lookbehind ` +
                `or backreferences (error parsing regexp: ${problem}); rewrite it without them, or check it in the tool`,
        );
    const deep = JSON.parse('{"items":'.repeat(70) + "{}" + "}".repeat(70));
    const cases = [
        ["a misspelt type", { inputSchema: { type: "object", properties: { id: { type: "strin" } } } }, invalid('inputSchema: /properties/id/type: "strin" is not a type (null, boolean, object, array, number, string or integer)')],
        ["a negative count", { inputSchema: { type: "array", maxItems: -1 } }, invalid("inputSchema: /maxItems: must be a non-negative integer, got the number -1")],
        ["multipleOf 0", { inputSchema: { type: "number", multipleOf: 0 } }, invalid("inputSchema: /multipleOf: must be greater than 0, got 0")],
        ["a number as a string", { inputSchema: { type: "number", minimum: "1e6" } }, invalid('inputSchema: /minimum: must be a number, got the string "1e6"')],
        ["a number in a type list, as Go prints it", { inputSchema: { type: ["string", 1e21] } }, invalid("inputSchema: /type/1: must be a type name, got the number 1e+21")],
        ["an empty anyOf", { inputSchema: { anyOf: [] } }, invalid("inputSchema: /anyOf: must be a non-empty list of schemas, got a list")],
        ["a remote $ref", { inputSchema: { properties: { a: { $ref: "https://example.com/a.json" } } } }, invalid('inputSchema: /properties/a/$ref: remote $ref "https://example.com/a.json" is not allowed: put the definition under $defs')],
        ["an unknown $schema", { inputSchema: { $schema: "https://example.com/meta" } }, invalid('inputSchema: /$schema: unknown $schema "https://example.com/meta" (2020-12, 2019-09, draft-07, -06 or -04)')],
        // OpenAPI 3.0's boolean bound is read as meant outside draft-04 (wild-catalogs.test.mjs); one beside a bound that is not a number does not hide it.
        ["a boolean exclusiveMinimum beside a minimum that is not a number", { inputSchema: { properties: { n: { minimum: "0", exclusiveMinimum: true } } } }, invalid('inputSchema: /properties/n/minimum: must be a number, got the string "0"')],
        ["a number exclusiveMaximum under draft-04", { inputSchema: { $schema: "http://json-schema.org/draft-04/schema#", exclusiveMaximum: 5 } }, invalid("inputSchema: /exclusiveMaximum: must be a boolean under draft-04 (true makes maximum exclusive), got the number 5")],
        ["a tuple in items with no $schema (2020-12)", { inputSchema: { properties: { pair: { type: "array", items: [{ type: "string" }, { type: "number" }] } } } }, invalid('inputSchema: /properties/pair/items: must be a schema under 2020-12, got a list: a tuple is "prefixItems" there (a list in "items" is the form of 2019-09 and older, which needs "$schema": "http://json-schema.org/draft-07/schema#")')],
        ["a tuple in items under 2020-12", { inputSchema: { $schema: "https://json-schema.org/draft/2020-12/schema", items: [] } }, invalid('inputSchema: /items: must be a schema under 2020-12, got a list: a tuple is "prefixItems" there (a list in "items" is the form of 2019-09 and older, which needs "$schema": "http://json-schema.org/draft-07/schema#")')],
        ["a $schema with a fragment", { inputSchema: { $schema: "https://json-schema.org/draft-07/schema#x" } }, invalid('inputSchema: /$schema: unknown $schema "https://json-schema.org/draft-07/schema#x" (2020-12, 2019-09, draft-07, -06 or -04)')],
        ["an outputSchema", { outputSchema: { type: "object", required: ["a", 2] } }, invalid("outputSchema: /required/1: must be a property name, got the number 2")],
        ["nesting past 64 levels", { inputSchema: deep }, invalid(`inputSchema: ${"/items".repeat(65)}: nested more than 64 levels`)],
        ["a lookahead", { inputSchema: { type: "object", properties: { user: { type: "string", pattern: "^(?!admin).*$" } } } }, unenforceable("/properties/user/pattern", '"^(?!admin).*$"', "invalid or unsupported Perl syntax: `(?!`")],
        ["a lookbehind", { inputSchema: { pattern: "(?<=\\$)\\d+" } }, unenforceable("/pattern", '"(?<=\\\\$)\\\\d+"', "invalid named capture: `(?<=\\$)\\d+`")],
        ["a backreference", { inputSchema: { pattern: "^(a+)\\1$" } }, unenforceable("/pattern", '"^(a+)\\\\1$"', "invalid escape sequence: `\\1`")],
        ["a JavaScript escape", { inputSchema: { pattern: "^caf\\u00e9$" } }, unenforceable("/pattern", '"^caf\\\\u00e9$"', "invalid escape sequence: `\\u`")],
        ["a named backreference", { inputSchema: { pattern: "(?<q>['\"]).*\\k<q>" } }, unenforceable("/pattern", '"(?<q>[\'\\"]).*\\\\k<q>"', "invalid escape sequence: `\\k`")],
        ["a possessive repetition", { inputSchema: { pattern: "^a++b$" } }, unenforceable("/pattern", '"^a++b$"', "invalid nested repetition operator: `++`")],
        // A limit of RE2's is told as one, not as the syntax RE2 lacks.
        ["a repeat count over 1000", { inputSchema: { pattern: "^x{2000}$" } }, invalid(
            "inputSchema: /pattern: \"^x{2000}$\" cannot be enforced: Go's RE2 syntax takes a counted repeat {n,m} only with n <= m <= 1000, nested counted repeats whose counts multiply to at most 1000, " +
                "and a pattern whose compiled form stays within its size limit (error parsing regexp: invalid repeat count: `{2000}`); rewrite it within those limits, or check it in the tool",
        )],
        ["a reversed range", { inputSchema: { pattern: "[z-a]" } }, unenforceable("/pattern", '"[z-a]"', "invalid character class range: `z-a`")],
        ["an unclosed class", { inputSchema: { pattern: "[abc" } }, unenforceable("/pattern", '"[abc"', "missing closing ]: `[abc`")],
        ["an unclosed group", { inputSchema: { pattern: "(ab|cd" } }, unenforceable("/pattern", '"(ab|cd"', "missing closing ): `(ab|cd`")],
        ["a stray paren", { inputSchema: { pattern: "ab)" } }, unenforceable("/pattern", '"ab)"', "unexpected ): `ab)`")],
        ["a trailing backslash", { inputSchema: { pattern: "ab\\" } }, unenforceable("/pattern", '"ab\\\\"', "trailing backslash at end of expression: ``")],
        ["a patternProperties key", { inputSchema: { patternProperties: { "^(?=x)": { type: "number" } } } }, unenforceable("/patternProperties/^(?=x)", '"^(?=x)"', "invalid or unsupported Perl syntax: `(?=`")],
        // An outputSchema is enforced too (every result is checked), so held to the same rules.
        ["a lookahead in an outputSchema", { outputSchema: { type: "object", properties: { user: { type: "string", pattern: "^(?!admin).*$" } } } }, unenforceable("/properties/user/pattern", '"^(?!admin).*$"', "invalid or unsupported Perl syntax: `(?!`").replace("inputSchema:", "outputSchema:")],
        ["a number exclusiveMinimum in an outputSchema under draft-04", { outputSchema: { $schema: "http://json-schema.org/draft-04/schema#", exclusiveMinimum: 0 } }, invalid("outputSchema: /exclusiveMinimum: must be a boolean under draft-04 (true makes minimum exclusive), got the number 0")],
        ["a tuple in an outputSchema's items (2020-12)", { outputSchema: { type: "object", properties: { pair: { type: "array", items: [{ type: "string" }, { type: "number" }] } } } }, invalid('outputSchema: /properties/pair/items: must be a schema under 2020-12, got a list: a tuple is "prefixItems" there (a list in "items" is the form of 2019-09 and older, which needs "$schema": "http://json-schema.org/draft-07/schema#")')],
    ];

    /** Runs fn with console.error captured; returns what it printed. */
    async function errorsOf(fn) {
        const printed = [];
        const original = console.error;
        console.error = (...args) => printed.push(args.join(" "));
        try {
            await fn();
        } finally {
            console.error = original;
        }
        return printed;
    }

    test("registerTool throws the core's TypeError at once, and nothing is refused later", async () => {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        try {
            const printed = await errorsOf(async () => {
                for (const [what, extra, message] of cases) {
                    assert.throws(() => api.registerTool(tool(extra)), { name: "TypeError", message }, what);
                    assert.throws(() => api.registerTools([tool({ name: "ok.one", execute: () => 1 }), tool(extra)]), { name: "TypeError", message: inList("tools[1]", message) }, `${what} (registerTools)`);
                }
                await api.ready();
            });
            assert.deepEqual(api.listTools(), []);
            assert.deepEqual(printed, []);
        } finally {
            api.dispose();
        }
    });

    test("createSession({ tools }) throws the same", async () => {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        try {
            for (const [what, extra, message] of cases) {
                assert.throws(() => api.createSession({ tools: [tool(extra)] }), { name: "TypeError", message: inList("options.tools[0]", message) }, what);
            }
        } finally {
            api.dispose();
        }
    });

    test("schemas in the draft they name register in every mode", async () => {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        try {
            const schemas = [
                { $schema: "http://json-schema.org/draft-04/schema#", minimum: 0, exclusiveMinimum: true },
                { $schema: "https://json-schema.org/draft-07/schema#", exclusiveMinimum: 0 },
                { $schema: "http://json-schema.org/draft/2020-12/schema", exclusiveMaximum: 9 },
                { $schema: "http://json-schema.org/draft-04/schema#", properties: { a: { $id: "a.json", $schema: "https://json-schema.org/draft/2020-12/schema", exclusiveMinimum: 0 } } },
                { $schema: "http://json-schema.org/draft-07/schema#", items: [{ type: "string" }, { type: "number" }] },
                { $schema: "http://json-schema.org/draft-04/schema#", items: [{ type: "string" }] },
                { $schema: "https://json-schema.org/draft/2019-09/schema", items: [{ type: "string" }] },
                { prefixItems: [{ type: "string" }], items: false },
            ];
            const printed = await errorsOf(async () => {
                schemas.forEach((inputSchema, i) => api.registerTool({ name: `d.t${i}`, inputSchema, execute: () => 1 }));
                await api.ready();
            });
            assert.equal(api.listTools().length, schemas.length);
            assert.deepEqual(printed, []);
        } finally {
            api.dispose();
        }
    });

    test("patterns RE2 takes register in every mode", async () => {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        try {
            const patterns = ["[\\d-z]", "(?i)a(?P<x>b)(?<y>c)", "^\\d{3}-\\d{4}$", "^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$", "a{01}", "\\12", "[\\]\\-]"];
            const printed = await errorsOf(async () => {
                patterns.forEach((pattern, i) => api.registerTool({ name: `p.t${i}`, inputSchema: { type: "string", pattern }, execute: () => 1 }));
                await api.ready();
            });
            assert.equal(api.listTools().length, patterns.length);
            assert.deepEqual(printed, []);
        } finally {
            api.dispose();
        }
    });
});
