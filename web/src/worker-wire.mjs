// Worker mode: the values that cross postMessage and are not plain data.
// Errors go as { name, message } both ways and are rebuilt on arrival (a
// clone would lose their class); the config goes without the page's
// functions, which cannot be cloned, but with a note of where they were,
// so that the core's errors name the same key and type as in-thread.
// onToolCall's decision goes the same way (decisionToWire), its replacement
// input as JSON text (on the calling thread too: wrap.mjs).

import { describeError } from "./env.mjs";
import { KeptSet, jsonParse, jsonStringify, objectKeys, uncurry } from "./intrinsics.mjs";
import { MAX_ARRAY_LEN, MAX_DEPTH, TooLarge } from "./tojson.mjs";
import { cutBefore, droppedOnPage } from "./call.mjs";

/**
 * list with x after it, a new array written by index.
 * @param {string[]} list
 * @param {string} x
 */
function concat(list, x) {
    /** @type {string[]} */
    const out = [];
    for (let i = 0; i < list.length; i++) out[i] = list[i];
    out[list.length] = x;
    return out;
}

/**
 * The name and message of what a tool or an interceptor threw, for the
 * worker. Reading them runs the page's code (getters, toString), which may
 * throw in turn: that must not escape the message handler, where it would
 * be an unhandled rejection (the end of a Node process).
 * @param {unknown} err
 * @returns {{ name: string, message: string }}
 */
export function errorFields(err) {
    let name = "Error";
    try {
        const n = err && /** @type {any} */ (err).name;
        if (n) name = String(n);
    } catch {
        // keep "Error"
    }
    let message;
    try {
        message = describeError(err);
    } catch (e) {
        try {
            message = `a value that cannot be described was thrown (${describeError(e)})`;
        } catch {
            message = "a value that cannot be described was thrown";
        }
    }
    return { name, message };
}

/**
 * An error the worker sent as { name, message }, as the class it was.
 * @param {any} e
 */
export function rebuildError(e) {
    const err = e.name === "TypeError" ? new TypeError(e.message) : new Error(e.message);
    if (e.name && e.name !== "TypeError" && e.name !== "Error") err.name = e.name;
    return err;
}

// Functions and Symbols cannot cross to the worker. Where a value holds one
// (the core does not keep it: a misspelt key, or a function where a number
// belongs) it goes as null and its path in `standIns`, and the worker puts
// a stand-in of that type back, so the core names the key and the type as
// on the calling thread. A cycle is cut with a marker.
/**
 * @param {any} obj
 * @param {string[]} path
 * @param {{ path: string[], kind: string }[]} standIns
 * @param {Set<object>} [seen]
 * @returns {any}
 */
export function cloneable(obj, path, standIns, seen = new KeptSet()) {
    if (typeof obj === "function" || typeof obj === "symbol") {
        standIns.push({ path, kind: typeof obj });
        return null;
    }
    if (obj === null || typeof obj !== "object") return obj;
    if (seen.has(obj)) return "[cycle]";
    seen.add(obj);
    /** @type {any} */
    const out = Array.isArray(obj) ? [] : Object.create(null);
    // By index, the path copied by concat: the page's Array iterator of the
    // moment may be broken.
    const ks = objectKeys(obj);
    for (let i = 0; i < ks.length; i++) out[ks[i]] = cloneable(obj[ks[i]], concat(path, ks[i]), standIns, seen);
    seen.delete(obj);
    return out;
}

/**
 * Puts back, in what the page sent, a stand-in of its type where cloneable
 * took out a function or a Symbol (an empty path: the value itself).
 * @param {any} value
 * @param {{ path: string[], kind: string }[]} standIns
 */
export function restoreStandIns(value, standIns) {
    const make = (/** @type {string} */ kind) => (kind === "symbol" ? Symbol() : () => {});
    for (const { path, kind } of standIns) {
        if (path.length === 0) return make(kind);
        let at = value;
        for (const k of path.slice(0, -1)) at = at[k];
        at[path[path.length - 1]] = make(kind);
    }
    return value;
}

// onToolCall's decision crosses so that the worker's core reads it as the
// calling thread's core reads the page's own (wasm/config.go intercept):
// postMessage refused a replacement input holding a function, a Symbol, a
// Proxy or a throwing getter (the call was denied with a DataCloneError's
// words), and dropped a class's toJSON. Of each field other than input the
// core reads only the type (allowed, reason) or the key: a primitive goes
// as it is, an object as an empty one, a function or a Symbol as a stand-in.
// The input is written to JSON here, by the page's JSON.stringify, as the
// core's strict check (jsbridge.ToJSONStrict) writes it: getters, toJSON
// and Proxy traps run once, in the same order. What JSON text cannot hold
// goes as a marked string and is put back as a value of its kind, for the
// core's check to refuse in its own words: a function, a Symbol, a
// non-finite number, an array longer than the core's limit (as an empty
// one of that length: the check reads no element), an object inside
// itself (as one that holds itself), an object nested past the core's
// depth limit (as one nested past it: the page's stringify recursed with
// a call of the replacer per level, and 5,000 levels overflowed the
// page's stack, a bare "Maximum call stack size exceeded"). As in that check,
// nothing past the first of them is read. A write that throws (a cycle, a
// BigInt, a getter) goes as an input whose toJSON throws the same.

/**
 * @param {unknown} decision onToolCall's answer as askInterceptor read it
 * @param {unknown} limitMB the factory's memoryLimit
 * @returns {{ value: any, standIns: { path: string[], kind: string }[], input?: { key: string, text?: string, thrown?: any }, dropped?: number }}
 */
export function decisionToWire(decision, limitMB) {
    /** @type {{ path: string[], kind: string }[]} */
    const standIns = [];
    if (decision === null || typeof decision !== "object") return { value: cloneable(decision, [], standIns), standIns };
    const d = /** @type {Record<string, unknown>} */ (decision);
    /** @type {any} */
    const value = Array.isArray(d) ? [] : {};
    /** @type {{ key: string, text?: string, thrown?: any } | undefined} */
    let input;
    const ks = objectKeys(d);
    for (let i = 0; i < ks.length; i++) {
        const k = ks[i];
        const v = d[k];
        if (k === "input" && v !== undefined) input = inputToWire(v, limitMB);
        else value[k] = v !== null && typeof v === "object" ? (Array.isArray(v) ? [] : {}) : cloneable(v, [k], standIns);
    }
    // The count the page cut off the reason (call.mjs cutReason).
    const dropped = droppedOnPage(decision);
    return input ? { value, standIns, input, dropped } : { value, standIns, dropped };
}

/**
 * The decision as the page's onToolCall gave it, back in the worker.
 * @param {ReturnType<typeof decisionToWire>} w
 */
export function decisionFromWire(w) {
    const value = cutBefore(restoreStandIns(w.value, w.standIns), w.dropped);
    if (w.input) value.input = inputFromWire(w.input);
    return value;
}

/**
 * A replacement input as inputToWire wrote it, for the core (wasm/config.go
 * onToolCall): { text }, its JSON, when it is JSON data through and
 * through (inputToWire's rule is the core's strict check's, and its text
 * what that check wrote of the value parsed back); otherwise { value }, a
 * value for the strict check (jsbridge.ToJSONStrict), which names what is
 * wrong. The check called into Go for every value: a 5 MB input held the
 * thread ~4 s.
 * @param {{ key: string, text?: string, thrown?: any, marked?: boolean }} w
 */
export function inputFromWire({ key, text, thrown, marked }) {
    if (thrown !== undefined) {
        const err = "value" in thrown ? thrown.value : rebuildError(thrown);
        return {
            value: {
                toJSON() {
                    throw err;
                },
            },
        };
    }
    // A toJSON that gave no value: the core's "has no JSON form".
    if (text === undefined) return { value: { toJSON: () => undefined } };
    if (!marked) return { text };
    // The JSON.parse of load: on the calling thread, the page's of the
    // moment may be a stub.
    return { value: jsonParse(text, (_, v) => (typeof v === "string" && slice(v, 0, key.length) === key ? revive(slice(v, key.length)) : v)) };
}

// Taken at load, with indexOf below: on the calling thread, a page that
// replaced String.prototype.startsWith left a mark unrevived, a string the
// tool would have run with.
const slice = uncurry(String.prototype.slice);
const indexOf = uncurry(String.prototype.indexOf);

/** @param {string} mark a kind, a colon, its argument */
function revive(mark) {
    const at = indexOf(mark, ":");
    const kind = slice(mark, 0, at);
    const arg = slice(mark, at + 1);
    if (kind === "function") return () => {};
    if (kind === "symbol") return Symbol();
    if (kind === "number") return Number(arg);
    if (kind === "deep") {
        /** @type {any} */
        let o = {};
        for (let i = 0; i < MAX_DEPTH; i++) o = { o };
        return o;
    }
    if (kind === "cycle") {
        /** @type {any} */
        const o = {};
        return (o.o = o);
    }
    return new Array(Number(arg));
}

/**
 * @param {unknown} input
 * @param {unknown} limitMB the factory's memoryLimit (MB; default 128)
 */
export function inputToWire(input, limitMB) {
    // A key no string of the page's data starts with.
    const key = `\u0000code-mode:${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}:`;
    let stop = false;
    // A lower bound of the text written so far (tojson.mjs's count): one
    // object held many times (40 levels of { l: o, r: o }, 2^40 values)
    // was written whole, holding the page's thread for good. Past the
    // run's memory limit, which no input can pass into a run, the write
    // stops.
    const mb = typeof limitMB === "number" && limitMB > 0 ? limitMB : 128;
    const most = mb * 1048576;
    let made = 0;
    // The objects being written, outermost first: one inside itself goes
    // as a cycle, which JSON.stringify refuses in the page engine's words.
    /** @type {unknown[]} */
    const st = [];
    let n = 0;
    try {
        // The JSON.stringify of load (intrinsics.mjs): the page's of the
        // moment may be a stub ("[]" gave the tool [] for this input).
        const text = jsonStringify(input, /** @this {unknown} */ function (k, v) {
            if (stop) return null;
            const t = typeof v;
            if (v !== undefined) made += (t === "string" ? v.length + 2 : 1) + (Array.isArray(this) ? 0 : k.length + 3);
            if (made > most) throw new TooLarge(made);
            let mark = "";
            while (n > 0 && st[n - 1] !== this) n--;
            if (t === "function" || t === "symbol") mark = `${t}:`;
            else if (t === "number" && !Number.isFinite(v)) mark = `number:${v}`;
            else if (Array.isArray(v) && v.length > MAX_ARRAY_LEN) mark = `array:${v.length}`;
            else if (v !== null && t === "object" && n >= MAX_DEPTH) mark = "deep:";
            else if (v !== null && t === "object") {
                for (let i = 0; i < n; i++) if (st[i] === v) mark = "cycle:";
                st[n++] = v;
            }
            if (!mark) return v;
            stop = true;
            return key + mark;
        });
        return { key, text, marked: stop };
    } catch (err) {
        if (err instanceof TooLarge)
            err = new RangeError(`its JSON has more than ${most} characters, more than the run's memory limit (${mb} MB) can hold: return a smaller input`);
        const primitive = err === null || (typeof err !== "object" && typeof err !== "function" && typeof err !== "symbol");
        return { key, thrown: primitive ? { value: err } : errorFields(err) };
    }
}
