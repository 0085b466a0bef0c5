// Worker mode: the values that cross postMessage and are not plain data.
// Errors go as { name, message } both ways and are rebuilt on arrival (a
// clone would lose their class); the config goes without the page's
// functions, which cannot be cloned, but with a note of where they were,
// so that the core's errors name the same key and type as in-thread.

import { describeError } from "./env.mjs";

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
export function cloneable(obj, path, standIns, seen = new Set()) {
    if (typeof obj === "function" || typeof obj === "symbol") {
        standIns.push({ path, kind: typeof obj });
        return null;
    }
    if (obj === null || typeof obj !== "object") return obj;
    if (seen.has(obj)) return "[cycle]";
    seen.add(obj);
    /** @type {any} */
    const out = Array.isArray(obj) ? [] : Object.create(null);
    for (const [k, v] of Object.entries(obj)) out[k] = cloneable(v, [...path, k], standIns, seen);
    seen.delete(obj);
    return out;
}
