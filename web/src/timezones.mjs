// The host's own time zones for the sandbox's Intl, which carries no
// time-zone data: the Go core's jsbridge.TimeZone calls timeZone (the
// shadow's __jsbridgeTimeZone, core.mjs), which answers by the page's (or
// the worker's) Intl.DateTimeFormat as it was at load. Only strings and a
// number cross, the answers bounded here and again on the Go side.

import { KeptMap, uncurry } from "./intrinsics.mjs";

/** @type {any} */
let DTF;
/** @type {(dtf: unknown) => any} */
let boundFormat;
/** @type {(dtf: unknown) => any} */
let resolved;
// None when the page's Intl has no DateTimeFormat, or reading it throws:
// the package still loads, and the sandbox formats in UTC with a warn.
try {
    DTF = /** @type {any} */ (globalThis).Intl.DateTimeFormat;
    boundFormat = uncurry(/** @type {() => any} */ (Object.getOwnPropertyDescriptor(DTF.prototype, "format")?.get));
    resolved = uncurry(DTF.prototype.resolvedOptions);
} catch {
    DTF = undefined;
}
const lastIndexOf = uncurry(String.prototype.lastIndexOf), slice = uncurry(String.prototype.slice);
const offsetOf = uncurry(Date.prototype.getTimezoneOffset);
const DateOf = Date;

/**
 * The host's zone when its Intl names none (UTC if undefined): TZ set to a POSIX rule such as
 * "EST+5" (or a zoneinfo file's path) is a fixed offset to ICU, which
 * the host's Date applies (-5 h) while resolvedOptions().timeZone is
 * undefined, and the sandbox was in UTC. A whole-hour offset the same in
 * January and July is IANA's Etc/GMT+5 (the sign as getTimezoneOffset's);
 * ICU reads no other POSIX rule (those leave the host in UTC too).
 */
function unnamedZone() {
    // 2024-01-01 and 2024-07-01 UTC, as numbers: the page's Date.UTC of the
    // moment may be a fake clock's.
    const m = offsetOf(new DateOf(1704067200000));
    if (m !== offsetOf(new DateOf(1719792000000)) || m === 0 || m % 60 || m < -840 || m > 720) return undefined;
    return `Etc/GMT${m > 0 ? "+" : "-"}${Math.abs(m) / 60}`;
}

/** Bound format functions by zone and style: making a formatter costs far more than calling it. */
const formats = new KeptMap();

/**
 * For style "" the zone's canonical name (resolvedOptions().timeZone; zone
 * "" is this Intl's own, the host's: the sandbox's default zone), else
 * its timeZoneName in that style at `ms` ("GMT-05:00" for "longOffset",
 * "EST" for "short"); null for a zone this Intl refuses (a RangeError).
 * @param {string} zone @param {number} ms @param {string} style
 * @returns {string | null | undefined}
 */
export function timeZone(zone, ms, style) {
    const k = zone + " " + style;
    let f = formats.get(k);
    if (!f) {
        if (!DTF) return undefined;
        let dtf;
        try {
            dtf = new DTF("en-US", /** @type {any} */ ({ __proto__: null, timeZone: zone || undefined, timeZoneName: style || undefined }));
        } catch {
            return style ? undefined : null;
        }
        if (!style) {
            const name = resolved(dtf).timeZone;
            // ICU's "Etc/Unknown" (TZ set to "": every factory failed on an
            // "unknown time zone" nobody gave) is no zone, as undefined is.
            return bounded(zone || (name !== undefined && name !== "Etc/Unknown") ? name : unnamedZone());
        }
        if (formats.size >= 128) formats.clear();
        formats.set(k, (f = boundFormat(dtf)));
    }
    // "7/1/2024, Central European Summer Time": the name after the date.
    const s = f(ms);
    return bounded(slice(s, lastIndexOf(s, ", ") + 2));
}

/** s if it is a string of at most 64 characters (a page's replaced Intl may give anything), else undefined. @param {unknown} s */
const bounded = (s) => (typeof s === "string" && s.length <= 64 ? s : undefined);
