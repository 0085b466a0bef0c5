// Worker mode's registration check for schemas that apply themselves to the
// same value without end ({ $ref: "#" }): the rule of schemacycle.go, with
// its message, so that registerTool throws at once as it does in-thread
// instead of the worker refusing the tool a message later. Only documents
// whose references are local ("#/json/pointer" or "#anchor") and that set
// no nested $id are checked here; anything else is left to the core. An
// anchor named twice, which the core's compiler refuses, is refused here
// too, in the same words.

import { schemaDraft } from "./schemacheck.mjs";

const IN_PLACE = ["$ref", "$recursiveRef", "not", "if", "then", "else"];
const IN_PLACE_LISTS = ["allOf", "anyOf", "oneOf"];
const IN_PLACE_MAPS = ["dependentSchemas", "dependencies"];
const DESCENDING = ["propertyNames", "unevaluatedProperties", "contains", "unevaluatedItems", "contentSchema", "additionalProperties", "additionalItems", "items"];
const DESCENDING_LISTS = ["prefixItems", "items"];
const DESCENDING_MAPS = ["properties", "patternProperties"];

/**
 * schema.go's openAPIRefHint: a reference into an OpenAPI document's components.
 * @param {string} ref
 */
const openAPIRefHint = (ref) =>
    ref.startsWith("#/components/")
        ? ` (a reference into an OpenAPI document's components, which this schema does not hold: copy that schema under $defs and refer to it as ${JSON.stringify(`#/$defs/${ref.slice(ref.lastIndexOf("/") + 1)}`)})`
        : "";

/** @param {string} key */
const escape = (key) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** @param {unknown} v @returns {v is Record<string, any>} */
const isSchema = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The message of the core for a schema that never descends, a local
 * reference that points nowhere, or "" when the check passes (or does not
 * apply to this document).
 * @param {unknown} root a JSON Schema as JSON data
 * @returns {string}
 */
export function refCycleError(root) {
    if (!isSchema(root)) return "";
    /** @type {Map<string, string>} anchor -> location */
    const anchors = new Map();
    let checkable = true;
    let duplicate = "";
    const draft = typeof root.$schema === "string" ? schemaDraft(root.$schema) : 2020;
    /** @param {any} s @param {string} loc */
    const scan = (s, loc) => {
        if (Array.isArray(s)) s.forEach((x, i) => scan(x, `${loc}/${i}`));
        if (!isSchema(s)) return;
        if (loc !== "#" && typeof s.$id === "string") checkable = false;
        for (const k of ["$ref", "$recursiveRef", "$dynamicRef"]) if (k in s && (typeof s[k] !== "string" || !s[k].startsWith("#"))) checkable = false;
        if (typeof s.$anchor === "string" && draft < 2019) anchors.set(s.$anchor, loc);
        // From 2019-09 (and $dynamicAnchor in 2020-12) an anchor names a
        // place; the compiler refuses a name given twice.
        for (const name of [draft >= 2019 && s.$anchor, draft === 2020 && s.$dynamicAnchor]) {
            if (typeof name !== "string") continue;
            const first = anchors.get(name);
            if (first !== undefined && first !== loc && !duplicate) duplicate = `duplicate anchor ${JSON.stringify(name)} in schema at ${JSON.stringify(first.slice(1))} and ${JSON.stringify(loc.slice(1))}`;
            if (first === undefined) anchors.set(name, loc);
        }
        for (const [k, v] of Object.entries(s)) if (k !== "enum" && k !== "const" && k !== "examples" && k !== "default") scan(v, `${loc}/${escape(k)}`);
    };
    scan(root, "#");
    if (!checkable) return "";
    if (duplicate) return duplicate;

    /** @param {string} ref @returns {[string, any] | null} */
    const resolve = (ref) => {
        const frag = ref.slice(1);
        if (frag !== "" && !frag.startsWith("/")) {
            const loc = anchors.get(frag);
            return loc === undefined ? null : resolve(loc);
        }
        /** @type {any} */
        let node = root;
        const parts = frag === "" ? [] : frag.slice(1).split("/");
        for (const raw of parts) {
            let key = raw;
            try {
                key = decodeURIComponent(raw);
            } catch {
                // not percent-encoded: the raw token
            }
            key = key.replace(/~1/g, "/").replace(/~0/g, "~");
            if (node === null || typeof node !== "object" || !(key in node)) return null;
            node = node[key];
        }
        return [parts.length === 0 ? "#" : `#/${parts.join("/")}`, node];
    };

    /** @param {any} s @param {string} loc @param {boolean} inPlace @returns {[string, any][]} */
    const edges = (s, loc, inPlace) => {
        /** @type {[string, any][]} */
        const out = [];
        /** @param {string} l @param {any} v */
        const add = (l, v) => isSchema(v) && out.push([l, v]);
        if (inPlace) {
            for (const k of ["$ref", "$recursiveRef"]) {
                if (typeof s[k] !== "string") continue;
                const target = resolve(s[k]);
                if (target === null) throw new Error(`json-pointer in ${JSON.stringify(s[k])} not found${openAPIRefHint(s[k])}`);
                add(...target);
            }
            for (const k of IN_PLACE) if (k !== "$ref" && k !== "$recursiveRef") add(`${loc}/${k}`, s[k]);
            for (const k of IN_PLACE_LISTS) if (Array.isArray(s[k])) s[k].forEach((/** @type {any} */ v, /** @type {number} */ i) => add(`${loc}/${k}/${i}`, v));
            for (const k of IN_PLACE_MAPS) if (isSchema(s[k])) for (const [n, v] of Object.entries(s[k])) add(`${loc}/${k}/${escape(n)}`, v);
            return out;
        }
        for (const k of DESCENDING) add(`${loc}/${k}`, s[k]);
        for (const k of DESCENDING_LISTS) if (Array.isArray(s[k])) s[k].forEach((/** @type {any} */ v, /** @type {number} */ i) => add(`${loc}/${k}/${i}`, v));
        for (const k of DESCENDING_MAPS) if (isSchema(s[k])) for (const [n, v] of Object.entries(s[k])) add(`${loc}/${k}/${escape(n)}`, v);
        return out;
    };

    /** @type {Map<string, number>} 1: on the current in-place path, 2: finished */
    const state = new Map();
    /** @type {string[]} */
    const path = [];
    /** @param {string} loc @param {any} s */
    const walkInPlace = (loc, s) => {
        const st = state.get(loc);
        if (st === 1) throw new Error(`the schema refers to itself without descending into the value (${path.join(" -> ")} -> ${loc}): validation would never end`);
        if (st === 2) return;
        state.set(loc, 1);
        path.push(loc);
        for (const [l, v] of edges(s, loc, true)) walkInPlace(l, v);
        path.pop();
        state.set(loc, 2);
    };
    const seen = new Set();
    /** @param {string} loc @param {any} s */
    const walkAll = (loc, s) => {
        if (seen.has(loc)) return;
        seen.add(loc);
        walkInPlace(loc, s);
        for (const [l, v] of [...edges(s, loc, true), ...edges(s, loc, false)]) walkAll(l, v);
    };
    try {
        walkAll("#", root);
    } catch (err) {
        return /** @type {Error} */ (err).message;
    }
    return "";
}
