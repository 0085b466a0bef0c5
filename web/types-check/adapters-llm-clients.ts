// Type check of the USAGE.md sections on Google Gemini (@google/genai), the
// OpenAI Agents SDK (@openai/agents), Mastra (@mastra/core), Ollama (ollama),
// Amazon Bedrock (@aws-sdk/client-bedrock-runtime), Groq (groq-sdk), Mistral
// (@mistralai/mistralai) and Cohere (cohere-ai) against the
// SDKs' own types (`tsc -p web/types-check/tsconfig.adapters.json`): their
// blocks in TypeScript, with the casts those sections give for TypeScript.
// Nothing here runs.
import { GoogleGenAI, type CallableTool, type Content, type FunctionCall, type FunctionDeclaration, type Part } from "@google/genai";
import { Agent as OpenAIAgent, run, tool, type JsonSchemaDefinition } from "@openai/agents";
import { Agent as MastraAgent, type ToolsInput } from "@mastra/core/agent";
import { RequestContext } from "@mastra/core/request-context";
import { createTool } from "@mastra/core/tools";
import type { MastraModelConfig } from "@mastra/core/llm";
import { Ollama, type Message as OllamaMessage, type ToolCall as OllamaToolCall } from "ollama";
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand, type ContentBlock, type Message as BedrockMessage, type ToolConfiguration, type ToolUseBlock } from "@aws-sdk/client-bedrock-runtime";
import Groq from "groq-sdk";
import { Mistral } from "@mistralai/mistralai";
import { CohereClientV2, type Cohere } from "cohere-ai";
import type { ChatCompletionRequestMessage as MistralMessage } from "@mistralai/mistralai/models/components";
import type { IoCodeMode } from "@interopio/code-mode";
import { handleToolCall, toOpenAITools } from "@interopio/code-mode/llm";

declare const session: IoCodeMode.Session;
declare const signal: AbortSignal;
const requestMetadata = { user: "ada" };

export async function gemini(apiKey: string, question: string): Promise<string | undefined> {
    const ai = new GoogleGenAI({ apiKey });
    const functionDeclarations: FunctionDeclaration[] = session.getLlmTools().map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.inputSchema }));
    const contents: Content[] = [{ role: "user", parts: [{ text: question }] }];
    for (;;) {
        const response = await ai.models.generateContent({
            model: "gemini-2.5-flash",
            contents,
            config: { systemInstruction: session.getSystemInstruction(), tools: [{ functionDeclarations }], abortSignal: signal },
        });
        const turn = response.candidates?.[0]?.content;
        const calls = turn?.parts?.filter((part) => part.functionCall) ?? [];
        if (!turn || !calls.length) return response.text;
        // A Part (its functionCall optional, as the SDK types every part) goes in as it is; its answer is a Part.
        const parts: Part[] = await Promise.all(calls.map((part) => handleToolCall(session, part, { signal, context: requestMetadata })));
        contents.push(turn, { role: "user", parts });
    }
}

export async function geminiAutomatic(ai: GoogleGenAI, functionDeclarations: FunctionDeclaration[], question: string): Promise<string | undefined> {
    const codeModeTool: CallableTool = {
        tool: async () => ({ functionDeclarations }),
        callTool: (calls: FunctionCall[]) => Promise.all(calls.map((functionCall) => handleToolCall(session, { functionCall }, { signal, context: requestMetadata }))),
    };
    const result = await ai.models.generateContent({
        model: "gemini-2.5-flash",
        contents: question,
        config: { systemInstruction: session.getSystemInstruction(), tools: [codeModeTool], automaticFunctionCalling: { maximumRemoteCalls: 10 } },
    });
    return result.text;
}

export async function openAIAgents(question: string): Promise<unknown> {
    const agent = new OpenAIAgent({
        name: "Orders",
        instructions: session.getSystemInstruction(),
        model: "gpt-4.1",
        tools: session.getLlmTools().map((t) =>
            tool({
                name: t.name,
                description: t.description,
                // TypeScript: the SDK's type of a strict JSON Schema (searchTools' has no required list: the SDK adds it).
                parameters: t.inputSchema as Extract<JsonSchemaDefinition["schema"], { additionalProperties: false }>,
                execute: (args, runContext, details) => t.execute(args as IoCodeMode.ExecuteCodeArgs | IoCodeMode.SearchToolsArgs, { signal: details?.signal, context: runContext?.context }),
            }),
        ),
    });
    const result = await run(agent, question, { context: requestMetadata, signal, toolNotFoundBehavior: "return_error_to_model" });
    return result.finalOutput;
}

export async function mastra(model: MastraModelConfig, question: string, abortSignal: AbortSignal): Promise<string> {
    const requestContext = new RequestContext([["user", "ada"]]);
    const [searchTools, executeCode] = session.getLlmTools();
    const agent = new MastraAgent({
        id: "orders",
        name: "Orders",
        instructions: session.getSystemInstruction(),
        model,
        // TypeScript: Mastra's tool types take no plain JSON Schema as an AI SDK tool's inputSchema.
        tools: { searchTools, executeCode } as unknown as ToolsInput,
    });
    const { text } = await agent.generate(question, { maxSteps: 10, requestContext, abortSignal });
    return text;
}

// Mastra's createTool takes the schema as it is (and checks the arguments against it first).
export const mastraTools = Object.fromEntries(
    session.getLlmTools().map((t) => [
        t.name,
        createTool({ id: t.name, description: t.description, inputSchema: t.inputSchema, execute: (input, { abortSignal }) => t.execute(input as IoCodeMode.ExecuteCodeArgs | IoCodeMode.SearchToolsArgs, { signal: abortSignal }) }),
    ]),
);

export async function ollamaLoop(ollama: Ollama, question: string): Promise<string> {
    const tools = toOpenAITools(session);
    const writtenCalls = (content: string): OllamaToolCall[] => {
        try {
            const call = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, ""));
            if (tools.some((t) => t.function.name === call?.name)) return [{ function: { name: call.name, arguments: call.parameters ?? call.arguments ?? {} } }];
        } catch {}
        return [];
    };
    const messages: OllamaMessage[] = [
        { role: "system", content: session.getSystemInstruction() },
        { role: "user", content: question },
    ];
    for (;;) {
        const { message } = await ollama.chat({ model: "qwen3", messages, tools });
        if (!message.tool_calls?.length) message.tool_calls = writtenCalls(message.content);
        messages.push(message);
        if (!message.tool_calls?.length) return message.content;
        for (const call of message.tool_calls) {
            const output = await handleToolCall(session, call, { signal, context: requestMetadata });
            // TypeScript: ollama's types (0.6.4) have neither a call's id nor a message's tool_call_id, which Ollama's server has.
            const answer: OllamaMessage & { tool_call_id?: string } = { role: "tool", tool_name: call.function.name, tool_call_id: (call as { id?: string }).id, content: JSON.stringify(output) };
            messages.push(answer);
        }
    }
}

export async function bedrockLoop(bedrock: BedrockRuntimeClient, question: string): Promise<BedrockMessage | undefined> {
    const toolConfig: ToolConfiguration = {
        // The SDK types inputSchema.json as a DocumentType: an LLM tool's schema passes as it is.
        tools: session.getLlmTools().map((t) => ({ toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.inputSchema } } })),
    };
    const messages: BedrockMessage[] = [{ role: "user", content: [{ text: question }] }];
    for (;;) {
        const { output, stopReason } = await bedrock.send(
            new ConverseCommand({ modelId: "anthropic.claude-sonnet-4-5-20250929-v1:0", system: [{ text: session.getSystemInstruction() }], messages, toolConfig }),
            { abortSignal: signal },
        );
        if (!output?.message) return undefined;
        messages.push(output.message);
        if (stopReason !== "tool_use") return output.message;
        const content: ContentBlock[] = [];
        for (const block of output.message.content ?? []) {
            if (block.toolUse) content.push(await handleToolCall(session, block, { signal, context: requestMetadata }));
        }
        messages.push({ role: "user", content });
    }
}

// A failed call's answers: a Bedrock block whose status a model refuses (Writer's Palmyra) deleted, a
// Gemini part read under either key.
export async function failedCalls(block: ContentBlock, part: Part): Promise<[ContentBlock, string | undefined]> {
    const result = await handleToolCall(session, block, { signal });
    delete result.toolResult.status;
    const { error } = (await handleToolCall(session, part, { signal })).functionResponse.response;
    return [result, error?.error.message];
}

export async function groqLoop(groq: Groq, question: string): Promise<string | null> {
    const tools = toOpenAITools(session);
    const messages: Groq.Chat.ChatCompletionMessageParam[] = [
        { role: "system", content: session.getSystemInstruction() },
        { role: "user", content: question },
    ];
    for (let refused = 0; ; ) {
        let completion: Groq.Chat.ChatCompletion;
        try {
            completion = await groq.chat.completions.create({ model: "openai/gpt-oss-120b", messages, tools }, { signal });
        } catch (err) {
            // groq-sdk types err.error (the JSON body) as Object.
            const error = err instanceof Groq.BadRequestError ? (err.error as { error?: { code?: string; message?: string } } | undefined)?.error : undefined;
            if (error?.code !== "tool_use_failed" || ++refused > 3) throw err;
            messages.push({ role: "user", content: `Your tool call was refused: ${error.message}. Call a tool again, with arguments its schema takes.` });
            continue;
        }
        const message = completion.choices[0].message;
        messages.push(message);
        if (!message.tool_calls?.length) return message.content;
        for (const call of message.tool_calls) {
            const output = await handleToolCall(session, call, { signal, context: requestMetadata });
            messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(output) });
        }
    }
}

// The streamed form: a toolUse's input is gathered as JSON text, then sent back as an object.
export async function bedrockStreamed(bedrock: BedrockRuntimeClient, toolConfig: ToolConfiguration, question: string): Promise<BedrockMessage> {
    // TypeScript: an input is the SDK's DocumentType.
    const asObject = (text: string): ToolUseBlock["input"] => {
        try {
            const input: ToolUseBlock["input"] = JSON.parse(text);
            if (input?.constructor === Object) return input;
        } catch {}
        return {};
    };
    const messages: BedrockMessage[] = [{ role: "user", content: [{ text: question }] }];
    for (;;) {
        const command = new ConverseStreamCommand({ modelId: "anthropic.claude-sonnet-4-5-20250929-v1:0", system: [{ text: session.getSystemInstruction() }], messages, toolConfig });
        const { stream } = await bedrock.send(command, { abortSignal: signal });
        // TypeScript: the blocks as they are gathered (the input as text), not yet ContentBlocks.
        const content: ({ text: string } | { toolUse: { toolUseId?: string; name?: string; input: string } })[] = [];
        let stopReason: string | undefined;
        for await (const { contentBlockStart: start, contentBlockDelta: delta, messageStop } of stream ?? []) {
            if (start?.start?.toolUse) content[start.contentBlockIndex!] = { toolUse: { ...start.start.toolUse, input: "" } };
            if (delta?.delta?.text !== undefined) ((content[delta.contentBlockIndex!] ??= { text: "" }) as { text: string }).text += delta.delta.text;
            if (delta?.delta?.toolUse) (content[delta.contentBlockIndex!] as { toolUse: { input: string } }).toolUse.input += delta.delta.toolUse.input;
            stopReason = messageStop?.stopReason ?? stopReason;
        }
        const results: ContentBlock[] = [];
        const turn: ContentBlock[] = [];
        for (const block of content.filter(Boolean)) {
            if (!("toolUse" in block)) {
                turn.push(block);
                continue;
            }
            results.push(await handleToolCall(session, block, { signal, context: requestMetadata }));
            const { toolUse } = block;
            turn.push({ toolUse: { toolUseId: toolUse.toolUseId, name: toolUse.name, input: asObject(toolUse.input) } });
        }
        messages.push({ role: "assistant", content: turn });
        if (stopReason !== "tool_use") return messages.at(-1)!;
        messages.push({ role: "user", content: results });
    }
}

export async function mistralLoop(mistral: Mistral, question: string): Promise<unknown> {
    const tools = toOpenAITools(session);
    const messages: MistralMessage[] = [
        { role: "system", content: session.getSystemInstruction() },
        { role: "user", content: question },
    ];
    for (;;) {
        const response = await mistral.chat.complete({ model: "mistral-medium-latest", messages, tools }, { signal });
        // TypeScript: the SDK types a choice's message as optional.
        const message = response.choices[0].message!;
        messages.push({ ...message, role: "assistant" });
        if (!message.toolCalls?.length) return message.content;
        for (const call of message.toolCalls) {
            const output = await handleToolCall(session, call, { signal, context: requestMetadata });
            messages.push({ role: "tool", toolCallId: call.id, name: call.function.name, content: JSON.stringify(output) });
        }
    }
}

export async function cohereLoop(cohere: CohereClientV2, question: string): Promise<unknown> {
    const tools = toOpenAITools(session);
    const messages: Cohere.ChatMessageV2[] = [
        { role: "system", content: session.getSystemInstruction() },
        { role: "user", content: question },
    ];
    for (;;) {
        const response = await cohere.chat({ model: "command-a-03-2025", messages, tools }, { abortSignal: signal });
        messages.push(response.message);
        if (!response.message.toolCalls?.length) return response.message.content;
        for (const call of response.message.toolCalls) {
            const output = await handleToolCall(session, call, { signal, context: requestMetadata });
            messages.push({ role: "tool", toolCallId: call.id, content: JSON.stringify(output) });
        }
    }
}
