// A real client: a Mastra agent (@mastra/core) given the LLM tools as they
// are (Mastra takes AI SDK tools), with the AI SDK's mock model
// (MockLanguageModelV4, ai/test; Mastra runs AI SDK models) scripted to call
// them. Mastra calls an AI SDK tool's execute with options of its own
// (requestContext, actor, workspace, ...): every call of such an agent was
// a TypeError ("unknown key ...") before execute took them.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Agent } from "@mastra/core/agent";
import { RequestContext } from "@mastra/core/request-context";
import { createTool } from "@mastra/core/tools";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";
import { SUM_OPEN, abortsRun } from "./adapter-helpers.mjs";
import { clientFactory } from "./client-factory.mjs";

let api, intercepted, events;
before(async () => ({ api, contexts: intercepted, events } = await clientFactory()));
after(() => api.dispose());

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const call = (toolCallId, toolName, input) => ({ type: "tool-call", toolCallId, toolName, input: typeof input == "string" ? input : JSON.stringify(input) });

/** A mock model that answers with each of `turns` in order (its content parts); `prompts` gets each request. */
function scripted(turns) {
    const prompts = [];
    const model = new MockLanguageModelV4({
        doGenerate: async (options) => {
            prompts.push(options);
            const content = turns[prompts.length - 1] ?? [{ type: "text", text: "(no more turns)" }];
            return { content, finishReason: { unified: content.some((p) => p.type == "tool-call") ? "tool-calls" : "stop", raw: undefined }, usage, warnings: [] };
        },
    });
    return { model, prompts };
}

/** The tool results the model was sent, by call id: the output's value. */
const results = (prompts) =>
    Object.fromEntries(
        prompts
            .flatMap((p) => p.prompt)
            .filter((m) => m.role == "tool")
            .flatMap((m) => m.content)
            .map((r) => [r.toolCallId, r.output]),
    );

test("a Mastra agent runs the LLM tools as they are: calls round-trip, the model's mistakes come back as text", async () => {
    const session = api.createSession();
    const [searchTools, executeCode] = session.getLlmTools();
    const { model, prompts } = scripted([
        [call("c1", "searchTools", { query: "orders" })],
        [
            // No explanation: the tools read it as absent (Mastra checks no AI SDK tool's input).
            call("c2", "executeCode", { code: SUM_OPEN }),
            call("c3", "executeCode", { code: 5, explanation: "wrong type" }),
            call("c4", "orders.search", { status: "open" }),
        ],
        [{ type: "text", text: "The open orders total 47." }],
    ]);
    const agent = new Agent({ id: "orders", name: "Orders", instructions: session.getSystemInstruction(), model, tools: { searchTools, executeCode } });
    const requestContext = new RequestContext([["user", "ada"]]);
    intercepted.length = 0;
    const result = await agent.generate("What is the total of the open orders?", { maxSteps: 5, requestContext });
    assert.equal(result.text, "The open orders total 47.");
    // The tools as Mastra sent them to the model: our schemas.
    assert.deepEqual(
        prompts[0].tools.map((t) => [t.name, t.inputSchema.properties]),
        session.getLlmTools().map((t) => [t.name, t.inputSchema.properties]),
    );
    const out = results(prompts);
    assert.deepEqual(Object.keys(out), ["c1", "c2", "c3", "c4"]);
    assert.equal(out.c1.type, "json", JSON.stringify(out.c1));
    assert.deepEqual(out.c1.value.map((h) => h.name), ["orders.search"]);
    assert.equal(out.c2.value.ok, true, JSON.stringify(out.c2));
    assert.equal(out.c2.value.result, 47);
    assert.equal(out.c2.type, "json");
    // A failed call is sent as a failure (Mastra calls the tools'
    // toModelOutput as AI SDK v5 did, with the output): "json" before.
    assert.equal(out.c3.type, "error-json", JSON.stringify(out.c3));
    assert.equal(out.c3.value.error.code, "INVALID_INPUT", JSON.stringify(out.c3));
    assert.match(out.c3.value.error.message, /executeCode: code: expected a string, got the number 5/);
    // A page tool called as an LLM tool: Mastra's own answer, which names the tools.
    assert.match(JSON.stringify(out.c4), /searchTools, executeCode/);
    // Mastra's requestContext is the run's context: onToolCall's callContext.
    assert.equal(intercepted.length, 1);
    assert.equal(intercepted[0], requestContext);
    assert.equal(intercepted[0].get("user"), "ada");
    session.dispose();
});

test("a Mastra agent's abortSignal stops a run in flight (it reaches execute as abortSignal)", async () => {
    const session = api.createSession();
    const [searchTools, executeCode] = session.getLlmTools();
    const { model } = scripted([[call("c1", "executeCode", { code: "await new Promise((r) => setTimeout(r, 60000));", explanation: "wait" })], [{ type: "text", text: "stopped" }]]);
    const agent = new Agent({ id: "spin", name: "Spin", instructions: "x", model, tools: { searchTools, executeCode } });
    const controller = new AbortController();
    events.length = 0;
    // However Mastra reports it, the run ended with the abort, not at its 30 s timeout.
    await abortsRun(events, controller, agent.generate("wait", { maxSteps: 3, abortSignal: controller.signal }));
    session.dispose();
});

test("Mastra's createTool takes the schema as it is, and refuses what the schema refuses before execute", async () => {
    const session = api.createSession();
    const tools = Object.fromEntries(
        session.getLlmTools().map((t) => [t.name, createTool({ id: t.name, description: t.description, inputSchema: t.inputSchema, execute: (input, { abortSignal }) => t.execute(input, { signal: abortSignal }) })]),
    );
    const { model, prompts } = scripted([
        [call("c1", "executeCode", { code: SUM_OPEN, explanation: "Sum the open orders." }), call("c2", "executeCode", { code: SUM_OPEN })],
        [{ type: "text", text: "The open orders total 47." }],
    ]);
    const agent = new Agent({ id: "created", name: "Created", instructions: session.getSystemInstruction(), model, tools });
    assert.equal((await agent.generate("Total?", { maxSteps: 3 })).text, "The open orders total 47.");
    const out = results(prompts);
    assert.equal(out.c1.value.result, 47, JSON.stringify(out.c1));
    // Without explanation: Mastra's own refusal, as text the model reads.
    assert.match(JSON.stringify(out.c2), /Tool input validation failed for executeCode.*must have required property 'explanation'/);
    session.dispose();
});

test("a Mastra agent's stream() runs them too (it passes execute the same options)", async () => {
    const session = api.createSession();
    const [searchTools, executeCode] = session.getLlmTools();
    const finish = (unified) => ({ type: "finish", finishReason: { unified, raw: undefined }, usage });
    const turns = [
        [{ type: "stream-start", warnings: [] }, call("c1", "executeCode", { code: SUM_OPEN }), finish("tool-calls")],
        [{ type: "stream-start", warnings: [] }, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "The open orders total 47." }, { type: "text-end", id: "t" }, finish("stop")],
    ];
    const prompts = [];
    const model = new MockLanguageModelV4({ doStream: async (options) => ({ stream: convertArrayToReadableStream(turns[prompts.push(options) - 1]) }) });
    const agent = new Agent({ id: "streamed", name: "Streamed", instructions: session.getSystemInstruction(), model, tools: { searchTools, executeCode } });
    const stream = await agent.stream("Total?", { maxSteps: 3 });
    assert.equal(await stream.text, "The open orders total 47.");
    const out = results(prompts);
    assert.equal(out.c1.value.result, 47, JSON.stringify(out.c1));
    session.dispose();
});

test("arguments that are not JSON: Mastra repairs some itself, and what it cannot read reaches the tools as none", async (t) => {
    const logged = t.mock.method(console, "error", () => {});
    const session = api.createSession();
    const [searchTools, executeCode] = session.getLlmTools();
    const { model, prompts } = scripted([
        // A comma before the brace: Mastra's own repair reads it.
        [call("c1", "executeCode", '{"code":"return 6 * 7",}')],
        // The same with a program that quotes in '...': Mastra's repair makes every ' a ", and gives up.
        [call("c2", "executeCode", JSON.stringify({ code: SUM_OPEN }).replace(/}$/, ",}"))],
        // A program sent alone, as the tools would read it.
        [call("c3", "executeCode", "return 1")],
        [{ type: "text", text: "done" }],
    ]);
    const agent = new Agent({ id: "unparsed", name: "Unparsed", instructions: session.getSystemInstruction(), model, tools: { searchTools, executeCode } });
    assert.equal((await agent.generate("Total?", { maxSteps: 5 })).text, "done");
    const out = results(prompts);
    assert.equal(out.c1.value.result, 42, JSON.stringify(out.c1));
    for (const id of ["c2", "c3"]) {
        assert.equal(out[id].type, "error-json", JSON.stringify(out[id]));
        // Was "executeCode: code: required; expected a string": the model, which sent code, was not told that none arrived.
        assert.equal(out[id].value.error.message, "executeCode: code: required; expected a string, got no arguments (clients drop arguments that are not valid JSON): send one JSON object { code: string; explanation?: string }");
    }
    assert.deepEqual(logged.mock.calls.map((c) => [c.arguments[0], c.arguments[1].toolCallId]), [["Error converting tool call input to JSON", "c2"], ["Error converting tool call input to JSON", "c3"]]);
    session.dispose();
});
