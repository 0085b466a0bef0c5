// Worker mode's copy of schemaref.go: which keywords a draft has, and
// whether a reference is to a place in the schema document (a fragment, or
// a resource the document embeds with an "$id") or one to load, refused.

/** The compiler's URL of a tool schema (schema.go's schemaURL): the root's base URI. */
export const SCHEMA_URL = "mem:///codemode/schema.json";

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

/**
 * Whether keyword k means something in draft (0: a subschema naming its own "$schema", checked as any).
 * @param {string} k
 * @param {number} draft
 */
export function inDraft(k, draft) {
    if (!Object.prototype.hasOwnProperty.call(KEYWORD_DRAFTS, k) || draft === 0) return true;
    const [from, to] = KEYWORD_DRAFTS[k];
    return draft >= from && (to === 0 || draft <= to);
}

/**
 * ref resolved against base, without its fragment; null when either does not parse.
 * @param {string} base
 * @param {string} ref
 */
function resolveURL(base, ref) {
    try {
        return new URL(ref, base).href.split("#")[0];
    } catch {
        return null;
    }
}

/**
 * The base URI of schema n, whose parent's is base (schemaref.go's resourceBase).
 * @param {Record<string, unknown>} n
 * @param {string} base
 * @param {number} draft
 */
export function resourceBase(n, base, draft) {
    const id = n[draft === 4 ? "id" : "$id"];
    if (typeof id !== "string" || ("$ref" in n && draft !== 0 && draft <= 7)) return base;
    return resolveURL(base, id) ?? base;
}

// The keywords whose value is a schema, a list of schemas or a map of them, as the check walks them.
const HOLDERS = new Set([
    "items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else", "additionalItems", "unevaluatedItems", "unevaluatedProperties", "contentSchema",
    "allOf", "anyOf", "oneOf", "prefixItems",
]);
const MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]);

/**
 * Adds the base URI of each schema below node to into (schemaref.go's collectResources).
 * @param {unknown} node
 * @param {string} base
 * @param {number} draft
 * @param {number} depth
 * @param {Set<string>} into
 */
function collect(node, base, draft, depth, into) {
    if (node === null || typeof node !== "object" || Array.isArray(node) || depth > 64) return;
    const n = /** @type {Record<string, unknown>} */ (node);
    if (depth > 0 && "$schema" in n) draft = 0;
    base = resourceBase(n, base, draft);
    into.add(base);
    for (const [k, v] of Object.entries(n)) {
        if (!inDraft(k, draft)) continue;
        if (HOLDERS.has(k)) {
            for (const s of Array.isArray(v) ? v : [v]) collect(s, base, draft, depth + 1, into);
        } else if (MAPS.has(k) && v !== null && typeof v === "object" && !Array.isArray(v)) {
            for (const s of Object.values(v)) collect(s, base, draft, depth + 1, into);
        }
    }
}

/**
 * The places of a schema document: embeds says whether a reference met where
 * the base URI is base is to one of them (schemaref.go's schemaRefs).
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
            const u = resolveURL(base, ref);
            if (u === null) return false;
            if (!resources) {
                resources = new Set([SCHEMA_URL]);
                collect(root, SCHEMA_URL, draft, 0, resources);
            }
            return resources.has(u);
        },
    };
}
