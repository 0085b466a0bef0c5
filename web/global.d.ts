// TypeScript declarations of code-mode.global.js, the classic-script build:
// the global it defines. Only pages that load that script have the global,
// so only they reference this file (an ES module importer gets no global
// IoCodeModeFactory, and a call without the import is a type error):
//
//     /// <reference types="@interopio/code-mode/code-mode.global" />
//
// or list it in tsconfig.json's "files". The seed's namespace is global
// there too (IoCodeMode.Config, IoCodeMode.ToolDefinition, ...): such a
// page has no import to take it from. A plain import (the namespace holds
// only types), because an import alias cannot name an `import type`.

import { IoCodeMode as Types } from "./index.js";

declare global {
    /** Defined by the classic-script build (`code-mode.global.js`); the same function as the module's export. */
    var IoCodeModeFactory: (config: IoCodeMode.Config) => Promise<IoCodeMode.API>;
    /** The package's types (`IoCodeMode.Config`, `IoCodeMode.ToolDefinition`, ...), for pages that load the classic script. */
    export import IoCodeMode = Types;
}
