// Type check of @interopio/code-mode/webmcp: WebMCP's own model context
// types (@mcp-b/webmcp-types, which the pinned polyfill implements) are
// accepted as they are. Nothing here runs.
import type { ChromeModelContext, ModelContext, ModelContextTesting } from "@mcp-b/webmcp-types";
import type { IoCodeMode } from "@interopio/code-mode";
import { exposeToWebMcp, fromWebMcp, type WebMcpToolSource } from "@interopio/code-mode/webmcp";

declare const chrome: ChromeModelContext;
declare const core: ModelContext;
declare const testing: ModelContextTesting;
declare const codeMode: IoCodeMode.API;
declare const session: IoCodeMode.Session;

export async function wire(): Promise<() => void> {
    const page: WebMcpToolSource = await fromWebMcp({ modelContext: chrome, namespace: "page", filter: (t) => t.name !== "checkout" });
    const unregister = page.registerTools(codeMode);
    const unexpose: () => void = await exposeToWebMcp(session, { modelContext: core, prefix: "orders.", context: { via: "webmcp" } });
    await fromWebMcp();
    await fromWebMcp({ modelContext: testing });
    return () => {
        unregister();
        unexpose();
        page.close();
    };
}
