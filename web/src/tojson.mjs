// A page tool's return value as JSON for the sandbox, converted by the
// rules of a run's own result (sandbox/convert.go, documented in USAGE.md
// "What comes back"): a Map or a Set a tool returns must not reach the
// model's code as {} without a word. Each change is reported with its path
// under `label` ("tools.orders.search result.rows[2].tags"), and the core
// adds the reports to the run's logs as warnings.

import { forEachEntry, markHandled, uncurry } from "./intrinsics.mjs";

const ident = /^[A-Za-z_$][\w$]*$/;

// Taken at load: a page that stubs JSON.stringify later must not change what
// a tool returned (one giving "[]" turned every result into an empty list).
const stringify = JSON.stringify;

// The longest array a tool's result converts, and what a longer one says:
// the core's limit for a run's result and a tool's input (maxArrayLen in
// sandbox/convert.go; testdata/arraycap.json holds both copies to the same
// words). Converting is element by element, holes too: a sparse array of
// length 2**24 took 12 s on the page, one of 2**32-1 would never end.
export const MAX_ARRAY_LEN = 1000000;
// How many elements of a long array (or a typed array) the page shows in
// text, before "… N more items": the core's number for a log line and a
// run's error (shownArrayLen in sandbox/convert.go; testdata/arraycap.json
// holds both copies).
export const SHOWN_ARRAY_LEN = 2000;

/**
 * A marker's count and noun, "1 more item" or "2 more items": the words of
 * the core's (internal/trunc More, sandbox/convert.go moreJS).
 * @param {number} n @param {string} one @param {string} many
 */
export const countMore = (n, one, many) => `${n} more ${n === 1 ? one : many}`;

// The deepest JSON the sandbox reads: its JSON.parse refuses a text that
// nests more than this (prelude/api.js).
export const MAX_DEPTH = 1000;

// Builtins as they were at load: a page's String.prototype.charCodeAt or
// slice must not change where a text is cut.
export const charCodeAt = uncurry(String.prototype.charCodeAt);
const stringSlice = uncurry(String.prototype.slice);

/**
 * text's first n UTF-16 units (n > 0), or one fewer where the cut would
 * split a surrogate pair.
 * @param {string} text @param {number} n
 */
export function cutText(text, n) {
    if (text.length <= n) return text;
    const hi = charCodeAt(text, n - 1);
    return stringSlice(text, 0, hi >= 0xd800 && hi < 0xdc00 ? n - 1 : n);
}

// The most of a report the core is given: it keeps 2,000 bytes of a log
// line (execute.go maxLogEntryChars), fewer than the UTF-8 of this many
// UTF-16 units has, so that what it keeps is the same. A key of 50 million
// characters in a tool's result was quoted whole in each report under it.
const REPORT_KEPT = 4096;

/** @param {string} path @param {number} length */
export const arrayTooLong = (path, length) =>
    `${path}: an array of ${length} elements, more than the ${MAX_ARRAY_LEN} a result or tool input can hold; return or pass a part of it (a.slice(0, n))`;

/**
 * The bytes of an ArrayBuffer or a DataView's part of one, as numbers (a
 * detached buffer has none).
 * @param {ArrayBufferLike} buffer @param {number} offset @param {number} length
 */
const bytes = (buffer, offset, length) => (length ? Array.from(new Uint8Array(buffer, offset, length)) : []);
/**
 * The part of its buffer a DataView views: none when the buffer was
 * detached (transferred) or shrunk below it, where reading byteLength
 * throws (a typed array's length reads 0 then).
 * @param {DataView} v
 */
function viewed(v) {
    try {
        return { offset: v.byteOffset, length: v.byteLength };
    } catch {
        return { offset: 0, length: 0 };
    }
}
// A SharedArrayBuffer's bytes convert as an ArrayBuffer's (a typed array
// over one already did); a page that is not cross-origin isolated has none.
const SAB = typeof SharedArrayBuffer === "function" ? SharedArrayBuffer : undefined;
// %IteratorPrototype%, which every built-in iterator and generator inherits
// (Node 20 has no global Iterator to test with instanceof).
const ITERATOR = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
// %AsyncIteratorPrototype%, which every async generator inherits.
const ASYNC_ITERATOR = Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}.prototype));

/**
 * A tool result that the page converted already (worker mode: the page
 * runs toJSON and sends the JSON text and its reports, the worker's core
 * takes them as they are).
 */
export class Converted {
    /** @param {string | undefined} json @param {string[]} warnings */
    constructor(json, warnings) {
        this.json = json;
        this.warnings = Array.isArray(warnings) ? warnings : [];
        // call.mjs: settled, the core's steps done (checked: its outputSchema
        // check among them); verdict, a worker's answer whose page waits for
        // that check's verdict ("" when it passed).
        this.settled = false;
        this.checked = false;
        /** @type {((why: string) => void) | undefined} */
        this.verdict = undefined;
    }
}

/**
 * What kind of value a tool returned that fails its call rather than
 * converting: a function, a Symbol or a BigInt as the return value itself
 * (inside an object or array each converts, with a report) is almost
 * always a bug in the tool. One rule for both engine modes: call.mjs on
 * the calling thread, worker-protocol.mjs for a worker's calls.
 * @param {unknown} value
 * @returns {"function" | "symbol" | "bigint" | undefined}
 */
export function notDataKind(value) {
    const t = typeof value;
    return t === "function" || t === "symbol" || t === "bigint" ? t : undefined;
}

/**
 * What an object JSON read as {} says: its class (the constructor's name,
 * read from its prototype's own properties, so that no getter or trap of
 * the object runs), and for a fetch Response what the tool meant.
 * Sandbox results say the same (sandbox/convert.go).
 * @param {object} v
 */
function opaqueWhat(v) {
    let name = "";
    try {
        name = className(Object.getPrototypeOf(v));
    } catch {
        // a Proxy's trap threw: no name
    }
    const body = name === "Response" || name === "Request" ? " (read its body first: await res.json() or await res.text())" : "";
    return `${anObject(name)}, converted to {}: JSON reads only an object's own properties, and it has none${body}`;
}

/** @param {string} name a class's name, or "" */
const anObject = (name) => (name ? `${/^[AEIOU]([a-z]|$)/.test(name) ? "an" : "a"} ${name} object` : "an object");

/**
 * The name of the class whose prototype is pr, read from its descriptors
 * (no getter or trap of the object runs): "" when it has none.
 * @param {object} pr
 */
function className(pr) {
    const c = Object.getOwnPropertyDescriptor(pr, "constructor");
    const n = c && typeof c.value === "function" ? Object.getOwnPropertyDescriptor(c.value, "name") : undefined;
    return n && typeof n.value === "string" && ident.test(n.value) ? n.value : "";
}

/**
 * What an object of a class with own data, which JSON read, says when its
 * class defines getters (get total() beside this.rows): JSON left them
 * out, with no word (sandbox/convert.go says the same of a run's result).
 * Up to 5, by their descriptors: none runs. "" for a class without one.
 * @param {object} pr its prototype
 */
function classGetters(pr) {
    const name = className(pr), list = [];
    const ks = name ? Object.getOwnPropertyNames(pr) : [];
    for (let i = 0; i < ks.length && list.length < 5; i++) {
        const d = Object.getOwnPropertyDescriptor(pr, ks[i]);
        if (d && typeof d.get === "function" && ident.test(ks[i])) list.push(ks[i]);
    }
    return list.length ? `${anObject(name)}: its getters (${list.join(", ")}) are its class's, which JSON does not read` : "";
}

/** A conversion stopped at its most characters (toJSON's most). */
export class TooLarge extends RangeError {
    /** @param {number} made the characters counted so far */
    constructor(made) {
        super("too large");
        this.made = made;
    }
}

// The size of a result from which its conversion is reported as it goes
// (toJSON's progress): the core names a result of 1 MB or more that a
// run's time ran out on (hints.go awaitedHint).
export const LARGE_RESULT = 1048576;

/**
 * @param {unknown} value
 * @param {string} label the root's name in the reports
 * @param {(bytes: number) => void} [progress] told, once the JSON made so far
 *   has at least LARGE_RESULT characters and then each time that doubles, a
 *   lower bound of its length: the tool answered, and the time now goes here
 * @param {number} [most] the most characters the JSON may have (at least
 *   those counted): past them the conversion stops with a TooLarge
 * @returns {{ json: string | undefined, warnings: string[] }}
 */
export function toJSON(value, label, progress, most = Infinity) {
    if (value instanceof Converted) return { json: value.json, warnings: value.warnings };
    // The objects being written, from the root down (st), and the key of
    // each in the one before (ks): JSON.stringify writes depth first, so
    // the holder of the value at hand is the top of the stack once those
    // it has finished with are dropped. A path is spelled out only for a
    // value that is reported (a replacer that built every value's path
    // string took 1 s for an array of 2 million numbers); a Map of every
    // object's holder, the stack before, cost one entry and one array per
    // object written.
    /** @type {object[]} */
    const st = [];
    /** @type {string[]} */
    const ks = [];
    /** @type {unknown[]} what each object of st was, when a rule converted it */
    const was = [];
    let n = 0; // st[n - 1] is the holder; 0: the root's, JSON's wrapper
    /** @param {object} h @param {string} k @param {number} most */
    const seg = (h, k, most) => (Array.isArray(h) ? `[${k}]` : ident.test(k) ? `.${cutText(k, most)}` : `[${stringify(cutText(k, most))}]`);
    /**
     * @param {string} k the key of the value at hand in its holder
     * @param {number} [most] the characters of a report that count: a longer path is cut past them
     * @returns {string}
     */
    const pathOf = (k, most = Infinity) => {
        if (n === 0) return label;
        let p = label;
        for (let i = 1; i <= n && p.length <= most; i++) p += seg(st[i - 1], i < n ? ks[i] : k, most);
        return p;
    };
    /** @type {string[]} */
    const warnings = [];
    let more = 0;
    /** @param {string | (() => string)} path @param {string} what */
    const add = (path, what) => {
        if (warnings.length < 20) warnings.push(cutText(`${typeof path === "string" ? path : path()}: ${what}`, REPORT_KEPT));
        else more++;
    };
    /** @param {string} k the key of the value at hand @param {string} what */
    const note = (k, what) => add(() => pathOf(k, REPORT_KEPT), what);
    // Objects of a class that no rule converts and JSON reads as they are:
    // those that turn out to have no own properties JSON reads (a fetch
    // Response, Headers, a DOM node, a class whose data is in getters)
    // become {}, and are reported once JSON has passed over them, so that
    // finding out reads nothing JSON would not (no trap, no getter).
    /** @type {Map<object, string>} each one's path */
    const opaque = new Map();
    // Those JSON read a property of have own data, and lose only their
    // class's getters: said once per class, of the first 20 (their
    // prototypes).
    /** @type {unknown[]} */
    const classes = [];
    /** @param {object} v */
    const read = (v) => {
        const p = /** @type {string} */ (opaque.get(v));
        opaque.delete(v);
        try {
            const pr = Object.getPrototypeOf(v);
            if (classes.length === 20 || classes.includes(pr)) return;
            classes.push(pr);
            const what = classGetters(pr);
            if (what) add(p, what);
        } catch {
            // a Proxy's trap threw: nothing said
        }
    };
    // A lower bound of the JSON written so far: a value is at least one
    // character, a string its length and its quotes, an object's key of a
    // value JSON writes its length, quotes and colon (one object met many
    // times under a long key grows the JSON by the key each time).
    let made = 0;
    let nextReport = LARGE_RESULT;
    /**
     * @this {any}
     * @param {string} k
     * @param {any} v
     */
    function replacer(k, v) {
        while (n !== 0 && st[n - 1] !== this) n--;
        made += typeof v === "string" ? v.length + 2 : 1;
        if (n !== 0 && v !== undefined && typeof v !== "function" && typeof v !== "symbol" && !Array.isArray(this)) made += k.length + 3;
        // An object met many times is written each time: a tool's result of
        // 40 levels of { l: o, r: o } is 2^40 values, which JSON.stringify
        // wrote on the page's thread until its memory ran out (in a worker
        // nothing stopped it: the page froze for good, the run's timeout
        // could not reach it). The root alone (one long string) is written
        // whole: its size is then said exactly (call.mjs fits).
        if (made > most && n !== 0) throw new TooLarge(made);
        if (progress !== undefined) {
            if (made >= nextReport) {
                nextReport = made * 2;
                progress(made);
            }
        }
        // JSON reads a property of `this`: it is not empty.
        if (opaque.size !== 0 && opaque.has(this)) read(this);
        switch (typeof v) {
            case "string":
            case "boolean":
                return v;
            case "number": {
                if (Number.isFinite(v)) return v;
                const out = String(v);
                note(k, `${out}, converted to the string ${stringify(out)}`);
                return out;
            }
            case "bigint":
                note(k, "a BigInt, converted to a string");
                return v.toString();
            case "undefined":
                if (!Array.isArray(this)) return v;
                note(k, "undefined, converted to null");
                return null;
            case "function": {
                const inArr = Array.isArray(this);
                note(k, `a function, which is not data: ${inArr ? "converted to null" : n !== 0 ? "omitted" : "no value"}`);
                return inArr ? null : undefined;
            }
            case "symbol": {
                const out = String(v);
                note(k, `a symbol, converted to the string ${stringify(out)}`);
                return out;
            }
        }
        if (v === null) return v;
        // A value inside itself: JSON's own words differ by engine (V8's
        // "Converting circular structure to JSON ...", Firefox's "cyclic
        // object value"), and the model read the page's. A converted value
        // is a new object each time JSON meets it, so JSON sees no cycle
        // through one (a Map that holds itself): it recursed until the
        // stack overflowed. Its original is in was.
        for (let i = 0; i < n; i++) if (st[i] === v || was[i] === v) throw new TypeError("circular reference");
        /** @type {any} */
        let out = v;
        if (Array.isArray(v)) {
            if (v.length > MAX_ARRAY_LEN) throw new RangeError(arrayTooLong(pathOf(k), v.length));
        } else {
            const proto = Object.getPrototypeOf(v);
            if (proto !== Object.prototype && proto !== null) {
                if (v instanceof Map) {
                    const stringKeys = [...v.keys()].every((key) => typeof key === "string");
                    out = stringKeys ? Object.fromEntries(v) : Array.from(v);
                    note(k, stringKeys ? "a Map, converted to an object" : "a Map with non-string keys, converted to an array of [key, value] entries");
                } else if (v instanceof Set) {
                    out = Array.from(v);
                    note(k, "a Set, converted to an array");
                } else if (v instanceof Error) {
                    out = { name: String(v.name), message: String(v.message) };
                    note(k, "an Error, converted to {name, message}");
                } else if (v instanceof Promise) {
                    // The program never sees it: its rejection (a tool's
                    // missing await) would be unhandled, ending a Node.js
                    // process.
                    markHandled(v);
                    out = null;
                    note(k, "a Promise, converted to null (await it)");
                } else if (v instanceof RegExp) {
                    out = String(v);
                    note(k, `a RegExp, converted to the string ${stringify(out)}`);
                } else if (ArrayBuffer.isView(v) && typeof (/** @type {any} */ (v).length) === "number") {
                    // What becomes an array is held to the same limit: a
                    // Uint8Array of 5e7 held the page's thread 12 s.
                    const n = /** @type {any} */ (v).length;
                    if (n > MAX_ARRAY_LEN) throw new RangeError(arrayTooLong(pathOf(k), n));
                    // A view of a detached buffer has length 0, and Array.from
                    // of it throws.
                    out = n === 0 ? [] : Array.from(/** @type {any} */ (v), (/** @type {any} */ x) => (typeof x === "bigint" ? x.toString() : x));
                    note(k, "a typed array, converted to an array");
                } else if (v instanceof ArrayBuffer || (SAB && v instanceof SAB)) {
                    if (v.byteLength > MAX_ARRAY_LEN) throw new RangeError(arrayTooLong(pathOf(k), v.byteLength));
                    out = bytes(v, 0, v.byteLength);
                    note(k, `${v instanceof ArrayBuffer ? "an ArrayBuffer" : "a SharedArrayBuffer"}, converted to an array of its bytes`);
                } else if (v instanceof DataView) {
                    const { offset, length } = viewed(v);
                    if (length > MAX_ARRAY_LEN) throw new RangeError(arrayTooLong(pathOf(k), length));
                    out = bytes(v.buffer, offset, length);
                    note(k, "a DataView, converted to an array of its bytes");
                } else if (v instanceof WeakMap || v instanceof WeakSet) {
                    out = {};
                    note(k, `${v instanceof WeakMap ? "a WeakMap" : "a WeakSet"}, which cannot be listed: converted to {}`);
                } else if (typeof WeakRef === "function" && v instanceof WeakRef) {
                    out = null;
                    note(k, "a WeakRef, which is not data: converted to null");
                } else if (ITERATOR.isPrototypeOf(v)) {
                    // Not consumed, as in the sandbox (sandbox/convert.go):
                    // it was {} with no warning, an empty result to the model.
                    out = null;
                    note(k, "an iterator, which is not data: converted to null (to return its values, spread it: [...it] or Array.from(it))");
                } else if (ASYNC_ITERATOR.isPrototypeOf(v)) {
                    // A streaming tool's async generator, likewise.
                    out = null;
                    note(k, "an async iterator, which is not data: converted to null (to return its values, collect them: for await (const x of it) list.push(x))");
                } else if (!(v instanceof String || v instanceof Number || v instanceof Boolean)) {
                    opaque.set(v, pathOf(k, REPORT_KEPT));
                }
            }
        }
        if (out !== null && typeof out === "object") {
            // The sandbox reads no JSON nested past MAX_DEPTH (its JSON.parse
            // refuses it); deeper, JSON.stringify recursed until V8's stack
            // overflowed ('Maximum call stack size exceeded', or, for a
            // getter that makes a new level each time it is read, an endless
            // tree, only after thousands of calls).
            if (n >= MAX_DEPTH) throw new RangeError(`${label}: the value nests more than 1,000 levels deep`);
            st[n] = out;
            was[n] = out === v ? undefined : v;
            ks[n++] = k;
        }
        return out;
    }
    const json = stringify(value, replacer);
    forEachEntry(opaque, (p, v) => add(p, opaqueWhat(v)));
    if (more) warnings.push(`… and ${countMore(more, "value", "values")} converted`);
    return { json, warnings };
}
