// Type check of USAGE's io.Connect recipe under module/moduleResolution
// nodenext and node16 (tsconfig.adapters-nodenext.json, -node16.json).
// io.Connect's packages (here @interopio/core, as /desktop and /browser)
// carry no "exports" nor "type", and their typings say `export default`:
// Node's resolution reads them as CommonJS, so the default import is the
// module and its factory is `.default` (which core's and desktop's
// factories carry at run time too). Our adapter takes their API as it is.
// Nothing here runs.
import IOConnectCore from "@interopio/core";
import type { IoCodeMode } from "@interopio/code-mode";
import { fromIoConnect, type IoConnectToolSource } from "@interopio/code-mode/io-connect";
import { fromFdc3 } from "@interopio/code-mode/fdc3";
import type { DesktopAgent } from "@finos/fdc3";

declare const codeMode: IoCodeMode.API;
declare const agent: DesktopAgent;

const io = await IOConnectCore.default({ application: "copilot" });
const interop: IoConnectToolSource = fromIoConnect(io, {
    namespace: "desk",
    methodResponseTimeoutMs: 10_000,
    filter: (method) => !method.name.startsWith("T42."),
});
const unregister: () => void = interop.registerTools(codeMode);
unregister();
const intents = await fromFdc3(agent, { contextTypes: ["fdc3.instrument"], resultTimeoutMs: 5_000 });
intents.registerTools(codeMode)();
