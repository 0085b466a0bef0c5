// A real client: cohere-ai's CohereClientV2 (its own HTTP code and
// serializers, baseUrl given) against a local Cohere API v2
// (fakes/cohere.mjs). What USAGE.md's Cohere section rests on: the SDK
// hands calls in camelCase (message.toolCalls, each { id, function: { name,
// arguments } }), which handleToolCall takes as they are; the turn goes back
// with its toolPlan, each call answered by a tool message with its
// toolCallId and the output as JSON text; the SDK itself refuses an output
// that is no string and a document whose data is no object (searchTools'
// array), before any request.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { CohereClientV2 } from "cohere-ai";
import { SUM_OPEN as SUM, chatCall as call } from "./adapter-helpers.mjs";
import { llmClientSession } from "./client-factory.mjs";
import { chatError, cohereServer } from "./fakes/cohere.mjs";

let api, contexts, llm, session;
before(async () => ({ api, contexts, llm, session } = await llmClientSession()));
after(() => api.dispose());

const client = (t, server) => {
    t.after(server.close);
    return new CohereClientV2({ token: "test-key", baseUrl: server.baseUrl });
};

/** USAGE.md's loop: resolves with the messages. */
async function loop(cohere) {
    const tools = llm.toOpenAITools(session);
    const messages = [
        { role: "system", content: session.getSystemInstruction() },
        { role: "user", content: "Total of the open orders?" },
    ];
    for (;;) {
        const response = await cohere.chat({ model: "command-a-03-2025", messages, tools }, { maxRetries: 0 });
        messages.push(response.message);
        if (!response.message.toolCalls?.length) return messages;
        for (const c of response.message.toolCalls) {
            const output = await llm.handleToolCall(session, c, { context: { user: "ada" } });
            messages.push({ role: "tool", toolCallId: c.id, content: JSON.stringify(output) });
        }
    }
}

test("the fake Cohere API refuses answers that match no call and calls left unanswered", () => {
    const asked = { role: "assistant", tool_plan: "plan", tool_calls: [call("executeCode_a1", "executeCode", {})] };
    assert.equal(chatError({ messages: [{ role: "user" }, asked, { role: "tool", tool_call_id: "executeCode_a1", content: "{}" }] }), "");
    assert.match(chatError({ messages: [{ role: "user" }, asked, { role: "tool", tool_call_id: "executeCode_a1", content: "{}" }, { role: "tool", tool_call_id: "other", content: "{}" }] }), /messages\[3\]\.tool_call_id "other" answers no tool call/);
    assert.match(chatError({ messages: [{ role: "user" }, asked, { role: "user", content: "go on" }] }), /tool calls without a tool message: executeCode_a1/);
    assert.match(chatError({ messages: [{ role: "user" }, asked, { role: "tool", tool_call_id: "executeCode_a1", content: [{ type: "document", document: { data: [] } }] }] }), /document\.data must be an object/);
});

test("a loop over chat: calls in camelCase to handleToolCall as they are, the tool plan and every answer sent back", async (t) => {
    const server = await cohereServer([
        {
            tool_plan: "I will find the tools, then sum the open orders.",
            tool_calls: [call("searchTools_1", "searchTools", { query: "orders", limit: "5" }), call("executeCode_2", "executeCode", { code: SUM }), call("orders_3", "orders.search", { status: "open" })],
        },
        { text: "The open orders total 47." },
    ]);
    contexts.length = 0;
    const messages = await loop(client(t, server));
    assert.deepEqual(messages.at(-1).content, [{ type: "text", text: "The open orders total 47." }]);
    const sent = server.requests[1].messages;
    assert.equal(sent[2].tool_plan, "I will find the tools, then sum the open orders.");
    assert.deepEqual(sent.slice(3).map((m) => m.tool_call_id), ["searchTools_1", "executeCode_2", "orders_3"]);
    const [hits, sum, unknown] = sent.slice(3).map((m) => JSON.parse(m.content));
    assert.deepEqual(hits.map((h) => h.name), ["orders.search"]);
    assert.equal(sum.result, 47, JSON.stringify(sum));
    assert.equal(unknown.error.code, "UNKNOWN_TOOL");
    assert.deepEqual(contexts, [{ user: "ada" }]);
});

test("the SDK refuses an output that is no string, and searchTools' array as a document's data, before any request", async (t) => {
    const server = await cohereServer([{ tool_plan: "search", tool_calls: [call("searchTools_1", "searchTools", { query: "orders" })] }, { text: "done" }]);
    const cohere = client(t, server);
    const messages = [{ role: "user", content: "find orders tools" }];
    const { message } = await cohere.chat({ model: "command-a-03-2025", messages, tools: llm.toOpenAITools(session) }, { maxRetries: 0 });
    const [c] = message.toolCalls;
    const output = await llm.handleToolCall(session, c);
    assert.ok(Array.isArray(output));
    const answered = (content) => cohere.chat({ model: "command-a-03-2025", messages: [...messages, message, { role: "tool", toolCallId: c.id, content }] }, { maxRetries: 0 });
    await assert.rejects(answered(output), /content: \[Variant 0\] Expected string/);
    await assert.rejects(answered([{ type: "document", document: { data: output } }]), /document -> data: \[Variant 1\] Expected object\. Received list/);
    assert.equal(server.requests.length, 1);
    // As a document, the output goes in an object.
    const ok = await answered([{ type: "document", document: { data: { output } } }]);
    assert.deepEqual(ok.message.content, [{ type: "text", text: "done" }]);
});
