// What real MCP servers send, as the model's program gets it (USAGE's "MCP
// servers' tools"): the reference server-everything (2026.8.31, over stdio,
// with SDK 1's and SDK 2's clients) for annotated content, resource links,
// embedded resources, images, a long-running operation and its tools'
// hints; SDK 2's McpServer for what server-everything does not send: an
// isError result with structuredContent alone, _meta on a tool and on a
// result, and a tool list that changes while a run is active.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { readFileSync } from "node:fs";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { assetPath, loadFactory, run } from "./helpers.mjs";
import { loadAdapter, until } from "./adapter-helpers.mjs";
import { connectInMemory } from "./mcp-server.mjs";

const require = createRequire(import.meta.url);
const manifest = require.resolve("@modelcontextprotocol/server-everything/package.json");
const everything = join(dirname(manifest), Object.values(JSON.parse(readFileSync(manifest, "utf8")).bin)[0]);

let IoCodeModeFactory, mcp;
before(async () => {
    IoCodeModeFactory = await loadFactory();
    mcp = await loadAdapter("mcp");
});

// A factory whose onToolCall records each call's tool name and hints.
async function factory(source, decisions) {
    const api = await IoCodeModeFactory({
        wasmLocation: assetPath,
        timeout: 60_000,
        interceptors: {
            onToolCall: async ({ tool }) => {
                const a = tool.annotations;
                decisions.push([tool.name, a.readOnlyHint, a.destructiveHint, a.openWorldHint, a.untrusted]);
                return { allowed: true };
            },
        },
    });
    source.registerTools(api);
    return api;
}

const CONTENT = `const ev = tools.ev, o = {};
    o.one = await ev["get-annotated-message"]({ messageType: "debug" });
    o.two = await ev["get-annotated-message"]({ messageType: "error", includeImage: true });
    o.links = await ev["get-resource-links"]({ count: 2 });
    o.embedded = await ev["get-resource-reference"]({ resourceType: "Text", resourceId: 1 });
    o.image = await ev["get-tiny-image"]({});
    o.long = await ev["trigger-long-running-operation"]({ duration: 0.4, steps: 2 });
    return o;`;

for (const sdk of ["SDK 1", "SDK 2"]) {
    describe(`server-everything with ${sdk}'s client: what the program gets`, () => {
        let client, source, api;
        const decisions = [];
        before(async () => {
            const [C, T] = sdk === "SDK 1" ? [Client1, Stdio1] : [Client, StdioClientTransport];
            client = new C({ name: "content-test", version: "1.0.0" });
            await client.connect(new T({ command: process.execPath, args: [everything, "stdio"], stderr: "ignore" }));
            source = await mcp.fromMcpClient(client, { namespace: "ev" });
            api = await factory(source, decisions);
        });
        after(async () => {
            source.close();
            api.dispose();
            await client.close();
        });

        test("one text block: its text (its annotations dropped); several blocks, images, resource links, embedded resources: the content array as sent", async () => {
            const out = await run(api.createSession(), CONTENT);
            assert.equal(out.ok, true, JSON.stringify(out).slice(0, 2000));
            const o = out.result;
            assert.equal(o.one, "Debug: Cache hit ratio 0.95, latency 150ms");
            const png = { type: "image", mimeType: "image/png" };
            assert.deepEqual(o.two.map(({ data, ...b }) => b), [
                { type: "text", text: "Error: Operation failed", annotations: { priority: 1, audience: ["user", "assistant"] } },
                { ...png, annotations: { priority: 0.5, audience: ["user"] } },
            ]);
            assert.match(o.two[1].data, /^iVBORw0KGgo[A-Za-z0-9+/]+=*$/, "the image's base64 data");
            assert.deepEqual(o.links, [
                { type: "text", text: "Here are 2 resource links to resources available in this server:" },
                { type: "resource_link", name: "Blob Resource 1", uri: "demo://resource/dynamic/blob/1", description: "Resource 1: plaintext resource", mimeType: "text/plain" },
                { type: "resource_link", name: "Text Resource 2", uri: "demo://resource/dynamic/text/2", description: "Resource 2: plaintext resource", mimeType: "text/plain" },
            ]);
            assert.equal(o.embedded.length, 3);
            assert.deepEqual(o.embedded[1].type, "resource");
            assert.equal(o.embedded[1].resource.uri, "demo://resource/dynamic/text/1");
            assert.match(o.embedded[1].resource.text, /^Resource 1: This is a plaintext resource/);
            assert.deepEqual(o.image.map((b) => b.type), ["text", "image", "text"]);
            // No progress is asked for (no progressToken): the call resolves with the final result.
            assert.equal(o.long, "Long running operation completed. Duration: 0.4 seconds, Steps: 2.");
        });

        test("the server's hints reach onToolCall as it sent them, with untrusted: true", async () => {
            decisions.length = 0;
            const out = await run(api.createSession(), `await tools.ev["get-sum"]({ a: 1, b: 2 }); try { await tools.ev["gzip-file-as-resource"]({ name: "x.gz", data: "data:text/plain,hi" }); } catch {} return 1;`);
            assert.equal(out.ok, true, JSON.stringify(out));
            assert.deepEqual(decisions, [
                ["ev.get-sum", true, undefined, false, true],
                ["ev.gzip-file-as-resource", false, false, true, true],
            ]);
            const sum = source.tools.find((t) => t.name === "ev.get-sum");
            assert.equal(sum.annotations.title, "Get Sum Tool");
            const weather = source.tools.find((t) => t.name === "ev.get-structured-content");
            assert.deepEqual(Object.keys(weather.outputSchema.properties).sort(), ["conditions", "humidity", "temperature"]);
        });
    });
}

describe("SDK 2's McpServer: what server-everything does not send", () => {
    let server, client, source, api, gate;
    const decisions = [];
    const tools = {};
    before(async () => {
        server = new McpServer({ name: "desk", version: "1.0.0" });
        server.registerTool("refuse", { description: "Fails with data only.", inputSchema: z.object({}) }, async () => ({ content: [], structuredContent: { code: "RATE_LIMIT", retryAfter: 30 }, isError: true }));
        server.registerTool(
            "meta",
            { description: "Carries _meta.", inputSchema: z.object({}), _meta: { "example.com/ui": "widget.html" } },
            async () => ({ content: [{ type: "text", text: '{"id":1}' }], _meta: { "example.com/trace": "t-1" } }),
        );
        server.registerTool("wait", { description: "Waits for the test.", inputSchema: z.object({}) }, () => new Promise((resolve) => (gate = () => resolve({ content: [{ type: "text", text: "go" }] }))));
        tools.old = server.registerTool("old", { description: "Removed during a run.", inputSchema: z.object({}) }, async () => ({ content: [{ type: "text", text: "old" }] }));
        tools.changed = server.registerTool("changed", { description: "Changed during a run.", inputSchema: z.object({}) }, async () => ({ content: [{ type: "text", text: "v1" }] }));
        client = await connectInMemory(server);
        source = await mcp.fromMcpClient(client);
        api = await factory(source, decisions);
    });
    after(async () => {
        source.close();
        api.dispose();
        await client.close();
    });

    test("isError with structuredContent alone: the error is its JSON; _meta, the tool's and the result's, is not passed on", async () => {
        const out = await run(api.createSession(), "const o = {}; try { await tools.desk.refuse({}); } catch (e) { o.refused = e.message; } o.meta = await tools.desk.meta({}); return o;");
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result, { refused: '{"code":"RATE_LIMIT","retryAfter":30}', meta: { id: 1 } });
        const meta = source.tools.find((t) => t.name === "desk.meta");
        assert.equal(JSON.stringify(meta).includes("example.com"), false, JSON.stringify(meta));
    });

    // notifications/tools/list_changed while a run waits on a tool: the
    // source lists again; a tool removed fails the run's later call, a tool
    // changed is called as it is now, a tool added is a later run's.
    test("the list changes while a run is active: removed fails its call, changed runs as it is now, added is for the next run", async () => {
        const session = api.createSession();
        const running = run(
            session,
            `const o = {};
            o.before = await tools.desk.old({});
            await tools.desk.wait({});
            try { o.old = await tools.desk.old({}); } catch (e) { o.old = e.name + ": " + e.message; }
            o.changed = await tools.desk.changed({});
            try { o.added = await tool_call("desk.added", {}); } catch (e) { o.added = e.name + ": " + e.message; }
            return o;`,
        );
        await until(() => gate, "the run to wait on desk.wait");
        tools.old.remove();
        tools.changed.update({ description: "Changed during a run: v2.", callback: async () => ({ content: [{ type: "text", text: "v2" }] }) });
        server.registerTool("added", { description: "Added during a run.", inputSchema: z.object({}) }, async () => ({ content: [{ type: "text", text: "added" }] }));
        await until(() => {
            const names = api.listTools().map((t) => t.name);
            return names.includes("desk.added") && !names.includes("desk.old") && api.listTools().find((t) => t.name === "desk.changed")?.description.endsWith("v2.");
        }, "the source to list the server's change");
        gate();
        const out = await running;
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.equal(out.result.before, "old");
        assert.equal(out.result.old, 'ToolError: tool "desk.old" was unregistered during this run; use tool_search to find tools');
        assert.equal(out.result.changed, "v2");
        assert.match(out.result.added, /^ToolError: unknown tool "desk\.added"/);
        const next = await run(session, "return await tools.desk.added({})");
        assert.equal(next.result, "added", JSON.stringify(next));
        session.dispose();
    });
});
