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
