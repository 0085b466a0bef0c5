// A model's tool call run on a session's LLM tools: the part of
// @interopio/code-mode/llm's handleToolCall that the MCP and WebMCP
// adapters share (they pass the name and arguments as sent), apart from the
// reading of the SDKs' call objects, which only llm.mjs needs.
//
// handleToolCall resolves for every mistake a model can make (an unknown
// tool, arguments that are not JSON, values of the wrong type), because a
// loop that crashes on one bad tool call loses the whole conversation,
// whereas a readable error is something the model fixes on its next turn.

// The LLM tools of a session, fetched on every call: getLlmTools() builds
// new wrappers (0.1-0.4 ms of CPU), nothing beside a model's turn, and a
// cache of them cost 52 of llm.mjs's budgeted bytes.
export function llmTools(session) {
    if (typeof session?.getLlmTools != "function") {
        throw new TypeError("session: expected a Code Mode session (from createSession()), got " + describe(session));
    }
    return session.getLlmTools();
}

export function describe(v) {
    return v === null ? "null" : Array.isArray(v) ? "an array" : typeof v == "object" ? "an object" : typeof v;
}

// A call object's own enumerable fields on an object without a prototype:
// a call is data (an SDK's parse of the API's JSON), and a page's
// Object.prototype may be polluted (a merge of attacker JSON with a
// "__proto__" key): an inherited "functionCall", "toolUse" or "function"
// ran its code in place of every call the model made, an inherited
// "arguments" or "tool_uses" gave code to a call that had none. Only an
// object is copied: a string's characters (a model's 10 MB tool name)
// would each be a field.
export const plain = (v) => ({ __proto__: null, ...(typeof v == "object" && v) });

// What reading a host's object gives, or a TypeError naming it: a revoked
// Proxy (or a getter that throws) threw its raw words ("Cannot perform
// 'ownKeys' on a proxy that has been revoked"), which name nothing.
export function readable(what, read) {
    try {
        return read();
    } catch (err) {
        throw new TypeError(`${what}: cannot be read (${err?.message ?? err})`);
    }
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
    if (value == null) return { value: {} };
    // A revoked Proxy throws even at Array.isArray: execute answers it as
    // arguments that are not JSON (INVALID_INPUT), as a getter that throws.
    try {
        if (describe(value) != "an object") return again(`must be a JSON object, got ${describe(value)}`);
    } catch {}
    return { value };
}

// One tool call of a model, its name a string as the model sent it (or
// anything else, an unknown tool): handleToolCall's once it has read the
// call object, and the MCP and WebMCP adapters' (whose names are strings),
// which so do not carry the reading of the SDKs' call objects.
export async function runToolCall(session, name, args, options, wrapped) {
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
        if (name === "multi_tool_use.parallel" && !wrapped) return Promise.all(plain(typeof args == "string" ? json(args) : args).tool_uses.map((u) => runToolCall(session, plain(u).recipient_name, plain(u).parameters, options, 1)));
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
        // (The TypeError first: options that cannot be read are one.)
        if (err instanceof TypeError || options?.signal?.aborted) throw err;
        return parsed.value ? failure(err?.name || "Error", "INTERNAL", `${tool.name} failed: ${err?.message ?? err}`) : parsed;
    }
}
