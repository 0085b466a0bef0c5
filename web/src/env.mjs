// What the loader needs to know about the JavaScript runtime it runs in.

import { keptReflect, keptWebAssembly, markHandled } from "./intrinsics.mjs";
import { SHOWN_ARRAY_LEN, countMore } from "./tojson.mjs";

// Node.js (or a runtime compatible with it): file: URLs are read with fs.
// Read off globalThis, so that bundlers see no bare `process` to polyfill.
export const nodeProcess = /** @type {any} */ (globalThis).process;
export const hasNodeFs =
    typeof nodeProcess === "object" &&
    nodeProcess !== null &&
    typeof nodeProcess.versions === "object" &&
    nodeProcess.versions !== null &&
    typeof nodeProcess.versions.node === "string";

// Node.js without a DOM: wasmLocation is a file path or an absolute URL,
// not a URL relative to a page.
export const isNode = hasNodeFs && typeof document === "undefined";

// TextEncoder and TextDecoder: the global's, or Node's where a DOM in
// Node.js leaves them out of its global (Jest's jsdom environment): the Go
// runtime's glue and the loader need them, and every factory there failed
// ("globalThis.TextEncoder is not available, polyfill required").
const nodeUtil = hasNodeFs && typeof nodeProcess.getBuiltinModule === "function" ? nodeProcess.getBuiltinModule("node:util") : undefined;
/** @type {typeof globalThis.TextEncoder} */
export const TextEncoder = globalThis.TextEncoder || (nodeUtil && nodeUtil.TextEncoder);
/** @type {typeof globalThis.TextDecoder} */
export const TextDecoder = globalThis.TextDecoder || (nodeUtil && nodeUtil.TextDecoder);

// Node built-ins are imported lazily, and through a variable, so that
// browsers never load them and bundlers do not try to resolve them.
/** @param {string} name */
export async function nodeModule(name) {
    const specifier = "node:" + name;
    // process.getBuiltinModule (Node.js 20.16 and later) answers at once.
    // Node's import() follows its own promises by the page's
    // Promise.prototype.then of the moment: one that does nothing left
    // every factory pending for ever.
    const builtin = hasNodeFs && typeof nodeProcess.getBuiltinModule === "function" ? nodeProcess.getBuiltinModule(specifier) : undefined;
    if (builtin) return builtin;
    // Awaited: returned, the import's promise would settle this one by
    // the page's then too (core.mjs loadCore).
    return await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier);
}

/**
 * A value as an error message names what was given in its place.
 * @param {unknown} v
 */
export function describe(v) {
    if (v === null) return "null";
    // A revoked Proxy: Array.isArray throws on it, and its TypeError had
    // replaced the message naming the field.
    try {
        if (Array.isArray(v)) return "an array";
    } catch {
        return "a revoked Proxy";
    }
    if (typeof v === "string") return `the string ${JSON.stringify(v)}`;
    if (typeof v === "number") return `the number ${v}`;
    return typeof v === "object" ? "an object" : typeof v;
}

/**
 * The message of what was thrown (or given to abort()), as text. Never
 * throws: its callers are the paths that settle a run and report a
 * failure, and a value no one can read (a revoked Proxy as an abort
 * reason: instanceof and String both throw) had broken them, leaving the
 * run unsettled.
 * @param {unknown} err
 */
export function describeError(err) {
    try {
        if (err instanceof Error || (err && typeof (/** @type {any} */ (err)).message === "string")) {
            return /** @type {any} */ (err).message || String(err);
        }
        return String(err);
    } catch {
        return "an object that cannot be read or converted to text";
    }
}

/**
 * console.error for what Code Mode reports on the page's behalf (a throwing
 * onEvent, a toolFilter that answers with a promise). A page whose
 * console.error throws (a test setup that fails on any console error) made
 * that report throw in the middle of a run: the run rejected with it, and
 * from a promise handler it was an unhandled rejection, the end of a
 * Node.js process. The report is dropped instead.
 * @param {...unknown} args
 */
export function report(...args) {
    try {
        keptReflect.apply(console.error, console, args); // no spread: the page's Array iterator may be broken
    } catch {
        // Nowhere else to say it.
    }
}

/**
 * err.name, or undefined when reading it throws (a revoked Proxy).
 * @param {unknown} err
 */
export function errorName(err) {
    try {
        return err ? /** @type {any} */ (err).name : undefined;
    } catch {
        return undefined;
    }
}

/**
 * An error the Go core makes for the caller (a bad tool, a bad option) is
 * born inside WebAssembly: its stack is Go's frames, ten of them (V8's
 * default limit), and never reaches the caller's line. Its stack is taken
 * again at the API's edge, without the frames above `edge`. Engines
 * without Error.captureStackTrace keep the stack they have.
 * @param {unknown} err
 * @param {Function} edge
 */
export function callerStack(err, edge) {
    const capture = /** @type {any} */ (Error).captureStackTrace;
    if (err instanceof Error && typeof capture === "function" && /wasm-function\[|wasm:\/\//.test(String(err.stack))) {
        capture(err, edge);
    }
    return err;
}

/**
 * What a tool (or an interceptor, a filter: who) threw, fit to report. A
 * thrown Promise (`throw Promise.reject(e)`: an await left out) read
 * "[object Promise]", and its rejection was the page's own, unhandled: the
 * end of a Node process. It is marked handled and replaced by an Error that
 * says what happened. A plain object becomes an Error of its JSON, a cycle
 * in it "[Circular]" as console writes one (it read "[object Object]").
 * An Error gives its message alone (its cause, errors and own properties
 * stay on the page: hostile15.test.mjs); one without a message says so (it
 * read "" on the calling thread and "Error" in a worker), and one whose
 * message getter throws says that, as the sandbox's describeError does.
 * @param {unknown} err
 * @param {string} [who]
 */
export function thrownByTool(err, who = "a tool") {
    if (markHandled(err)) return new Error(`${who} threw a Promise, not an Error (a missing await before throw?)`);
    let isError = false;
    try {
        isError = err instanceof Error;
    } catch {
        // A Proxy whose getPrototypeOf trap throws: not an Error.
    }
    // An object thrown that is not an Error and has no message (an API's
    // error body: { status: 404, error: "not found" }) read "[object
    // Object]"; its JSON says what it is.
    if (!isError && err !== null && typeof err === "object") {
        try {
            if (typeof (/** @type {any} */ (err).message) !== "string") {
                const text = jsonText(err);
                if (typeof text === "string" && text !== "{}") return new Error(text);
                // No data of its own: String's words, if it has any
                // (Object.create(null) has none: its JSON, then).
                try {
                    String(err);
                } catch {
                    if (text === "{}") return new Error(text);
                    throw new Error("it cannot be converted to text");
                }
            }
        } catch (e) {
            return new Error(`${who} threw an object that cannot be read (${safeText(e)})`);
        }
        return err;
    }
    // null, undefined or "" (Promise.reject() with no reason) read as the
    // bare word "null", "undefined" or nothing: say who threw what.
    if (err == null || err === "") return new Error(`${who} threw ${err === "" ? "an empty string" : err}, not an Error`);
    if (!isError) return err;
    const e = /** @type {any} */ (err);
    let message;
    let unread = false;
    try {
        message = e.message;
    } catch (x) {
        message = `(its message cannot be read: reading it threw: ${safeText(x)})`;
        unread = true;
    }
    if (typeof message !== "string" || (message !== "" && !unread)) return err;
    let name = "Error";
    try {
        if (typeof e.name === "string" && e.name) name = e.name;
    } catch {
        // keep "Error"
    }
    const text = message === "" ? `${who} threw ${/^[AEIOU]/.test(name) ? "an" : "a"} ${name} without a message` : message;
    const out = new Error(text);
    Object.defineProperty(out, "name", { value: name, configurable: true, writable: true });
    return out;
}

/**
 * JSON of a value, with a reference back to an object it is inside as
 * "[Circular]", a BigInt as its digits (console's rules) and arrays as
 * shownInText writes them; a getter that throws throws. The cycle check
 * compares the values as they were: shownInText gives a long array as a
 * new one each time it meets it.
 * @param {object} v
 */
function jsonText(v) {
    /** @type {{ was: object, shown: unknown }[]} */
    const inside = [];
    // What was written, at least (a value one character, a string its
    // length): of the text the model keeps 1,000 characters, and one object
    // held many times (40 levels of { l: o, r: o }: 2^40 values) was
    // written whole, holding the page's thread for good. Past 100,000 no
    // value is written: the text so far stays as it was.
    let made = 0;
    return JSON.stringify(v, function (k, x) {
        made += k.length + (typeof x === "string" ? x.length : 1);
        if (made > 1e5) return undefined;
        if (typeof x === "bigint") return String(x);
        if (typeof x !== "object" || x === null) return x;
        while (inside.length > 0 && inside[inside.length - 1].shown !== this) inside.pop();
        if (inside.some((e) => e.was === x)) return "[Circular]";
        const shown = shownInText(k, x);
        inside.push({ was: x, shown });
        return shown;
    });
}

/** @param {unknown} x what a read threw */
function safeText(x) {
    try {
        return String(x instanceof Error ? x.message : x).slice(0, 200);
    } catch {
        return "an unreadable value";
    }
}

/**
 * JSON.stringify's replacer for a value shown as text (what a tool threw):
 * an array longer than SHOWN_ARRAY_LEN is its first SHOWN_ARRAY_LEN
 * elements and "… N more items", as the core writes one in a log line or a
 * run's error, and a typed array, an ArrayBuffer or a DataView is an array
 * of its elements (bytes) under the same cap, not {"0":1,"1":2,...}. Of
 * the text the model keeps 1,000 characters (the core's cut); the rest was
 * written first: a Uint8Array of 5e6 held the page's thread 10 s, a sparse
 * array of length 2**32-1 forever.
 * @param {string} _key @param {unknown} v
 */
function shownInText(_key, v) {
    if (v === null || typeof v !== "object") return v;
    /** @type {ArrayLike<unknown>} */
    let list;
    if (Array.isArray(v)) {
        if (v.length <= SHOWN_ARRAY_LEN) return v;
        list = v;
    } else if (ArrayBuffer.isView(v)) {
        const n = /** @type {any} */ (v).length;
        list = typeof n === "number" ? /** @type {any} */ (v) : new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    } else if (v instanceof ArrayBuffer || (typeof SharedArrayBuffer === "function" && v instanceof SharedArrayBuffer)) {
        list = new Uint8Array(v);
    } else {
        return v;
    }
    const n = list.length;
    const out = [];
    for (let i = 0; i < Math.min(n, SHOWN_ARRAY_LEN); i++) {
        const x = list[i];
        out.push(typeof x === "bigint" ? x.toString() : x);
    }
    if (n > SHOWN_ARRAY_LEN) out.push(`… ${countMore(n - SHOWN_ARRAY_LEN, "item", "items")}`);
    return out;
}

/**
 * The error for a package file that cannot be located because the module
 * has no URL of its own: import.meta.url is empty where a bundler turned
 * the package into CommonJS (esbuild --format=cjs gives import.meta as {}),
 * and new URL("./file", undefined) said only "Invalid URL".
 * @param {string} file
 * @param {unknown} cause
 */
export function noModuleURL(file, cause) {
    // Cloudflare's workerd gives modules no import.meta.url, and compiles
    // no WebAssembly from bytes either: that, not a bundler, is the cause.
    const refused = compileRefused();
    if (refused) return new Error(`Cannot start Code Mode here: ${refused}; ${NO_WASM_HERE}`, { cause });
    const what = `Cannot locate the package's ${file}: this copy of @interopio/code-mode does not know its own URL`;
    // The factory says what to do there (index.mjs): not this advice for a page's bundle.
    if (inContentScript()) return new Error(what, { cause });
    // An extension's classic service worker bundled as an IIFE by esbuild
    // (Vite's IIFE, WXT's default background, inlines the files instead):
    // no packages=external there, and the manifest makes it a module.
    const g = /** @type {any} */ (globalThis);
    if (typeof g.ServiceWorkerGlobalScope === "function" && g instanceof g.ServiceWorkerGlobalScope && extensionURL(String(g.location))) {
        return new Error(
            `${what} (a bundler that turns it into a classic script (an IIFE) leaves it none): bundle the extension's service worker as an ES module (esbuild --format=esm) with "type": "module" in manifest.json's background, and copy code-mode.wasm next to it, or load the package's code-mode.global.js with importScripts (the package's README, "Browser extensions")`,
            { cause },
        );
    }
    return new Error(
        `${what} (a bundler that turns it into CommonJS, or into a classic script (an IIFE) for a browser, leaves it none); keep the package out of the bundle (esbuild --packages=external, webpack externals), or bundle as ES modules and copy code-mode.wasm and code-mode.worker.mjs next to the output (the package's README, "Bundlers")`,
        { cause },
    );
}

/**
 * Whether an error is the runtime's own refusal to compile WebAssembly
 * from bytes, as V8 words it where its embedder disallows that: Cloudflare
 * Workers (workerd), and a Node.js vm context made with codeGeneration:
 * { wasm: false } (edge-runtime emulators can make one). Not a page's
 * Content-Security-Policy, which Chromium names (wasm-load.mjs).
 * @param {unknown} err
 */
export function runtimeRefusedWasm(err) {
    return /Wasm code generation disallowed/i.test(describeError(err));
}

/** What to do where runtimeRefusedWasm: give the two modules compiled. */
export const NO_WASM_HERE = `this runtime does not allow compiling WebAssembly from bytes (as on Cloudflare Workers): give Code Mode its engine compiled, code-mode.wasm and the QuickJS asset imported as WebAssembly modules (import core from "@interopio/code-mode/code-mode.wasm"), as config.coreModule and config.wasmModule (the package's README, "Cloudflare Workers")`;

/** The runtime's refusal to compile the smallest module (its header), or "". */
export function compileRefused() {
    try {
        new keptWebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
        return "";
    } catch (err) {
        return runtimeRefusedWasm(err) ? describeError(err) : "";
    }
}

/**
 * What to configure when the package's own files were not found: Vite 7 or
 * older, or Angular's dev server, pre-bundled it in dev (its dependency
 * optimizer copies the module into node_modules/.vite/deps/, away from
 * code-mode.wasm and code-mode.worker.mjs, which it finds beside itself
 * through import.meta.url; Vite 8 rewrites those URLs), or a bundler that does not
 * rewrite those URLs (esbuild, Rollup, bun build, Angular's) left them behind: the server had no
 * such file. "" otherwise.
 * @param {string} moduleUrl the URL the file was looked up from
 * @param {boolean} [missing] the server answered that it has no such file
 */
export function bundlerHint(moduleUrl, missing = false) {
    if (inContentScript()) return ""; // the factory says what to do (index.mjs)
    if (missing && besideWorkerScript(moduleUrl)) {
        return "; in this worker the classic script found no URL of its own (a stack trace names it, and SES's lockdown() hides stack traces) and looked beside the worker's script: call lockdown() after importScripts of code-mode.global.js, or import index.mjs in a module worker";
    }
    // Angular's dev server (ng serve, Vite underneath) pre-bundles into its
    // own cache, .angular/cache/<version>/<project>/vite/deps/, and takes the
    // setting from angular.json, not a Vite config.
    if (moduleUrl.includes("/.angular/cache/")) {
        return "; Angular's dev server (ng serve) pre-bundled @interopio/code-mode away from its files: add \"prebundle\": { \"exclude\": [\"@interopio/code-mode\"] } to the options of the serve target in angular.json";
    }
    // A program compiled by bun build --compile runs from Bun's embedded
    // file system (/$bunfs/root/, B:/~BUN/root/ on Windows), which holds
    // only the files named on its command line, each renamed unless told.
    if (/\/\$bunfs\/|\/~BUN\//.test(moduleUrl)) {
        return BUN_COMPILED;
    }
    // Nuxt's dev server (Vite 7 in Nuxt 4.3) keeps Vite's cache in
    // node_modules/.cache/vite/client/, and takes Vite's options from
    // nuxt.config's vite key.
    if (moduleUrl.includes("/.cache/vite/client/deps/")) {
        return "; Nuxt's dev server (Vite) pre-bundled @interopio/code-mode away from its files: add vite: { optimizeDeps: { exclude: [\"@interopio/code-mode\"] } } to nuxt.config";
    }
    if (moduleUrl.includes("/.vite/deps/")) {
        return "; Vite pre-bundled @interopio/code-mode away from its files (Vite 7 and older do): add optimizeDeps: { exclude: [\"@interopio/code-mode\"] } to your Vite config";
    }
    return missing
        ? "; the package's code-mode.wasm and code-mode.worker.mjs are looked up beside the script that loads them: a bundler that does not copy them (esbuild, Rollup, bun build, Angular's ng build) needs them copied next to its output (the package's README, \"Bundlers\")"
        : "";
}

/**
 * What to do where Vite's dev server refused a package file: it serves no
 * file outside its server.fs.allow folders, and its 403 page names the file
 * ("The request id "/abs/file" is outside of Vite serving allow list"). A
 * package installed as a link to a folder elsewhere (npm install <folder>)
 * is outside them, as node_modules is outside an allow list that names only
 * the app's sources. "" for any other answer.
 * @param {string} body the 403 answer's text
 */
export function viteFsAllowHint(body) {
    const m = /request (?:id|url) (?:&quot;|")(.+?)(?:&quot;|") is outside of Vite serving allow list/.exec(body);
    if (!m) return "";
    const dir = m[1].replace(/&amp;/g, "&").replace(/[?#].*$/, "").replace(/\/[^/]*$/, "");
    return `; Vite's dev server serves no file outside its server.fs.allow folders, and ${dir} is not in them (a package installed as a link to a folder elsewhere, as npm install <folder> makes one, or an allow list without node_modules): add that folder to server.fs.allow in your Vite config, beside the project's root: server: { fs: { allow: [searchForWorkspaceRoot(process.cwd()), ${JSON.stringify(dir)}] } } (import { searchForWorkspaceRoot } from "vite"), or install the package from its tarball (npm pack)`;
}

const BUN_COMPILED = "; this program was compiled by bun build --compile, which embeds only the files named to it: add node_modules/@interopio/code-mode/code-mode.wasm and node_modules/@interopio/code-mode/code-mode.worker.mjs to its command line, with --asset-naming=\"[name].[ext]\" --entry-naming=\"[name].mjs\" so that they keep their names (the package's README, \"Bun and Deno\")";

/**
 * What to do when a browser failed to fetch a package file, or start its
 * worker, from a file: URL: Chromium and WebKit give a page opened from a
 * file (a double-clicked index.html) neither, in either engine mode
 * (Firefox ESR does), and their own words ("Failed to fetch", "cannot be accessed from
 * origin 'null'") do not say that serving the folder is the fix. "" elsewhere
 * (Node.js reads file: URLs).
 * @param {string} url
 */
export function fileURLHint(url) {
    if (hasNodeFs || !url.startsWith("file:")) return "";
    return "; a page opened from a file cannot load Code Mode in this browser (Chromium and WebKit fetch no file: URL for it and start no Worker from one, so worker: false fails too): serve its folder over HTTP (npx serve, python3 -m http.server) and open the page from http://localhost";
}

/**
 * What a fetch of a file on another origin than the page's adds when it
 * failed with no answer: a server that sends no CORS headers (a static
 * host, a folder served as it is) gave the browser's "Failed to fetch"
 * alone, and a worker that did not load, nothing. "" on the page's own
 * origin, and outside browsers (no CORS there).
 * @param {string} url
 */
export function otherOriginHint(url) {
    try {
        const here = globalThis.location.origin;
        const there = new URL(url).origin;
        if (hasNodeFs || !/^https?:/.test(here) || !/^https?:/.test(there) || there === here) return "";
        return `; ${there} is another origin than the page's (${here}): its server must send CORS headers (Access-Control-Allow-Origin) with the package's files and the QuickJS asset, or serve them from the page's origin; the browser's console says whether CORS refused them`;
    } catch {
        return "";
    }
}

/**
 * The URL of the first frame of a stack trace taken here, or "" (none, or
 * hidden: SES's lockdown() makes every stack ""): where the classic script
 * runs from in a worker (script-url.mjs).
 */
export function stackURL() {
    try {
        const m = /((?:blob:)?[a-z][a-z\d+.-]*:\/\/[^\s()]*?):\d+:\d+/i.exec(String(new Error().stack));
        return m ? m[1] : "";
    } catch {
        return "";
    }
}

/**
 * Whether a package file was looked up beside a worker's own script because
 * the classic script could not read its URL from a stack trace.
 * @param {string} fileUrl
 */
function besideWorkerScript(fileUrl) {
    try {
        const g = /** @type {any} */ (globalThis);
        return typeof g.importScripts === "function" && !stackURL() && new URL(".", fileUrl).href === new URL(".", g.location.href).href;
    } catch {
        return false;
    }
}

/**
 * Whether this is a browser extension's content script: it has the
 * extension's runtime API but the web page's location and
 * Content-Security-Policy, so the package looks for its files on the web
 * page's server ("the server sent text/html") or, found in the extension,
 * can start no Worker from there nor compile WebAssembly under most pages'
 * policies, none of which the extension controls. A factory that fails
 * there says so (index.mjs), and the hints for a page (a bundler's copy, the
 * page's own policy) are left out. A web page has no runtime.getURL; an
 * extension's own pages and workers have its protocol.
 */
export function inContentScript() {
    try {
        const g = /** @type {any} */ (globalThis);
        const runtime = (g.browser && g.browser.runtime) || (g.chrome && g.chrome.runtime);
        return !!runtime && typeof runtime.getURL === "function" && typeof location !== "undefined" && !extensionURL(location.protocol);
    } catch {
        return false;
    }
}

/**
 * Whether a URL (or a protocol) is a browser extension's own.
 * @param {string} url
 */
export const extensionURL = (url) => /^(chrome|moz|safari-web)-extension:/.test(url);

/**
 * What a failed fetch of an extension's own file adds: it fails only where
 * the extension has no such file (a bundle whose package files were not
 * copied), and the browser says only "Failed to fetch" (Chromium) or
 * "NetworkError when attempting to fetch resource" (Firefox). "" for other
 * URLs, and in a content script (index.mjs says what to do there).
 * @param {string} url
 */
export function extensionFileHint(url) {
    return extensionURL(url) && !inContentScript() ? " (the extension has no such file)" : "";
}

/**
 * err, or where Node.js's permission model refused it (ERR_ACCESS_DENIED,
 * whose message "Access to this API has been restricted" names neither
 * what was refused nor the flag that allows it) an Error that says both,
 * with err's code and err as its cause.
 * @param {any} err
 */
export function accessDenied(err) {
    if (!err || err.code !== "ERR_ACCESS_DENIED") return err;
    const flag = err.permission === "WorkerThreads" ? "--allow-worker (or use worker: false)" : err.permission === "FileSystemRead" && err.resource ? `--allow-fs-read=${err.resource}` : "";
    if (!flag) return err;
    const what = err.permission === "WorkerThreads" ? "worker threads" : `reading ${err.resource}`;
    return Object.assign(new Error(`${describeError(err)}: Node.js's permission model (--permission, or --experimental-permission before Node.js 22) refuses ${what}; allow it with ${flag}`, { cause: err }), { code: err.code });
}
