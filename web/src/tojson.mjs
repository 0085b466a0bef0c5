// A page tool's return value as JSON for the sandbox, converted by the
// rules of a run's own result (sandbox/convert.go, documented in USAGE.md
// "What comes back"): a Map or a Set a tool returns must not reach the
// model's code as {} without a word. Each change is reported with its path
// under `label` ("tools.orders.search result.rows[2].tags"), and the core
// adds the reports to the run's logs as warnings.

const ident = /^[A-Za-z_$][\w$]*$/;

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
    }
}

/**
 * @param {unknown} value
 * @param {string} label the root's name in the reports
 * @returns {{ json: string | undefined, warnings: string[] }}
 */
export function toJSON(value, label) {
    if (value instanceof Converted) return { json: value.json, warnings: value.warnings };
    /** @type {Map<object, string>} */
    const paths = new Map();
    /** @type {string[]} */
    const warnings = [];
    let more = 0;
    /** @param {string} p @param {string} what */
    const note = (p, what) => {
        if (warnings.length < 20) warnings.push(`${p}: ${what}`);
        else more++;
    };
    /**
     * @this {any}
     * @param {string} k
     * @param {any} v
     */
    function replacer(k, v) {
        const hp = paths.get(this);
        const inArr = Array.isArray(this);
        const p = hp === undefined ? label : inArr ? `${hp}[${k}]` : hp + (ident.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`);
        /** @type {any} */
        let out = v;
        switch (typeof v) {
            case "bigint":
                out = v.toString();
                note(p, "a BigInt, converted to a string");
                break;
            case "number":
                if (!Number.isFinite(v)) {
                    out = String(v);
                    note(p, `${out}, converted to the string ${JSON.stringify(out)}`);
                }
                break;
            case "undefined":
                if (inArr) {
                    out = null;
                    note(p, "undefined, converted to null");
                }
                break;
            case "function":
                out = inArr ? null : undefined;
                note(p, `a function, which is not data: ${inArr ? "converted to null" : hp === undefined ? "no value" : "omitted"}`);
                break;
            case "symbol":
                out = String(v);
                note(p, `a symbol, converted to the string ${JSON.stringify(out)}`);
                break;
            case "object": {
                if (v === null || Array.isArray(v)) break;
                const proto = Object.getPrototypeOf(v);
                if (proto === Object.prototype || proto === null) break;
                if (v instanceof Map) {
                    const stringKeys = [...v.keys()].every((key) => typeof key === "string");
                    out = stringKeys ? Object.fromEntries(v) : Array.from(v);
                    note(p, stringKeys ? "a Map, converted to an object" : "a Map with non-string keys, converted to an array of [key, value] entries");
                } else if (v instanceof Set) {
                    out = Array.from(v);
                    note(p, "a Set, converted to an array");
                } else if (v instanceof Error) {
                    out = { name: String(v.name), message: String(v.message) };
                    note(p, "an Error, converted to {name, message}");
                } else if (v instanceof Promise) {
                    out = null;
                    note(p, "a Promise, converted to null (await it)");
                } else if (v instanceof RegExp) {
                    out = String(v);
                    note(p, `a RegExp, converted to the string ${JSON.stringify(out)}`);
                } else if (ArrayBuffer.isView(v) && typeof (/** @type {any} */ (v).length) === "number") {
                    out = Array.from(/** @type {any} */ (v), (/** @type {any} */ x) => (typeof x === "bigint" ? x.toString() : x));
                    note(p, "a typed array, converted to an array");
                }
            }
        }
        if (out !== null && typeof out === "object") paths.set(out, p);
        return out;
    }
    const json = JSON.stringify(value, replacer);
    if (more) warnings.push(`… and ${more} more values converted`);
    return { json, warnings };
}
