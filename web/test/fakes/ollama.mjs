// @ts-check
// A local Ollama server (POST /api/chat) for the `ollama` client's own HTTP
// code (`new Ollama({ host })`): it answers with scripted assistant
// messages, whole or streamed as Ollama streams (NDJSON, the tool calls in
// one chunk, then a done chunk), and refuses with Ollama's 400 and words
// what its Go server cannot decode in a request, so that a loop passing
// here sends what Ollama takes:
// - a message's `content` that is no string (a tool's output as an object,
//   or as content parts): `json: cannot unmarshal object into Go struct
//   field ChatRequest.messages.content of type string`;
// - a tool call's `arguments` that are no JSON object (the arguments as
//   JSON text, as OpenAI's API has them): Ollama decodes them into an
//   ordered map (the words of that refusal are this fake's own);
// - a tool parameter's `type` that is neither a string nor an array of
//   strings.
// Like Ollama, it takes a tool call left unanswered (the model's template
// renders what it gets): the tests check the answers themselves.
// tsc checks it against the client's types (web/types-check/tsconfig.fakes.json).
import { createServer } from "node:http";
import { serve } from "./serve.mjs";

/** @typedef {import("ollama").Message & { tool_calls?: (import("ollama").ToolCall & { id?: string })[], tool_call_id?: string }} Message */
/** @typedef {import("ollama").Tool} Tool */

/** What Go's encoding/json calls a JSON value's kind. */
const kind = (/** @type {unknown} */ v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/**
 * What Ollama says of a /api/chat body, or "".
 * @param {{ model?: string, messages?: Message[], tools?: Tool[] }} body
 */
export function chatError(body) {
    if (!body.model) return "model is required";
    for (const m of body.messages ?? []) {
        if (typeof m.content != "string" && m.content !== undefined) return `json: cannot unmarshal ${kind(m.content)} into Go struct field ChatRequest.messages.content of type string`;
        for (const call of m.tool_calls ?? []) {
            const args = call.function?.arguments;
            if (kind(args) != "object") return `messages.tool_calls.function.arguments: cannot unmarshal ${kind(args)} into an object`;
        }
    }
    for (const tool of body.tools ?? []) {
        for (const p of Object.values(tool.function?.parameters?.properties ?? {})) {
            const t = p.type;
            if (t !== undefined && typeof t != "string" && !(Array.isArray(t) && t.every((x) => typeof x == "string"))) {
                return `json: cannot unmarshal ${kind(t)} into Go struct field ToolProperty.tools.function.parameters.properties.type of type string`;
            }
        }
    }
    return "";
}

/**
 * Serves /api/chat on 127.0.0.1: the n-th request it takes is answered
 * with `turns[n]` (the assistant's message: content and tool_calls, with the
 * ids Ollama gives its calls), once it passes chatError; `requests` gets
 * each body. Resolves once listening: { host, requests, close }.
 * @param {Partial<Message>[]} turns
 */
export async function ollamaServer(turns) {
    /** @type {any[]} */
    const requests = [];
    let answered = 0;
    const { url, close } = await serve(createServer, (path, text) => {
        const body = JSON.parse(text);
        requests.push(body);
        const error = path == "/api/chat" ? chatError(body) : "404 page not found";
        if (error) return [path == "/api/chat" ? 400 : 404, { "content-type": "application/json; charset=utf-8" }, JSON.stringify({ error })];
        const message = { role: "assistant", content: "", ...(turns[answered++] ?? { content: "(no more turns)" }) };
        const done = { model: body.model, created_at: new Date(0).toISOString(), done: true, done_reason: "stop", total_duration: 1, load_duration: 1, prompt_eval_count: 1, prompt_eval_duration: 1, eval_count: 1, eval_duration: 1 };
        if (body.stream === false) return [200, { "content-type": "application/json; charset=utf-8" }, JSON.stringify({ ...done, message })];
        // Streamed: the message in one chunk, then the done chunk with an empty message.
        const chunks = [{ model: body.model, created_at: done.created_at, message, done: false }, { ...done, message: { role: "assistant", content: "" } }];
        return [200, { "content-type": "application/x-ndjson" }, chunks.map((c) => JSON.stringify(c) + "\n").join("")];
    });
    return { host: url, requests, close };
}
