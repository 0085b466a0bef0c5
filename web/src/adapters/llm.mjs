// @interopio/code-mode/llm: a session's two LLM tools in the shapes that
// OpenAI and Anthropic expect, and one call handler for every provider's
// tool-call loop. It imports nothing but its own call runner: it works on a
// session object and returns plain data, so the SDKs stay the caller's.

import { llmTools, plain, readable, runToolCall } from "./llm-call.mjs";

// Strict mode (OpenAI's strict, Anthropic's strict tool use) takes a
// subset of JSON Schema: every property required (an optional one is
// nullable: the tools read null as absent), no other properties, and no
// numeric bounds (Anthropic's; the tools enforce them and say so). The
// two tools' schemas are flat objects.
function strictSchema(schema) {
    const properties = {};
    for (const [k, { minimum, maximum, description, ...p }] of Object.entries(schema.properties)) {
        properties[k] = { ...(schema.required?.includes(k) ? p : { anyOf: [p, { type: "null" }] }), description };
    }
    return { ...schema, properties, required: Object.keys(properties), additionalProperties: false };
}

// Each tool as shape(name, description, schema, strict) makes it; fn,
// the caller's name, begins an option's error as in the other adapters.
// An unknown key's error names the one option there is, which is what a
// "did you mean" would say for a misspelt one (strcit, Strict), and right
// for any other ({ signal }, handleToolCall's).
function shapes(session, options, fn, shape) {
    const tools = llmTools(session);
    const o = options ?? {};
    // The key at fault ("" when options are no object), or 0.
    const key = typeof o != "object" ? "" : Object.keys(o).find((k) => k != "strict") ?? ([true, false, undefined].includes(o.strict) ? 0 : "strict");
    if (key !== 0) throw new TypeError(`${fn}: options${key && "." + key}: ${key == "strict" ? "expected a boolean" : (key && "unknown option; ") + "expected { strict?: boolean }"}`);
    // A plain JSON copy of the schema: the schema objects carry the AI
    // SDK's non-enumerable markers, and callers may edit what they get.
    return tools.map((t) => shape(t.name, t.description, JSON.parse(JSON.stringify(o.strict ? strictSchema(t.inputSchema) : t.inputSchema)), !!o.strict));
}

/**
 * Chat Completions `tools`: `[{ type: "function", function: { name, description, parameters } }]`.
 * `{ strict: true }`: strict function tools (`strict: true`, strict schemas),
 * as `chat.completions.parse()` requires.
 */
export function toOpenAITools(session, options) {
    return shapes(session, options, "toOpenAITools", (name, description, parameters, strict) => ({ type: "function", function: { name, description, parameters, ...(strict && { strict }) } }));
}

/**
 * Responses API `tools`: `[{ type: "function", name, description, parameters, strict }]`.
 * Not strict by default (searchTools's arguments are optional, and strict
 * mode wants every property required); `{ strict: true }` gives strict schemas.
 */
export function toOpenAIResponsesTools(session, options) {
    return shapes(session, options, "toOpenAIResponsesTools", (name, description, parameters, strict) => ({ type: "function", name, description, parameters, strict }));
}

/** Anthropic Messages `tools`: `[{ name, description, input_schema }]`; `{ strict: true }` adds `strict: true` with strict schemas. */
export function toAnthropicTools(session, options) {
    return shapes(session, options, "toAnthropicTools", (name, description, schema, strict) => ({ name, description, input_schema: { type: "object", ...schema }, ...(strict && { strict }) }));
}
/**
 * Runs one tool call of a model: `name` as the model sent it, `args` as a
 * JSON string (OpenAI's `arguments`) or an object (Anthropic's `input`).
 * Resolves with the tool's result, or with `{ ok: false, error: { name,
 * code, message } }` for an unknown tool, malformed or mistyped arguments,
 * or anything else that went wrong, so the model can read it and retry.
 * It rejects when `options.signal` aborts (the caller stopping the loop)
 * and with a TypeError for options execute refuses: the host's mistakes.
 * Given the call object as the SDK hands it, it reads the name and the
 * arguments there; given a Bedrock content block `{ toolUse }` or a Gemini
 * part `{ functionCall }`, it resolves with the block or part that answers
 * the call (`{ toolResult }`, `{ functionResponse }`), an `ok: false` answer
 * marked as a failure (`status: "error"`, not `"success"`; under
 * `response.error`, not `response.output`).
 */
export async function handleToolCall(session, name, args, options) {
    // The call object as the SDKs hand it, options after it: Chat
    // Completions' tool_call ({ function: { name, arguments } }), a
    // Responses function_call ({ name, arguments }), Anthropic's tool_use
    // ({ name, input }), Gemini's functionCall ({ name, args }), the AI
    // SDK's tool call ({ toolName, input }), LangChain's ToolCall ({ name,
    // args }), Cohere v1's ({ name, parameters }, which Llama-style models
    // write too: its arguments were not read, and executeCode answered that
    // the code sent was missing). The model was told there is no tool "[object Object]": the
    // host's way of calling, which it cannot fix. (Not inside a
    // multi_tool_use.parallel wrapper, which runToolCall reads: there the
    // name is the model's, and what stands after it is no options of the
    // host's. A string's .name is undefined: a name is read as it was.)
    // Bedrock's content block ({ toolUse }) and Gemini's part
    // ({ functionCall }), what a loop over a turn's blocks or parts holds,
    // were a TypeError: the call inside runs, and the answer is the block
    // or part the API takes back. Both want an object where searchTools
    // answers with an array: Bedrock's toolResult gets the output as JSON
    // text (its json would have to be an object), Gemini's response holds
    // it as "output", its key for a function's output (with an id only
    // when the call had one: Gemini 2.x sends none). A failed run or call
    // (ok: false) is marked as the APIs mark one: Bedrock's status "error"
    // (Claude reads it as its tool_result's is_error; the model was told of
    // a failure only in the text), Gemini's "error" key in place of
    // "output" (its docs: "error" for error details). The whole result goes
    // there, its logs too, for the model's next attempt. Bedrock's status
    // is set on every answer, "success" too: the few models that refuse the
    // field (Writer's Palmyra: "This model doesn't support the status
    // field") then refuse the first answer, not the first failed one, which
    // a loop tried on successful calls would meet only in use.
    // Only the objects' own fields are read (plain(), llm-call.mjs): not a
    // polluted Object.prototype's.
    if (Object(name) !== name) return runToolCall(session, name, args, options);
    const [b, f] = readable("handleToolCall: call", () => {
        const b = plain(name);
        return [b, plain(b.toolUse ?? b.functionCall ?? b.function ?? b)];
    });
    const n = f.name ?? f.toolName;
    // Any other object (a whole assistant message, its tool_calls) is the
    // host's mistake: the model was told of a tool "[object Object]".
    if (!n) throw new TypeError("handleToolCall: call: expected { name, arguments }, { toolName, input }, { toolUse } or { functionCall }");
    const out = await runToolCall(session, n, f.arguments ?? f.input ?? f.args ?? f.parameters, args);
    const failed = out?.ok === false;
    return b.toolUse
        ? { toolResult: { toolUseId: f.toolUseId, content: [{ text: JSON.stringify(out) }], status: failed ? "error" : "success" } }
        : b.functionCall
          ? { functionResponse: { ...(f.id && { id: f.id }), name: n, response: { [failed ? "error" : "output"]: out } } }
          : out;
}
