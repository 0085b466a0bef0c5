// Helpers of the adapter suites (adapters-*.test.mjs): the built entry
// points in dist/ and a mock fetch for the LLM SDKs.
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { dist, sleep } from "./helpers.mjs";

/** Imports dist/<name>.mjs, the package's `@interopio/code-mode/<name>`. */
export function loadAdapter(name) {
    return import(pathToFileURL(join(dist, `${name}.mjs`)).href);
}

/**
 * A fetch that answers each request with the next of `replies` (JSON
 * bodies) and records the requests: {url, method, body (parsed)}.
 */
export function scriptedFetch(replies) {
    const requests = [];
    const fetch = async (url, init = {}) => {
        const body = init.body ? JSON.parse(init.body) : undefined;
        requests.push({ url: String(url), method: init.method, body });
        const reply = replies[requests.length - 1];
        if (!reply) return new Response(JSON.stringify({ error: { message: "no more scripted replies" } }), { status: 500 });
        return new Response(JSON.stringify(reply), { status: 200, headers: { "content-type": "application/json" } });
    };
    return { fetch, requests };
}

/** Waits (polling, at most 10 s) until check() is truthy; fails naming what. */
export async function until(check, what) {
    for (let i = 0; i < 400; i++) {
        if (await check()) return;
        await sleep(25);
    }
    assert.fail(`timed out waiting for ${what}`);
}
