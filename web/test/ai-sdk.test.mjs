// A real client: the Vercel AI SDK drives the LLM tools through
// generateText, with a scripted mock model that first calls executeCode and
// then answers from the tool result. Each test runs with ai@7 (its
// MockLanguageModelV4) and ai@6 (the ai-v6 alias, MockLanguageModelV3):
// v7 hands a tool its toolsContext entry as context, v6 the call's
// experimental_context.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as ai7 from "ai";
import { MockLanguageModelV4 } from "ai/test";
import * as ai6 from "ai-v6";
import { MockLanguageModelV3 } from "ai-v6/test";
import { assetPath, loadFactory } from "./helpers.mjs";

const SDKS = [
    // The request's context for every tool, in each version's words.
    { version: "ai@7", ai: ai7, Mock: MockLanguageModelV4, context: (c) => ({ toolsContext: { searchTools: c, executeCode: c } }), contextOf: (o) => o.context },
    { version: "ai@6", ai: ai6, Mock: MockLanguageModelV3, context: (c) => ({ experimental_context: c }), contextOf: (o) => o.experimental_context },
];

let api;
// A factory whose runs time out at once, for the TIMEOUT case.
let shortApi;
const pageCalls = [];
const intercepted = [];

before(async () => {
    const IoCodeModeFactory = await loadFactory();
    shortApi = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 300 });
    api = await IoCodeModeFactory({
        wasmLocation: assetPath,
        interceptors: {
            onToolCall: async ({ tool, callContext }) => {
                intercepted.push({ tool: tool.name, callContext });
                return { allowed: true };
            },
        },
    });
    api.registerTool({
        name: "orders.search",
        description: "Search orders by status.",
        inputSchema: {
            type: "object",
            properties: { status: { type: "string", enum: ["open", "shipped"] } },
            required: ["status"],
        },
        execute: async ({ status }, { context, signal }) => {
            pageCalls.push({ status, context, signal });
            return [
                { id: "o-1", status, total: 30 },
                { id: "o-2", status, total: 12 },
            ];
        },
    });
});
after(() => {
    api.dispose();
    shortApi.dispose();
});

const usage = {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
};

// A model that calls executeCode with `code`, or `toolName` with `input`,
// then answers.
function scriptedModel(Mock, code, toolName = "executeCode", input = { code, explanation: "Sum the open orders." }) {
    const prompts = [];
    const toolDefs = [];
    const model = new Mock({
        doGenerate: async (options) => {
            prompts.push(options.prompt);
            toolDefs.push(options.tools);
            if (prompts.length === 1) {
                return {
                    content: [{ type: "tool-call", toolCallId: "call-1", toolName, input: JSON.stringify(input) }],
                    finishReason: { unified: "tool-calls", raw: "tool_calls" },
                    usage,
                    warnings: [],
                };
            }
            return {
                content: [{ type: "text", text: "The open orders total 42." }],
                finishReason: { unified: "stop", raw: "stop" },
                usage,
                warnings: [],
            };
        },
    });
    return { model, prompts, toolDefs };
}

function toolResultOf(prompt) {
    for (const message of prompt) {
        if (message.role !== "tool") continue;
        for (const part of message.content) if (part.type === "tool-result") return part;
    }
    return undefined;
}

const CODE = `const orders = await tools.orders.search({ status: "open" });
console.log("found", orders.length);
return { total: orders.reduce((s, o) => s + o.total, 0), ids: orders.map((o) => o.id) };`;

for (const { version, ai, Mock, context, contextOf } of SDKS) {
    describe(version, () => {
        const { generateText, jsonSchema, stepCountIs, tool } = ai;

        test("generateText: tool(llmTool) as is, with the request's context and abortSignal", async () => {
            pageCalls.length = 0;
            intercepted.length = 0;
            const session = api.createSession();
            const [searchTools, executeCode] = session.getLlmTools();
            const { model, prompts, toolDefs } = scriptedModel(Mock, CODE);
            const requestMetadata = { user: "alice", tenant: "acme" };
            const controller = new AbortController();

            const result = await generateText({
                model,
                system: session.getSystemInstruction(),
                prompt: "What is the total of the open orders?",
                tools: { searchTools: tool(searchTools), executeCode: tool(executeCode) },
                stopWhen: stepCountIs(3),
                ...context(requestMetadata),
                abortSignal: controller.signal,
            });

            assert.equal(result.text, "The open orders total 42.");
            assert.equal(prompts.length, 2);

            // The model was offered both tools, with plain JSON Schema.
            const offered = Object.fromEntries(toolDefs[0].map((t) => [t.name, t]));
            assert.deepEqual(Object.keys(offered).sort(), ["executeCode", "searchTools"]);
            assert.deepEqual(offered.executeCode.inputSchema, JSON.parse(JSON.stringify(executeCode.inputSchema)));
            assert.equal(offered.executeCode.description, executeCode.description);

            // The tool result reached the model's next prompt.
            const part = toolResultOf(prompts[1]);
            assert.ok(part, "the second prompt carries the tool result");
            assert.equal(part.toolCallId, "call-1");
            assert.equal(part.toolName, "executeCode");
            assert.equal(part.output.type, "json");
            assert.equal(part.output.value.ok, true, JSON.stringify(part.output.value));
            assert.deepEqual(part.output.value.result, { total: 42, ids: ["o-1", "o-2"] });
            assert.deepEqual(part.output.value.logs, [{ level: "log", message: "found 2" }]);

            // The AI SDK's context (v7 toolsContext, v6 experimental_context) reached the page tool and onToolCall;
            // its abortSignal is the run's signal (the tool got a live, unaborted one).
            assert.equal(pageCalls.length, 1);
            assert.equal(pageCalls[0].context, requestMetadata);
            assert.equal(pageCalls[0].signal.aborted, false);
            assert.deepEqual(intercepted, [{ tool: "orders.search", callContext: requestMetadata }]);

            // The steps record the call too.
            const toolResults = result.steps.flatMap((s) => s.toolResults);
            assert.equal(toolResults.length, 1);
            assert.equal(toolResults[0].output.ok, true);
        });

        test("generateText: the raw LLM tools as the tool set, and jsonSchema() wrapping also works", async () => {
            pageCalls.length = 0;
            const session = api.createSession();
            const llm = session.getLlmTools();
            const executeCode = llm.find((t) => t.name === "executeCode");

            // 1. The raw objects, keyed by name.
            {
                const { model, prompts } = scriptedModel(Mock, CODE);
                const result = await generateText({
                    model,
                    prompt: "Total?",
                    tools: Object.fromEntries(llm.map((t) => [t.name, t])),
                    stopWhen: stepCountIs(3),
                    ...context({ via: "raw" }),
                });
                assert.equal(result.text, "The open orders total 42.");
                assert.deepEqual(toolResultOf(prompts[1]).output.value.result.total, 42);
                assert.deepEqual(pageCalls.at(-1).context, { via: "raw" });
            }

            // 2. A TypeScript-style wrapper: jsonSchema(inputSchema) and a custom execute.
            {
                const { model, prompts } = scriptedModel(Mock, CODE);
                await generateText({
                    model,
                    prompt: "Total?",
                    tools: {
                        executeCode: tool({
                            description: executeCode.description,
                            inputSchema: jsonSchema(executeCode.inputSchema),
                            execute: (args, options) => executeCode.execute(args, { signal: options.abortSignal, context: contextOf(options) }),
                        }),
                    },
                    stopWhen: stepCountIs(3),
                    ...context({ via: "wrapper" }),
                });
                assert.deepEqual(toolResultOf(prompts[1]).output.value.result.total, 42);
                assert.deepEqual(pageCalls.at(-1).context, { via: "wrapper" });
            }
        });

        // A failed call reached the model as "json", a success, which is
        // what providers sent on (Anthropic's tool_result without is_error):
        // the LLM tools' toModelOutput makes an ok: false result
        // "error-json" (is_error), the whole result, its logs too.
        const FAILURES = [
            ["a syntax error", "executeCode", { code: "const x = ;", explanation: "x" }, "SYNTAX"],
            ["a thrown error, after a log line", "executeCode", { code: 'console.log("before"); throw new Error("boom")', explanation: "x" }, "RUNTIME", "before"],
            ["an unknown page tool", "executeCode", { code: "return await tools.orders.nope({})", explanation: "x" }, "RUNTIME"],
            ["a run past the factory's timeout", "executeCode", { code: "await new Promise((r) => setTimeout(r, 60000))", explanation: "x" }, "TIMEOUT"],
            ["code of the wrong type", "executeCode", { code: 5, explanation: "x" }, "INVALID_INPUT"],
            ["searchTools with a limit of the wrong type", "searchTools", { limit: "ten" }, "INVALID_INPUT"],
        ];
        for (const [what, toolName, input, code, log] of FAILURES) {
            test(`generateText: a failed call (${what}) reaches the model as an error: error-json, the whole result`, async () => {
                const session = (code === "TIMEOUT" ? shortApi : api).createSession();
                const { model, prompts } = scriptedModel(Mock, undefined, toolName, input);
                const [searchTools, executeCode] = session.getLlmTools();
                await generateText({ model, prompt: "Total?", tools: { searchTools: tool(searchTools), executeCode: tool(executeCode) }, stopWhen: stepCountIs(3) });
                const part = toolResultOf(prompts[1]);
                assert.equal(part.output.type, "error-json", JSON.stringify(part.output));
                assert.equal(part.output.value.ok, false);
                assert.equal(part.output.value.error.code, code, JSON.stringify(part.output.value));
                if (log) assert.deepEqual(part.output.value.logs, [{ level: "log", message: log }]);
            });
        }

        test("generateText: a search's hits and a run's success stay json, as the AI SDK sends them by default", async () => {
            const session = api.createSession();
            const [searchTools, executeCode] = session.getLlmTools();
            for (const [toolName, input, check] of [
                ["searchTools", { query: "orders" }, (v) => assert.deepEqual(v.map((h) => h.name), ["orders.search"])],
                ["executeCode", { code: CODE, explanation: "x" }, (v) => assert.deepEqual(v.result, { total: 42, ids: ["o-1", "o-2"] })],
            ]) {
                const { model, prompts } = scriptedModel(Mock, undefined, toolName, input);
                const { steps } = await generateText({ model, prompt: "Total?", tools: { searchTools: tool(searchTools), executeCode: tool(executeCode) }, stopWhen: stepCountIs(3) });
                const part = toolResultOf(prompts[1]);
                assert.equal(part.output.type, "json", JSON.stringify(part.output));
                check(part.output.value);
                // What the SDK's own default makes of the same output.
                assert.deepEqual(part.output, { type: "json", value: steps[0].toolResults[0].output });
            }
        });

        test("toModelOutput takes v6/v7's { toolCallId, input, output } and v5's output, never a polluted Object.prototype's fields", async () => {
            const session = api.createSession();
            const [searchTools, executeCode] = session.getLlmTools();
            const hits = await searchTools.execute({ query: "orders" });
            const failed = await executeCode.execute({ code: "const x = ;", explanation: "x" });
            assert.equal(searchTools.toModelOutput, executeCode.toModelOutput);
            for (const [output, type] of [
                [hits, "json"],
                [failed, "error-json"],
                ["plain text, from an execute of the caller's", "text"],
            ]) {
                assert.deepEqual(executeCode.toModelOutput({ toolCallId: "c1", input: {}, output }), { type, value: output });
                assert.deepEqual(executeCode.toModelOutput(output), { type, value: output });
            }
            Object.prototype.toolCallId = "c9";
            Object.prototype.ok = false;
            try {
                assert.deepEqual(executeCode.toModelOutput(hits), { type: "json", value: hits });
                assert.deepEqual(executeCode.toModelOutput({ toolCallId: "c1", input: {}, output: hits }), { type: "json", value: hits });
            } finally {
                delete Object.prototype.toolCallId;
                delete Object.prototype.ok;
            }
        });

        test("streamText, a tool() of the TypeScript form given toModelOutput, and convertToModelMessages (useChat's results): error-json", async () => {
            const session = api.createSession();
            const [, executeCode] = session.getLlmTools();
            const input = { code: "const x = ;", explanation: "x" };
            // streamText, the tool as is.
            {
                const prompts = [];
                const finish = (unified) => ({ type: "finish", finishReason: { unified, raw: undefined }, usage });
                const turns = [
                    [{ type: "stream-start", warnings: [] }, { type: "tool-call", toolCallId: "call-1", toolName: "executeCode", input: JSON.stringify(input) }, finish("tool-calls")],
                    [{ type: "stream-start", warnings: [] }, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "A syntax error." }, { type: "text-end", id: "t" }, finish("stop")],
                ];
                const model = new Mock({ doStream: async (options) => ({ stream: ai.simulateReadableStream({ chunks: turns[prompts.push(options.prompt) - 1], initialDelayInMs: null, chunkDelayInMs: null }) }) });
                const result = ai.streamText({ model, prompt: "Total?", tools: { executeCode: tool(executeCode) }, stopWhen: stepCountIs(3) });
                assert.equal(await result.text, "A syntax error.");
                const part = toolResultOf(prompts[1]);
                assert.equal(part.output.type, "error-json", JSON.stringify(part.output));
                assert.equal(part.output.value.error.code, "SYNTAX");
            }
            // USAGE's TypeScript form: jsonSchema(), its own execute, the tool's toModelOutput.
            {
                const { model, prompts } = scriptedModel(Mock, undefined, "executeCode", input);
                const wrapped = tool({
                    description: executeCode.description,
                    inputSchema: jsonSchema(executeCode.inputSchema),
                    execute: (args, options) => executeCode.execute(args, { ...options, context: { via: "wrapper" } }),
                    toModelOutput: executeCode.toModelOutput,
                });
                await generateText({ model, prompt: "Total?", tools: { executeCode: wrapped }, stopWhen: stepCountIs(3) });
                assert.equal(toolResultOf(prompts[1]).output.type, "error-json");
            }
            // A chat's UI messages (useChat), turned into the model's prompt on the server.
            {
                const failed = await executeCode.execute(input);
                const ok = await executeCode.execute({ code: "return 1", explanation: "x" });
                const part = (toolCallId, output) => ({ type: "tool-executeCode", toolCallId, state: "output-available", input, output });
                const messages = await ai.convertToModelMessages(
                    [
                        { role: "user", parts: [{ type: "text", text: "Total?" }] },
                        { role: "assistant", parts: [part("c1", failed), part("c2", ok)] },
                    ],
                    { tools: { executeCode: tool(executeCode) } },
                );
                const outputs = messages.filter((m) => m.role === "tool").flatMap((m) => m.content.map((p) => [p.toolCallId, p.output.type, p.output.value.ok]));
                assert.deepEqual(outputs, [
                    ["c1", "error-json", false],
                    ["c2", "json", true],
                ]);
            }
        });

        test("generateText: aborting the AI SDK's abortSignal aborts the run", async () => {
            const session = api.createSession();
            let started;
            const startedP = new Promise((r) => (started = r));
            const unregister = api.registerTool({
                name: "slow.op",
                execute: (input, { signal }) =>
                    new Promise((resolve, reject) => {
                        started(signal);
                        signal.addEventListener("abort", () => reject(signal.reason));
                    }),
            });
            try {
                const { model } = scriptedModel(Mock, "return await tools.slow.op({})");
                const controller = new AbortController();
                const p = generateText({
                    model,
                    prompt: "Go",
                    tools: { executeCode: tool(session.getLlmTools()[1]) },
                    stopWhen: stepCountIs(3),
                    abortSignal: controller.signal,
                });
                const toolSignal = await startedP;
                const reason = new Error("user cancelled");
                controller.abort(reason);
                await assert.rejects(p);
                for (let i = 0; i < 50 && !toolSignal.aborted; i++) await new Promise((r) => setTimeout(r, 10));
                assert.equal(toolSignal.aborted, true, "the page tool's signal was aborted");
            } finally {
                unregister();
            }
        });
    });
}
