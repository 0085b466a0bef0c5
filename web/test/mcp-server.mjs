// An MCP server for the hostile suites: an SDK 2 client connected in
// memory to a server whose tools/list answers list(request) and
// tools/call call(request, extra).
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { Server } from "@modelcontextprotocol/server";
import { withFactory } from "./helpers.mjs";
import { loadAdapter } from "./adapter-helpers.mjs";

/**
 * @param {string} name the server's name (the source's namespace)
 * @param {(request: any) => any} list
 * @param {(request: any, extra: any) => any} call
 */
export async function serverWith(name, list, call) {
    const server = new Server({ name, version: "1.0.0" }, { capabilities: { tools: { listChanged: true }, logging: {} } });
    server.setRequestHandler("tools/list", list);
    server.setRequestHandler("tools/call", call);
    return { server, client: await connectInMemory(server, "hostile") };
}

/** A client of SDK 2 (clientName) connected in memory to server, SDK 2's McpServer or Server (MCP 2025-11-25). */
export async function connectInMemory(server, clientName = "test-client") {
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: clientName, version: "1.0.0" });
    await Promise.all([server.connect(b), client.connect(a)]);
    return client;
}

/**
 * A factory for one test with the client's tools (fromMcpClient) registered;
 * the client, the source and the factory close when the test ends.
 * @param {any} t the test's context
 * @param {any} client
 * @param {any} config the factory's
 */
export async function withServerTools(t, client, config) {
    t.after(() => client.close());
    const mcp = await loadAdapter("mcp");
    const source = await mcp.fromMcpClient(client);
    t.after(() => source.close());
    const api = await withFactory(t, config);
    source.registerTools(api);
    return api;
}
