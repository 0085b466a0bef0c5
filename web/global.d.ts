// TypeScript declarations of code-mode.global.js, the classic-script build:
// the global it defines. Only pages that load that script have the global,
// so only they reference this file (an ES module importer gets no global
// IoCodeModeFactory, and a call without the import is a type error):
//
//     /// <reference types="@interopio/code-mode/code-mode.global" />
//
// or list it in tsconfig.json's "files".

import type { IoCodeMode } from "./index.js";

declare global {
    /** Defined by the classic-script build (`code-mode.global.js`); the same function as the module's export. */
    var IoCodeModeFactory: (config: IoCodeMode.Config) => Promise<IoCodeMode.API>;
}
