// Real clients of OpenAI-compatible APIs. groq-sdk's own HTTP code against
// a local Groq API (fakes/groq.mjs) that, as Groq does, checks the model's
// tool calls against the request's tools and refuses the whole reply (400
// tool_use_failed) for an unknown tool or arguments the schema refuses: the
// call never reaches handleToolCall, so USAGE.md's Groq loop tells the
// model why and asks again. And the `openai` client over a scripted fetch
// answering as OpenRouter's and DeepSeek's providers do (arguments "",
// "null" or an object, several calls in a turn), which handleToolCall reads.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import Groq from "groq-sdk";
import OpenAI from "openai";
import { SUM_OPEN as SUM, chatCall as call, completion, scriptedFetch } from "./adapter-helpers.mjs";
import { llmClientSession } from "./client-factory.mjs";
import { groqServer, messagesError, toolUseFailure } from "./fakes/groq.mjs";

let api, contexts, llm, session;
before(async () => ({ api, contexts, llm, session } = await llmClientSession()));
after(() => api.dispose());

const client = (t, server) => {
    t.after(server.close);
    return new Groq({ apiKey: "test-key", baseURL: server.baseURL, maxRetries: 0 });
};

/** USAGE.md's Groq loop: resolves with the messages. */
async function loop(groq) {
    const tools = llm.toOpenAITools(session);
    const messages = [
        { role: "system", content: session.getSystemInstruction() },
        { role: "user", content: "Total of the open orders?" },
    ];
    for (let refused = 0; ; ) {
        let reply;
        try {
            reply = await groq.chat.completions.create({ model: "openai/gpt-oss-120b", messages, tools });
        } catch (err) {
            const error = err instanceof Groq.BadRequestError && err.error?.error;
            if (error?.code !== "tool_use_failed" || ++refused > 3) throw err;
            messages.push({ role: "user", content: `Your tool call was refused: ${error.message}. Call a tool again, with arguments its schema takes.` });
            continue;
        }
        const message = reply.choices[0].message;
        messages.push(message);
        if (!message.tool_calls?.length) return messages;
        for (const c of message.tool_calls) {
            const output = await llm.handleToolCall(session, c, { context: { user: "ada" } });
            messages.push({ role: "tool", tool_call_id: c.id, content: JSON.stringify(output) });
        }
    }
}

test("the fake Groq API refuses what Groq refuses", () => {
    const tools = llm.toOpenAITools(session);
    assert.equal(toolUseFailure([call("c1", "executeCode", { code: "return 1", explanation: "one" })], tools), undefined);
    assert.equal(toolUseFailure([call("c1", "searchTools", {})], tools), undefined);
    assert.match(toolUseFailure([call("c1", "executeCode", { code: "return 1" })], tools).message, /parameters for tool executeCode did not match schema: errors: \[missing properties: 'explanation'\]/);
    assert.match(toolUseFailure([call("c1", "orders.search", { status: "open" })], tools).message, /attempted to call tool 'orders\.search' which was not in request\.tools/);
    assert.match(toolUseFailure([call("c1", "searchTools", { limit: "5" })], tools).message, /\/limit: expected integer, but got string/);
    assert.match(toolUseFailure([call("c1", "executeCode", '{"code": "return 1')], tools).message, /^Failed to call a function/);
    assert.match(toolUseFailure([call("c1", "executeCode", { code: "return 1", explanation: "x", language: "js" })], tools).message, /additionalProperties 'language' not allowed/);
    assert.match(messagesError({ messages: [{ role: "user" }, { role: "tool", content: "1" }] }), /messages\.1\.tool_call_id' : property 'tool_call_id' is missing/);
});

test("Groq refuses a call the schema refuses before the loop sees it: the OpenAI section's loop throws", async (t) => {
    // A call without explanation, which handleToolCall would run.
    const server = await groqServer([{ tool_calls: [call("c1", "executeCode", { code: SUM })] }]);
    const groq = client(t, server);
    const messages = [{ role: "user", content: "Total of the open orders?" }];
    const refused = await groq.chat.completions.create({ model: "openai/gpt-oss-120b", messages, tools: llm.toOpenAITools(session) }).catch((err) => err);
    assert.ok(refused instanceof Groq.BadRequestError, String(refused));
    assert.equal(refused.status, 400);
    assert.equal(refused.error.error.code, "tool_use_failed");
    assert.match(refused.error.error.message, /missing properties: 'explanation'/);
    assert.equal(JSON.parse(refused.error.error.failed_generation).name, "executeCode");
});

test("USAGE's Groq loop: a refused generation is told to the model, which calls again; the calls that pass run", async (t) => {
    const server = await groqServer([
        { tool_calls: [call("c1", "executeCode", { code: SUM })] }, // no explanation: refused
        { tool_calls: [call("c2", "orders.search", { status: "open" })] }, // a page tool as an LLM tool: refused
        { tool_calls: [call("c3", "searchTools", { query: "orders" }), call("c4", "executeCode", { code: SUM, explanation: "Sum the open orders." })] },
        { content: "The open orders total 47." },
    ]);
    contexts.length = 0;
    const messages = await loop(client(t, server));
    assert.equal(messages.at(-1).content, "The open orders total 47.");
    assert.equal(server.requests.length, 4);
    const notes = messages.filter((m) => m.role == "user").slice(1).map((m) => m.content);
    assert.match(notes[0], /^Your tool call was refused: .*missing properties: 'explanation'/);
    assert.match(notes[1], /^Your tool call was refused: .*attempted to call tool 'orders\.search' which was not in request\.tools/);
    const [hits, sum] = messages.filter((m) => m.role == "tool").map((m) => JSON.parse(m.content));
    assert.deepEqual(hits.map((h) => h.name), ["orders.search"]);
    assert.equal(sum.result, 47, JSON.stringify(sum));
    assert.deepEqual(contexts, [{ user: "ada" }]);
    // What Groq got back: each call answered by its id (Groq refuses a tool message without one).
    assert.deepEqual(server.requests[3].messages.filter((m) => m.role == "tool").map((m) => m.tool_call_id), ["c3", "c4"]);
});

test("the loop gives up after three refusals: the fourth is the caller's error", async (t) => {
    const bad = { tool_calls: [call("c1", "orders.search", { status: "open" })] };
    const server = await groqServer([bad, bad, bad, bad]);
    await assert.rejects(loop(client(t, server)), (err) => err instanceof Groq.BadRequestError && err.error.error.code == "tool_use_failed");
    assert.equal(server.requests.length, 4);
});

test("OpenAI-compatible providers' arguments (OpenRouter's, DeepSeek's): '', 'null', an object, several calls in a turn", async () => {
    const scripted = scriptedFetch([
        completion(
            {
                tool_calls: [
                    { id: "call_0", type: "function", function: { name: "searchTools", arguments: "" } },
                    { id: "call_1", type: "function", function: { name: "searchTools", arguments: "null" } },
                    { id: "call_2", type: "function", function: { name: "executeCode", arguments: { code: SUM } } },
                    { id: "call_3", type: "function", function: { name: "executeCode", arguments: "" } },
                ],
            },
            "tool_calls",
        ),
        completion({ content: "47" }, "stop"),
    ]);
    const openai = new OpenAI({ apiKey: "test-key", baseURL: "http://127.0.0.1:9/v1", fetch: scripted.fetch, maxRetries: 0 });
    const tools = llm.toOpenAITools(session);
    const messages = [{ role: "user", content: "Total of the open orders?" }];
    for (;;) {
        const message = (await openai.chat.completions.create({ model: "deepseek-chat", messages, tools })).choices[0].message;
        messages.push(message);
        if (!message.tool_calls?.length) break;
        for (const c of message.tool_calls) {
            const output = await llm.handleToolCall(session, c.function.name, c.function.arguments);
            messages.push({ role: "tool", tool_call_id: c.id, content: JSON.stringify(output) });
        }
    }
    const [empty, nil, sum, noCode] = messages.filter((m) => m.role == "tool").map((m) => JSON.parse(m.content));
    // No arguments: searchTools lists the tools by name.
    assert.deepEqual(empty.map((h) => h.name), ["orders.search"]);
    assert.deepEqual(nil, empty);
    assert.equal(sum.result, 47, JSON.stringify(sum));
    assert.equal(noCode.error.code, "INVALID_INPUT");
    assert.match(noCode.error.message, /executeCode: code: required/);
    assert.equal(messages.at(-1).content, "47");
});
