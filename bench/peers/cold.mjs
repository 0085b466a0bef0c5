// One cold start of one library, in this fresh process: from before its
// first `import` to the first result of a program that awaits one host tool
// and returns a number. Prints `{"ms": <number>, "result": <value>}` on
// stdout. Run by run.mjs, once per sample, so every sample pays module
// loading and WebAssembly compilation (V8 shares compiled modules of
// identical bytes inside a process, so in-process samples would not be cold).
//
// usage: node bench/peers/cold.mjs ours|tanstack|sebastianwessel
import { performance } from "node:perf_hooks";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const require = createRequire(import.meta.url);
const asset = require.resolve("@jitl/quickjs-wasmfile-release-sync/wasm");

// Every library runs the same program: one awaited tool call, then arithmetic.
const add = async ({ a, b }) => a + b;

const peers = {
  async ours() {
    const { IoCodeModeFactory } = await import(path.join(root, "dist/index.mjs"));
    const codeMode = await IoCodeModeFactory({ wasmLocation: asset });
    codeMode.registerTool({
      name: "add",
      description: "Adds two numbers",
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
      execute: add,
    });
    const [, executeCode] = codeMode.createSession().getLlmTools();
    const res = await executeCode.execute({ code: "return (await tools.add({ a: 1, b: 2 })) * 2", explanation: "bench" });
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    codeMode.dispose();
    return res.result;
  },
  // TanStack AI's code mode with its QuickJS driver (quickjs-emscripten, the
  // same QuickJS build family): the documented createCodeModeTool path.
  async tanstack() {
    const [{ createCodeModeTool }, { createQuickJSIsolateDriver }, { toolDefinition }, { z }] = await Promise.all([
      import("@tanstack/ai-code-mode"),
      import("@tanstack/ai-isolate-quickjs"),
      import("@tanstack/ai"),
      import("zod"),
    ]);
    const addTool = toolDefinition({
      name: "add",
      description: "Adds two numbers",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
    }).server(add);
    const tool = createCodeModeTool({ driver: createQuickJSIsolateDriver(), tools: [addTool] });
    const res = await tool.execute({ typescriptCode: "return (await external_add({ a: 1, b: 2 })) * 2" });
    if (!res.success) throw new Error(JSON.stringify(res.error));
    return res.result;
  },
  // @sebastianwessel/quickjs on the same QuickJS asset as ours.
  async sebastianwessel() {
    const [{ loadQuickJs }, variant] = await Promise.all([
      import("@sebastianwessel/quickjs"),
      import("@jitl/quickjs-wasmfile-release-sync"),
    ]);
    const { runSandboxed } = await loadQuickJs(variant.default);
    const res = await runSandboxed(
      async ({ evalCode }) => evalCode("export default (await env.add({ a: 1, b: 2 })) * 2"),
      { env: { add } },
    );
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    return res.data;
  },
};

const name = process.argv[2];
if (!peers[name]) throw new Error(`usage: cold.mjs ${Object.keys(peers).join("|")}`);
const t0 = performance.now();
const result = await peers[name]();
const ms = performance.now() - t0;
if (result !== 6) throw new Error(`${name}: expected 6, got ${JSON.stringify(result)}`);
process.stdout.write(JSON.stringify({ ms, result }) + "\n");
process.exit(0);
