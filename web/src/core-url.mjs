// Where the Go core (code-mode.wasm) is: on the page's side only (index.mjs,
// code-mode.global.js). The engine's worker loads it from the URL the page
// sends, when the page could not hand it compiled (core.mjs compileCore):
// a worker module that named the file in its own new URL(...) made bundlers
// that put a worker's assets apart (SvelteKit's _app/immutable/workers/assets/,
// Nuxt's _nuxt/ under another name) emit the 8.7 MB file twice.

import { hasNodeFs } from "./env.mjs";

/** This module's URL, out of bundlers' sight. */
function moduleURL() {
    const here = import.meta.url;
    return here;
}

/**
 * The URL of the package's code-mode.wasm; throws where this copy has no URL
 * of its own (a CommonJS or IIFE bundle).
 * @returns {URL}
 */
export function coreURL() {
    // Written this way (a literal path, import.meta.url) so that bundlers
    // see the file and emit it next to their output.
    const url = new URL("./code-mode.wasm", import.meta.url);
    // webpack with module.parser.javascript.url "relative" (Next.js's
    // server build) gives a URL of its publicPath's,
    // "/_next/static/media/code-mode.<hash>.wasm", which Node.js
    // cannot read: every in-thread factory of a route failed
    // ("Failed to parse URL from /_next/..."). The file beside the
    // package's module then: webpack writes import.meta.url as that
    // module's own file: URL. Not in the form bundlers rewrite (webpack
    // makes a module context of new URL(name, import.meta.url)).
    if (hasNodeFs && !/^[a-z][a-z\d+.-]*:/i.test(url.href)) return new URL("./code-mode.wasm", moduleURL());
    return url;
}
