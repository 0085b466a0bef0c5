// @interopio/code-mode/llm: a session's two LLM tools in the shapes that
// OpenAI and Anthropic expect, and one call handler for every provider's
// tool-call loop. It imports nothing: it works on a session object and
// returns plain data, so the SDKs stay the caller's.
//
// handleToolCall resolves for every mistake a model can make (an unknown
// tool, arguments that are not JSON, values of the wrong type), because a
// loop that crashes on one bad tool call loses the whole conversation,
// whereas a readable error is something the model fixes on its next turn.

// The LLM tools of a session, fetched on every call: getLlmTools() builds
// new wrappers (0.1-0.4 ms of CPU), nothing beside a model's turn, and a
// cache of them cost 52 of this module's budgeted bytes.
function llmTools(session) {
    if (typeof session?.getLlmTools != "function") {
        throw new TypeError("session: expected a Code Mode session (from createSession()), got " + describe(session));
    }
    return session.getLlmTools();
}

function describe(v) {
    return v === null ? "null" : Array.isArray(v) ? "an array" : typeof v == "object" ? "an object" : typeof v;
}

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

function failure(name, code, message) {
    return { ok: false, error: { name, code, message } };
}

// What a call of the tool looks like, for messages that tell the model how
// to call it again: {"code": string, "explanation": string}.
// (The two tools' own schemas: flat, every property typed.)
function expectedShape({ inputSchema: { properties: p, required: r = [] } }) {
    return `{${Object.keys(p).map((k) => `"${k}"${r.includes(k) ? "" : "?"}: ${p[k].type}`).join(", ")}}`;
}

// JSON text as models write it: a comma before a closing brace or bracket
// ('{"code":"return 1",}', '[1,]'), which JSON.parse refuses, is read
// past (JSON text never has one there); strings, matched first (closed or
// not), stay as they are. Text that does not parse so, or that the regexp
// cannot scan (its backtracking ends near 10 MB of escapes), is parsed as
// it was sent: JSON.parse's message then says where in that text.
function json(text) {
    try {
        return JSON.parse(text.replace(/("[^"\\]*(?:\\.[^"\\]*)*"?)|,\s*(?=[\]}])/g, "$1"));
    } catch {
        return JSON.parse(text);
    }
}

// The arguments as execute takes them ({ value }), or the failure that
// tells the model how to call the tool again.
function parseArgs(tool, args) {
    let value = args;
    const again = (why) => failure("TypeError", "INVALID_INPUT", `The arguments of ${tool.name} ${why}. Call ${tool.name} again with a JSON object ${expectedShape(tool)}.`);
    if (typeof args == "string") {
        // Some models send "" for a call without arguments.
        try {
            value = json(args.trim() || "{}");
        } catch (err) {
            // A lone string that is no attempt at JSON ("open orders",
            // "return 1"): the tool's own execute reads it as its query or
            // code, as when called directly.
            return /^[[{"]/.test(args.trim()) ? again(`are not valid JSON (${err.message})`) : { value: args };
        }
    }
    // The arguments encoded twice: the object inside, if it is one. Any
    // other string ("{ return 1 }", a program sent bare) is refused below
    // as a string, not as JSON the model did send valid.
    if (typeof value == "string") {
        try {
            value = json(value);
        } catch {
            // not JSON inside: a string
        }
    }
    return value == null ? { value: {} } : describe(value) == "an object" ? { value } : again(`must be a JSON object, got ${describe(value)}`);
}

/**
 * Runs one tool call of a model: `name` as the model sent it, `args` as a
 * JSON string (OpenAI's `arguments`) or an object (Anthropic's `input`).
 * Resolves with the tool's result, or with `{ ok: false, error: { name,
 * code, message } }` for an unknown tool, malformed or mistyped arguments,
 * or anything else that went wrong, so the model can read it and retry.
 * It rejects when `options.signal` aborts (the caller stopping the loop)
 * and with a TypeError for options execute refuses: the host's mistakes.
 */
export async function handleToolCall(session, name, args, options, wrapped) {
    // The call object as the SDKs hand it, options after it: Chat
    // Completions' tool_call ({ function: { name, arguments } }), a
    // Responses function_call ({ name, arguments }), Anthropic's tool_use
    // ({ name, input }), Gemini's functionCall ({ name, args }), the AI
    // SDK's tool call ({ toolName, input }). The model
    // was told there is no tool "[object Object]": the host's way of
    // calling, which it cannot fix. Not inside a wrapper: there the name is
    // the model's, and what stands after it is no options of the host's.
    // (A string's .name is undefined: a name is read as it was.)
    const f = name?.function ?? name;
    const n = f?.name ?? f?.toolName;
    if (!wrapped) {
        if (n) return handleToolCall(session, n, f.arguments ?? f.input ?? f.args, args);
        // Any other object (a whole assistant message, its tool_calls) is
        // the host's mistake: the model was told of a tool "[object Object]".
        if (Object(name) === name) throw new TypeError("handleToolCall: call: expected { name, arguments } or { toolName, input }");
    }
    let tools;
    // multi_tool_use.parallel: the wrapper OpenAI models (trained on
    // ChatGPT's own tool) put parallel calls in, {tool_uses: [{
    // recipient_name, parameters }]}, sent as a call of its own (it was an
    // UNKNOWN_TOOL): each call runs, and the answer is theirs, in order.
    // Anything else under that name, or in it, is an unknown tool whose
    // answer shows the wrapper's shape: a wrapper inside one too, which
    // recursed (5,000 deep overflowed the stack). wrapped, no part of the
    // API, marks a call from inside one. The promise is returned, not
    // awaited, so that an abort still rejects.
    try {
        tools = llmTools(session);
        if (name === "multi_tool_use.parallel" && !wrapped) return Promise.all((typeof args == "string" ? json(args) : args).tool_uses.map((u) => handleToolCall(session, u?.recipient_name, u?.parameters, options, 1)));
    } catch (err) {
        if (!tools) return failure(err.name || "Error", "INTERNAL", err.message);
        wrapped = 1;
    }
    // functions.<name>: how models trained on Codex transcripts (GPT-5.6)
    // and gpt-oss's format address a tool; every such call was refused.
    // A name in another case or with separators (ExecuteCode, execute_code,
    // searchtools, search-tools) is that tool too: there are two, and no
    // such name is another's, where UNKNOWN_TOOL cost the model a turn.
    const tool = tools.find((t) => t.name.toLowerCase() == String(name).replace(/^functions\.|[\s_-]/g, "").toLowerCase());
    const parsed = tool
        ? parseArgs(tool, args)
        : failure(
              "ReferenceError",
              "UNKNOWN_TOOL",
              `There is no tool ${JSON.stringify(String(name).slice(0, 200))}. The tools are ${tools.map((t) => t.name).join(" and ")}; ` +
                  "call the page's tools in executeCode's code: tools.<name>(input)." +
                  (wrapped ? ' multi_tool_use.parallel takes {tool_uses: [{recipient_name, parameters}]}.' : ""),
          );
    // The model's mistake is answered once execute has read the host's
    // options (its keys are the core's to know) with arguments that run
    // nothing, searchTools's (no run events): a host's typo throws on the
    // first call, whatever the model sent.
    try {
        const out = await (parsed.value ? tool : tools[0]).execute(parsed.value ?? 0, options);
        return parsed.value ? out : parsed;
    } catch (err) {
        // A TypeError is the host's options ("execute(args, options): unknown
        // key ..."): the model's arguments resolve as INVALID_INPUT results,
        // and the host, not the model, has to hear of its own mistake.
        if (options?.signal?.aborted || err instanceof TypeError) throw err;
        return parsed.value ? failure(err?.name || "Error", "INTERNAL", `${tool.name} failed: ${err?.message ?? err}`) : parsed;
    }
}
