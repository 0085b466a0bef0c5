// A real client: @mistralai/mistralai's own HTTP code (serverURL given)
// against a local Mistral API (fakes/mistral.mjs) that refuses what
// Mistral refuses. What USAGE.md's Mistral section rests on: the SDK hands
// calls in camelCase (message.toolCalls, each { id, function: { name,
// arguments } }), which handleToolCall takes as they are; every call must
// be answered by a tool message whose toolCallId (camelCase: the SDK drops
// tool_call_id) is the call's; the model's mistakes come back to it as text.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Mistral } from "@mistralai/mistralai";
import { SUM_OPEN as SUM, chatCall as call } from "./adapter-helpers.mjs";
import { llmClientSession } from "./client-factory.mjs";
import { chatError, mistralServer } from "./fakes/mistral.mjs";

let api, contexts, llm, session;
before(async () => ({ api, contexts, llm, session } = await llmClientSession()));
after(() => api.dispose());

const client = (t, server) => {
    t.after(server.close);
    return new Mistral({ apiKey: "test-key", serverURL: server.serverURL, retryConfig: { strategy: "none" } });
};

/** USAGE.md's loop: resolves with the messages. */
async function loop(mistral) {
    const tools = llm.toOpenAITools(session);
    const messages = [
        { role: "system", content: session.getSystemInstruction() },
        { role: "user", content: "Total of the open orders?" },
    ];
    for (;;) {
        const response = await mistral.chat.complete({ model: "mistral-medium-latest", messages, tools });
        const message = response.choices[0].message;
        messages.push(message);
        if (!message.toolCalls?.length) return messages;
        for (const c of message.toolCalls) {
            const output = await llm.handleToolCall(session, c, { context: { user: "ada" } });
            messages.push({ role: "tool", toolCallId: c.id, name: c.function.name, content: JSON.stringify(output) });
        }
    }
}

test("the fake Mistral API refuses what Mistral refuses", () => {
    const asked = { role: "assistant", content: "", tool_calls: [call("abcDEF123", "executeCode", {})] };
    const answer = { role: "tool", tool_call_id: "abcDEF123", content: "{}" };
    assert.equal(chatError({ messages: [{ role: "user", content: "q" }, asked, answer] }), "");
    assert.equal(chatError({ messages: [{ role: "user", content: "q" }, asked, { role: "user", content: "go on" }] }), "Not the same number of function calls and responses");
    assert.equal(chatError({ messages: [{ role: "user", content: "q" }, { ...asked, tool_calls: [call("call_1", "executeCode", {})] }, { ...answer, tool_call_id: "call_1" }] }), "Tool call id was call_1 but must be a-z, A-Z, 0-9, with a length of 9.");
    assert.match(chatError({ messages: [{ role: "user", content: "q" }, { role: "assistant", content: "a" }] }), /^Expected last role User or Tool/);
});

test("a loop over chat.complete: calls in camelCase to handleToolCall as they are, every call answered, the model's mistakes as text", async (t) => {
    const server = await mistralServer([
        {
            tool_calls: [
                call("A1b2C3d4E", "searchTools", { query: "orders", limit: "5" }),
                call("F5g6H7i8J", "executeCode", { code: SUM }),
                call("K9l0M1n2O", "orders.search", { status: "open" }),
                call("P3q4R5s6T", "executeCode", '{"code": "return 1'),
            ],
        },
        { content: "The open orders total 47." },
    ]);
    contexts.length = 0;
    const messages = await loop(client(t, server));
    assert.equal(messages.at(-1).content, "The open orders total 47.");
    assert.equal(server.requests.length, 2);
    // What Mistral got back: the turn's calls, then one tool message per call, with its id and name, in snake_case.
    const sent = server.requests[1].messages;
    assert.deepEqual(sent.slice(3).map((m) => [m.role, m.tool_call_id, m.name]), [
        ["tool", "A1b2C3d4E", "searchTools"],
        ["tool", "F5g6H7i8J", "executeCode"],
        ["tool", "K9l0M1n2O", "orders.search"],
        ["tool", "P3q4R5s6T", "executeCode"],
    ]);
    const [hits, sum, unknown, cut] = sent.slice(3).map((m) => JSON.parse(m.content));
    assert.deepEqual(hits.map((h) => h.name), ["orders.search"]);
    assert.equal(sum.result, 47, JSON.stringify(sum));
    assert.equal(unknown.error.code, "UNKNOWN_TOOL");
    assert.match(cut.error.message, /^The arguments of executeCode are not valid JSON/);
    assert.deepEqual(contexts, [{ user: "ada" }]);
});

test("the SDK drops a snake_case tool_call_id and refuses an output that is no string, before the request", async (t) => {
    const server = await mistralServer([{ tool_calls: [call("abcDEF123", "executeCode", { code: "return 1", explanation: "one" })] }, { content: "1" }]);
    const mistral = client(t, server);
    const messages = [{ role: "user", content: "one?" }];
    const { message } = (await mistral.chat.complete({ model: "mistral-medium-latest", messages, tools: llm.toOpenAITools(session) })).choices[0];
    const [c] = message.toolCalls;
    const output = await llm.handleToolCall(session, c);
    assert.equal(output.result, 1, JSON.stringify(output));
    await assert.rejects(mistral.chat.complete({ model: "mistral-medium-latest", messages: [...messages, message, { role: "tool", toolCallId: c.id, content: output }] }), { name: "SDKValidationError" });
    assert.equal(server.requests.length, 1);
    await mistral.chat.complete({ model: "mistral-medium-latest", messages: [...messages, message, { role: "tool", tool_call_id: c.id, content: JSON.stringify(output) }] });
    assert.equal(server.requests[1].messages.at(-1).tool_call_id, undefined);
});
