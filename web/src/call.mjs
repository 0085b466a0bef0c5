// A page tool call, for the Go core (wasm/toolcall.go): one call from Go
// starts it and one reply back ends it. Between the two, everything runs
// here: the input's JSON.parse, the input schema's own validation, the
// tool's execute with its {context, signal}, the result's conversion to
// JSON (tojson.mjs). Done from Go, the same steps took some fifteen
// boundary crossings per call, each Go reference to a JavaScript value
// with its own finalizer, and an AbortController made from Go.

import { toJSON } from "./tojson.mjs";

// How a call ended, as the core reads it (wasm/toolcall.go).
export const REPLY = Object.freeze({
    ok: 0, // payload: the result's JSON text, or undefined (no value); warnings: a JSON array of strings, or undefined
    threw: 1, // payload: what execute threw or rejected with
    validationThrew: 2, // payload: what the schema's validation threw or rejected with
    rejected: 3, // payload: the schema's message
    notData: 4, // payload: typeof the result ("function", "symbol" or "bigint")
    notConvertible: 5, // payload: what the conversion threw
    badInput: 6, // payload: what JSON.parse threw
});

const { parse, stringify } = JSON;

/** @type {WeakMap<AbortSignal, AbortController>} the calls' signals and their controllers */
const controllers = new WeakMap();

/**
 * The controller of a signal this module gave a tool call, so that the
 * page's side of the call (runs.mjs callTool) aborts that one instead of
 * making a second controller that follows it.
 * @param {AbortSignal | undefined} signal
 */
export function controllerOf(signal) {
    return signal ? controllers.get(signal) : undefined;
}

/**
 * Makes the core's caller of page tools. reply(id, kind, payload,
 * warnings) is the core's; a call the core gave up on (its run ended) is
 * aborted through abort(id, reason) and gets no reply.
 * @param {(id: number, kind: number, payload?: unknown, warnings?: string) => void} reply
 */
export function pageCaller(reply) {
    /** @type {Map<number, AbortController>} the calls in flight */
    const live = new Map();
    /**
     * @param {number} id
     * @param {number} kind
     * @param {unknown} [payload]
     * @param {string} [warnings]
     */
    const done = (id, kind, payload, warnings) => {
        if (live.delete(id)) reply(id, kind, payload, warnings);
    };
    /**
     * @param {number} id
     * @param {Function[]} execs the converter's execute functions (schema.mjs convertTools)
     * @param {(Function | undefined)[]} validates their input schemas' own validations
     * @param {number} i the tool's index in both
     * @param {string} name
     * @param {string} text the input's JSON text
     * @param {unknown} context the run's token
     */
    const run = async (id, execs, validates, i, name, text, context) => {
        const ctrl = new AbortController();
        controllers.set(ctrl.signal, ctrl);
        live.set(id, ctrl);
        let input;
        try {
            input = parse(text);
        } catch (err) {
            return done(id, REPLY.badInput, err);
        }
        const validate = validates[i];
        if (typeof validate === "function") {
            // The schema library's own check (refinements JSON Schema
            // cannot express), after the core's JSON Schema check.
            let r;
            try {
                r = await validate(input);
            } catch (err) {
                return done(id, REPLY.validationThrew, err);
            }
            if (!r || !r.ok) return done(id, REPLY.rejected, String(r && r.message));
            if (!live.has(id)) return; // the run ended meanwhile: execute never starts
        }
        const exec = execs[i]; // as it was when registered
        let v;
        try {
            v = await exec(input, { context, signal: ctrl.signal });
        } catch (err) {
            return done(id, REPLY.threw, err);
        }
        if (!live.has(id)) return; // nobody waits for it any more
        if (v === undefined) return done(id, REPLY.ok);
        // A BigInt inside the result becomes a string with a warning, as
        // in a run's result; the result itself as a BigInt fails the call.
        if (typeof v === "function" || typeof v === "symbol" || typeof v === "bigint") return done(id, REPLY.notData, typeof v);
        let out;
        try {
            out = toJSON(v, `tools.${name} result`);
        } catch (err) {
            return done(id, REPLY.notConvertible, err);
        }
        done(id, REPLY.ok, out.json, out.warnings.length ? stringify(out.warnings) : undefined);
    };
    /** @type {(...args: Parameters<typeof run>) => void} */
    const call = (id, ...rest) => {
        // Whatever goes wrong here (a throwing getter of the validation's
        // verdict, say) ends the call as the tool's failure, never as an
        // unhandled rejection.
        run(id, ...rest).catch((err) => done(id, REPLY.threw, err));
    };
    /**
     * @param {number} id
     * @param {unknown} reason
     */
    const abort = (id, reason) => {
        const ctrl = live.get(id);
        if (!ctrl) return;
        live.delete(id);
        ctrl.abort(reason);
    };
    return { call, abort };
}
