// Pages served with a Content-Security-Policy (on every response, the
// package's files included, as servers send it), and the package imported
// from another origin: the policy USAGE.md ("Content-Security-Policy")
// gives works in both modes, and each refusal rejects the factory with
// what to change, never with the browser's words alone nor an uncaught
// error; the package from another origin runs in both modes. The ESM
// build and the classic script both.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { CHROMIUM, checkPrerequisites, launchBrowser, servePolicyPages } from "./harness.mjs";

// The first segment of a path names its policy; the rest is a page or
// script below, or dist/.
const POLICIES = {
    documented: "script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'",
    nowasm: "script-src 'self'; worker-src 'self'",
    trusted: "script-src 'self' 'wasm-unsafe-eval'; require-trusted-types-for 'script'",
    noworker: "script-src 'self' 'wasm-unsafe-eval'; worker-src 'none'",
    // USAGE's policy for the package on a CDN (here localhost, the page
    // on 127.0.0.1): blob: and the CDN in worker-src.
    cdn: "script-src 'self' http://localhost:* 'wasm-unsafe-eval'; worker-src 'self' blob: http://localhost:*; connect-src 'self' http://localhost:*",
    // Fetches of the .wasm files refused: by connect-src, and by the
    // default-src that stands in for it.
    noconnect: "script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'none'",
    nodefault: "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'",
    none: "",
    // No policy, and no CORS headers (HEADERS): a static host.
    nocors: "",
};
const HEADERS = { nocors: { "access-control-allow-origin": null } };

// The page's program (an external script: the policies allow no inline
// one): the package from ?pkg= (default this policy's dist/), the mode
// from ?worker=, the ESM build or the classic script (?classic: a
// <script src> of the page's, written by the server).
const MAIN = `const q = new URLSearchParams(location.search);
const pkg = q.get("pkg") || "./dist/";
const load = q.has("classic") ? Promise.resolve(globalThis.IoCodeModeFactory) : import(pkg + "index.mjs").then((m) => m.IoCodeModeFactory);
window.__result = load.then(async (IoCodeModeFactory) => {
    const api = await IoCodeModeFactory({ wasmLocation: pkg + "emscripten-module.wasm", worker: q.get("worker") === "true", tools: [{ name: "add", execute: ({ a, b }) => a + b }] });
    const [, executeCode] = api.createSession().getLlmTools();
    const r = await executeCode.execute({ code: "return await tools.add({ a: 2, b: 40 })", explanation: "x" });
    api.dispose();
    return { result: r.result };
}).catch((e) => ({ error: String((e && e.message) || e) }));
`;
// USAGE.md's default policy for Trusted Types, letting the worker through.
const TRUSTED_POLICY = `trustedTypes.createPolicy("default", { createScriptURL: (url) => { if (new URL(url, location.href).origin === location.origin) return url; throw new TypeError("script URL not allowed: " + url); } });`;
const page = (policyScript, query) => {
    const classic = query.has("classic") ? `<script src="${(query.get("pkg") || "./dist/").replace(/[<>"&]/g, "")}code-mode.global.js"></script>` : "";
    const count = query.has("count") ? '<script src="./count.js"></script>' : "";
    const firefox = query.has("firefox") ? '<script src="./firefox.js"></script>' : "";
    return `<!doctype html><meta charset="utf-8"><title>csp</title>${count}${firefox}${policyScript ? '<script src="./policy.js"></script>' : ""}${classic}<script src="./main.js"></script>`;
};
// Counts the securitypolicyviolation listeners added and removed on the
// page (?count: loaded before the package, whose EventTarget methods it
// wraps), for the result to report what is left.
const COUNT = `const counts = (window.__listeners = { added: 0, removed: 0 });
const { addEventListener: add, removeEventListener: remove } = EventTarget.prototype;
EventTarget.prototype.addEventListener = function (type, ...rest) { if (type === "securitypolicyviolation") counts.added++; return add.call(this, type, ...rest); };
EventTarget.prototype.removeEventListener = function (type, ...rest) { if (type === "securitypolicyviolation") counts.removed++; return remove.call(this, type, ...rest); };`;
// Firefox's new Worker (?firefox): a script of another origin is not
// refused by the constructor (Chromium's throws a SecurityError); the
// worker is made and fails to load later, an error event with no message.
// Here it loads a file the server does not have, which fails the same way.
const FIREFOX_WORKER = `const NativeWorker = Worker;
window.Worker = class extends NativeWorker {
    constructor(url, options) {
        super(new URL(String(url), location.href).origin === location.origin ? url : "./no-such-worker.mjs", options);
    }
};`;
const FILES = { "page.html": (q) => page(false, q), "page-policy.html": (q) => page(true, q), "main.js": () => MAIN, "policy.js": () => TRUSTED_POLICY, "count.js": () => COUNT, "firefox.js": () => FIREFOX_WORKER };

let server;
let port;
let browser;

before(async () => {
    checkPrerequisites();
    server = await servePolicyPages(POLICIES, FILES, HEADERS);
    port = server.port;
    browser = await launchBrowser();
});

after(async () => {
    await browser?.close();
    await server?.close();
});

async function open(path) {
    const tab = await browser.newPage();
    const problems = [];
    tab.on("pageerror", (e) => problems.push(e.message));
    try {
        await tab.goto(path.startsWith("http") ? path : `http://127.0.0.1:${port}/${path}`);
        await tab.waitForFunction(() => window.__result, null, { timeout: 60000 });
        const out = await tab.evaluate(() => window.__result);
        const listeners = await tab.evaluate(() => window.__listeners);
        return listeners ? { out, problems, listeners } : { out, problems };
    } finally {
        await tab.close();
    }
}

// The classic script from a static host of another origin that sends no
// CORS headers: the <script src> loads (it needs none), but the fetches of
// the .wasm files failed with the browser's "Failed to fetch" alone, and the
// worker's import with "it failed to load from <url>" alone. (The ESM
// build's import fails on the page, before any code of the package runs.)
test("classic script from another origin without CORS headers: the error names the origins and the header, in both modes", async () => {
    const pkg = encodeURIComponent(`http://localhost:${port}/nocors/dist/`);
    const other = String.raw`http://localhost:\d+ is another origin than the page's \(http://127\.0\.0\.1:\d+\): its server must send CORS headers \(Access-Control-Allow-Origin\) with the package's files and the QuickJS asset, or serve them from the page's origin`;
    const thread = await open(`none/page.html?worker=false&classic&pkg=${pkg}`);
    assert.match(String(thread.out.error), new RegExp(String.raw`^Cannot load the Code Mode core from http://localhost:\d+/nocors/dist/code-mode\.wasm: Failed to fetch; ${other}`));
    const worker = await open(`none/page.html?worker=true&classic&pkg=${pkg}`);
    assert.match(String(worker.out.error), new RegExp(String.raw`Cannot start the Code Mode worker: it failed to load from http://localhost:\d+/nocors/dist/code-mode\.worker\.mjs; ${other}`));
    assert.deepEqual([thread.problems, worker.problems], [[], []]);
    // With CORS headers, the same runs (the test of the ESM build above).
    assert.deepEqual(await open(`none/page.html?worker=true&classic&pkg=${encodeURIComponent(`http://localhost:${port}/none/dist/`)}`), { out: { result: 42 }, problems: [] });
});

for (const classic of [false, true]) {
    const build = classic ? "classic script" : "ESM build";
    const flag = classic ? "&classic" : "";
    for (const worker of [true, false]) {
        const mode = `worker: ${worker}`;
        test(`${build}, ${mode}: the documented policy (no 'unsafe-eval') runs`, async () => {
            assert.deepEqual(await open(`documented/page.html?worker=${worker}${flag}`), { out: { result: 42 }, problems: [] });
        });

        test(`${build}, ${mode}: without 'wasm-unsafe-eval' the error says to add it`, async () => {
            const { out, problems } = await open(`nowasm/page.html?worker=${worker}${flag}`);
            assert.match(out.error, /WebAssembly.*; the page's Content-Security-Policy must allow WebAssembly: add 'wasm-unsafe-eval' to its script-src/);
            assert.deepEqual(problems, []);
        });

        test(`${build}, ${mode}: Trusted Types with USAGE's default policy runs`, async () => {
            assert.deepEqual(await open(`trusted/page-policy.html?worker=${worker}${flag}`), { out: { result: 42 }, problems: [] });
        });
    }

    for (const [policy, named] of [
        ["noconnect", "its connect-src"],
        ["nodefault", "its default-src \\(which stands in for the connect-src it does not set\\)"],
    ]) {
        test(`${build}, ${policy}: a fetch of a .wasm file the policy refuses is named with its directive, in both modes, and no listener is left`, async () => {
            for (const worker of [true, false]) {
                const { out, problems, listeners } = await open(`${policy}/page.html?worker=${worker}&count${flag}`);
                // In-thread the core is fetched first; in worker mode the
                // worker fetches both (the page's own attempt failed too).
                const asset = `(Code Mode core|QuickJS asset) from .*: Failed to fetch; the page's Content-Security-Policy refused the fetch of http://127\\.0\\.0\\.1:\\d+/${policy}/dist/(code-mode|emscripten-module)\\.wasm: ${named} must allow http://127\\.0\\.0\\.1:\\d+ \\(the package's README, "Content-Security-Policy"\\)`;
                assert.match(out.error, new RegExp(`^Cannot load the ${asset}`), `worker: ${worker}`);
                assert.deepEqual(problems, [], `worker: ${worker}`);
                // The page listened while it fetched (worker mode too: the
                // page compiles both files for its worker), and stopped.
                assert.ok(listeners.added > 0, `worker: ${worker}: ${JSON.stringify(listeners)}`);
                assert.equal(listeners.removed, listeners.added, `worker: ${worker}`);
            }
        });
    }

    test(`${build}: the documented policy leaves no securitypolicyviolation listener on the page`, async () => {
        for (const worker of [true, false]) {
            const { out, listeners } = await open(`documented/page.html?worker=${worker}&count${flag}`);
            assert.deepEqual(out, { result: 42 });
            assert.equal(listeners.removed, listeners.added, `worker: ${worker}`);
        }
    });

    test(`${build}: Trusted Types without a policy: worker mode says what to do, no uncaught error; worker: false runs`, async () => {
        const { out, problems } = await open(`trusted/page.html?worker=true${flag}`);
        assert.match(out.error, /Cannot start the Code Mode worker: Failed to construct 'Worker': .*TrustedScriptURL.*; the page enforces Trusted Types .* a default policy that lets the package's code-mode\.worker\.mjs through .* or worker: false starts the engine/);
        assert.deepEqual(problems, []);
        assert.deepEqual(await open(`trusted/page.html?worker=false${flag}`), { out: { result: 42 }, problems: [] });
    });

    test(`${build}: worker-src refusing the worker is named as the likely cause`, async () => {
        const { out, problems } = await open(`noworker/page.html?worker=true${flag}`);
        assert.match(out.error, /it failed to load from http:\/\/127\.0\.0\.1:\d+\/noworker\/dist\/code-mode\.worker\.mjs \(the server sends it as JavaScript, so the page most likely refused it: its Content-Security-Policy must allow that URL in worker-src/);
        assert.deepEqual(problems, []);
    });

    test(`${build}: the package from another origin (a CDN, with CORS) runs in both modes`, async () => {
        // localhost and 127.0.0.1 are two origins on the same server. A
        // page starts no Worker from another origin: worker mode's is a
        // blob: module of the page's that imports the package's worker.
        const pkg = encodeURIComponent(`http://localhost:${port}/none/dist/`);
        assert.deepEqual(await open(`none/page.html?worker=true&pkg=${pkg}${flag}`), { out: { result: 42 }, problems: [] });
        assert.deepEqual(await open(`none/page.html?worker=false&pkg=${pkg}${flag}`), { out: { result: 42 }, problems: [] });
    });

    test(`${build}: the package from another origin under USAGE's policy for it runs in both modes`, async () => {
        const pkg = encodeURIComponent(`http://localhost:${port}/none/dist/`);
        assert.deepEqual(await open(`cdn/page.html?worker=true&pkg=${pkg}${flag}`), { out: { result: 42 }, problems: [] });
        assert.deepEqual(await open(`cdn/page.html?worker=false&pkg=${pkg}${flag}`), { out: { result: 42 }, problems: [] });
    });

    test(`${build}: the package from another origin runs in worker mode where new Worker of that origin fails only later (Firefox)`, async () => {
        const pkg = encodeURIComponent(`http://localhost:${port}/none/dist/`);
        assert.deepEqual(await open(`none/page.html?worker=true&firefox&pkg=${pkg}${flag}`), { out: { result: 42 }, problems: [] });
        assert.deepEqual(await open(`cdn/page.html?worker=true&firefox&pkg=${pkg}${flag}`), { out: { result: 42 }, problems: [] });
        // Of the page's own origin, the worker is the package's file itself.
        assert.deepEqual(await open(`documented/page.html?worker=true&firefox${flag}`), { out: { result: 42 }, problems: [] });
    });
}
