// A schema's ids and references resolved as the core resolves them (Go's
// net/url: url.Parse, then URL.ResolveReference, as schemaref.go and
// third_party/jsonschema do), for worker mode's registration checks
// (schemaref.mjs, refcycle.mjs). A WHATWG URL reads otherwise (it lowers a
// host, drops a default port, reads "%2e" as ".", cannot resolve against
// "urn:a"), and the core's answer is the one that counts. Only what is known
// here to give Go's answer is answered; anything else is "unknown", and the
// checks leave the schema to the core, which judges it a message later.

import { TextEncoder } from "./env.mjs";

/** The compiler's URL of a tool schema (schema.go's schemaURL): the root's base URI. */
export const SCHEMA_URL = "mem:///codemode/schema.json";

// A path: Go keeps it as written when it holds only what it need not
// escape, else writes it with its escapes decoded and the rest escaped.
const PATH = "[^?#\\x00-\\x1f\\x7f]*";
// scheme://host[:port]path, the host plain (Go keeps its case).
const HIERARCHICAL = new RegExp(String.raw`^([A-Za-z][A-Za-z0-9+.-]*):\/\/((?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)?(?::[0-9]*)?)(\/${PATH})?$`);
// An opaque URL (urn:x), which Go keeps as it is written.
const OPAQUE = /^[a-z][a-z0-9+.-]*:[A-Za-z0-9._~%!$&'()*+,;=@-][A-Za-z0-9._~%!$&'()*+,;=:@-]*$/;
// A path alone, relative ("a.json", "../a.json") or absolute ("/a.json").
const PATH_ONLY = new RegExp(`^${PATH}$`);

/**
 * A path as Go's URL.EscapedPath writes it: as it is when valid (net/url's
 * validEncoded), else decoded and escaped again (its escape, encodePath
 * mode); null when an escape is not two hex digits.
 * @param {string} p
 */
function escapedPath(p) {
    if (/^(?:[A-Za-z0-9\-_.~$&+,/:;=@!'()*[\]]|%[0-9A-Fa-f]{2})*$/.test(p)) return p;
    /** @type {number[]} */
    const bytes = [];
    for (const [, esc, text] of p.matchAll(/%([0-9A-Fa-f]{2})|([^%]+)|%/g)) {
        if (esc) bytes.push(parseInt(esc, 16));
        else if (text) bytes.push(...new TextEncoder().encode(text));
        else return null;
    }
    return bytes.map((b) => (b < 0x80 && /[A-Za-z0-9\-_.~$&+,/:;=@]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`)).join("");
}

/**
 * Whether Go's url.Parse refuses the id (without its fragment): "bad",
 * "ok", or "unknown" when this reading is not sure (a host in brackets, a
 * user, a percent sign in the host). net/url's parse: control bytes, a
 * leading ":", a colon in a scheme-less first segment, a port that is not
 * digits, a bracket anywhere but first in the host or never closed, and a
 * "%" not followed by two hex digits in the path.
 * @param {string} url
 * @returns {"bad" | "ok" | "unknown"}
 */
export function parseProblem(url) {
    if (/[\x00-\x1f\x7f]/.test(url)) return "bad";
    const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(url);
    if (url.startsWith(":")) return "bad";
    let rest = scheme ? url.slice(scheme[0].length) : url;
    const q = rest.indexOf("?");
    if (!(q === rest.length - 1 && q >= 0)) rest = q < 0 ? rest : rest.slice(0, q);
    else rest = rest.slice(0, -1);
    if (!rest.startsWith("/")) {
        // An opaque URL (urn:x) is not read further.
        if (scheme) return "ok";
        if (rest.split("/")[0].includes(":")) return "bad";
    }
    if ((scheme || !rest.startsWith("///")) && rest.startsWith("//")) {
        const slash = rest.indexOf("/", 2);
        const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
        rest = slash < 0 ? "" : rest.slice(slash);
        const host = authority.slice(authority.lastIndexOf("@") + 1);
        const open = host.lastIndexOf("[");
        if (open > 0 || (open === 0 && host.lastIndexOf("]") < 0)) return "bad";
        if (open === 0 || authority.includes("@") || host.includes("%")) return "unknown";
        const colons = host.split(":").length - 1;
        if (colons > 1) return "unknown";
        if (colons === 1 && !/^[0-9]*$/.test(host.slice(host.indexOf(":") + 1))) return "bad";
        if (!/^[A-Za-z0-9._~-]*(:[0-9]*)?$/.test(host)) return "unknown";
    }
    return /%(?![0-9A-Fa-f]{2})/.test(rest) ? "bad" : "ok";
}

/**
 * Go's resolvePath (net/url): ref's path beside base's, "." and ".."
 * segments removed.
 * @param {string} base
 * @param {string} ref
 */
function resolvePath(base, ref) {
    const full = ref === "" ? base : ref[0] !== "/" ? base.slice(0, base.lastIndexOf("/") + 1) + ref : ref;
    if (full === "") return "";
    let dst = "/";
    let first = true;
    const elems = full.split("/");
    for (const elem of elems) {
        if (elem === ".") {
            first = false;
        } else if (elem === "..") {
            const i = dst.slice(1).lastIndexOf("/");
            dst = i >= 0 ? dst.slice(0, i + 1) : "/";
            first = dst.length === 1;
        } else {
            if (!first) dst += "/";
            dst += elem;
            first = false;
        }
    }
    const last = elems[elems.length - 1];
    if (last === "." || last === "..") dst += "/";
    return dst.length > 1 && dst[1] === "/" ? dst.slice(1) : dst;
}

/**
 * An id or reference (without its fragment) resolved against base as Go
 * resolves it, or "" when that is not known here: a base that is unknown
 * ("") or opaque, a query, a user, a network path ("//host/a.json"), a
 * character Go would escape.
 * @param {string} base
 * @param {string} url
 */
export function join(base, url) {
    if (OPAQUE.test(url)) return url;
    const abs = HIERARCHICAL.exec(url);
    const b = HIERARCHICAL.exec(base);
    if (!abs && (!b || !PATH_ONLY.test(url) || url.startsWith("//") || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(url))) return "";
    const [basePath, path] = abs ? [escapedPath(abs[3] ?? ""), ""] : [/** @type {RegExpExecArray} */ (b)[3] ?? "", escapedPath(url)];
    if (basePath === null || path === null) return "";
    const [, scheme, host] = abs ?? /** @type {RegExpExecArray} */ (b);
    return written(scheme, host, resolvePath(basePath, path));
}

/**
 * A URL as Go's URL.String writes it: the scheme in lower case, no "//"
 * when there is neither host nor path.
 * @param {string} scheme
 * @param {string} host
 * @param {string} path
 */
const written = (scheme, host, path) => `${scheme.toLowerCase()}:${host || path ? `//${host}` : ""}${path}`;

/**
 * A reference resolved against base without its fragment, as schemaref.go's
 * resolveURL: null when Go's url.Parse refuses it, "" when not known here.
 * @param {string} base "" when unknown
 * @param {string} ref
 * @returns {string | null}
 */
export function resolveRef(base, ref) {
    const hash = ref.indexOf("#");
    const url = hash < 0 ? ref : ref.slice(0, hash);
    const parsed = parseProblem(url);
    // Go's url.Parse unescapes the fragment too, and refuses a "%" that
    // starts no escape there as anywhere.
    if (parsed === "bad" || (hash >= 0 && /%(?![0-9A-Fa-f]{2})/.test(ref.slice(hash + 1)))) return null;
    if (parsed === "unknown") return "";
    return join(base, url);
}
