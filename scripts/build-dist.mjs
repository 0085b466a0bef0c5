#!/usr/bin/env node
// Builds dist/, the npm package @interopio/code-mode:
//
//   dist/code-mode.wasm          the Go core (GOOS=js GOARCH=wasm ./wasm)
//   dist/index.mjs, ...          the entries of web/entries.mjs, bundled by
//                                esbuild from web/src (index.mjs: the ESM
//                                loader; code-mode.global.js: the classic
//                                script), with Go's wasm_exec.js inside
//   dist/index.d.ts              TypeScript declarations (web/index.d.ts)
//   dist/emscripten-module.wasm  the QuickJS asset, from the pinned npm package
//   dist/package.json            the package manifest (web/package.json)
//
// Usage: node scripts/build-dist.mjs [--skip-go]
// Environment: GO (default "go"), OUT (default "dist"), WASM_OPT=0 (ship the
// Go output without binaryen's wasm-opt; for quick local builds),
// WASM_JUMPS=0 (without scripts/wasm-jumps.mjs's forward jumps), WASM_DATA=0
// (without scripts/wasm-data.mjs's merged data segments), WASM_LINES=0
// (with Go's file and line tables whole, scripts/wasm-lines.mjs),
// PRELUDE_MIN=0 (with prelude/*.js embedded as written, scripts/prelude-min.mjs),
// NO_INLINE=0 (with the Go compiler's inlining in every package; scripts/go-flags.mjs).
//
// The QuickJS asset and README are written first, then the Go core, then the
// loaders, which carry the core's build id (a hash of its bytes,
// scripts/build-id.mjs: two builds of one tree are byte-identical). When the
// Go build fails, the script removes any stale dist/code-mode.wasm and exits
// with status 1 and the compiler's output.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { wasmExecPlugin as makeWasmExecPlugin } from "./wasm-exec.mjs";
import { rewriteJumps } from "./wasm-jumps.mjs";
import { mergeDataSegments } from "./wasm-data.mjs";
import { cutFrameTables, cutLineTables } from "./wasm-lines.mjs";
import { writePreludeOverlay } from "./prelude-min.mjs";
import { writeRegexpOverlay } from "./regexp-tables.mjs";
import { buildIdOf, stampBuild, stampOf } from "./build-id.mjs";
import { noInlineFlags } from "./go-flags.mjs";
import { ENTRIES } from "../web/entries.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = resolve(root, process.env.OUT || "dist");
const web = join(root, "web");
const goBin = process.env.GO || "go";
const skipGo = process.argv.includes("--skip-go");
const outName = relative(root, out).startsWith("..") ? out : relative(root, out) || ".";

function fail(message) {
    console.error(`build-dist: ${message}`);
    process.exit(1);
}

function go(args, env = {}) {
    const r = spawnSync(goBin, args, { cwd: root, env: { ...process.env, ...env }, encoding: "utf8" });
    if (r.error) fail(`cannot run ${goBin}: ${r.error.message} (set GO=/path/to/go)`);
    return r;
}

function goEnv(name) {
    const r = go(["env", name]);
    if (r.status !== 0) fail(`go env ${name} failed:\n${r.stderr}`);
    return r.stdout.trim();
}

mkdirSync(out, { recursive: true });
const written = [];
function write(name, text) {
    writeFileSync(join(out, name), text);
    written.push(name);
}
function copy(from, name) {
    if (!existsSync(from)) fail(`missing ${relative(root, from)}${from.includes("node_modules") ? " (run npm ci)" : ""}`);
    copyFileSync(from, join(out, name));
    written.push(name);
}

// --- wasm_exec.js -----------------------------------------------------------
// Sources import "./wasm_exec.mjs": this plugin gives them defineGo, from the
// toolchain that builds code-mode.wasm (scripts/wasm-exec.mjs). A
// classic-script entry gets web/src/script-url.mjs injected and every
// import.meta.url replaced by the script's own URL.
const goversion = goEnv("GOVERSION");
let wasmExecPlugin;
try {
    wasmExecPlugin = makeWasmExecPlugin(goEnv("GOROOT"), goversion);
} catch (err) {
    fail(err.message);
}

// --- QuickJS asset, README ----------------------------------------------------
// The asset gets the loop checks (scripts/loopcheck, sandbox.InstrumentAsset):
// every loop of its C code asks, now and then, whether the run is past its
// deadline, so that a program held in a C built-in is stopped. Done here
// rather than by the core at load time: under GOOS=js the rewrite took 11 to
// 53 ms of every cold start, and the page could no longer compile the asset
// while it downloads.
const upstreamAsset = join(root, "node_modules", "@jitl", "quickjs-wasmfile-release-sync", "dist", "emscripten-module.wasm");
if (!existsSync(upstreamAsset)) fail(`missing ${relative(root, upstreamAsset)} (run npm ci)`);
{
    const r = go(["run", "./scripts/loopcheck", upstreamAsset, join(out, "emscripten-module.wasm")]);
    if (r.status !== 0) fail(`adding the loop checks to the QuickJS asset failed (${goBin} run ./scripts/loopcheck):\n${r.stdout}${r.stderr}`);
    written.push("emscripten-module.wasm");
}
// The seed documents the asset at @interopio/code-mode/dist/emscripten-module.wasm
// (and the CDN URL .../@interopio/code-mode@VERSION/dist/emscripten-module.wasm):
// with dist/ as the package root, that path needs this second copy.
mkdirSync(join(out, "dist"), { recursive: true });
copy(join(out, "emscripten-module.wasm"), "dist/emscripten-module.wasm");
copy(join(web, "USAGE.md"), "README.md");

// --- the Go core --------------------------------------------------------------
// Built before the loaders, which carry its build id (scripts/build-id.mjs:
// a hash of the core's bytes). With --skip-go, the core in place keeps its
// id (stamped now if it has none); with no core there, the loaders get the
// id of an empty core, which no core has: they refuse every config.coreModule.
const coreOut = join(out, "code-mode.wasm");
let buildId;
if (skipGo) {
    if (!existsSync(coreOut)) buildId = buildIdOf(new Uint8Array(0));
    else buildId = stampOf(readFileSync(coreOut)) || stampCore(coreOut);
} else {
    rmSync(coreOut, { force: true });
    const r = go(["build", "-trimpath", "-ldflags=-s -w", ...noInlineFlags(), ...coreOverlay(), "-o", coreOut, "./wasm"], { GOOS: "js", GOARCH: "wasm" });
    if (r.status !== 0) {
        rmSync(coreOut, { force: true });
        fail(
            `the Go build of the core failed (GOOS=js GOARCH=wasm ${goBin} build ./wasm); ` +
                `${written.join(", ")} written to ${outName}/, not the loaders (they carry the core's build id).\n${r.stdout}${r.stderr}`,
        );
    }
    forwardJumps(coreOut);
    mergeData(coreOut);
    cutFrames(coreOut);
    cutLines(coreOut);
    optimizeCore(coreOut);
    buildId = stampCore(coreOut);
}
// Appends the build id, the hash of the core as it is, to the file.
function stampCore(file) {
    const { bytes, id } = stampBuild(readFileSync(file));
    writeFileSync(file, bytes);
    return id;
}

// --- loaders, declarations, manifest ------------------------------------------
const pkgTemplate = JSON.parse(readFileSync(join(web, "package.json"), "utf8"));
const banner = `// ${pkgTemplate.name} ${pkgTemplate.version}. Built by scripts/build-dist.mjs with esbuild and ${goversion}.`;
const manifest = { ...pkgTemplate, files: [...pkgTemplate.files] };
const entryExports = {};
const addFile = (name) => manifest.files.includes(name) || manifest.files.push(name);
for (const entry of ENTRIES) {
    if (!["esm", "iife"].includes(entry.format)) fail(`web/entries.mjs: ${entry.out}: format: expected "esm" or "iife", got ${JSON.stringify(entry.format)}`);
    const iife = entry.format === "iife";
    const result = await esbuild.build({
        entryPoints: [join(web, "src", entry.in)],
        outfile: join(out, entry.out),
        bundle: true,
        format: entry.format,
        platform: "neutral",
        target: "es2022",
        charset: "utf8",
        legalComments: "inline",
        banner: { js: banner },
        plugins: [wasmExecPlugin],
        ...(entry.external ? { external: entry.external } : {}),
        define: { "globalThis.__CODE_MODE_BUILD__": JSON.stringify(buildId), ...(iife ? { "import.meta.url": "import_meta_url" } : {}) },
        ...(iife ? { inject: [join(web, "src", "script-url.mjs")] } : {}),
        logLevel: "silent",
    }).catch((err) => fail(`esbuild ${entry.in} -> ${entry.out}:\n${err.message}`));
    if (result.warnings.length) fail(`esbuild ${entry.in} -> ${entry.out}: ${result.warnings.map((w) => w.text).join("; ")}`);
    written.push(entry.out);
    addFile(entry.out);
    let typesOut;
    if (entry.types) {
        typesOut = entry.out.replace(/\.(m?js)$/, "") + ".d.ts";
        write(typesOut, banner + "\n" + readFileSync(join(web, entry.types), "utf8"));
        addFile(typesOut);
    }
    if (entry.subpath) {
        entryExports[entry.subpath] = { ...(typesOut ? { types: "./" + typesOut } : {}), import: "./" + entry.out, default: "./" + entry.out };
    }
}
manifest.exports = { ...entryExports, ...pkgTemplate.exports };
if (readFileSync(join(out, "code-mode.global.js"), "utf8").match(/\bimport\.meta\b|^\s*(import|export)\s/m)) {
    fail("code-mode.global.js: a module-only construct is left in the classic-script build");
}

write("package.json", JSON.stringify(manifest, null, 2) + "\n");
// Every file the manifest promises must exist.
for (const f of manifest.files) {
    if (f !== "code-mode.wasm" && !written.includes(f)) fail(`package.json lists ${f}, which the build does not write`);
}

if (skipGo) {
    console.log(`build-dist: wrote ${written.join(", ")} to ${outName}/ (Go core skipped, build ${buildId})`);
} else {
    const mb = (statSync(coreOut).size / 1048576).toFixed(2);
    console.log(`build-dist: wrote ${[...written, "code-mode.wasm"].join(", ")} to ${outName}/ (core ${mb} MB, ${goversion}, build ${buildId})`);
}

// --- overlay: minified prelude, regexp's Unicode classes -----------------------
// The core embeds the sandbox's JavaScript (prelude/*.js) whitespace- and
// comment-free (scripts/prelude-min.mjs, through go build -overlay): 82.8 KB
// of sources become 48.5 KB, ~7 KB of the core's brotli size. The readable
// files stay the sources (and what a native build or a plain
// GOOS=js go build embeds). PRELUDE_MIN=0 embeds them as written.
// regexp/syntax finds \p{...}'s tables without unicode's maps, and \d or
// [:alpha:] without its own (scripts/regexp-tables.mjs): 73 KB less code
// run at start.
// REGEXP_TABLES=0 builds the standard library's regexp/syntax as it is.
function coreOverlay() {
    const replace = {};
    if (process.env.PRELUDE_MIN !== "0") {
        try {
            const { overlay } = writePreludeOverlay(join(root, "prelude"), join(root, "build", "prelude-min"));
            Object.assign(replace, JSON.parse(readFileSync(overlay, "utf8")).Replace);
        } catch (err) {
            fail(`minifying prelude/*.js failed: ${err.message}`);
        }
    }
    if (process.env.REGEXP_TABLES !== "0") {
        try {
            Object.assign(replace, writeRegexpOverlay(goEnv("GOROOT"), join(root, "build", "regexp-tables"), goversion));
        } catch (err) {
            fail(`regexp/syntax's tables (scripts/regexp-tables.mjs): ${err.message} (REGEXP_TABLES=0 builds the standard library's regexp/syntax as it is)`);
        }
    }
    if (Object.keys(replace).length === 0) return [];
    const overlay = join(root, "build", "core-overlay.json");
    writeFileSync(overlay, JSON.stringify({ Replace: replace }, null, 1) + "\n");
    return ["-overlay", overlay];
}

// --- forward jumps -------------------------------------------------------------
// Go's jumps to later blocks become forward branches (scripts/wasm-jumps.mjs):
// V8 then stops judging large Go functions hot after one run, and TurboFan
// compiles less of the core at every cold start (bench/README.md).
// WASM_JUMPS=0 ships Go's jumps as they are (to compare).
function forwardJumps(file) {
    if (process.env.WASM_JUMPS === "0") return;
    writeFileSync(file, rewriteJumps(readFileSync(file)).bytes);
}

// --- data segments -------------------------------------------------------------
// Go writes the memory's initial contents as ~75,000 data segments, split at
// every run of 9 or more zeros; their headers compress poorly. Merging those
// at most 64 zeros apart (scripts/wasm-data.mjs) takes 86 KB off the core's
// brotli size (-6%) and adds 0.7 MB raw. Done before wasm-opt, whose output
// has a data count section (which the merge refuses: see wasm-data.mjs);
// wasm-opt's memory-packing pass, which would split the segments again, is
// skipped. WASM_DATA=0 ships Go's segments as they are (to compare).
function mergeData(file) {
    if (process.env.WASM_DATA === "0") return;
    writeFileSync(file, mergeDataSegments(readFileSync(file)).bytes);
}

// --- frame tables --------------------------------------------------------------
// The inlining trees, argument layouts and unsafe points of every Go function
// emptied (scripts/wasm-lines.mjs, cutFrameTables): ~88 KB of the core's
// brotli bytes, read by nothing but a traceback's or runtime.Callers' list
// of frames, and by asynchronous preemption, which GOOS=js does not do.
// Before the line tables' cut, which then cuts the line tables these shared.
// WASM_FRAMES=0 ships Go's tables as they are (to debug a crash of the core).
function cutFrames(file) {
    if (process.env.WASM_FRAMES === "0") return;
    writeFileSync(file, cutFrameTables(readFileSync(file)).bytes);
}

// --- line tables -------------------------------------------------------------
// Go's file and line tables (what a crash's traceback prints after each
// function's name) cut to one line per function (scripts/wasm-lines.mjs):
// ~100 KB of the core's brotli bytes, read by nothing but a traceback.
// WASM_LINES=0 ships Go's tables as they are (to debug a crash of the core).
function cutLines(file) {
    if (process.env.WASM_LINES === "0") return;
    writeFileSync(file, cutLineTables(readFileSync(file)).bytes);
}

// --- wasm-opt ------------------------------------------------------------------
// binaryen's wasm-opt -O1 (the npm package, pinned in package-lock.json) over
// the Go output. Measured (bench/README.md, "Core size and start-up"): raw
// -3%, brotli -0.6%, and 5-15% less CPU from import to the first result
// (V8 compiles less: Liftoff on first call, TurboFan for the functions that
// get hot). -Os and -Oz shrink raw more but not brotli, take four times as
// long, and start no faster. The binaryen package is itself
// WebAssembly and takes about a minute here, so the result is cached in
// build/wasm-opt/ by the hash of its input (Go's output is reproducible).
// Go's wasm uses these post-MVP features; wasm-opt must neither reject them
// nor emit any other.
function optimizeCore(file) {
    if (process.env.WASM_OPT === "0") return;
    const bin = join(root, "node_modules", "binaryen", "bin", "wasm-opt");
    if (!existsSync(bin)) fail(`missing ${relative(root, bin)} (run npm ci), or build with WASM_OPT=0`);
    const version = JSON.parse(readFileSync(join(root, "node_modules", "binaryen", "package.json"), "utf8")).version;
    const args = ["-O1", ...(process.env.WASM_DATA === "0" ? [] : ["--skip-pass=memory-packing"]), "--enable-bulk-memory", "--enable-bulk-memory-opt", "--enable-sign-ext", "--enable-nontrapping-float-to-int", "--enable-mutable-globals"];
    const key = createHash("sha256").update(readFileSync(file)).update(`binaryen ${version} ${args.join(" ")}`).digest("hex").slice(0, 32);
    const cacheDir = join(root, "build", "wasm-opt");
    const cached = join(cacheDir, `${key}.wasm`);
    if (!existsSync(cached)) {
        mkdirSync(cacheDir, { recursive: true });
        const tmp = `${cached}.tmp`;
        const r = spawnSync(process.execPath, [bin, ...args, file, "-o", tmp], { cwd: root, encoding: "utf8" });
        if (r.status !== 0) {
            rmSync(tmp, { force: true });
            rmSync(file, { force: true });
            fail(`wasm-opt ${args.join(" ")} failed on the Go core:\n${(r.stderr || "").slice(0, 4000)}${r.error ? r.error.message : ""}`);
        }
        // One entry: an older core's result is of no further use.
        for (const f of readdirSync(cacheDir)) if (f !== `${key}.wasm.tmp`) rmSync(join(cacheDir, f), { force: true });
        renameSync(tmp, cached);
    }
    copyFileSync(cached, file);
}
