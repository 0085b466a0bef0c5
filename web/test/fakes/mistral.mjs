// @ts-check
// A local Mistral API (POST /v1/chat/completions, snake_case on the wire;
// the SDK speaks camelCase to its caller) for @mistralai/mistralai's own
// HTTP code (`serverURL` given): it answers with scripted assistant turns,
// and refuses with Mistral's 400 and words (as its users have quoted them)
// what Mistral refuses in a request:
// - an assistant turn's tool calls not answered one for one by the tool
//   messages after it ("Not the same number of function calls and
//   responses");
// - a tool call id that is not 9 letters or digits (Mistral's own ids are);
// - a conversation that ends with the assistant's turn.
import { createServer } from "node:http";
import { serve } from "./serve.mjs";

/** @typedef {{ role: string, content?: unknown, tool_calls?: { id: string, function: { name: string, arguments: unknown } }[], tool_call_id?: string, prefix?: boolean }} WireMessage */

/**
 * What Mistral says of a chat body (snake_case), or "".
 * @param {{ messages: WireMessage[] }} body
 */
export function chatError(body) {
    const { messages } = body;
    for (const [i, m] of messages.entries()) {
        for (const id of [...(m.tool_calls ?? []).map((c) => c.id), ...(m.tool_call_id === undefined ? [] : [m.tool_call_id])]) {
            if (!/^[a-zA-Z0-9]{9}$/.test(id)) return `Tool call id was ${id} but must be a-z, A-Z, 0-9, with a length of 9.`;
        }
        if (!m.tool_calls?.length) continue;
        let answers = 0;
        while (messages[i + 1 + answers]?.role == "tool") answers++;
        if (answers != m.tool_calls.length) return "Not the same number of function calls and responses";
    }
    const last = messages.at(-1);
    if (last && last.role == "assistant" && !last.prefix) return "Expected last role User or Tool (or Assistant with prefix True) for serving but got assistant";
    return "";
}

/**
 * Serves chat completions on 127.0.0.1: the n-th request it takes is
 * answered with `turns[n]` ({ content } or { tool_calls }, snake_case as on
 * the wire), once it passes chatError; `requests` gets each body. Resolves
 * once listening: { serverURL, requests, close }.
 * @param {{ content?: string, tool_calls?: WireMessage["tool_calls"] }[]} turns
 */
export async function mistralServer(turns) {
    /** @type {any[]} */
    const requests = [];
    let answered = 0;
    const { url, close } = await serve(createServer, (path, text) => {
        const body = JSON.parse(text);
        requests.push(body);
        if (path != "/v1/chat/completions") return [404, { "content-type": "application/json" }, JSON.stringify({ detail: "Not Found" })];
        const error = chatError(body);
        if (error) return [400, { "content-type": "application/json" }, JSON.stringify({ object: "error", message: error, type: "invalid_request_error", param: null, code: null })];
        const turn = turns[answered++] ?? { content: "(no more turns)" };
        const message = { role: "assistant", content: turn.content ?? "", tool_calls: turn.tool_calls ?? null, prefix: false };
        const reply = {
            id: `cmpl-${answered}`,
            object: "chat.completion",
            created: 1,
            model: body.model,
            choices: [{ index: 0, message, finish_reason: turn.tool_calls ? "tool_calls" : "stop" }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        };
        return [200, { "content-type": "application/json" }, JSON.stringify(reply)];
    });
    return { serverURL: url, requests, close };
}
