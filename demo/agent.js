// A real agent loop against any OpenAI-compatible chat completions API:
// the model gets the session's system instruction and its two tools
// (searchTools, executeCode) as function tools, and the loop runs each tool
// call until the model answers in text. The tool shapes and the handling of
// a model's malformed calls come from @interopio/code-mode/llm. The API key
// lives only in this page's memory (the form field); nothing is stored.

const LLM_URL = new URL("../dist/llm.mjs", import.meta.url).href;

const MAX_STEPS = 8;
const MAX_TOOL_RESULT_CHARS = 20000;

export class AgentError extends Error {
    constructor(message, detail) {
        super(message);
        this.name = "AgentError";
        this.detail = detail;
    }
}

function endpoint(baseURL) {
    let url;
    try {
        url = new URL(baseURL.trim());
    } catch {
        throw new AgentError(`"${baseURL}" is not a URL. Enter the API's base URL, e.g. http://localhost:11434/v1.`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new AgentError(`The base URL must start with http:// or https://.`);
    return url.href.replace(/\/+$/, "") + "/chat/completions";
}

async function complete({ url, apiKey, body, signal }) {
    let res;
    try {
        res = await fetch(url, {
            method: "POST",
            headers: { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
            body: JSON.stringify(body),
            signal,
        });
    } catch (err) {
        if (err?.name === "AbortError") throw err;
        throw new AgentError(
            `Could not reach ${url}: ${err?.message ?? err}. Check the base URL and your network; ` +
                "the server must also accept requests from this page (CORS).",
        );
    }
    const text = await res.text();
    let data;
    try {
        data = JSON.parse(text);
    } catch {
        data = undefined;
    }
    if (!res.ok) {
        const why = data?.error?.message ?? data?.message ?? text.slice(0, 300) ?? "";
        throw new AgentError(`The model API answered HTTP ${res.status}${res.statusText ? " " + res.statusText : ""}${why ? `: ${why}` : ""}`);
    }
    const message = data?.choices?.[0]?.message;
    if (!message) throw new AgentError("The model API's answer has no choices[0].message; is this an OpenAI-compatible /chat/completions endpoint?");
    return message;
}

// runAgent runs the loop. hooks:
//   step({kind, ...}) reports progress to the page;
//   executeCode(args, explanation) runs code through the page's runner
//   (so it shows in the editor and the trace) and resolves with the result.
export async function runAgent({ baseURL, model, apiKey, prompt, session, signal, hooks }) {
    const url = endpoint(baseURL);
    if (!model.trim()) throw new AgentError("Enter a model name.");
    const { toOpenAITools, handleToolCall } = await import(LLM_URL);
    const messages = [
        { role: "system", content: session.getSystemInstruction() },
        { role: "user", content: prompt },
    ];
    const tools = toOpenAITools(session);

    for (let step = 1; step <= MAX_STEPS; step++) {
        hooks.step({ kind: "thinking", step });
        const message = await complete({ url, apiKey, body: { model: model.trim(), messages, tools, tool_choice: "auto" }, signal });
        messages.push({ role: "assistant", content: message.content ?? null, ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}) });
        const calls = message.tool_calls ?? [];
        if (!calls.length) {
            hooks.step({ kind: "answer", text: message.content ?? "" });
            return message.content ?? "";
        }
        if (message.content) hooks.step({ kind: "note", text: message.content });
        for (const call of calls) {
            const name = call.function?.name;
            const raw = call.function?.arguments ?? "";
            let args;
            try {
                args = JSON.parse(raw || "{}");
            } catch {
                args = undefined;
            }
            // executeCode with usable arguments runs through the page (editor
            // and trace); everything else, malformed calls and unknown tools
            // included, through handleToolCall, which answers the model
            // with a readable error instead of throwing.
            const out =
                name === "executeCode" && args && typeof args === "object" && !Array.isArray(args)
                    ? await hooks.executeCode(args)
                    : await handleToolCall(session, name, raw, { signal });
            hooks.step({ kind: "tool", name, args: args ?? raw, result: out });
            let content = JSON.stringify(out) ?? "null";
            if (content.length > MAX_TOOL_RESULT_CHARS) content = content.slice(0, MAX_TOOL_RESULT_CHARS) + " …[truncated]";
            messages.push({ role: "tool", tool_call_id: call.id, content });
        }
    }
    throw new AgentError(`The model did not finish within ${MAX_STEPS} steps.`);
}
