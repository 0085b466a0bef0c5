// Why a fetch of ours failed, when the Content-Security-Policy refused it.
// A fetch that connect-src (or default-src) refuses rejects with the
// browser's "Failed to fetch", nothing more; the browser tells the page
// only through a securitypolicyviolation event, fired on the document (in a
// worker, on the worker's global) as a task after that rejection. So the
// event is listened for while a fetch of ours is in flight, and a failed
// fetch waits a moment for it before it reports. The listener is removed as
// soon as the fetch has settled (and that wait is over): none is left on the
// page.

import { describeError } from "./env.mjs";
import { clearTimeout, setTimeout, uncurry } from "./intrinsics.mjs";

// Taken at load (intrinsics.mjs): the page may replace them afterwards.
const ET = typeof EventTarget === "function" ? EventTarget.prototype : null;
const addListener = ET && typeof ET.addEventListener === "function" ? uncurry(ET.addEventListener) : null;
const removeListener = ET && typeof ET.removeEventListener === "function" ? uncurry(ET.removeEventListener) : null;

// How long a failed fetch waits for the violation event. Chromium fires it
// right after the rejection (before a 0 ms timer the rejection sets); the
// margin is for a busy thread, and is spent only by a fetch that failed for
// another reason (a network error), which has no event.
const EVENT_WAIT_MS = 250;

/**
 * Where the violation events of this thread are fired: the document of a
 * page, or the global of a worker. Null outside a browser (Node.js: no
 * policy, nothing to listen to).
 * @returns {EventTarget | null}
 */
function violationTarget() {
    const g = /** @type {any} */ (globalThis);
    if (typeof g.document === "object" && g.document !== null) return g.document;
    if (typeof g.WorkerGlobalScope === "function" && g instanceof g.WorkerGlobalScope) return g;
    return null;
}

/**
 * Runs `fetchIt` (a fetch of `url`); if it rejects and the
 * Content-Security-Policy refused that URL, the rejection's message says
 * which directive and what to change.
 * @template T
 * @param {URL} url
 * @param {() => Promise<T>} fetchIt
 * @returns {Promise<T>}
 */
export async function fetchNamingCSP(url, fetchIt) {
    const target = violationTarget();
    if (!target || !addListener || !removeListener) return fetchIt();
    /** @type {{ directive: string } | null} */
    let refusal = null;
    /** @type {(() => void) | null} */
    let heard = null;
    const onViolation = (/** @type {any} */ e) => {
        if (refusal || !refusedURL(url, e)) return;
        refusal = { directive: directiveOf(e) };
        if (heard) heard();
    };
    try {
        addListener(target, "securitypolicyviolation", onViolation);
    } catch {
        // A document of another realm's EventTarget (jsdom's in Node.js
        // tests), which the browser's method refuses: no policy there.
        return fetchIt();
    }
    try {
        return await fetchIt();
    } catch (err) {
        if (!refusal) {
            await new Promise((resolve) => {
                const timer = setTimeout(resolve, EVENT_WAIT_MS);
                heard = () => {
                    clearTimeout(timer);
                    resolve(undefined);
                };
            });
        }
        if (!refusal) throw err;
        // Firefox's words end with a full stop ("NetworkError when attempting to fetch resource."), Chromium's do not.
        throw Object.assign(new Error(`${describeError(err).replace(/\.$/, "")}${cspHint(url, /** @type {{ directive: string }} */ (refusal).directive)}`, { cause: err }), { [REFUSED]: true });
    } finally {
        removeListener(target, "securitypolicyviolation", onViolation);
    }
}

// Marks the errors of fetches the policy refused (refusedFetch).
const REFUSED = Symbol("refused by the Content-Security-Policy");

/**
 * Whether err, or an error it was caused by, is a fetch that the
 * Content-Security-Policy refused (fetchNamingCSP).
 * @param {unknown} err
 */
export function refusedFetch(err) {
    for (let e = /** @type {any} */ (err), i = 0; e && typeof e === "object" && i < 8; e = e.cause, i++) if (e[REFUSED] === true) return true;
    return false;
}

/**
 * Whether a violation event is the refusal of a fetch of `url`: a fetch's
 * directive, and its blocked URL (the whole URL, or only its origin when the
 * browser reports no more).
 * @param {URL} url
 * @param {any} e
 */
function refusedURL(url, e) {
    const directive = String(e.effectiveDirective || e.violatedDirective || "");
    if (!/^(connect-src|default-src)\b/.test(directive)) return false;
    const blocked = String(e.blockedURI || "");
    return blocked === url.href || (blocked !== "" && (blocked === url.origin || url.href.startsWith(blocked.endsWith("/") ? blocked : blocked + "/")));
}

/**
 * The directive that refused, as the policy names it: Chromium reports
 * connect-src for a fetch that default-src refused (the policy setting no
 * connect-src), so the policy's text says which.
 * @param {any} e
 */
function directiveOf(e) {
    const policy = String(e.originalPolicy || "");
    const sets = (/** @type {string} */ name) => policy.split(";").some((d) => d.trim().toLowerCase().split(/\s+/)[0] === name);
    return !sets("connect-src") && sets("default-src") ? "default-src" : "connect-src";
}

/**
 * @param {URL} url
 * @param {string} directive as the policy names it (default-src stands in
 *   for a connect-src it does not set)
 */
function cspHint(url, directive) {
    const named = directive === "connect-src" ? "its connect-src" : `its ${directive} (which stands in for the connect-src it does not set)`;
    return `; the page's Content-Security-Policy refused the fetch of ${url.href}: ${named} must allow ${url.origin} (the package's README, "Content-Security-Policy")`;
}
