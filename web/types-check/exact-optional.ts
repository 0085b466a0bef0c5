// Type check under exactOptionalPropertyTypes and noUncheckedIndexedAccess
// (@tsconfig/strictest, many templates): an app passes its own optional
// values on (`timeout: settings.timeout`, a tool's `description` from
// another SDK, `signal` of a caller that may have none), which the runtime
// takes as absent. Every optional field a user writes must accept
// `undefined`. Nothing here runs.
import { IoCodeModeFactory, type IoCodeMode } from "@interopio/code-mode";
import { handleToolCall, toAnthropicTools, toOpenAIResponsesTools, toOpenAITools } from "@interopio/code-mode/llm";
import { fromMcpClient, toMcpServer } from "@interopio/code-mode/mcp";
import { fromIoConnect } from "@interopio/code-mode/io-connect";
import { fromFdc3 } from "@interopio/code-mode/fdc3";
import { exposeToWebMcp, fromWebMcp } from "@interopio/code-mode/webmcp";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { IOConnectCore } from "@interopio/core";
import type { DesktopAgent } from "@finos/fdc3";
import type { Content, FunctionCall, Part } from "@google/genai";
import type { ContentBlock, ToolUseBlock } from "@aws-sdk/client-bedrock-runtime";

// What an app holds: each value may be missing.
interface Settings {
    timeout?: number;
    memoryLimit?: number;
    maxToolCalls?: number;
    maxResultChars?: number;
    worker?: boolean;
    namespace?: string;
    trusted?: boolean;
    description?: string;
    title?: string;
    readOnly?: boolean;
}
declare const s: Settings;
declare const maybe: <T>() => T | undefined;
declare const client: Client;
declare const io: IOConnectCore.API;
declare const agent: DesktopAgent;

export async function wire(signal?: AbortSignal, requestMetadata?: { user: string }): Promise<unknown> {
    const codeMode = await IoCodeModeFactory({
        wasmLocation: "/quickjs/emscripten-module.wasm",
        timeout: s.timeout,
        memoryLimit: s.memoryLimit,
        maxToolCalls: s.maxToolCalls,
        maxResultChars: s.maxResultChars,
        worker: s.worker,
        toolFilter: maybe<(tool: IoCodeMode.ToolDefinition) => boolean>(),
        overwriteSystemInstruction: maybe<(current: string) => string>(),
        interceptors: { onToolCall: maybe<(c: IoCodeMode.ToolCallContext) => IoCodeMode.InterceptorDecision>() },
        tools: maybe<IoCodeMode.ToolDefinition[]>(),
        onEvent: maybe<(e: IoCodeMode.CodeModeEvent) => void>(),
        search: { embed: (texts) => texts.map(() => [0]), weight: maybe<number>(), minSimilarity: maybe<number>(), timeout: s.timeout },
    });
    const tool: IoCodeMode.ToolDefinition = {
        name: "orders.search",
        description: s.description,
        inputSchema: maybe<IoCodeMode.JsonSchema>(),
        outputSchema: maybe<IoCodeMode.JsonSchema>(),
        annotations: { title: s.title, readOnlyHint: s.readOnly, destructiveHint: maybe<boolean>(), idempotentHint: maybe<boolean>(), openWorldHint: maybe<boolean>(), source: maybe<string>(), untrusted: maybe<boolean>() },
        execute: async () => [],
    };
    codeMode.registerTool(tool);
    const session = codeMode.createSession({ tools: maybe<IoCodeMode.ToolDefinition[]>() });
    const [searchTools, executeCode] = session.getLlmTools();
    const options: IoCodeMode.LlmToolExecuteOptions = {
        signal,
        context: requestMetadata,
        abortSignal: signal,
        experimental_context: requestMetadata,
        toolCallId: maybe<string>(),
        messages: maybe<unknown[]>(),
        experimental_sandbox: maybe<object>(),
        onEvent: maybe<(e: IoCodeMode.CodeModeEvent) => void>(),
    };
    await executeCode.execute({ code: "return 1", explanation: "x" }, options);
    await searchTools.execute({ query: maybe<string>(), namespace: s.namespace, limit: maybe<number>() }, { signal });
    await handleToolCall(session, "executeCode", "{}", { signal, context: requestMetadata });
    // The SDKs' own types (each optional field `?: T`, a call's id absent under Gemini 2.x) in, their own out.
    const turn = maybe<Content>();
    const parts: Part[] = await Promise.all((turn?.parts ?? []).map((part) => handleToolCall(session, part, { signal })));
    const part: Part = await handleToolCall(session, { functionCall: maybe<FunctionCall>() });
    const blocks: ContentBlock[] = [await handleToolCall(session, { toolUse: maybe<ToolUseBlock>() })];
    const shapes = [toOpenAITools(session, { strict: s.trusted }), toOpenAIResponsesTools(session, { strict: s.trusted }), toAnthropicTools(session, { strict: s.trusted })];

    const mcp = await fromMcpClient(client, { namespace: s.namespace, trusted: s.trusted, timeout: s.timeout, filter: maybe<() => boolean>(), onError: maybe<(e: unknown) => void>() });
    await toMcpServer(session, { name: s.namespace, version: maybe<string>(), context: maybe<() => unknown>() });
    const ioc = fromIoConnect(io, { namespace: s.namespace, target: maybe<"best">(), methodResponseTimeoutMs: s.timeout, waitTimeoutMs: s.timeout, filter: maybe<() => boolean>(), trusted: s.trusted, onError: maybe<(e: unknown) => void>() });
    const fdc3 = await fromFdc3(agent, {
        contextTypes: maybe<string[]>(),
        intents: [{ name: "ViewChart", contextTypes: maybe<string[]>(), description: s.description }],
        namespace: s.namespace,
        contextSchemas: maybe<{ [contextType: string]: IoCodeMode.JsonSchema }>(),
        broadcast: maybe<boolean>(),
        open: maybe<boolean>(),
        onError: maybe<(e: unknown) => void>(),
    });
    const page = await fromWebMcp({ modelContext: undefined, namespace: s.namespace, trusted: s.trusted, filter: maybe<() => boolean>(), onError: maybe<(e: unknown) => void>() });
    const unexpose = await exposeToWebMcp(session, { modelContext: undefined, prefix: s.namespace, context: requestMetadata });
    return [mcp, ioc, fdc3, page, unexpose, shapes, parts, part, blocks];
}
