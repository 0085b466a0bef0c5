// Fetching and compiling WebAssembly: the Go core and the QuickJS asset.

import { fetchNamingCSP, refusedFetch } from "./csp-refusal.mjs";
import { NO_WASM_HERE, TextDecoder, accessDenied, compileRefused, describeError, extensionFileHint, fileURLHint, hasNodeFs, inContentScript, isNode, nodeModule, nodeProcess, otherOriginHint, runtimeRefusedWasm, viteFsAllowHint } from "./env.mjs";
import { KeptMap, keptWebAssembly, promiseResolve, then } from "./intrinsics.mjs";

// As at load: the page may replace its globals afterwards (intrinsics.mjs).
const moduleImports = keptWebAssembly ? keptWebAssembly.Module.imports : null;
const moduleSections = keptWebAssembly ? keptWebAssembly.Module.customSections : null;

/**
 * The import list of a compiled WebAssembly.Module, as Cloudflare Workers'
 * (and wrangler's, and Next.js's ?module) import of a .wasm file gives one,
 * or null for anything else: the runtimes that refuse to compile bytes take
 * the package's files so (config.wasmModule, config.coreModule).
 * WebAssembly.Module.imports is the brand check, not instanceof: Next.js's
 * edge runtime hands a route a module made outside its vm context.
 * @param {unknown} v
 * @returns {{ module: string }[] | null}
 */
function importsOf(v) {
    if (!moduleImports || v === null || typeof v !== "object") return null;
    try {
        return moduleImports(/** @type {WebAssembly.Module} */ (v));
    } catch {
        return null;
    }
}

/**
 * @param {unknown} v
 * @returns {v is WebAssembly.Module}
 */
export function isWasmModule(v) {
    return importsOf(v) !== null;
}

/**
 * The build a compiled Code Mode core is of: its custom section
 * "code-mode.build" (scripts/build-dist.mjs), or "" when it has none.
 * @param {WebAssembly.Module} m
 */
export function coreBuild(m) {
    try {
        const s = /** @type {typeof WebAssembly.Module.customSections} */ (moduleSections)(m, "code-mode.build");
        return s.length ? new TextDecoder().decode(s[0]) : "";
    } catch {
        return "";
    }
}

/**
 * Whether a compiled module is a Go program's (the Code Mode core imports
 * Go's "gojs" functions; the QuickJS asset imports Emscripten's "a"): the
 * two files swapped in the config said only a LinkError's words.
 * @param {WebAssembly.Module} m
 */
export function isGoModule(m) {
    const list = importsOf(m) || [];
    for (let i = 0; i < list.length; i++) if (list[i].module === "gojs") return true;
    return false;
}

// Fetches a URL and compiles (or instantiates, with imports) the module.
// Streaming where the server sends application/wasm; otherwise through an
// ArrayBuffer, since the streaming APIs reject any other MIME type.
/**
 * @param {URL} url
 * @param {WebAssembly.Imports} [imports]
 * @returns {Promise<any>}
 */
async function fetchWasm(url, imports) {
    if (typeof fetch !== "function") {
        throw new Error("fetch is not available in this environment");
    }
    /** @type {Response} */
    let response;
    try {
        // A refusal by the Content-Security-Policy names its directive.
        response = await fetchNamingCSP(url, async () => {
            try {
                return await fetch(url);
            } catch (err) {
                // Node's fetch says only "fetch failed"; its cause says why
                // (connect ECONNREFUSED 127.0.0.1:8080, getaddrinfo ENOTFOUND).
                const cause = /** @type {any} */ (err)?.cause;
                if (cause && typeof cause.message === "string" && cause.message) throw new Error(`${describeError(err)} (${cause.message})`, { cause: err });
                throw err;
            }
        });
    } catch (err) {
        const refused = refusedFetch(err);
        // An extension's own file that is not there (Chromium's fetch
        // fails): missing, as a 404 is.
        const lost = refused ? null : extensionFileMissing(err, url.href);
        if (lost) throw lost;
        // A browser's fetch of another origin that no policy refused: most
        // likely a server that sends no CORS headers.
        const hint = refused ? "" : otherOriginHint(url.href);
        if (hint) throw new Error(`${describeError(err).replace(/\.$/, "")}${hint}`, { cause: err });
        throw err;
    }
    try {
        return await compileResponse(response, imports);
    } catch (err) {
        // Firefox answers a file its extension lacks with 200 and a body
        // whose read aborts ("The operation was aborted.").
        const lost = /** @type {any} */ (err)?.name === "AbortError" ? extensionFileMissing(err, url.href) : null;
        throw lost || err;
    }
}

/**
 * err as the error of a file that an extension lacks (extensionFileHint),
 * or null for any other URL.
 * @param {unknown} err @param {string} url
 */
function extensionFileMissing(err, url) {
    const none = extensionFileHint(url);
    return none ? Object.assign(new Error(`${describeError(err).trim().replace(/\.$/, "")}${none}`, { cause: err }), { missing: true }) : null;
}

/**
 * The module (or instance, with imports) of a fetched response.
 * @param {Response} response
 * @param {WebAssembly.Imports} [imports]
 * @returns {Promise<any>}
 */
async function compileResponse(response, imports) {
    if (!response.ok) {
        // missing: for the hint of a file the server does not have.
        throw Object.assign(new Error(`HTTP ${response.status}${response.statusText ? " " + response.statusText : ""}${await refusalHint(response)}`), { missing: response.status === 404 });
    }
    // The streaming APIs accept exactly this MIME type (no parameters).
    const type = (response.headers.get("content-type") || "").trim().toLowerCase();
    if (type === "application/wasm") {
        if (imports && typeof WebAssembly.instantiateStreaming === "function") {
            return (await WebAssembly.instantiateStreaming(response, imports)).instance;
        }
        if (!imports && typeof WebAssembly.compileStreaming === "function") {
            return await WebAssembly.compileStreaming(response);
        }
    }
    const bytes = await response.arrayBuffer();
    if (!isWasm(bytes)) {
        // Dev servers (Vite's, most single-page app servers) answer a path
        // they have no file for with their index.html and status 200: the
        // compiler's "expected magic word 00 61 73 6d, found 3c 21 64 6f"
        // did not say that the file is not there.
        const page = type.startsWith("text/html");
        throw Object.assign(new Error(`not WebAssembly: the server sent ${type || "no MIME type"}${page ? " (a page, as a dev server answers for a file it does not have: is the file served at that URL?)" : ""}`), { missing: page });
    }
    return imports ? (await WebAssembly.instantiate(bytes, imports)).instance : await WebAssembly.compile(bytes);
}

/**
 * What a server's refusal (403) says to do, where it is Vite's dev server
 * refusing a file outside server.fs.allow (viteFsAllowHint); "" otherwise.
 * @param {Response} response
 */
export async function refusalHint(response) {
    if (response.status !== 403) return "";
    try {
        return viteFsAllowHint(await response.text());
    } catch {
        return "";
    }
}

/**
 * Whether bytes start as a WebAssembly module does ("\0asm").
 * @param {ArrayBuffer | Uint8Array} bytes
 */
function isWasm(bytes) {
    const b = bytes instanceof ArrayBuffer ? new Uint8Array(bytes, 0, Math.min(4, bytes.byteLength)) : bytes.subarray(0, 4);
    return b.length === 4 && b[0] === 0 && b[1] === 0x61 && b[2] === 0x73 && b[3] === 0x6d;
}

/**
 * A file's bytes, once they are WebAssembly. A file that is not (the
 * package.json, an HTML page saved as .wasm, a Git LFS pointer checked
 * out in place of the asset) failed with the compiler's "expected magic
 * word 00 61 73 6d, found 7b 0a 20 20", which says nothing of the file.
 * @param {Uint8Array<ArrayBuffer>} bytes
 */
function wasmFile(bytes) {
    if (isWasm(bytes)) return bytes;
    if (bytes.length === 0) throw new Error("not WebAssembly: the file is empty");
    const head = new TextDecoder().decode(bytes.subarray(0, 200));
    if (head.startsWith("version https://git-lfs")) {
        throw new Error("not WebAssembly: the file is a Git LFS pointer, not the file it points to (git lfs pull fetches it)");
    }
    // Text: printable characters and whitespace (shown as single spaces;
    // the 200 bytes may end inside a character).
    const text = head.replace(/\ufffd$/, "").trim().replace(/\s+/g, " ");
    if (text && /^[\x20-\x7e\u00a0-\uffff]+$/.test(text) && !text.includes("\ufffd")) {
        const kind = /^[{[]/.test(text) ? "JSON" : text.startsWith("<") ? "HTML or XML" : "text";
        throw new Error(`not WebAssembly: the file is ${kind} that begins ${text.length > 40 ? text.slice(0, 40) + "…" : text}, not a WebAssembly module`);
    }
    throw new Error("not WebAssembly: the file does not begin as a WebAssembly module does (\\0asm)");
}

/**
 * By fs.readFile's callback: fs/promises' readFile settles its promise by
 * the page's Promise.prototype.then of the moment (Node's own code), and one
 * that did nothing left every factory pending for ever.
 * @param {string} path
 */
async function readFileBytes(path) {
    const fs = await nodeModule("fs");
    /** @type {any} */
    // Options of a null prototype: without them Node reads the signal and
    // the encoding from an options object of its own, and a page whose
    // Object.prototype had one (a polluted merge) failed every factory
    // ("The operation was aborted", "bytes.subarray is not a function").
    const bytes = await new Promise((resolve, reject) => fs.readFile(path, { __proto__: null, flag: "r" }, (/** @type {any} */ err, /** @type {Uint8Array} */ b) => (err ? reject(accessDenied(err)) : resolve(b))));
    return wasmFile(bytes);
}

/** @param {URL} url */
async function fileURLToPathNode(url) {
    const { fileURLToPath } = await nodeModule("url");
    return fileURLToPath(url);
}

// Loads wasm from a resolved URL: file: URLs through fs (Node), others
// through fetch. With imports it resolves with the instance, without them
// with the compiled module.
/**
 * @param {URL} url
 * @param {WebAssembly.Imports} [imports]
 * @returns {Promise<any>}
 */
export async function loadWasmURL(url, imports) {
    try {
        return await loadWasm(url, imports);
    } catch (err) {
        throw explainWasmRefusal(err);
    }
}

/**
 * err, or when the runtime or the page's Content-Security-Policy refused
 * WebAssembly, an error that says what to do. WebKit (Safari) compiles
 * under a policy without 'wasm-unsafe-eval' and refuses only the
 * instantiation, so the core's instantiate (core.mjs) is explained too.
 * @param {unknown} err
 */
export function explainWasmRefusal(err) {
    if (runtimeRefusedWasm(err)) return new Error(`${describeError(err)}; ${NO_WASM_HERE}`, { cause: err });
    if (!refusedByCSP(err)) return err;
    // Chromium's words name only 'unsafe-eval', which allows far more.
    // JavaScriptCore's end with the expression: "\n (evaluating '...')".
    return new Error(`${describeError(err).replace(/\s*\(evaluating '[^]*'\)$/, "").replace(/\.$/, "")}; ${wasmPolicyHint()}`, { cause: err });
}

/**
 * Where the policy that refused WebAssembly is set, and what to add. An
 * extension's pages and workers (its side panel, popup, offscreen document,
 * background service worker) take theirs from its manifest.json, whose
 * Manifest V3 default (script-src 'self') has no 'wasm-unsafe-eval': "the
 * page's Content-Security-Policy" sent its author looking for a header or
 * a <meta> that is not there.
 */
function wasmPolicyHint() {
    if (inContentScript()) return "the web page's Content-Security-Policy does not allow WebAssembly"; // the factory says what to do (index.mjs)
    const protocol = globalThis.location && globalThis.location.protocol;
    if (typeof protocol === "string" && /^(chrome|moz|safari-web)-extension:$/.test(protocol)) {
        return `the extension's Content-Security-Policy must allow WebAssembly: add 'wasm-unsafe-eval' to the script-src of its manifest.json ("content_security_policy": { "extension_pages": "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'" }) (the package's README, "Browser extensions")`;
    }
    return `the page's Content-Security-Policy must allow WebAssembly: add 'wasm-unsafe-eval' to its script-src (the package's README, "Content-Security-Policy")`;
}

/**
 * Whether compiling was refused by the page's Content-Security-Policy (as
 * Chromium, Firefox and Safari word it).
 * @param {unknown} err
 */
function refusedByCSP(err) {
    return /Content Security Policy|blocked by CSP|unsafe-eval/i.test(describeError(err));
}

/**
 * @param {URL} url
 * @param {WebAssembly.Imports} [imports]
 * @returns {Promise<any>}
 */
// Every promise returned from an async function here is awaited first:
// returned, it would settle the function's promise by its then of the
// moment, which a page may have replaced (core.mjs loadCore).
async function loadWasm(url, imports) {
    if (url.protocol === "file:") {
        if (!hasNodeFs) {
            // Other runtimes (Deno) fetch file: URLs.
            return await fetchWasm(url, imports);
        }
        const bytes = await readFileBytes(await fileURLToPathNode(url));
        return imports ? (await WebAssembly.instantiate(bytes, imports)).instance : await WebAssembly.compile(bytes);
    }
    return await fetchWasm(url, imports);
}

// The page's base URL for a relative wasmLocation; a worker passes the
// page's own (baseURL), since its location is the worker script's.
/**
 * @param {string} location
 * @param {string} [baseURL]
 */
function resolveAssetURL(location, baseURL) {
    if (isNode && !baseURL) {
        // An absolute URL (http:, https:, file:, data:, blob:) or a path.
        if (/^(https?|file|data|blob):/i.test(location)) return new URL(location);
        return null; // a filesystem path
    }
    const base =
        baseURL ||
        (typeof document !== "undefined" && document.baseURI) ||
        (globalThis.location && globalThis.location.href) ||
        import.meta.url;
    return new URL(location, base);
}

// The QuickJS asset, compiled once per URL (or filesystem path) and shared
// by every factory of this thread, as the Go core is (core.mjs compileCore);
// a load that failed is tried again by the next factory. It was fetched and
// compiled for each factory, and Chromium kept ~0.5 MB of the renderer's
// memory per compile long after the module was collected (a page creating
// and disposing 300 worker-mode factories: 412 -> 577 MB; 300 compiles of
// the asset alone, no worker: 369 -> 549 MB; sharing one: 402 -> 398 MB).
/** @type {Map<string, Promise<WebAssembly.Module>>} */
const quickJSModules = new KeptMap();

/**
 * @param {string} location
 * @param {string} [baseURL]
 * @param {WebAssembly.Module} [given] config.wasmModule, checked
 * @returns {Promise<WebAssembly.Module>}
 */
export function loadQuickJS(location, baseURL, given) {
    // config.wasmModule, compiled by the app (on Cloudflare Workers, at
    // deploy): taken as it is, location only naming it.
    if (given) return promiseResolve(given);
    /** @type {string | null} */
    let key = null;
    try {
        const url = typeof location === "string" ? resolveAssetURL(location, baseURL) : null;
        key = url ? url.href : typeof location === "string" ? `path:${location}` : null;
    } catch {
        // compileQuickJS says what is wrong with it.
    }
    if (key === null) return compileQuickJS(location, baseURL);
    const kept = quickJSModules.get(key);
    if (kept) return kept;
    const p = compileQuickJS(location, baseURL);
    quickJSModules.set(key, p);
    // The load-time then (intrinsics.mjs): the page's catch of the moment
    // may be broken.
    then(p, undefined, () => {
        if (quickJSModules.get(/** @type {string} */ (key)) === p) quickJSModules.delete(/** @type {string} */ (key));
    });
    return p;
}

/**
 * What a Node.js path that is not there adds when it is a package's file
 * ("@interopio/code-mode/emscripten-module.wasm", as the package's docs
 * name the asset): a path is read from the working directory, and ENOENT
 * alone did not say to resolve it. Likewise a path or file: URL that ends
 * in one, under /node_modules/ (a dev server's URL of the file, as Vite's
 * ?url import gives in Vitest) or from its @scope on (new URL("@scope/pkg/
 * file", import.meta.url), which only a bundler rewrites, is a file beside
 * the module in Node.js): ENOENT alone. And a relative path that is no
 * package's ("emscripten-module.wasm", "./x.wasm"): the working
 * directory has no such file, and ENOENT did not say that the package has
 * its own copy. "" for anything else.
 * @param {string} location
 * @param {URL | null} url
 * @param {unknown} cause
 */
async function specifierHint(location, url, cause) {
    if (!isNode || /** @type {any} */ (cause)?.code !== "ENOENT") return "";
    const path = url ? (url.protocol === "file:" ? decodeURIComponent(url.pathname) : "") : location;
    const named = url || /^\.{0,2}\//.test(location);
    const spec = named ? (/.*\/node_modules\/(.+)$/.exec(path) || /\/(@[^/]+\/[^/]+\/.+)$/.exec(path) || [])[1] : location;
    const cwd = nodeProcess.cwd();
    const resolve = (await nodeModule("module")).createRequire(`${cwd}/`).resolve;
    const pass = (/** @type {string} */ s) => `: pass its path, wasmLocation: require.resolve(${JSON.stringify(s)}) (in an ES module, require from createRequire)`;
    try {
        if (spec) return `; it ${named ? "names" : "is"} a package's file (${resolve(spec)}), which ${named ? "only a bundler finds from new URL(...) or a ?url import, not Node.js (a server, a test runner)" : "a path does not resolve"}${pass(spec)}`;
    } catch {}
    if (url || (await nodeModule("path")).isAbsolute(location)) return "";
    // From the working directory, or beside this module (a server started
    // from another folder).
    let own = "";
    try {
        own = resolve(OWN_ASSET);
    } catch {
        try {
            // Against a variable, not import.meta.url written in place: Vite and
            // webpack emit every file named in new URL("literal", import.meta.url),
            // and this branch, which never runs in a browser, gave every app's
            // build an unused copy of the asset (524 KB; inlined as data: URLs
            // where a build inlines assets, as WXT's classic background does).
            const file = await fileURLToPathNode(new URL("./emscripten-module.wasm", moduleURL));
            if ((await nodeModule("fs")).existsSync(file)) own = file;
        } catch {}
    }
    return own ? `; a relative path is read against the working directory (${cwd}), and the package has its own copy (${own})${pass(OWN_ASSET)}` : "";
}

const OWN_ASSET = "@interopio/code-mode/emscripten-module.wasm";
const moduleURL = import.meta.url;

/**
 * What a Node.js path from the root adds when not even its first folder is
 * there (/_nuxt/..., /assets/...): the site's URL of the asset, as a page
 * gives it (a ?url import), read as a path because the factory was created
 * in a server render (a component's setup or body, not an effect): ENOENT
 * alone did not say so. "" for anything else.
 * @param {string} location
 * @param {URL | null} url
 * @param {unknown} cause
 */
async function serverRenderHint(location, url, cause) {
    if (!isNode || url || /** @type {any} */ (cause)?.code !== "ENOENT" || !/^\/[^/]/.test(location)) return "";
    const top = "/" + location.split("/")[1];
    if ((await nodeModule("fs")).existsSync(top)) return "";
    return `; in Node.js wasmLocation is a file path, and this machine has no ${top}: if it is your site's URL of the asset, this factory was created on the server (a server render): create it in the browser only (an effect, onMounted, a client-only component), or give the server the file's path, wasmLocation: require.resolve("@interopio/code-mode/emscripten-module.wasm") (the package's README, "Loading")`;
}

/**
 * What a location that is no URL adds in Node.js with a DOM (a test
 * environment: Vitest's or Jest's jsdom, happy-dom): there the page's URL
 * (http://localhost:3000/) resolves it, as on a page, and USAGE's Node.js
 * path (require.resolve(...)) was fetched from a server that is not there,
 * "fetch failed (connect ECONNREFUSED 127.0.0.1:3000)" and no more. ""
 * elsewhere.
 * @param {string} location
 * @param {URL | null} url
 * @param {string} [baseURL] the page's, in a worker
 */
function domInNodeHint(location, url, baseURL) {
    if (!hasNodeFs || (isNode && !baseURL) || !url || !/^https?:$/.test(url.protocol)) return "";
    // An absolute location counts when it is under the page's root (Vite's
    // rewrite of new URL(..., import.meta.url) in Vitest); a page without
    // one (about:blank) has none.
    let page = "";
    try {
        page = /** @type {URL} */ (resolveAssetURL("/", baseURL)).href;
    } catch {}
    if (/^[a-z][a-z\d+.-]*:/i.test(location) && !(page && url.href.startsWith(page))) return "";
    return `; this is Node.js with a DOM (a test environment such as jsdom or happy-dom), where wasmLocation is a URL read against the page's (${page}): to read the file, give its file: URL, pathToFileURL(require.resolve("@interopio/code-mode/emscripten-module.wasm")).href, or run the test in Node.js's own environment`;
}

/**
 * What to do where wasmLocation names a folder in Node.js (the package's
 * dist/ or node_modules/@interopio/code-mode): EISDIR alone did not say
 * that the asset is a file in it. "" otherwise.
 * @param {string} location
 * @param {unknown} cause
 */
function folderHint(location, cause) {
    if (!isNode || /** @type {any} */ (cause)?.code !== "EISDIR") return "";
    return `; that is a folder: name the asset's file in it, wasmLocation: ${JSON.stringify(location.replace(/[\\/]*$/, "/emscripten-module.wasm"))}`;
}

/**
 * What to do where a server has no file at wasmLocation's URL (a 404, or a
 * dev server's page in its place): the asset is the app's to serve, and
 * "HTTP 404 Not Found" alone did not say how. "" otherwise.
 * @param {URL | null} url
 * @param {unknown} cause
 */
function notServedHint(url, cause) {
    if (!url || !/^https?:$/.test(url.protocol) || /** @type {any} */ (cause)?.missing !== true) return "";
    return `; the server has no file there: copy the package's emscripten-module.wasm to where that URL points (a public/ folder), or take its URL from your bundler, as Vite's import of "@interopio/code-mode/emscripten-module.wasm?url" gives (the package's README, "Bundlers")`;
}

/**
 * @param {string} location
 * @param {string} [baseURL]
 * @returns {Promise<WebAssembly.Module>}
 */
async function compileQuickJS(location, baseURL) {
    /** @type {URL | null} */
    let url = null;
    try {
        url = resolveAssetURL(location, baseURL);
        if (url) return await loadWasmURL(url);
        const path = await nodeModule("path");
        return await WebAssembly.compile(await readFileBytes(path.resolve(location)));
    } catch (cause) {
        // A relative location names the URL it became: from a page's deeper
        // route ("./emscripten-module.wasm" at /app/orders/42) it is not the
        // file beside index.html, and only the URL says so.
        const fetched = url && url.href !== location ? ` (${url.href})` : "";
        // Where no bytes compile (workerd, whose modules have no URL to
        // read a relative location against: "Invalid URL"), what to do.
        const refused = runtimeRefusedWasm(cause) || !compileRefused() ? "" : `; ${NO_WASM_HERE}`;
        const why = refused ? describeError(cause).replace(/\.$/, "") : describeError(cause);
        const dom = domInNodeHint(location, url, baseURL);
        throw new Error(`Cannot load the QuickJS asset from ${location}${fetched}: ${why}${await specifierHint(location, url, cause)}${await serverRenderHint(location, url, cause)}${dom || notServedHint(url, cause)}${folderHint(location, cause)}${url ? fileURLHint(url.href) : ""}${refused}`, { cause });
    }
}
