// What a web page downloads to run code, ours next to quickjs-emscripten's,
// as the files are shipped (no minifier of the page's own), each compressed
// alone as a server would send it: gzip level 9, brotli quality 11.
//
//   ours: dist/index.mjs, dist/code-mode.worker.mjs (worker mode, a page's
//         default), dist/code-mode.wasm, dist/emscripten-module.wasm
//   base: the files of quickjs-emscripten-core and of the release-sync
//         variant that esbuild bundles for a browser page importing
//         newQuickJSWASMModuleFromVariant and the variant (its metafile's
//         inputs), and the variant's emscripten-module.wasm
//
//   node bench/download-size.mjs      prints a SIZE line per compression
//
// bench/run.mjs prints the same lines (BENCH_ONLY=size).

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import * as esbuild from "esbuild";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");

/** @param {Buffer} b */
export function compressedSizes(b) {
    return {
        raw: b.length,
        gzip: zlib.gzipSync(b, { level: 9 }).length,
        brotli: zlib.brotliCompressSync(b, {
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length },
        }).length,
    };
}

async function baseFiles() {
    const r = await esbuild.build({
        stdin: {
            contents: 'import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core"; import v from "@jitl/quickjs-wasmfile-release-sync"; export const m = () => newQuickJSWASMModuleFromVariant(v);',
            resolveDir: root,
        },
        bundle: true,
        write: false,
        metafile: true,
        platform: "browser",
        format: "esm",
        splitting: true,
        outdir: path.join(root, "build", "download-size"),
        logLevel: "silent",
    });
    const js = Object.keys(r.metafile.inputs).filter((f) => f !== "<stdin>");
    return [...js, "node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm"];
}

const oursFiles = ["dist/index.mjs", "dist/code-mode.worker.mjs", "dist/code-mode.wasm", "dist/emscripten-module.wasm"];

/** Both sides' files with their sizes, and the totals. */
export async function downloadSizes() {
    /** @param {string[]} files */
    const side = (files) => {
        const rows = files.map((f) => ({ file: f, ...compressedSizes(readFileSync(path.join(root, f))) }));
        const total = { raw: 0, gzip: 0, brotli: 0 };
        for (const r of rows) for (const k of /** @type {const} */ (["raw", "gzip", "brotli"])) total[k] += r[k];
        return { files: rows, total };
    };
    return { ours: side(oursFiles), base: side(await baseFiles()) };
}

/** The SIZE lines (stdout) of downloadSizes' result. @param {Awaited<ReturnType<typeof downloadSizes>>} d */
export function sizeLines(d) {
    return ["raw", "gzip", "brotli"].map(
        (k) => `SIZE download-${k} ours=${d.ours.total[k]} base=${d.base.total[k]} ratio=${(d.ours.total[k] / d.base.total[k]).toFixed(2)}`,
    );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    const d = await downloadSizes();
    for (const [name, s] of Object.entries(d)) {
        for (const f of s.files) console.error(`# ${name} ${f.file}: raw ${f.raw} gzip ${f.gzip} brotli ${f.brotli}`);
    }
    for (const line of sizeLines(d)) console.log(line);
}
