// Unknown-key errors as the Go core words them (internal/keys): worker mode
// checks tool definitions and session options on the page, synchronously,
// and must throw the same TypeErrors as the in-thread core.

/**
 * @param {string} path
 * @param {string[]} keys
 * @param {string[]} valid
 * @param {Record<string, string>} [hints]
 */
export function unknownKeyError(path, keys, valid, hints = {}) {
    const bad = keys.filter((k) => !valid.includes(k)).sort();
    if (bad.length === 0) return null;
    const k = bad[0];
    let suggest = "";
    const n = nearest(k, valid);
    if (n) suggest = ` (did you mean ${JSON.stringify(n)}?)`;
    if (Object.prototype.hasOwnProperty.call(hints, k)) suggest = ` (${hints[k]})`;
    return new TypeError(`${path}: unknown key ${quoteCut(k, JSON.stringify)}${suggest}; valid keys are ${valid.join(", ")}`);
}

// The longest key or tool name an error repeats whole, and how much of a
// longer one it repeats: internal/keys's MaxQuoted and QuotedHead. A 10 MB
// unknown key (or tool name) made a 10 MB TypeError.
const MAX_QUOTED = 200;
const QUOTED_HEAD = 100;

/**
 * quote(s), or of its first QUOTED_HEAD characters (code points) and its
 * length, past MAX_QUOTED: '"aaa…" (10000000 characters)'.
 * @param {string} s
 * @param {(s: string) => string} quote
 */
export function quoteCut(s, quote) {
    if (s.length <= MAX_QUOTED) return quote(s);
    let n = 0;
    let head = "";
    for (const ch of s) {
        if (n < QUOTED_HEAD) head += ch;
        n++;
    }
    return n <= MAX_QUOTED ? quote(s) : `${quote(head)}… (${n} characters)`;
}

/**
 * @param {string} key
 * @param {string[]} valid
 */
export function nearest(key, valid) {
    const lk = key.toLowerCase();
    const n = [...lk].length;
    const limit = Math.max(2, Math.floor(key.length / 3));
    let best = "";
    let bestD = limit + 1;
    for (const v of valid) {
        const lv = v.toLowerCase();
        // The first nearest within the limit; a valid key the unknown one
        // begins (3 characters or more) is 1 away. The distance is at least
        // the difference in length (as Go's Nearest): a 10 MB key was
        // aligned with every valid one, 49 s.
        const d = lk === lv ? 0 : n >= 3 && lv.startsWith(lk) ? 1 : Math.abs([...lv].length - n) > limit ? bestD : distance(lk, lv);
        if (d < bestD) {
            best = v;
            bestD = d;
        }
    }
    return best;
}

// Optimal string alignment distance, as internal/keys.
/**
 * @param {string} a
 * @param {string} b
 */
function distance(a, b) {
    const ra = [...a];
    const rb = [...b];
    /** @type {number[]} */
    let prev2 = [];
    let prev = rb.map((_, j) => j).concat(rb.length);
    for (let i = 1; i <= ra.length; i++) {
        const cur = [i];
        for (let j = 1; j <= rb.length; j++) {
            cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + +(ra[i - 1] !== rb[j - 1]));
            // A transposition (ra[-1], rb[-1] are undefined: never at i or j 1).
            if (ra[i - 1] === rb[j - 2] && ra[i - 2] === rb[j - 1]) cur[j] = Math.min(cur[j], prev2[j - 2] + 1);
        }
        prev2 = prev;
        prev = cur;
    }
    return prev[rb.length];
}

// The factory config's keys and interceptors', as wasm/config.go's
// configKeys and interceptorKeys: index.mjs snapshots them (fields.mjs).
export const CONFIG_KEYS = ["wasmLocation", "wasmModule", "coreModule", "timeout", "memoryLimit", "maxToolCalls", "maxResultChars", "toolFilter", "interceptors", "overwriteSystemInstruction", "tools", "search", "timeZone", "worker", "onEvent"];
export const INTERCEPTOR_KEYS = ["onToolCall"];
export const TOOL_KEYS = ["name", "description", "inputSchema", "outputSchema", "annotations", "execute"];
export const SESSION_KEYS = ["tools"];
// Kept equal to wasm/config.go's toolKeys, toolHints, sessionKeys and
// sessionHints by web/test/keys.test.mjs.
/** @type {Record<string, string>} */
export const TOOL_HINTS = {
    parameters: "the JSON Schema of the input is inputSchema here",
    schema: "the JSON Schema of the input is inputSchema here",
    handler: "the function is execute here: execute(input, { signal, context })",
    func: "the function is execute here: execute(input, { signal, context })",
    run: "the function is execute here: execute(input, { signal, context })",
    invoke: "the function is execute here: execute(input, { signal, context })",
};
/** @type {Record<string, string>} */
export const SESSION_HINTS = {
    toolFilter: "toolFilter is a factory option: IoCodeModeFactory({ toolFilter })",
    interceptors: "interceptors are a factory option: IoCodeModeFactory({ interceptors })",
    onToolCall: "onToolCall is a factory option: IoCodeModeFactory({ interceptors: { onToolCall } })",
    timeout: "limits are factory options: IoCodeModeFactory({ timeout })",
    timeoutMs: "limits are factory options: IoCodeModeFactory({ timeout }), in milliseconds",
    memoryLimit: "limits are factory options: IoCodeModeFactory({ memoryLimit })",
    maxToolCalls: "limits are factory options: IoCodeModeFactory({ maxToolCalls })",
};
