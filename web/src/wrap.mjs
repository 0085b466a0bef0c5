// Wrapping the core's API objects: every call checks that the core still
// runs and that its owner is not disposed, and the LLM tools take the
// options of the common LLM SDKs as they are.

import { exitedError } from "./core.mjs";

/**
 * @typedef {import("../index.d.ts").IoCodeMode.API} API
 * @typedef {import("../index.d.ts").IoCodeMode.Session} Session
 * @typedef {import("../index.d.ts").IoCodeMode.LlmTool} LlmTool
 * @typedef {import("./core.mjs").Core} Core
 * @typedef {{ check: () => void, sync: <T>(fn: () => T) => T, async: (fn: () => any) => Promise<any> }} Guard
 */

const AI_SDK_SCHEMA = Symbol.for("vercel.ai.schema");

// Calls fn (which may throw or return a promise) unless the core exited or
// the owner was disposed; a pending call rejects when the core exits.
/**
 * @param {Core} core
 * @param {() => string} isDisposed the reason the owner is unusable, or ""
 * @returns {Guard}
 */
function makeGuard(core, isDisposed) {
    const check = () => {
        if (core.state.exited) throw exitedError(core.state);
        const why = isDisposed();
        if (why) throw new Error(why);
    };
    /** @type {<T>(fn: () => T) => T} */
    const sync = (fn) => {
        check();
        return fn();
    };
    /** @param {() => any} fn */
    const async = (fn) => {
        /** @type {(() => void) | undefined} */
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
/** @param {any} schema */
export function markSchema(schema) {
    if (!schema || typeof schema !== "object" || Object.isFrozen(schema)) return schema;
    const plain = JSON.parse(JSON.stringify(schema));
    Object.defineProperty(schema, AI_SDK_SCHEMA, { value: true });
    Object.defineProperty(schema, "jsonSchema", { value: plain });
    Object.defineProperty(schema, "validate", { value: undefined });
    return schema;
}

/**
 * @param {any} signal
 * @returns {signal is AbortSignal}
 */
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
/**
 * @param {any} options
 * @returns {{ signal?: AbortSignal, context?: unknown }}
 */
export function normalizeRunOptions(options) {
    if (options === undefined || options === null) return {};
    if (typeof options !== "object") {
        throw new TypeError(`execute(args, options): options: expected an object, got ${typeof options}`);
    }
    /** @type {{ signal?: AbortSignal, context?: unknown }} */
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

/** @param {AbortSignal} signal */
export function abortReason(signal) {
    if (signal.reason !== undefined) return signal.reason;
    const err = new Error("This operation was aborted");
    err.name = "AbortError";
    return err;
}

/**
 * @param {any} tool the core's LLM tool
 * @param {Guard} guard
 * @returns {LlmTool}
 */
function wrapLlmTool(tool, guard) {
    const goExecute = tool.execute;
    /** @type {(args: any, options?: any) => Promise<any>} */
    const execute = (args, options) => {
        let opts;
        try {
            opts = normalizeRunOptions(options);
        } catch (err) {
            return Promise.reject(err);
        }
        const signal = opts.signal;
        if (signal && signal.aborted) return Promise.reject(abortReason(signal));
        // The options as given go along, for the core's unknown-key check.
        const run = guard.async(() => goExecute(args, opts, options));
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

/**
 * @param {any} session the core's session
 * @param {Core} core
 * @param {() => boolean} factoryDisposed
 * @returns {Session}
 */
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

/**
 * @param {any} api the core's API object
 * @param {Core} core
 * @returns {API}
 */
export function wrapApi(api, core) {
    let disposed = false;
    const isDisposed = () => disposed;
    const guard = makeGuard(core, () =>
        disposed ? "Code Mode: this instance has been disposed; create a new one with IoCodeModeFactory()." : "",
    );
    /** @param {() => void} unregister */
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
