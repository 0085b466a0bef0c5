// schemahabits.go's readAsMeant, for worker mode's page check: a "required"
// list naming a property twice names it once, and OpenAPI 3.0's boolean
// exclusiveMaximum/exclusiveMinimum outside draft-04 becomes the bound of
// draft-06 and later (true beside a numeric maximum/minimum), or nothing
// (false, or no bound beside it). The page walks the schema as the core's
// validator will read it; the text it sends is the author's, which the
// worker's core reads so too.

import { isArray, objectKeys } from "./intrinsics.mjs";
import { ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP, schemaDraft } from "./schemacheck.mjs";

const MAX_DEPTH = 64;
const own = (/** @type {object} */ o, /** @type {string} */ k) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * Rewrites a schema (a fresh parse, the caller's own) in place and returns it.
 * @param {unknown} root
 * @param {string} [text] its JSON text, when there is one: a schema without
 *   "exclusiveM in it has no bound to rewrite
 */
export function readAsMeant(root, text) {
    if (root === null || typeof root !== "object" || isArray(root)) return root;
    const $schema = /** @type {any} */ (root).$schema;
    const draft = typeof $schema === "string" ? schemaDraft($schema) : 2020;
    meantAt(root, 0, draft !== 4 && (text === undefined || text.indexOf('"exclusiveM') >= 0));
    return root;
}

/**
 * @param {unknown} node
 * @param {number} depth
 * @param {boolean} bounds
 */
function meantAt(node, depth, bounds) {
    if (node === null || typeof node !== "object" || isArray(node) || depth > MAX_DEPTH) return;
    const n = /** @type {Record<string, any>} */ (node);
    if (depth > 0 && own(n, "$schema")) bounds = false;
    if (isArray(n.required) && own(n, "required")) n.required = onceEach(n.required);
    if (bounds) {
        exclusiveBound(n, "exclusiveMaximum", "maximum");
        exclusiveBound(n, "exclusiveMinimum", "minimum");
    }
    const keys = objectKeys(n);
    for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        const v = n[k];
        if (isArray(v) && (k === "items" || SCHEMA_LIST.has(k))) {
            for (let j = 0; j < v.length; j++) meantAt(v[j], depth + 1, bounds);
        } else if (ONE_SCHEMA.has(k)) {
            meantAt(v, depth + 1, bounds);
        } else if ((SCHEMA_MAP.has(k) || k === "dependencies") && v !== null && typeof v === "object" && !isArray(v)) {
            const names = objectKeys(v);
            for (let j = 0; j < names.length; j++) meantAt(v[names[j]], depth + 1, bounds);
        }
    }
}

/**
 * The list without a name's repeats, the first of each kept; anything but a
 * string stays where it is, for the check to name.
 * @param {unknown[]} list
 */
function onceEach(list) {
    /** @type {Record<string, boolean>} */
    const seen = Object.create(null);
    /** @type {unknown[]} */
    const out = [];
    for (let i = 0; i < list.length; i++) {
        const x = list[i];
        if (typeof x === "string") {
            if (seen[x]) continue;
            seen[x] = true;
        }
        out[out.length] = x;
    }
    return out;
}

/**
 * schemahabits.go's exclusiveBound.
 * @param {Record<string, any>} n
 * @param {string} exclusive
 * @param {string} bound
 */
function exclusiveBound(n, exclusive, bound) {
    const b = n[exclusive];
    if (typeof b !== "boolean" || !own(n, exclusive)) return;
    delete n[exclusive];
    if (b && own(n, bound) && typeof n[bound] === "number") {
        n[exclusive] = n[bound];
        delete n[bound];
    }
}
