// Helpers of the adapter suites (adapters-*.test.mjs): the built entry
// points in dist/ and a mock fetch for the LLM SDKs.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import assert from "node:assert/strict";
import { dist, run, until } from "./helpers.mjs";

/** Imports dist/<name>.mjs, the package's `@interopio/code-mode/<name>`. */
export function loadAdapter(name) {
    return import(pathToFileURL(join(dist, `${name}.mjs`)).href);
}

/**
 * A fetch that answers each request with the next of `replies` (JSON
 * bodies, or a string: a server-sent event stream, anthropicStream's) and
 * records the requests: {url, method, body (parsed)}.
 */
export function scriptedFetch(replies) {
    const requests = [];
    const fetch = async (url, init = {}) => {
        const body = init.body ? JSON.parse(init.body) : undefined;
        requests.push({ url: String(url), method: init.method, body });
        const reply = replies[requests.length - 1];
        if (!reply) return new Response(JSON.stringify({ error: { message: "no more scripted replies" } }), { status: 500 });
        if (typeof reply == "string") return new Response(reply, { status: 200, headers: { "content-type": "text/event-stream" } });
        return new Response(JSON.stringify(reply), { status: 200, headers: { "content-type": "application/json" } });
    };
    return { fetch, requests };
}

/**
 * A streamed Anthropic Messages reply (server-sent events) of `blocks`:
 * { text } or { id, name, json }, a tool_use whose input arrives as the
 * JSON text `json` (input_json_delta), as the API streams it.
 */
export function anthropicStream(blocks, stop) {
    const message = { ...anthropicMessage([], null), usage: { input_tokens: 1, output_tokens: 0 } };
    const events = [{ type: "message_start", message }];
    blocks.forEach((b, index) => {
        const tool = "json" in b;
        events.push(
            { type: "content_block_start", index, content_block: tool ? { type: "tool_use", id: b.id, name: b.name, input: {} } : { type: "text", text: "" } },
            { type: "content_block_delta", index, delta: tool ? { type: "input_json_delta", partial_json: b.json } : { type: "text_delta", text: b.text } },
            { type: "content_block_stop", index },
        );
    });
    events.push({ type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } }, { type: "message_stop" });
    return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
}

/** A Chat Completions reply holding `message` (content or tool_calls). */
export const completion = (message, finish) => ({
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "gpt-4.1",
    choices: [{ index: 0, message: { role: "assistant", content: null, refusal: null, ...message }, finish_reason: finish, logprobs: null }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

/** A Chat Completions tool call (Groq's, Mistral's too): `args` as JSON text, or a string as it is. */
export const chatCall = (id, name, args) => ({ id, type: "function", function: { name, arguments: typeof args == "string" ? args : JSON.stringify(args) } });

/** An Anthropic Messages reply holding `content` blocks. */
export const anthropicMessage = (content, stop) => ({
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
});

/** A Responses API reply of `output` items. */
export const responsesReply = (output) => ({
    id: "resp_1",
    object: "response",
    created_at: 1,
    status: "completed",
    model: "gpt-4.1",
    output,
    usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
});

/** A Responses API function_call item; `args` an object or the JSON text as the model wrote it. */
export const responsesCall = (id, name, args) => ({ type: "function_call", id: `fc_${id}`, call_id: id, name, arguments: typeof args == "string" ? args : JSON.stringify(args), status: "completed" });

/** A Responses API message item of `text`. */
export const responsesText = (text) => ({ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] });

/** A program summing the open orders of ordersSearch: 47. */
export const SUM_OPEN = "const o = await tools.orders.search({ status: 'open' }); return o.reduce((s, x) => s + x.total, 0);";

/**
 * Aborts `controller` once a run has started (events: clientFactory's),
 * lets `running` (the client's promise) settle as it will, and asserts that
 * the run ended then, not at its timeout: the client's signal reached it.
 */
export async function abortsRun(events, controller, running) {
    await until(() => events.some((e) => e.type == "run-start"), "the run to start");
    controller.abort(new Error("user stopped"));
    const settled = await running.then(
        () => "resolved",
        (err) => err,
    );
    await until(() => events.some((e) => e.type == "run-end"), "the run to end");
    const end = events.find((e) => e.type == "run-end");
    assert.notEqual(end.error?.code, "TIMEOUT", JSON.stringify(end));
    return settled;
}

export { until } from "./helpers.mjs";

/**
 * Runs `calls` (tool call expressions of the program) one after the other in
 * `session`, each caught: resolves with the run's output, its result one
 * entry per call (what it returned, or its error's message).
 */
export function eachCaught(session, calls) {
    const program = `const e = [];
        for (const f of [${calls.map((c) => `() => ${c}`).join(", ")}]) {
            try { e.push(await f()); } catch (err) { e.push(err.message); }
        }
        return e;`;
    return run(session, program);
}

/**
 * Registers `source`'s tools with `api`, runs `program(name, input)` (a
 * program's text) for each [name, input] of `calls` in one session, and
 * returns each run's result, or its error's message; then unregisters the
 * tools and closes the source (the interop suites' FDC3 rows).
 */
export async function runEach(api, source, calls, program) {
    const unregister = source.registerTools(api);
    const session = api.createSession();
    const out = [];
    for (const [name, input] of calls) {
        const r = await run(session, program(JSON.stringify(name), JSON.stringify(input)));
        out.push(r.ok ? r.result : r.error.message);
    }
    session.dispose();
    unregister();
    source.close();
    return out;
}
