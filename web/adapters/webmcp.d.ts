// TypeScript declarations of @interopio/code-mode/webmcp. The model context
// types below are the parts of WebMCP (document.modelContext, native or a
// polyfill such as @mcp-b/webmcp-polyfill) the adapter uses.
import type { IoCodeMode } from "@interopio/code-mode";

export interface WebMcpRegisteredTool {
    name: string;
    title?: string;
    description: string;
    inputSchema?: { [keyword: string]: any } | string;
    /** consequentialHint: Chromium's (an action the user should confirm). */
    annotations?: { readOnlyHint?: boolean; untrustedContentHint?: boolean; consequentialHint?: boolean };
}

export interface WebMcpModelContext extends EventTarget {
    registerTool(tool: any, options?: { signal?: AbortSignal }): Promise<void>;
    getTools?(): Promise<WebMcpRegisteredTool[]>;
    /** Runs a registered tool: Chromium's own takes the input as an object, the polyfills as its JSON. */
    executeTool?(tool: any, inputArguments: string | { [key: string]: unknown }, options?: { signal?: AbortSignal }): Promise<string | null>;
}

/** Chromium's `navigator.modelContextTesting` (and the polyfill's shim of it): tools listed and run by name. */
export interface WebMcpModelContextTesting extends EventTarget {
    listTools(): { name: string; description: string; inputSchema?: string }[];
    executeTool(toolName: string, inputArgsJson: string, options?: { signal?: AbortSignal }): Promise<string | null>;
}

export interface FromWebMcpOptions {
    /**
     * Default: `document.modelContext` (or the deprecated `navigator.modelContext`);
     * when it cannot list or run tools (no `getTools`/`executeTool`), `navigator.modelContextTesting`.
     */
    modelContext?: WebMcpModelContext | WebMcpModelContextTesting | undefined;
    /** The first steps of every tool's name, dots separating them (`"page.shop"`: `tools.page.shop.<tool>`). Default `"webmcp"`: `tools.webmcp.<tool>`. */
    namespace?: string | undefined;
    /** Whether the page's tools' hints can be taken at their word. Default `false`: `untrusted: true`. */
    trusted?: boolean | undefined;
    /** Which tools to offer. Default: all but the ones exposeToWebMcp registered. */
    filter?: ((tool: WebMcpRegisteredTool) => boolean) | undefined;
    /** Hears failed re-syncs. Default: console.warn. */
    onError?: ((error: unknown) => void) | undefined;
}

export interface WebMcpToolSource extends IoCodeMode.ToolSource {
    readonly namespace: string;
    /** Lists the page's tools again now (done on every `toolchange` too). */
    refresh(): Promise<IoCodeMode.ToolDefinition[]>;
}

/**
 * The page's WebMCP tools as Code Mode tools `<namespace>.<tool>`, kept in
 * step with `toolchange`. Calls go through `executeTool`; results are parsed
 * from WebMCP's string form (JSON, else the string). Annotations carry
 * `readOnlyHint` (MCP defaults otherwise; never with `consequentialHint`),
 * `untrustedContentHint` (also said in the description), `consequentialHint`,
 * `source: "webmcp"`, `webmcpTool` and `untrusted`.
 */
export declare function fromWebMcp(options?: FromWebMcpOptions): Promise<WebMcpToolSource>;

export interface ExposeToWebMcpOptions {
    /** Default: `document.modelContext`. */
    modelContext?: WebMcpModelContext | undefined;
    /** Prefix of the two tools' names (e.g. `"orders."`; WebMCP names take `[A-Za-z0-9_.-]` only). Default none: `searchTools`, `executeCode`. */
    prefix?: string | undefined;
    /** The runs' `context` (onToolCall's `callContext`). */
    context?: unknown;
}

/**
 * Registers the session's `searchTools` and `executeCode` with the page's
 * WebMCP model context (`readOnlyHint` for searchTools, `untrustedContentHint`
 * for both); resolves with the function that unregisters them.
 * Arguments a browser agent gets wrong come back as readable results, as
 * with `handleToolCall`.
 */
export declare function exposeToWebMcp(session: IoCodeMode.Session, options?: ExposeToWebMcpOptions): Promise<() => void>;
