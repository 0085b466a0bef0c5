// @ts-check
// A local Groq API (POST /openai/v1/chat/completions, OpenAI's Chat
// Completions) for groq-sdk's own HTTP code (`baseURL` given). Unlike
// OpenAI, Groq checks the model's tool calls before it answers: a call of
// a tool the request did not offer, arguments that are no JSON, or
// arguments its JSON Schema refuses, and the whole reply is a 400
// `tool_use_failed` (with the model's text as `failed_generation`), so the
// call never reaches the host's loop. Each scripted turn is one generation
// of the model: one the check refuses is answered with that 400, as Groq
// does. The words are Groq's where its users have quoted them (an unknown
// tool, missing properties, a message's missing tool_call_id); those of a
// type or an extra key follow the JSON Schema validator Groq's words come
// from, unconfirmed.
// tsc checks it against the client's types (web/types-check/tsconfig.fakes.json).
import { createServer } from "node:http";
import { serve } from "./serve.mjs";

/** @typedef {import("groq-sdk").default.Chat.ChatCompletionMessageToolCall} ToolCall */
/** @typedef {{ type: "function", function: { name: string, parameters?: Record<string, any> } }} Tool */

const VALIDATION = "Tool call validation failed: tool call validation failed: ";
const jsonType = (/** @type {unknown} */ v) => (v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v);

/**
 * What the schema's check says of arguments (a flat object schema: the LLM tools'), or "".
 * @param {Record<string, any>} schema
 * @param {Record<string, unknown>} args
 */
function schemaErrors(schema, args) {
    const errors = [];
    const missing = (schema.required ?? []).filter((/** @type {string} */ k) => !(k in args));
    if (missing.length) errors.push(`missing properties: ${missing.map((/** @type {string} */ k) => `'${k}'`).join(", ")}`);
    for (const [k, v] of Object.entries(args)) {
        const p = schema.properties?.[k];
        if (!p) {
            if (schema.additionalProperties === false) errors.push(`additionalProperties '${k}' not allowed`);
            continue;
        }
        const t = jsonType(v);
        if (p.type && p.type != t && !(p.type == "number" && t == "integer")) errors.push(`/${k}: expected ${p.type}, but got ${t == "integer" ? "number" : t}`);
    }
    return errors;
}

/**
 * Groq's refusal of the model's tool calls (`calls`) in a request offering
 * `tools`: { message, failed_generation }, or undefined.
 * @param {ToolCall[]} calls
 * @param {Tool[]} tools
 */
export function toolUseFailure(calls, tools) {
    for (const call of calls) {
        const { name, arguments: text } = call.function;
        const failed_generation = JSON.stringify({ name, arguments: text });
        const tool = tools.find((t) => t.function.name == name);
        if (!tool) return { message: `${VALIDATION}attempted to call tool '${name}' which was not in request.tools`, failed_generation };
        let args;
        try {
            args = JSON.parse(text);
        } catch {
            return { message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.", failed_generation: `<function=${name}>${text}</function>` };
        }
        const errors = schemaErrors(tool.function.parameters ?? {}, args);
        if (errors.length) return { message: `${VALIDATION}parameters for tool ${name} did not match schema: errors: [${errors.join(", ")}]`, failed_generation };
    }
    return undefined;
}

/**
 * What Groq says of a request's messages, or "".
 * @param {{ messages: { role: string, tool_call_id?: string }[] }} body
 */
export function messagesError(body) {
    const i = body.messages.findIndex((m) => m.role == "tool" && !m.tool_call_id);
    return i < 0 ? "" : `'messages.${i}' : for 'role:tool' the following must be satisfied[('messages.${i}.tool_call_id' : property 'tool_call_id' is missing)]`;
}

/**
 * Serves Chat Completions on 127.0.0.1: the n-th request is answered with
 * the model's n-th generation, `turns[n]` ({ content } or { tool_calls }),
 * or with Groq's 400 when its check refuses it; `requests` gets each body.
 * Resolves once listening: { baseURL, requests, close }.
 * @param {{ content?: string, tool_calls?: ToolCall[] }[]} turns
 */
export async function groqServer(turns) {
    /** @type {any[]} */
    const requests = [];
    const { url, close } = await serve(createServer, (path, text) => {
        const body = JSON.parse(text);
        requests.push(body);
        if (path != "/openai/v1/chat/completions") return [404, { "content-type": "application/json" }, JSON.stringify({ error: { message: "Unknown request URL", type: "invalid_request_error", code: "unknown_url" } })];
        const turn = turns[requests.length - 1] ?? { content: "(no more turns)" };
        const invalid = messagesError(body);
        const failed = invalid ? undefined : toolUseFailure(turn.tool_calls ?? [], body.tools ?? []);
        if (invalid || failed) {
            const error = invalid ? { message: invalid, type: "invalid_request_error" } : { ...failed, type: "invalid_request_error", code: "tool_use_failed" };
            return [400, { "content-type": "application/json" }, JSON.stringify({ error })];
        }
        const message = { role: "assistant", content: turn.content ?? null, ...(turn.tool_calls && { tool_calls: turn.tool_calls }) };
        const reply = {
            id: `chatcmpl-${requests.length}`,
            object: "chat.completion",
            created: 1,
            model: body.model,
            choices: [{ index: 0, message, logprobs: null, finish_reason: turn.tool_calls ? "tool_calls" : "stop" }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        };
        return [200, { "content-type": "application/json" }, JSON.stringify(reply)];
    });
    return { baseURL: url, requests, close };
}
