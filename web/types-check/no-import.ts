// An ES module importer of @interopio/code-mode that forgot the import of
// IoCodeModeFactory: there is no such global outside the classic-script
// build, so the call must not type-check (it fails at run time). Part of
// the usage.ts program (tsconfig.json), which never sees code-mode.global.d.ts.
import type { IoCodeMode } from "@interopio/code-mode";

export async function withoutTheImport(config: IoCodeMode.Config) {
    // @ts-expect-error IoCodeModeFactory is not imported, and no global declares it
    await IoCodeModeFactory(config);
    // @ts-expect-error nor does globalThis have it
    await globalThis.IoCodeModeFactory(config);
}
