// Type check of @interopio/code-mode/llm against the providers' own SDK
// types (`tsc -p web/types-check/tsconfig.adapters.json`): the loops of
// web/USAGE.md, in TypeScript. Nothing here runs.
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { betaTool } from "@anthropic-ai/sdk/helpers/beta/json-schema";
import { tool as langChainTool } from "@langchain/core/tools";
import { HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { createAgent, createMiddleware } from "langchain";
import type { IoCodeMode } from "@interopio/code-mode";
import { handleToolCall, toAnthropicTools, toOpenAIResponsesTools, toOpenAITools } from "@interopio/code-mode/llm";

declare const session: IoCodeMode.Session;
declare const signal: AbortSignal;
declare const requestMetadata: { user: string };

export async function openAIChat(openai: OpenAI, question: string): Promise<string | null> {
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = toOpenAITools(session);
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
        { role: "system", content: session.getSystemInstruction() },
        { role: "user", content: question },
    ];
    for (;;) {
        const completion = await openai.chat.completions.create({ model: "gpt-4.1", messages, tools });
        const message = completion.choices[0].message;
        messages.push(message);
        if (!message.tool_calls?.length) return message.content;
        for (const call of message.tool_calls) {
            if (call.type !== "function") continue;
            const output = await handleToolCall(session, call.function.name, call.function.arguments, { signal, context: requestMetadata });
            await handleToolCall(session, call, { context: requestMetadata });
            messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(output) });
        }
    }
}

// Strict tools, as chat.completions.parse() requires, and the Responses
// API's and Anthropic's strict shapes.
export async function openAIParse(openai: OpenAI): Promise<unknown> {
    const tools: OpenAI.Chat.Completions.ChatCompletionFunctionTool[] = toOpenAITools(session, { strict: true });
    const res = await openai.chat.completions.parse({ model: "gpt-4.1", messages: [{ role: "user", content: "?" }], tools });
    const call = res.choices[0].message.tool_calls?.[0];
    return call && call.type === "function" ? handleToolCall(session, call.function.name, call.function.parsed_arguments) : undefined;
}
export const strictResponses: OpenAI.Responses.FunctionTool[] = toOpenAIResponsesTools(session, { strict: true });
export const strictAnthropic: Anthropic.Tool[] = toAnthropicTools(session, { strict: true });

export async function openAIResponses(openai: OpenAI, question: string): Promise<string> {
    const tools: OpenAI.Responses.Tool[] = toOpenAIResponsesTools(session);
    let input: OpenAI.Responses.ResponseInput = [{ role: "user", content: question }];
    for (;;) {
        const res = await openai.responses.create({ model: "gpt-4.1", instructions: session.getSystemInstruction(), input, tools });
        const calls = res.output.filter((item) => item.type === "function_call");
        if (!calls.length) return res.output_text;
        // openai 7 types some output items wider than their input form (a
        // computer call output's status may be "failed", its input's not):
        // the output goes back as the API documents it.
        input = [...input, ...(res.output as OpenAI.Responses.ResponseInputItem[])];
        for (const item of calls) {
            const output = await handleToolCall(session, item.name, item.arguments, { signal });
            await handleToolCall(session, item);
            input.push({ type: "function_call_output", call_id: item.call_id, output: JSON.stringify(output) });
        }
    }
}

export async function anthropicMessages(anthropic: Anthropic, question: string): Promise<string> {
    const tools: Anthropic.Tool[] = toAnthropicTools(session);
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: question }];
    for (;;) {
        const response = await anthropic.messages.create({
            model: "claude-sonnet-4-5",
            max_tokens: 4096,
            system: session.getSystemInstruction(),
            tools,
            messages,
        });
        messages.push({ role: "assistant", content: response.content });
        if (response.stop_reason !== "tool_use") {
            return response.content.map((b) => (b.type === "text" ? b.text : "")).join("");
        }
        const results: Anthropic.ToolResultBlockParam[] = [];
        for (const block of response.content) {
            if (block.type !== "tool_use") continue;
            const output = await handleToolCall(session, block.name, block.input, { signal, context: requestMetadata });
            // The block itself, as the SDK hands it, runs the same.
            await handleToolCall(session, block, { signal });
            results.push({ type: "tool_result", tool_use_id: block.id, content: JSON.stringify(output), is_error: "ok" in output && output.ok === false });
        }
        messages.push({ role: "user", content: results });
    }
}

// The SDK's own loop (beta.messages.toolRunner) around the same shapes.
export async function anthropicToolRunner(anthropic: Anthropic, question: string): Promise<Anthropic.Beta.BetaMessage> {
    const tools = toAnthropicTools(session).map((t) =>
        betaTool({ name: t.name, description: t.description, inputSchema: t.input_schema, run: async (input) => JSON.stringify(await handleToolCall(session, t.name, input)) }),
    );
    return anthropic.beta.messages.toolRunner({ model: "claude-sonnet-4-5", max_tokens: 4096, system: session.getSystemInstruction(), tools, messages: [{ role: "user", content: question }] });
}

// openai's own loop (chat.completions.runTools) around the same shapes.
export async function openAIRunTools(openai: OpenAI, question: string): Promise<string | null> {
    const tools = toOpenAITools(session).map((t) => ({
        type: "function" as const,
        function: { ...t.function, function: (args: string) => handleToolCall(session, t.function.name, args, { signal }) },
    }));
    return openai.chat.completions.runTools({ model: "gpt-4.1", messages: [{ role: "user", content: question }], tools }).finalContent();
}

// USAGE "With LangChain.js": LangChain's tool() around the LLM tools. A JSON
// Schema carries no TypeScript type, so LangChain hands `args` over as
// unknown: the cast USAGE names.
export function langChainTools() {
    return session.getLlmTools().map((t) =>
        langChainTool((args, config) => t.execute(args as IoCodeMode.ExecuteCodeArgs | IoCodeMode.SearchToolsArgs, { signal: config.signal, context: requestMetadata }).then(JSON.stringify), {
            name: t.name,
            description: t.description,
            schema: t.inputSchema,
            verboseParsingErrors: true,
        }),
    );
}

// createAgent with the middleware that answers calls whose arguments
// LangChain could not parse, from their text, by handleToolCall.
export function langChainAgent(model: BaseChatModel) {
    const unparsed = new Map<string | undefined, string | undefined>();
    const invalidToolCalls = createMiddleware({
        name: "InvalidToolCalls",
        wrapModelCall: async (request, handler) => {
            const reply = await handler(request);
            for (const { id, name, args } of reply.invalid_tool_calls ?? []) {
                unparsed.set(id, args);
                reply.tool_calls = [...(reply.tool_calls ?? []), { id, name: name ?? "", args: {}, type: "tool_call" }];
            }
            reply.invalid_tool_calls = [];
            return reply;
        },
        wrapToolCall: async (request, handler) => {
            const { id, name } = request.toolCall;
            if (!unparsed.has(id)) return handler(request);
            const args = unparsed.get(id);
            unparsed.delete(id);
            const output = await handleToolCall(session, name, args, { signal: request.runtime.signal, context: requestMetadata });
            return new ToolMessage({ tool_call_id: id ?? "", name, content: JSON.stringify(output) });
        },
    });
    return createAgent({ model, tools: langChainTools(), systemPrompt: session.getSystemInstruction(), middleware: [invalidToolCalls] });
}

// A loop of one's own, its calls run by handleToolCall.
export async function langChainLoop(model: BaseChatModel, question: string): Promise<BaseMessage[]> {
    const withTools = model.bindTools!(langChainTools());
    const messages: BaseMessage[] = [new SystemMessage(session.getSystemInstruction()), new HumanMessage(question)];
    for (;;) {
        const reply = await withTools.invoke(messages, { signal });
        const calls = [...(reply.tool_calls ?? []), ...(reply.invalid_tool_calls ?? [])];
        reply.tool_calls = calls.map(({ id, name, args }) => ({ id, name: name ?? "", args: typeof args === "object" ? args : {}, type: "tool_call" }));
        reply.invalid_tool_calls = [];
        messages.push(reply);
        if (!calls.length) return messages;
        for (const call of calls) {
            const output = await handleToolCall(session, call.name ?? "", call.args, { signal, context: requestMetadata });
            messages.push(new ToolMessage({ tool_call_id: call.id ?? "", content: JSON.stringify(output) }));
        }
    }
}
