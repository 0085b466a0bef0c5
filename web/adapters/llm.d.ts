// TypeScript declarations of @interopio/code-mode/llm.
import type { IoCodeMode } from "@interopio/code-mode";

/** A Chat Completions function tool (assignable to OpenAI's `ChatCompletionTool`). */
export interface OpenAIChatTool {
    type: "function";
    function: { name: string; description: string; parameters: { [keyword: string]: unknown }; strict?: true };
}

/** A Responses API function tool (assignable to OpenAI's `FunctionTool`). */
export interface OpenAIResponsesTool {
    type: "function";
    name: string;
    description: string;
    parameters: { [keyword: string]: unknown };
    strict: boolean;
}

/** An Anthropic Messages tool (assignable to Anthropic's `Tool`). */
export interface AnthropicTool {
    name: string;
    description: string;
    input_schema: { type: "object"; [keyword: string]: unknown };
    strict?: true;
}

/**
 * `strict: true`: the providers' strict mode (OpenAI's strict function
 * tools, which `chat.completions.parse()` requires; Anthropic's strict tool
 * use). Every property is then required, an optional one nullable (`null`
 * reads as absent), with `additionalProperties: false` and no numeric bounds
 * (the tools still enforce them). Default `false`.
 */
export interface ToolShapeOptions {
    strict?: boolean | undefined;
}

/** What `handleToolCall` resolves with when the call could not run. */
export interface ToolCallFailure {
    ok: false;
    error: {
        name: string;
        /** `UNKNOWN_TOOL`, `INVALID_INPUT` (not JSON, not an object, wrong types) or `INTERNAL`. */
        code: "UNKNOWN_TOOL" | "INVALID_INPUT" | "INTERNAL";
        message: string;
    };
}

/** `searchTools` and `executeCode` in OpenAI's Chat Completions shape. Other options are a TypeError naming the key. */
export declare function toOpenAITools(session: IoCodeMode.Session, options?: ToolShapeOptions): OpenAIChatTool[];
/** `searchTools` and `executeCode` in OpenAI's Responses API shape (`strict: false` unless `options.strict`). */
export declare function toOpenAIResponsesTools(session: IoCodeMode.Session, options?: ToolShapeOptions): OpenAIResponsesTool[];
/** `searchTools` and `executeCode` in Anthropic's Messages shape. */
export declare function toAnthropicTools(session: IoCodeMode.Session, options?: ToolShapeOptions): AnthropicTool[];

/**
 * Runs one tool call of a model. `args` is the JSON string of OpenAI's
 * `arguments` or the object of Anthropic's `input`; a string that is no JSON
 * at all (`open orders`, not starting with `{`, `[` or `"`) is the query or the
 * code, as the tools' own `execute` reads it. Resolves with the tool's
 * result (`ExecuteResult` for executeCode, the hits for searchTools) or with
 * a `ToolCallFailure` the model can read: it never rejects for an unknown
 * tool, malformed JSON or wrong types (a comma before a closing brace or
 * bracket is read past). It rejects only when `options.signal` aborts (your
 * own cancellation), and with a `TypeError` for options the tools' `execute`
 * refuses (`{ sigal }`: your mistake, not the model's), on the first call,
 * whatever the model sent, for a call object of no `ToolCall` shape (a
 * whole assistant message, its `tool_calls` array), and for one that cannot
 * be read (a revoked Proxy, a getter that throws: `handleToolCall: call:
 * cannot be read (...)`); arguments that cannot be read are a failure, as
 * arguments that are not JSON. `functions.executeCode`
 * is `executeCode`, and so are `ExecuteCode` and `execute_code` (another
 * case, `_`, `-` or spaces); `multi_tool_use.parallel` (the wrapper OpenAI models
 * put parallel calls in: `{ tool_uses: [{ recipient_name, parameters }] }`)
 * runs each call it wraps and resolves with their answers, in order (a
 * wrapper inside it is an unknown tool).
 */
export declare function handleToolCall(
    session: IoCodeMode.Session,
    name: string,
    args: unknown,
    options?: IoCodeMode.LlmToolExecuteOptions,
): Promise<ToolCallAnswer | ToolCallAnswer[]>;
/**
 * The same, given the call object as the SDK hands it, with the options after
 * it: a Chat Completions `tool_call` (`{ function: { name, arguments } }`) or
 * its `function`, a Responses `function_call` (`{ name, arguments }`), an
 * Anthropic `tool_use` block (`{ name, input }`), a Gemini `functionCall`
 * (`{ name, args }`), an AI SDK tool call (`{ toolName, input }`), an Ollama
 * tool call (`{ id, function: { name, arguments } }`, the arguments an
 * object), a Bedrock `toolUse` (`{ toolUseId, name, input }`), a LangChain
 * `ToolCall` (`{ name, args }`), a Cohere API v1 tool call (`{ name,
 * parameters }`, as Llama-style models write calls). A Bedrock content
 * block or a Gemini part holding a call resolves with the block or part
 * that answers it (below).
 */
export declare function handleToolCall(
    session: IoCodeMode.Session,
    call: ToolCall,
    options?: IoCodeMode.LlmToolExecuteOptions,
): Promise<ToolCallAnswer | ToolCallAnswer[]>;
/**
 * A Bedrock Converse content block holding a call (`{ toolUse: { toolUseId,
 * name, input } }`, as `output.message.content` holds it): resolves with the
 * `toolResult` block that answers it, the output as JSON text (Bedrock takes
 * a `json` only when it is an object, and `searchTools` answers with an array),
 * its `status` `"error"` for an `ok: false` output, else `"success"`.
 * A block of no call (`{ text }`) is a `TypeError`.
 */
export declare function handleToolCall(
    session: IoCodeMode.Session,
    block: { toolUse?: { toolUseId?: string | undefined; name?: string | undefined; input?: unknown } | undefined },
    options?: IoCodeMode.LlmToolExecuteOptions,
): Promise<BedrockToolResultBlock>;
/**
 * A Gemini part holding a call (`{ functionCall: { id?, name, args } }`, as
 * `candidates[0].content.parts` holds it): resolves with the
 * `functionResponse` part that answers it, the output under `response.output`
 * (Gemini takes a `response` only when it is an object), an `ok: false`
 * output under `response.error` (Gemini's key for a failed call), and the
 * call's `id` if it had one. A part of no call (`{ text }`) is a `TypeError`.
 */
export declare function handleToolCall(
    session: IoCodeMode.Session,
    part: { functionCall?: { id?: string | undefined; name?: string | undefined; args?: unknown } | undefined },
    options?: IoCodeMode.LlmToolExecuteOptions,
): Promise<GeminiFunctionResponsePart>;

/** What `handleToolCall` resolves with for a Bedrock `{ toolUse }` block (assignable to the SDK's `ContentBlock`). */
export interface BedrockToolResultBlock {
    toolResult: {
        toolUseId: string | undefined;
        content: { text: string }[];
        /** Always set; optional so that a loop for a model that refuses the field (Writer's Palmyra) can delete it. */
        status?: "success" | "error";
    };
}

/** What `handleToolCall` resolves with for a Gemini `{ functionCall }` part (assignable to `@google/genai`'s `Part`). */
export interface GeminiFunctionResponsePart {
    functionResponse: {
        id?: string;
        name: string;
        /** A failed call's answer (`ok: false`) under `error`, any other under `output`. */
        response: { output: ToolCallAnswer | ToolCallAnswer[]; error?: never } | { error: ToolCallFailure | IoCodeMode.ExecuteFailure; output?: never };
    };
}

/**
 * A model's tool call as the SDKs hand it (what `handleToolCall` reads of it;
 * cohere-ai types a call's `function` and its `name` as optional).
 */
export type ToolCall =
    | { function?: { name?: string; arguments?: unknown } }
    | { name?: string; arguments?: unknown; input?: unknown; args?: unknown; parameters?: unknown }
    | { toolName: string; input?: unknown };

/** One tool call's answer: `handleToolCall`'s, or one of a `multi_tool_use.parallel` call's. */
export type ToolCallAnswer = IoCodeMode.ExecuteResult | IoCodeMode.SearchToolsResult | ToolCallFailure;
