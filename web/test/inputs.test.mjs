// What models and developers send, through dist/ (issue 10, items 3-7):
// loose LLM tool arguments, strict configuration, faithful results.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, llmTools, loadFactory, run, tool } from "./helpers.mjs";

let IoCodeModeFactory;
before(async () => {
    IoCodeModeFactory = await loadFactory();
});

// A search query of 5,000 characters, of which the core reads 1,000.
const LONG = "transfer money " + "x".repeat(5000);

describe("LLM tool arguments as models send them", () => {
    let api;
    let tools;
    before(async () => {
        api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            tools: [tool("payments.transfer", () => "sent", { description: "Transfer money between accounts." })],
        });
        tools = llmTools(api.createSession());
    });
    after(() => api.dispose());

    // [name, tool, args, expected: {result} or {invalid: message pattern}]
    const cases = [
        ["numeric limit string", "searchTools", { query: "transfer money", limit: "5" }, { names: ["payments.transfer"] }],
        ["bare string query", "searchTools", "transfer money", { names: ["payments.transfer"] }],
        ["word limit", "searchTools", { query: "x", limit: "five" }, { invalid: /^searchTools: limit: expected an integer 1\.\.50, got the string "five"$/ }],
        ["misspelt argument", "searchTools", { qeury: "x" }, { invalid: /unknown argument "qeury" \(did you mean "query"\?\)/ }],
        ["code and explanation", "executeCode", { code: "return 6 * 7", explanation: "math" }, { result: 42 }],
        // What a client passes where the model's arguments did not parse (Mastra: {}): the model, which
        // sent code, learns that none arrived (was "executeCode: code: required; expected a string" alone).
        ["missing code", "executeCode", {}, { invalid: /^executeCode: code: required; expected a string, got no arguments \(clients drop arguments that are not valid JSON\): send one JSON object \{ code: string; explanation\?: string \}$/ }],
        ["no arguments", "executeCode", undefined, { invalid: /^executeCode: code: required; expected a string, got no arguments / }],
        ["null arguments", "executeCode", null, { invalid: /^executeCode: code: required; expected a string, got no arguments / }],
        ["a null code is no missing arguments", "executeCode", { code: null, explanation: "x" }, { invalid: /^executeCode: code: required; expected a string$/ }],
        ["empty code", "executeCode", { code: "", explanation: "x" }, { invalid: /code: required; expected a non-empty string/ }],
        ["array code", "executeCode", { code: ["return 1"] }, { invalid: /^executeCode: code: expected a string, got an array$/ }],
        ["extra keys beside code are ignored", "executeCode", { code: "return 1", explanation: "x", language: "javascript", timeout: 5000 }, { result: 1 }],
        ["misspelt code", "executeCode", { cod: "return 1", explanation: "x" }, { invalid: /^executeCode: unknown argument "cod" \(did you mean "code"\?\); expected \{ code: string; explanation\?: string \}$/ }],
        ["no code, other keys", "executeCode", { explanation: "x", lang: "js" }, { invalid: /^executeCode: code: required; expected a string, got only the keys "explanation", "lang" / }],
        ["query named q", "searchTools", { q: "transfer money" }, { names: ["payments.transfer"] }],
        ["query named text", "searchTools", { text: "transfer money" }, { invalid: /^searchTools: unknown argument "text" \(did you mean "query"\?\)/ }],
        ["extra key beside query is ignored", "searchTools", { query: "transfer money", lang: "en" }, { names: ["payments.transfer"] }],
        ["BigInt argument", "executeCode", { code: "return 1", n: 1n }, { invalid: /^executeCode: the arguments are not JSON/ }],
        // A query past the 2,000 UTF-16 units the page keeps of it
        // (run-options.mjs), in each form the core reads arguments in.
        ["long query, the arguments as JSON text", "searchTools", JSON.stringify({ query: LONG }), { names: ["payments.transfer"] }],
        ["long query, the arguments as JSON text encoded twice", "searchTools", JSON.stringify(JSON.stringify({ query: LONG })), { names: ["payments.transfer"] }],
        ["long bare string query", "searchTools", LONG, { names: ["payments.transfer"] }],
        ["long query, the arguments as JSON text with a word limit", "searchTools", JSON.stringify({ query: LONG, limit: "five" }), { invalid: /^searchTools: limit: expected an integer 1\.\.50, got the string "five"$/ }],
        ["long query holding the arguments' JSON text", "searchTools", { query: JSON.stringify({ query: LONG, limit: "five" }) }, { invalid: /^searchTools: limit: expected an integer 1\.\.50, got the string "five"$/ }],
        ["long query, the arguments as JSON text with a comma before its closing brace", "searchTools", `{"query":"${LONG}","limit":"five",}`, { invalid: /^searchTools: limit: expected an integer 1\.\.50, got the string "five"$/ }],
        ["long query, the arguments as JSON text with a comma before its closing brace, encoded twice", "searchTools", JSON.stringify(`{"query":"${LONG}","limit":"five",}`), { invalid: /^searchTools: limit: expected an integer 1\.\.50, got the string "five"$/ }],
        // A number past float64's range, which JSON.parse reads as
        // Infinity and writes back as null (the default limit), is the
        // core's to word, as in short text.
        ["arguments as JSON text with a limit past float64's range", "searchTools", '{"query":"transfer money","limit":1e400}', { invalid: /^searchTools: limit: expected an integer 1\.\.50, got the number 1e400$/ }],
        ["long query, the arguments as JSON text with a limit past float64's range", "searchTools", `{"query":"${LONG}","limit":1e400}`, { invalid: /^searchTools: limit: expected an integer 1\.\.50, got the number 1e400$/ }],
        ["long query, the arguments as JSON text with a limit past float64's range, encoded twice", "searchTools", JSON.stringify(`{"query":"${LONG}","limit":-1e400}`), { invalid: /^searchTools: limit: expected an integer 1\.\.50, got the number -1e400$/ }],
        // Infinity and NaN from the page's JS, which JSON writes as null
        // (no limit: the default 10): refused by name, as tool_search
        // refuses them in the program (below).
        ["limit: Infinity", "searchTools", { query: "transfer money", limit: Infinity }, { invalid: /^searchTools: limit: expected an integer 1\.\.50, got the string "Infinity"$/ }],
        ["limit: -Infinity, a long query", "searchTools", { query: LONG, limit: -Infinity }, { invalid: /^searchTools: limit: expected an integer 1\.\.50, got the string "-Infinity"$/ }],
        ["limit: NaN", "searchTools", { query: "transfer money", limit: NaN }, { invalid: /^searchTools: limit: expected an integer 1\.\.50, got the string "NaN"$/ }],
        ["code: Infinity is no code (not the program \"Infinity\")", "executeCode", { code: Infinity }, { invalid: /^executeCode: code: required; expected a string$/ }],
        ["long arguments' JSON text cut short", "searchTools", `{"query": "${LONG}`, { invalid: /^searchTools: the arguments are JSON text that ends before its object does \(cut short\?\)/ }],
        // A program is at most 1 MiB: the TypeScript pass and QuickJS's
        // parse of more ran past the run's timeout (10 MB: 14 s).
        ["code of 1 MiB", "executeCode", { code: "return 1 //" + "x".repeat((1 << 20) - 11), explanation: "x" }, { result: 1 }],
        ["code past 1 MiB", "executeCode", { code: "return 1 //" + "x".repeat(1 << 20), explanation: "x" }, { invalid: /^executeCode: code: 1048587 bytes, more than the 1048576 \(1 MiB\) a program may have; write a shorter program/ }],
        ["arguments as one string past 4 MiB, cut short", "executeCode", `{"code": "` + "a+=1;".repeat(1e6), { invalid: /^executeCode: the arguments are a string of 5000010 bytes, more than the 4194304 they may be; expected an object/ }],
    ];
    for (const [name, which, args, want] of cases) {
        test(name, async () => {
            const out = await tools[which].execute(args);
            const text = JSON.stringify(out);
            assert.doesNotMatch(text, /json: |unmarshal/, "Go's words reached the model");
            if (want.invalid) {
                assert.equal(out.ok, false, text);
                assert.equal(out.error.code, "INVALID_INPUT", text);
                assert.equal(out.error.name, "TypeError", text);
                assert.match(out.error.message, want.invalid);
            } else if (want.names) {
                assert.deepEqual(out.map((h) => h.name), want.names);
            } else {
                assert.equal(out.ok, true, text);
                assert.deepEqual(out.result, want.result);
            }
        });
    }
});

test("tool_search refuses limit: Infinity and NaN in the program, as searchTools does from the page", async () => {
    const api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: [tool("payments.transfer", () => "sent")] });
    try {
        const { executeCode } = llmTools(api.createSession());
        for (const limit of ["Infinity", "NaN"]) {
            const out = await executeCode.execute({ code: `return await tool_search({ query: "transfer", limit: ${limit} })` });
            assert.equal(out.ok, false, JSON.stringify(out));
            assert.equal(out.error.message, `tool_search: limit: expected an integer 1..50, got the string "${limit}"`);
        }
    } finally {
        api.dispose();
    }
});

describe("strict configuration: unknown keys are TypeErrors naming the key and the nearest valid one", () => {
    const deny = async () => ({ allowed: false, reason: "no" });
    const cases = [
        ["a top-level onToolCall", { onToolCall: deny }, /^config: unknown key "onToolCall" \(it belongs in interceptors: \{ interceptors: \{ onToolCall \} \}\)/],
        ["a misspelt interceptor", { interceptors: { onToolcall: deny } }, /^config\.interceptors: unknown key "onToolcall" \(did you mean "onToolCall"\?\)/],
        ["timeoutMs", { timeoutMs: 5000 }, /^config: unknown key "timeoutMs" \(did you mean "timeout"\?/],
        ["memoryLimt", { memoryLimt: 64 }, /^config: unknown key "memoryLimt" \(did you mean "memoryLimit"\?\)/],
        ["a tool's misspelt execute", { tools: [{ name: "a.b", exec: () => 1, execute: () => 1 }] }, /^config\.tools\[0\]: unknown key "exec" \(did you mean "execute"\?\)/],
        ["a tool's inputschema", { tools: [{ name: "a.b", inputschema: {}, execute: () => 1 }] }, /^config\.tools\[0\]: unknown key "inputschema" \(did you mean "inputSchema"\?\)/],
        ["overwriteSystemPrompt", { overwriteSystemPrompt: (s) => s }, /^config: unknown key "overwriteSystemPrompt" \(did you mean "overwriteSystemInstruction"\? It takes the built-in instruction and returns yours\)/],
        ["a tool's parameters (OpenAI's name)", { tools: [{ name: "a.b", parameters: {}, execute: () => 1 }] }, /^config\.tools\[0\]: unknown key "parameters" \(the JSON Schema of the input is inputSchema here\)/],
        ["worker: 'yes'", { worker: "yes" }, /^config\.worker: expected a boolean/],
    ];
    for (const [name, extra, message] of cases) {
        test(name, async () => {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, ...extra }), (err) => {
                assert.ok(err instanceof TypeError, `${err.name}: ${err.message}`);
                assert.match(err.message, message);
                return true;
            });
        });
    }

    test("createSession, registerTool, registerTools and execute reject unknown keys", async () => {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        try {
            const throwsType = (fn, message) =>
                assert.throws(fn, (err) => err instanceof TypeError && message.test(err.message), String(message));
            throwsType(() => api.createSession({ toolFilter: () => false }), /^createSession\(options\): unknown key "toolFilter" \(toolFilter is a factory option/);
            throwsType(() => api.createSession({ tool: [] }), /unknown key "tool" \(did you mean "tools"\?\)/);
            throwsType(() => api.createSession({ timeoutMs: 5000 }), /unknown key "timeoutMs" \(limits are factory options: IoCodeModeFactory\(\{ timeout \}\), in milliseconds\)/);
            throwsType(() => api.registerTool({ name: "x.y", execute: () => 1, descripton: "d" }), /^tool: unknown key "descripton" \(did you mean "description"\?\)/);
            throwsType(() => api.registerTools([{ name: "x.y", execute: () => 1, outputschema: {} }]), /^tools\[0\]: unknown key "outputschema" \(did you mean "outputSchema"\?\)/);
            // Other tool formats' names: OpenAI's parameters, a handler.
            throwsType(() => api.registerTool({ name: "x.y", execute: () => 1, parameters: { type: "object" } }), /^tool: unknown key "parameters" \(the JSON Schema of the input is inputSchema here\)/);
            throwsType(() => api.registerTools([{ name: "x.y", handler: () => 1 }]), /^tools\[0\]: unknown key "handler" \(the function is execute here: execute\(input, \{ signal, context \}\)\)/);
            assert.deepEqual(api.listTools(), [], "nothing was half registered");
            const { executeCode } = llmTools(api.createSession());
            const rejectsType = (p, message) => assert.rejects(p, (err) => err instanceof TypeError && message.test(err.message));
            await rejectsType(executeCode.execute({ code: "return 1" }, { singal: AbortSignal.timeout(1000) }), /^execute\(args, options\): unknown key "singal" \(did you mean "signal"\?\)/);
            await rejectsType(executeCode.execute({ code: "return 1" }, { timeout: 5 }), /unknown key "timeout" \(timeout is a factory option/);
            // The AI SDK's tool options are Code Mode's own.
            const r = await executeCode.execute({ code: "return 1" }, { toolCallId: "c1", messages: [], abortSignal: new AbortController().signal, experimental_context: {} });
            assert.equal(r.result, 1);
        } finally {
            api.dispose();
        }
    });
});

describe("limits have one owner: the core's bounds, reported under the page's names", () => {
    const cases = [
        ["memoryLimit: 3000", { memoryLimit: 3000 }, /^config\.memoryLimit: must be 1\.\.1016 MiB .*got 3000$/],
        // Issue 9: 1017..2048 used to be accepted, then every run failed with a LinkError.
        ["memoryLimit: 1017", { memoryLimit: 1017 }, /^config\.memoryLimit: must be 1\.\.1016 MiB \(a run's WebAssembly memory is 16 MiB plus twice the limit, and can be at most 2 GiB\), got 1017$/],
        ["timeout over a day", { timeout: 25 * 3600 * 1000 }, /^config\.timeout: must be at most 24h \(86400000 ms\), got 25h \(90000000 ms\)$/],
        ["timeout under a millisecond", { timeout: 0.5 }, /^config\.timeout: must be at least 1ms, got 500µs \(0.5 ms\)$/],
        // Past what a Go Duration holds, the message read the saturated
        // Duration ("got 2562047h47m16.854775807s (9223372036854.775 ms)");
        // under a nanosecond the timeout was 0, the default, and accepted.
        ["timeout: 1e300", { timeout: 1e300 }, /^config\.timeout: must be at most 24h \(86400000 ms\), got 1e\+300 ms$/],
        ["timeout: 2^63", { timeout: 2 ** 63 }, /^config\.timeout: must be at most 24h \(86400000 ms\), got 9\.223372036854776e\+18 ms$/],
        ["timeout: 1e-300", { timeout: 1e-300 }, /^config\.timeout: must be at least 1ms, got 1e-300 ms$/],
        ["maxResultChars: 99", { maxResultChars: 99 }, /^config\.maxResultChars: must be >= 100/],
        // Past 2^53 an integer read "expected a positive integer, got the
        // number 1e+300", without the range.
        ["memoryLimit: 1e300", { memoryLimit: 1e300 }, /^config\.memoryLimit: must be 1\.\.1016 MiB \(a run's WebAssembly memory is 16 MiB plus twice the limit, and can be at most 2 GiB\), got 1e\+300$/],
        ["maxToolCalls: 2^60", { maxToolCalls: 2 ** 60 }, /^config\.maxToolCalls: must be at most \d+ \(.*\), got 1\.152921504606847e\+18$/],
        ["maxResultChars: 1e20", { maxResultChars: 1e20 }, /^config\.maxResultChars: must be at most \d+ \(.*\), got 1e\+20$/],
        ["memoryLimit: 2^53 + 2", { memoryLimit: 2 ** 53 + 2 }, /^config\.memoryLimit: must be 1\.\.1016 MiB .*, got 9\.007199254740994e\+15$/],
        ["memoryLimit: 64.5", { memoryLimit: 64.5 }, /^config\.memoryLimit: expected a positive integer, got /],
    ];
    for (const [name, extra, message] of cases) {
        test(name, async () => {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, ...extra }), (err) => {
                assert.ok(err instanceof TypeError, `${err.name}: ${err.message}`);
                assert.match(err.message, message);
                assert.doesNotMatch(err.message, /asset/);
                return true;
            });
        });
    }
    test("memoryLimit: 1016, the largest, runs programs", async () => {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, memoryLimit: 1016 });
        try {
            const r = await run(api.createSession(), "return 1");
            assert.equal(r.ok, true, JSON.stringify(r.error));
        } finally {
            api.dispose();
        }
    });
});

describe("faithful results: documented conversions, each reported by a warn log with its path", () => {
    let api;
    let executeCode;
    before(async () => {
        api = await IoCodeModeFactory({ wasmLocation: assetPath, maxResultChars: 500 });
        executeCode = llmTools(api.createSession()).executeCode;
    });
    after(() => api.dispose());

    const cases = [
        ["Map with string keys", "return { m: new Map([['a', 1]]) }", { m: { a: 1 } }, ["result.m: a Map, converted to an object"]],
        ["Map with other keys", "return new Map([[1, 'x']])", [[1, "x"]], ["result: a Map with non-string keys, converted to an array of [key, value] entries"]],
        ["Set", "return [new Set([1, 2])]", [[1, 2]], ["result[0]: a Set, converted to an array"]],
        ["Error", "return { e: new TypeError('bad') }", { e: { name: "TypeError", message: "bad" } }, ["result.e: an Error, converted to {name, message}"]],
        ["Date", "return { d: new Date(0) }", { d: "1970-01-01T00:00:00.000Z" }, []],
        ["BigInt", "return { n: 2n ** 70n }", { n: "1180591620717411303424" }, ["result.n: a BigInt, converted to a string"]],
        ["NaN, Infinity", "return [NaN, -Infinity]", ["NaN", "-Infinity"], ['result[0]: NaN, converted to the string "NaN"', 'result[1]: -Infinity, converted to the string "-Infinity"']],
        ["undefined", "return { a: undefined, b: [undefined] }", { b: [null] }, ["result.b[0]: undefined, converted to null"]],
        ["function", "return { f() {}, g: 1 }", { g: 1 }, ["result.f: a function, which is not data: omitted"]],
        ["symbol", "return [Symbol('s')]", ["Symbol(s)"], ['result[0]: a symbol, converted to the string "Symbol(s)"']],
        ["plain data is not reported", "return { a: [1, 'x', null, true] }", { a: [1, "x", null, true] }, []],
    ];
    for (const [name, code, result, warns] of cases) {
        test(name, async () => {
            const r = await executeCode.execute({ code, explanation: "x" });
            assert.equal(r.ok, true, JSON.stringify(r));
            assert.deepEqual(r.result, result);
            assert.deepEqual(r.logs.filter((l) => l.level === "warn").map((l) => l.message), warns);
        });
    }

    test("an over-budget result is cut structurally: valid JSON of the same shape, with markers", async () => {
        const r = await executeCode.execute({
            code: "return { total: 300, rows: Array.from({ length: 300 }, (_, i) => ({ id: i, note: 'n'.repeat(i) })) }",
            explanation: "x",
        });
        assert.equal(r.ok, true);
        assert.ok(JSON.stringify(r.result).length <= 500, JSON.stringify(r.result).length);
        assert.equal(r.result.total, 300);
        assert.ok(Array.isArray(r.result.rows));
        assert.deepEqual(r.result.rows[0], { id: 0, note: "" });
        assert.match(r.result.rows.at(-1), /^… \d+ more items$/);
        const kept = r.result.rows.length - 1;
        assert.equal(r.result.rows.at(-1), `… ${300 - kept} more items`);
        assert.ok(r.logs.some((l) => l.level === "warn" && /over the 500 budget/.test(l.message)));
    });
});

describe("one instruction", () => {
    test("executeCode's description is short and states the contract; the system instruction holds the catalog and stays current", async () => {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: [tool("orders.search", () => [])] });
        try {
            const session = api.createSession();
            const { executeCode } = llmTools(session);
            assert.ok(executeCode.description.length <= 600, `${executeCode.description.length} characters`);
            for (const w of ["JavaScript or TypeScript", "{ok: true, result, logs, toolCalls}", "{ok: false, error:", "searchTools"]) {
                assert.ok(executeCode.description.includes(w), `description lacks ${w}`);
            }
            assert.doesNotMatch(executeCode.description, /orders\.search/);
            assert.match(session.getSystemInstruction(), /You may write TypeScript/);
            assert.doesNotMatch(session.getSystemInstruction(), /billing\.refund/);
            api.registerTool(tool("billing.refund", () => "ok", { description: "Refund an invoice." }));
            // A run in between: in worker mode the page's copy of the instruction follows the worker's.
            assert.equal((await executeCode.execute({ code: "return 1", explanation: "x" })).result, 1);
            assert.match(session.getSystemInstruction(), /billing\.refund/, "the instruction follows later registrations");
            assert.equal(llmTools(session).executeCode.description, executeCode.description);
        } finally {
            api.dispose();
        }
    });
});

describe("typed results: inferred from the calls a tool has answered", () => {
    test("the signature shows the merged result type, marked as inferred, for this session only", async () => {
        const api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            tools: [
                tool("orders.list", (input) => (input.open ? [{ id: "o1", total: 5 }] : [{ id: "o2", total: 7.5, note: "late" }]), {
                    description: "List orders.",
                }),
            ],
        });
        try {
            const session = api.createSession();
            const { executeCode, searchTools } = llmTools(session);
            const signature = async (s = searchTools) => (await s.execute({ query: "orders.list", limit: 1 }))[0].signature;
            assert.match(await signature(), /Promise<unknown>;$/);
            const r = await executeCode.execute({ code: "await tools.orders.list({ open: true }); await tools.orders.list({}); return 1", explanation: "x" });
            assert.equal(r.ok, true, JSON.stringify(r));
            assert.match(await signature(), /Promise<\{ id: string; total: number; note\?: string \}\[\]>; \/\/ result type inferred from its results$/);
            assert.match(session.getSystemInstruction(), /result type inferred from its results/);
            // Results of shapes seen before leave the instruction as it was (a
            // count of results in it made each turn's system prompt new to a
            // provider's prompt cache); in worker mode after the page's copy
            // caught up.
            const before = session.getSystemInstruction();
            await executeCode.execute({ code: "await tools.orders.list({ open: true }); await tools.orders.list({}); return 1", explanation: "x" });
            await api.ready();
            assert.equal(session.getSystemInstruction(), before);
            const other = llmTools(api.createSession()).searchTools;
            assert.match(await signature(other), /Promise<unknown>;$/, "another session learns nothing");
        } finally {
            api.dispose();
        }
    });
});

describe("inputSchema: JSON Schema, AI SDK schemas, Zod 4 and Standard Schema, each enforced", async () => {
    const { z } = await import("zod");
    const { jsonSchema, zodSchema } = await import("ai");
    // ai@6's (the ai-v6 alias), for pages that have not moved to v7.
    const v6 = await import("ai-v6");
    const orderInput = () =>
        z
            .object({ status: z.enum(["open", "shipped"]), limit: z.number().int().min(1).optional() })
            .refine((o) => o.status !== "shipped" || o.limit === undefined, "no limit for shipped orders");
    // The same rule as a JSON Schema with the AI SDK's validate.
    const withValidate = (jsonSchema) =>
        jsonSchema(
            { type: "object", properties: { status: { enum: ["open", "shipped"] }, limit: { type: "integer", minimum: 1 } }, required: ["status"] },
            { validate: (v) => (v.status === "shipped" && v.limit !== undefined ? { success: false, error: new Error("no limit for shipped orders") } : { success: true, value: v }) },
        );
    const schemas = [
        ["Zod 4", orderInput()],
        ["AI SDK zodSchema()", zodSchema(orderInput())],
        ["AI SDK jsonSchema() with validate", withValidate(jsonSchema)],
        ["AI SDK v6 zodSchema()", v6.zodSchema(orderInput())],
        ["AI SDK v6 jsonSchema() with validate", withValidate(v6.jsonSchema)],
    ];
    for (const [name, inputSchema] of schemas) {
        test(name, async () => {
            const calls = [];
            const api = await IoCodeModeFactory({ wasmLocation: assetPath });
            try {
                api.registerTool({ name: "orders.search", description: "Search orders.", inputSchema, execute: (input) => (calls.push(input), ["o1"]) });
                const { executeCode, searchTools } = llmTools(api.createSession());
                const [hit] = await searchTools.execute({ query: "orders.search", limit: 1 });
                assert.match(hit.signature, /status: "open" \| "shipped"/, hit.signature);
                const r = await executeCode.execute({
                    explanation: "x",
                    code: `const out = [];
                        for (const input of [{ status: "open", limit: 2 }, { status: "closed" }, { status: "shipped", limit: 3 }]) {
                            try { out.push(await tools.orders.search(input)); } catch (e) { out.push(e.name + ": " + e.message); }
                        }
                        return out;`,
                });
                assert.equal(r.ok, true, JSON.stringify(r));
                assert.deepEqual(r.result[0], ["o1"]);
                assert.match(r.result[1], /^ValidationError: orders\.search: .*status/, "the JSON Schema is enforced");
                assert.match(r.result[2], /no limit for shipped orders/, "the library's own check is enforced");
                assert.deepEqual(calls, [{ status: "open", limit: 2 }], "bad input never reached the tool");
            } finally {
                api.dispose();
            }
        });
    }

    const rejected = [
        ["a Standard Schema without JSON Schema", { "~standard": { version: 1, vendor: "acme", validate: () => ({ value: 1 }) } }, /^tool \("t\.x"\): inputSchema: a acme schema that cannot give JSON Schema/],
        ["a class instance", new Map(), /^tool \("t\.x"\): inputSchema: expected JSON Schema .*got an object that is not JSON data \(schema is an instance of Map\)/],
        ["a function inside", { type: "object", check: () => true }, /schema\.check is a function/],
        ["a shape, not a schema", { status: "string" }, /none of its keys \(status\) is a JSON Schema keyword/],
        ["a string", "object", /^tool \("t\.x"\): inputSchema: expected JSON Schema/],
    ];
    for (const [name, inputSchema, message] of rejected) {
        test(`${name} is a TypeError`, async () => {
            const api = await IoCodeModeFactory({ wasmLocation: assetPath });
            try {
                assert.throws(() => api.registerTool({ name: "t.x", inputSchema, execute: () => 1 }), (err) => err instanceof TypeError && message.test(err.message), String(message));
                assert.deepEqual(api.listTools(), []);
            } finally {
                api.dispose();
            }
        });
    }
});

describe("a page tool's result converts as a run's result does", () => {
    test("Map, Set, Error, NaN and BigInt from a tool reach the code converted, each reported with its path", async () => {
        const api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            tools: [
                tool("inv.stock", () => ({ bySku: new Map([["A-1", 3]]), tags: new Set(["x"]), err: new Error("late"), ratio: NaN, big: 10n })),
                tool("inv.plain", () => ({ ok: [1, 2] })),
            ],
        });
        try {
            const { executeCode } = llmTools(api.createSession());
            const r = await executeCode.execute({ code: "return [await tools.inv.stock({}), await tools.inv.plain({})]", explanation: "x" });
            assert.equal(r.ok, true, JSON.stringify(r));
            assert.deepEqual(r.result, [
                { bySku: { "A-1": 3 }, tags: ["x"], err: { name: "Error", message: "late" }, ratio: "NaN", big: "10" },
                { ok: [1, 2] },
            ]);
            assert.deepEqual(r.logs.filter((l) => l.level === "warn").map((l) => l.message), [
                "tools.inv.stock result.bySku: a Map, converted to an object",
                "tools.inv.stock result.tags: a Set, converted to an array",
                "tools.inv.stock result.err: an Error, converted to {name, message}",
                'tools.inv.stock result.ratio: NaN, converted to the string "NaN"',
                "tools.inv.stock result.big: a BigInt, converted to a string",
            ]);
        } finally {
            api.dispose();
        }
    });
});
