// A real client: the OpenAI Agents SDK (@openai/agents) running an agent
// whose tools are the LLM tools wrapped by its tool(), as USAGE.md shows,
// with the SDK's default OpenAI client over a scripted fetch answering in
// the Responses API's format (no network). The SDK makes the schemas strict
// itself; the model's mistakes come back to it as text.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { Agent, run, setDefaultOpenAIClient, setTracingDisabled, tool } from "@openai/agents";
import { clientFactory } from "./client-factory.mjs";
import { SUM_OPEN, abortsRun, responsesCall as fc, responsesReply as response, responsesText as text, scriptedFetch } from "./adapter-helpers.mjs";

let api, intercepted, events;
before(async () => {
    setTracingDisabled(true);
    ({ api, contexts: intercepted, events } = await clientFactory());
});
after(() => api.dispose());

// The SDK's default client, set once: its provider keeps the first client
// it resolves a model name with. Each test's replies go to `script`.
const script = { fetch: undefined };
setDefaultOpenAIClient(new OpenAI({ apiKey: "test-key", baseURL: "http://127.0.0.1:9/v1", fetch: (url, init) => script.fetch(url, init), maxRetries: 0 }));

/** The agent of USAGE.md over `replies`: { agent, requests }. */
function agentOver(session, replies) {
    const scripted = scriptedFetch(replies);
    script.fetch = scripted.fetch;
    const tools = session.getLlmTools().map((t) =>
        tool({ name: t.name, description: t.description, parameters: t.inputSchema, execute: (args, runContext, details) => t.execute(args, { signal: details?.signal, context: runContext?.context }) }),
    );
    return { agent: new Agent({ name: "Orders", instructions: session.getSystemInstruction(), model: "gpt-4.1", tools }), requests: scripted.requests };
}

/** The function_call_output items the last request sent back, by call id, parsed where they are JSON. */
const outputs = (requests) =>
    Object.fromEntries(
        requests
            .at(-1)
            .body.input.filter((i) => i.type == "function_call_output")
            .map((i) => [i.call_id, /^[[{]/.test(i.output) ? JSON.parse(i.output) : i.output]),
    );

test("an agent runs the LLM tools: strict schemas, calls round-trip, the model's mistakes come back as text", async () => {
    const session = api.createSession();
    const { agent, requests } = agentOver(session, [
        response([fc("c1", "searchTools", { query: "orders", namespace: null, limit: null })]),
        response([
            fc("c2", "executeCode", { code: SUM_OPEN, explanation: "Sum the open orders." }),
            fc("c3", "executeCode", { code: 5, explanation: "wrong type" }),
            fc("c4", "executeCode", '{"code": "return 1'),
            fc("c5", "orders.search", { status: "open" }),
        ]),
        response([text("The open orders total 47.")]),
    ]);
    intercepted.length = 0;
    const result = await run(agent, "Total of the open orders?", { context: { user: "ada" }, toolNotFoundBehavior: "return_error_to_model" });
    assert.equal(result.finalOutput, "The open orders total 47.");
    // What the model was offered: strict function tools whose schemas strict mode takes.
    for (const t of requests[0].body.tools) {
        assert.equal(t.strict, true, t.name);
        assert.equal(t.parameters.additionalProperties, false, t.name);
        assert.deepEqual(t.parameters.required, Object.keys(t.parameters.properties), t.name);
    }
    assert.deepEqual(requests[0].body.tools.map((t) => t.name), ["searchTools", "executeCode"]);
    const out = outputs(requests);
    assert.deepEqual(out.c1.map((h) => h.name), ["orders.search"]);
    assert.equal(out.c2.result, 47, JSON.stringify(out.c2));
    assert.equal(out.c3.error.code, "INVALID_INPUT");
    assert.match(out.c3.error.message, /executeCode: code: expected a string, got the number 5/);
    // Arguments that are not JSON: the SDK's own answer, before execute.
    assert.match(out.c4, /error occurred while parsing tool arguments\. Please try again with valid JSON/);
    assert.match(out.c5, /Tool 'orders\.search' not found/);
    // run()'s context is the run's: onToolCall's callContext.
    assert.deepEqual(intercepted, [{ user: "ada" }]);
    session.dispose();
});

test("without toolNotFoundBehavior, a call of an unknown tool ends the run (why USAGE.md sets it)", async () => {
    const session = api.createSession();
    const { agent } = agentOver(session, [response([fc("c1", "orders.search", { status: "open" })]), response([text("never")])]);
    await assert.rejects(run(agent, "Total?"), { name: "ModelBehaviorError", message: /Tool orders\.search not found/ });
    session.dispose();
});

test("run()'s signal stops a run in flight", async () => {
    const session = api.createSession();
    const { agent } = agentOver(session, [response([fc("c1", "executeCode", { code: "await new Promise((r) => setTimeout(r, 60000));", explanation: "wait" })]), response([text("stopped")])]);
    const controller = new AbortController();
    events.length = 0;
    assert.ok((await abortsRun(events, controller, run(agent, "wait", { signal: controller.signal }))) instanceof Error, "run() rejects");
    session.dispose();
});
