// wasm_exec.js as the loader's sources import it ("./wasm_exec.mjs"): an
// esbuild plugin giving them defineGo. Used by scripts/build-dist.mjs, and
// by tests that bundle web/src themselves (web/test/core-bundle.mjs).
//
// The file's text runs inside a function whose parameter is named globalThis:
// every `globalThis.X` of it (Go, fs, process, ...) refers to the object the
// loader passes (its shadow global), while bare names (setTimeout, crypto,
// performance) still reach the real global. It must match the Go that built
// code-mode.wasm, so it is taken from that toolchain's GOROOT.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * @param {string} goroot
 * @param {string} goversion
 * @returns {import("esbuild").Plugin} throws an Error saying what is wrong
 *   when wasm_exec.js is missing or not of the layout this relies on
 */
export function wasmExecPlugin(goroot, goversion) {
    const wasmExecPath = join(goroot, "lib", "wasm", "wasm_exec.js");
    if (!existsSync(wasmExecPath)) throw new Error(`missing ${wasmExecPath}`);
    const wasmExecText = readFileSync(wasmExecPath, "utf8");
    if (!wasmExecText.includes("globalThis.Go = class")) throw new Error(`${wasmExecPath}: no "globalThis.Go = class": unknown wasm_exec.js layout`);
    // wasm_exec.js writes the Go runtime's output (a crash report included)
    // with a bare `fs`, which is no global in an ES module or a page: the crash
    // report itself then threw "fs is not defined" and took Node down. It must
    // use the stand-in on the shadow global.
    const bareFs = /(?<![.\w])fs\.writeSync\(/g;
    if ((wasmExecText.match(bareFs) || []).length !== 1) {
        throw new Error(`${wasmExecPath}: expected one bare fs.writeSync( (runtime.wasmWrite): unknown wasm_exec.js layout`);
    }
    let wasmExec = wasmExecText.replace(bareFs, "globalThis.fs.writeSync(");
    // The Go runtime's timers (runtime.scheduleTimeoutEvent and
    // clearTimeoutEvent) go through the shadow global too: the loader's
    // timers keep the Go program only while a call into it is in flight
    // (web/src/core.mjs keepAliveWhileBusy).
    for (const name of ["setTimeout", "clearTimeout"]) {
        const bare = new RegExp(`(?<![.\\w])${name}\\(`, "g");
        if ((wasmExec.match(bare) || []).length !== 1) {
            throw new Error(`${wasmExecPath}: expected one bare ${name}( (runtime.scheduleTimeoutEvent, clearTimeoutEvent): unknown wasm_exec.js layout`);
        }
        wasmExec = wasmExec.replace(bare, `globalThis.${name}(`);
    }

    // The Go runtime's clock (nanotime1, walltime, the time origin) is the
    // page's as it was when the module loaded (web/src/intrinsics.mjs): a test
    // suite's fake timers, or a page that stubs Date.now or
    // performance.now, stopped Go's clock, and a run's timeout with it.
    for (const [text, count, clock] of [
        ["performance.now()", 2, "hostNow()"],
        ["Date.now()", 1, "hostDateNow()"],
        ["(new Date).getTime()", 1, "hostDateNow()"],
    ]) {
        const bare = new RegExp(`(?<![.\\w])${text.replace(/[.()]/g, "\\$&")}`, "g");
        if ((wasmExec.match(bare) || []).length !== count) {
            throw new Error(`${wasmExecPath}: expected ${count} bare ${text} (runtime.nanotime1, walltime): unknown wasm_exec.js layout`);
        }
        wasmExec = wasmExec.replace(bare, clock);
    }

    // The builtins the Go runtime's glue calls at every crossing, Map (its
    // ids of the JS values Go holds, its timers), DataView (Go's memory) and
    // Reflect, are the page's as they were when the module loaded: the
    // generated module imports them under those names (web/src/intrinsics.mjs),
    // which its text then uses. A page that replaced Map.prototype.get after
    // loading stopped the engine for good. Every use must be one of these
    // counted forms: another use would be a builtin this does not cover.
    for (const [name, text, count] of [
        ["Map", "new Map(", 2],
        ["DataView", "new DataView(", 3],
        ["Reflect", "Reflect.", 9],
    ]) {
        const uses = (wasmExec.match(new RegExp(`(?<![.\\w])${name}(?!\\w)`, "g")) || []).length;
        const counted = wasmExec.split(text).length - 1;
        if (uses !== count || counted !== count) {
            throw new Error(`${wasmExecPath}: expected ${count} uses of ${name}, each as ${text} (the ids map and timers, Go's memory, syscall/js): unknown wasm_exec.js layout`);
        }
    }

    // Likewise WebAssembly, which go.run checks its instance against: a page's
    // WebAssembly.Instance replaced when a factory was made failed it
    // ("Go.run: WebAssembly.Instance expected"). Its one use in code (the
    // other is that message).
    const wasmUses = (wasmExec.replace("Go.run: WebAssembly.Instance expected", "").match(/(?<![.\w])WebAssembly\./g) || []).length;
    if (wasmUses !== 1 || !wasmExec.includes("instanceof WebAssembly.Instance")) {
        throw new Error(`${wasmExecPath}: expected one use of WebAssembly., as instanceof WebAssembly.Instance (Go.run): unknown wasm_exec.js layout`);
    }

    // Its byte copies accept a Uint8Array of any realm (intrinsics.mjs
    // isBytes), and its TextEncoder and TextDecoder are the shadow global's,
    // which has Node's where a DOM in Node.js has none (Jest's jsdom
    // environment: "globalThis.TextEncoder is not available, polyfill
    // required"; web/src/core.mjs).
    for (const [text, by] of [
        ["src instanceof Uint8Array || src instanceof Uint8ClampedArray", "isBytes(src)"],
        ["dst instanceof Uint8Array || dst instanceof Uint8ClampedArray", "isBytes(dst)"],
        ["new TextEncoder(", "new globalThis.TextEncoder("],
        ["new TextDecoder(", "new globalThis.TextDecoder("],
    ]) {
        if (wasmExec.split(text).length !== 2) throw new Error(`${wasmExecPath}: expected one ${text} (copyBytesToGo, copyBytesToJS, its encoder and decoder): unknown wasm_exec.js layout`);
        wasmExec = wasmExec.replace(text, by);
    }

    // The defineGo function: wasm_exec.js's text as its body.
    const defineGoSource = `function defineGo(globalThis) {
${wasmExec
    .trimEnd()
    .split("\n")
    .map((l) => (l ? "\t" + l : l))
    .join("\n")}

	return globalThis.Go;
}`;
    return {
        name: "wasm-exec",
        setup(build) {
            // Its importer's directory (web/src) resolves its own import of
            // intrinsics.mjs.
            build.onResolve({ filter: /^\.\/wasm_exec\.mjs$/ }, (args) => ({ path: "wasm_exec.mjs", namespace: "wasm-exec", pluginData: args.resolveDir }));
            build.onLoad({ filter: /.*/, namespace: "wasm-exec" }, (args) => ({
                contents: `// From ${goversion}'s lib/wasm/wasm_exec.js.\n${intrinsicsImport}\nexport ${defineGoSource}\n`,
                resolveDir: args.pluginData,
                loader: "js",
            }));
        },
    };
}

// The page's clock and the builtins above as they were when the module
// loaded, as the loader's other paths take them (a page or a test may stub
// Date.now, performance.now or Map.prototype.get later).
const intrinsicsImport = `import { now as hostNow, dateNow as hostDateNow, KeptMap as Map, KeptDataView as DataView, keptReflect as Reflect, keptWebAssembly as WebAssembly, isBytes } from "./intrinsics.mjs";`;
