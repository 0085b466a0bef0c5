// A real client: @google/genai's own HTTP client (httpOptions.baseUrl)
// against a local Gemini API (fakes/gemini.mjs) that refuses what the real
// one refuses. What USAGE.md's Gemini section rests on: the LLM tools'
// schemas pass as `parameters` and as `parametersJsonSchema`, searchTools'
// answer (an array) is refused as a functionResponse's `response` unless
// wrapped in an object, a part { functionCall } goes to handleToolCall as
// it is and comes back as the functionResponse part Gemini takes, and the
// model's mistakes come back to it under the response's "error" key (Gemini's
// for a failed call) through the SDK's automatic function calling (a
// CallableTool).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { GoogleGenAI } from "@google/genai";
import { SUM_OPEN as SUM, loadAdapter } from "./adapter-helpers.mjs";
import { clientFactory } from "./client-factory.mjs";
import { geminiServer, requestError } from "./fakes/gemini.mjs";

let api, llm, session;
before(async () => {
    llm = await loadAdapter("llm");
    ({ api } = await clientFactory());
    session = api.createSession();
});
after(() => api.dispose());

const declarations = (key) => session.getLlmTools().map((t) => ({ name: t.name, description: t.description, [key]: t.inputSchema }));
const client = (url) => new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: url } });

test("the fake Gemini API refuses what Gemini refuses", () => {
    const ask = (extra) => ({ contents: [{ role: "user", parts: [{ text: "q" }] }], ...extra });
    // JSON Schema's keywords beyond Gemini's Schema (the SDK drops additionalProperties before it sends parameters).
    assert.match(requestError(ask({ tools: [{ functionDeclarations: [{ name: "f", parameters: { type: "object", additionalProperties: false } }] }] })), /Unknown name "additionalProperties" at 'tools\[0\]\.function_declarations\[0\]\.parameters'/);
    assert.match(requestError(ask({ tools: [{ functionDeclarations: [{ name: "f", parameters: { type: "object", properties: { a: { const: 1 } } } }] }] })), /Unknown name "const"/);
    const call = { role: "model", parts: [{ functionCall: { name: "searchTools", args: {} } }] };
    assert.match(requestError({ contents: [{ role: "user", parts: [{ text: "q" }] }, call, { role: "user", parts: [{ functionResponse: { name: "searchTools", response: [] } }] }] }), /protobuf\.Struct/);
    assert.match(requestError({ contents: [{ role: "user", parts: [{ text: "q" }] }, call, { role: "user", parts: [{ text: "?" }] }] }), /number of function response parts/);
    assert.equal(requestError({ contents: [{ role: "user", parts: [{ text: "q" }] }, call, { role: "user", parts: [{ functionResponse: { name: "searchTools", response: { output: [] } } }] }] }), "");
    assert.equal(requestError({ contents: [{ role: "user", parts: [{ text: "q" }] }, call, { role: "user", parts: [{ functionResponse: { name: "searchTools", response: { error: { ok: false } } } }] }] }), "");
});

test("the LLM tools' schemas pass as parameters and as parametersJsonSchema", async (t) => {
    const server = await geminiServer([[{ text: "one" }], [{ text: "two" }]]);
    t.after(server.close);
    const ai = client(server.url);
    for (const key of ["parameters", "parametersJsonSchema"]) {
        const r = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: "q", config: { tools: [{ functionDeclarations: declarations(key) }] } });
        assert.ok(r.text, key);
    }
    // What the API got: the SDK's Schema for parameters (types in capitals, no additionalProperties), the schema as is for the other.
    const [viaParameters, viaJsonSchema] = server.requests.map((b) => b.tools[0].functionDeclarations[1]);
    assert.deepEqual(Object.keys(viaParameters.parameters.properties), ["code", "explanation"]);
    assert.equal(viaParameters.parameters.type, "OBJECT");
    assert.deepEqual(viaJsonSchema.parametersJsonSchema, JSON.parse(JSON.stringify(session.getLlmTools()[1].inputSchema)));
});

test("searchTools' answer as a functionResponse's response is refused; wrapped as { output } it passes", async (t) => {
    const server = await geminiServer([[{ functionCall: { id: "f1", name: "searchTools", args: { query: "orders" } } }], [{ text: "done" }], [{ text: "done" }]]);
    t.after(server.close);
    const ai = client(server.url);
    const config = { tools: [{ functionDeclarations: declarations("parametersJsonSchema") }] };
    const first = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: "find orders tools", config });
    const [call] = first.functionCalls;
    const output = await llm.handleToolCall(session, call);
    assert.ok(Array.isArray(output));
    const turn = (response) => [{ role: "user", parts: [{ text: "find orders tools" }] }, first.candidates[0].content, { role: "user", parts: [{ functionResponse: { id: call.id, name: call.name, response } }] }];
    await assert.rejects(ai.models.generateContent({ model: "gemini-2.5-flash", contents: turn(output), config }), /function_response\.response' \(type\.googleapis\.com\/google\.protobuf\.Struct\)/);
    const ok = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: turn({ output }), config });
    assert.equal(ok.text, "done");
});

test("automatic function calling with a CallableTool: every call is answered, the model's mistakes under \"error\"", async (t) => {
    const server = await geminiServer([
        [
            // Gemini 2.x sends no call ids.
            { functionCall: { name: "executeCode", args: { code: 5, explanation: "wrong type" } } },
            { functionCall: { name: "orders.search", args: { status: "open" } } },
            { functionCall: { name: "execute_code", args: { code: SUM } } },
        ],
        [{ text: "The open orders total 47." }],
    ]);
    t.after(server.close);
    const functionDeclarations = declarations("parametersJsonSchema");
    const codeModeTool = { tool: async () => ({ functionDeclarations }), callTool: (calls) => Promise.all(calls.map((functionCall) => llm.handleToolCall(session, { functionCall }))) };
    const result = await client(server.url).models.generateContent({ model: "gemini-2.5-flash", contents: "Total of the open orders?", config: { systemInstruction: session.getSystemInstruction(), tools: [codeModeTool] } });
    assert.equal(result.text, "The open orders total 47.");
    assert.equal(server.requests.length, 2);
    // The two mistakes under Gemini's "error" key (a failed call), the run under "output".
    const responses = server.requests[1].contents.at(-1).parts.map((p) => p.functionResponse.response);
    assert.deepEqual(responses.map((r) => Object.keys(r)), [["error"], ["error"], ["output"]]);
    const outputs = responses.map((r) => r.error ?? r.output);
    assert.equal(outputs[0].error.code, "INVALID_INPUT");
    assert.match(outputs[0].error.message, /executeCode: code: expected a string, got the number 5/);
    assert.equal(outputs[1].error.code, "UNKNOWN_TOOL");
    assert.match(outputs[1].error.message, /call the page's tools in executeCode's code/);
    assert.equal(outputs[2].result, 47, JSON.stringify(outputs[2]));
    assert.deepEqual(result.automaticFunctionCallingHistory.map((c) => c.role), ["user", "model", "user"]);
});

// It was a TypeError: a loop over candidates[0].content.parts holds the parts.
test("the parts of a turn as the SDK hands them: each functionCall part's answer is a functionResponse part Gemini takes", async (t) => {
    const server = await geminiServer([
        [{ text: "Let me look." }, { functionCall: { id: "f1", name: "searchTools", args: { query: "orders" } } }, { functionCall: { id: "f2", name: "executeCode", args: { code: SUM, explanation: "sum" } } }],
        [{ text: "The open orders total 47." }],
    ]);
    t.after(server.close);
    const ai = client(server.url);
    const config = { tools: [{ functionDeclarations: declarations("parametersJsonSchema") }] };
    const contents = [{ role: "user", parts: [{ text: "Total of the open orders?" }] }];
    const first = await ai.models.generateContent({ model: "gemini-2.5-flash", contents, config });
    const turn = first.candidates[0].content;
    const parts = await Promise.all(turn.parts.filter((p) => p.functionCall).map((p) => llm.handleToolCall(session, p)));
    assert.deepEqual(parts.map((p) => [p.functionResponse.id, p.functionResponse.name]), [["f1", "searchTools"], ["f2", "executeCode"]]);
    const last = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: [...contents, turn, { role: "user", parts }], config });
    assert.equal(last.text, "The open orders total 47.");
    // searchTools' array went back under "output", which Gemini takes (as the response it refuses it: the test above).
    const [hits, sum] = server.requests[1].contents.at(-1).parts.map((p) => p.functionResponse.response.output);
    assert.deepEqual(hits.map((h) => h.name), ["orders.search"]);
    assert.equal(sum.result, 47, JSON.stringify(sum));
    // A text part is no call: the host's mistake.
    await assert.rejects(llm.handleToolCall(session, turn.parts[0]), { name: "TypeError", message: /\{ toolUse \} or \{ functionCall \}/ });
});
