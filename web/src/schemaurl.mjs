// The ids of a schema as the core's compiler reads them (third_party/
// jsonschema roots.go: each "$id", draft-04's "id", joined to the base of
// the schema it is in with Go's net/url), for worker mode's registration
// check (refcycle.mjs). Only what is known here to give Go's answer is
// answered; anything else is "unknown", and the check leaves the schema to
// the core, which judges it a message later.

// An absolute URL that Go parses and resolves as it is written: a scheme,
// a plain host, and path segments that are neither "." nor "..".
const PLAIN_ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\/[a-z0-9-]+(\.[a-z0-9-]+)*(:[0-9]+)?(\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+\/?$/;
// An opaque URL (urn:x), which Go keeps as it is written.
const OPAQUE = /^[a-z][a-z0-9+.-]*:[A-Za-z0-9._~%!$&'()*+,;=@-][A-Za-z0-9._~%!$&'()*+,;=:@-]*$/;
// A file name alone, resolved beside its base.
const PLAIN_RELATIVE = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;

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
 * An id joined to its base as Go resolves it, or "" when that is not known
 * here: a plain absolute or opaque URL is itself, a plain file name goes beside a
 * known base.
 * @param {string} base "" when unknown
 * @param {string} url the id without its fragment
 */
export function join(base, url) {
    if (PLAIN_ABSOLUTE.test(url) || OPAQUE.test(url)) return url;
    if (base && PLAIN_RELATIVE.test(url)) return base.slice(0, base.lastIndexOf("/") + 1) + url;
    return "";
}
