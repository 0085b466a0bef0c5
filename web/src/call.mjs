// A page tool call, for the Go core (wasm/toolcall.go): one call from Go
// starts it and one reply back ends it. Between the two, everything runs
// here: the input's JSON.parse, the input schema's own validation, the
// tool's execute with its {context, signal}, the result's conversion to
// JSON (tojson.mjs). Done from Go, the same steps took some fifteen
// boundary crossings per call, each Go reference to a JavaScript value
// with its own finalizer, and an AbortController made from Go.

import { describeError } from "./env.mjs";
import { inputRefused } from "./runs.mjs";
import { KeptMap, KeptWeakMap, newAbortController, now, push, queueMicrotask, then, uncurry } from "./intrinsics.mjs";
import { Converted, LARGE_RESULT, TooLarge, charCodeAt, cutText, notDataKind, toJSON } from "./tojson.mjs";

// How a call ended, as the core reads it (wasm/toolcall.go).
export const REPLY = Object.freeze({
    ok: 0, // payload: the result's JSON text, or undefined (no value); warnings: a JSON array of strings, or undefined
    threw: 1, // payload: what execute threw or rejected with, or what its value failed (settleValue, the core's check); warnings: the characters cut off its message (cutThrown), or undefined
    validationThrew: 2, // payload: what the schema's validation threw or rejected with; warnings: as threw's
    rejected: 3, // payload: the schema's message; warnings: as threw's
    badInput: 4, // payload: what JSON.parse threw
    checked: 5, // as ok, the result being the one the core's check took (no payload)
});

const { parse, stringify } = JSON;

// The errors of an input its schema library's check refused, as the core
// words them from a reply (wasm/toolcall.go pageAnswer), and worker mode's
// page does (worker-protocol.mjs).
/** @param {string} name @param {string} message */
export const inputRejected = (name, message) => `${name}: input rejected by its schema: ${message}`;
/** @param {string} name @param {string} message */
export const validationFailed = (name, message) => `${name}: the input schema's validation failed: ${message}`;

/**
 * A tool's value as the core takes it, in both engine modes: its output
 * schema library's own check (a Zod refinement), on the value execute
 * returned, then its conversion to JSON (tojson.mjs), whose text the run's
 * memory must hold (fits). A function, a Symbol or a BigInt as the value
 * itself fails the call (inside an object or array each converts, with a
 * report). Synchronous without a library check. A value already converted
 * (a worker's answer from the page) is taken as it is.
 * @param {unknown} v
 * @param {string} name the tool's
 * @param {Function | undefined} validateOut the output schema's own validation (schema.mjs)
 * @param {number} [memoryLimitMB] the run's memory limit (none: not checked here)
 * @param {Answering} [progress] told of a large result as it is converted, and once it is
 * @returns {Converted | Promise<Converted>}
 */
export function settleValue(v, name, validateOut, memoryLimitMB, progress) {
    if (v instanceof Converted) return v;
    if (typeof validateOut !== "function") return convertValue(v, name, memoryLimitMB, progress);
    const kind = notDataKind(v);
    if (kind) throw new Error(`the tool returned a ${kind}, which is not JSON data`);
    return (async () => {
        let r;
        try {
            r = await validateOut(v);
        } catch (err) {
            throw new Error(`${name}: the output schema's validation failed: ${describeError(err)}`);
        }
        if (!r || !r.ok) throw new Error(`${name}: the tool's result does not match its outputSchema: ${String(r && r.message)}`);
        return convertValue(v, name, memoryLimitMB, progress);
    })();
}

/**
 * How the page tells the core of a large result it has not handed over
 * (codemode.Call.Answering): at least `bytes` of JSON made so far (final
 * false), or the whole text's length (final true). A run that times out
 * meanwhile then says that the tool had answered, and where the time
 * went, not that it waited for the tool.
 * @typedef {(bytes: number, final: boolean) => void} Answering
 */

/**
 * @param {unknown} v
 * @param {string} name
 * @param {number | undefined} memoryLimitMB
 * @param {Answering | undefined} progress
 */
function convertValue(v, name, memoryLimitMB, progress) {
    if (v === undefined) return new Converted(undefined, []);
    const kind = notDataKind(v);
    if (kind) throw new Error(`the tool returned a ${kind}, which is not JSON data`);
    let out;
    // Twice the limit: what toJSON counts is UTF-16 units, and a text of
    // surrogate pairs has half as many characters as the core counts them.
    const limit = /** @type {number} */ (memoryLimitMB) * 1048576;
    try {
        out = toJSON(v, `tools.${name} result`, progress && ((bytes) => progress(bytes, false)), limit > 0 ? 2 * limit : Infinity);
    } catch (err) {
        if (err instanceof TooLarge) throw new Error(tooLarge(name, `more than ${limit}`, memoryLimitMB));
        throw new Error(`the tool returned a value that is not JSON data: ${describeError(err)}`);
    }
    if (progress && out.json !== undefined && out.json.length >= LARGE_RESULT) progress(out.json.length, true);
    return fits(new Converted(out.json, out.warnings), name, memoryLimitMB);
}

// Builtins as they were at load: a page's String.prototype.charCodeAt or
// RegExp.prototype.exec must not change how a text is counted or cut.
const regExpExec = uncurry(RegExp.prototype.exec);
const stringSlice = uncurry(String.prototype.slice);
const SURROGATE = /[\ud800-\udfff]/;

/**
 * The characters of text from index `from` on as the core counts them:
 * code points (a lone surrogate is one, U+FFFD in UTF-8), where a length
 * counts a surrogate pair as two. A text without surrogates (most) takes
 * a single search.
 * @param {string} text
 * @param {number} from
 */
function codePoints(text, from) {
    let n = text.length - from;
    if (regExpExec(SURROGATE, text) === null) return n;
    for (let i = from; i < text.length - 1; i++) {
        const u = charCodeAt(text, i);
        if (u >= 0xd800 && u < 0xdc00) {
            const l = charCodeAt(text, i + 1);
            if (l >= 0xdc00 && l < 0xe000) n--, i++;
        }
    }
    return n;
}

/**
 * A result whose JSON text has more characters than the run's memory limit
 * holds fails its call here, in the core's words (toolcall.go
 * checkOutput), before the text is copied into the core or posted to the
 * worker: the WebAssembly memory that took it in never shrank, though the
 * core refused it. Only a text longer than the limit is counted.
 * @param {Converted} c
 * @param {string} name
 * @param {number | undefined} memoryLimitMB
 */
function fits(c, name, memoryLimitMB) {
    const text = c.json;
    const limit = /** @type {number} */ (memoryLimitMB) * 1048576;
    if (text === undefined || !(text.length > limit)) return c;
    const n = codePoints(text, 0);
    if (n <= limit) return c;
    throw new Error(tooLarge(name, n, memoryLimitMB));
}

/**
 * The core's words for a result too large for the run (toolcall.go checkOutput).
 * @param {string} name @param {number | string} n @param {number | undefined} memoryLimitMB
 */
const tooLarge = (name, n, memoryLimitMB) =>
    `tool ${name} returned ${n} characters of JSON, more than the run's memory limit (${memoryLimitMB} MB) can hold: ask it for less (a page, a filter), if its input allows`;

// The most of a thrown message the core is given: it shows 1,000
// characters (toolcall.go maxReasonChars), and how many more there were.
const THROWN_KEPT = 4096;

// Errors whose message, and onToolCall's decisions whose reason, the page
// cut (cutThrown, cutReason; in a worker, rebuilt from what the page cut):
// the characters it dropped.
/** @type {WeakMap<object, number>} */
const cutOnPage = new KeptWeakMap();

/**
 * err, a worker's rebuilt error or decision, with the count of characters
 * the page cut off its message or reason, if it cut any.
 * @template {object} T
 * @param {T} err
 * @param {unknown} dropped
 * @returns {T}
 */
export function cutBefore(err, dropped) {
    if (typeof dropped === "number") cutOnPage.set(err, dropped);
    return err;
}

/**
 * The characters the page cut off x's message or reason (cutBefore), if any.
 * @param {unknown} x
 * @returns {number | undefined}
 */
export const droppedOnPage = (x) => cutOnPage.get(/** @type {object} */ (x));

/**
 * text cut to THROWN_KEPT UTF-16 units, and the count of characters dropped
 * (undefined when it is that short).
 * @param {string} text
 * @returns {[string, number | undefined]}
 */
function cutLong(text) {
    if (text.length <= THROWN_KEPT) return [text, undefined];
    const kept = cutText(text, THROWN_KEPT);
    return [kept, codePoints(text, kept.length)];
}

// What the core shows of a failed call's message (toolcall.go maxReasonChars).
const REASON_CHARS = 1000;

/**
 * A failed call's message as the program's ToolError and the call's
 * toolCalls record give it (toolcall.go failure): its first 1,000
 * characters, then how many more there were (`… [89999000 more
 * characters]`), counted as the core counts them, in code points. What a
 * tool-result event says of the call: it passed a tool's message of 90
 * million characters through whole.
 * @param {string} text
 */
export function asFailure(text) {
    if (text.length <= REASON_CHARS) return text;
    let i = 0;
    for (let k = 0; k < REASON_CHARS && i < text.length; k++) {
        const u = charCodeAt(text, i);
        i += u >= 0xd800 && u < 0xdc00 && i + 1 < text.length && (charCodeAt(text, i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    }
    const more = codePoints(text, i);
    // A slice, not cutText: a lone high surrogate at the end is a character kept.
    return more === 0 ? text : `${stringSlice(text, 0, i)}… [${more} more character${more === 1 ? "" : "s"}]`;
}

/**
 * onToolCall's decision (askInterceptor's copy) with a reason longer than
 * THROWN_KEPT cut to that, and marked with the count dropped: the core,
 * or the worker it is posted to, read a reason of 90 million characters
 * whole (the core's memory grew by 182 MB) to show 1,000 of them.
 * @param {Record<string, unknown>} decision
 */
export function cutReason(decision) {
    if (typeof decision.reason !== "string") return decision;
    // By index: the page's Array iterator of the moment may be broken.
    const cut = cutLong(decision.reason);
    decision.reason = cut[0];
    return cutBefore(decision, cut[1]);
}

/**
 * What a tool, its input schema's validation or onToolCall threw, as the
 * core reads it (jsbridge.ErrorFromJS: an object's name and message, else
 * String of it, a string itself), with a message longer than THROWN_KEPT
 * cut to that and the count of characters dropped: copied in whole, a
 * message of 90 million characters grew the core's WebAssembly memory,
 * which never shrinks, by 260 MB, to show 1,000 of them; posted to a
 * worker whole, it was a copy of as many in its heap. A name that long is
 * dropped (the core shows none). Anything else is left to the core as it
 * is.
 * @param {unknown} err
 * @returns {[unknown, number | undefined]} the error to send, and the characters dropped
 */
export function cutThrown(err) {
    const already = droppedOnPage(err);
    if (already !== undefined) return [err, already];
    let message;
    let name;
    try {
        if (typeof err === "string") message = err;
        else if (err !== null && (typeof err === "object" || typeof err === "function")) {
            message = /** @type {any} */ (err).message;
            name = /** @type {any} */ (err).name;
            if (typeof message !== "string") message = String(err);
        }
    } catch {
        return [err, undefined];
    }
    if (typeof message !== "string") return [err, undefined];
    const cut = cutLong(message);
    if (cut[1] === undefined) return [typeof name === "string" && name.length > THROWN_KEPT ? new Error(message) : err, undefined];
    return [new Error(cut[0]), cut[1]];
}

/**
 * The key of a call's settle step on the options this module gives
 * execute: the page's side of the call (runs.mjs callTool) runs it on
 * execute's value before it reports the call (tool-result), so that the
 * report says whether the result passed its schema.
 */
export const SETTLE = Symbol("Code Mode tool result");

/**
 * A tool call's abort signal, made on first read: an AbortController costs
 * some 10 µs in Node (most of a tool call's page side), and most tools
 * never read their signal. abort() before the first read makes the signal
 * already aborted, with the first reason, as the controller would; later
 * aborts change nothing.
 */
export class CallSignal {
    constructor() {
        /** @type {ReturnType<typeof newAbortController> | undefined} */
        this.ctrl = undefined;
        this.aborted = false;
        /** @type {unknown} */
        this.reason = undefined;
        /**
         * The core's report of a large result not yet handed over
         * (pageCaller's; a worker's tool proxy calls it with the page's
         * reports), while the call is live.
         * @type {Answering | undefined}
         */
        this.answering = undefined;
    }

    /** @returns {AbortSignal} */
    get signal() {
        if (!this.ctrl) {
            this.ctrl = newAbortController();
            if (this.aborted) this.ctrl.abort(this.reason);
        }
        return this.ctrl.signal;
    }

    /** @param {unknown} reason */
    abort(reason) {
        if (this.aborted) return;
        this.aborted = true;
        this.reason = reason;
        if (this.ctrl) this.ctrl.abort(reason);
    }
}

/**
 * The key of the run's memory limit (MB) on the options this module gives
 * execute: a worker's call sends it to the page, which refuses a result
 * too long for it before posting it (settleValue).
 */
export const LIMIT = Symbol("Code Mode memory limit");

/**
 * The key of a call's CallSignal on the options this module gives execute:
 * the page's side of the call (runs.mjs callTool) aborts that one rather
 * than make a second signal that follows it.
 */
export const CALL = Symbol("Code Mode tool call");

/**
 * The key of what the schema library's check made of the input (schema.mjs
 * Verdict's value), which execute gets in place of the input as written.
 */
export const PARSED = Symbol("Code Mode checked input");

/**
 * Makes the core's caller of page tools. reply is the core's
 * (jsbridge.ReplyFunc): reply(batch) answers every call that ended since
 * the last reply, batch being [id, 3, kind, payload, warnings, ...];
 * reply(id, kind, payload[, warnings]) answers a call that ended alone. A
 * call the core gave up on (its run ended) is aborted through abort(id,
 * reason) and gets no reply. progress(id, bytes, final) tells the core of
 * a large result the call converts (Answering).
 * @param {(...answers: unknown[]) => void} reply
 * @param {(id: number, bytes: number, final: boolean) => void} [progress]
 */
export function pageCaller(reply, progress) {
    /** @type {Map<number, CallSignal>} the calls in flight */
    const live = new KeptMap();
    // Calls that end together (a Promise.all of tool calls) are answered in
    // one crossing, a microtask after the first: each crossing into Go is
    // an event that runs every goroutine it wakes, and a run woken once
    // per answer drained QuickJS's jobs once per answer.
    /** @type {unknown[]} */
    let batch = [];
    const flush = () => {
        const b = batch;
        batch = [];
        try {
            // A lone answer (each of a loop's awaited calls) goes as
            // reply(id, kind, payload[, warnings]): the core reads the
            // call's own arguments instead of an array, its type and its
            // length, each a crossing and a reference with a finalizer.
            if (b.length > 5) reply(b);
            else if (b[4] === undefined) reply(b[0], b[2], b[3]);
            else reply(b[0], b[2], b[3], b[4]);
        } catch {
            // The Go program has exited: nobody waits for these answers.
        }
    };
    /**
     * @param {number} id
     * @param {number} kind
     * @param {unknown} [payload]
     * @param {string | number} [warnings] a threw reply's: the characters cut off its message
     */
    const done = (id, kind, payload, warnings) => {
        if (!live.delete(id)) return;
        if (batch.length === 0) queueMicrotask(flush);
        push(batch, id, 3, kind, payload, warnings);
    };
    /** @param {number} id @param {unknown} err @param {number} [kind] */
    const threw = (id, err, kind = REPLY.threw) => {
        // By index: the page's Array iterator may be broken.
        const cut = cutThrown(err);
        done(id, kind, cut[0], cut[1]);
    };
    /**
     * @param {number} id
     * @param {Function[]} execs the converter's execute functions (schema.mjs convertTools)
     * @param {([Function | undefined, Function | undefined] | undefined)[]} validates their input and output schemas' own validations
     * @param {number} i the tool's index in both
     * @param {string} name
     * @param {string} text the input's JSON text
     * @param {unknown} context the run's token
     * @param {((id: number, json: string) => string) | undefined} check the core's check of a result
     *   against the tool's outputSchema ("" when it passed), for a tool that has one
     * @param {number} memoryLimitMB the run's
     */
    const run = async (id, execs, validates, i, name, text, context, check, memoryLimitMB) => {
        const cs = live.get(id);
        if (!cs) return; // aborted before it started: execute never starts
        let input;
        try {
            input = parse(text);
        } catch (err) {
            return done(id, REPLY.badInput, err);
        }
        const pair = validates[i];
        const validate = pair && pair[0];
        /** @type {[unknown] | undefined} */
        let parsed;
        if (typeof validate === "function") {
            // The schema library's own check (refinements JSON Schema
            // cannot express), after the core's JSON Schema check. A
            // refusal is reported (onEvent) with the error the core words
            // from the reply (wasm/toolcall.go pageAnswer).
            let r;
            const t0 = now();
            try {
                r = await validate(input);
            } catch (err) {
                inputRefused(context, name, input, validationFailed(name, describeError(err)), t0);
                return threw(id, err, REPLY.validationThrew);
            }
            if (!r || !r.ok) {
                const message = String(r && r.message);
                inputRefused(context, name, input, inputRejected(name, message), t0);
                return threw(id, message, REPLY.rejected);
            }
            if (!live.has(id)) return; // the run ended meanwhile: execute never starts
            parsed = r.value;
        }
        const exec = execs[i]; // as it was when registered
        const validateOut = pair && pair[1];
        /**
         * execute's value as the core takes it: settleValue, then the
         * core's own check against the outputSchema. A worker's answer
         * that waits for that check's verdict (the page reports the call
         * once it has it) gets it.
         * @param {unknown} value
         */
        const settle = (value) => {
            const c = settleValue(value, name, validateOut, memoryLimitMB, cs.answering);
            return c instanceof Converted ? checked(c) : c.then(checked);
        };
        /** @param {Converted} c */
        const checked = (c) => {
            const why = typeof check === "function" ? check(id, c.json === undefined ? "" : c.json) : "";
            if (c.verdict) c.verdict(why);
            if (why) throw new Error(why);
            c.settled = true;
            c.checked = typeof check === "function";
            return c;
        };
        let v;
        try {
            v = await exec(input, {
                context,
                get signal() {
                    return cs.signal;
                },
                [CALL]: cs,
                [SETTLE]: settle,
                [LIMIT]: memoryLimitMB,
                [PARSED]: parsed,
            });
            if (!live.has(id)) return; // nobody waits for it any more
            // Settled by the page's side of the call (runs.mjs callTool), or here.
            if (!(v instanceof Converted && v.settled)) v = await settle(v);
        } catch (err) {
            return threw(id, err);
        }
        if (!live.has(id)) return;
        const warnings = v.warnings.length ? stringify(v.warnings) : undefined;
        if (v.checked) done(id, REPLY.checked, undefined, warnings);
        else done(id, REPLY.ok, v.json, warnings);
    };
    // Its parameters one by one: a rest parameter spread on (run(id,
    // ...rest)) goes through the page's Array iterator of the moment, and
    // an emptied one gave run nothing but the id.
    /** @type {(...args: Parameters<typeof run>) => void} */
    const call = (id, execs, validates, i, name, text, context, check, memoryLimitMB) => {
        const cs = new CallSignal();
        if (typeof progress === "function") {
            // A crossing into the core, which may end the run there (its
            // time ran out): a call it gave up on stops converting.
            cs.answering = (bytes, final) => {
                if (cs.aborted) throw cs.reason;
                progress(id, bytes, final);
                if (cs.aborted) throw cs.reason;
            };
        }
        live.set(id, cs);
        // The call starts in a microtask, once the core has returned to the
        // event loop: the core may call here from inside the sandbox's own
        // call of the tool, and a tool that calls the core back at once (a
        // dispose(), which waits for the run to stop) must find it idle.
        // Whatever goes wrong in run (a throwing getter of the validation's
        // verdict, say) ends the call as the tool's failure, never as an
        // unhandled rejection.
        queueMicrotask(() => then(run(id, execs, validates, i, name, text, context, check, memoryLimitMB), undefined, (err) => threw(id, err)));
    };
    /**
     * @param {number} id
     * @param {unknown} reason
     */
    const abort = (id, reason) => {
        const cs = live.get(id);
        if (!cs) return;
        live.delete(id);
        cs.abort(reason);
    };
    // The characters the page cut off a message it hands the core as a
    // rejection, not a reply, or off a denial's reason (onToolCall's:
    // wrap.mjs, worker.mjs).
    return { call, abort, dropped: droppedOnPage };
}
