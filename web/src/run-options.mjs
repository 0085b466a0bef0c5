// An LLM tool's execute, in both engine modes (wrap.mjs on the calling
// thread, worker-runs.mjs for a worker): the options of the common LLM
// SDKs taken as they are, the input schema marked for the Vercel AI SDK
// (and its results sent to it as a success or a failure), and the run's AbortSignal watched with one listener however many runs
// share it.

import { describe, describeError } from "./env.mjs";
import { field } from "./fields.mjs";
import { KeptSet, KeptWeakMap, arrayOf, isArray } from "./intrinsics.mjs";

// Taken at load: a run's arguments are copied with the page's JSON as it
// was then (a JSON stubbed later changed every run's arguments).
const { parse, stringify } = JSON;

const AI_SDK_SCHEMA = Symbol.for("vercel.ai.schema");

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

// The Vercel AI SDK's toModelOutput, what an LLM tool's output is sent to
// the model as: a failed run or call (ok: false) as "error-json", which
// providers mark as an error (Anthropic's tool_result is_error), where the
// SDK's default sent it as "json", a success; the whole result goes, its
// logs too. Anything else as the SDK's default sends it ("json"; a string,
// from an execute of the caller's, as "text"). v6 and v7 pass { toolCallId,
// input, output }, v5 (which Mastra runs) the output itself: none of these
// tools' results has a toolCallId. Neither is read from Object.prototype
// (field()): a polluted toolCallId sent every result as null, an ok: false
// every search's hits as an error.
/**
 * @param {any} o
 * @returns {import("../index.d.ts").IoCodeMode.LlmToolModelOutput}
 */
export function toModelOutput(o) {
    const out = typeof field(o, "toolCallId") == "string" ? field(o, "output") : o;
    return typeof out == "string" ? { type: "text", value: out } : { type: field(out, "ok") === false ? "error-json" : "json", value: out ?? null };
}
// Frozen: it is one function for every factory's tools, and lifetime.mjs's
// attach() marks each function of a tool it can extend with the tool's
// keeper, which kept the first factory (its worker) alive for good.
Object.freeze(toModelOutput);

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
// experimental_context} (the Vercel AI SDK's tool options) and Mastra's
// requestContext. Each is read
// once, never from Object.prototype (fields.mjs); every field of the
// answer is set, undefined or not, so that an absent one is not read from
// there either.
/**
 * @param {any} options
 * @returns {{ signal?: AbortSignal, context?: unknown, onEvent?: (event: any) => void }}
 */
export function normalizeRunOptions(options) {
    if (options === undefined || options === null) return { signal: undefined, context: undefined, onEvent: undefined };
    if (typeof options !== "object") {
        throw new TypeError(`execute(args, options): options: expected an object, got ${typeof options}`);
    }
    // A field that cannot be read (a revoked Proxy, a getter that throws)
    // is named: its raw words ("Cannot perform 'getOwnPropertyDescriptor'
    // on a proxy that has been revoked") named nothing.
    /** @param {string} key */
    const read = (key) => {
        try {
            return field(options, key);
        } catch (err) {
            throw new TypeError(`execute(args, options): options.${key}: cannot be read (${describeError(err)})`);
        }
    };
    // The message names the key the caller wrote (the AI SDK's abortSignal).
    let key = "signal";
    let signal = read("signal");
    if (signal === undefined || signal === null) {
        const other = read("abortSignal");
        if (other !== undefined && other !== null) {
            key = "abortSignal";
            signal = other;
        }
    }
    if (signal === null) signal = undefined;
    if (signal !== undefined && !isAbortSignalLike(signal)) {
        throw new TypeError(`execute(args, options): options.${key}: expected an AbortSignal, got ${describe(signal)}`);
    }
    let context = read("context");
    if (context === undefined) context = read("experimental_context");
    if (context === undefined) context = read("requestContext"); // Mastra's
    // As config.onEvent: anything else but a function (or none) is a
    // mistake, not a run without events.
    const onEvent = read("onEvent");
    if (onEvent !== undefined && typeof onEvent !== "function") {
        throw new TypeError(`execute(args, options): options.onEvent: expected a function, got ${describe(onEvent)}`);
    }
    return { signal, context, onEvent };
}

/**
 * An LLM tool's arguments, read once and as the core reads them, as JSON:
 * onEvent's run-start and the core then see the same program (a code
 * getter that answered twice showed one and ran another). Arguments JSON
 * cannot read (a throwing getter, a Proxy, a BigInt inside) become a
 * stand-in the core refuses as "not JSON", the INVALID_INPUT the calling
 * thread gave. A search's query (search, true: searchTools) is cut to
 * QUERY_UNITS as it is written: the core reads its first 1,000 characters,
 * and a query of 10 million was written twice, read back and decoded whole
 * first (0.3 s of CPU in Node, 1.7 s in Chromium's worker mode).
 * In a search's arguments, a number JSON has no form for (Infinity, NaN) is
 * written as its string (queryCut), as the sandbox's tool_search converts
 * it: JSON's null read as no limit, and searchTools({ limit: Infinity })
 * answered with the default 10 where every other bad limit is refused.
 * (executeCode's are written as null: code: Infinity is refused as no code,
 * where "Infinity" would run.)
 * @param {unknown} args
 * @param {boolean} [search]
 */
export function argsOnce(args, search) {
    if (search && typeof args === "string" && args.length > QUERY_UNITS) args = searchText(args);
    if (args === null || typeof args !== "object") return args;
    try {
        return parse(search ? stringify(args, queryCut()) : stringify(args));
    } catch {
        return { args: 0n };
    }
}

// 1,000 characters are at most 2,000 UTF-16 units: a surrogate pair split
// at the cut is past the core's own cut to 1,000.
const QUERY_UNITS = 2000;

// Text that begins as an object's JSON does (white space as the core's
// llmargs.go argsKey skips it): as a search's arguments or query, the core
// may read it as the arguments (unnest), or word what is wrong with them
// (brokenArgs), so it is not cut.
const OBJECT_TEXT = /^[ \t\n\f\r]*\{/;

/**
 * A long search's arguments given as text, read as the core reads them
 * (llmargs.go parse): the JSON text of an object, once or encoded twice, is
 * that object; other text is the query itself, unless it begins as an
 * object does, or does once decoded. argsOnce then cuts the query, which
 * the text's own form kept whole: a query of 10 million characters went
 * into the core whole.
 * @param {string} text
 * @returns {unknown}
 */
function searchText(text) {
    let v, inner;
    try {
        v = parse(text);
        if (typeof v === "string") v = parse((inner = v));
    } catch {
        v = undefined;
    }
    if (v !== null && typeof v === "object" && !isArray(v) && !unwritable(v)) return v;
    // Here or once decoded, such text is the core's to read (a comma before
    // its closing brace) or to word what is wrong with it.
    return OBJECT_TEXT.test(text) || (inner !== undefined && OBJECT_TEXT.test(inner)) ? text : { query: text };
}

/**
 * Whether an argument is a number past float64's range (1e400), which
 * JSON.parse reads as Infinity and the object's JSON would write as null,
 * the default limit: the core words it ("limit: expected an integer
 * 1..50, got the number 1e400"), as in short text.
 * @param {object} args
 */
function unwritable(args) {
    for (const k in args) {
        const x = /** @type {Record<string, unknown>} */ (args)[k];
        if (typeof x === "number" && x - x !== 0) return true;
    }
    return false;
}

/**
 * The replacer that cuts the top-level object's query, once a stringify,
 * and writes Infinity, -Infinity and NaN as their strings ("Infinity"),
 * which the core refuses by name where a number belongs.
 */
function queryCut() {
    /** @type {unknown} */
    let top;
    /** @param {string} k @param {unknown} v @this {unknown} */
    return function (k, v) {
        if (k === "") top = v;
        else if (k === "query" && this === top && typeof v === "string" && v.length > QUERY_UNITS && !OBJECT_TEXT.test(v)) return v.slice(0, QUERY_UNITS);
        return typeof v === "number" && v - v !== 0 ? `${v}` : v;
    };
}

/** @param {AbortSignal} signal */
export function abortReason(signal) {
    if (signal.reason !== undefined) return signal.reason;
    const err = new Error("This operation was aborted");
    err.name = "AbortError";
    return err;
}

// The runs given one AbortSignal share one 'abort' listener on it, there
// while one of them is in flight: a listener per run made Node print a
// MaxListenersExceededWarning past 10 runs on one app-wide signal, a
// legal use (and a page's own listeners count against the same limit).
/** @type {WeakMap<object, { waiters: Set<() => void>, fire: () => void }>} */
const abortWatch = new KeptWeakMap();

/**
 * Calls `fn` once when `signal` aborts (its caller checks `aborted` first).
 * The function it returns forgets `fn`; the last one forgotten takes the
 * listener off the signal.
 * @param {AbortSignal} signal
 * @param {() => void} fn
 * @returns {() => void}
 */
export function whenAborted(signal, fn) {
    let entry = abortWatch.get(signal);
    if (!entry) {
        /** @type {Set<() => void>} */
        const waiters = new KeptSet();
        const fire = () => {
            if (abortWatch.get(signal) === entry) abortWatch.delete(signal);
            const all = arrayOf(waiters);
            waiters.clear();
            // Each run ends whatever another does, as with a listener each.
            let failed = false;
            let first;
            for (let i = 0; i < all.length; i++) {
                try {
                    all[i]();
                } catch (err) {
                    if (!failed) {
                        failed = true;
                        first = err;
                    }
                }
            }
            if (failed) throw first;
        };
        entry = { waiters, fire };
        abortWatch.set(signal, entry);
        signal.addEventListener("abort", fire, { once: true });
    }
    const own = entry;
    const waiter = () => fn();
    own.waiters.add(waiter);
    return () => {
        if (!own.waiters.delete(waiter) || own.waiters.size > 0 || abortWatch.get(signal) !== own) return;
        abortWatch.delete(signal);
        signal.removeEventListener("abort", own.fire);
    };
}
