// Worker mode's registration check of a schema's keywords: the walk of
// schemacheck.go (checkInputSchema), with its messages, so that
// registerTool throws at once as it does in-thread instead of the worker
// refusing the tool a message later. A pattern is read as Go's RE2 parser
// reads it (re2.mjs); only one that could reach Go's size limits is left to
// the core, which refuses it a message later.

import { KeptSet, isArray, keptSetOf } from "./intrinsics.mjs";
import { re2Problem } from "./re2.mjs";
import { draft4Bounds, metaKeyword, nameList, typeListProblem } from "./schemameta.mjs";
import { inDraft, resourceBase, SCHEMA_URL, schemaRefs } from "./schemaref.mjs";

const MAX_DEPTH = 64;
/** @param {string[]} words */
// Sets taken at load (intrinsics.mjs): a page's Set.prototype.has answering
// true made every keyword read as a schema ("/required: must be a schema").
const set = (...words) => keptSetOf(words);
const TYPE_NAMES = set("null", "boolean", "object", "array", "number", "string", "integer");
export const ONE_SCHEMA = set("items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else", "additionalItems", "unevaluatedItems", "unevaluatedProperties", "contentSchema");
export const SCHEMA_MAP = set("properties", "patternProperties", "$defs", "definitions", "dependentSchemas");
export const SCHEMA_LIST = set("allOf", "anyOf", "oneOf", "prefixItems");
const NUMBER = set("minimum", "maximum", "multipleOf");
const COUNT = set("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains");
const STRING = set("pattern", "format", "$ref", "$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$schema", "title", "description", "contentEncoding", "contentMediaType");
/** @type {Record<string, number>} */
const DRAFTS = {
    "json-schema.org/schema": 2020,
    "json-schema.org/draft/2020-12/schema": 2020,
    "json-schema.org/draft/2019-09/schema": 2019,
    "json-schema.org/draft-07/schema": 7,
    "json-schema.org/draft-06/schema": 6,
    "json-schema.org/draft-04/schema": 4,
};

/**
 * The draft a "$schema" URL selects, as schemaDraft reads it (http or
 * https, an empty fragment or none); 0 for one it does not know.
 * @param {string} url
 */
export function schemaDraft(url) {
    const hash = url.indexOf("#");
    if (hash >= 0 && hash < url.length - 1) return 0;
    const u = (hash >= 0 ? url.slice(0, hash) : url).replace(/^https?:\/\//, "");
    return Object.prototype.hasOwnProperty.call(DRAFTS, u) ? DRAFTS[u] : 0;
}

/**
 * @typedef {{ draft: number, sorted?: boolean, base: string, refs: ReturnType<typeof schemaRefs>, note: { left: boolean } }} Walk what
 *   the check knows of the schema it walks: the root "$schema"'s draft (0 below
 *   a subschema naming its own), whether objects' keys are taken in order (see
 *   schemaProblem), the base URI references resolve against there, the
 *   document's places (schemaref.mjs) and whether it left anything to the core
 */

// The characters strconv.IsPrint takes as they are: letters, marks,
// numbers, punctuation, symbols and the ASCII space.
const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/**
 * A character as Go's %q prints it (strconv.QuoteRune's escapes, inside
 * quote q): itself if printable, else a named escape, \xHH, \uHHHH or
 * \UHHHHHHHH. A lone surrogate is U+FFFD, as Go gets it: syscall/js hands Go
 * a string as UTF-8, where a lone surrogate cannot be and becomes U+FFFD
 * (also 3 bytes, so byte counts and offsets agree).
 * @param {string} ch
 * @param {string} q
 */
export function goEscape(ch, q) {
    /** @type {Record<string, string>} */
    const named = { "\x07": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v" };
    const c = /** @type {number} */ (ch.codePointAt(0));
    if (c >= 0xd800 && c <= 0xdfff) return "\ufffd";
    if (ch === q || ch === "\\") return `\\${ch}`;
    if (GO_PRINTABLE.test(ch)) return ch;
    if (named[ch]) return named[ch];
    if (c < 0x20 || c === 0x7f) return `\\x${c.toString(16).padStart(2, "0")}`;
    if (c < 0x10000) return `\\u${c.toString(16).padStart(4, "0")}`;
    return `\\U${c.toString(16).padStart(8, "0")}`;
}

// What %q prints as it is: printable ASCII but the quote and the backslash.
// Most strings quoted are names (every tool checked quotes its own).
const GO_AS_IS = /^[ !#-[\]-~]*$/;

/** @param {string} s a string as Go's %q prints it */
export const goQuote = (s) => (GO_AS_IS.test(s) ? `"${s}"` : `"${[...s].map((ch) => goEscape(ch, '"')).join("")}"`);

/**
 * A float64 as Go's %v prints it: the shortest digits, in exponent form
 * when the exponent is below -4 or at least 6 (fmt's %g).
 * @param {number} f
 */
function goFloat(f) {
    if (Object.is(f, -0)) return "-0";
    const [mant, e] = f.toExponential().split("e");
    const exp = Number(e);
    if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
    return String(f);
}

/** @param {unknown} v */
function kind(v) {
    if (v === null) return "null";
    if (typeof v === "boolean") return "a boolean";
    if (typeof v === "number") return "a number";
    if (typeof v === "string") return "a string";
    if (isArray(v)) return "a list";
    return "an object";
}

/** @param {unknown} v */
function value(v) {
    if (typeof v === "string") return `the string ${goQuote(v)}`;
    if (typeof v === "number") return `the number ${goFloat(v)}`;
    return kind(v);
}

/** @param {string} msg @returns {{ path: string[], msg: string }} */
const bad = (msg) => ({ path: [], msg });
/** @param {{ path: string[], msg: string } | null} err @param {string} seg */
const at = (err, seg) => (err && (err.path.unshift(seg), err));

/** What schemameta.mjs uses of this module. @type {import("./schemameta.mjs").Helpers} */
const helpers = { bad, at, kind, value, goQuote, entries: (o, sorted) => entries(o, sorted), walk: (node, depth, w) => walk(node, depth, w), ref: (s, w) => refProblem(s, w) };

// schemacheck.go's itemsListError.
const ITEMS_LIST = 'must be a schema under 2020-12, got a list: a tuple is "prefixItems" there (a list in "items" is the form of 2019-09 and older, which needs "$schema": "http://json-schema.org/draft-07/schema#")';

/**
 * The message of checkInputSchema for a tool's inputSchema or outputSchema
 * as JSON data, or "" when it passes. note.left is set when the walk met
 * what only the core can judge (a reference, a pattern near RE2's limits):
 * where it is not, this check is the core's whole walk, and the worker's
 * core is told it need not walk the schema again (worker-tools.mjs).
 * @param {unknown} root
 * @param {{ left: boolean }} [note]
 */
export function schemaProblem(root, note = { left: false }) {
    const $schema = root !== null && typeof root === "object" ? /** @type {any} */ (root).$schema : undefined;
    const draft = typeof $schema === "string" ? schemaDraft($schema) : 2020;
    const w = { draft, base: SCHEMA_URL, refs: schemaRefs(root, draft), note };
    // Of several problems, the first in key order is reported, as
    // schemacheck.go's firstProblem does (Go's maps have no written order):
    // a second walk, only when the first found one.
    const err = walk(root, 0, w) && walk(root, 0, { ...w, sorted: true });
    return err ? `/${err.path.join("/")}: ${err.msg}` : "";
}

/**
 * An object's entries, in code point order (Go's order of UTF-8 strings) when sorted.
 * @param {object} o
 * @param {boolean | undefined} sorted
 * @returns {[string, any][]}
 */
function entries(o, sorted) {
    const list = Object.entries(o);
    return sorted ? list.sort(([a], [b]) => codePointCompare(a, b)) : list;
}

/**
 * @param {string} a
 * @param {string} b
 */
function codePointCompare(a, b) {
    for (let i = 0, j = 0; i < a.length && j < b.length; ) {
        const x = /** @type {number} */ (a.codePointAt(i));
        const y = /** @type {number} */ (b.codePointAt(j));
        if (x !== y) return x - y;
        i += x > 0xffff ? 2 : 1;
        j += y > 0xffff ? 2 : 1;
    }
    return a.length - b.length;
}

/**
 * @param {unknown} node
 * @param {number} depth
 * @param {Walk} w
 * @returns {{ path: string[], msg: string } | null}
 */
function walk(node, depth, w) {
    if (depth > MAX_DEPTH) return bad(`nested more than ${MAX_DEPTH} levels`);
    if (typeof node === "boolean") return w.draft === 4 ? bad("must be a schema object under draft-04, got a boolean (boolean schemas came with draft-06)") : null;
    if (node === null || typeof node !== "object" || isArray(node)) return bad(`must be a schema (an object or a boolean), got ${kind(node)}`);
    if (depth > 0 && "$schema" in node) w = { ...w, draft: 0 };
    const base = resourceBase(/** @type {Record<string, unknown>} */ (node), w.base, w.draft);
    if (base !== w.base) w = { ...w, base };
    for (const [k, v] of entries(node, w.sorted)) {
        const err = keyword(k, v, depth, w) || draft4Bounds(/** @type {Record<string, unknown>} */ (node), k, w, helpers);
        if (err) return at(err, k);
    }
    return null;
}

/**
 * @param {string} k
 * @param {any} v
 * @param {number} depth
 * @param {Walk} w
 * @returns {{ path: string[], msg: string } | null}
 */
function keyword(k, v, depth, w) {
    if (!inDraft(k, w.draft)) return null;
    const [err, handled] = metaKeyword(k, v, depth, w, helpers);
    if (err || handled) return err;
    if (k === "type") {
        if (typeof v === "string") return TYPE_NAMES.has(v) ? null : bad(`${goQuote(v)} is not a type (null, boolean, object, array, number, string or integer)`);
        if (!isArray(v)) return bad(`must be a type name or a list of them, got ${kind(v)}`);
        const i = v.findIndex((x) => typeof x !== "string" || !TYPE_NAMES.has(x));
        if (i >= 0) return at(bad(`must be a type name, got ${value(v[i])}`), String(i));
        return typeListProblem(v, helpers);
    }
    // A list of schemas is 2019-09's and older drafts' tuple: 2020-12's
    // meta-schema refuses it, so every call of the tool would fail.
    if (k === "items" && isArray(v)) return w.draft === 2020 ? bad(ITEMS_LIST) : list(v, depth, w);
    if (ONE_SCHEMA.has(k)) return walk(v, depth + 1, w);
    if (SCHEMA_MAP.has(k)) {
        if (v === null || typeof v !== "object" || isArray(v)) return bad(`must be an object of schemas, got ${kind(v)}`);
        for (const [name, s] of entries(v, w.sorted)) {
            const err = (k === "patternProperties" && patternError(name, w)) || walk(s, depth + 1, w);
            if (err) return at(err, name);
        }
        return null;
    }
    if (SCHEMA_LIST.has(k)) {
        if (!isArray(v) || v.length === 0) return bad(`must be a non-empty list of schemas, got ${value(v)}`);
        return list(v, depth, w);
    }
    if (k === "required") return nameList(v, w, helpers);
    if (k === "enum") {
        if (!isArray(v)) return bad(`must be a list, got ${kind(v)}`);
        return w.draft === 4 || w.draft === 6 || w.draft === 7 ? oldEnumProblem(v, w.draft) : null;
    }
    if (NUMBER.has(k)) {
        if (typeof v !== "number") return bad(`must be a number, got ${value(v)}`);
        return k === "multipleOf" && v <= 0 ? bad(`must be greater than 0, got ${goFloat(v)}`) : null;
    }
    if (k === "exclusiveMinimum" || k === "exclusiveMaximum") {
        // The bound itself since draft-06, a boolean in draft-04: the other
        // draft's form fails the meta-schema on every call.
        if (typeof v === "number") {
            return w.draft === 4 ? bad(`must be a boolean under draft-04 (true makes ${k === "exclusiveMinimum" ? "minimum" : "maximum"} exclusive), got ${value(v)}`) : null;
        }
        if (typeof v === "boolean") {
            return w.draft !== 4 && w.draft !== 0
                ? bad('must be a number (the bound itself, excluded), got a boolean: that is draft-04\'s form, which needs "$schema": "http://json-schema.org/draft-04/schema#"')
                : null;
        }
        return bad(`must be a number, got ${value(v)}`);
    }
    if (COUNT.has(k)) return typeof v === "number" && v >= 0 && Number.isInteger(v) ? null : bad(`must be a non-negative integer, got ${value(v)}`);
    if (STRING.has(k)) {
        if (typeof v !== "string") return bad(`must be a string, got ${value(v)}`);
        if (k === "$ref") return refProblem(v, w);
        if (k === "$schema" && schemaDraft(v) === 0) return bad(`unknown $schema ${goQuote(v)} (2020-12, 2019-09, draft-07, -06 or -04)`);
        if (k === "pattern") return patternError(v, w);
    }
    return null;
}

/**
 * schemaref.go's checkRef: a reference is to a place in the document, never one to load.
 * @param {string} s
 * @param {Walk} w
 */
function refProblem(s, w) {
    // Whether a reference is local is the core's to say where schemaref.mjs
    // cannot resolve it, and its URI form under draft-04: every reference
    // counts as left to the core.
    w.note.left = true;
    return w.refs.embeds(w.base, s) ? refURIProblem(s, w.draft) : bad(`remote $ref ${goQuote(s)} is not allowed: put the definition under $defs`);
}

/**
 * schemaref.go's checkRefURI: draft-06's and later meta-schemas want a
 * reference to be a URI reference (no "\", no "%" that starts no escape);
 * draft-04's and an unknown draft's (0) are left to the core. Only a
 * fragment ("#...") is judged here: a reference with more is local only
 * where schemaref.mjs resolved it as Go does, and one it could not resolve
 * may be remote to the core, which then says so.
 * @param {string} s
 * @param {number} draft
 */
function refURIProblem(s, draft) {
    if (draft < 6 || !s.startsWith("#")) return null;
    if (s.includes("\\")) return bad(`${goQuote(s)} is not a URI reference: a "\\" is written "%5C" in one`);
    if (/%(?![0-9A-Fa-f]{2})/.test(s)) return bad(`${goQuote(s)} is not a URI reference: a "%" must start an escape of two hex digits (a "%" itself is written "%25")`);
    return null;
}

/**
 * schemacheck.go's checkOldEnum: draft-04, -06 and -07 want at least one
 * value and no value twice.
 * @param {unknown[]} v
 * @param {number} draft
 */
function oldEnumProblem(v, draft) {
    if (v.length === 0) return bad(`must hold at least one value under draft-0${draft}, got an empty list (no input could be valid)`);
    const seen = new KeptSet();
    for (let i = 0; i < v.length; i++) {
        const x = v[i];
        const composite = x !== null && typeof x === "object";
        const dup = composite ? v.slice(0, i).some((y) => jsonEqual(x, y)) : seen.has(x);
        if (!composite) seen.add(x);
        if (dup) return at(bad(`must not hold a value twice under draft-0${draft}, got ${value(x)} again`), String(i));
    }
    return null;
}

/**
 * Equality of JSON values, as Go's reflect.DeepEqual on decoded JSON.
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
function jsonEqual(a, b) {
    if (a === b) return true;
    if (a === null || b === null || typeof a !== "object" || typeof b !== "object" || isArray(a) !== isArray(b)) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(/** @type {any} */ (a)[k], /** @type {any} */ (b)[k]));
}

/**
 * @param {unknown[]} v
 * @param {number} depth
 * @param {Walk} w
 */
function list(v, depth, w) {
    for (let i = 0; i < v.length; i++) {
        const err = walk(v[i], depth + 1, w);
        if (err) return at(err, String(i));
    }
    return null;
}

/** @param {string} p @param {Walk} w */
function patternError(p, w) {
    const problem = re2Problem(p, w.note);
    if (!problem) return null;
    // A limit of RE2's, told as schemacheck.go checkPattern tells it.
    if (/^(invalid repeat count|expression too large|expression nests too deeply):/.test(problem)) {
        return bad(`${goQuote(p)} cannot be enforced: Go's RE2 syntax takes a counted repeat {n,m} only with n <= m <= 1000, nested counted repeats whose counts multiply to at most 1000, and a pattern whose compiled form stays within its size limit (error parsing regexp: ${problem}); rewrite it within those limits, or check it in the tool`);
    }
    return bad(`${goQuote(p)} cannot be enforced: patterns are checked with Go's RE2 syntax, which has no lookahead, lookbehind or backreferences (error parsing regexp: ${problem}); rewrite it without them, or check it in the tool`);
}

export { re2Problem };
