// @interopio/code-mode/mcp with the MCP SDK's second major
// (@modelcontextprotocol/client and /server 2.x): fromMcpClient took only
// SDK 1's Client, and threw at once for SDK 2's ("'[object Object]' is not a
// spec notification method"). Both eras of SDK 2: MCP 2025-11-25 in memory,
// 2026-07-28 over its stateless HTTP handler, where list changes come only
// on a subscription (subscriptions/listen).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioClientTransport1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as StreamableHTTPClientTransport1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport as InMemoryTransport1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer as McpServer1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpServer, Server, createMcpHandler } from "@modelcontextprotocol/server";
import * as z from "zod";
import { assetPath, loadFactory, run } from "./helpers.mjs";
import { loadAdapter, until } from "./adapter-helpers.mjs";
import { connectInMemory } from "./mcp-server.mjs";

let IoCodeModeFactory, mcp;
before(async () => {
    IoCodeModeFactory = await loadFactory();
    mcp = await loadAdapter("mcp");
});

// An issue tracker's tools, as SDK 2's McpServer writes them.
function addDeskTools(server, seen, extra) {
    server.registerTool(
        "search_issues",
        {
            title: "Search issues",
            description: "Search issues by text.",
            inputSchema: z.object({ q: z.string() }),
            outputSchema: z.object({ items: z.array(z.object({ id: z.number(), title: z.string() })) }),
            annotations: { readOnlyHint: true },
        },
        async ({ q }) => {
            const items = [{ id: 7, title: `about ${q}` }];
            return { content: [{ type: "text", text: JSON.stringify({ items }) }], structuredContent: { items } };
        },
    );
    server.registerTool("delete_repo", { description: "Delete a repository.", inputSchema: z.object({ repo: z.string() }), annotations: { destructiveHint: true } }, async ({ repo }) => ({
        content: [{ type: "text", text: `deleted ${repo}` }],
    }));
    server.registerTool("flaky", { description: "Always fails." }, async () => ({ content: [{ type: "text", text: "rate limited, retry in 30 s" }], isError: true }));
    server.registerTool("slow", { description: "Waits until cancelled." }, (ctx) => {
        seen.slowStarted = true;
        return new Promise((resolve) => {
            ctx.mcpReq.signal.addEventListener("abort", () => {
                seen.slowCancelled = true;
                resolve({ content: [{ type: "text", text: "cancelled" }] });
            });
        });
    });
    if (extra) server.registerTool(extra, { description: "Added later." }, async () => ({ content: [{ type: "text", text: '{"added": true}' }] }));
}

async function factoryWith(source, decisions) {
    const api = await IoCodeModeFactory({
        wasmLocation: assetPath,
        interceptors: {
            onToolCall: async ({ tool }) => {
                decisions.push([tool.name, tool.annotations.destructiveHint === true, tool.annotations.readOnlyHint]);
                return { allowed: true };
            },
        },
    });
    source.registerTools(api);
    return api;
}

const CALLS = `const r = {};
    r.found = await tools.desk.search_issues({ q: "login" });
    r.deleted = await tools.desk.delete_repo({ repo: "old" });
    try { await tools.desk.flaky({}); } catch (e) { r.flaky = e.message; }
    return r;`;

function assertCalls(out, decisions) {
    assert.equal(out.ok, true, JSON.stringify(out));
    assert.deepEqual(out.result, { found: { items: [{ id: 7, title: "about login" }] }, deleted: "deleted old", flaky: "rate limited, retry in 30 s" });
    assert.deepEqual(decisions, [
        ["desk.search_issues", false, true],
        ["desk.delete_repo", true, false],
        ["desk.flaky", true, false],
    ]);
}

// A run aborted while desk.slow runs: the server sees the cancellation.
async function assertAbortCancels(api, seen) {
    const controller = new AbortController();
    const pending = run(api.createSession(), "return await tools.desk.slow({})", { signal: controller.signal });
    await until(() => seen.slowStarted, "the server to start the call");
    controller.abort(new Error("user pressed stop"));
    await assert.rejects(pending, /user pressed stop/);
    await until(() => seen.slowCancelled, "the server to see the cancellation");
}

describe("fromMcpClient with SDK 2, MCP 2025-11-25 in memory", () => {
    let server, client, source, api;
    const seen = {};
    const decisions = [];
    before(async () => {
        server = new McpServer({ name: "desk", version: "1.0.0" });
        addDeskTools(server, seen);
        client = await connectInMemory(server);
        assert.equal(client.getProtocolEra(), "legacy");
        source = await mcp.fromMcpClient(client);
        api = await factoryWith(source, decisions);
    });
    after(async () => {
        api.dispose();
        source.close();
        await client.close();
    });

    test("lists the tools with their title, schemas and hints; results unwrapped, isError thrown", async () => {
        const search = source.tools.find((t) => t.name === "desk.search_issues");
        assert.equal(search.annotations.title, "Search issues");
        assert.equal(search.annotations.mcpTool, "search_issues");
        assert.deepEqual(Object.keys(search.outputSchema.properties), ["items"]);
        assertCalls(await run(api.createSession(), CALLS), decisions);
    });

    test("aborting the run cancels the call at the server (the SDK 2 callTool takes its options second)", () => assertAbortCancels(api, seen));

    test("a tool added on the server appears, one removed disappears", async () => {
        const added = server.registerTool("triage", { description: "Triage." }, async () => ({ content: [{ type: "text", text: '{"triaged": 1}' }] }));
        await until(() => source.tools.some((t) => t.name === "desk.triage"), "desk.triage to be listed");
        const out = await run(api.createSession(), "return await tools.desk.triage({})");
        assert.deepEqual(out.result, { triaged: 1 }, JSON.stringify(out));
        added.remove();
        await until(() => !source.tools.some((t) => t.name === "desk.triage"), "desk.triage to be gone");
    });

    test("a server that goes away mid-call ends the call with an error naming it", async () => {
        const low = new Server({ name: "kinds", version: "1.0.0" }, { capabilities: { tools: {} } });
        let hanging = false;
        low.setRequestHandler("tools/list", () => ({
            tools: [
                { name: "hangs", inputSchema: { type: "object" } },
                { name: "audio", inputSchema: { type: "object" } },
                { name: 7, inputSchema: { type: "object" } },
            ],
        }));
        low.setRequestHandler("tools/call", async (req) => {
            if (req.params.name === "audio") return { content: [{ type: "audio", data: "UklGRg==", mimeType: "audio/wav" }] };
            hanging = true;
            return new Promise(() => {});
        });
        const c = await connectInMemory(low);
        const errors = [];
        const s = await mcp.fromMcpClient(c, { onError: (e) => errors.push(e.message) });
        // A tool without a string name is left out and said; the others stay.
        assert.deepEqual(s.tools.map((t) => t.name), ["kinds.hangs", "kinds.audio"]);
        assert.deepEqual(errors, ["MCP tool kinds.7: left out: /name: expected a string, got 7 (MCP's Tool schema)"]);
        const api2 = await IoCodeModeFactory({ wasmLocation: assetPath });
        s.registerTools(api2);
        api2.registerTool({ name: "probe.closeServer", execute: async () => (await until(() => hanging, "the server to hold the call"), await low.close(), "closed") });
        try {
            const out = await run(
                api2.createSession(),
                `const r = { audio: await tools.kinds.audio({}) };
                 const pending = tools.kinds.hangs({}).then(() => "answered", (e) => e.message);
                 r.closed = await tools.probe.closeServer({});
                 r.hangs = await pending;
                 try { await tools.kinds.audio({}); } catch (e) { r.after = e.message; }
                 return r;`,
            );
            assert.equal(out.ok, true, JSON.stringify(out));
            assert.deepEqual(out.result.audio, [{ type: "audio", data: "UklGRg==", mimeType: "audio/wav" }]);
            const gone = 'MCP server "kinds": the connection is closed; its tools fail until it is connected again (';
            assert.ok(out.result.hangs.startsWith(gone), out.result.hangs);
            assert.ok(out.result.after.startsWith(gone), out.result.after);
        } finally {
            api2.dispose();
            s.close();
        }
    });

    test("an outputSchema Code Mode refuses is checked by SDK 2, given the tool's definition", async () => {
        const low = new Server({ name: "sloppy", version: "1.0.0" }, { capabilities: { tools: {} } });
        low.setRequestHandler("tools/list", () => ({
            tools: [{ name: "look", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { user: { type: "string", pattern: "^(?!admin)" } } } }],
        }));
        low.setRequestHandler("tools/call", (req) => ({ content: [], structuredContent: req.params.arguments.out }));
        const c = await connectInMemory(low);
        const errors = [];
        const s = await mcp.fromMcpClient(c, { onError: (e) => errors.push(e.message) });
        const api2 = await IoCodeModeFactory({ wasmLocation: assetPath });
        try {
            s.registerTools(api2);
            await api2.ready();
            assert.match(errors.join("\n"), /^MCP tool sloppy\.look: registered without its outputSchema, .*; the MCP SDK checks its results/);
            const out = await run(
                api2.createSession(),
                `const r = [await tools.sloppy.look({ out: { user: "bob" } })];
                 try { r.push(await tools.sloppy.look({ out: { user: "admin" } })); } catch (e) { r.push(e.message); }
                 return r;`,
            );
            assert.equal(out.ok, true, JSON.stringify(out));
            assert.deepEqual(out.result[0], { user: "bob" });
            assert.match(out.result[1], /output schema/i);
            assert.match(out.result[1], /pattern/);
        } finally {
            api2.dispose();
            s.close();
            await c.close();
        }
    });
});

describe("fromMcpClient with SDK 2, MCP 2026-07-28 over its HTTP handler", () => {
    let handler, client, source, api, extra;
    const seen = {};
    const decisions = [];
    before(async () => {
        // A stateless server: every request gets a server from the factory.
        handler = createMcpHandler(() => {
            const server = new McpServer({ name: "desk", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
            addDeskTools(server, seen, extra);
            return server;
        });
        client = new Client({ name: "test-client", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
        await client.connect(new StreamableHTTPClientTransport(new URL("http://mcp.test/mcp"), { fetch: (url, init) => handler.fetch(new Request(url, init)) }));
        assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
        source = await mcp.fromMcpClient(client);
        api = await factoryWith(source, decisions);
    });
    after(async () => {
        api.dispose();
        source.close();
        await client.close();
        await handler.close();
    });

    test("lists and calls the tools; aborting the run cancels the call", async () => {
        assertCalls(await run(api.createSession(), CALLS), decisions);
        await assertAbortCancels(api, seen);
    });

    // Without a subscription the server had nowhere to send its change to:
    // the added tool never came.
    test("a tool the server adds comes through the subscription fromMcpClient opened", async () => {
        extra = "triage";
        handler.notify.toolsChanged();
        await until(() => source.tools.some((t) => t.name === "desk.triage"), "desk.triage to be listed");
        const out = await run(api.createSession(), "return await tools.desk.triage({})");
        assert.deepEqual(out.result, { added: true }, JSON.stringify(out));
    });

    // A refused subscription failed fromMcpClient as a whole: the server's
    // tools, listed fine, were lost with it.
    test("close() ends the subscription; one the server refuses is reported, and the tools are listed", async () => {
        const listen = client.listen;
        let sub;
        client.listen = async (...args) => (sub = await listen.apply(client, args));
        try {
            const s = await mcp.fromMcpClient(client, { namespace: "again" });
            assert.ok(sub, "a subscription was opened");
            s.close();
            assert.equal(await sub.closed, "local");

            client.listen = async () => {
                throw new Error("MCP error -32603: too many subscriptions");
            };
            const errors = [];
            const refused = await mcp.fromMcpClient(client, { namespace: "refused", onError: (e) => errors.push(e.message) });
            assert.ok(refused.tools.some((t) => t.name === "refused.search_issues"), JSON.stringify(refused.tools.map((t) => t.name)));
            assert.deepEqual(errors, ["MCP error -32603: too many subscriptions"]);
            refused.close();
        } finally {
            client.listen = listen;
        }
    });
});

describe("fromMcpClient with SDK 2 against an SDK 1 server", () => {
    test("a Code Mode server over stdio (toMcpServer, SDK 1) runs its executeCode", async () => {
        const client = new Client({ name: "stdio-client", version: "1.0.0" });
        await client.connect(
            new StdioClientTransport({ command: process.execPath, args: [fileURLToPath(new URL("./fixtures/mcp-stdio-server.mjs", import.meta.url))], stderr: "pipe" }),
        );
        const source = await mcp.fromMcpClient(client, { namespace: "remote" });
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        try {
            assert.deepEqual(source.tools.map((t) => t.name), ["remote.searchTools", "remote.executeCode"]);
            source.registerTools(api);
            const out = await run(api.createSession(), `return await tools.remote.executeCode({ code: "return await tools.math.add({ a: 2, b: 40 })", explanation: "add" })`);
            assert.equal(out.ok, true, JSON.stringify(out));
            assert.equal(out.result.result, 42, JSON.stringify(out.result));
        } finally {
            api.dispose();
            source.close();
            await client.close();
        }
    });
});

// toMcpServer built SDK 1's McpServer only: SDK 2's createMcpHandler (the
// way it serves MCP 2026-07-28) takes SDK 2's, and an app on SDK 2 alone
// could not serve Code Mode at all.
describe("toMcpServer with SDK 2's McpServer (options.McpServer)", () => {
    let api, pageSignals;
    before(async () => {
        pageSignals = [];
        api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            tools: [
                { name: "math.add", description: "Adds a and b.", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } }, execute: ({ a, b }, { context }) => ({ sum: a + b, by: context?.by }) },
                { name: "math.wait", description: "Waits until aborted.", execute: (input, { signal }) => new Promise((resolve) => (pageSignals.push(signal), signal.addEventListener("abort", () => resolve(null)))) },
            ],
        });
    });
    after(() => api.dispose());
    const ADD = { code: "return await tools.math.add({ a: 2, b: 40 })", explanation: "add" };

    test("in memory: the two tools, a run with the request's context, and the client's cancellation", async () => {
        const server = await mcp.toMcpServer(api.createSession(), { name: "code-mode-2", McpServer, context: (ctx) => ({ by: typeof ctx.mcpReq?.id }) });
        assert.ok(server instanceof McpServer);
        const client = await connectInMemory(server);
        try {
            assert.equal(client.getServerVersion().name, "code-mode-2");
            const { tools } = await client.listTools();
            assert.deepEqual(tools.map((t) => [t.name, t.annotations.readOnlyHint]), [["searchTools", true], ["executeCode", false]]);
            const res = await client.callTool({ name: "executeCode", arguments: ADD });
            assert.deepEqual([res.isError ?? false, res.structuredContent.ok, res.structuredContent.result], [false, true, { sum: 42, by: "number" }], JSON.stringify(res));
            const ctrl = new AbortController();
            const p = client.callTool({ name: "executeCode", arguments: { code: "return await tools.math.wait({})", explanation: "x" } }, { signal: ctrl.signal });
            await until(() => pageSignals.length === 1, "the page tool to be called");
            ctrl.abort(new Error("client gave up"));
            await assert.rejects(p, /client gave up/);
            await until(() => pageSignals[0].aborted, "the page tool's signal to abort");
        } finally {
            await client.close();
        }
    });

    test("served over MCP 2026-07-28 by createMcpHandler, a server per request", async () => {
        const session = api.createSession();
        const handler = createMcpHandler(() => mcp.toMcpServer(session, { McpServer }));
        const client = new Client({ name: "test-client", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
        await client.connect(new StreamableHTTPClientTransport(new URL("http://mcp.test/mcp"), { fetch: (url, init) => handler.fetch(new Request(url, init)) }));
        try {
            assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
            const res = await client.callTool({ name: "executeCode", arguments: ADD });
            assert.deepEqual(res.structuredContent.result, { sum: 42 }, JSON.stringify(res));
        } finally {
            await client.close();
            await handler.close();
        }
    });
});

// The process of a stdio server ends while a call is in flight: the run
// gets an error naming the server, with either SDK, and goes on.
for (const [sdk, ClientClass, Transport, why] of [
    ["SDK 1", Client1, StdioClientTransport1, "MCP error -32000: Connection closed"],
    ["SDK 2", Client, StdioClientTransport, "Connection closed"],
]) {
    test(`${sdk}: a stdio server that exits mid-call fails the call, naming the server`, async () => {
        const client = new ClientClass({ name: "test-client", version: "1.0.0" });
        await client.connect(new Transport({ command: process.execPath, args: [fileURLToPath(new URL("./fixtures/mcp-dying-server.mjs", import.meta.url))], stderr: "pipe" }));
        const source = await mcp.fromMcpClient(client);
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        try {
            source.registerTools(api);
            const out = await run(api.createSession(), "try { await tools.dying.die({}); return 'answered'; } catch (e) { return e.message; }");
            assert.equal(out.ok, true, JSON.stringify(out));
            assert.equal(out.result, `MCP server "dying": the connection is closed; its tools fail until it is connected again (${why})`);
        } finally {
            api.dispose();
            source.close();
        }
    });
}

// The process of a Streamable HTTP server ends while a call is in flight:
// the SDK tells only client.onerror ("SSE stream disconnected"), never the
// call, which waited for the run's timeout (a TIMEOUT naming the tool, 60 s
// here). The call fails as soon as a ping finds the server gone, naming the
// server and the tool, with either SDK; the handler the app set hears every
// error still, and is the client's own again once the source is closed.
// Started again where it was, the server knows the session no more: the
// next call fails, saying to connect again.
function httpServer(port = 0) {
    const child = spawn(process.execPath, [fileURLToPath(new URL("./fixtures/mcp-http-dying-server.mjs", import.meta.url)), String(port)], { stdio: ["ignore", "pipe", "inherit"] });
    return new Promise((resolve) => child.stdout.once("data", (d) => resolve({ child, port: Number(String(d)) })));
}

// A connected client of the server at port, whose every error the app's
// handler hears (heard), the errors its transport told it (told), and the
// answers to the pings it sent (pinged).
async function httpClient(ClientClass, Transport, port) {
    const client = new ClientClass({ name: "test-client", version: "1.0.0" });
    const heard = [], told = [], pinged = [], pings = new Set();
    const onerror = (err) => heard.push(err.message);
    client.onerror = onerror;
    const transport = new Transport(new URL(`http://127.0.0.1:${port}/mcp`));
    await client.connect(transport);
    const { send, onmessage, onerror: tell } = transport;
    transport.send = (m, o) => (m.method == "ping" && pings.add(m.id), send.call(transport, m, o));
    transport.onerror = (err) => (told.push(err.message), tell.call(transport, err));
    transport.onmessage = (m, extra) => (onmessage.call(transport, m, extra), pings.has(m.id) && pinged.push(m));
    return { client, heard, told, pinged, onerror };
}

const HTTP_SDKS = [
    ["SDK 1", Client1, StreamableHTTPClientTransport1],
    ["SDK 2", Client, StreamableHTTPClientTransport],
];
for (const [sdk, ClientClass, Transport] of HTTP_SDKS) {
    test(`${sdk}: a Streamable HTTP server that exits mid-call fails the call at once, naming the server and the tool`, async () => {
        const first = await httpServer();
        let again;
        const { client, heard, told, onerror } = await httpClient(ClientClass, Transport, first.port);
        const source = await mcp.fromMcpClient(client);
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 60000 });
        try {
            source.registerTools(api);
            const session = api.createSession();
            let out = await run(session, "return await tools.dying.hello({})");
            assert.equal(out.result, "hello", JSON.stringify(out));
            out = await run(session, "try { await tools.dying.die({}); return 'answered'; } catch (e) { return e.message; }");
            console.log(`${sdk}: the call of die failed after ${out.durationMs} ms`);
            assert.equal(out.ok, true, JSON.stringify(out));
            // In parentheses, the ping's error: the runtime's fetch's words.
            assert.match(out.result, /^MCP server "dying": the connection was lost during the call of die; its tools fail until it is connected again \(.+\)$/);
            assert.ok(heard.some((m) => /SSE stream disconnected/.test(m)), JSON.stringify(heard));
            assert.ok(told.length > 0 && told.every((m) => heard.includes(m)), `the app's handler heard every error: ${JSON.stringify({ told, heard })}`);
            again = await httpServer(first.port);
            out = await run(session, "try { return await tools.dying.hello({}); } catch (e) { return e.message; }");
            assert.match(out.result, /^MCP server "dying": the connection was lost during the call of hello; its tools fail until it is connected again \(.*Server not initialized.*\)$/);
            assert.notEqual(client.onerror, onerror);
            source.close();
            assert.equal(client.onerror, onerror, "close() gave the client its handler back");
        } finally {
            api.dispose();
            source.close();
            first.child.kill();
            again?.child.kill();
            await client.close().catch(() => {});
        }
    });

    // The server is alive and a connection of the client drops (its GET
    // stream) while a call is in flight: the ping is answered, and the call
    // goes on to its answer.
    test(`${sdk}: a Streamable HTTP server that answers the ping after an error keeps its call`, async () => {
        const { child, port } = await httpServer();
        const { client, heard, told, pinged } = await httpClient(ClientClass, Transport, port);
        const source = await mcp.fromMcpClient(client);
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 60000 });
        try {
            source.registerTools(api);
            const held = run(api.createSession(), "return await tools.dying.hold({})");
            await until(() => pinged.length > 0, "the ping's answer");
            assert.ok(heard.some((m) => /SSE stream disconnected/.test(m)), JSON.stringify(heard));
            assert.ok(told.length > 0 && told.every((m) => heard.includes(m)), `the app's handler heard every error: ${JSON.stringify({ told, heard })}`);
            assert.equal((await client.callTool({ name: "release", arguments: {} })).content[0].text, "released");
            const out = await held;
            assert.deepEqual([out.ok, out.result], [true, "held"], JSON.stringify(out));
        } finally {
            api.dispose();
            source.close();
            child.kill();
            await client.close().catch(() => {});
        }
    });
}

// The server ends a call's response stream without its answer, and stays
// up: cleanly (vanish: a proxy's idle timeout does it), or by dropping its
// connection (cut). SDK 2's transport tells the end of a request's stream
// to the send that asks (onRequestStreamEnd): the call fails at once (cut:
// once the ping the transport's error sent is answered), naming the server
// and the tool, and the server's next calls answer. SDK 1 tells nothing of
// a clean end, and only client.onerror of a dropped one, whose ping is
// answered: the call waited for the run's timeout (60 s here; before, so
// did SDK 2's). The stream its transport reads is watched now: the same.
for (const [sdk, ClientClass, Transport] of HTTP_SDKS) {
    test(`${sdk}: a Streamable HTTP server that ends a call's stream without its answer, cleanly or not`, async () => {
        const { child, port } = await httpServer();
        const { client, heard, pinged } = await httpClient(ClientClass, Transport, port);
        const source = await mcp.fromMcpClient(client);
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 60000 });
        try {
            source.registerTools(api);
            const session = api.createSession();
            for (const tool of ["vanish", "cut"]) {
                let out = await run(session, `try { await tools.dying.${tool}({}); return 'answered'; } catch (e) { return e.message; }`);
                console.log(`${sdk}: the call of ${tool} failed after ${out.durationMs} ms`);
                assert.equal(out.result, `MCP server "dying": the stream of the call of ${tool} ended without its answer`, JSON.stringify(out));
                if (tool == "vanish") assert.deepEqual([heard, pinged], [[], []], "a clean end: no error, no ping");
                else assert.ok(heard.some((m) => /SSE stream disconnected/.test(m)) && pinged.length > 0, JSON.stringify({ heard, pinged }));
                // The calls the server answers are answered.
                out = await run(session, "return [await tools.dying.hello({}), await tools.dying.hello({})]");
                assert.deepEqual(out.result, ["hello", "hello"], JSON.stringify(out));
            }
        } finally {
            api.dispose();
            source.close();
            child.kill();
            await client.close().catch(() => {});
        }
    });
}

// MCP 2026-07-28 has no ping (SDK 2 refuses to send one), so every error
// during a call failed it ("Method 'ping' is not supported"): the question
// there is server/discover. A server that answers it keeps the call; one
// that cannot be reached fails it. (The error here is the transport's,
// told by the test: what it says does not matter, only that it came.)
test("SDK 2, MCP 2026-07-28: an error during a call asks server/discover; a server that answers keeps the call, one gone fails it", async () => {
    let release, started = 0, dead = false;
    const handler = createMcpHandler(() => {
        const server = new McpServer({ name: "era", version: "1.0.0" });
        server.registerTool("hold", { description: "Answers on release." }, async () => {
            started++;
            await new Promise((resolve) => (release = resolve));
            return { content: [{ type: "text", text: "held" }] };
        });
        return server;
    });
    const fetch = (url, init) => (dead ? Promise.reject(new TypeError("fetch failed")) : handler.fetch(new Request(url, init)));
    const client = new Client({ name: "test-client", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    const transport = new StreamableHTTPClientTransport(new URL("http://mcp.test/mcp"), { fetch });
    await client.connect(transport);
    assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
    const asked = new Set(), answered = [];
    const { send, onmessage } = transport;
    transport.send = (m, o) => (m.method == "server/discover" && asked.add(m.id), send.call(transport, m, o));
    transport.onmessage = (m, extra) => (onmessage.call(transport, m, extra), asked.has(m.id) && answered.push(m));
    const source = await mcp.fromMcpClient(client);
    const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 60000 });
    try {
        source.registerTools(api);
        const session = api.createSession();
        let held = run(session, "return await tools.era.hold({})");
        await until(() => started == 1, "the server to start the call");
        transport.onerror(new Error("a blip"));
        await until(() => answered.length == 1, "server/discover's answer");
        release();
        let out = await held;
        assert.deepEqual([out.ok, out.result], [true, "held"], JSON.stringify(out));

        held = run(session, "try { return await tools.era.hold({}); } catch (e) { return e.message; }");
        await until(() => started == 2, "the server to start the call");
        dead = true;
        transport.onerror(new Error("a blip"));
        out = await held;
        assert.equal(out.result, 'MCP server "era": the connection was lost during the call of hold; its tools fail until it is connected again (fetch failed)');
    } finally {
        release?.();
        api.dispose();
        source.close();
        await client.close().catch(() => {});
        await handler.close();
    }
});

// An SDK 2 client of a server on MCP 2026-07-28 (in process) with two
// tools: hello answers; vanish's call gets a stream that ends at once, as
// from a proxy.
async function vanishingEra() {
    const handler = createMcpHandler(() => {
        const server = new McpServer({ name: "era", version: "1.0.0" });
        server.registerTool("hello", { description: "Answers." }, async () => ({ content: [{ type: "text", text: "hello" }] }));
        server.registerTool("vanish", { description: "Its stream ends." }, () => new Promise(() => {}));
        return server;
    });
    const fetch = (url, init) =>
        /"name":"vanish"/.test(init?.body) ? Promise.resolve(new Response("", { headers: { "content-type": "text/event-stream" } })) : handler.fetch(new Request(url, init));
    const client = new Client({ name: "test-client", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    const transport = new StreamableHTTPClientTransport(new URL("http://mcp.test/mcp"), { fetch });
    await client.connect(transport);
    return { handler, client, transport };
}

// On MCP 2026-07-28 too (a stream per request), a call whose stream ends
// without its answer (here a proxy answers it with a stream that ends at
// once) fails at once; the calls the server answers are answered.
test("SDK 2, MCP 2026-07-28: a call whose stream ends without its answer fails at once", async () => {
    const { handler, client } = await vanishingEra();
    assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
    const source = await mcp.fromMcpClient(client);
    const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 60000 });
    try {
        source.registerTools(api);
        const out = await run(api.createSession(), "const r = []; try { await tools.era.vanish({}); } catch (e) { r.push(e.message); } r.push(await tools.era.hello({})); return r;");
        console.log(`the run failed the call and called again in ${out.durationMs} ms`);
        assert.deepEqual(out.result, ['MCP server "era": the stream of the call of vanish ended without its answer', "hello"], JSON.stringify(out));
    } finally {
        api.dispose();
        source.close();
        await client.close().catch(() => {});
        await handler.close();
    }
});

// To hear a call's stream end, fromMcpClient wraps the send and onmessage
// of an SDK 2 client's transport: they stayed wrapped after the client's
// last source closed, for the transport's life. They are the transport's
// own again then (a source still open keeps them); a tool left registered
// is called unfollowed, and a new source wraps them again.
test("SDK 2: the transport's send and onmessage are its own again when the client's last source closes", async () => {
    const { handler, client, transport } = await vanishingEra();
    const { send, onmessage } = transport;
    const sources = [await mcp.fromMcpClient(client), await mcp.fromMcpClient(client, { namespace: "again" })];
    const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 60000 });
    const vanished = (ns) => `try { await tools.${ns}.vanish({}); return 'answered'; } catch (e) { return e.message; }`;
    try {
        sources.forEach((s) => s.registerTools(api));
        const session = api.createSession();
        let out = await run(session, "return [await tools.era.hello({}), await tools.again.hello({})]");
        assert.deepEqual(out.result, ["hello", "hello"], JSON.stringify(out));
        assert.ok(transport.send !== send && transport.onmessage !== onmessage, "wrapped");
        sources[0].close();
        assert.ok(transport.send !== send && transport.onmessage !== onmessage, "a source still follows the client");
        out = await run(session, vanished("again"));
        assert.equal(out.result, 'MCP server "again": the stream of the call of vanish ended without its answer', JSON.stringify(out));
        sources[1].close();
        assert.equal(transport.send, send);
        assert.equal(transport.onmessage, onmessage);
        out = await run(session, "return [await tools.era.hello({}), await tools.again.hello({})]");
        assert.deepEqual(out.result, ["hello", "hello"], JSON.stringify(out));
        assert.equal((await client.callTool({ name: "hello", arguments: {} })).content[0].text, "hello");
        assert.ok(transport.send === send && transport.onmessage === onmessage, "a closed source's call wraps nothing");
        sources.push(await mcp.fromMcpClient(client, { namespace: "third" }));
        sources[2].registerTools(api);
        out = await run(session, vanished("third"));
        assert.equal(out.result, 'MCP server "third": the stream of the call of vanish ended without its answer', JSON.stringify(out));
        sources[2].close();
        assert.ok(transport.send === send && transport.onmessage === onmessage, "the new source's wrappers are gone too");
    } finally {
        api.dispose();
        sources.forEach((s) => s.close());
        await client.close().catch(() => {});
        await handler.close();
    }
});

// An app on SDK 2 alone has no @modelcontextprotocol/sdk: the adapter
// imported SDK 1's types module at its top, and failed to load there.
// A live server whose ping answers an error (one without ping: -32601
// "Method not found") keeps its call when an error comes during it: the
// answer proves the server there. The call was failed as lost.
for (const [sdk, ClientClass, ServerClass, Pair] of [
    ["SDK 1", Client1, McpServer1, InMemoryTransport1],
    ["SDK 2", Client, McpServer, InMemoryTransport],
]) {
    test(`${sdk}: a server whose ping answers an error keeps the call in flight`, async () => {
        let release, started = false;
        const server = new ServerClass({ name: "noping", version: "1.0.0" });
        server.registerTool("hold", { description: "Answers on release." }, async () => {
            started = true;
            await new Promise((resolve) => (release = resolve));
            return { content: [{ type: "text", text: "held" }] };
        });
        server.server.removeRequestHandler("ping");
        const [a, b] = Pair.createLinkedPair();
        const client = new ClientClass({ name: "test-client", version: "1.0.0" });
        await Promise.all([server.connect(b), client.connect(a)]);
        const pings = new Set(), answers = [];
        const { send, onmessage } = a;
        a.send = (m, o) => (m.method == "ping" && pings.add(m.id), send.call(a, m, o));
        a.onmessage = (m, extra) => (onmessage.call(a, m, extra), pings.has(m.id) && answers.push(m));
        const source = await mcp.fromMcpClient(client);
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 60000 });
        try {
            source.registerTools(api);
            const held = run(api.createSession(), "try { return await tools.noping.hold({}); } catch (e) { return e.message; }");
            await until(() => started, "the server to start the call");
            a.onerror(new Error("a blip"));
            await until(() => answers.length == 1, "the ping's answer");
            assert.equal(answers[0].error?.code, -32601, JSON.stringify(answers));
            release();
            const out = await held;
            assert.deepEqual([out.ok, out.result], [true, "held"], JSON.stringify(out));
        } finally {
            release?.();
            api.dispose();
            source.close();
            await client.close().catch(() => {});
        }
    });

    // A handler the app sets on client.onerror after fromMcpClient replaced
    // the source's, and a call of a server gone mid-call waited for the
    // run's timeout again. Now setting client.onerror sets the handler the
    // sources call after theirs: the call fails at once, the app's handler
    // hears the error, and once the last source closes it is the client's
    // plain onerror again. Two sources of one client both hear.
    test(`${sdk}: client.onerror set after fromMcpClient is called after the sources', which still hear a server gone mid-call`, async () => {
        let started = false;
        const server = new ServerClass({ name: "late", version: "1.0.0" });
        server.registerTool("hold", { description: "Never answers." }, () => ((started = true), new Promise(() => {})));
        const [a, b] = Pair.createLinkedPair();
        const client = new ClientClass({ name: "test-client", version: "1.0.0" });
        await Promise.all([server.connect(b), client.connect(a)]);
        // The ping cannot be sent: the server is gone, as far as the client can tell.
        const { send } = a;
        a.send = (m, o) => (m.method == "ping" ? Promise.reject(new TypeError("the network is down")) : send.call(a, m, o));
        const source = await mcp.fromMcpClient(client);
        const other = await mcp.fromMcpClient(client, { namespace: "other" });
        // The app's handler calls the one it replaces, as handlers are chained.
        const heard = [];
        const prev = client.onerror;
        const late = (err) => (heard.push(err.message), prev?.(err));
        client.onerror = late;
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 20000 });
        try {
            source.registerTools(api);
            other.registerTools(api);
            const session = api.createSession();
            for (const ns of ["late", "other"]) {
                started = false;
                const held = run(session, `try { return await tools.${ns}.hold({}); } catch (e) { return e.message; }`);
                await until(() => started, "the server to start the call");
                a.onerror(new Error("a blip"));
                const out = await held;
                assert.equal(out.result, `MCP server "${ns}": the connection was lost during the call of hold; its tools fail until it is connected again (the network is down)`, JSON.stringify(out));
            }
            assert.deepEqual(heard, ["a blip", "a blip"]);
            source.close();
            assert.notEqual(client.onerror, late, "one source still follows the client");
            other.close();
            assert.deepEqual(Object.getOwnPropertyDescriptor(client, "onerror"), { value: late, writable: true, enumerable: true, configurable: true });
        } finally {
            api.dispose();
            source.close();
            other.close();
            await client.close().catch(() => {});
        }
    });
}

test("the mcp entry loads, follows an SDK 2 client and serves with SDK 2's McpServer where @modelcontextprotocol/sdk cannot be resolved", () => {
    const hooks = `export async function resolve(spec, ctx, next) {
        if (spec.startsWith("@modelcontextprotocol/sdk")) throw Object.assign(new Error("Cannot find package '@modelcontextprotocol/sdk'"), { code: "ERR_MODULE_NOT_FOUND" });
        return next(spec, ctx);
    }`;
    const main = `
        import { register } from "node:module";
        register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hooks)}));
        const { Client, InMemoryTransport } = await import("@modelcontextprotocol/client");
        const { McpServer } = await import("@modelcontextprotocol/server");
        await import("@modelcontextprotocol/sdk/types.js").then(() => { throw new Error("the hook did not hide SDK 1"); }, () => {});
        const { fromMcpClient, toMcpServer } = await import(${JSON.stringify(new URL("../../dist/mcp.mjs", import.meta.url).href)});
        const server = new McpServer({ name: "desk", version: "1.0.0" });
        server.registerTool("ping", { description: "Ping." }, async () => ({ content: [{ type: "text", text: "pong" }] }));
        const [a, b] = InMemoryTransport.createLinkedPair();
        const client = new Client({ name: "c", version: "1.0.0" });
        await Promise.all([server.connect(b), client.connect(a)]);
        const source = await fromMcpClient(client);
        const ping = source.tools[0];
        const served = await toMcpServer({ getLlmTools: () => [], getSystemInstruction: () => "" }, { McpServer });
        console.log(JSON.stringify([ping.name, await ping.execute({}, {}), served instanceof McpServer]));
        source.close();
        await client.close();`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", main], { cwd: fileURLToPath(new URL(".", import.meta.url)), encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), JSON.stringify(["desk.ping", "pong", true]));
});
