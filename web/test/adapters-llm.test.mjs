// @interopio/code-mode/llm with the providers' official SDKs (openai,
// @anthropic-ai/sdk) over a scripted fetch: no network. Each loop is the one
// web/USAGE.md documents, fed a model that makes every mistake first
// (malformed JSON, an unknown tool, wrong types) and then a good call.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { assetPath, loadFactory } from "./helpers.mjs";
import { anthropicMessage, completion, loadAdapter, scriptedFetch } from "./adapter-helpers.mjs";

let api, llm;
const contexts = [];

before(async () => {
    llm = await loadAdapter("llm");
    const IoCodeModeFactory = await loadFactory();
    api = await IoCodeModeFactory({ wasmLocation: assetPath });
    api.registerTool({
        name: "orders.search",
        description: "Search orders by status.",
        inputSchema: { type: "object", properties: { status: { type: "string" } }, required: ["status"] },
        execute: async ({ status }, { context }) => {
            contexts.push(context);
            return [
                { id: "o-1", status, total: 30 },
                { id: "o-2", status, total: 12 },
            ];
        },
    });
    api.registerTool({
        name: "clock.wait",
        description: "Waits until the run is aborted.",
        execute: (input, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve("aborted"))),
    });
});
after(() => api.dispose());

// A revoked Proxy: every operation on it but typeof throws.
function revoked() {
    const p = Proxy.revocable({}, {});
    p.revoke();
    return p.proxy;
}

// What an unknown tool's answer in or as multi_tool_use.parallel adds.
const WRAPPER = /\. multi_tool_use\.parallel takes \{tool_uses: \[\{recipient_name, parameters\}\]\}\.$/;
const SUM = "const o = await tools.orders.search({ status: 'open' }); return o.reduce((s, x) => s + x.total, 0);";

describe("tool shapes", () => {
    test("toOpenAITools, toOpenAIResponsesTools and toAnthropicTools give plain JSON of both tools", () => {
        const session = api.createSession();
        const [search, exec] = session.getLlmTools();
        const schemaOf = (t) => JSON.parse(JSON.stringify(t.inputSchema));
        assert.deepEqual(llm.toOpenAITools(session), [
            { type: "function", function: { name: "searchTools", description: search.description, parameters: schemaOf(search) } },
            { type: "function", function: { name: "executeCode", description: exec.description, parameters: schemaOf(exec) } },
        ]);
        assert.deepEqual(
            llm.toOpenAIResponsesTools(session).map((t) => [t.type, t.name, t.strict, t.parameters]),
            [
                ["function", "searchTools", false, schemaOf(search)],
                ["function", "executeCode", false, schemaOf(exec)],
            ],
        );
        const anthropic = llm.toAnthropicTools(session);
        assert.deepEqual(anthropic.map((t) => t.name), ["searchTools", "executeCode"]);
        assert.equal(anthropic[1].description, exec.description);
        assert.equal(anthropic[1].input_schema.type, "object");
        assert.deepEqual(anthropic[1].input_schema, schemaOf(exec));
        // Editing what the adapter returned does not touch the session's schemas.
        anthropic[1].input_schema.properties.code.type = "number";
        assert.equal(session.getLlmTools()[1].inputSchema.properties.code.type, "string");
        session.dispose();
    });

    // searchTools({}) lists every tool and searchTools({ namespace }) a
    // namespace's: no provider shape may require "query" (it did), and the
    // failure that repeats the expected call says it is optional.
    test("searchTools requires no argument in any provider shape, and its failures say so", async () => {
        const session = api.createSession();
        const shapes = {
            openai: llm.toOpenAITools(session)[0].function.parameters,
            responses: llm.toOpenAIResponsesTools(session)[0].parameters,
            anthropic: llm.toAnthropicTools(session)[0].input_schema,
        };
        for (const [provider, schema] of Object.entries(shapes)) {
            assert.equal("required" in schema, false, `${provider}: searchTools requires ${JSON.stringify(schema.required)}`);
            assert.deepEqual(Object.keys(schema.properties).sort(), ["limit", "namespace", "query"], provider);
        }
        // Not strict (strict mode would need every property required): the shape stays valid for it.
        assert.deepEqual(llm.toOpenAIResponsesTools(session).map((t) => t.strict), [false, false]);
        const all = await llm.handleToolCall(session, "searchTools", "{}");
        assert.ok(all.some((h) => h.name === "orders.search"), JSON.stringify(all));
        const orders = await llm.handleToolCall(session, "searchTools", { namespace: "orders" });
        assert.deepEqual(orders.map((h) => h.name), ["orders.search"]);
        const bad = await llm.handleToolCall(session, "searchTools", "[1]");
        assert.match(bad.error.message, /\{"query"\?: string, "namespace"\?: string, "limit"\?: integer\}/);
        session.dispose();
    });

    test("a value that is not a session is a TypeError naming the argument", () => {
        assert.throws(() => llm.toOpenAITools({}), { name: "TypeError", message: /^session: expected a Code Mode session/ });
        assert.throws(() => llm.toAnthropicTools(null), { name: "TypeError", message: /got null/ });
    });
});

describe("handleToolCall", () => {
    let session;
    before(() => (session = api.createSession()));
    after(() => session.dispose());

    const cases = [
        { what: "malformed JSON", name: "executeCode", args: '{"code": "return 1', code: "INVALID_INPUT", message: /not valid JSON.*\{"code": string, "explanation": string\}/ },
        { what: "JSON that is not an object", name: "executeCode", args: '["return 1"]', code: "INVALID_INPUT", message: /must be a JSON object.*got an array/ },
        { what: "a number instead of an object", name: "searchTools", args: 7, code: "INVALID_INPUT", message: /must be a JSON object.*got number/ },
        { what: "code of the wrong type", name: "executeCode", args: { code: { x: 1 }, explanation: "e" }, code: "INVALID_INPUT", message: /code/ },
        { what: "a query of the wrong type", name: "searchTools", args: '{"query": {"q": 1}}', code: "INVALID_INPUT", message: /query/ },
        { what: "an unknown tool", name: "orders.search", args: "{}", code: "UNKNOWN_TOOL", message: /no tool "orders\.search".*searchTools and executeCode/ },
        { what: "a name that is not a string", name: undefined, args: "{}", code: "UNKNOWN_TOOL", message: /no tool "undefined"/ },
    ];
    for (const c of cases) {
        test(`${c.what} resolves with a readable failure`, async () => {
            const out = await llm.handleToolCall(session, c.name, c.args);
            assert.equal(out.ok, false);
            assert.equal(out.error.code, c.code);
            assert.match(out.error.message, c.message);
            assert.doesNotThrow(() => JSON.stringify(out));
        });
    }

    test("a JSON string and an object run the same, with context passed on", async () => {
        contexts.length = 0;
        const a = await llm.handleToolCall(session, "executeCode", JSON.stringify({ code: SUM, explanation: "sum" }), { context: "req-1" });
        const b = await llm.handleToolCall(session, "executeCode", { code: SUM, explanation: "sum" }, { context: "req-2" });
        assert.equal(a.ok, true);
        assert.equal(a.result, 42);
        assert.equal(b.result, 42);
        assert.deepEqual(contexts, ["req-1", "req-2"]);
        const hits = await llm.handleToolCall(session, "searchTools", '{"query": "orders"}');
        assert.equal(hits[0].name, "orders.search");
        // Some models send "" for a call without arguments.
        assert.ok(Array.isArray(await llm.handleToolCall(session, "searchTools", "")));
    });

    // Hosts hand over the call object as their SDK gives it: the model was
    // answered UNKNOWN_TOOL "[object Object]", a mistake it cannot fix.
    test("the call object as each SDK hands it runs, with the options after it", async () => {
        const args = { code: SUM, explanation: "sum" };
        const calls = {
            "Chat Completions tool_call": { id: "call_1", type: "function", function: { name: "executeCode", arguments: JSON.stringify(args) } },
            "Responses function_call": { type: "function_call", call_id: "call_2", name: "executeCode", arguments: JSON.stringify(args) },
            "Anthropic tool_use": { type: "tool_use", id: "toolu_1", name: "executeCode", input: args },
            "Gemini functionCall": { id: "fc_1", name: "executeCode", args },
            "Chat Completions call.function": { name: "execute_code", arguments: JSON.stringify(args) },
            // It was UNKNOWN_TOOL 'There is no tool "[object Object]"'.
            "AI SDK tool call": { type: "tool-call", toolCallId: "call_3", toolName: "executeCode", input: args },
            "AI SDK 4 tool call": { type: "tool-call", toolCallId: "call_4", toolName: "executeCode", args },
            "LangChain ToolCall": { type: "tool_call", id: "call_5", name: "executeCode", args },
            "Bedrock toolUse": { toolUseId: "tooluse_1", name: "executeCode", input: args },
            "Ollama tool call": { id: "call_6", function: { index: 0, name: "executeCode", arguments: args } },
            // Its parameters were not read: executeCode answered that the code was missing.
            "Cohere v1 tool call": { name: "executeCode", parameters: args },
        };
        for (const [what, call] of Object.entries(calls)) {
            contexts.length = 0;
            const out = await llm.handleToolCall(session, call, { context: what });
            assert.equal(out.result, 42, `${what}: ${JSON.stringify(out)}`);
            assert.deepEqual(contexts, [what]);
        }
        const hits = await llm.handleToolCall(session, { type: "tool_use", id: "toolu_2", name: "searchTools", input: { query: "orders" } });
        assert.equal(hits[0].name, "orders.search");
        // The host's options after the call object are still the host's to fix.
        await assert.rejects(llm.handleToolCall(session, calls["Anthropic tool_use"], { sigal: 1 }), /unknown key "sigal"/);
        // An object of no call's shape is the host's mistake, thrown: the model was told of a tool "[object Object]".
        const message = { role: "assistant", tool_calls: [calls["Chat Completions tool_call"]] };
        // Bedrock's turn and a text block of it, Gemini's turn and a text part, blocks and parts holding no call.
        const bedrockTurn = { role: "assistant", content: [{ text: "Adding up." }, { toolUse: { toolUseId: "t1", name: "executeCode", input: args } }] };
        const geminiTurn = { role: "model", parts: [{ text: "Adding up." }, { functionCall: { name: "executeCode", args } }] };
        const others = [bedrockTurn, bedrockTurn.content[0], geminiTurn, geminiTurn.parts[0], { toolUse: null }, { toolUse: "executeCode" }, { toolUse: { input: args } }, { functionCall: {} }];
        for (const bad of [message, message.tool_calls, { type: "tool-call", input: args }, ...others]) {
            await assert.rejects(llm.handleToolCall(session, bad), { name: "TypeError", message: "handleToolCall: call: expected { name, arguments }, { toolName, input }, { toolUse } or { functionCall }" });
        }
        // Inside multi_tool_use.parallel the name is the model's: an object there is no call to unwrap (a block neither).
        const [miss, missBlock] = await llm.handleToolCall(session, "multi_tool_use.parallel", { tool_uses: [{ recipient_name: calls["Anthropic tool_use"], parameters: args }, { recipient_name: { toolUse: calls["Bedrock toolUse"] }, parameters: args }] });
        assert.equal(miss.error.code, "UNKNOWN_TOOL");
        assert.equal(missBlock.error.code, "UNKNOWN_TOOL");
    });

    // A loop over Bedrock's content blocks or Gemini's parts holds the
    // block or part, not the call inside: it was a TypeError. The answer is
    // the block or part the API takes back, each wanting an object where
    // searchTools' result is an array (bedrock.test and gemini.test send
    // them to the fake APIs, which refuse an array).
    test("Bedrock's { toolUse } block and Gemini's { functionCall } part run; the answer is a toolResult block, a functionResponse part", async () => {
        const args = { code: SUM, explanation: "sum" };
        contexts.length = 0;
        const block = await llm.handleToolCall(session, { toolUse: { toolUseId: "tooluse_1", name: "executeCode", input: args } }, { context: "bedrock" });
        assert.deepEqual(Object.keys(block), ["toolResult"]);
        assert.deepEqual(Object.keys(block.toolResult), ["toolUseId", "content", "status"]);
        assert.equal(block.toolResult.status, "success");
        assert.equal(block.toolResult.toolUseId, "tooluse_1");
        assert.equal(block.toolResult.content.length, 1);
        assert.equal(JSON.parse(block.toolResult.content[0].text).result, 42);
        const part = await llm.handleToolCall(session, { functionCall: { id: "fc_1", name: "executeCode", args }, thoughtSignature: "c2ln" }, { context: "gemini" });
        assert.deepEqual(Object.keys(part), ["functionResponse"]);
        assert.equal(part.functionResponse.id, "fc_1");
        assert.equal(part.functionResponse.name, "executeCode");
        assert.deepEqual(Object.keys(part.functionResponse.response), ["output"]);
        assert.equal(part.functionResponse.response.output.result, 42);
        assert.deepEqual(contexts, ["bedrock", "gemini"]);
        // Gemini 2.x sends no id: the answer has none.
        const hits = await llm.handleToolCall(session, { functionCall: { name: "searchTools", args: { query: "orders" } } });
        assert.deepEqual(Object.keys(hits.functionResponse), ["name", "response"]);
        assert.equal(hits.functionResponse.response.output[0].name, "orders.search");
        // The model's mistakes are answered in the block and the part too, as failed calls (Bedrock's
        // status "error", Gemini's "error" key); the name as the model sent it.
        const unknown = await llm.handleToolCall(session, { toolUse: { toolUseId: "tooluse_2", name: "orders.search", input: {} } });
        assert.equal(JSON.parse(unknown.toolResult.content[0].text).error.code, "UNKNOWN_TOOL");
        assert.equal(unknown.toolResult.status, "error");
        const bad = await llm.handleToolCall(session, { functionCall: { name: "execute_code", args: '{"code": "return 1' } });
        assert.equal(bad.functionResponse.name, "execute_code");
        assert.deepEqual(Object.keys(bad.functionResponse.response), ["error"]);
        assert.equal(bad.functionResponse.response.error.error.code, "INVALID_INPUT");
        // A run that throws is a failed call too, its logs with it.
        const thrown = await llm.handleToolCall(session, { functionCall: { name: "executeCode", args: { code: "console.log('looking'); throw new Error('no such order')", explanation: "fail" } } });
        assert.deepEqual(Object.keys(thrown.functionResponse.response), ["error"]);
        assert.match(thrown.functionResponse.response.error.error.message, /no such order/);
        assert.match(JSON.stringify(thrown.functionResponse.response.error.logs), /looking/);
        const thrownBlock = await llm.handleToolCall(session, { toolUse: { toolUseId: "tooluse_5", name: "executeCode", input: { code: "throw new Error('no such order')", explanation: "fail" } } });
        assert.equal(thrownBlock.toolResult.status, "error");
        // A wrapper of parallel calls in a block: its answers, in order, in one toolResult.
        const parallel = await llm.handleToolCall(session, { toolUse: { toolUseId: "tooluse_3", name: "multi_tool_use.parallel", input: { tool_uses: [{ recipient_name: "executeCode", parameters: args }] } } });
        assert.equal(JSON.parse(parallel.toolResult.content[0].text)[0].result, 42);
        assert.equal(parallel.toolResult.status, "success");
        // The host's options after the block are still the host's to fix.
        await assert.rejects(llm.handleToolCall(session, { toolUse: { toolUseId: "tooluse_4", name: "executeCode", input: args } }, { sigal: 1 }), /unknown key "sigal"/);
    });

    // GPT-5.6 was trained on transcripts whose calls read functions.<name>,
    // and gpt-oss's format addresses tools so: every such call was an
    // UNKNOWN_TOOL the model repeated.
    test("a name with the functions. prefix is that tool; nothing else around a name is", async () => {
        const out = await llm.handleToolCall(session, "functions.executeCode", JSON.stringify({ code: SUM, explanation: "sum" }));
        assert.equal(out.result, 42);
        const hits = await llm.handleToolCall(session, "functions.searchTools", { query: "orders" });
        assert.equal(hits[0].name, "orders.search");
        for (const name of ["functions.", "functions.orders.search", "function.executeCode", "functions.functions.executeCode", "executeCode.functions"]) {
            const miss = await llm.handleToolCall(session, name, "{}");
            assert.equal(miss.error.code, "UNKNOWN_TOOL", name);
            assert.match(miss.error.message, new RegExp(`^There is no tool ${JSON.stringify(name).replace(/\./g, "\\.")}\\. The tools are searchTools and executeCode`), name);
        }
    });

    // A model writing the tools' names as its training spelled tools
    // (execute_code, ExecuteCode) got UNKNOWN_TOOL, a turn lost: with two
    // tools, such a name can mean only one.
    test("a tool's name in another case or with separators is that tool; a name of neither is not", async () => {
        for (const name of ["ExecuteCode", "execute_code", "executecode", "EXECUTE_CODE", "execute-code", "execute code", "functions.execute_code"]) {
            const out = await llm.handleToolCall(session, name, JSON.stringify({ code: SUM, explanation: "sum" }));
            assert.equal(out.result, 42, `${name}: ${JSON.stringify(out)}`);
        }
        for (const name of ["searchtools", "search_tools", "SearchTools", "search-tools"]) {
            const hits = await llm.handleToolCall(session, name, { query: "orders" });
            assert.equal(hits[0]?.name, "orders.search", `${name}: ${JSON.stringify(hits)}`);
        }
        const [wrapped] = await llm.handleToolCall(session, "multi_tool_use.parallel", { tool_uses: [{ recipient_name: "execute_code", parameters: { code: SUM } }] });
        assert.equal(wrapped.result, 42);
        for (const name of ["execute", "exec_code", "search", "run_code", "executeCodes", "_"]) {
            const miss = await llm.handleToolCall(session, name, "{}");
            assert.equal(miss.error?.code, "UNKNOWN_TOOL", name);
            assert.match(miss.error.message, /The tools are searchTools and executeCode;/, name);
        }
    });

    // The answer is the model's next input: a name of megabytes (a model
    // looping on one token) came back whole, megabytes into the context.
    test("an unknown tool's name is cut in the answer: a 10 MB name gives an answer of a few hundred characters", async () => {
        const name = "x".repeat(10_000_000);
        const miss = await llm.handleToolCall(session, name, "{}");
        assert.equal(miss.error.code, "UNKNOWN_TOOL");
        assert.match(miss.error.message, /^There is no tool "x{200}"\. The tools are searchTools and executeCode/);
        assert.ok(JSON.stringify(miss).length < 1000, `${JSON.stringify(miss).length} characters`);
    });

    // OpenAI models trained on ChatGPT's own tool send parallel calls
    // wrapped in a call of multi_tool_use.parallel: each was an UNKNOWN_TOOL.
    test("multi_tool_use.parallel runs the calls it wraps, in order; any other shape under that name is an unknown tool", async () => {
        const uses = [
            { recipient_name: "functions.executeCode", parameters: { code: SUM, explanation: "sum" } },
            { recipient_name: "searchTools", parameters: { query: "orders" } },
            { recipient_name: "functions.orders.search", parameters: {} },
            null,
        ];
        const [run, hits, miss, none] = await llm.handleToolCall(session, "multi_tool_use.parallel", JSON.stringify({ tool_uses: uses }));
        assert.equal(run.result, 42);
        assert.equal(hits[0].name, "orders.search");
        assert.equal(miss.error.code, "UNKNOWN_TOOL");
        assert.equal(none.error.code, "UNKNOWN_TOOL");
        const [parsed] = await llm.handleToolCall(session, "multi_tool_use.parallel", { tool_uses: uses.slice(0, 1) });
        assert.equal(parsed.result, 42);
        for (const args of ["{}", "{not json", JSON.stringify({ tool_uses: "x" }), null]) {
            const out = await llm.handleToolCall(session, "multi_tool_use.parallel", args);
            assert.equal(out.error?.code, "UNKNOWN_TOOL", String(args));
            assert.match(out.error.message, /^There is no tool "multi_tool_use\.parallel"\. The tools are searchTools and executeCode/);
            assert.match(out.error.message, WRAPPER, String(args));
        }
        // The answer of an entry that is no call says what an entry holds.
        assert.match(none.error.message, /^There is no tool "undefined"\./);
        assert.match(none.error.message, WRAPPER);
        const ctrl = new AbortController();
        const waiting = llm.handleToolCall(session, "multi_tool_use.parallel", JSON.stringify({ tool_uses: [{ recipient_name: "executeCode", parameters: { code: "await tools.clock.wait({});", explanation: "wait" } }] }), { signal: ctrl.signal });
        setTimeout(() => ctrl.abort(new Error("user stopped")), 50);
        await assert.rejects(waiting, /user stopped/);
    });

    // A wrapper inside a wrapper recursed, so 5,000 of them rejected with
    // "Maximum call stack size exceeded": it is an entry naming no tool.
    test("multi_tool_use.parallel inside multi_tool_use.parallel is an unknown tool, 5,000 deep too", async () => {
        const inner = { recipient_name: "executeCode", parameters: { code: "return 1", explanation: "one" } };
        const [nested] = await llm.handleToolCall(session, "multi_tool_use.parallel", { tool_uses: [{ recipient_name: "multi_tool_use.parallel", parameters: { tool_uses: [inner] } }] });
        assert.equal(nested.error?.code, "UNKNOWN_TOOL", JSON.stringify(nested));
        assert.match(nested.error.message, /^There is no tool "multi_tool_use\.parallel"\. The tools are searchTools and executeCode/);
        assert.match(nested.error.message, WRAPPER);
        let deep = { tool_uses: [inner] };
        for (let i = 0; i < 5000; i++) deep = { tool_uses: [{ recipient_name: "multi_tool_use.parallel", parameters: deep }] };
        // Too deep for JSON.stringify's stack: the same text, written out.
        const text = '{"tool_uses":[{"recipient_name":"multi_tool_use.parallel","parameters":'.repeat(5000) + JSON.stringify({ tool_uses: [inner] }) + "}]}".repeat(5000);
        for (const args of [deep, text]) {
            const [out] = await llm.handleToolCall(session, "multi_tool_use.parallel", args);
            assert.equal(out.error?.code, "UNKNOWN_TOOL", typeof args);
            assert.match(out.error.message, WRAPPER);
        }
    });

    // Some models encode the arguments twice ("\"{\\\"code\\\": ...}\""), or
    // send them as the code: the object inside is read, as the session's
    // own tools read it; any other string is still refused.
    test("arguments encoded twice, or sent as the code, run", async () => {
        const args = { code: SUM, explanation: "sum" };
        const twice = await llm.handleToolCall(session, "executeCode", JSON.stringify(JSON.stringify(args)));
        assert.equal(twice.result, 42, JSON.stringify(twice));
        const nested = await llm.handleToolCall(session, "executeCode", { code: JSON.stringify(args) });
        assert.equal(nested.result, 42, JSON.stringify(nested));
        const hits = await llm.handleToolCall(session, "searchTools", JSON.stringify(JSON.stringify({ query: "orders", limit: 1 })));
        assert.deepEqual(hits.map((h) => h.name), ["orders.search"]);
        const text = await llm.handleToolCall(session, "executeCode", JSON.stringify("return 1"));
        assert.equal(text.ok, false);
        assert.match(text.error.message, /must be a JSON object.*got string/);
        // A program sent bare that starts with "{" was valid JSON (a
        // string): it is refused as one, not as JSON that failed to parse.
        const block = await llm.handleToolCall(session, "executeCode", JSON.stringify("{ return 1 }"));
        assert.equal(block.ok, false);
        assert.match(block.error.message, /must be a JSON object.*got string/);
    });

    // Session 32: the arguments inside code as an object ran nothing ("code: expected
    // a string, got an object"), keywords were refused, and a number query
    // answered [] with no word; tool_search in a program reads them the same.
    test("the LLM tools' own inputs as models send them: the same in both tools and in tool_search", async () => {
        const args = { code: SUM, explanation: "sum" };
        const nested = await llm.handleToolCall(session, "executeCode", { code: args });
        assert.equal(nested.result, 42, JSON.stringify(nested));
        const [search] = session.getLlmTools();
        const keywords = await search.execute({ query: ["orders", "status"], limit: 1 });
        assert.deepEqual(keywords.map((h) => h.name), ["orders.search"], JSON.stringify(keywords));
        assert.deepEqual((await llm.handleToolCall(session, "searchTools", { query: { query: "orders", limit: 1 } })).map((h) => h.name), ["orders.search"]);
        const number = await search.execute({ query: 5 });
        assert.equal(number.error?.code, "INVALID_INPUT", JSON.stringify(number));
        assert.equal(number.error.message, 'searchTools: query: expected a string of words saying what the tool does ("refund an order"), got the number 5, which matches no tool');
        const inside = await llm.handleToolCall(session, "executeCode", {
            code: "const out = [];\nfor (const a of [{ query: ['orders', 'status'], limit: 1 }, { query: { query: 'orders', limit: 1 } }, { query: 5 }]) {\n  try { out.push((await tool_search(a)).map((h) => h.name)); } catch (e) { out.push(e.message); }\n}\nreturn out;",
        });
        assert.deepEqual(inside.result, [["orders.search"], ["orders.search"], 'tool_search: query: expected a string of words saying what the tool does ("refund an order"), got the number 5, which matches no tool'], JSON.stringify(inside));
    });

    // A lone string that is not JSON is what the tools' own execute reads
    // as the query or the code: handleToolCall hands it on the same way (it
    // was "not valid JSON"); text that tries to be JSON is still refused.
    test("a lone string that is not JSON is the query or the code", async () => {
        const hits = await llm.handleToolCall(session, "searchTools", "orders search by status");
        assert.ok(Array.isArray(hits), JSON.stringify(hits));
        assert.equal(hits[0].name, "orders.search");
        assert.deepEqual(await llm.handleToolCall(session, "searchTools", "orders search by status"), await session.getLlmTools()[0].execute("orders search by status"));
        const run = await llm.handleToolCall(session, "executeCode", " return 6 * 7");
        assert.equal(run.ok, true, JSON.stringify(run));
        assert.equal(run.result, 42);
        for (const text of ['{"code": "return 1', '["return 1"', '"return 1']) {
            const out = await llm.handleToolCall(session, "executeCode", text);
            assert.equal(out.error.code, "INVALID_INPUT", text);
            assert.match(out.error.message, /not valid JSON/, text);
        }
    });

    test("an error of the model's code is the run's own result", async () => {
        const out = await llm.handleToolCall(session, "executeCode", { code: "throw new Error('boom')", explanation: "e" });
        assert.equal(out.ok, false);
        assert.equal(out.error.code, "RUNTIME");
        assert.match(out.error.message, /boom/);
    });

    test("a disposed session is a failure result, not an exception", async () => {
        const s = api.createSession();
        llm.toOpenAITools(s);
        s.dispose();
        const out = await llm.handleToolCall(s, "executeCode", { code: "return 1", explanation: "e" });
        assert.equal(out.ok, false);
        assert.match(out.error.message, /disposed/);
        const none = await llm.handleToolCall({}, "executeCode", "{}");
        assert.equal(none.ok, false);
        assert.match(none.error.message, /expected a Code Mode session/);
    });

    // The options are the host's: a misspelt signal reached the model as its
    // INVALID_INPUT (the model was blamed, the host never learnt of it, and
    // its loop could not be stopped).
    test("options execute refuses throw to the host; the model's own mistakes stay results", async () => {
        const args = { code: "return 1", explanation: "one" };
        for (const [options, message] of [
            [{ sigal: new AbortController().signal }, /^execute\(args, options\): unknown key "sigal" \(did you mean "signal"\?\); valid keys are signal, context, onEvent, /],
            [{ signal: "stop" }, /^execute\(args, options\): options\.signal: expected an AbortSignal, got the string "stop"$/],
            ["ctx", /^execute\(args, options\): options: expected an object, got string$/],
            // Options that cannot be read: their raw words named nothing.
            [revoked(), /^execute\(args, options\): options\.signal: cannot be read \(Cannot perform 'getOwnPropertyDescriptor' on a proxy that has been revoked\)$/],
            [{ get context() { throw new Error("boom"); } }, /^execute\(args, options\): options\.context: cannot be read \(boom\)$/],
        ]) {
            await assert.rejects(llm.handleToolCall(session, "executeCode", args, options), { name: "TypeError", message }, String(message));
            await assert.rejects(llm.handleToolCall(session, "searchTools", '{"query":"orders"}', options), { name: "TypeError", message });
            // Inside multi_tool_use.parallel too.
            await assert.rejects(llm.handleToolCall(session, "multi_tool_use.parallel", { tool_uses: [{ recipient_name: "executeCode", parameters: args }] }, options), { name: "TypeError", message });
        }
        // Arguments of the wrong type with good options: the model's.
        const out = await llm.handleToolCall(session, "executeCode", { code: 5 }, { signal: new AbortController().signal, context: "c" });
        assert.equal(out.error?.code, "INVALID_INPUT", JSON.stringify(out));
        assert.match(out.error.message, /^executeCode: code: expected a string, got the number 5/);
    });

    // A call object or arguments that cannot be read: a revoked Proxy (or a
    // getter that throws) rejected with its raw words ("Cannot perform
    // 'ownKeys' on a proxy that has been revoked"), which name nothing. The
    // call is the host's: a TypeError naming it. Arguments that cannot be
    // read are what the core answers a getter's that throws with: not JSON.
    test("a call object that cannot be read rejects naming it; such arguments are INVALID_INPUT", async () => {
        const boom = {
            get name() {
                throw new Error("boom");
            },
        };
        for (const [call, why] of [
            [revoked(), "Cannot perform 'ownKeys' on a proxy that has been revoked"],
            [{ function: revoked() }, "Cannot perform 'ownKeys' on a proxy that has been revoked"],
            [{ toolUse: boom }, "boom"],
            [boom, "boom"],
        ]) {
            await assert.rejects(llm.handleToolCall(session, call), { name: "TypeError", message: `handleToolCall: call: cannot be read (${why})` });
        }
        for (const out of [await llm.handleToolCall(session, "executeCode", revoked()), await llm.handleToolCall(session, { name: "searchTools", input: revoked() })]) {
            assert.equal(out.error?.code, "INVALID_INPUT", JSON.stringify(out));
            assert.match(out.error.message, /^(executeCode|searchTools): the arguments are not JSON; expected an object/);
        }
    });

    // A call that never reached execute (an unknown tool, arguments that are
    // no JSON object) answered the model and kept the host's typo from it
    // until a good call came.
    test("the host's options throw on the first call, whatever the model sent", async () => {
        const calls = [
            ["orders.search", '{"status":"open"}'],
            ["executeCode", '{"code": "return 1'],
            ["searchTools", "[1]"],
            ["executeCode", 7],
            ["multi_tool_use.parallel", "{not json"],
            ["multi_tool_use.parallel", { tool_uses: [{ recipient_name: "nope", parameters: {} }] }],
        ];
        for (const [name, args] of calls) {
            await assert.rejects(llm.handleToolCall(session, name, args, { sigal: new AbortController().signal }), { name: "TypeError", message: /^execute\(args, options\): unknown key "sigal" \(did you mean "signal"\?\)/ }, name);
            await assert.rejects(llm.handleToolCall(session, name, args, { onEvent: 1 }), { name: "TypeError", message: /^execute\(args, options\): options\.onEvent: expected a function/ }, name);
            await assert.rejects(llm.handleToolCall(session, name, args, "ctx"), { name: "TypeError", message: /^execute\(args, options\): options: expected an object, got string$/ }, name);
            // An aborted signal rejects with its reason, as a good call's does.
            const stopped = new AbortController();
            stopped.abort(new Error("user stopped"));
            await assert.rejects(llm.handleToolCall(session, name, args, { signal: stopped.signal }), /user stopped/, name);
            // Good options: the model's answer, and no run events for it.
            const events = [];
            const out = await llm.handleToolCall(session, name, args, { signal: new AbortController().signal, context: "c", onEvent: (e) => events.push(e) });
            for (const o of [out].flat()) assert.match(o.error?.code, /^(UNKNOWN_TOOL|INVALID_INPUT)$/, `${name}: ${JSON.stringify(o)}`);
            assert.deepEqual(events, [], name);
        }
    });

    // Models end an object with a comma now and then; JSON.parse refuses it.
    test("arguments JSON with a comma before its closing brace run; a comma inside a string is the program's", async () => {
        const run = await llm.handleToolCall(session, "executeCode", '{"code":"return [1, 2,].length + \\",}\\".length + \\",]\\".length",\n  "explanation":"x",\n}');
        assert.equal(run.ok, true, JSON.stringify(run));
        assert.equal(run.result, 6);
        const hits = await llm.handleToolCall(session, "searchTools", '{"query":"orders","limit":1 , }');
        assert.deepEqual(hits.map?.((h) => h.name), ["orders.search"], JSON.stringify(hits));
        // The tools' own execute reads such JSON text so too.
        const [search, execute] = session.getLlmTools();
        assert.equal((await execute.execute('{"code":"return 6 * 7",\n}')).result, 42);
        assert.deepEqual((await search.execute('{"query":"orders","limit":1,}')).map?.((h) => h.name), ["orders.search"]);
        assert.equal((await execute.execute('{"code":"return 6 * 7","tags":["a",],}')).result, 42);
        // Before a nested closing bracket or brace too: the text
        // multi_tool_use.parallel's calls come in, and an array of the
        // arguments' own; a comma and bracket inside a string stay, closed
        // or not.
        const [nested] = await llm.handleToolCall(session, "multi_tool_use.parallel", '{"tool_uses":[{"recipient_name":"executeCode","parameters":{"code":"return \\"[1,]\\".length",},},\n],}');
        assert.equal(nested.result, 4, JSON.stringify(nested));
        const tagged = await llm.handleToolCall(session, "executeCode", '{"code":"return 2","explanation":"x","tags":["a", "b" ,],}');
        assert.equal(tagged.result, 2, JSON.stringify(tagged));
        // 10 MB of escapes, valid JSON: read, though the comma reading's
        // regexp cannot scan it (it read "not valid JSON (Maximum call
        // stack size exceeded)").
        const big = await llm.handleToolCall(session, "searchTools", JSON.stringify({ query: 'orders "open",]\n'.repeat(7e5), limit: 1 }));
        assert.deepEqual(big.map?.((h) => h.name), ["orders.search"], JSON.stringify(big).slice(0, 300));
        const open = await llm.handleToolCall(session, "executeCode", '{"code":"return [1,]');
        assert.match(open.error?.message, /^The arguments of executeCode are not valid JSON \(Unterminated string in JSON at position 20\)/, JSON.stringify(open));
        // A comma with nothing before it, or two, is still not JSON, in
        // JSON.parse's words, which say where.
        for (const text of ['{"code":"return 1",,}', '{"code":"return 1" "explanation":"x",}', '{"code":"return [1,]",\n "explanation":"x", ,\n}']) {
            const out = await llm.handleToolCall(session, "executeCode", text);
            assert.equal(out.error?.code, "INVALID_INPUT", text);
            assert.match(out.error.message, /^The arguments of executeCode are not valid JSON \(.*position \d+/, text);
            // The position is in the text as sent.
            let where;
            try {
                JSON.parse(text);
            } catch (err) {
                where = err.message;
            }
            assert.ok(out.error.message.includes(`(${where})`), `${text}: ${out.error.message}`);
        }
    });

    test("the caller's abort rejects, so the loop stops", async () => {
        const ctrl = new AbortController();
        const p = llm.handleToolCall(session, "executeCode", { code: "await tools.clock.wait({});", explanation: "wait" }, { signal: ctrl.signal });
        setTimeout(() => ctrl.abort(new Error("user stopped")), 50);
        await assert.rejects(p, /user stopped/);
    });
});

// --- OpenAI Chat Completions, the loop of web/USAGE.md ------------------------

async function openAILoop(openai, session, question, { signal, context }) {
    const tools = llm.toOpenAITools(session);
    const messages = [
        { role: "system", content: session.getSystemInstruction() },
        { role: "user", content: question },
    ];
    for (;;) {
        const completion = await openai.chat.completions.create({ model: "gpt-4.1", messages, tools });
        const message = completion.choices[0].message;
        messages.push(message);
        if (!message.tool_calls?.length) return message.content;
        for (const call of message.tool_calls) {
            const output = await llm.handleToolCall(session, call.function.name, call.function.arguments, { signal, context });
            messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(output) });
        }
    }
}

const fnCall = (id, name, args) => ({ id, type: "function", function: { name, arguments: args } });

test("OpenAI: the documented loop survives malformed arguments and an unknown tool", async () => {
    const session = api.createSession();
    const { fetch, requests } = scriptedFetch([
        completion(
            {
                tool_calls: [
                    fnCall("c1", "executeCode", '{"code": "return 1'),
                    fnCall("c2", "orders.search", '{"status":"open"}'),
                    fnCall("c3", "executeCode", '{"code": 42}'),
                ],
            },
            "tool_calls",
        ),
        completion({ tool_calls: [fnCall("c4", "executeCode", JSON.stringify({ code: SUM, explanation: "Sum the open orders." }))] }, "tool_calls"),
        completion({ content: "The open orders total 42." }, "stop"),
    ]);
    const openai = new OpenAI({ apiKey: "test-key", baseURL: "http://127.0.0.1:9/v1", fetch, maxRetries: 0 });
    contexts.length = 0;
    const answer = await openAILoop(openai, session, "Total of open orders?", { context: { user: "ada" } });
    assert.equal(answer, "The open orders total 42.");
    assert.equal(requests.length, 3);
    assert.match(requests[0].url, /\/v1\/chat\/completions$/);
    assert.deepEqual(requests[0].body.tools, llm.toOpenAITools(session));
    const toolMessages = (i) => requests[i].body.messages.filter((m) => m.role === "tool");
    const [bad, unknown, wrong] = toolMessages(1).map((m) => [m.tool_call_id, JSON.parse(m.content)]);
    assert.equal(bad[0], "c1");
    assert.equal(bad[1].error.code, "INVALID_INPUT");
    assert.match(bad[1].error.message, /not valid JSON/);
    assert.equal(unknown[1].error.code, "UNKNOWN_TOOL");
    assert.equal(wrong[1].error.code, "INVALID_INPUT");
    const good = JSON.parse(toolMessages(2).at(-1).content);
    assert.equal(good.ok, true);
    assert.equal(good.result, 42);
    assert.deepEqual(contexts, [{ user: "ada" }]);
    session.dispose();
});

// The SDK's own loop: chat.completions.runTools. Without a parse, the runner
// hands the arguments string to the function, which handleToolCall reads
// (malformed JSON included), and sends the object it resolves as JSON.
test("OpenAI: the SDK's runTools with toOpenAITools's shapes runs the loop", async () => {
    const session = api.createSession();
    const { fetch, requests } = scriptedFetch([
        completion({ tool_calls: [fnCall("r1", "executeCode", '{"code": "return 1')] }, "tool_calls"),
        completion({ tool_calls: [fnCall("r2", "executeCode", JSON.stringify({ code: SUM, explanation: "sum" }))] }, "tool_calls"),
        completion({ content: "42 in total." }, "stop"),
    ]);
    const openai = new OpenAI({ apiKey: "test-key", baseURL: "http://127.0.0.1:9/v1", fetch, maxRetries: 0 });
    const tools = llm.toOpenAITools(session).map((t) => ({ type: "function", function: { ...t.function, function: (args) => llm.handleToolCall(session, t.function.name, args) } }));
    const runner = openai.chat.completions.runTools({ model: "gpt-4.1", messages: [{ role: "user", content: "Total of open orders?" }], tools });
    assert.equal(await runner.finalContent(), "42 in total.");
    assert.deepEqual(requests[0].body.tools, llm.toOpenAITools(session));
    const toolMessage = (i) => JSON.parse(requests[i].body.messages.at(-1).content);
    assert.equal(toolMessage(1).error.code, "INVALID_INPUT");
    assert.match(toolMessage(1).error.message, /not valid JSON/);
    assert.equal(toolMessage(2).result, 42);
    session.dispose();
});

test("OpenAI Responses API: function_call items answered with function_call_output", async () => {
    const session = api.createSession();
    const response = (output) => ({ id: "resp-1", object: "response", created_at: 1, status: "completed", model: "gpt-4.1", output, usage: null });
    const { fetch, requests } = scriptedFetch([
        response([
            { type: "function_call", id: "fc1", call_id: "call-1", name: "executeCode", arguments: "{code: return 1}", status: "completed" },
            { type: "function_call", id: "fc2", call_id: "call-2", name: "executeCode", arguments: JSON.stringify({ code: SUM, explanation: "sum" }), status: "completed" },
        ]),
        response([{ type: "message", id: "m1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "42", annotations: [] }] }]),
    ]);
    const openai = new OpenAI({ apiKey: "test-key", baseURL: "http://127.0.0.1:9/v1", fetch, maxRetries: 0 });
    const tools = llm.toOpenAIResponsesTools(session);
    let input = [{ role: "user", content: "Total of open orders?" }];
    let text;
    for (;;) {
        const res = await openai.responses.create({ model: "gpt-4.1", instructions: session.getSystemInstruction(), input, tools });
        const calls = res.output.filter((item) => item.type === "function_call");
        if (!calls.length) {
            text = res.output_text;
            break;
        }
        input = [...input, ...res.output];
        for (const item of calls) {
            const output = await llm.handleToolCall(session, item.name, item.arguments);
            input.push({ type: "function_call_output", call_id: item.call_id, output: JSON.stringify(output) });
        }
    }
    assert.equal(text, "42");
    assert.match(requests[0].url, /\/v1\/responses$/);
    assert.deepEqual(requests[0].body.tools, tools);
    const outputs = requests[1].body.input.filter((i) => i.type === "function_call_output").map((i) => JSON.parse(i.output));
    assert.equal(outputs[0].error.code, "INVALID_INPUT");
    assert.equal(outputs[1].result, 42);
    session.dispose();
});

// --- Strict mode: OpenAI's strict function tools, Anthropic's strict tool use --

// The SDKs' own strict transforms (openai's toStrictJsonSchema, which
// chat.completions.parse() and zodFunction use; Anthropic's
// transformJSONSchema, which its strict helpers use) leave a strict schema
// as it is: each throws on, or rewrites, what strict mode does not take.
test("{ strict: true }: schemas the SDKs' own strict transforms leave as they are", async () => {
    const { toStrictJsonSchema } = await import("openai/lib/transform");
    const { transformJSONSchema } = await import("@anthropic-ai/sdk/lib/transform-json-schema");
    const session = api.createSession();
    const chat = llm.toOpenAITools(session, { strict: true });
    const responses = llm.toOpenAIResponsesTools(session, { strict: true });
    const anthropic = llm.toAnthropicTools(session, { strict: true });
    assert.deepEqual(chat.map((t) => t.function.strict), [true, true]);
    assert.deepEqual(responses.map((t) => t.strict), [true, true]);
    assert.deepEqual(anthropic.map((t) => t.strict), [true, true]);
    for (const [i, name] of ["searchTools", "executeCode"].entries()) {
        const schema = chat[i].function.parameters;
        assert.deepEqual(toStrictJsonSchema(schema), schema, `${name}: openai's toStrictJsonSchema changed it`);
        assert.deepEqual(transformJSONSchema(anthropic[i].input_schema), anthropic[i].input_schema, `${name}: Anthropic's transformJSONSchema changed it`);
        assert.deepEqual(responses[i].parameters, schema);
        assert.deepEqual(schema.required, Object.keys(schema.properties), `${name}: every property required`);
    }
    // searchTools's optional arguments are nullable; executeCode's are required anyway.
    assert.deepEqual(chat[0].function.parameters.properties.limit, { anyOf: [{ type: "integer" }, { type: "null" }], description: session.getLlmTools()[0].inputSchema.properties.limit.description });
    assert.deepEqual(chat[1].function.parameters, JSON.parse(JSON.stringify(session.getLlmTools()[1].inputSchema)));
    // The default stays as it was: not strict.
    assert.equal("strict" in llm.toOpenAITools(session)[0].function, false);
    assert.deepEqual(llm.toOpenAIResponsesTools(session).map((t) => t.strict), [false, false]);
    assert.equal("strict" in llm.toAnthropicTools(session)[0], false);
    for (const [fn, bad, message] of [
        ["toOpenAITools", { strcit: true }, "toOpenAITools: options.strcit: unknown option; expected { strict?: boolean }"],
        ["toOpenAIResponsesTools", { strict: true, signal: null }, "toOpenAIResponsesTools: options.signal: unknown option; expected { strict?: boolean }"],
        ["toAnthropicTools", { strict: "yes" }, "toAnthropicTools: options.strict: expected a boolean"],
        ["toOpenAITools", { strict: null }, "toOpenAITools: options.strict: expected a boolean"],
        ["toOpenAITools", "strict", "toOpenAITools: options: expected { strict?: boolean }"],
        ["toAnthropicTools", 1, "toAnthropicTools: options: expected { strict?: boolean }"],
    ]) {
        assert.throws(() => llm[fn](session, bad), { name: "TypeError", message }, JSON.stringify(bad));
    }
    assert.equal(llm.toOpenAITools(session, { strict: undefined }).length, 2);
    session.dispose();
});

// chat.completions.parse() (structured outputs) refuses any tool that is
// not strict: 'The `searchTools` tool is not marked with `strict: true`'.
// A strict model sends null for what it leaves out; the tools read it as absent.
test("OpenAI chat.completions.parse() with strict tools: parsed arguments, nulls for what the model leaves out", async () => {
    const session = api.createSession();
    const { fetch, requests } = scriptedFetch([
        completion({ tool_calls: [fnCall("s1", "searchTools", JSON.stringify({ query: "orders", namespace: null, limit: null }))] }, "tool_calls"),
        completion({ tool_calls: [fnCall("e1", "executeCode", JSON.stringify({ code: SUM, explanation: "sum" }))] }, "tool_calls"),
        completion({ content: '{"total":42}' }, "stop"),
    ]);
    const openai = new OpenAI({ apiKey: "test-key", baseURL: "http://127.0.0.1:9/v1", fetch, maxRetries: 0 });
    const tools = llm.toOpenAITools(session, { strict: true });
    const response_format = { type: "json_schema", json_schema: { name: "answer", strict: true, schema: { type: "object", properties: { total: { type: "number" } }, required: ["total"], additionalProperties: false } } };
    const messages = [{ role: "user", content: "Total of open orders?" }];
    const outputs = [];
    let parsed;
    for (;;) {
        const res = await openai.chat.completions.parse({ model: "gpt-4.1", messages, tools, response_format });
        const message = res.choices[0].message;
        messages.push(message);
        if (!message.tool_calls?.length) {
            parsed = JSON.parse(message.content);
            break;
        }
        for (const call of message.tool_calls) {
            assert.equal(typeof call.function.parsed_arguments, "object", "parse() parses a strict tool's arguments");
            const output = await llm.handleToolCall(session, call.function.name, call.function.parsed_arguments);
            outputs.push(output);
            messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(output) });
        }
    }
    assert.deepEqual(parsed, { total: 42 });
    assert.deepEqual(requests[0].body.tools, tools);
    assert.deepEqual(outputs[0].map((h) => h.name), ["orders.search"]);
    assert.equal(outputs[1].result, 42);
    session.dispose();
});

// A Responses API tool sent without `strict` (the AI SDK's OpenAI provider
// sends tool(searchTools) so) is normalized into strict mode by OpenAI: the
// model then fills every property, "" for what it means to leave out. An
// empty namespace (or query) must read as absent, not as a namespace "".
test("searchTools with every property filled, as OpenAI's strict normalization makes models send it", async () => {
    const session = api.createSession();
    const names = (out) => (Array.isArray(out) ? out.map((h) => h.name) : out);
    const plain = names(await llm.handleToolCall(session, "searchTools", { query: "orders" }));
    assert.ok(plain.includes("orders.search"), JSON.stringify(plain));
    assert.deepEqual(names(await llm.handleToolCall(session, "searchTools", JSON.stringify({ query: "orders", namespace: "", limit: 10 }))), plain);
    const all = names(await llm.handleToolCall(session, "searchTools", {}));
    assert.deepEqual(names(await llm.handleToolCall(session, "searchTools", { query: "", namespace: "", limit: 50 })), all);
    session.dispose();
});

// --- Anthropic Messages, the loop of web/USAGE.md -------------------------------

async function anthropicLoop(anthropic, session, question, { signal, context }) {
    const tools = llm.toAnthropicTools(session);
    const messages = [{ role: "user", content: question }];
    for (;;) {
        const response = await anthropic.messages.create({
            model: "claude-sonnet-4-5",
            max_tokens: 4096,
            system: session.getSystemInstruction(),
            tools,
            messages,
        });
        messages.push({ role: "assistant", content: response.content });
        if (response.stop_reason !== "tool_use") return response.content.filter((b) => b.type === "text").map((b) => b.text).join("");
        const results = [];
        for (const block of response.content) {
            if (block.type !== "tool_use") continue;
            const output = await llm.handleToolCall(session, block.name, block.input, { signal, context });
            results.push({ type: "tool_result", tool_use_id: block.id, content: JSON.stringify(output), is_error: "ok" in output && output.ok === false });
        }
        messages.push({ role: "user", content: results });
    }
}

const message = anthropicMessage;

test("Anthropic: the documented loop survives wrong types and an unknown tool", async () => {
    const session = api.createSession();
    const { fetch, requests } = scriptedFetch([
        message(
            [
                { type: "text", text: "Let me look." },
                { type: "tool_use", id: "tu1", name: "executeCode", input: { code: ["return 1"], explanation: "x" } },
                { type: "tool_use", id: "tu2", name: "bash", input: { command: "ls" } },
            ],
            "tool_use",
        ),
        message([{ type: "tool_use", id: "tu3", name: "executeCode", input: { code: SUM, explanation: "sum" } }], "tool_use"),
        message([{ type: "text", text: "42 in total." }], "end_turn"),
    ]);
    const anthropic = new Anthropic({ apiKey: "test-key", baseURL: "http://127.0.0.1:9", fetch, maxRetries: 0 });
    const answer = await anthropicLoop(anthropic, session, "Total of open orders?", { context: "req-9" });
    assert.equal(answer, "42 in total.");
    assert.equal(requests.length, 3);
    assert.match(requests[0].url, /\/v1\/messages$/);
    assert.deepEqual(requests[0].body.tools, llm.toAnthropicTools(session));
    const results = requests[1].body.messages.at(-1).content;
    assert.deepEqual(results.map((r) => [r.tool_use_id, r.is_error, JSON.parse(r.content).error.code]), [
        ["tu1", true, "INVALID_INPUT"],
        ["tu2", true, "UNKNOWN_TOOL"],
    ]);
    const last = requests[2].body.messages.at(-1).content[0];
    assert.equal(last.is_error, false);
    assert.equal(JSON.parse(last.content).result, 42);
    session.dispose();
});

// The SDK's own loop: beta.messages.toolRunner with betaTool() around each
// shape, run() answering with handleToolCall's JSON (a tool result's content
// is a string or blocks).
test("Anthropic: the SDK's toolRunner with betaTool(toAnthropicTools(session)[i]) runs the loop", async () => {
    const { betaTool } = await import("@anthropic-ai/sdk/helpers/beta/json-schema");
    const session = api.createSession();
    const { fetch, requests } = scriptedFetch([
        message([{ type: "tool_use", id: "tu1", name: "executeCode", input: { code: ["return 1"], explanation: "x" } }], "tool_use"),
        message([{ type: "tool_use", id: "tu2", name: "executeCode", input: { code: SUM, explanation: "sum" } }], "tool_use"),
        message([{ type: "text", text: "42 in total." }], "end_turn"),
    ]);
    const anthropic = new Anthropic({ apiKey: "test-key", baseURL: "http://127.0.0.1:9", fetch, maxRetries: 0 });
    const tools = llm.toAnthropicTools(session).map((t) =>
        betaTool({ name: t.name, description: t.description, inputSchema: t.input_schema, run: async (input) => JSON.stringify(await llm.handleToolCall(session, t.name, input)) }),
    );
    const final = await anthropic.beta.messages.toolRunner({ model: "claude-sonnet-4-5", max_tokens: 4096, system: session.getSystemInstruction(), tools, messages: [{ role: "user", content: "Total of open orders?" }] });
    assert.deepEqual(final.content, [{ type: "text", text: "42 in total." }]);
    assert.equal(requests.length, 3);
    assert.deepEqual(
        requests[0].body.tools.map(({ name, description, input_schema }) => ({ name, description, input_schema })),
        llm.toAnthropicTools(session),
    );
    const result = (i) => JSON.parse(requests[i].body.messages.at(-1).content[0].content);
    assert.equal(result(1).error.code, "INVALID_INPUT");
    assert.equal(result(2).result, 42);
    session.dispose();
});

// --- The AI SDK (ai@7; ai-sdk.test runs v6 too): no adapter, and it survives malformed input too

test("AI SDK: tool(llmTool) as is; a malformed call becomes a tool error the model reads, then it retries", async () => {
    const { generateText, stepCountIs, tool } = await import("ai");
    const { MockLanguageModelV4 } = await import("ai/test");
    const session = api.createSession();
    const [searchTools, executeCode] = session.getLlmTools();
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
    const prompts = [];
    const call = (id, input) => ({ content: [{ type: "tool-call", toolCallId: id, toolName: "executeCode", input }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] });
    const model = new MockLanguageModelV4({
        doGenerate: async (options) => {
            prompts.push(options.prompt);
            if (prompts.length === 1) return call("a1", '{"code": "return 1');
            if (prompts.length === 2) return call("a2", JSON.stringify({ code: SUM, explanation: "sum" }));
            return { content: [{ type: "text", text: "42" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
        },
    });
    const result = await generateText({
        model,
        prompt: "Total of open orders?",
        tools: { searchTools: tool(searchTools), executeCode: tool(executeCode) },
        stopWhen: stepCountIs(5),
    });
    assert.equal(result.text, "42");
    const parts = (prompt) => prompt.filter((m) => m.role === "tool").flatMap((m) => m.content);
    const first = parts(prompts[1]).find((p) => p.toolCallId === "a1");
    assert.equal(first.output.type, "error-text");
    assert.match(first.output.value, /executeCode/);
    const second = parts(prompts[2]).find((p) => p.toolCallId === "a2");
    assert.equal(second.output.value.result, 42);
    session.dispose();
});

// The AI SDK's own strict flag (tool({ strict })) wants a strict schema too:
// the llm adapter's, wrapped in jsonSchema(). A strict model sends null for
// what it leaves out, which the LLM tools read as absent.
test("AI SDK: tool({ strict: true }) with the adapter's strict schemas; the model's nulls run", async () => {
    const { generateText, jsonSchema, stepCountIs, tool } = await import("ai");
    const { MockLanguageModelV4 } = await import("ai/test");
    const session = api.createSession();
    const strict = llm.toOpenAITools(session, { strict: true });
    const tools = Object.fromEntries(
        session.getLlmTools().map((t, i) => [
            t.name,
            tool({ description: t.description, inputSchema: jsonSchema(strict[i].function.parameters), strict: true, execute: (args, options) => t.execute(args, options) }),
        ]),
    );
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
    const seen = [];
    const call = (id, toolName, input) => ({ content: [{ type: "tool-call", toolCallId: id, toolName, input: JSON.stringify(input) }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] });
    const model = new MockLanguageModelV4({
        doGenerate: async (options) => {
            seen.push(options);
            if (seen.length === 1) return call("s1", "searchTools", { query: "orders", namespace: null, limit: null });
            if (seen.length === 2) return call("e1", "executeCode", { code: SUM, explanation: "sum" });
            return { content: [{ type: "text", text: "42" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
        },
    });
    const result = await generateText({ model, prompt: "Total of open orders?", tools, stopWhen: stepCountIs(5) });
    assert.equal(result.text, "42");
    assert.deepEqual(
        seen[0].tools.map((t) => [t.name, t.strict, t.inputSchema]),
        strict.map((t) => [t.function.name, true, t.function.parameters]),
    );
    const outputs = result.steps.flatMap((s) => s.toolResults.map((r) => r.output));
    assert.deepEqual(outputs[0].map((h) => h.name), ["orders.search"]);
    assert.equal(outputs[1].result, 42);
    session.dispose();
});
