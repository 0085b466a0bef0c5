// The files of dist/ that esbuild builds from web/src: one row per file.
// scripts/build-dist.mjs reads this table; to add an entry (an adapter in
// web/src/adapters/, say), add a row. Fields:
//
//   in       the source module, relative to web/src
//   out      the file written to dist/
//   format   "esm" (an ES module) or "iife" (a classic <script>: no
//            import/export; import.meta.url becomes the script's own URL)
//   subpath  optional: the package export that names it ("./mcp" makes
//            `import ... from "@interopio/code-mode/mcp"` work); the build
//            adds it to dist/package.json's exports and files
//   types    optional: a .d.ts file, relative to web/, copied next to out
//            (out's name with .d.ts) and named by the export's "types"
//   external optional: import paths left as imports (esbuild's external):
//            an adapter's peer SDK, which the page already has and which
//            must not be bundled twice
//
// Every ESM entry is bundled on its own (shared modules are copied into
// each), so an entry costs a page only what it imports. Files next to a
// built entry are found with new URL("./file", import.meta.url), which
// bundlers rewrite.
export const ENTRIES = [
    { in: "index.mjs", out: "index.mjs", format: "esm", subpath: ".", types: "index.d.ts" },
    { in: "global.mjs", out: "code-mode.global.js", format: "iife", types: "global.d.ts" },
    // The engine's worker: index.mjs and code-mode.global.js start it as
    // new Worker(new URL("./code-mode.worker.mjs", import.meta.url), { type: "module" }).
    { in: "worker.mjs", out: "code-mode.worker.mjs", format: "esm" },
    { in: "adapters/llm.mjs", out: "llm.mjs", format: "esm", subpath: "./llm", types: "adapters/llm.d.ts" },
    { in: "adapters/mcp.mjs", out: "mcp.mjs", format: "esm", subpath: "./mcp", types: "adapters/mcp.d.ts", external: ["@modelcontextprotocol/sdk/*"] },
    { in: "adapters/io-connect.mjs", out: "io-connect.mjs", format: "esm", subpath: "./io-connect", types: "adapters/io-connect.d.ts" },
    { in: "adapters/fdc3.mjs", out: "fdc3.mjs", format: "esm", subpath: "./fdc3", types: "adapters/fdc3.d.ts" },
    { in: "adapters/webmcp.mjs", out: "webmcp.mjs", format: "esm", subpath: "./webmcp", types: "adapters/webmcp.d.ts" },
];
