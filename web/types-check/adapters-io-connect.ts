// Type check of @interopio/code-mode/io-connect: io.Connect's own API type
// (@interopio/core) is accepted as it is. Nothing here runs.
import type { IOConnectCore } from "@interopio/core";
import type { IoCodeMode } from "@interopio/code-mode";
import { fromIoConnect, signatureToJsonSchema, type IoConnectToolSource } from "@interopio/code-mode/io-connect";

declare const io: IOConnectCore.API;
declare const codeMode: IoCodeMode.API;

const interop: IoConnectToolSource = fromIoConnect(io, {
    namespace: "desk",
    target: (method) => (method.name.startsWith("Risk.") ? "all" : method.name === "Quotes.Get" ? { application: "pricing-b" } : "best"),
    methodResponseTimeoutMs: 10_000,
    filter: (method) => !method.name.startsWith("T42."),
    onError: (err) => console.warn(err),
});
const unregister: () => void = interop.registerTools(codeMode);
const schema: { [keyword: string]: any } = signatureToJsonSchema("String symbol, Int? quantity");
void schema;
unregister();
interop.close();
