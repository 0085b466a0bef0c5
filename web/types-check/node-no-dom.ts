// A Node.js program's TypeScript without the DOM lib (lib ES2022, types
// ["node"], skipLibCheck false: @tsconfig/node20's lib, checked strictly).
// @types/node declares AbortSignal but no WebAssembly namespace, and
// index.d.ts named WebAssembly.Module for wasmModule and coreModule: every
// such program failed in the package's own declarations (TS2503: Cannot find
// namespace 'WebAssembly'). tsconfig.node-dts.json.
import { IoCodeModeFactory, type IoCodeMode } from "@interopio/code-mode";
import { handleToolCall, toOpenAITools } from "@interopio/code-mode/llm";

export async function agent(compiled: object): Promise<void> {
    const codeMode = await IoCodeModeFactory({ wasmLocation: "/srv/emscripten-module.wasm", worker: true, wasmModule: compiled, coreModule: compiled });
    const session: IoCodeMode.Session = codeMode.createSession();
    const tools = toOpenAITools(session);
    const output = await handleToolCall(session, tools[1].function.name, "{}", { signal: AbortSignal.timeout(1000) });
    console.log(output);
    // @ts-expect-error a compiled module is an object, not its path
    await IoCodeModeFactory({ wasmLocation: "x", wasmModule: "/srv/emscripten-module.wasm" });
}
