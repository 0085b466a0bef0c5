// Type check of code-mode.global.d.ts (web/global.d.ts), as a page that
// loads the classic script writes its TypeScript: a script, not a module,
// that references the global's declarations (tsconfig.global.json lists
// them). USAGE's classic-script snippet, verbatim.
/// <reference path="../global.d.ts" />

IoCodeModeFactory({ wasmLocation: "/vendor/code-mode/emscripten-module.wasm" }).then((codeMode) => { /* ... */ });

async function classicBuild() {
    const api = await globalThis.IoCodeModeFactory({ wasmLocation: "/quickjs/emscripten-module.wasm" });
    api.dispose();
    // @ts-expect-error wasmLocation is required
    await IoCodeModeFactory({});
}
void classicBuild;

// The seed's words, "Pass an IoCodeMode.Config object to IoCodeModeFactory",
// on such a page: the namespace is global too (a script has no import).
const config: IoCodeMode.Config = { wasmLocation: "/vendor/code-mode/emscripten-module.wasm", timeout: 5000 };
const tool: IoCodeMode.ToolDefinition = { name: "orders.search", execute: async () => [] };
async function typedConfig(): Promise<IoCodeMode.API> {
    const api = await IoCodeModeFactory(config);
    api.registerTool(tool);
    return api;
}
void typedConfig;
