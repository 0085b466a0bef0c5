// The factory of the LLM client suites (gemini, mastra, openai-agents,
// ollama, bedrock, groq), in the suite's mode. Apart from
// adapter-helpers.mjs, which files marked @mode-independent import
// (register-parity): this module reads the mode (modes.test.mjs keeps that
// marker true).
import { assetPath, loadFactory } from "./helpers.mjs";
import { loadAdapter } from "./adapter-helpers.mjs";

/**
 * A factory in the suite's mode for an LLM client's tests, holding
 * orders.search (two orders of the status asked, totalling 47): { api,
 * contexts (onToolCall's callContext of each call), events (onEvent's) }.
 */
export async function clientFactory() {
    const contexts = [];
    const events = [];
    const api = await (await loadFactory())({
        wasmLocation: assetPath,
        onEvent: (e) => events.push(e),
        interceptors: {
            onToolCall: async ({ callContext }) => {
                contexts.push(callContext);
                return { allowed: true };
            },
        },
    });
    api.registerTool({
        name: "orders.search",
        description: "Search orders by status.",
        inputSchema: { type: "object", properties: { status: { type: "string" } }, required: ["status"] },
        execute: async ({ status }) => [
            { id: "o-1", status, total: 30 },
            { id: "o-2", status, total: 17 },
        ],
    });
    await api.ready();
    return { api, contexts, events };
}

/**
 * clientFactory's, with a session of it and the llm adapter
 * (@interopio/code-mode/llm): { api, contexts, events, llm, session }.
 */
export async function llmClientSession() {
    const client = await clientFactory();
    return { ...client, llm: await loadAdapter("llm"), session: client.api.createSession() };
}
