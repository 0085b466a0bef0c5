// @interopio/code-mode/mcp against the real Model Context Protocol SDK:
// servers and clients connected in memory (InMemoryTransport) and over
// Streamable HTTP on 127.0.0.1.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { assetPath, loadFactory, run, sleep } from "./helpers.mjs";
import { loadAdapter, until } from "./adapter-helpers.mjs";

let IoCodeModeFactory, mcp;
before(async () => {
    IoCodeModeFactory = await loadFactory();
    mcp = await loadAdapter("mcp");
});

// An MCP server of an issue tracker, with one tool per kind of result.
function deskServer(name = "desk", seen = {}) {
    const server = new McpServer({ name, version: "1.0.0" });
    server.registerTool(
        "search_issues",
        {
            description: "Search issues by text.",
            inputSchema: { q: z.string() },
            outputSchema: { items: z.array(z.object({ id: z.number(), title: z.string() })) },
            annotations: { readOnlyHint: true },
        },
        async ({ q }) => {
            const items = [{ id: 7, title: `about ${q}` }];
            return { content: [{ type: "text", text: JSON.stringify({ items }) }], structuredContent: { items } };
        },
    );
    server.registerTool("delete_repo", { description: "Delete a repository.", inputSchema: { repo: z.string() }, annotations: { destructiveHint: true, readOnlyHint: false } }, async ({ repo }) => {
        seen.deleted = repo;
        return { content: [{ type: "text", text: `deleted ${repo}` }] };
    });
    server.registerTool("stats", { description: "Counts as JSON text." }, async () => ({ content: [{ type: "text", text: '{"open": 3, "closed": 9}' }] }));
    server.registerTool("motd", { description: "A message." }, async () => ({ content: [{ type: "text", text: "Ship it." }] }));
    server.registerTool("logo", { description: "The logo." }, async () => ({
        content: [
            { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
            { type: "text", text: "the logo" },
        ],
    }));
    server.registerTool("flaky", { description: "Always fails." }, async () => ({ content: [{ type: "text", text: "rate limited, retry in 30 s" }], isError: true }));
    server.registerTool("slow", { description: "Waits until cancelled." }, (extra) => {
        seen.slowStarted = true;
        return new Promise((resolve) => {
            extra.signal.addEventListener("abort", () => {
                seen.slowCancelled = String(extra.signal.reason?.message ?? extra.signal.reason);
                resolve({ content: [{ type: "text", text: "cancelled" }] });
            });
        });
    });
    return server;
}

async function connectInMemory(server) {
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "test-client", version: "1.0.0" });
    await Promise.all([server.connect(b), client.connect(a)]);
    return client;
}

describe("fromMcpClient", () => {
    let api, client, source, unregister, seen, decisions, server;
    // Tools without hints count as destructive (the protocol's default): these were approved.
    const approved = new Set(["desk.stats", "desk.motd", "desk.logo", "desk.flaky", "desk.slow", "desk.triage"]);
    before(async () => {
        seen = {};
        decisions = [];
        server = deskServer("desk", seen);
        client = await connectInMemory(server);
        api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            interceptors: {
                onToolCall: async ({ tool }) => {
                    decisions.push({ name: tool.name, annotations: tool.annotations });
                    if (tool.annotations?.destructiveHint && !approved.has(tool.name)) return { allowed: false, reason: "needs approval: destructive" };
                    return { allowed: true };
                },
            },
        });
        source = await mcp.fromMcpClient(client);
        unregister = source.registerTools(api);
    });
    after(async () => {
        unregister();
        source.close();
        await client.close();
        api.dispose();
    });

    test("lists the server's tools as <server>.<tool> with their schemas and hints", () => {
        assert.equal(source.namespace, "desk");
        assert.deepEqual(
            api.listTools().map((t) => t.name).sort(),
            ["desk.delete_repo", "desk.flaky", "desk.logo", "desk.motd", "desk.search_issues", "desk.slow", "desk.stats"],
        );
        const search = source.tools.find((t) => t.name === "desk.search_issues");
        assert.equal(search.description, "Search issues by text.");
        assert.deepEqual(search.inputSchema.required, ["q"]);
        assert.equal(search.inputSchema.properties.q.type, "string");
        assert.equal(search.outputSchema.properties.items.type, "array");
        assert.deepEqual(search.annotations, { readOnlyHint: true, openWorldHint: true, mcpTool: "search_issues", source: "mcp:desk", untrusted: true });
        const del = source.tools.find((t) => t.name === "desk.delete_repo");
        assert.deepEqual(del.annotations, { readOnlyHint: false, destructiveHint: true, openWorldHint: true, mcpTool: "delete_repo", source: "mcp:desk", untrusted: true });
        // No hints at all: the protocol's defaults, explicit.
        const motd = source.tools.find((t) => t.name === "desk.motd");
        assert.equal(motd.annotations.readOnlyHint, false);
        assert.equal(motd.annotations.destructiveHint, true);
    });

    test("the output schema becomes the tool's signature for the model", async () => {
        const session = api.createSession();
        const out = await run(session, "return (await tool_search({ query: 'search issues' }))[0]");
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.equal(out.result.name, "desk.search_issues");
        assert.match(out.result.signature, /q: string/);
        assert.match(out.result.signature, /items/);
        assert.match(out.result.signature, /title: string/);
        session.dispose();
    });

    test("results are unwrapped: structured first, JSON text parsed, other content as is, isError thrown", async () => {
        const session = api.createSession();
        const out = await run(
            session,
            `const r = {};
             r.search = await tools.desk.search_issues({ q: "login" });
             r.stats = await tools.desk.stats({});
             r.motd = await tools.desk.motd({});
             r.logo = await tools.desk.logo({});
             try { await tools.desk.flaky({}); } catch (e) { r.flaky = e.message; }
             return r;`,
        );
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result.search, { items: [{ id: 7, title: "about login" }] });
        assert.deepEqual(out.result.stats, { open: 3, closed: 9 });
        assert.equal(out.result.motd, "Ship it.");
        assert.deepEqual(out.result.logo, [
            { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
            { type: "text", text: "the logo" },
        ]);
        assert.match(out.result.flaky, /rate limited, retry in 30 s/);
        session.dispose();
    });

    test("input is checked against the server's schema before the call", async () => {
        const session = api.createSession();
        const out = await run(session, "try { await tools.desk.search_issues({ q: 5 }); } catch (e) { return e.message; }");
        assert.match(out.result, /q/);
        session.dispose();
    });

    test("destructive hints reach onToolCall, marked as the server's untrusted word", async () => {
        decisions.length = 0;
        const session = api.createSession();
        const out = await run(session, "try { await tools.desk.delete_repo({ repo: 'core' }); } catch (e) { return e.message; }");
        assert.match(out.result, /needs approval: destructive/);
        assert.equal(seen.deleted, undefined);
        assert.deepEqual(decisions, [
            { name: "desk.delete_repo", annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true, mcpTool: "delete_repo", source: "mcp:desk", untrusted: true } },
        ]);
        assert.deepEqual(out.toolCalls.map((c) => [c.name, c.allowed]), [["desk.delete_repo", false]]);
        session.dispose();
    });

    test("aborting the run cancels the MCP request", async () => {
        const session = api.createSession();
        const ctrl = new AbortController();
        const p = run(session, "return await tools.desk.slow({})", { signal: ctrl.signal });
        await until(() => seen.slowStarted, "the server to see the call");
        ctrl.abort(new Error("user pressed stop"));
        await assert.rejects(p, /user pressed stop/);
        await until(() => seen.slowCancelled !== undefined, "the server to see the cancellation");
        assert.ok(seen.slowCancelled.length > 0);
        session.dispose();
    });

    // A call the program leaves pending when it returns: the run's end
    // aborts its signal, and the SDK sends notifications/cancelled.
    test("a call still pending when the program returns is cancelled at the server", async () => {
        seen.slowStarted = false;
        seen.slowCancelled = undefined;
        const unregisterProbe = api.registerTool({ name: "probe.started", description: "Resolves once the server runs desk.slow.", execute: () => until(() => seen.slowStarted, "desk.slow to start") });
        const session = api.createSession();
        const out = await run(session, "tools.desk.slow({}); await tools.probe.started({}); return 1;");
        assert.equal(out.result, 1, JSON.stringify(out));
        assert.match(out.logs.map((l) => l.message).join("\n"), /still pending.*desk\.slow/);
        await until(() => seen.slowCancelled !== undefined, "the server to see the cancellation");
        unregisterProbe();
        session.dispose();
    });

    test("a tool added on the server appears; a removed one disappears, also for a session already open", async () => {
        const session = api.createSession();
        const added = server.registerTool("triage", { description: "Triage an issue.", inputSchema: { id: z.number() }, annotations: { readOnlyHint: true } }, async ({ id }) => ({
            content: [{ type: "text", text: JSON.stringify({ id, label: "bug" }) }],
        }));
        await until(() => api.listTools().some((t) => t.name === "desk.triage"), "desk.triage to be registered");
        let out = await run(session, "return await tools.desk.triage({ id: 4 })");
        assert.deepEqual(out.result, { id: 4, label: "bug" });
        added.remove();
        await until(() => !api.listTools().some((t) => t.name === "desk.triage"), "desk.triage to be removed");
        out = await run(session, "try { await tool_call('desk.triage', { id: 4 }); } catch (e) { return e.message; }");
        assert.match(out.result, /unknown tool|not found|no tool/i);
        assert.ok(!source.tools.some((t) => t.name === "desk.triage"));
        session.dispose();
    });

    test("an unchanged tool keeps its registration across re-syncs", async () => {
        const before = source.tools.find((t) => t.name === "desk.stats");
        await source.refresh();
        assert.equal(source.tools.find((t) => t.name === "desk.stats"), before);
    });
});

describe("fromMcpClient: listing, names, trust, collisions", () => {
    // A low-level server: pages of two tools, names MCP allows and Code Mode does not.
    function pagedServer(names) {
        const server = new Server({ name: "Paged Server!", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
        const calls = [];
        server.setRequestHandler(ListToolsRequestSchema, (req) => {
            const start = Number(req.params?.cursor ?? 0);
            calls.push(req.params?.cursor ?? null);
            const tools = names.slice(start, start + 2).map((name) => ({ name, description: `tool ${name}`, inputSchema: { type: "object" } }));
            return start + 2 < names.length ? { tools, nextCursor: String(start + 2) } : { tools };
        });
        server.setRequestHandler(CallToolRequestSchema, (req) => ({ content: [{ type: "text", text: JSON.stringify({ called: req.params.name }) }] }));
        return { server, calls };
    }

    test("every page of tools/list; names sanitised, namespaced and made unique", async () => {
        const { server, calls } = pagedServer(["list issues!", "get_user", "get user", "admin.users.list", "..odd..", "ünïcode", "then", "jobs.then", "toJSON", "jobs.toJSON"]);
        const client = await connectInMemory(server);
        const source = await mcp.fromMcpClient(client);
        assert.deepEqual(calls, [null, "2", "4", "6", "8"]);
        assert.equal(source.namespace, "Paged_Server");
        assert.deepEqual(source.tools.map((t) => t.name), [
            "Paged_Server.list_issues",
            "Paged_Server.get_user",
            "Paged_Server.get_user_2",
            "Paged_Server.admin.users.list",
            "Paged_Server.odd",
            "Paged_Server.unicode",
            // A last step "then" would make its namespace awaitable, one
            // "toJSON" called by JSON.stringify of it (both are refused at
            // registration).
            "Paged_Server.then_",
            "Paged_Server.jobs.then_",
            "Paged_Server.toJSON_",
            "Paged_Server.jobs.toJSON_",
        ]);
        // The server's own name reaches onToolCall in the annotations.
        assert.deepEqual(source.tools.map((t) => t.annotations.mcpTool), ["list issues!", "get_user", "get user", "admin.users.list", "..odd..", "ünïcode", "then", "jobs.then", "toJSON", "jobs.toJSON"]);
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        source.registerTools(api);
        const session = api.createSession();
        // Each sanitised name still calls the server's own name.
        const out = await run(session, "return [await tools.Paged_Server.get_user_2({}), await tools.Paged_Server.admin.users.list({}), await tools.Paged_Server.jobs.then_({}), await tools.Paged_Server.jobs.toJSON_({})]");
        assert.deepEqual(out.result, [{ called: "get user" }, { called: "admin.users.list" }, { called: "jobs.then" }, { called: "jobs.toJSON" }]);
        api.dispose();
        source.close();
        await client.close();
    });

    // Names of another script kept none of their letters: "tool", "tool_2"
    // in listing order, so a re-listing in another order swapped them (a
    // search tool's name then called the delete tool).
    test("a name of another script gets a name of its own, the same in any listing order", async () => {
        const { server, state } = (() => {
            const state = { names: ["検索", "削除", "admin.検索"] };
            const server = new Server({ name: "jp", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
            server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: state.names.map((name) => ({ name, inputSchema: { type: "object" } })) }));
            server.setRequestHandler(CallToolRequestSchema, (req) => ({ content: [{ type: "text", text: JSON.stringify({ called: req.params.name }) }] }));
            return { server, state };
        })();
        const client = await connectInMemory(server);
        const source = await mcp.fromMcpClient(client);
        const byOrigin = () => Object.fromEntries(source.tools.map((t) => [t.annotations.mcpTool, t.name]));
        const first = byOrigin();
        assert.equal(new Set(Object.values(first)).size, 3, JSON.stringify(first));
        for (const name of Object.values(first)) assert.match(name, /^jp\.(admin\.)?tool_[0-9a-z]+$/);
        state.names = ["admin.検索", "削除", "検索"];
        await source.refresh();
        assert.deepEqual(byOrigin(), first);
        source.close();
        await client.close();
    });

    test("namespace, trusted and filter options", async () => {
        const { server } = pagedServer(["a", "b", "c"]);
        const client = await connectInMemory(server);
        const source = await mcp.fromMcpClient(client, { namespace: "crm", trusted: true, filter: (t) => t.name !== "b" });
        assert.deepEqual(source.tools.map((t) => t.name), ["crm.a", "crm.c"]);
        assert.equal(source.tools[0].annotations.untrusted, false);
        assert.equal(source.tools[0].annotations.source, "mcp:crm");
        source.close();
        await client.close();
    });

    // A namespace the caller gives is read as tool names are: its dots are
    // steps. "corp.crm" was made one step, "corp_crm", silently, and the
    // model's tools.corp.crm.a did not exist. The server's own name stays one step.
    test("a given namespace keeps its dots as namespace steps", async () => {
        const { server } = pagedServer(["a"]);
        const client = await connectInMemory(server);
        const source = await mcp.fromMcpClient(client, { namespace: "corp.crm" });
        assert.equal(source.namespace, "corp.crm");
        assert.deepEqual(source.tools.map((t) => t.name), ["corp.crm.a"]);
        assert.equal(source.tools[0].annotations.source, "mcp:corp.crm");
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        source.registerTools(api);
        const out = await run(api.createSession(), "return await tools.corp.crm.a()");
        assert.deepEqual(out.result, { called: "a" }, JSON.stringify(out));
        const odd = await mcp.fromMcpClient(client, { namespace: "..my crm.then" });
        assert.deepEqual(odd.tools.map((t) => t.name), ["my_crm.then_.a"]);
        odd.close();
        source.close();
        api.dispose();
        await client.close();
    });

    // An async filter's promise is truthy: every tool it meant to leave out
    // was kept (fail open). A promise now leaves the tool out, said once.
    test("an async filter leaves out what it answers with a promise, and says so once", async () => {
        const { server } = pagedServer(["a", "b", "c"]);
        const client = await connectInMemory(server);
        const errors = [];
        const original = console.error;
        console.error = (...a) => errors.push(a.join(" "));
        try {
            const source = await mcp.fromMcpClient(client, { filter: async (t) => t.name !== "b" });
            assert.deepEqual(source.tools.map((t) => t.name), []);
            assert.deepEqual(errors, ["fromMcpClient: options.filter returned a promise; it must answer synchronously, true or false. What it answers with a promise is left out."]);
            source.close();
        } finally {
            console.error = original;
            await client.close();
        }
    });

    // A server tool whose inputSchema the engine refuses (a JavaScript
    // pattern RE2 cannot run) is left out and reported; the server's other
    // tools register.
    test("a tool the engine refuses is left out and reported; the others register", async () => {
        const server = new Server({ name: "pat", version: "1.0.0" }, { capabilities: { tools: {} } });
        server.setRequestHandler(ListToolsRequestSchema, () => ({
            tools: [
                { name: "ok", inputSchema: { type: "object" } },
                { name: "users", inputSchema: { type: "object", properties: { user: { type: "string", pattern: "^(?!admin)" } } } },
            ],
        }));
        server.setRequestHandler(CallToolRequestSchema, (req) => ({ content: [{ type: "text", text: JSON.stringify({ called: req.params.name }) }] }));
        const client = await connectInMemory(server);
        const errors = [];
        const source = await mcp.fromMcpClient(client, { onError: (e) => errors.push(e.message) });
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        try {
            source.registerTools(api);
            await api.ready();
            assert.deepEqual(api.listTools().map((t) => t.name), ["pat.ok"]);
            assert.match(errors.join("\n"), /tool \("pat\.users"\): inputSchema: \/properties\/user\/pattern: "\^\(\?!admin\)" cannot be enforced/);
        } finally {
            api.dispose();
            source.close();
            await client.close();
        }
    });

    // A name that is taken is no invalid tool: registerTools throws it, and
    // registers none of the server's tools.
    test("a tool whose name is taken makes registerTools throw", async () => {
        const server = new Server({ name: "pat", version: "1.0.0" }, { capabilities: { tools: {} } });
        server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: "a", inputSchema: { type: "object" } }, { name: "ok", inputSchema: { type: "object" } }] }));
        const client = await connectInMemory(server);
        const errors = [];
        const source = await mcp.fromMcpClient(client, { onError: (e) => errors.push(e.message) });
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: [{ name: "pat.ok", execute: () => 1 }] });
        try {
            assert.throws(() => source.registerTools(api), { name: "TypeError", message: 'tool ("pat.ok"): name: already registered' });
            await api.ready();
            assert.deepEqual(api.listTools().map((t) => t.name), ["pat.ok"]);
            assert.deepEqual(errors, []);
        } finally {
            api.dispose();
            source.close();
            await client.close();
        }
    });

    // "$schema" spelt as the validator reads it: https for draft-07 used to
    // be refused at registration ("unknown $schema"), leaving the tool out.
    test("schemas naming their draft over http or https, with or without '#', register and are enforced", async () => {
        const drafts = ["http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft-07/schema#", "https://json-schema.org/draft-07/schema", "http://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2019-09/schema#"];
        const server = new Server({ name: "drafts", version: "1.0.0" }, { capabilities: { tools: {} } });
        server.setRequestHandler(ListToolsRequestSchema, () => ({
            tools: drafts.map(($schema, i) => ({ name: `t${i}`, inputSchema: { $schema, type: "object", properties: { n: { type: "number", exclusiveMinimum: 0 } }, required: ["n"] } })),
        }));
        server.setRequestHandler(CallToolRequestSchema, (req) => ({ content: [{ type: "text", text: JSON.stringify(req.params.arguments.n) }] }));
        const client = await connectInMemory(server);
        const errors = [];
        const source = await mcp.fromMcpClient(client, { onError: (e) => errors.push(e.message) });
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        try {
            source.registerTools(api);
            await api.ready();
            assert.deepEqual(api.listTools().map((t) => t.name), drafts.map((_, i) => `drafts.t${i}`));
            assert.deepEqual(errors, []);
            const session = api.createSession();
            const code = drafts.map((_, i) => `[await tools.drafts.t${i}({ n: 2 }), await tools.drafts.t${i}({ n: 0 }).catch((e) => e.message)]`).join(", ");
            const out = await run(session, `return [${code}]`);
            assert.equal(out.ok, true, JSON.stringify(out));
            assert.deepEqual(out.result, drafts.map((_, i) => [2, `drafts.t${i}: invalid input: /n: exclusiveMinimum: got 0, want > 0`]));
            session.dispose();
        } finally {
            api.dispose();
            source.close();
            await client.close();
        }
    });

    test("two servers with one name collide clearly; a namespace separates them", async () => {
        const c1 = await connectInMemory(deskServer("desk"));
        const c2 = await connectInMemory(deskServer("desk"));
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        const s1 = await mcp.fromMcpClient(c1);
        const s2 = await mcp.fromMcpClient(c2);
        s1.registerTools(api);
        assert.throws(() => s2.registerTools(api), (err) => err instanceof TypeError && /desk\.\w+/.test(err.message));
        // Nothing of the second server was registered.
        assert.equal(api.listTools().length, s1.tools.length);
        const s3 = await mcp.fromMcpClient(c2, { namespace: "desk2" });
        s3.registerTools(api);
        assert.equal(api.listTools().length, 2 * s1.tools.length);
        api.dispose();
        for (const s of [s1, s2, s3]) s.close();
        await Promise.all([c1.close(), c2.close()]);
    });

    test("bad arguments are TypeErrors naming the option", async () => {
        await assert.rejects(mcp.fromMcpClient({}), { name: "TypeError", message: /expected a connected Client/ });
        const client = await connectInMemory(deskServer());
        await assert.rejects(mcp.fromMcpClient(client, { namepsace: "x" }), { name: "TypeError", message: /^fromMcpClient: options\.namepsace: unknown option; did you mean "namespace"\?/ });
        // The core's rule (keys.mjs's nearest), not a copy of its own: a
        // shortened name is 1 away ("name" for "namespace"; plain edit
        // distance said nothing), a transposition 1.
        await assert.rejects(mcp.fromMcpClient(client, { name: "x" }), { name: "TypeError", message: /^fromMcpClient: options\.name: unknown option; did you mean "namespace"\?/ });
        await assert.rejects(mcp.fromMcpClient(client, { timoeut: 5 }), { name: "TypeError", message: /^fromMcpClient: options\.timoeut: unknown option; did you mean "timeout"\?/ });
        await assert.rejects(mcp.fromMcpClient(client, { timeout: -1 }), { name: "TypeError", message: /^fromMcpClient: options\.timeout: expected a positive number/ });
        const source = await mcp.fromMcpClient(client);
        assert.throws(() => source.registerTools({}), { name: "TypeError", message: /registerTools\(api\): expected a Code Mode instance/ });
        source.close();
        await client.close();
    });

    test("a list_changed handler the client had before is still called, and again after close()", async () => {
        const server = deskServer("desk");
        const client = await connectInMemory(server);
        let calls = 0;
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
            calls++;
        });
        const source = await mcp.fromMcpClient(client);
        server.registerTool("first", { description: "One." }, async () => ({ content: [] }));
        await until(() => source.tools.some((t) => t.name === "desk.first"), "desk.first");
        assert.equal(calls, 1);
        source.close();
        server.registerTool("second", { description: "Two." }, async () => ({ content: [] }));
        await until(() => calls === 2, "the client's own handler");
        assert.ok(!source.tools.some((t) => t.name === "desk.second"));
        await client.close();
    });

    test("after close() the source no longer follows the server", async () => {
        const server = deskServer("desk");
        const client = await connectInMemory(server);
        const source = await mcp.fromMcpClient(client);
        const n = source.tools.length;
        source.close();
        server.registerTool("late", { description: "Too late." }, async () => ({ content: [] }));
        await sleep(200);
        assert.equal(source.tools.length, n);
        await client.close();
    });
});

// What the MCP SDK and the protocol (2025-11-25) do today that a source must
// follow: a change announced while the first listing runs, two sources on
// one Client, tools that run only as tasks, errors said in structuredContent.
describe("fromMcpClient: the SDK's list_changed, tasks and error results", () => {
    // A low-level server whose tools/list can change the list while it answers.
    function changingServer(name) {
        const server = new Server({ name, version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
        const state = { tools: ["a"], lists: 0, onList: null };
        server.setRequestHandler(ListToolsRequestSchema, async () => {
            state.lists++;
            const tools = state.tools.map((n) => ({ name: n, inputSchema: { type: "object" } }));
            if (state.onList) await state.onList();
            return { tools };
        });
        server.setRequestHandler(CallToolRequestSchema, (req) => ({ content: [{ type: "text", text: JSON.stringify({ called: req.params.name }) }] }));
        return { server, state };
    }

    // The notification reached the client before the listing's answer, when
    // no handler was set yet: the tool it announced was never listed.
    test("a tool added while the first listing runs is listed", async () => {
        const { server, state } = changingServer("race");
        state.onList = async () => {
            state.onList = null;
            state.tools = ["a", "b"];
            await server.sendToolListChanged();
        };
        const client = await connectInMemory(server);
        const source = await mcp.fromMcpClient(client);
        await until(() => source.tools.some((t) => t.name === "race.b"), "race.b, announced during the first listing");
        assert.deepEqual(source.tools.map((t) => t.name), ["race.a", "race.b"]);
        assert.equal(state.lists, 2);
        source.close();
        await client.close();
    });

    // Closing the first source removed the one handler the Client holds,
    // the second source's too: it followed the server no more.
    test("two sources of one client follow it apart; the client's own handler is back when both close", async () => {
        const { server, state } = changingServer("two");
        const client = await connectInMemory(server);
        let own = 0;
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
            own++;
        });
        const reads = await mcp.fromMcpClient(client, { namespace: "reads" });
        const all = await mcp.fromMcpClient(client, { namespace: "all" });
        state.tools = ["a", "b"];
        await server.sendToolListChanged();
        await until(() => reads.tools.length === 2 && all.tools.length === 2, "both sources to list b");
        reads.close();
        state.tools = ["a", "b", "c"];
        await server.sendToolListChanged();
        await until(() => all.tools.length === 3, "the open source to list c after the other closed");
        assert.deepEqual(all.tools.map((t) => t.name), ["all.a", "all.b", "all.c"]);
        assert.equal(reads.tools.length, 2);
        all.close();
        await server.sendToolListChanged();
        await until(() => own === 3, "the client's own handler, called each time and kept after both closed");
        assert.equal(all.tools.length, 3);
        await client.close();
    });

    test("a source whose first listing fails rejects and follows nothing", async () => {
        const { server, state } = changingServer("fails");
        state.onList = async () => {
            throw new Error("listing is down");
        };
        const client = await connectInMemory(server);
        await assert.rejects(mcp.fromMcpClient(client), /listing is down/);
        assert.equal(client._notificationHandlers.has("notifications/tools/list_changed"), false);
        await client.close();
    });

    // The SDK hands options.timeout to setTimeout as it is, which fires at
    // once past 2^31-1 ms (Node: a TimeoutOverflowWarning, then 1 ms): a
    // timeout of Infinity, "never", failed every call with 'Request timed
    // out'. Such a timeout is refused; the longest one a timer holds works.
    test("a timeout setTimeout cannot hold is refused, naming the range; the longest works", async () => {
        const client = await connectInMemory(deskServer());
        for (const timeout of [Infinity, 2 ** 31, 1e12]) {
            await assert.rejects(mcp.fromMcpClient(client, { timeout }), {
                name: "TypeError",
                message: `fromMcpClient: options.timeout: expected a positive number of milliseconds, at most 2147483647 (setTimeout's limit, about 24.8 days), got ${timeout}`,
            });
        }
        const warnings = [];
        const onWarning = (w) => warnings.push(w.name);
        process.on("warning", onWarning);
        const source = await mcp.fromMcpClient(client, { timeout: 2 ** 31 - 1 });
        try {
            const motd = source.tools.find((t) => t.name === "desk.motd");
            assert.equal(await motd.execute({}, {}), "Ship it.");
            await sleep(10);
            assert.deepEqual(warnings, []);
        } finally {
            process.off("warning", onWarning);
            source.close();
            await client.close();
        }
    });

    // The SDK gives a request 60 s unless told otherwise ('MCP error -32001:
    // Request timed out'): a run given minutes lost a slow tool at 60 s. In a
    // run the run's signal bounds the call; options.timeout still wins. What
    // the SDK is asked is checked (a 60 s wait has no place in a test).
    test("in a run, the run bounds a call, not the SDK's 60 s default; options.timeout wins", async () => {
        const { server } = changingServer("slow");
        const client = await connectInMemory(server);
        const asked = [];
        const callTool = client.callTool.bind(client);
        client.callTool = (params, schema, options) => {
            asked.push(options?.timeout);
            return callTool(params, schema, options);
        };
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 600_000 });
        const plain = await mcp.fromMcpClient(client);
        const bounded = await mcp.fromMcpClient(client, { namespace: "bounded", timeout: 5_000 });
        plain.registerTools(api);
        bounded.registerTools(api);
        const out = await run(api.createSession(), "return [await tools.slow.a({}), await tools.bounded.a({})]");
        assert.deepEqual(out.result, [{ called: "a" }, { called: "a" }]);
        assert.equal(asked.length, 2);
        assert.ok(asked[0] >= 600_000, `the SDK was given ${asked[0]} ms for a call of a 600 s run`);
        assert.equal(asked[1], 5_000);
        api.dispose();
        plain.close();
        bounded.close();
        await client.close();
    });

    // Content of each kind the protocol has, alone in a result, reaches the
    // program as the content array; a server whose handler throws, and one
    // that goes away mid-call, fail that call with the SDK's words, and the
    // program goes on.
    test("one block of each content kind; a server that throws or goes away mid-call", async () => {
        const server = new Server({ name: "kinds", version: "1.0.0" }, { capabilities: { tools: {} } });
        const blocks = {
            audio: { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
            link: { type: "resource_link", uri: "file:///srv/a.txt", name: "a.txt", mimeType: "text/plain" },
            embedded: { type: "resource", resource: { uri: "file:///srv/b.txt", mimeType: "text/plain", text: "hello" } },
        };
        let hanging = false;
        server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...Object.keys(blocks), "throws", "hangs"].map((name) => ({ name, inputSchema: { type: "object" } })) }));
        server.setRequestHandler(CallToolRequestSchema, async (req) => {
            if (req.params.name === "throws") throw new Error("database is down");
            if (req.params.name === "hangs") {
                hanging = true;
                return new Promise(() => {});
            }
            return { content: [blocks[req.params.name]] };
        });
        const client = await connectInMemory(server);
        const source = await mcp.fromMcpClient(client);
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        source.registerTools(api);
        api.registerTool({ name: "probe.closeServer", execute: async () => (await until(() => hanging, "the server to hold the call"), await server.close(), "closed") });
        const out = await run(
            api.createSession(),
            `const r = {};
             for (const k of ["audio", "link", "embedded"]) r[k] = await tools.kinds[k]({});
             try { await tools.kinds.throws({}); } catch (e) { r.throws = e.message; }
             const pending = tools.kinds.hangs({}).then(() => "answered", (e) => e.message);
             r.closed = await tools.probe.closeServer({});
             r.hangs = await pending;
             try { await tools.kinds.audio({}); } catch (e) { r.after = e.message; }
             return r;`,
        );
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result.audio, [blocks.audio]);
        assert.deepEqual(out.result.link, [blocks.link]);
        assert.deepEqual(out.result.embedded, [blocks.embedded]);
        assert.equal(out.result.throws, "MCP error -32603: database is down");
        const gone = 'MCP server "kinds": the connection is closed; its tools fail until it is connected again';
        assert.equal(out.result.hangs, `${gone} (MCP error -32000: Connection closed)`);
        assert.equal(out.result.after, `${gone} (Not connected)`);
        api.dispose();
        source.close();
    });

    // SDK 1.32.2's Client clears its outputSchema validators on every
    // listTools() page, so a tool listed on an earlier page returned
    // structuredContent that broke its own outputSchema unchecked. Code
    // Mode's core checks every result against the tool's outputSchema now,
    // once (the SDK's validators are given none), in its own words.
    test("structuredContent that breaks its outputSchema fails the call once, on every page of tools/list", async () => {
        const server = new Server({ name: "pages", version: "1.0.0" }, { capabilities: { tools: {} } });
        const outputSchema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
        const all = ["first", "second", "good"].map((name) => ({ name, inputSchema: { type: "object" }, outputSchema }));
        server.setRequestHandler(ListToolsRequestSchema, (req) => (req.params?.cursor ? { tools: all.slice(1) } : { tools: [all[0]], nextCursor: "2" }));
        server.setRequestHandler(CallToolRequestSchema, (req) => ({ content: [], structuredContent: { n: req.params.name === "good" ? 1 : "not a number" } }));
        const client = await connectInMemory(server);
        const source = await mcp.fromMcpClient(client);
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        try {
            source.registerTools(api);
            const out = await run(
                api.createSession(),
                "const r = {}; for (const n of ['first', 'second', 'good']) { try { r[n] = await tools.pages[n]({}) } catch (e) { r[n] = e.name + ': ' + e.message } } return r",
            );
            assert.equal(out.ok, true, JSON.stringify(out));
            assert.deepEqual(out.result, {
                first: "ToolError: pages.first: the tool's result does not match its outputSchema: /n: type: got string, want number",
                second: "ToolError: pages.second: the tool's result does not match its outputSchema: /n: type: got string, want number",
                good: { n: 1 },
            });
            assert.deepEqual(out.toolCalls.map((c) => [c.name, c.ok]), [["pages.first", false], ["pages.second", false], ["pages.good", true]]);
            // The SDK's own check no longer runs: the adapter's execute alone returns what the server sent.
            assert.deepEqual(await source.tools[0].execute({}, { signal: new AbortController().signal }), { n: "not a number" });
        } finally {
            api.dispose();
            source.close();
            await client.close();
        }
    });

    test("a tool with an outputSchema that returns no structuredContent fails with the SDK's words", async () => {
        const server = new Server({ name: "bare", version: "1.0.0" }, { capabilities: { tools: {} } });
        server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: "text", inputSchema: { type: "object" }, outputSchema: { type: "object" } }] }));
        server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: "text", text: "{}" }] }));
        const client = await connectInMemory(server);
        const source = await mcp.fromMcpClient(client);
        await assert.rejects(source.tools[0].execute({}, { signal: new AbortController().signal }), { message: "Tool text has an output schema but did not return structured content" });
        source.close();
        await client.close();
    });

    // Servers list output schemas written for other validators: a tool
    // whose outputSchema Code Mode cannot enforce keeps its place, without
    // the schema, and the host hears of it. Its results are still checked:
    // by the SDK's own validator (Ajv), which checked every tool's before
    // Code Mode did, in the SDK's words; at every listing, not only the
    // first. The other tools' results are checked once, by Code Mode.
    test("a tool whose outputSchema Code Mode refuses is registered without it, reported, and its results checked by the SDK", async () => {
        const server = new Server({ name: "sloppy", version: "1.0.0" }, { capabilities: { tools: {} } });
        const tools = [
            { name: "look", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { user: { type: "string", pattern: "^(?!admin)" } } } },
            { name: "pair", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { n: { type: "array", items: [{ type: "string" }, { type: "number" }] } } } },
            { name: "fine", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { n: { type: "number" } } } },
        ];
        server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
        server.setRequestHandler(CallToolRequestSchema, (req) => ({ content: [], structuredContent: req.params.arguments.out }));
        const client = await connectInMemory(server);
        const errors = [];
        const source = await mcp.fromMcpClient(client, { onError: (e) => errors.push(e.message) });
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        const calls = `const out = [];
            for (const [name, value] of [["look", { user: "bob" }], ["look", { user: "admin" }], ["pair", { n: ["a", 1] }], ["pair", { n: [1, "a"] }], ["fine", { n: "x" }]]) {
                try { out.push(await tools.sloppy[name]({ out: value })); } catch (e) { out.push(e.message); }
            }
            return out;`;
        try {
            source.registerTools(api);
            await api.ready();
            assert.deepEqual(api.listTools().map((t) => [t.name, "outputSchema" in t]), [["sloppy.fine", true], ["sloppy.look", false], ["sloppy.pair", false]]);
            assert.equal(errors.length, 2, errors.join("\n"));
            assert.match(errors[0], /^MCP tool sloppy\.look: registered without its outputSchema, which Code Mode cannot enforce \(outputSchema: \/properties\/user\/pattern: "\^\(\?!admin\)" cannot be enforced: .*\); the MCP SDK checks its results and the model is shown no result type$/);
            assert.match(errors[1], /^MCP tool sloppy\.pair: registered without its outputSchema, .*outputSchema: \/properties\/n\/items: must be a schema under 2020-12, got a list.*; the MCP SDK checks its results and/);
            const session = api.createSession();
            for (const when of ["first listing", "after a refresh"]) {
                const out = await run(session, calls);
                assert.equal(out.ok, true, JSON.stringify(out));
                const [bob, admin, good, bad, fine] = out.result;
                assert.deepEqual([bob, good], [{ user: "bob" }, { n: ["a", 1] }], when);
                assert.match(admin, /^MCP error -32602: Structured content does not match the tool's output schema: data\/user must match pattern "\^\(\?!admin\)"$/, when);
                assert.match(bad, /^MCP error -32602: Structured content does not match the tool's output schema: data\/n\/0 /, when);
                assert.match(fine, /^sloppy\.fine: the tool's result does not match its outputSchema: \/n: type: got string, want number$/, when);
                await source.refresh();
            }
        } finally {
            api.dispose();
            source.close();
            await client.close();
        }
    });

    // The SDK's cache of output validators is given the whole list once per
    // registration, not once per refused tool: each call went over every
    // tool, so a server of N such tools among T cost N passes over T.
    test("tools whose outputSchema Code Mode refuses are handed to the SDK in one pass, still checked", async () => {
        const server = new Server({ name: "many", version: "1.0.0" }, { capabilities: { tools: {} } });
        const refused = { type: "object", properties: { user: { type: "string", pattern: "^(?!admin)" } } };
        const tools = Array.from({ length: 40 }, (_, i) => ({ name: "look" + i, inputSchema: { type: "object" }, outputSchema: refused }));
        tools.push({ name: "fine", inputSchema: { type: "object" }, outputSchema: { type: "object" } });
        server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
        server.setRequestHandler(CallToolRequestSchema, (req) => ({ content: [], structuredContent: req.params.arguments.out }));
        const client = await connectInMemory(server);
        const cached = []; // per call: how many outputSchemas the SDK was given
        const own = client.cacheToolMetadata.bind(client);
        client.cacheToolMetadata = (list) => (cached.push(list.filter((t) => t.outputSchema).length), own(list));
        const errors = [];
        const source = await mcp.fromMcpClient(client, { onError: (e) => errors.push(e.message) });
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        try {
            // The adapter lists with tools/list itself (not the SDK's
            // listTools, which cached and compiled all 41) and gives the SDK
            // the list without the outputSchemas Code Mode checks.
            assert.deepEqual(cached, [0], "the listing");
            cached.length = 0;
            source.registerTools(api);
            await api.ready();
            assert.equal(errors.length, 40, errors.join("\n"));
            assert.deepEqual(cached, [40], "one pass for the 40 refused tools");
            const out = await run(api.createSession(), `const out = [];
                for (const name of ["look0", "look39"]) for (const user of ["bob", "admin"]) {
                    try { out.push(await tools.many[name]({ out: { user } })); } catch (e) { out.push(e.message); }
                }
                return out;`);
            assert.equal(out.ok, true, JSON.stringify(out));
            const [bob0, admin0, bob39, admin39] = out.result;
            assert.deepEqual([bob0, bob39], [{ user: "bob" }, { user: "bob" }]);
            for (const admin of [admin0, admin39]) assert.match(admin, /^MCP error -32602: Structured content does not match the tool's output schema: data\/user must match pattern/);
        } finally {
            api.dispose();
            source.close();
            await client.close();
        }
    });


    // An OpenAPI-to-MCP generator (@ivotoby/openapi-mcp-server 1.16.1 on
    // GitHub's REST API: 24 of 845 tools) writes an operation whose body is
    // anyOf or oneOf as an inputSchema of allOf, without type at its root;
    // the SDK's listTools refused the whole page for it, so fromMcpClient
    // failed with zod's dump and no tool of the server registered.
    test("a tool MCP's Tool schema refuses is left out and reported; a root without type reads as an object's", async () => {
        const server = new Server({ name: "generated", version: "1.0.0" }, { capabilities: { tools: {} } });
        const gist = { type: "object", properties: { gist_id: { type: "string" } } };
        const tools = [
            { name: "gists-update", inputSchema: { allOf: [gist, { anyOf: [{ required: ["description"] }, { required: ["files"] }], properties: { description: { type: "string" }, files: { type: "object" } } }], required: ["gist_id"] } },
            { name: "raw-body", inputSchema: { type: "string" } },
            { name: "bad-hint", inputSchema: { type: "object" }, annotations: { readOnlyHint: "yes" } },
            { name: "fine", inputSchema: { type: "object", properties: { q: { type: "string" } } }, tags: ["x"] },
        ];
        let calls = 0;
        server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
        server.setRequestHandler(CallToolRequestSchema, (req) => ({ content: [{ type: "text", text: JSON.stringify({ got: req.params.arguments, calls: ++calls }) }] }));
        const client = await connectInMemory(server);
        const errors = [];
        const source = await mcp.fromMcpClient(client, { onError: (e) => errors.push(e) });
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        try {
            source.registerTools(api);
            assert.deepEqual(api.listTools().map((t) => t.name).sort(), ["generated.fine", "generated.gists-update"]);
            // One report for the listing, a line a tool.
            assert.deepEqual(errors.map((e) => [e.name, e.message]), [
                [
                    "TypeError",
                    'MCP tool generated.raw-body: left out: /inputSchema/type: Invalid input: expected "object", got "string" (MCP\'s Tool schema)\n' +
                        'MCP tool generated.bad-hint: left out: /annotations/readOnlyHint: Invalid input: expected boolean, received string, got "yes" (MCP\'s Tool schema)',
                ],
            ]);
            const out = await run(
                api.createSession(),
                `const out = [];
                for (const input of [{ gist_id: "aa5a315d61ae9438b18d", description: "An updated gist description" }, { gist_id: "aa5a315d61ae9438b18d" }, { description: "x" }, "files"]) {
                    try { out.push(await tools.generated["gists-update"](input)); } catch (e) { out.push(e.message); }
                }
                return out;`,
            );
            assert.equal(out.ok, true, JSON.stringify(out));
            assert.deepEqual(out.result[0], { got: { gist_id: "aa5a315d61ae9438b18d", description: "An updated gist description" }, calls: 1 });
            assert.match(out.result[1], /^generated\.gists-update: invalid input:\n\/: required: missing "description"\n\/: required: missing "files"$/);
            assert.match(out.result[2], /^generated\.gists-update: invalid input:[\s\S]*required: missing "gist_id"/);
            assert.match(out.result[3], /^generated\.gists-update: invalid input: \/: type: got string, want object/);
            // A later listing reports nothing new.
            await source.refresh();
            assert.equal(errors.length, 1);
        } finally {
            source.close();
            await client.close();
            api.dispose();
        }
    });
    // A server listing many tools MCP's Tool schema refuses, other ones on
    // each listing: one report a tool a listing (10,000 warnings for 10,000
    // such tools), every message kept for ever. Now one report a listing,
    // with the count and the first three; the same listing again, none.
    test("a server listing many tools MCP's Tool schema refuses gets one report a listing, naming the count and the first three", async () => {
        const server = new Server({ name: "flood", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
        let round = 0;
        server.setRequestHandler(ListToolsRequestSchema, () => ({
            tools: [{ name: "fine", inputSchema: { type: "object" } }, ...Array.from({ length: 500 }, (_, i) => ({ name: `bad${round}_${i}`, inputSchema: { type: "string" } }))],
        }));
        const client = await connectInMemory(server);
        const errors = [];
        const source = await mcp.fromMcpClient(client, { onError: (e) => errors.push(e) });
        try {
            const line = (r, i) => `MCP tool flood.bad${r}_${i}: left out: /inputSchema/type: Invalid input: expected "object", got "string" (MCP's Tool schema)`;
            const report = (r) => `MCP server "flood": 500 tools left out; the first 3:\n${[0, 1, 2].map((i) => line(r, i)).join("\n")}`;
            assert.deepEqual(source.tools.map((t) => t.name), ["flood.fine"]);
            assert.deepEqual(errors.map((e) => [e.name, e.message]), [["TypeError", report(0)]]);
            await source.refresh();
            assert.equal(errors.length, 1, "the same listing again: no report");
            round = 1;
            await source.refresh();
            assert.deepEqual(errors.map((e) => e.message), [report(0), report(1)]);
        } finally {
            source.close();
            await client.close();
        }
    });
    // isError with the reason only in structuredContent: the error said
    // "reported an error without a message".
    test("an isError result that says why only in structuredContent throws its JSON", async () => {
        const server = new McpServer({ name: "quota", version: "1.0.0" });
        server.registerTool("charge", { description: "Charge." }, async () => ({ isError: true, content: [], structuredContent: { code: "QUOTA", left: 0 } }));
        const client = await connectInMemory(server);
        const source = await mcp.fromMcpClient(client);
        await assert.rejects(source.tools[0].execute({}, { signal: new AbortController().signal }), { message: '{"code":"QUOTA","left":0}' });
        source.close();
        await client.close();
    });

    // A tool with execution.taskSupport "required" answers only a
    // task-augmented call, and the SDK's callTool refuses to send another:
    // every call failed with 'requires task-based execution. Use
    // client.experimental.tasks.callToolStream() instead.'
    describe("a tool that runs only as an MCP task", () => {
        let server, client, source, api, taskStore, started;
        before(async () => {
            const { InMemoryTaskStore } = await import("@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js");
            taskStore = new InMemoryTaskStore();
            started = [];
            server = new McpServer({ name: "jobs", version: "1.0.0" }, { capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } }, cancel: {} } }, taskStore });
            server.experimental.tasks.registerToolTask(
                "report",
                { description: "Builds a report.", inputSchema: { n: z.number() }, execution: { taskSupport: "required" } },
                {
                    async createTask({ n }, extra) {
                        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 20 });
                        started.push(task.taskId);
                        if (n >= 0) {
                            setTimeout(() => extra.taskStore.storeTaskResult(task.taskId, "completed", { content: [{ type: "text", text: JSON.stringify({ rows: n * 2 }) }] }), 30);
                        }
                        return { task };
                    },
                    getTask: (_args, extra) => extra.taskStore.getTask(extra.taskId),
                    getTaskResult: (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
                },
            );
            client = await connectInMemory(server);
            source = await mcp.fromMcpClient(client);
            api = await IoCodeModeFactory({ wasmLocation: assetPath });
            source.registerTools(api);
        });
        after(async () => {
            api.dispose();
            source.close();
            await client.close();
            // The store keeps each task 60 s (its ttl) on a timer, which
            // held the test process open a minute after the last test.
            taskStore.cleanup();
        });

        test("a call creates the task, waits for it and returns its result", async () => {
            const session = api.createSession();
            const out = await run(session, "return await tools.jobs.report({ n: 21 })");
            assert.equal(out.ok, true, JSON.stringify(out));
            assert.deepEqual(out.result, { rows: 42 });
            assert.equal(started.length, 1);
            session.dispose();
        });

        test("aborting the run cancels the task on the server", async () => {
            const session = api.createSession();
            const ctrl = new AbortController();
            started.length = 0;
            const p = run(session, "return await tools.jobs.report({ n: -1 })", { signal: ctrl.signal });
            await until(() => started.length === 1, "the server to create the task");
            ctrl.abort(new Error("user pressed stop"));
            await assert.rejects(p, /user pressed stop/);
            await until(async () => (await taskStore.getTask(started[0]))?.status === "cancelled", "the task to be cancelled");
            session.dispose();
        });

        // SDK 1 adds an abort listener to a request's signal per request and
        // never removes it: each tasks/get poll of a call left one on the
        // call's signal. Node warned (MaxListenersExceededWarning) at the
        // 11th poll, memory grew with the polls, and the run's abort sent
        // the server a notifications/cancelled for every request answered
        // (here 26), besides the task's cancellation.
        test("a long task's polls leave no listener behind: no warning, and an abort cancels the task only", async () => {
            const warnings = [];
            const warned = (w) => warnings.push(`${w.name}: ${w.message}`);
            process.on("warning", warned);
            const sent = [];
            const polls = () => sent.filter((m) => m == "tasks/get").length;
            const { send } = client.transport;
            client.transport.send = (m, o) => (sent.push(m.method), send.call(client.transport, m, o));
            try {
                const session = api.createSession();
                started.length = 0;
                let p = run(session, "return await tools.jobs.report({ n: -1 })");
                await until(() => polls() >= 25, "25 polls of the task");
                await taskStore.storeTaskResult(started[0], "completed", { content: [{ type: "text", text: '{"rows": 1}' }] });
                const out = await p;
                assert.deepEqual([out.ok, out.result], [true, { rows: 1 }], JSON.stringify(out));
                assert.deepEqual(warnings, [], "25 polls");

                const ctrl = new AbortController();
                sent.length = 0;
                p = run(session, "return await tools.jobs.report({ n: -1 })", { signal: ctrl.signal });
                await until(() => polls() >= 25, "25 polls of the task");
                ctrl.abort(new Error("user pressed stop"));
                await assert.rejects(p, /user pressed stop/);
                await until(async () => (await taskStore.getTask(started[1]))?.status === "cancelled", "the task to be cancelled");
                await sleep(50);
                assert.deepEqual(sent.filter((m) => /cancel/.test(m)).sort(), ["notifications/cancelled", "tasks/cancel"], "the request in flight and the task");
                assert.deepEqual(warnings, []);
                session.dispose();
            } finally {
                process.off("warning", warned);
                client.transport.send = send;
            }
        });
    });
});

// The MCP filesystem server's own tools/list (recorded in the search
// evaluation's catalog): every inputSchema names draft-07 in "$schema", as
// servers built on the SDK with zod list them. Served as recorded, the
// tools register, a valid call reaches the server, and a wrong argument is
// refused before it does, with an error naming the field and the rule.
describe("fromMcpClient: a real server's tool list (filesystem, draft-07 schemas)", () => {
    const catalog = JSON.parse(readFileSync(fileURLToPath(new URL("../../internal/search/eval/testdata/filesystem.catalog.json", import.meta.url)), "utf8"));
    const listed = catalog.tools.map((t) => ({ ...t, name: t.name.replace(/^filesystem\./, "") }));
    let api, client, source, calls;
    before(async () => {
        calls = [];
        const server = new Server({ name: "secure-filesystem-server", version: "0.2.0" }, { capabilities: { tools: {} } });
        server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
        server.setRequestHandler(CallToolRequestSchema, (req) => {
            calls.push({ name: req.params.name, arguments: req.params.arguments });
            return { content: [{ type: "text", text: `called ${req.params.name}` }] };
        });
        client = await connectInMemory(server);
        source = await mcp.fromMcpClient(client, { namespace: "filesystem" });
        api = await IoCodeModeFactory({ wasmLocation: assetPath });
        source.registerTools(api);
        await api.ready();
    });
    after(async () => {
        api.dispose();
        source.close();
        await client.close();
    });

    test("every tool registers with the server's schema, $schema included, and reads as TypeScript", async () => {
        assert.ok(listed.length >= 14 && listed.every((t) => t.inputSchema.$schema === "http://json-schema.org/draft-07/schema#"));
        assert.deepEqual(api.listTools().map((t) => t.name).sort(), listed.map((t) => `filesystem.${t.name}`).sort());
        const read = api.listTools().find((t) => t.name === "filesystem.read_text_file");
        assert.deepEqual(read.inputSchema, listed.find((t) => t.name === "read_text_file").inputSchema);
        const session = api.createSession();
        const out = await run(session, "return (await tool_search({ query: 'read the first lines of a text file' })).find((t) => t.name === 'filesystem.read_text_file').signature");
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.match(out.result, /read_text_file\(input: \{\n  path: string;\n[^]*  head\?: number;\n\}\): Promise<unknown>;$/);
        session.dispose();
    });

    test("valid calls reach the server with their arguments", async () => {
        const session = api.createSession();
        calls.length = 0;
        const out = await run(
            session,
            `return [await tools.filesystem.read_text_file({ path: "/srv/notes.txt", head: 20 }),
                     await tools.filesystem.read_multiple_files({ paths: ["/a", "/b"] }),
                     await tools.filesystem.list_directory_with_sizes({ path: "/srv", sortBy: "size" }),
                     await tools.filesystem.list_allowed_directories({})]`,
        );
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result, ["called read_text_file", "called read_multiple_files", "called list_directory_with_sizes", "called list_allowed_directories"]);
        assert.deepEqual(calls[0], { name: "read_text_file", arguments: { path: "/srv/notes.txt", head: 20 } });
        session.dispose();
    });

    const refused = [
        ["a number for a string", `tools.filesystem.read_text_file({ path: 5 })`, "filesystem.read_text_file: invalid input: /path: type: got number, want string"],
        ["a string for a number", `tools.filesystem.read_text_file({ path: "/a", head: "20" })`, `filesystem.read_text_file: invalid input: /head: type: got string, want number (the string "20": pass the number 20, without quotes)`],
        ["a required field missing", `tools.filesystem.move_file({ source: "/a" })`, 'filesystem.move_file: invalid input: /: required: missing "destination"'],
        ["an empty list under minItems", `tools.filesystem.read_multiple_files({ paths: [] })`, "filesystem.read_multiple_files: invalid input: /paths: minItems: got 0 items, want >= 1"],
        ["a value outside the enum", `tools.filesystem.list_directory_with_sizes({ path: "/", sortBy: "date" })`, 'filesystem.list_directory_with_sizes: invalid input: /sortBy: enum: got "date", want one of "name", "size"'],
        ["a wrong item deep in a list", `tools.filesystem.edit_file({ path: "/a", edits: [{ oldText: "x", newText: 1 }] })`, "filesystem.edit_file: invalid input: /edits/0/newText: type: got number, want string"],
    ];
    for (const [what, call, message] of refused) {
        test(`${what}: refused before the server, the error names the field`, async () => {
            const session = api.createSession();
            calls.length = 0;
            const out = await run(session, `try { await ${call}; return "called"; } catch (e) { return e.message; }`);
            assert.equal(out.ok, true, JSON.stringify(out));
            assert.equal(out.result, message);
            assert.deepEqual(calls, []);
            session.dispose();
        });
    }
});

describe("toMcpServer", () => {
    let api, session, client, pageSignals;
    before(async () => {
        pageSignals = [];
        api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            tools: [
                {
                    name: "orders.search",
                    description: "Search orders by status.",
                    inputSchema: { type: "object", properties: { status: { type: "string" } }, required: ["status"] },
                    execute: async ({ status }, { context }) => [{ id: "o-1", status, total: 30, by: context?.client }],
                },
                {
                    name: "orders.wait",
                    description: "Waits until aborted.",
                    execute: (input, { signal }) =>
                        new Promise((resolve) => {
                            pageSignals.push(signal);
                            signal.addEventListener("abort", () => resolve(null));
                        }),
                },
            ],
        });
        session = api.createSession();
        const server = await mcp.toMcpServer(session, { name: "orders-code-mode", context: (extra) => ({ client: extra.sessionId ?? "in-memory" }) });
        client = await connectInMemory(server);
    });
    after(async () => {
        await client.close();
        api.dispose();
    });

    test("offers searchTools and executeCode with the session's schemas and instructions", async () => {
        const { tools } = await client.listTools();
        const llm = session.getLlmTools();
        assert.deepEqual(tools.map((t) => t.name), ["searchTools", "executeCode"]);
        assert.deepEqual(tools[1].inputSchema, JSON.parse(JSON.stringify(llm[1].inputSchema)));
        assert.equal(tools[1].description, llm[1].description);
        assert.equal(tools[0].annotations.readOnlyHint, true);
        // The display name, where MCP clients look first and where older ones do.
        assert.deepEqual(tools.map((t) => [t.title, t.annotations.title]), [
            ["Search the available tools", "Search the available tools"],
            ["Run JavaScript that calls the tools", "Run JavaScript that calls the tools"],
        ]);
        assert.equal(client.getServerVersion().name, "orders-code-mode");
        assert.equal(client.getInstructions(), session.getSystemInstruction());
    });

    test("executeCode runs with the request's context; errors are isError results", async () => {
        const ok = await client.callTool({ name: "executeCode", arguments: { code: "return await tools.orders.search({ status: 'open' })", explanation: "x" } });
        assert.equal(ok.isError, undefined);
        assert.deepEqual(ok.structuredContent.result, [{ id: "o-1", status: "open", total: 30, by: "in-memory" }]);
        assert.deepEqual(JSON.parse(ok.content[0].text), ok.structuredContent);
        const bad = await client.callTool({ name: "executeCode", arguments: { code: "return nope.x", explanation: "x" } });
        assert.equal(bad.isError, true);
        assert.equal(bad.structuredContent.error.code, "RUNTIME");
        const hits = await client.callTool({ name: "searchTools", arguments: { query: "orders" } });
        assert.equal(JSON.parse(hits.content[0].text)[0].name, "orders.search");
        const unknown = await client.callTool({ name: "orders.search", arguments: {} });
        assert.equal(unknown.isError, true);
        assert.equal(unknown.structuredContent.error.code, "UNKNOWN_TOOL");
        const wrong = await client.callTool({ name: "executeCode", arguments: { code: { x: 1 }, explanation: "x" } });
        assert.equal(wrong.isError, true);
        assert.equal(wrong.structuredContent.error.code, "INVALID_INPUT");
    });

    test("the client's cancellation aborts the run and its tool calls", async () => {
        const ctrl = new AbortController();
        const p = client.callTool({ name: "executeCode", arguments: { code: "return await tools.orders.wait({})", explanation: "x" } }, undefined, { signal: ctrl.signal });
        await until(() => pageSignals.length === 1, "the page tool to be called");
        ctrl.abort(new Error("client gave up"));
        await assert.rejects(p, /client gave up/);
        await until(() => pageSignals[0].aborted, "the page tool's signal to abort");
    });
});

describe("over Streamable HTTP on 127.0.0.1", () => {
    // A stateful Streamable HTTP endpoint: one transport and server per MCP session.
    async function httpEndpoint(makeServer) {
        const transports = new Map();
        const http = createServer(async (req, res) => {
            const sid = req.headers["mcp-session-id"];
            let transport = sid && transports.get(sid);
            if (!transport) {
                transport = new StreamableHTTPServerTransport({
                    sessionIdGenerator: () => randomUUID(),
                    onsessioninitialized: (id) => transports.set(id, transport),
                });
                await (await makeServer()).connect(transport);
            }
            await transport.handleRequest(req, res);
        });
        await new Promise((r) => http.listen(0, "127.0.0.1", r));
        const url = new URL(`http://127.0.0.1:${http.address().port}/mcp`);
        return {
            url,
            close: async () => {
                for (const t of transports.values()) await t.close();
                http.closeAllConnections();
                await new Promise((r) => http.close(r));
            },
        };
    }

    async function httpClient(url) {
        const client = new Client({ name: "http-client", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(url));
        return client;
    }

    test("fromMcpClient: a run calls an HTTP server's tools, list changes and cancellation included", async () => {
        const seen = {};
        let server;
        const endpoint = await httpEndpoint(() => (server = deskServer("tracker", seen)));
        const client = await httpClient(endpoint.url);
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        const source = await mcp.fromMcpClient(client);
        source.registerTools(api);
        const session = api.createSession();
        let out = await run(session, "const r = await tools.tracker.search_issues({ q: 'http' }); return r.items[0].title");
        assert.equal(out.result, "about http");
        server.registerTool("ping", { description: "Ping." }, async () => ({ content: [{ type: "text", text: '"pong"' }] }));
        await until(() => api.listTools().some((t) => t.name === "tracker.ping"), "tracker.ping over HTTP");
        out = await run(session, "return await tools.tracker.ping({})");
        assert.equal(out.result, "pong");
        const ctrl = new AbortController();
        const p = run(session, "return await tools.tracker.slow({})", { signal: ctrl.signal });
        await until(() => seen.slowStarted, "the HTTP server to see the call");
        ctrl.abort(new Error("stop"));
        await assert.rejects(p, /stop/);
        await until(() => seen.slowCancelled !== undefined, "the HTTP server to see the cancellation");
        session.dispose();
        api.dispose();
        source.close();
        await client.close();
        await endpoint.close();
    });

    test("toMcpServer: an HTTP client runs executeCode", async () => {
        const api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            tools: [{ name: "math.add", inputSchema: { type: "object" }, execute: ({ a, b }) => a + b }],
        });
        const session = api.createSession();
        const endpoint = await httpEndpoint(() => mcp.toMcpServer(session, { context: (extra) => extra.sessionId }));
        const client = await httpClient(endpoint.url);
        const res = await client.callTool({ name: "executeCode", arguments: { code: "return await tools.math.add({ a: 2, b: 40 })", explanation: "add" } });
        assert.equal(res.structuredContent.ok, true);
        assert.equal(res.structuredContent.result, 42);
        await client.close();
        await endpoint.close();
        api.dispose();
    });
});

test("toMcpServer over stdio: a client spawns Code Mode as an MCP server process", async () => {
    const transport = new StdioClientTransport({
        command: process.execPath,
        args: [fileURLToPath(new URL("./fixtures/mcp-stdio-server.mjs", import.meta.url))],
        stderr: "pipe",
    });
    const client = new Client({ name: "stdio-client", version: "1.0.0" });
    await client.connect(transport);
    try {
        assert.equal(client.getServerVersion().name, "stdio-code-mode");
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name), ["searchTools", "executeCode"]);
        const res = await client.callTool({ name: "executeCode", arguments: { code: "return await tools.math.add({ a: 2, b: 40 })", explanation: "add" } });
        assert.equal(res.structuredContent.ok, true, JSON.stringify(res));
        assert.equal(res.structuredContent.result, 42);
    } finally {
        await client.close();
    }
});
