// Worker mode's copy of schemameta.go: the rules of the drafts' meta-schemas
// that the keyword check does not make, for an inputSchema, with the same
// messages (testdata/schemacheck.json holds both to them).

import { KeptSet, isArray } from "./intrinsics.mjs";

const ANCHOR_NAME = /^[A-Za-z_][-A-Za-z0-9._]*$/;
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[!-$&-~]*$/;

/**
 * @typedef {{ path: string[], msg: string }} Problem
 * @typedef {{
 *   bad: (msg: string) => Problem,
 *   at: (err: Problem | null, seg: string) => Problem | null,
 *   kind: (v: unknown) => string,
 *   value: (v: unknown) => string,
 *   goQuote: (s: string) => string,
 *   entries: (o: object, sorted: boolean | undefined) => [string, any][],
 *   walk: (node: unknown, depth: number, w: any) => Problem | null,
 *   ref: (s: string, w: any) => Problem | null,
 * }} Helpers schemacheck.mjs's helpers
 */

/**
 * schemameta.go's checkMetaKeyword: [problem, handled].
 * @param {string} k
 * @param {any} v
 * @param {number} depth
 * @param {{ draft: number, sorted?: boolean }} w
 * @param {Helpers} h
 * @returns {[Problem | null, boolean]}
 */
export function metaKeyword(k, v, depth, w, h) {
    const from = (/** @type {number} */ d) => w.draft >= d;
    if (k === "items") {
        return isArray(v) && v.length === 0 && w.draft !== 2020 ? [h.bad(`must be a non-empty list of schemas, got ${h.value(v)}`), true] : [null, false];
    }
    if (k === "additionalProperties" || k === "additionalItems") return [null, typeof v === "boolean"];
    if (k === "uniqueItems" || ((k === "readOnly" || k === "writeOnly") && from(7)) || (k === "deprecated" && from(2019)) || (k === "$recursiveAnchor" && w.draft === 2019)) {
        return [typeof v === "boolean" ? null : h.bad(`must be a boolean, got ${h.value(v)}`), true];
    }
    if (k === "examples" && from(7)) return [isArray(v) ? null : h.bad(`must be a list, got ${h.kind(v)}`), true];
    if ((k === "$comment" && from(7)) || (k === "id" && w.draft === 4)) return [typeof v === "string" ? null : h.bad(`must be a string, got ${h.value(v)}`), true];
    if (k === "$vocabulary" && from(2019)) {
        if (v === null || typeof v !== "object" || isArray(v)) return [h.bad(`must be an object of booleans, got ${h.kind(v)}`), true];
        for (const [name, x] of h.entries(v, w.sorted)) {
            if (!ABSOLUTE_URI.test(name)) return [h.at(h.bad(`${h.goQuote(name)} is not an absolute URI (a vocabulary's)`), name), true];
            if (typeof x !== "boolean") return [h.at(h.bad(`must be a boolean, got ${h.value(x)}`), name), true];
        }
        return [null, true];
    }
    if ((k === "$anchor" && from(2019)) || ((k === "$dynamicAnchor" || k === "$recursiveAnchor") && from(2020))) {
        if (typeof v !== "string") return [h.bad(`must be a string, got ${h.value(v)}`), true];
        return [ANCHOR_NAME.test(v) ? null : h.bad(`${h.goQuote(v)} is not an anchor name (a letter or _, then letters, digits, -, _ or .)`), true];
    }
    if (k === "$id" && from(2019) && typeof v === "string" && v.replace(/#$/, "").includes("#")) {
        return [h.bad(`${h.goQuote(v)} has a fragment, which 2019-09 and 2020-12 do not allow in $id (name a place with $anchor)`), true];
    }
    if ((k === "$dynamicRef" && from(2020)) || (k === "$recursiveRef" && from(2019))) {
        if (typeof v !== "string") return [h.bad(`must be a string, got ${h.value(v)}`), true];
        return [h.ref(v, w), true];
    }
    if (k === "dependentRequired" && from(2019)) {
        if (v === null || typeof v !== "object" || isArray(v)) return [h.bad(`must be an object of property name lists, got ${h.kind(v)}`), true];
        for (const [name, x] of h.entries(v, w.sorted)) {
            const err = nameList(x, w, h);
            if (err) return [h.at(err, name), true];
        }
        return [null, true];
    }
    if (k === "dependencies") {
        if (v === null || typeof v !== "object" || isArray(v)) return [h.bad(`must be an object of schemas or property name lists, got ${h.kind(v)}`), true];
        for (const [name, x] of h.entries(v, w.sorted)) {
            const err = isArray(x) ? nameList(x, w, h) : h.walk(x, depth + 1, w);
            if (err) return [h.at(err, name), true];
        }
        return [null, true];
    }
    return [null, false];
}

/**
 * schemameta.go's typeListProblem.
 * @param {unknown[]} list
 * @param {Helpers} h
 */
export function typeListProblem(list, h) {
    if (list.length === 0) return h.bad("must name at least one type, got an empty list (no value would be valid)");
    return nameTwice(list, "type", h);
}

/**
 * schemameta.go's checkNameList: the rule of "required".
 * @param {unknown} v
 * @param {{ draft: number }} w
 * @param {Helpers} h
 */
export function nameList(v, w, h) {
    if (!isArray(v)) return h.bad(`must be a list of property names, got ${h.kind(v)}`);
    const i = v.findIndex((x) => typeof x !== "string");
    if (i >= 0) return h.at(h.bad(`must be a property name, got ${h.value(v[i])}`), String(i));
    if (v.length === 0 && w.draft === 4) return h.bad("must name at least one property under draft-04, got an empty list (leave the keyword out instead)");
    return nameTwice(v, "property", h);
}

/**
 * @param {unknown[]} list
 * @param {string} what
 * @param {Helpers} h
 */
function nameTwice(list, what, h) {
    const seen = new KeptSet();
    for (let i = 0; i < list.length; i++) {
        if (seen.has(list[i])) return h.at(h.bad(`must not name a ${what} twice, got ${h.goQuote(String(list[i]))} again`), String(i));
        seen.add(list[i]);
    }
    return null;
}

/**
 * schemameta.go's checkDraft4Bounds.
 * @param {Record<string, unknown>} node
 * @param {string} k
 * @param {{ draft: number }} w
 * @param {Helpers} h
 */
export function draft4Bounds(node, k, w, h) {
    if (w.draft !== 4 || (k !== "exclusiveMaximum" && k !== "exclusiveMinimum")) return null;
    const bound = k === "exclusiveMinimum" ? "minimum" : "maximum";
    return Object.prototype.hasOwnProperty.call(node, bound) ? null : h.bad(`needs "${bound}" beside it under draft-04 (it makes that bound exclusive)`);
}
