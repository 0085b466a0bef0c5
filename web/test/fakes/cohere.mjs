// @ts-check
// A local Cohere API v2 (POST /v2/chat, snake_case on the wire; cohere-ai
// speaks camelCase to its caller) for cohere-ai's own HTTP code
// (CohereClientV2 with `baseUrl`): it answers with scripted assistant turns
// (a tool plan and tool calls, or text) and refuses, with a 400 whose
// words are this fake's own (Cohere's were not to be found), what the v2
// API's reference does not take: a tool message's `tool_call_id` that
// answers no call of the turn before, a tool call left unanswered, a
// document whose `data` is no JSON object (its type is a map: searchTools
// answers with an array). POST /v1/chat (CohereClient, the legacy API v1)
// gets a v1 reply of the turn, its tool calls as v1 has them ({ name,
// parameters }), and no checks: only the SDK's reading of it is tried.
import { createServer } from "node:http";
import { serve } from "./serve.mjs";

/** @typedef {{ role: string, content?: unknown, tool_calls?: { id: string }[], tool_call_id?: string }} WireMessage */

const isObject = (/** @type {unknown} */ v) => typeof v == "object" && v !== null && !Array.isArray(v);

/**
 * What the fake says of a /v2/chat body, or "".
 * @param {{ messages: WireMessage[] }} body
 */
export function chatError(body) {
    const { messages } = body;
    for (const [i, m] of messages.entries()) {
        if (m.role == "tool") {
            const calls = messages.slice(0, i).reverse().find((x) => x.role == "assistant")?.tool_calls ?? [];
            if (!calls.some((c) => c.id == m.tool_call_id)) return `invalid request: messages[${i}].tool_call_id ${JSON.stringify(m.tool_call_id)} answers no tool call of the assistant turn before it`;
            for (const [j, c] of (Array.isArray(m.content) ? m.content : []).entries()) {
                if (c.type == "document" && !isObject(c.document?.data)) return `invalid request: messages[${i}].content[${j}].document.data must be an object`;
            }
        }
        const ids = (m.tool_calls ?? []).map((c) => c.id);
        const answered = messages.slice(i + 1).filter((x) => x.role == "tool").map((x) => x.tool_call_id);
        const missing = ids.filter((id) => !answered.includes(id));
        if (missing.length && i < messages.length - 1) return `invalid request: tool calls without a tool message: ${missing.join(", ")}`;
    }
    return "";
}

/**
 * Serves /v2/chat on 127.0.0.1: the n-th request it takes is answered with
 * `turns[n]` ({ tool_plan, tool_calls } or { text }, snake_case as on the
 * wire), once it passes chatError; `requests` gets each body. Resolves
 * once listening: { baseUrl, requests, close }.
 * @param {{ text?: string, tool_plan?: string, tool_calls?: ({ id: string, type: "function", function: { name: string, arguments: string } } | { name: string, parameters: object })[] }[]} turns
 */
export async function cohereServer(turns) {
    /** @type {any[]} */
    const requests = [];
    let answered = 0;
    const { url, close } = await serve(createServer, (path, text) => {
        const body = JSON.parse(text);
        requests.push(body);
        if (path == "/v1/chat") {
            const { text = "", tool_calls } = turns[answered++] ?? { text: "(no more turns)" };
            return [200, { "content-type": "application/json" }, JSON.stringify({ text, generation_id: `gen-${answered}`, finish_reason: "COMPLETE", tool_calls })];
        }
        if (path != "/v2/chat") return [404, { "content-type": "application/json" }, JSON.stringify({ message: "not found" })];
        const error = chatError(body);
        if (error) return [400, { "content-type": "application/json" }, JSON.stringify({ message: error })];
        const turn = turns[answered++] ?? { text: "(no more turns)" };
        const message = turn.tool_calls ? { role: "assistant", tool_plan: turn.tool_plan, tool_calls: turn.tool_calls } : { role: "assistant", content: [{ type: "text", text: turn.text }] };
        const reply = { id: `chat-${answered}`, finish_reason: turn.tool_calls ? "TOOL_CALL" : "COMPLETE", message, usage: { billed_units: { input_tokens: 1, output_tokens: 1 }, tokens: { input_tokens: 1, output_tokens: 1 } } };
        return [200, { "content-type": "application/json" }, JSON.stringify(reply)];
    });
    return { baseUrl: url, requests, close };
}
