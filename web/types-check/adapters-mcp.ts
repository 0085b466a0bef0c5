// Type check of @interopio/code-mode/mcp with the MCP SDK's own types, as
// web/USAGE.md uses it. Nothing here runs.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { IoCodeModeFactory, type IoCodeMode } from "@interopio/code-mode";
import { fromMcpClient, toMcpServer, unwrapCallToolResult, type McpToolSource } from "@interopio/code-mode/mcp";

export async function consume(): Promise<() => void> {
    const codeMode = await IoCodeModeFactory({
        wasmLocation: "/quickjs/emscripten-module.wasm",
        interceptors: {
            onToolCall: async ({ tool }) =>
                tool.annotations?.untrusted && tool.annotations.readOnlyHint !== true
                    ? { allowed: false, reason: `${tool.name} (${tool.annotations.source}) needs approval` }
                    : { allowed: true },
        },
    });
    const client = new Client({ name: "my-copilot", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("https://mcp.example.com/mcp")));
    const github: McpToolSource = await fromMcpClient(client, { namespace: "github", timeout: 30_000, filter: (t) => !t.name.startsWith("admin_") });
    const unregister: () => void = github.registerTools(codeMode);
    const defs: IoCodeMode.ToolDefinition[] = await github.refresh();
    const session = codeMode.createSession({ tools: github.tools });
    void defs;
    void session;
    void unwrapCallToolResult({ content: [{ type: "text", text: "1" }] });
    return () => {
        unregister();
        github.close();
    };
}

export async function serve(session: IoCodeMode.Session): Promise<McpServer> {
    const server = await toMcpServer(session, { name: "orders", context: (extra) => extra.authInfo });
    await server.connect(new StdioServerTransport());
    return server;
}
