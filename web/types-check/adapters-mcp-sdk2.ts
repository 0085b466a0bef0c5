// Type check of @interopio/code-mode/mcp with SDK 2's Client
// (@modelcontextprotocol/client), as web/USAGE.md uses it. Nothing here runs.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import type { IoCodeMode } from "@interopio/code-mode";
import { fromMcpClient, toMcpServer, type McpToolSource } from "@interopio/code-mode/mcp";

export async function consume(codeMode: IoCodeMode.API): Promise<() => void> {
    const client = new Client({ name: "my-copilot", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("https://mcp.example.com/mcp")));
    const github: McpToolSource = await fromMcpClient(client, { namespace: "github", filter: (t) => !t.name.startsWith("admin_") });
    const unregister = github.registerTools(codeMode);
    return () => {
        unregister();
        github.close();
    };
}

export async function serve(session: IoCodeMode.Session): Promise<McpServer> {
    const handler = createMcpHandler(() => toMcpServer(session, { McpServer, context: (ctx) => ctx.http?.authInfo }));
    void handler;
    return toMcpServer(session, { name: "orders", McpServer });
}
