// handleToolCall(session, call) given the call object as each SDK hands it
// to the user, taken from the SDK's own parsing of a provider's reply (the
// real clients over a scripted fetch, the AI SDK over its own mock model),
// not written by hand: a field an SDK renames or nests would fail here.
// Bedrock's content block and Gemini's part, which handleToolCall answers
// with the block or part the API takes back, run in bedrock.test.mjs and
// gemini.test.mjs against their fake servers; Ollama's, Mistral's, Cohere's
// (API v2) and Groq's calls in their own files.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { ChatOpenAI } from "@langchain/openai";
import { generateText, jsonSchema, tool } from "ai";
import { CohereClient } from "cohere-ai";
import { MockLanguageModelV4 } from "ai/test";
import { SUM_OPEN as SUM, anthropicMessage, completion, responsesCall, responsesReply, scriptedFetch } from "./adapter-helpers.mjs";
import { llmClientSession } from "./client-factory.mjs";
import { cohereServer } from "./fakes/cohere.mjs";

let api, contexts, llm, session;
before(async () => ({ api, contexts, llm, session } = await llmClientSession()));
after(() => api.dispose());

const ARGS = { code: SUM, explanation: "Sum the open orders." };

/** Runs each call as it is, with a context: each sums the open orders (47) and the page's tool saw the context. */
async function runsAsIs(calls) {
    assert.ok(calls.length > 0, "the SDK handed no call");
    for (const call of calls) {
        contexts.length = 0;
        const out = await llm.handleToolCall(session, call, { context: { user: "ada" } });
        assert.equal(out.result, 47, `${JSON.stringify(call)}: ${JSON.stringify(out)}`);
        assert.deepEqual(contexts, [{ user: "ada" }]);
    }
}

test("OpenAI Chat Completions: a message's tool_calls[i] and its function", async () => {
    const { fetch } = scriptedFetch([completion({ tool_calls: [{ id: "call_1", type: "function", function: { name: "executeCode", arguments: JSON.stringify(ARGS) } }] }, "tool_calls")]);
    const openai = new OpenAI({ apiKey: "test-key", baseURL: "http://127.0.0.1:9/v1", fetch, maxRetries: 0 });
    const { choices } = await openai.chat.completions.create({ model: "gpt-4.1", messages: [{ role: "user", content: "q" }], tools: llm.toOpenAITools(session) });
    const [call] = choices[0].message.tool_calls;
    await runsAsIs([call, call.function]);
});

test("OpenAI Responses: a function_call item of response.output", async () => {
    const { fetch } = scriptedFetch([responsesReply([responsesCall("call_2", "executeCode", ARGS)])]);
    const openai = new OpenAI({ apiKey: "test-key", baseURL: "http://127.0.0.1:9/v1", fetch, maxRetries: 0 });
    const response = await openai.responses.create({ model: "gpt-4.1", input: "q", tools: llm.toOpenAIResponsesTools(session) });
    await runsAsIs(response.output.filter((item) => item.type === "function_call"));
});

test("Anthropic Messages: a tool_use block of message.content", async () => {
    const { fetch } = scriptedFetch([anthropicMessage([{ type: "text", text: "Adding up." }, { type: "tool_use", id: "toolu_1", name: "executeCode", input: ARGS }], "tool_use")]);
    const anthropic = new Anthropic({ apiKey: "test-key", baseURL: "http://127.0.0.1:9", fetch, maxRetries: 0 });
    const message = await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: "q" }], tools: llm.toAnthropicTools(session) });
    await runsAsIs(message.content.filter((block) => block.type === "tool_use"));
});

test("LangChain: a ToolCall of an AIMessage's tool_calls ({ name, args, id, type })", async () => {
    const { fetch } = scriptedFetch([completion({ tool_calls: [{ id: "call_3", type: "function", function: { name: "executeCode", arguments: JSON.stringify(ARGS) } }] }, "tool_calls")]);
    const model = new ChatOpenAI({ model: "gpt-4.1", apiKey: "test-key", maxRetries: 0, configuration: { fetch } }).bindTools(llm.toOpenAITools(session));
    const message = await model.invoke("q");
    assert.deepEqual(Object.keys(message.tool_calls[0]).sort(), ["args", "id", "name", "type"]);
    await runsAsIs(message.tool_calls);
});

test("Vercel AI SDK: a tool call of generateText's result.toolCalls ({ toolCallId, toolName, input })", async () => {
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
    const model = new MockLanguageModelV4({
        doGenerate: async () => ({ content: [{ type: "tool-call", toolCallId: "call_4", toolName: "executeCode", input: JSON.stringify(ARGS) }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] }),
    });
    // Tools without execute: the calls come back to the caller, as in a loop of the caller's own.
    const tools = Object.fromEntries(session.getLlmTools().map((t) => [t.name, tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema) })]));
    const result = await generateText({ model, prompt: "q", tools });
    assert.equal(result.toolCalls[0].toolName, "executeCode");
    await runsAsIs(result.toolCalls);
});

// Cohere's API v1 (and the JSON calls Llama-style models write) name the
// arguments `parameters`: handleToolCall read none, and executeCode
// answered that the code the model had sent was missing.
test("Cohere API v1: a tool call of response.toolCalls ({ name, parameters })", async (t) => {
    const server = await cohereServer([{ tool_calls: [{ name: "executeCode", parameters: ARGS }] }]);
    t.after(server.close);
    const cohere = new CohereClient({ token: "test-key", baseUrl: server.baseUrl });
    const response = await cohere.chat({ model: "command-r-plus", message: "q", tools: [{ name: "executeCode", description: "d", parameterDefinitions: { code: { type: "str", required: true } } }] }, { maxRetries: 0 });
    assert.deepEqual(Object.keys(response.toolCalls[0]).sort(), ["name", "parameters"]);
    await runsAsIs(response.toolCalls);
});
