// Worker mode's copy of schemaref.go and of draft.go's subschema places:
// which keywords a draft has, where its subschemas are, and whether a
// reference is to a place in the schema document (a fragment, or a resource
// the document embeds with an "$id") or one to load, refused. The one table
// of both page checks (schemacheck.mjs, refcycle.mjs), so that they read a
// draft alike. URLs are resolved as Go does (schemaurl.mjs); a reference
// whose resolution is not known here is not refused: the core judges it.

import { isArray, keptSetOf } from "./intrinsics.mjs";
import { resolveRef, SCHEMA_URL } from "./schemaurl.mjs";

export { SCHEMA_URL };

/**
 * The drafts a keyword belongs to, first and last (0: still in 2020-12),
 * for the keywords not in every draft (schemaref.go's keywordDrafts).
 * @type {Record<string, [number, number]>}
 */
const KEYWORD_DRAFTS = {
    $id: [6, 0], contains: [6, 0], propertyNames: [6, 0],
    if: [7, 0], then: [7, 0], else: [7, 0], contentEncoding: [7, 0], contentMediaType: [7, 0],
    $anchor: [2019, 0], $defs: [2019, 0], contentSchema: [2019, 0], dependentSchemas: [2019, 0],
    minContains: [2019, 0], maxContains: [2019, 0], unevaluatedItems: [2019, 0], unevaluatedProperties: [2019, 0],
    $dynamicAnchor: [2020, 0], $dynamicRef: [2020, 0], prefixItems: [2020, 0],
    additionalItems: [4, 2019],
};

// The keywords that hold subschemas (draft.go's subschemas), and how: one
// schema, a list ("items" is either), a map of them. A keyword is a place
// for ids and anchors from the first draft KEYWORD_DRAFTS gives it (4 when
// none) on: the compiler's drafts only add places, so "additionalItems",
// which the check ignores in 2020-12, is still one there.
export const ONE = 1, LIST = 2, MAP = 4;
/** @type {Record<string, number>} */
export const SUBSCHEMAS = {
    not: ONE, additionalProperties: ONE, items: ONE | LIST, additionalItems: ONE, propertyNames: ONE, contains: ONE,
    if: ONE, then: ONE, else: ONE, unevaluatedProperties: ONE, unevaluatedItems: ONE, contentSchema: ONE,
    allOf: LIST, anyOf: LIST, oneOf: LIST, prefixItems: LIST,
    definitions: MAP, properties: MAP, patternProperties: MAP, dependencies: MAP, $defs: MAP, dependentSchemas: MAP,
};

const own = (/** @type {object} */ o, /** @type {string} */ k) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * How keyword k holds subschemas in draft (ONE, LIST, MAP), 0 when it holds none there.
 * @param {string} k
 * @param {number} draft
 */
export function placeIn(k, draft) {
    if (!own(SUBSCHEMAS, k)) return 0;
    return own(KEYWORD_DRAFTS, k) && KEYWORD_DRAFTS[k][0] > draft ? 0 : SUBSCHEMAS[k];
}

/**
 * Whether keyword k means something in draft (0: a subschema naming its own "$schema", checked as any).
 * @param {string} k
 * @param {number} draft
 */
export function inDraft(k, draft) {
    if (!own(KEYWORD_DRAFTS, k) || draft === 0) return true;
    const [from, to] = KEYWORD_DRAFTS[k];
    return draft >= from && (to === 0 || draft <= to);
}

/**
 * The base URI of schema n, whose parent's is base (schemaref.go's
 * resourceBase): "" when not known here.
 * @param {Record<string, unknown>} n
 * @param {string} base
 * @param {number} draft
 */
export function resourceBase(n, base, draft) {
    const id = n[draft === 4 ? "id" : "$id"];
    if (typeof id !== "string" || ("$ref" in n && draft !== 0 && draft <= 7)) return base;
    return resolveRef(base, id) ?? base;
}

/**
 * Adds the base URI of each schema below node to into (schemaref.go's collectResources).
 * @param {unknown} node
 * @param {string} base
 * @param {number} draft
 * @param {number} depth
 * @param {Set<string>} into
 */
function collect(node, base, draft, depth, into) {
    if (node === null || typeof node !== "object" || isArray(node) || depth > 64) return;
    const n = /** @type {Record<string, unknown>} */ (node);
    if (depth > 0 && "$schema" in n) draft = 0;
    base = resourceBase(n, base, draft);
    into.add(base);
    for (const [k, v] of Object.entries(n)) {
        if (!inDraft(k, draft) || !own(SUBSCHEMAS, k)) continue;
        if (!(SUBSCHEMAS[k] & MAP)) {
            for (const s of isArray(v) ? v : [v]) collect(s, base, draft, depth + 1, into);
        } else if (v !== null && typeof v === "object" && !isArray(v)) {
            for (const s of Object.values(v)) collect(s, base, draft, depth + 1, into);
        }
    }
}

/**
 * The places of a schema document: embeds says whether a reference met where
 * the base URI is base is to one of them (schemaref.go's schemaRefs), or
 * may be: a reference or a resource whose URL is not known here ("") is
 * left to the core.
 * @param {unknown} root
 * @param {number} draft the root's
 */
export function schemaRefs(root, draft) {
    /** @type {Set<string> | null} */
    let resources = null;
    return {
        /** @param {string} base @param {string} ref */
        embeds(base, ref) {
            if (ref.startsWith("#")) return true;
            const u = resolveRef(base, ref);
            if (u === null) return false;
            if (!resources) {
                resources = keptSetOf([SCHEMA_URL]);
                collect(root, SCHEMA_URL, draft, 0, resources);
            }
            return u === "" || resources.has(u) || resources.has("");
        },
    };
}
