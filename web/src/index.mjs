// Code Mode for the browser: the JavaScript loader of the Go core.
//
// This file is the ESM entry point (dist/index.mjs). scripts/build-dist.mjs
// also turns it into the classic-script build (dist/code-mode.global.js) by
// a plain text transform, so keep to the conventions it relies on:
//   - exactly one `import ... from "./wasm_exec.mjs";` line;
//   - the module URL read exactly once, in the MODULE_URL line;
//   - exports only as `export function` / `export const` declarations.
//
// What it does: starts the Go core (code-mode.wasm, next to this file) once
// per JavaScript module, with a private "shadow" global object, then for
// each IoCodeModeFactory(config) call fetches and compiles the QuickJS asset
// once and asks the core for a new API object, which it wraps so that the
// LLM tools work with the common LLM SDKs as they are.

import { defineGo } from "./wasm_exec.mjs";

const MODULE_URL = import.meta.url;
const CORE_FILE = "code-mode.wasm";
const AI_SDK_SCHEMA = Symbol.for("vercel.ai.schema");

// ---------------------------------------------------------------------------
// Environment

// Node.js (or a runtime compatible with it): file: URLs are read with fs.
const hasNodeFs =
    typeof process === "object" &&
    process !== null &&
    typeof process.versions === "object" &&
    process.versions !== null &&
    typeof process.versions.node === "string";
// Node.js without a DOM: wasmLocation is a file path or an absolute URL,
// not a URL relative to a page.
const isNode = hasNodeFs && typeof document === "undefined";

// Node built-ins are imported lazily, and through a variable, so that
// browsers never load them and bundlers do not try to resolve them.
async function nodeModule(name) {
    const specifier = "node:" + name;
    return import(/* webpackIgnore: true */ /* @vite-ignore */ specifier);
}

function describeError(err) {
    if (err instanceof Error || (err && typeof err.message === "string")) {
        return err.message || String(err);
    }
    return String(err);
}

// ---------------------------------------------------------------------------
// The shadow global
//
// wasm_exec.js writes `globalThis.Go`, `globalThis.fs`, ... and the Go program
// sees `globalThis` as js.Global(). Both get this shadow instead: reads fall
// through to the real global (with the real global as receiver, so that
// accessors such as `crypto` and `performance`, which check their receiver,
// keep working); writes stay on the shadow.

function createShadow(realGlobal) {
    const own = Object.create(null);
    const bound = new WeakMap();
    const hasOwn = (key) => Object.prototype.hasOwnProperty.call(own, key);
    return new Proxy(own, {
        get(target, key) {
            if (hasOwn(key)) return own[key];
            const value = Reflect.get(realGlobal, key);
            // Go's js.Global().Call("fetch", ...) calls with this = the
            // shadow, which browsers reject ("Illegal invocation") for the
            // global's own methods. Methods (functions without a prototype,
            // so not constructors) are bound to the real global.
            if (
                typeof value === "function" &&
                !Object.prototype.hasOwnProperty.call(value, "prototype") &&
                Object.prototype.hasOwnProperty.call(realGlobal, key)
            ) {
                let b = bound.get(value);
                if (!b) {
                    b = value.bind(realGlobal);
                    bound.set(value, b);
                }
                return b;
            }
            return value;
        },
        set(target, key, value) {
            own[key] = value;
            return true;
        },
        has(target, key) {
            return hasOwn(key) || key in realGlobal;
        },
        deleteProperty(target, key) {
            delete own[key];
            return true;
        },
    });
}

// ---------------------------------------------------------------------------
// Fetching WebAssembly

// Fetches a URL and compiles (or instantiates, with imports) the module.
// Streaming where the server sends application/wasm; otherwise through an
// ArrayBuffer, since the streaming APIs reject any other MIME type.
async function fetchWasm(url, imports) {
    if (typeof fetch !== "function") {
        throw new Error("fetch is not available in this environment");
    }
    const response = await fetch(url);
    if (!response.ok) {
        throw new Error(`HTTP ${response.status}${response.statusText ? " " + response.statusText : ""}`);
    }
    // The streaming APIs accept exactly this MIME type (no parameters).
    const type = (response.headers.get("content-type") || "").trim().toLowerCase();
    if (type === "application/wasm") {
        if (imports && typeof WebAssembly.instantiateStreaming === "function") {
            return (await WebAssembly.instantiateStreaming(response, imports)).instance;
        }
        if (!imports && typeof WebAssembly.compileStreaming === "function") {
            return WebAssembly.compileStreaming(response);
        }
    }
    const bytes = await response.arrayBuffer();
    return imports ? (await WebAssembly.instantiate(bytes, imports)).instance : WebAssembly.compile(bytes);
}

async function readFileBytes(path) {
    const fs = await nodeModule("fs/promises");
    return fs.readFile(path);
}

async function fileURLToPathNode(url) {
    const { fileURLToPath } = await nodeModule("url");
    return fileURLToPath(url);
}

// Loads wasm from a resolved URL: file: URLs through fs (Node), others
// through fetch.
async function loadWasmURL(url, imports) {
    if (url.protocol === "file:") {
        if (!hasNodeFs) {
            // Other runtimes (Deno) fetch file: URLs.
            return fetchWasm(url, imports);
        }
        const bytes = await readFileBytes(await fileURLToPathNode(url));
        return imports ? (await WebAssembly.instantiate(bytes, imports)).instance : WebAssembly.compile(bytes);
    }
    return fetchWasm(url, imports);
}

// ---------------------------------------------------------------------------
// The Go core: started once per JavaScript module

let corePromise = null;

function loadCore() {
    if (corePromise === null) {
        const p = startCore();
        corePromise = p;
        // A core that failed to start, or that exited, is started afresh by
        // the next IoCodeModeFactory call; API objects of the old core keep
        // rejecting with a clear error.
        p.then(
            (core) => core.exited.then(() => {
                if (corePromise === p) corePromise = null;
            }),
            () => {
                if (corePromise === p) corePromise = null;
            },
        );
    }
    return corePromise;
}

async function startCore() {
    const shadow = createShadow(globalThis);
    const Go = defineGo(shadow);
    const go = new Go();
    const state = { exited: false, exitCode: undefined, cause: undefined };
    go.exit = (code) => {
        state.exitCode = code;
        if (code !== 0) console.warn(`Code Mode: the Go core exited with code ${code}`);
    };

    const hold = keepAliveWhileBusy(go);

    const url = new URL(CORE_FILE, MODULE_URL);
    let instance;
    try {
        instance = await loadWasmURL(url, go.importObject);
    } catch (cause) {
        throw new Error(`Cannot load the Code Mode core from ${url.href}: ${describeError(cause)}`, { cause });
    }

    return new Promise((resolve, reject) => {
        let exitedResolve;
        const exited = new Promise((r) => (exitedResolve = r));
        let ready = false;
        const onExit = (cause) => {
            state.exited = true;
            state.cause = cause;
            exitedResolve();
            if (!ready) {
                const why = cause !== undefined ? describeError(cause) : `exit code ${state.exitCode}`;
                reject(new Error(`The Code Mode core exited before it was ready (${why})`, { cause }));
            }
        };
        shadow.__ioCodeModeReady = (api) => {
            ready = true;
            resolve({ api, state, exited, hold });
        };
        // The Go core's own exports: jsbridge calls QuickJS's host imports
        // through them, WebAssembly to WebAssembly (jsbridge/fastimport.go).
        shadow.__goExports = instance.exports;
        let run;
        try {
            // Not awaited: go.run settles only when the Go program exits.
            run = go.run(instance);
        } catch (cause) {
            onExit(cause);
            return;
        }
        Promise.resolve(run).then(() => onExit(undefined), (cause) => onExit(cause));
    });
}

// Node.js keeps a process alive while a timer is pending. The Go runtime
// schedules a JavaScript timer for its next Go timer whenever it goes idle,
// and leaves it scheduled when that Go timer is stopped (a run's timeout
// timer, for instance), so a script would linger for up to `timeout` after
// its last run. Go's timers therefore keep Node alive only while a call into
// the core is in flight (hold() ... release()): then a pending Go timer is
// real work (a run's deadline). Browsers have no ref/unref: nothing changes.
function keepAliveWhileBusy(go) {
    let busy = 0;
    const timers = go._scheduledTimeouts;
    const gojs = go.importObject && go.importObject.gojs;
    const schedule = gojs && gojs["runtime.scheduleTimeoutEvent"];
    const apply = (t) => {
        if (t && typeof t === "object" && typeof t.unref === "function") {
            if (busy > 0) t.ref();
            else t.unref();
        }
    };
    if (timers instanceof Map && typeof schedule === "function" && typeof go._nextCallbackTimeoutID === "number") {
        gojs["runtime.scheduleTimeoutEvent"] = (sp) => {
            schedule(sp);
            apply(timers.get(go._nextCallbackTimeoutID - 1));
        };
    }
    const update = () => {
        if (timers instanceof Map) for (const t of timers.values()) apply(t);
    };
    return () => {
        if (++busy === 1) update();
        let released = false;
        return () => {
            if (released) return;
            released = true;
            if (--busy === 0) update();
        };
    };
}

function exitedError(state) {
    const detail = state.cause !== undefined ? describeError(state.cause) : `exit code ${state.exitCode}`;
    return new Error(
        `Code Mode: the Go core has exited (${detail}); this API object no longer works. ` +
            "Create a new one with IoCodeModeFactory().",
        { cause: state.cause },
    );
}

// ---------------------------------------------------------------------------
// The QuickJS asset: fetched and compiled once per factory

function resolveAssetURL(location) {
    if (isNode) {
        // An absolute URL (http:, https:, file:, data:, blob:) or a path.
        if (/^(https?|file|data|blob):/i.test(location)) return new URL(location);
        return null; // a filesystem path
    }
    const base =
        (typeof document !== "undefined" && document.baseURI) ||
        (globalThis.location && globalThis.location.href) ||
        MODULE_URL;
    return new URL(location, base);
}

async function loadQuickJS(location) {
    try {
        const url = resolveAssetURL(location);
        if (url) return await loadWasmURL(url);
        const path = await nodeModule("path");
        return await WebAssembly.compile(await readFileBytes(path.resolve(location)));
    } catch (cause) {
        throw new Error(`Cannot load the QuickJS asset from ${location}: ${describeError(cause)}`, { cause });
    }
}

// ---------------------------------------------------------------------------
// Wrapping the core's API objects

// Calls fn (which may throw or return a promise) unless the core exited or
// the owner was disposed; a pending call rejects when the core exits.
function makeGuard(core, isDisposed) {
    const check = () => {
        if (core.state.exited) throw exitedError(core.state);
        const why = isDisposed();
        if (why) throw new Error(why);
    };
    const sync = (fn) => {
        check();
        return fn();
    };
    const async = (fn) => {
        let release;
        try {
            check();
            release = core.hold();
            const value = fn();
            if (!value || typeof value.then !== "function") {
                release();
                return Promise.resolve(value);
            }
            const settled = Promise.race([
                value,
                core.exited.then(() => {
                    throw exitedError(core.state);
                }),
            ]);
            settled.then(release, release);
            return settled;
        } catch (err) {
            if (release) release();
            return Promise.reject(err);
        }
    };
    return { check, sync, async };
}

// Marks a JSON Schema object the way the Vercel AI SDK's jsonSchema() helper
// does (a Symbol.for("vercel.ai.schema") flag plus jsonSchema and validate
// properties), so `tool({ inputSchema })` and generateText take it as is.
// The markers are non-enumerable: JSON.stringify(schema) and spreading stay
// plain JSON Schema for every other SDK.
function markSchema(schema) {
    if (!schema || typeof schema !== "object" || Object.isFrozen(schema)) return schema;
    const plain = JSON.parse(JSON.stringify(schema));
    Object.defineProperty(schema, AI_SDK_SCHEMA, { value: true });
    Object.defineProperty(schema, "jsonSchema", { value: plain });
    Object.defineProperty(schema, "validate", { value: undefined });
    return schema;
}

function isAbortSignalLike(signal) {
    return (
        signal !== null &&
        typeof signal === "object" &&
        typeof signal.aborted === "boolean" &&
        typeof signal.addEventListener === "function" &&
        typeof signal.removeEventListener === "function"
    );
}

// Accepts {signal, context} (Code Mode) as well as {abortSignal,
// experimental_context} (the Vercel AI SDK's tool options).
function normalizeRunOptions(options) {
    if (options === undefined || options === null) return {};
    if (typeof options !== "object") {
        throw new TypeError(`execute(args, options): options: expected an object, got ${typeof options}`);
    }
    const out = {};
    const signal = options.signal !== undefined && options.signal !== null ? options.signal : options.abortSignal;
    if (signal !== undefined && signal !== null) {
        if (!isAbortSignalLike(signal)) {
            throw new TypeError("execute(args, options): options.signal: expected an AbortSignal");
        }
        out.signal = signal;
    }
    if ("context" in options && options.context !== undefined) out.context = options.context;
    else if (options.experimental_context !== undefined) out.context = options.experimental_context;
    return out;
}

function abortReason(signal) {
    if (signal.reason !== undefined) return signal.reason;
    const err = new Error("This operation was aborted");
    err.name = "AbortError";
    return err;
}

function wrapLlmTool(tool, guard) {
    const goExecute = tool.execute;
    const execute = (args, options) => {
        let opts;
        try {
            opts = normalizeRunOptions(options);
        } catch (err) {
            return Promise.reject(err);
        }
        const signal = opts.signal;
        if (signal && signal.aborted) return Promise.reject(abortReason(signal));
        const run = guard.async(() => goExecute(args, opts));
        if (!signal) return run;
        // The core rejects with the signal's reason too; racing here makes
        // the rejection immediate whatever the core is doing.
        return new Promise((resolve, reject) => {
            const onAbort = () => reject(abortReason(signal));
            signal.addEventListener("abort", onAbort, { once: true });
            run.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
        });
    };
    return {
        name: tool.name,
        description: tool.description,
        inputSchema: markSchema(tool.inputSchema),
        execute,
    };
}

function wrapSession(session, core, factoryDisposed) {
    let disposed = false;
    const guard = makeGuard(core, () => {
        if (factoryDisposed()) return "Code Mode: this session's factory has been disposed.";
        if (disposed) return "Code Mode: this session has been disposed; create a new one with createSession().";
        return "";
    });
    return {
        getLlmTools() {
            return guard.sync(() => Array.from(session.getLlmTools(), (t) => wrapLlmTool(t, guard)));
        },
        getSystemInstruction() {
            return guard.sync(() => session.getSystemInstruction());
        },
        dispose() {
            if (disposed || factoryDisposed() || core.state.exited) {
                disposed = true;
                return;
            }
            disposed = true;
            session.dispose();
        },
    };
}

function wrapApi(api, core) {
    let disposed = false;
    const isDisposed = () => disposed;
    const guard = makeGuard(core, () =>
        disposed ? "Code Mode: this instance has been disposed; create a new one with IoCodeModeFactory()." : "",
    );
    const wrapUnregister = (unregister) => {
        let done = false;
        return () => {
            if (done || disposed || core.state.exited) return;
            done = true;
            unregister();
        };
    };
    return {
        registerTool(tool) {
            return guard.sync(() => wrapUnregister(api.registerTool(tool)));
        },
        registerTools(tools) {
            return guard.sync(() => wrapUnregister(api.registerTools(tools)));
        },
        listTools() {
            return guard.sync(() => Array.from(api.listTools()));
        },
        createSession(options) {
            return guard.sync(() => wrapSession(api.createSession(options), core, isDisposed));
        },
        dispose() {
            if (disposed || core.state.exited) {
                disposed = true;
                return;
            }
            disposed = true;
            api.dispose();
        },
    };
}

// ---------------------------------------------------------------------------
// The entry point

/**
 * Creates a Code Mode instance.
 * @param {import("./index.d.ts").IoCodeMode.Config} config
 * @returns {Promise<import("./index.d.ts").IoCodeMode.API>}
 */
export async function IoCodeModeFactory(config) {
    if (config === null || typeof config !== "object") {
        throw new TypeError(`config: expected an object, got ${config === null ? "null" : typeof config}`);
    }
    const location = config.wasmLocation;
    if (typeof location !== "string" || location === "") {
        throw new TypeError(
            "config.wasmLocation: expected a non-empty string (the URL, or in Node.js the file path, " +
                `of emscripten-module.wasm), got ${location === "" ? "an empty string" : location === null ? "null" : typeof location}`,
        );
    }
    const [core, module] = await Promise.all([loadCore(), loadQuickJS(location)]);
    if (core.state.exited) throw exitedError(core.state);
    const release = core.hold();
    try {
        const api = await Promise.race([
            core.api.newFactory(config, module),
            core.exited.then(() => {
                throw exitedError(core.state);
            }),
        ]);
        return wrapApi(api, core);
    } finally {
        release();
    }
}

export default IoCodeModeFactory;
