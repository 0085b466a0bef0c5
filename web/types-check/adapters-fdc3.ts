// Type check of @interopio/code-mode/fdc3: FDC3's own DesktopAgent type
// (@finos/fdc3) is accepted as it is. Nothing here runs.
import type { DesktopAgent } from "@finos/fdc3";
import type { IoCodeMode } from "@interopio/code-mode";
import { fromFdc3, type Fdc3ToolSource } from "@interopio/code-mode/fdc3";

declare const fdc3: DesktopAgent;
declare const codeMode: IoCodeMode.API;

export async function wire(): Promise<() => void> {
    const intents: Fdc3ToolSource = await fromFdc3(fdc3, {
        contextTypes: ["fdc3.instrument", "fdc3.contact"],
        intents: ["ViewChart", { name: "StartCall", contextTypes: ["fdc3.contact"], description: "Call a contact." }],
        contextSchemas: { "fdc3.instrument": { type: "object", properties: { type: { const: "fdc3.instrument" } }, required: ["type"] } },
        broadcast: true,
        open: ["chart-app"],
    });
    const unregister = intents.registerTools(codeMode);
    await intents.refresh();
    return unregister;
}
