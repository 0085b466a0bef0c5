// Worker mode's registration check for what the core's compiler refuses in
// a schema's references and named places: a schema that applies itself to
// the same value without end ({ $ref: "#" }, schemacycle.go's rule), a
// reference to a place that is not there, an anchor or an id named twice,
// an id Go cannot parse; with the core's messages, so that registerTool
// throws at once as it does in-thread instead of the worker refusing the
// tool a message later. It reads the schema as the compiler does
// (third_party/jsonschema): ids and anchors only where the draft has
// subschemas, a draft before 2019-09 ignoring the siblings of "$ref", each
// keyword only from the draft that brought it, each reference against the
// resource it is written in (a document may embed others: an "$id" other
// than a fragment below the root). An id or reference this reading is not
// sure of, or a document whose embedded resources may be read in another
// draft or hold dynamic references, is left to the core.

import { TextEncoder } from "./env.mjs";
import { KeptMap, KeptSet, isArray } from "./intrinsics.mjs";
import { goQuote, schemaDraft } from "./schemacheck.mjs";
import { LIST, MAP, ONE, placeIn, SUBSCHEMAS } from "./schemaref.mjs";
import { join, parseProblem, SCHEMA_URL } from "./schemaurl.mjs";

// What the compiler makes of the keywords that hold subschemas
// (objcompiler.go), each from the draft that brought it (schemaref.mjs's
// table): applied in place, or to a part of the value. The references
// apply in place from their own drafts ($recursiveRef is 2019-09's, which
// the check's table leaves out: it holds no subschema).
/** @type {Record<string, number>} */
const REFS = { $ref: 4, $recursiveRef: 2019, $dynamicRef: 2020 };
const IN_PLACE = ["not", "if", "allOf", "anyOf", "oneOf", "dependentSchemas", "dependencies"];
const DESCENDING = ["propertyNames", "unevaluatedProperties", "contains", "unevaluatedItems", "additionalProperties", "items", "prefixItems", "properties", "patternProperties"];
// Where each draft finds subschemas, and so ids and anchors (draft.go).
const PLACES = Object.keys(SUBSCHEMAS);
// The compiler's messages leave out the document's made-up address.
const shown = (/** @type {string} */ url) => url.replace(/^mem:\/\/\/codemode\//, "").replace(/^schema\.json$/, "");

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

/**
 * A location ("#/$defs/a b") as the compiler prints it: each token of its
 * JSON pointer as Go's url.PathEscape writes it ("#/$defs/a%20b").
 * @param {string} loc
 */
const shownLoc = (loc) => {
    const slash = loc.indexOf("/");
    return slash < 0 ? loc : loc.slice(0, slash) + encodeFrag(loc.slice(slash));
};

/**
 * A fragment as the compiler prints it (its encode): each "/"-separated
 * token as Go's url.PathEscape writes it.
 * @param {string} frag
 */
const encodeFrag = (frag) =>
    frag
        .split("/")
        .map((tok) => Array.from(new TextEncoder().encode(tok), (b) => (b < 0x80 && /[A-Za-z0-9\-._~$&+:=@]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`)).join(""))
        .join("/");

/**
 * Whether a reference's percent escapes read as UTF-8 text ("#/a%20b"):
 * any other ("#/%zz", "#/%FF") is the core's to judge.
 * @param {string} ref
 */
const decodes = (ref) => {
    try {
        decodeURIComponent(ref);
        return true;
    } catch {
        return false;
    }
};

/**
 * A reference's first "%" in its fragment that starts no escape, with what
 * follows it as Go's url.PathUnescape quotes it (three bytes at most), or "".
 * @param {string} ref
 */
const badEscape = (ref) => {
    const hash = ref.indexOf("#");
    const m = hash < 0 ? null : /%(?![0-9A-Fa-f]{2})/.exec(ref.slice(hash + 1));
    return m ? ref.slice(hash + 1).slice(m.index, m.index + 3) : "";
};

/** @param {unknown} v @returns {v is Record<string, any>} */
const isSchema = (v) => v !== null && typeof v === "object" && !isArray(v);

/**
 * Each [location, schema] of s under the keywords names, as the draft
 * holds them; a list counts only under the keywords lists.
 * @param {Record<string, any>} s
 * @param {string} loc
 * @param {number} draft
 * @param {string[]} names
 * @param {string[]} [lists]
 * @returns {[string, any][]}
 */
function parts(s, loc, draft, names, lists = names) {
    /** @type {[string, any][]} */
    const out = [];
    for (const [k, v] of Object.entries(s)) {
        const shape = names.includes(k) ? placeIn(k, draft) : 0;
        if (shape & ONE && !isArray(v)) out.push([`${loc}/${escape(k)}`, v]);
        if (shape & LIST && isArray(v) && lists.includes(k)) v.forEach((x, i) => out.push([`${loc}/${escape(k)}/${i}`, x]));
        if (shape & MAP && isSchema(v)) for (const [n, x] of Object.entries(v)) out.push([`${loc}/${escape(k)}/${escape(n)}`, x]);
    }
    return out;
}

/**
 * The message of the core for a schema that never descends, a local
 * reference that points nowhere, a place named twice or an id that does
 * not parse, or "" when the check passes (or leaves the document to the
 * core).
 * @param {unknown} root a JSON Schema as JSON data
 * @returns {string}
 */
export function refCycleError(root) {
    if (!isSchema(root)) return "";
    const draft = typeof root.$schema === "string" ? schemaDraft(root.$schema) : 2020;
    if (draft === 0) return "";
    const idKey = draft === 4 ? "id" : "$id";
    /** @type {Map<string, string>} resource URL "#" anchor -> location */
    const anchors = new KeptMap();
    /** @type {Map<string, string>} resolved id -> pointer */
    const ids = new KeptMap();
    /**
     * Each schema's location -> the URL of the resource it is in ("" when
     * not known here) and that resource's pointer: references resolve there.
     * @type {Map<string, { base: string, res: string }>}
     */
    const places = new KeptMap();
    let checkable = true;
    let problem = "";
    let rootBase = SCHEMA_URL;
    // Whether the document holds a resource below its root (an id other
    // than a fragment), and a subschema with its own "$schema" or a
    // dynamic reference, which such a document's resources may read
    // otherwise than the root's draft says: then the core judges.
    let nested = false;
    /** @type {[string, string][]} each $dynamicAnchor's resource pointer and location */
    const dynamic = [];
    let otherReading = false;
    /**
     * Whether the URL of a reference, written where the base URI is base, is
     * known here (a fragment's is the resource's): the core's keyword check
     * calls one that is no resource's remote, which schemacheck.mjs says
     * only where it knows the URL.
     * @param {string} ref
     * @param {string} base
     */
    const resolvable = (ref, base) => {
        const hash = ref.indexOf("#");
        const written = hash < 0 ? ref : ref.slice(0, hash);
        return written === "" || (base !== "" && parseProblem(written) === "ok" && join(base, written) !== "");
    };
    /**
     * @param {any} s
     * @param {string} loc
     * @param {string} base the id of the resource s is in, "" when unknown
     * @param {string} res the resource's pointer
     */
    const scan = (s, loc, base, res) => {
        if (!isSchema(s) || problem) return;
        // Before 2019-09, "$ref" makes its siblings no keywords.
        const refOnly = draft < 2019 && "$ref" in s;
        for (const k of Object.keys(REFS)) if (k in s && (typeof s[k] !== "string" || !(decodes(s[k]) || badEscape(s[k])) || !resolvable(s[k], base))) checkable = false;
        if ((loc !== "#" && "$schema" in s) || "$recursiveRef" in s || "$dynamicRef" in s) otherReading = true;
        const id = !refOnly && typeof s[idKey] === "string" ? s[idKey] : undefined;
        if (id !== undefined) {
            const hash = id.indexOf("#");
            const url = hash < 0 ? id : id.slice(0, hash);
            const frag = hash < 0 ? "" : id.slice(hash + 1);
            if (url !== "") {
                const parsed = parseProblem(url);
                if (parsed === "bad") {
                    problem = `error in parsing id at ${JSON.stringify(shownLoc(loc))}`;
                    return;
                }
                const resolved = parsed === "ok" ? join(base, url) : "";
                if (loc !== "#") nested = true;
                // The core's keyword check may call a reference to a
                // resource whose URL is not known here remote.
                if (resolved === "" && loc !== "#") checkable = false;
                else rootBase = resolved;
                base = resolved;
                res = loc.slice(1);
                if (resolved) {
                    const first = ids.get(resolved);
                    const ptr = loc.slice(1);
                    if (first !== undefined && first !== ptr) {
                        // The core's messages write the compiler's URL, quoted, as schema.
                        const name = resolved === SCHEMA_URL ? "schema" : JSON.stringify(shown(resolved));
                        problem = `duplicate id ${name} in schema at ${JSON.stringify(ptr)} and ${JSON.stringify(first)}`;
                        return;
                    }
                    ids.set(resolved, ptr);
                }
            }
            // Before 2019-09 an id's fragment names an anchor.
            if (draft < 2019 && frag !== "" && !frag.startsWith("/")) {
                if (frag.includes("%")) checkable = false;
                else addAnchor(frag, loc, base);
            }
        }
        for (const name of [draft >= 2019 && s.$anchor, draft === 2020 && s.$dynamicAnchor]) if (typeof name === "string") addAnchor(name, loc, base);
        if (draft === 2020 && typeof s.$dynamicAnchor === "string") dynamic.push([res, loc]);
        places.set(loc, { base, res });
        for (const [l, v] of parts(s, loc, draft, PLACES)) scan(v, l, base, res);
    };
    /**
     * An anchor is named in its resource: two resources may each have one
     * of the same name. Of a resource whose URL is not known here (""),
     * none is judged.
     * @param {string} name @param {string} loc @param {string} base the resource's URL
     */
    const addAnchor = (name, loc, base) => {
        if (base === "") return;
        const key = `${base}#${name}`;
        const first = anchors.get(key);
        if (first !== undefined && first !== loc && !problem) problem = `duplicate anchor ${JSON.stringify(name)} in schema at ${JSON.stringify(first.slice(1))} and ${JSON.stringify(loc.slice(1))}`;
        if (first === undefined) anchors.set(key, loc);
    };
    // The root is the resource at the compiler's URL when it has no id of
    // its own: a resource below it with that URL names it twice.
    if (typeof root[idKey] !== "string") ids.set(SCHEMA_URL, "");
    scan(root, "#", SCHEMA_URL, "");
    if (problem) return problem;
    if (!checkable || (nested && otherReading)) return "";

    /**
     * The place a local reference names, as the compiler finds it: an
     * anchor of a resource of the document, or a JSON pointer into one,
     * the reference resolved against the resource the schema at loc is in.
     * @param {string} ref as written ("#/$defs/a", "#name", "item.json#/x", "" for the resource)
     * @param {string} loc where it is written
     * @returns {[string, any]}
     */
    const resolve = (ref, loc) => {
        // The compiler unescapes the fragment first. From draft-06 on, the
        // keyword check has refused such a reference already (as the
        // core's does), unless below a subschema with a "$schema" of its
        // own, where the core's meta-schema judges it.
        const esc = badEscape(ref);
        if (esc) {
            if (draft !== 4 || /[^\x21-\x7e]/.test(esc)) throw new Unknown();
            throw new Error(`error in parsing ${goQuote(ref)}: invalid URL escape ${goQuote(esc)}`);
        }
        // A place that is no schema of the document's walk (a pointer to
        // "#/properties") is in the root's resource, unless there are others.
        const at = places.get(loc) ?? (nested ? undefined : { base: rootBase, res: "" });
        if (at === undefined) throw new Unknown();
        const hash = ref.indexOf("#");
        const written = hash < 0 ? ref : ref.slice(0, hash);
        const url = written === "" ? at.base : at.base && parseProblem(written) === "ok" ? join(at.base, written) : "";
        const res = written === "" ? at.res : resourceAt(url);
        const frag = hash < 0 ? "" : decodeURIComponent(ref.slice(hash + 1));
        if (frag === "" || frag.startsWith("/")) return pointer(res + frag);
        const anchor = anchors.get(`${url}#${frag}`);
        if (anchor !== undefined) return pointer(anchor.slice(1));
        // The compiler names the anchor by its resource's id.
        if (url === "") throw new Unknown();
        throw new Error(`anchor in ${JSON.stringify(`${shown(url)}#${encodeFrag(frag)}`)} not found in schema schema`);
    };
    /**
     * resolve, its error named by the reference's path in the schema, as
     * schema.go's cleanCompileError names it ("/properties/a/$ref: ...").
     * @param {string} ref
     * @param {string} loc
     * @param {string} k the keyword ("$ref", ...)
     * @returns {[string, any]}
     */
    const resolveAt = (ref, loc, k) => {
        try {
            return resolve(ref, loc);
        } catch (err) {
            if (err instanceof Unknown) throw err;
            const path = [...loc.split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~")), k];
            throw new Error(`${path.map((t) => `/${t}`).join("")}: ${/** @type {Error} */ (err).message}`);
        }
    };
    /**
     * The pointer of the document's resource at url: the root's at its id,
     * or at the compiler's URL when it has none.
     * @param {string} url
     */
    const resourceAt = (url) => {
        const res = url === SCHEMA_URL && rootBase === SCHEMA_URL ? "" : ids.get(url);
        if (url === "" || res === undefined) throw new Unknown();
        return res;
    };
    /** @param {string} ptr a JSON pointer, its tokens ~-escaped @returns {[string, any]} */
    const pointer = (ptr) => {
        /** @type {any} */
        let node = root;
        const tokens = ptr === "" ? [] : ptr.slice(1).split("/");
        const shown = shownLoc(`#${ptr}`);
        for (const raw of tokens) {
            if (/~(?![01])/.test(raw)) throw new Error(`invalid json-pointer ${JSON.stringify(shown)}`);
            const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
            if (node === null || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, key)) {
                throw new Error(`json-pointer in ${JSON.stringify(shown)} not found${openAPIRefHint(shown)}`);
            }
            node = node[key];
        }
        return [tokens.length === 0 ? "#" : `#/${tokens.join("/")}`, node];
    };

    /** @param {any} s @param {string} loc @param {boolean} inPlace @returns {[string, any][]} */
    const edges = (s, loc, inPlace) => {
        // Before 2019-09, "$ref" is the schema's one keyword.
        const refOnly = draft < 2019 && typeof s.$ref === "string";
        /** @type {[string, any][]} */
        const out = [];
        if (inPlace) {
            for (const [k, from] of Object.entries(REFS)) if (from <= draft && typeof s[k] === "string") out.push(resolveAt(s[k], loc, k));
            if (!refOnly) {
                out.push(...parts(s, loc, draft, IN_PLACE));
                // then and else apply only beside an if, and not beside
                // an if that is false or true, respectively.
                if ("if" in s && draft >= 7) {
                    if (s.if !== false) out.push([`${loc}/then`, s.then]);
                    if (s.if !== true) out.push([`${loc}/else`, s.else]);
                }
            }
        } else if (!refOnly) {
            out.push(...parts(s, loc, draft, DESCENDING, [draft < 2020 ? "items" : "prefixItems"]));
            if (draft < 2020 && isArray(s.items)) out.push([`${loc}/additionalItems`, s.additionalItems]);
        }
        return out.filter(([, v]) => isSchema(v));
    };

    // The walks below keep their own stacks, visiting in the order a
    // recursive walk does (the children pushed last first): a chain of
    // 10,000 "$ref"s recursed 10,000 calls deep and threw a bare "Maximum
    // call stack size exceeded" (the core's walk, schemacycle.go, ended
    // the Go program).
    /**
     * Each schema reachable from loc, s, once, depth first; visit may add
     * the schemas it leads to.
     * @param {string} loc @param {any} s
     * @param {Set<string>} seen
     * @param {(loc: string, s: any) => [string, any][]} visit
     */
    const eachOnce = (loc, s, seen, visit) => {
        /** @type {[string, any][]} */
        const todo = [[loc, s]];
        while (todo.length > 0) {
            const [l, v] = /** @type {[string, any]} */ (todo.pop());
            if (seen.has(l)) continue;
            seen.add(l);
            const next = visit(l, v);
            for (let i = next.length - 1; i >= 0; i--) todo.push(next[i]);
        }
    };
    /** @type {Map<string, number>} 1: on the current in-place path, 2: finished */
    const state = new KeptMap();
    /** @param {string} loc @param {any} s */
    const walkInPlace = (loc, s) => {
        if (state.get(loc) !== undefined) return;
        state.set(loc, 1);
        /** @type {{ loc: string, next: [string, any][], i: number }[]} the in-place path */
        const path = [{ loc, next: edges(s, loc, true), i: 0 }];
        while (path.length > 0) {
            const top = path[path.length - 1];
            if (top.i === top.next.length) {
                state.set(top.loc, 2);
                path.pop();
                continue;
            }
            const [l, v] = top.next[top.i++];
            const st = state.get(l);
            if (st === 1) throw new Error(`the schema refers to itself without descending into the value (${[...path.map((p) => p.loc), l].map(shownLoc).join(" -> ")}): validation would never end`);
            if (st === 2) continue;
            state.set(l, 1);
            path.push({ loc: l, next: edges(v, l, true), i: 0 });
        }
    };
    try {
        // The compiler resolves every reference validation reaches before
        // its cycle check (schemacycle.go) runs: a reference that points
        // nowhere is told first.
        // A schema reached makes it compile its resource's root, and a
        // 2020-12 resource's root its dynamic anchors (compileValue).
        eachOnce("#", root, new KeptSet(), (loc, s) => {
            const res = places.get(loc)?.res ?? "";
            const more = [...edges(s, loc, true), ...edges(s, loc, false), pointer(res)];
            if (loc === `#${res}`) for (const [r, l] of dynamic) if (r === res) more.push(pointer(l.slice(1)));
            return more.filter(([, v]) => isSchema(v));
        });
        eachOnce("#", root, new KeptSet(), (loc, s) => {
            walkInPlace(loc, s);
            return [...edges(s, loc, true), ...edges(s, loc, false)];
        });
    } catch (err) {
        return err instanceof Unknown ? "" : /** @type {Error} */ (err).message;
    }
    return "";
}

// What this reading cannot tell: the core judges it.
class Unknown extends Error {}
