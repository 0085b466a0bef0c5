// A real client: @aws-sdk/client-bedrock-runtime's own code (its default
// HTTP/2 handler, request signing and serializers) against a local Bedrock
// runtime (fakes/bedrock.mjs) that refuses what the Converse API refuses.
// What USAGE.md's Bedrock section rests on: the LLM tools' schemas pass as
// toolSpec.inputSchema.json, a content block { toolUse } goes to
// handleToolCall as it is and comes back as the toolResult block that
// answers it (the toolUse alone, { toolUseId, name, input }, as its
// output), every call is answered in the next message, and searchTools'
// answer (an array) is refused as a toolResult's `json`, so the output goes
// back as text (or wrapped in an object).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand } from "@aws-sdk/client-bedrock-runtime";
import { SUM_OPEN as SUM, abortsRun } from "./adapter-helpers.mjs";
import { llmClientSession } from "./client-factory.mjs";
import { bedrockServer, converseError } from "./fakes/bedrock.mjs";

// Not the SDK's warning that its releases of 2027 on want Node 22 (this one is pinned).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

let api, contexts, events, llm, session;
before(async () => ({ api, contexts, events, llm, session } = await llmClientSession()));
after(() => api.dispose());

const MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0";
const toolConfig = () => ({ tools: session.getLlmTools().map((t) => ({ toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.inputSchema } } })) });
const use = (toolUseId, name, input) => ({ toolUse: { toolUseId, name, input } });

/** A client of the fake at `endpoint` (test credentials: the SDK signs every request). */
function client(t, endpoint) {
    const bedrock = new BedrockRuntimeClient({ region: "us-east-1", endpoint, credentials: { accessKeyId: "AKIDTEST", secretAccessKey: "test" }, maxAttempts: 1 });
    t.after(() => bedrock.destroy());
    return bedrock;
}

/** USAGE.md's loop: resolves with the messages. */
async function loop(bedrock, question, options) {
    const messages = [{ role: "user", content: [{ text: question }] }];
    for (;;) {
        const { output, stopReason } = await bedrock.send(new ConverseCommand({ modelId: MODEL, system: [{ text: session.getSystemInstruction() }], messages, toolConfig: toolConfig() }), { abortSignal: options?.signal });
        messages.push(output.message);
        if (stopReason !== "tool_use") return messages;
        const content = [];
        for (const block of output.message.content) {
            if (block.toolUse) content.push(await llm.handleToolCall(session, block, options));
        }
        messages.push({ role: "user", content });
    }
}

test("the fake Bedrock runtime refuses what the Converse API refuses", () => {
    const q = { role: "user", content: [{ text: "q" }] };
    const asked = { role: "assistant", content: [use("tooluse_1", "searchTools", {})] };
    const answer = (content, status) => ({ role: "user", content: [{ toolResult: { toolUseId: "tooluse_1", content, status } }] });
    const tc = toolConfig();
    assert.equal(converseError({ messages: [q], toolConfig: tc }), "");
    assert.match(converseError({ messages: [q], toolConfig: { tools: [{ toolSpec: { name: "f", inputSchema: { json: { type: "string" } } } }] } }), /toolConfig\.tools\.0\.toolSpec\.inputSchema\.json\.type must be one of the following: object/);
    assert.match(converseError({ messages: [q, asked, answer([{ text: "[]" }])] }), /toolConfig field must be defined/);
    assert.match(converseError({ messages: [q, asked, answer([{ json: [] }])], toolConfig: tc }), /messages\.2\.content\.0\.toolResult\.content\.0\.json is invalid\. Provide a json object/);
    assert.match(converseError({ messages: [q, asked, answer([{ text: "" }])], toolConfig: tc }), /is blank/);
    assert.match(converseError({ messages: [q, asked, answer([], "error")], toolConfig: tc }), /cannot be empty when status value is error/);
    assert.match(converseError({ messages: [q, asked, { role: "user", content: [{ text: "go on" }] }], toolConfig: tc }), /Expected toolResult blocks at messages\.2\.content for the following Ids: tooluse_1/);
    assert.equal(converseError({ messages: [q, asked, answer([{ json: { output: [] } }])], toolConfig: tc }), "");
    // A streamed toolUse sent back with its input still the JSON text.
    assert.match(converseError({ messages: [q, { role: "assistant", content: [use("tooluse_1", "searchTools", '{"query": "x"}')] }, answer([{ text: "[]" }])], toolConfig: tc }), /messages\.1\.content\.0\.toolUse\.input is invalid\. Provide a json object/);
});

test("a Converse loop: schemas as inputSchema.json, toolUse blocks to handleToolCall, every call answered", async (t) => {
    const server = await bedrockServer([
        [
            { text: "Let me look." },
            use("tooluse_a1", "searchTools", { query: "orders", limit: "5" }),
            use("tooluse_a2", "executeCode", { code: SUM }),
            use("tooluse_a3", "orders.search", { status: "open" }),
            use("tooluse_a4", "executeCode", { code: 5, explanation: "wrong type" }),
        ],
        [{ text: "The open orders total 47." }],
    ]);
    t.after(server.close);
    contexts.length = 0;
    const messages = await loop(client(t, server.endpoint), "Total of the open orders?", { context: { user: "ada" } });
    assert.deepEqual(messages.at(-1).content, [{ text: "The open orders total 47." }]);
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[0].modelId, MODEL);
    // The schemas as Bedrock got them: the LLM tools' own, as JSON (the AI SDK's markers are not enumerable).
    assert.deepEqual(
        server.requests[0].body.toolConfig.tools.map((x) => x.toolSpec.inputSchema.json),
        session.getLlmTools().map((x) => JSON.parse(JSON.stringify(x.inputSchema))),
    );
    const results = server.requests[1].body.messages[2].content.map((b) => b.toolResult);
    assert.deepEqual(results.map((r) => r.toolUseId), ["tooluse_a1", "tooluse_a2", "tooluse_a3", "tooluse_a4"]);
    // The model's two mistakes as failed calls (Claude's is_error), the search and the run as successful ones.
    assert.deepEqual(results.map((r) => r.status), ["success", "success", "error", "error"]);
    const [hits, sum, unknown, wrong] = results.map((r) => JSON.parse(r.content[0].text));
    assert.deepEqual(hits.map((h) => h.name), ["orders.search"]);
    assert.equal(sum.result, 47, JSON.stringify(sum));
    assert.equal(unknown.error.code, "UNKNOWN_TOOL");
    assert.equal(wrong.error.code, "INVALID_INPUT");
    assert.match(wrong.error.message, /executeCode: code: expected a string, got the number 5/);
    assert.deepEqual(contexts, [{ user: "ada" }]);
});

test("searchTools' answer as a toolResult's json is refused; wrapped as { output } it passes", async (t) => {
    const server = await bedrockServer([[use("tooluse_s1", "searchTools", { query: "orders" })], [{ text: "done" }]]);
    t.after(server.close);
    const bedrock = client(t, server.endpoint);
    const messages = [{ role: "user", content: [{ text: "find orders tools" }] }];
    const first = await bedrock.send(new ConverseCommand({ modelId: MODEL, messages, toolConfig: toolConfig() }));
    const { toolUse } = first.output.message.content[0];
    const output = await llm.handleToolCall(session, toolUse);
    assert.ok(Array.isArray(output));
    const turn = (json) => [...messages, first.output.message, { role: "user", content: [{ toolResult: { toolUseId: toolUse.toolUseId, content: [{ json }] } }] }];
    await assert.rejects(bedrock.send(new ConverseCommand({ modelId: MODEL, messages: turn(output), toolConfig: toolConfig() })), { name: "ValidationException", message: /toolResult\.content\.0\.json is invalid\. Provide a json object/ });
    const ok = await bedrock.send(new ConverseCommand({ modelId: MODEL, messages: turn({ output }), toolConfig: toolConfig() }));
    assert.deepEqual(ok.output.message.content, [{ text: "done" }]);
});

test("the loop's signal stops a waiting run, and the loop rejects", async (t) => {
    const server = await bedrockServer([[use("tooluse_b1", "executeCode", { code: "await new Promise((r) => setTimeout(r, 60000));", explanation: "wait" })]]);
    t.after(server.close);
    const controller = new AbortController();
    events.length = 0;
    const settled = await abortsRun(events, controller, loop(client(t, server.endpoint), "wait", { signal: controller.signal }));
    assert.equal(settled.message, "user stopped");
    assert.equal(server.requests.length, 1);
});

test("a toolUse whose input is JSON text (ConverseStream's pieces, joined) runs; a block holding no call is the host's mistake", async () => {
    const out = await llm.handleToolCall(session, { toolUseId: "tooluse_t1", name: "executeCode", input: '{"code": "return 6 * 7"}' });
    assert.equal(out.result, 42, JSON.stringify(out));
    const block = await llm.handleToolCall(session, { toolUse: { toolUseId: "tooluse_t2", name: "executeCode", input: '{"code": "return 6 * 7"}' } });
    assert.equal(JSON.parse(block.toolResult.content[0].text).result, 42, JSON.stringify(block));
    for (const bad of [{ text: "Let me look." }, { role: "assistant", content: [use("tooluse_t3", "executeCode", { code: "return 1" })] }]) {
        await assert.rejects(llm.handleToolCall(session, bad), { name: "TypeError", message: /handleToolCall: call: expected \{ name, arguments \}, \{ toolName, input \}, \{ toolUse \} or \{ functionCall \}/ });
    }
});

// It was a TypeError: a loop over output.message.content holds the blocks.
test("the blocks of a Converse turn as the SDK hands them: each toolUse block's answer is a toolResult block Bedrock takes", async (t) => {
    const server = await bedrockServer([
        [{ text: "Let me look." }, use("tooluse_c1", "searchTools", { query: "orders" }), use("tooluse_c2", "executeCode", { code: SUM, explanation: "sum" })],
        [{ text: "The open orders total 47." }],
    ]);
    t.after(server.close);
    const bedrock = client(t, server.endpoint);
    const messages = [{ role: "user", content: [{ text: "Total of the open orders?" }] }];
    const first = await bedrock.send(new ConverseCommand({ modelId: MODEL, messages, toolConfig: toolConfig() }));
    const blocks = first.output.message.content.filter((b) => b.toolUse);
    const answers = await Promise.all(blocks.map((b) => llm.handleToolCall(session, b)));
    assert.deepEqual(answers.map((a) => a.toolResult.toolUseId), ["tooluse_c1", "tooluse_c2"]);
    // searchTools' array went back as text, which Bedrock takes (as json it refuses it: the test above).
    const last = await bedrock.send(new ConverseCommand({ modelId: MODEL, messages: [...messages, first.output.message, { role: "user", content: answers }], toolConfig: toolConfig() }));
    assert.deepEqual(last.output.message.content, [{ text: "The open orders total 47." }]);
    const [hits, sum] = server.requests[1].body.messages[2].content.map((b) => JSON.parse(b.toolResult.content[0].text));
    assert.deepEqual(hits.map((h) => h.name), ["orders.search"]);
    assert.equal(sum.result, 47, JSON.stringify(sum));
});

// A failed run went back as a successful call, its failure only in the
// text: the toolResult had no status.
test("a failed run's toolResult has status \"error\"; for Writer's Palmyra, which refuses the field, the loop deletes it", async (t) => {
    const failing = { code: "throw new Error('no such order')", explanation: "fail" };
    const server = await bedrockServer([[use("tooluse_e1", "executeCode", failing)], [{ text: "It failed." }], [use("tooluse_e2", "executeCode", failing)], [{ text: "It failed." }]]);
    t.after(server.close);
    const bedrock = client(t, server.endpoint);
    for (const modelId of [MODEL, "writer.palmyra-x5-v1:0"]) {
        const messages = [{ role: "user", content: [{ text: "Look up order 7." }] }];
        const first = await bedrock.send(new ConverseCommand({ modelId, messages, toolConfig: toolConfig() }));
        const [answer] = await Promise.all(first.output.message.content.map((b) => llm.handleToolCall(session, b)));
        assert.equal(answer.toolResult.status, "error");
        assert.match(JSON.parse(answer.toolResult.content[0].text).error.message, /no such order/);
        const next = () => bedrock.send(new ConverseCommand({ modelId, messages: [...messages, first.output.message, { role: "user", content: [answer] }], toolConfig: toolConfig() }));
        if (modelId != MODEL) {
            await assert.rejects(next(), { name: "ValidationException", message: "This model doesn't support the status field. Remove status and try again." });
            delete answer.toolResult.status; // USAGE.md's words for these models
        }
        const last = await next();
        assert.deepEqual(last.output.message.content, [{ text: "It failed." }], modelId);
    }
    assert.deepEqual(server.requests.map((r) => r.body.messages.at(-1).content[0].toolResult?.status), [undefined, "error", undefined, "error", undefined]);
});

test("ConverseStream with tools is refused for Meta's Llama models, which take them in Converse", async (t) => {
    const server = await bedrockServer([[{ text: "done" }]]);
    t.after(server.close);
    const bedrock = client(t, server.endpoint);
    const request = { modelId: "us.meta.llama4-maverick-17b-instruct-v1:0", messages: [{ role: "user", content: [{ text: "q" }] }], toolConfig: toolConfig() };
    await assert.rejects(bedrock.send(new ConverseStreamCommand(request)), { name: "ValidationException", message: "This model doesn't support tool use in streaming mode." });
    const { output } = await bedrock.send(new ConverseCommand(request));
    assert.deepEqual(output.message.content, [{ text: "done" }]);
});
