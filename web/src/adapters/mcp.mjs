// @interopio/code-mode/mcp: an MCP server's tools as Code Mode tools
// (fromMcpClient), and Code Mode as an MCP server (toMcpServer).
//
// The Model Context Protocol SDK is a peer dependency: the caller already
// has it (fromMcpClient takes a connected Client). Of SDK 1
// (@modelcontextprotocol/sdk), its types module is imported only for an SDK
// 1 client, and McpServer only when toMcpServer is called: an app on SDK 2
// (@modelcontextprotocol/client) alone has no @modelcontextprotocol/sdk, and
// a page that only consumes servers never loads server code.

import { DELAY, MAX_DELAY, annotations, checkOptions, createToolSource, kept, namespaceOf, pause, sanitizeName, serialized, uniqueNames, unwrapToolResult } from "./source.mjs";
import { describe, llmTools, runToolCall } from "./llm-call.mjs";

const LIST_CHANGED = "notifications/tools/list_changed";
const SDK1 = () => import("@modelcontextprotocol/sdk/types.js");

// SDK 2 (@modelcontextprotocol/client) names methods by string and resolves
// their schemas itself. What stands for SDK 1's schemas with it: a tools/list
// page taken as it is (a Standard Schema), for toolOf to check tool by tool,
// whose name it checks (its schemas registerTool does, its hints annotations()).
const SDK2 = {
    PaginatedResultSchema: { "~standard": { version: 1, vendor: "code-mode", validate: (value) => ({ value }) } },
    ToolSchema: { safeParse: (t) => ({ success: typeof t?.name == "string", data: t, error: { issues: [{ path: ["name"], message: "expected a string" }] } }) },
    ToolListChangedNotificationSchema: LIST_CHANGED,
};

// timeout: the SDK hands it to setTimeout as it is, and has no "no limit".
const FROM_OPTIONS = {
    namespace: "string",
    trusted: "boolean",
    timeout: DELAY,
    filter: "function",
    onError: "function",
};

/**
 * A tools/call result as the value sandbox code receives: isError throws
 * with its text; structuredContent is preferred; one text block is parsed
 * as JSON when it is JSON; any other content is returned as it is.
 */
export function unwrapCallToolResult(result) {
    return unwrapToolResult(result, "the MCP tool");
}

/**
 * The tools of a connected MCP Client as Code Mode tools named
 * `<namespace>.<tool>` (the namespace defaults to the server's name), kept
 * in step with the server's notifications/tools/list_changed.
 */
export async function fromMcpClient(client, options) {
    if (typeof client?.request != "function" || typeof client.callTool != "function" || typeof client.setNotificationHandler != "function") {
        throw new TypeError("fromMcpClient(client): expected a connected Client of @modelcontextprotocol/sdk or @modelcontextprotocol/client");
    }
    const opts = checkOptions(options, FROM_OPTIONS, "fromMcpClient");
    const serverName = client.getServerVersion?.()?.name;
    if (opts.namespace === undefined && !serverName) {
        throw new TypeError("fromMcpClient(client, options): options.namespace is required: the server did not give its name (is the client connected?)");
    }
    const namespace = namespaceOf(opts.namespace, serverName, "mcp");
    // SDK 2's Client has getProtocolEra (MCP 2026-07-28's eras).
    const sdk2 = typeof client.getProtocolEra == "function";
    const modern = sdk2 && client.getProtocolEra() == "modern";
    const types = sdk2 ? SDK2 : await SDK1();
    const source = `mcp:${namespace}`;
    // The connection to the server is gone: its every call fails, naming it
    // (the model reads which server, and that its every tool fails).
    const gone = (what, why) => new Error(`MCP server ${JSON.stringify(namespace)}: the connection ${what}; its tools fail until it is connected again (${why?.message ?? why})`);
    // The server names of tools whose outputSchema Code Mode refused (a
    // lookahead in a pattern, written for JavaScript): the SDK's own
    // validator (Ajv) checks their results, as it did every tool's.
    const sdkChecked = new Set();
    // A tool as the SDK is to know it: its outputSchema only where Code Mode
    // could not take it.
    const forSdk = (t) => (sdkChecked.has(t.name) ? t : { ...t, outputSchema: undefined });
    // The list goes to the SDK once per listing and once per registration
    // that refused some (in a microtask, before any call's answer is
    // checked), not once per refused tool: each pass copies every tool and
    // the SDK walks them all (O(refused x tools) for a registration).
    let listed = [], due = 0;
    const cache = () => due++ || queueMicrotask(() => (due = 0, client.cacheToolMetadata?.(listed.map(forSdk))));
    const live = createToolSource({
        kind: "MCP",
        onError: opts.onError,
        uncheckedOutput: (def) => (sdkChecked.add(def.annotations.mcpTool), cache(), "the MCP SDK checks its results"),
    });
    // In a run, the run bounds the call (its signal aborts at its timeout or
    // end), not the SDK's default of 60 s per request: a run given minutes
    // lost a slow tool at 60 s ('Request timed out'). options.timeout still wins.
    const requestOptions = (signal) => ({ signal, timeout: opts.timeout ?? (signal ? MAX_DELAY : undefined) });
    // Over Streamable HTTP (SDK 1.32, 2.4), a server gone mid-call (its
    // process ended, its connection dropped) left the call pending until the
    // run's timeout: the SDK tells only client.onerror ("SSE stream
    // disconnected"), never the call. So an error while calls are in flight
    // sends the server a ping (one at a time; 5 s at most, a live server
    // answers at once; MCP 2026-07-28 has no ping, and SDK 2 refuses to send
    // one: server/discover stands for it): if it fails, so do those calls,
    // naming the server and the tool; a server that answers keeps its calls
    // (a blip the SDK resumes). An error the server answers is an answer (a
    // server without ping answers "Method not found": its calls were failed
    // as lost): SDK 2's ProtocolError, whose code is JSON-RPC's number (its
    // own errors' codes are strings), SDK 1's McpError but for the two codes
    // it makes itself. No SDK words are read. The app's handler hears every
    // error still (hear()).
    const pending = new Map(); // reject -> the tool's name
    let probe;
    const answered = (why) => (sdk2 ? typeof why?.code == "number" : why instanceof types.McpError && ![types.ErrorCode.ConnectionClosed, types.ErrorCode.RequestTimeout].includes(why.code));
    const onerror = (err) => {
        probe ||= pending.size && client[modern ? "discover" : "ping"]?.({ timeout: 5000 })
            .catch((why) => answered(why) || pending.forEach((name, reject) => reject(gone(`was lost during the call of ${name}`, why))))
            .finally(() => (probe = 0));
    };
    live.onClose(hear(client, onerror));
    function callTool(params, signal, tool) {
        let lost;
        // A server (or a proxy) that ends a call's response stream without
        // its answer held the call until the run's timeout. SDK 2's
        // Streamable HTTP transport says so (onRequestStreamEnd of its send
        // options), but only for the sends that ask, which its callTool does
        // not: the call's onresumptiontoken, which the SDK hands the
        // transport's send with the request, marks it for ends() to ask.
        // SDK 1 has no such word: ends() watches the stream its transport
        // reads the answer from (the run's timeout ended the call).
        const calls = ends(client);
        // A stream that broke (the SDK tells onerror first, which may send
        // a ping) waits for the ping: a server gone fails its calls, naming
        // the connection; one there has lost this call's answer all the same.
        const mark = async (token) => (mark.r ||= token) || (await probe, lost(new Error(`MCP server ${JSON.stringify(namespace)}: the stream of the call of ${tool.name} ended without its answer`)));
        marks.add(mark);
        // callTool's arguments after params: SDK 1 takes a result schema, then
        // the options. SDK 2 takes the options, and checks structuredContent
        // against the definition of its own listTools(), if any: this one is
        // the tool as listed here, its outputSchema only where Code Mode could
        // not take it (as cache() does for SDK 1).
        const o = { ...requestOptions(signal), onresumptiontoken: mark };
        const args = sdk2 ? [{ ...o, toolDefinition: forSdk(tool) }] : [undefined, o];
        // A call the SDK failed while a ping is out (the error that sent it
        // may be this call's: a restarted server refuses its session) waits
        // for the ping: if that fails too, the call's error says to connect
        // again (the failed ping rejects it first).
        const sent = client.callTool(params, ...args).catch(async (err) => {
            await probe;
            throw err;
        });
        return Promise.race([sent, new Promise((_, reject) => pending.set((lost = reject), tool.name))]).finally(() => (pending.delete(lost), calls && calls.delete(mark.id)));
    }

    // A tool whose execution.taskSupport is "required" answers only a
    // task-augmented tools/call (MCP 2025-11-25); the SDK's callTool refuses
    // to send a plain one. The run's abort cancels the task on the server.
    async function callAsTask(params, signal) {
        const tasks = client.experimental?.tasks;
        if (typeof tasks?.callToolStream != "function") {
            throw new Error(`${params.name} runs only as an MCP task, and this client cannot call tasks (client.experimental.tasks.callToolStream is missing)`);
        }
        // SDK 1 adds a listener to a request's signal per request, and never
        // removes it: a task polled each second had the call's signal hold
        // one more a poll (Node's MaxListenersExceededWarning at the 11th,
        // some 0.7 KB each), and the run's abort sent a cancellation for
        // every request answered. The stream's requests are made one after
        // another, so the signal the SDK is given here (which the run's
        // abort aborts) keeps the last one's listener only.
        const ctrl = new AbortController(), sig = ctrl.signal, add = sig.addEventListener;
        let last, taskId, status, cancelled = false;
        sig.addEventListener = (type, f) => (sig.removeEventListener(type, last), add.call(sig, type, (last = f)));
        const cancel = () => {
            ctrl.abort(signal.reason);
            if (taskId === undefined || cancelled) return;
            cancelled = true;
            tasks.cancelTask(taskId).catch(() => {});
        };
        signal?.addEventListener("abort", cancel, { once: true });
        if (signal?.aborted) cancel();
        try {
            for await (const message of tasks.callToolStream(params, undefined, { ...requestOptions(signal && sig), task: {} })) {
                if (message.type === "taskCreated" || message.type === "taskStatus") {
                    taskId = message.task.taskId;
                    status = message.task;
                    if (signal?.aborted) cancel();
                } else if (message.type === "result") {
                    return message.result;
                } else if (message.type === "error") {
                    if (signal?.aborted) throw signal.reason;
                    const why = status?.statusMessage ? ` (${status.status}: ${status.statusMessage})` : "";
                    throw new Error(`${message.error?.message ?? message.error}${why}`);
                }
            }
            throw new Error(`${params.name}: the MCP task ended without a result`);
        } finally {
            signal?.removeEventListener("abort", cancel);
        }
    }

    // A tool as the SDK's Tool schema reads it (its unknown keys dropped),
    // or undefined, and why added to left, naming the tool, the field and
    // the rule. An inputSchema without a type at its root (OpenAPI
    // generators write allOf or oneOf there) is read as an object's: a
    // tool's arguments are an object, and Code Mode enforces the rest.
    let lastLeft = "";
    function toolOf(tool, left) {
        const input = tool?.inputSchema;
        const t = input && typeof input == "object" && !("type" in input) ? { ...tool, inputSchema: { type: "object", ...input } } : tool;
        const read = types.ToolSchema.safeParse(t);
        if (read.success) return read.data;
        const [issue] = read.error.issues;
        const got = issue.path.reduce((v, k) => v?.[k], tool);
        left.push(`MCP tool ${namespace}.${tool?.name}: left out: /${issue.path.join("/")}: ${issue.message}${got === undefined ? "" : `, got ${JSON.stringify(got).slice(0, 80)}`} (MCP's Tool schema)`);
    }

    async function listAll() {
        const caps = client.getServerCapabilities?.();
        if (caps && !caps.tools) return [];
        const tools = [], left = [];
        const seen = new Set();
        let cursor;
        do {
            // options.timeout bounds each page too: a server that never
            // answers tools/list held fromMcpClient for the SDK's 60 s.
            // The page as the SDK's listTools asks for it, but its tools
            // checked one by one (toolOf): the SDK refuses the whole page
            // for one tool it does not allow, so a tool written wrongly
            // cost every tool of the server, with zod's dump as the error.
            const page = await client.request({ method: "tools/list", params: cursor === undefined ? undefined : { cursor } }, types.PaginatedResultSchema, opts.timeout ? { timeout: opts.timeout } : undefined);
            if (!Array.isArray(page.tools)) throw new TypeError(`${source}: tools/list: tools: expected an array, got ${JSON.stringify(page.tools)}`);
            for (const tool of page.tools) {
                const t = toolOf(tool, left);
                if (t) tools.push(t);
            }
            cursor = page.nextCursor;
            // A server that hands back a cursor it gave before would loop
            // forever; one that gives a new one on every page too (over an
            // in-memory transport, the page's thread never got back: held
            // for good, its memory growing). 1,000 pages: under 1 s so.
            if (seen.has(cursor) || seen.size > 998) throw new Error(`${source}: tools/list ${seen.size > 998 ? "gave more than 1,000 pages" : `returned the cursor ${JSON.stringify(cursor)} twice`}`);
            seen.add(cursor);
        } while (cursor !== undefined && cursor !== null);
        // One report a listing that left tools out, naming how many and the
        // first three, and none while that stays the same: one a tool, a
        // server listing 10,000 bad tools wrote 10,000 warnings a listing,
        // and a Set kept every message of every listing.
        const why = (left.length > 3 ? `MCP server ${JSON.stringify(namespace)}: ${left.length} tools left out; the first 3:\n` : "") + left.slice(0, 3).join("\n");
        if (why != lastLeft && (lastLeft = why)) live.report(new TypeError(why));
        // The SDK keeps what it knows of each tool (which run only as tasks;
        // the validators of outputSchema its callTool checks structuredContent
        // with) from the last listTools() page only: it clears it per page.
        // Give it the whole list (a private method of SDK 1.2x; without it,
        // nothing changes), without the outputSchemas: Code Mode's core
        // checks every result against the tool's outputSchema, in its own
        // words (the tool, the path, the rule), and a result is checked once;
        // but for those it refused (sdkChecked). The rest of the SDK's check
        // (structuredContent must be there) is made by execute.
        listed = tools;
        cache();
        return kept(tools, opts.filter, "fromMcpClient");
    }

    async function entries(tools) {
        const names = uniqueNames(namespace, tools.map((t) => sanitizeName(t.name)));
        const entry = (tool, i) => {
            // mcpTool: the server's own name, for policies (the tool's
            // name here is sanitised, suffixed, namespaced).
            const def = {
                name: names[i],
                description: tool.description || tool.title || tool.annotations?.title || "",
                inputSchema: tool.inputSchema || { type: "object" },
                annotations: annotations(tool.annotations, { source, untrusted: !opts.trusted, extra: { ...(tool.title ? { title: tool.title } : {}), mcpTool: tool.name } }),
                execute: async (input, { signal }) => {
                    const params = { name: tool.name, arguments: input ?? {} };
                    let result;
                    try {
                        result =
                            tool.execution?.taskSupport === "required"
                                ? await callAsTask(params, signal)
                                : await callTool(params, signal, tool);
                    } catch (err) {
                        // The SDK's words when the connection is gone ("MCP
                        // error -32000: Connection closed" for a call in
                        // flight, "Not connected" after) name no server: the
                        // model reads which one, and that its every tool fails.
                        // A client of another make may have no transport to
                        // look at: its own words stand.
                        if ("transport" in client && !client.transport) throw gone("is closed", err);
                        throw err;
                    }
                    // The SDK's words, for what its check no longer sees.
                    if (tool.outputSchema && result && !result.isError && !result.structuredContent) {
                        throw new Error(`Tool ${tool.name} has an output schema but did not return structured content`);
                    }
                    return unwrapCallToolResult(result);
                },
            };
            if (tool.outputSchema) def.outputSchema = tool.outputSchema;
            // How the call is made is part of what it reaches at the server.
            return { def, origin: tool.execution?.taskSupport === "required" ? [tool.name, "task"] : tool.name };
        };
        // A task between 2,048 tools: 100,000 held the page's thread here
        // for a third of a second in one stretch.
        const out = [];
        for (let i = 0; i < tools.length; i++) {
            if (i && !(i % 2048)) await pause();
            out.push(entry(tools[i], i));
        }
        return out;
    }

    // One listing at a time; a notification during a listing asks for one more.
    const refresh = serialized(async () => {
        await live.set(await entries(await listAll()));
        return live.source.tools;
    }, () => live.closed);

    // Followed before the first listing: a change the server announces
    // while it is being listed asks for one more listing (serialized).
    const changed = () => {
        if (!live.closed) refresh().catch((err) => live.closed || live.report(err));
    };
    live.onClose(follow(client, types.ToolListChangedNotificationSchema, changed, live.report));
    try {
        // MCP 2026-07-28 sends a change only on a subscription the client
        // opened (subscriptions/listen): without one, tools the server added
        // never came. One the server refuses is reported: its tools are
        // listed still, and refresh() lists them again.
        if (modern && client.getServerCapabilities()?.tools?.listChanged) {
            const sub = await client.listen({ toolsListChanged: true }, requestOptions()).catch(live.report);
            if (sub) live.onClose(() => sub.close().catch(live.report));
        }
        await refresh();
    } catch (err) {
        live.source.close();
        throw err;
    }

    // refresh lists the server's tools again now (also done on every
    // list_changed).
    return Object.assign(live.source, { namespace, refresh });
}

// client.onerror, while sources follow the client, is an accessor: its
// value calls every source's handler, then the app's; setting it sets the
// app's (one set after fromMcpClient replaced the source's, and a server
// gone mid-call hung its calls until the run's timeout again). Both SDKs
// declare it a plain field and only call it. When the last source closes,
// the app's latest handler is the plain property again.
const hearers = new WeakMap(); // client -> { all: the sources' handlers, app }

function hear(client, onerror) {
    let h = hearers.get(client);
    if (!h) {
        hearers.set(client, (h = { all: new Set(), app: client.onerror, undo: [] }));
        // An app's handler that calls the one it replaced (this one, read
        // before it set its own) would call it for ever: once is enough.
        let busy;
        const value = (err) => {
            if (busy) return;
            busy = true;
            try {
                h.all.forEach((f) => f(err));
                h.app?.call(client, err);
            } finally {
                busy = false;
            }
        };
        Object.defineProperty(client, "onerror", { configurable: true, get: () => value, set: (f) => (h.app = f) });
    }
    h.all.add(onerror);
    return () => {
        h.all.delete(onerror);
        if (!h.all.size) {
            h.undo.forEach((f) => f());
            hearers.delete(client);
            delete client.onerror;
            client.onerror = h.app;
        }
    };
}

// SDK 2's transport as ends() leaves it: a send whose options carry a
// call's mark asks to hear the end of its request's stream, and an end
// before the request's answer fails the call. (The transport tells the
// end after an answer too; the answer, which it hands onmessage first,
// takes the request from those awaited, as the call's settling does.)
// SDK 1's (1.32) tells no one: its _handleSseStream, which reads a
// request's response stream, gets a copy (tee): its end (or break) before
// the answer fails the call once the SDK has read what came (a task later),
// unless an event id came, from which the SDK resumes (the mark keeps it).
// Other transports never tell it. Returns the requests awaited. While a
// source follows the client (hear()): when the last closes, the
// transport's send and onmessage are its own again, unless replaced
// since (they stayed wrapped for the transport's life); a call of a tool
// left registered after that is not followed.
const marks = new WeakSet();
const awaited = new WeakMap(); // transport -> Set of request ids

function ends(client) {
    const t = client.transport, h = hearers.get(client);
    let calls = awaited.get(t);
    if (!calls && t && h) {
        awaited.set(t, (calls = new Set()));
        const { send, onmessage } = t;
        // The request's send, not the cancellation the SDK sends with the
        // same options. (SDK 2.4 asks no stream end for a tools/call.)
        const s = (t.send = function (m, o) {
            const mark = o?.onresumptiontoken;
            if (marks.has(mark) && "id" in m) o = { ...o, onRequestStreamEnd: () => calls.delete(m.id) && mark() }, calls.add((mark.id = m.id));
            return send.call(this, m, o);
        });
        const r = (t.onmessage = function (m, extra) {
            m.method || calls.delete(m.id);
            return onmessage?.call(this, m, extra);
        });
        const read = t._handleSseStream;
        const w = read && (t._handleSseStream = function (b, o, ...r) {
            const mark = o?.onresumptiontoken, end = () => pause().then(() => calls.delete(mark.id) && mark());
            if (marks.has(mark) && b) {
                const [x, y] = b.tee();
                y.pipeTo(new WritableStream()).then(end, end);
                b = x;
            }
            return read.call(this, b, o, ...r);
        });
        h.undo.push(() => {
            awaited.delete(t);
            if (t.send == s) t.send = send;
            if (t.onmessage == r) t.onmessage = onmessage;
            if (w && t._handleSseStream == w) t._handleSseStream = read;
        });
    }
    return calls;
}

const TO_OPTIONS = {
    name: "string",
    version: "string",
    context: "function",
    McpServer: "function",
};

// The Client keeps one handler per notification method. Every source that
// follows a client shares one, which also calls the handler the client had
// before (the SDK's own listChanged option, the caller's); when the last
// source closes, that handler is put back, unless another replaced ours.
const followers = new WeakMap(); // client -> { listeners: Map<fn, report> }

function follow(client, key, changed, report) {
    const handlers = client._notificationHandlers instanceof Map ? client._notificationHandlers : undefined;
    let f = followers.get(client);
    // Another handler replaced ours: follow afresh, chaining to that one.
    if (f && handlers && handlers.get(LIST_CHANGED) !== f.installed) f = undefined;
    if (!f) {
        const previous = handlers?.get(LIST_CHANGED);
        const listeners = new Map();
        client.setNotificationHandler(key, async (notification) => {
            if (previous) {
                try {
                    await previous(notification);
                } catch (err) {
                    listeners.values().next().value?.(err);
                }
            }
            for (const listener of Array.from(listeners.keys())) listener();
        });
        f = { listeners, previous, installed: handlers?.get(LIST_CHANGED) };
        followers.set(client, f);
    }
    f.listeners.set(changed, report);
    return () => {
        f.listeners.delete(changed);
        if (f.listeners.size > 0 || followers.get(client) !== f) return;
        followers.delete(client);
        if (handlers && handlers.get(LIST_CHANGED) !== f.installed) return; // replaced since: not ours to remove
        if (f.previous && handlers) handlers.set(LIST_CHANGED, f.previous);
        else if (typeof client.removeNotificationHandler === "function") client.removeNotificationHandler(LIST_CHANGED);
    };
}

/**
 * An McpServer that offers the session's searchTools and executeCode, for
 * any MCP client over any transport (`await server.connect(transport)`).
 * The tools are served through the SDK's low-level request handlers, so
 * their JSON Schemas go out exactly as the session defines them.
 */
export async function toMcpServer(session, options) {
    const tools = Array.from(llmTools(session));
    const opts = checkOptions(options, TO_OPTIONS, "toMcpServer");
    // options.McpServer: SDK 2's (@modelcontextprotocol/server), or SDK 1's;
    // by default SDK 1's, imported here only.
    const McpServer = opts.McpServer || (await import("@modelcontextprotocol/sdk/server/mcp.js")).McpServer;
    const server = new McpServer(
        { name: opts.name || "code-mode", version: opts.version || "1.0.0" },
        { capabilities: { tools: {} }, instructions: session.getSystemInstruction() },
    );
    // SDK 2's Server (getNegotiatedProtocolVersion) takes handlers by method
    // name, and hands them the request's signal as ctx.mcpReq.signal.
    const types = typeof server.server.getNegotiatedProtocolVersion == "function" ? { ListToolsRequestSchema: "tools/list", CallToolRequestSchema: "tools/call" } : await SDK1();
    // title at the top (MCP 2025-06-18: clients show it first) and in the
    // annotations, where clients of earlier revisions look.
    const listed = tools.map((t) => {
        const title = t.name === "searchTools" ? "Search the available tools" : "Run JavaScript that calls the tools";
        return {
            name: t.name,
            title,
            description: t.description,
            inputSchema: JSON.parse(JSON.stringify(t.inputSchema)),
            annotations: t.name === "searchTools" ? { title, readOnlyHint: true, openWorldHint: false } : { title, readOnlyHint: false },
        };
    });
    server.server.setRequestHandler(types.ListToolsRequestSchema, () => ({ tools: listed }));
    server.server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
        const context = opts.context ? await opts.context(extra) : undefined;
        let out;
        try {
            out = await runToolCall(session, request.params.name, request.params.arguments ?? {}, { signal: extra.signal ?? extra.mcpReq?.signal, context });
        } catch (err) {
            // Only the client's cancellation gets here; the SDK drops the answer.
            return { content: [{ type: "text", text: `cancelled: ${err?.message || err}` }], isError: true };
        }
        const result = { content: [{ type: "text", text: JSON.stringify(out) }] };
        if (describe(out) == "an object") {
            result.structuredContent = out;
            if (out.ok === false) result.isError = true;
        }
        return result;
    });
    return server;
}
