// A real client: the `ollama` package's own HTTP code (new Ollama({ host }))
// against a local Ollama server (fakes/ollama.mjs) that refuses what
// Ollama's server cannot decode. What USAGE.md's Ollama section rests on:
// toOpenAITools' shapes are Ollama's tools, a tool call as Ollama hands it
// (arguments an object, an id, an index) goes to handleToolCall as it is,
// the answer goes back as a string with the tool's name and the call's id,
// and a local model's mistakes come back to it as text, whole or streamed.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Ollama } from "ollama";
import { SUM_OPEN as SUM } from "./adapter-helpers.mjs";
import { llmClientSession } from "./client-factory.mjs";
import { chatError, ollamaServer } from "./fakes/ollama.mjs";

let api, contexts, llm, session;
before(async () => ({ api, contexts, llm, session } = await llmClientSession()));
after(() => api.dispose());

/** An Ollama tool call: what its server sends (an id, the arguments as an object). */
const call = (id, name, args) => ({ id, function: { index: 0, name, arguments: args } });

/**
 * USAGE.md's loop over `ollama` (stream: the client's streamed form, tool
 * calls gathered from its chunks): resolves with the messages.
 */
async function loop(ollama, stream) {
    const tools = llm.toOpenAITools(session);
    const writtenCalls = (content) => {
        try {
            const call = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, ""));
            if (tools.some((t) => t.function.name === call?.name)) return [{ function: { name: call.name, arguments: call.parameters ?? call.arguments ?? {} } }];
        } catch {}
        return [];
    };
    const messages = [
        { role: "system", content: session.getSystemInstruction() },
        { role: "user", content: "Total of the open orders?" },
    ];
    for (;;) {
        let message = { role: "assistant", content: "", tool_calls: [] };
        if (stream) {
            for await (const chunk of await ollama.chat({ model: "qwen3", messages, tools, stream: true })) {
                message.content += chunk.message.content;
                message.tool_calls.push(...(chunk.message.tool_calls ?? []));
            }
        } else {
            ({ message } = await ollama.chat({ model: "qwen3", messages, tools }));
        }
        if (!message.tool_calls?.length) message.tool_calls = writtenCalls(message.content);
        messages.push(message);
        if (!message.tool_calls?.length) return messages;
        for (const c of message.tool_calls) {
            const output = await llm.handleToolCall(session, c, { context: { user: "ada" } });
            messages.push({ role: "tool", tool_name: c.function.name, tool_call_id: c.id, content: JSON.stringify(output) });
        }
    }
}

test("the fake Ollama server refuses what Ollama's server cannot decode", () => {
    const ask = (messages, tools) => ({ model: "qwen3", messages, tools });
    assert.equal(chatError(ask([{ role: "user", content: "q" }])), "");
    // A tool's output as an object, not JSON text.
    assert.match(chatError(ask([{ role: "tool", tool_name: "executeCode", content: { ok: true } }])), /cannot unmarshal object into Go struct field ChatRequest\.messages\.content of type string/);
    // The model's tool calls sent back with the arguments as JSON text (OpenAI's shape).
    assert.match(chatError(ask([{ role: "assistant", content: "", tool_calls: [{ function: { name: "executeCode", arguments: '{"code":"return 1"}' } }] }])), /arguments: cannot unmarshal string/);
    assert.match(chatError(ask([], [{ type: "function", function: { name: "f", parameters: { type: "object", properties: { a: { type: { const: 1 } } } } } }])), /ToolProperty/);
    assert.equal(chatError({ messages: [] }), "model is required");
});

test("a loop over ollama.chat: toOpenAITools as Ollama's tools, calls as Ollama sends them, the model's mistakes answered", async (t) => {
    const server = await ollamaServer([
        {
            // A small local model's calls: a limit as a string, no explanation, a page tool called as an LLM tool, a wrong type.
            tool_calls: [
                call("call_a1", "searchTools", { query: "orders", limit: "5" }),
                call("call_a2", "executeCode", { code: SUM }),
                call("call_a3", "orders.search", { status: "open" }),
                call("call_a4", "executeCode", { code: 5, explanation: "wrong type" }),
            ],
        },
        { content: "The open orders total 47." },
    ]);
    t.after(server.close);
    contexts.length = 0;
    const messages = await loop(new Ollama({ host: server.host }), false);
    assert.equal(messages.at(-1).content, "The open orders total 47.");
    assert.equal(server.requests.length, 2);
    // What Ollama was offered: OpenAI's function tools, the LLM tools' schemas as JSON.
    assert.deepEqual(server.requests[0].tools, JSON.parse(JSON.stringify(llm.toOpenAITools(session))));
    assert.deepEqual(server.requests[0].tools.map((x) => x.function.name), ["searchTools", "executeCode"]);
    // What went back: the model's turn as it came, then one answer per call, in order, as text with the tool's name.
    const sent = server.requests[1].messages;
    assert.deepEqual(sent[2].tool_calls.map((c) => c.id), ["call_a1", "call_a2", "call_a3", "call_a4"]);
    const answers = sent.slice(3);
    assert.deepEqual(
        answers.map((m) => [m.role, m.tool_name, m.tool_call_id]),
        [
            ["tool", "searchTools", "call_a1"],
            ["tool", "executeCode", "call_a2"],
            ["tool", "orders.search", "call_a3"],
            ["tool", "executeCode", "call_a4"],
        ],
    );
    const [hits, sum, unknown, wrong] = answers.map((m) => JSON.parse(m.content));
    assert.deepEqual(hits.map((h) => h.name), ["orders.search"]);
    assert.equal(sum.result, 47, JSON.stringify(sum));
    assert.equal(unknown.error.code, "UNKNOWN_TOOL");
    assert.match(unknown.error.message, /call the page's tools in executeCode's code/);
    assert.equal(wrong.error.code, "INVALID_INPUT");
    assert.match(wrong.error.message, /executeCode: code: expected a string, got the number 5/);
    // The host's context reached the page's tool (once: the run of call_a2).
    assert.deepEqual(contexts, [{ user: "ada" }]);
});

test("streamed (stream: true): the tool calls of the chunks run, and the loop goes on", async (t) => {
    const server = await ollamaServer([{ content: "Let me add them up. ", tool_calls: [call("call_s1", "executeCode", { code: SUM, explanation: "Sum the open orders." })] }, { content: "47." }]);
    t.after(server.close);
    const messages = await loop(new Ollama({ host: server.host }), true);
    assert.equal(messages.at(-1).content, "47.");
    assert.equal(messages[2].content, "Let me add them up. ");
    assert.equal(JSON.parse(messages[3].content).result, 47, messages[3].content);
    assert.equal(server.requests[0].stream, true);
});

test("a tool's output handed to Ollama as an object is refused: the loop must send JSON text", async (t) => {
    const server = await ollamaServer([{ tool_calls: [call("call_o1", "executeCode", { code: "return 1" })] }, { content: "1" }]);
    t.after(server.close);
    const ollama = new Ollama({ host: server.host });
    const messages = [{ role: "user", content: "one?" }];
    const { message } = await ollama.chat({ model: "qwen3", messages, tools: llm.toOpenAITools(session) });
    const output = await llm.handleToolCall(session, message.tool_calls[0]);
    assert.equal(output.result, 1, JSON.stringify(output));
    const next = [...messages, message];
    await assert.rejects(ollama.chat({ model: "qwen3", messages: [...next, { role: "tool", tool_name: "executeCode", content: output }] }), { name: "ResponseError", status_code: 400, message: /messages\.content of type string/ });
    const answered = await ollama.chat({ model: "qwen3", messages: [...next, { role: "tool", tool_name: "executeCode", content: JSON.stringify(output) }] });
    assert.equal(answered.message.content, "1");
});

test("a call a small model writes as text (Llama's { name, parameters }, fenced) runs; JSON that names no tool stays the answer", async (t) => {
    const written = { name: "executeCode", parameters: { code: SUM, explanation: "Sum the open orders." } };
    const server = await ollamaServer([
        { content: "```json\n" + JSON.stringify(written) + "\n```" },
        { content: JSON.stringify({ name: "executeCode", arguments: { code: "return 1" } }) },
        { content: '{"name": "total", "value": 47}' },
    ]);
    t.after(server.close);
    const messages = await loop(new Ollama({ host: server.host }), false);
    assert.equal(messages.at(-1).content, '{"name": "total", "value": 47}');
    const answers = messages.filter((m) => m.role == "tool").map((m) => JSON.parse(m.content));
    assert.deepEqual(answers.map((a) => a.result), [47, 1], JSON.stringify(answers));
    // What Ollama got back: the model's turn with the call it wrote, as a call.
    assert.deepEqual(server.requests[1].messages[2].tool_calls, [{ function: { name: "executeCode", arguments: written.parameters } }]);
});
