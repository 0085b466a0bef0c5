// TypeScript declarations of @interopio/code-mode/mcp. The Model Context
// Protocol SDK is a peer dependency: fromMcpClient takes SDK 1's Client
// (@modelcontextprotocol/sdk) or SDK 2's (@modelcontextprotocol/client);
// toMcpServer builds on SDK 1's McpServer.
import type { IoCodeMode } from "@interopio/code-mode";
// SDK 1 is an optional peer: an app on SDK 2 alone has none of these, and
// without skipLibCheck tsc failed on them (TS2307) though nothing of its
// own used them. Unresolved, each is any (the SDK 2 forms are typed below).
// @ts-ignore: SDK 1 is optional (above)
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-ignore: SDK 1 is optional (above)
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-ignore: SDK 1 is optional (above)
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
// @ts-ignore: SDK 1 is optional (above)
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
// @ts-ignore: SDK 1 is optional (above)
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";

export interface FromMcpClientOptions {
    /** The first steps of every tool's name (`tools.<namespace>.<tool>`), dots separating them (`"corp.github"`: `tools.corp.github.<tool>`). Default: the server's name, sanitised to one step. */
    namespace?: string | undefined;
    /**
     * Whether the server's word about its tools can be taken. Default
     * `false`: every tool's annotations carry `untrusted: true`.
     */
    trusted?: boolean | undefined;
    /** Timeout of one tools/call, and of each tools/list page, in milliseconds: over 0, at most 2147483647 (setTimeout's limit: `Infinity` is a TypeError). Default: in a run, the run's own timeout (the SDK's 60000 does not apply); outside one, and for tools/list, the SDK's. */
    timeout?: number | undefined;
    /** Which of the server's tools to offer. Default: all. */
    filter?: ((tool: Tool) => boolean) | undefined;
    /** Hears what cannot be thrown to a caller: a failed re-sync, a tool a re-sync could not register, the tools a listing left out (one report a listing, with the count and the first three). Default: console.warn. */
    onError?: ((error: unknown) => void) | undefined;
}

/**
 * A connected Client of SDK 2 (@modelcontextprotocol/client), as fromMcpClient
 * uses it; SDK 1's is typed by its own Client.
 */
export interface McpClient {
    request(...args: any[]): Promise<unknown>;
    callTool(...args: any[]): Promise<unknown>;
    setNotificationHandler(...args: any[]): void;
    getProtocolEra(): string | undefined;
    getServerVersion(): { name: string } | undefined;
}

export interface McpToolSource extends IoCodeMode.ToolSource {
    /** The namespace of the tools' names. */
    readonly namespace: string;
    /** Lists the server's tools again now (done on every notifications/tools/list_changed too). */
    refresh(): Promise<IoCodeMode.ToolDefinition[]>;
}

/**
 * The tools of a connected MCP client as Code Mode tools: all pages of
 * tools/list, re-listed on notifications/tools/list_changed; names
 * `<namespace>.<tool>`; input and output schemas carried; results unwrapped
 * (`isError` throws with its text, `structuredContent` first, JSON text
 * parsed, other content as is); the run's signal cancels the MCP request;
 * annotations with the protocol's defaults explicit, `source: "mcp:<namespace>"`,
 * `mcpTool` (the server's own name of the tool) and `untrusted` for `onToolCall`.
 */
export declare function fromMcpClient(client: Client | McpClient, options?: FromMcpClientOptions): Promise<McpToolSource>;

/** A tools/call result as sandbox code receives it (what fromMcpClient's tools return). */
export declare function unwrapCallToolResult(result: CallToolResult): unknown;

export interface ToMcpServerOptions {
    /** The server's name in its initialize answer. Default "code-mode". */
    name?: string | undefined;
    /** The server's version. Default "1.0.0". */
    version?: string | undefined;
    /** The run's `context` (onToolCall's `callContext`) from the MCP request: its session, auth info, ... */
    context?: ((extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => unknown) | undefined;
    /** The McpServer class to build. Default SDK 1's (@modelcontextprotocol/sdk), imported by the adapter. */
    McpServer?: (new (...args: any[]) => McpServer) | undefined;
}

/** toMcpServer's options with SDK 2's McpServer (@modelcontextprotocol/server): `context` gets SDK 2's request context. */
export interface ToMcpServerOptionsWith<S> {
    name?: string | undefined;
    version?: string | undefined;
    context?: ((ctx: any) => unknown) | undefined;
    /** SDK 2's McpServer (`import { McpServer } from "@modelcontextprotocol/server"`): its createMcpHandler serves MCP 2026-07-28. */
    McpServer: new (...args: any[]) => S;
}

/**
 * An McpServer offering the session's `searchTools` and `executeCode`; connect
 * it to any transport (`await server.connect(transport)`). A client's
 * cancellation aborts the run.
 */
export declare function toMcpServer(session: IoCodeMode.Session, options?: ToMcpServerOptions): Promise<McpServer>;
export declare function toMcpServer<S>(session: IoCodeMode.Session, options: ToMcpServerOptionsWith<S>): Promise<S>;
