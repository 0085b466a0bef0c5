// The package in a Chrome extension (Manifest V3), as a browser copilot
// ships it: dist/ copied into the extension, imported by its side panel
// (the popup is the same kind of page), an offscreen document and its
// background service worker. With 'wasm-unsafe-eval' in the manifest's
// policy (USAGE.md, "Browser extensions") each runs a program in both
// modes, but the service worker in worker mode: it has no Worker, and the
// factory says what to do. Without it (Manifest V3's default policy,
// script-src 'self'), every one rejects naming the manifest's
// content_security_policy, where an extension's policy is set. A content
// script (the package's classic script listed in the manifest, or bundled
// into the script as an IIFE) runs with the web page's origin and policy:
// its factory rejects saying to use an extension page instead.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { chromium } from "playwright-core";
import { EXTENSION_FILES, NO_WASM, POLICIES, RUN } from "./extension-files.mjs";
import { CHROMIUM, ROOT, checkPrerequisites } from "./harness.mjs";

const PANEL = `import { runOnce } from "./run.mjs";
const w = new URLSearchParams(location.search).get("worker");
globalThis.__result = runOnce(w === null ? undefined : w === "true");
`;
const OFFSCREEN = `import { runOnce } from "./run.mjs";
chrome.runtime.onMessage.addListener((m, _sender, reply) => {
    if (m.target !== "offscreen") return;
    runOnce(m.worker).then(reply);
    return true;
});
`;
// The test calls these through the service worker's DevTools target.
const SW = `import { runOnce } from "./run.mjs";
self.runHere = runOnce;
self.runOffscreen = async (worker) => {
    if (!(await chrome.offscreen.hasDocument())) {
        await chrome.offscreen.createDocument({ url: "offscreen.html", reasons: ["WORKERS"], justification: "runs the model's programs" });
    }
    return await chrome.runtime.sendMessage({ target: "offscreen", worker });
};
`;
// The content script: each factory (the classic script's, the IIFE
// bundle's) in each mode, and a bad config; the results go in the page's
// DOM, which the test reads (a content script's globals are its own).
const CONTENT = `(async () => {
    const out = [];
    for (const factory of [globalThis.IoCodeModeFactory, globalThis.BundledFactory]) {
        for (const worker of [null, false, true]) {
            try {
                const config = { wasmLocation: chrome.runtime.getURL("emscripten-module.wasm"), tools: [] };
                if (worker !== null) config.worker = worker;
                await factory(config);
                out.push({ result: "started" });
            } catch (e) {
                out.push({ error: e.message });
            }
        }
    }
    try {
        await globalThis.IoCodeModeFactory({ wasmLocation: 1 });
    } catch (e) {
        out.push({ error: e.message });
    }
    document.documentElement.dataset.codeMode = JSON.stringify(out);
})();
`;
// dist/index.mjs as a content script's bundler makes it (WXT, Plasmo: an
// IIFE, where import.meta is {}); the web page loads it too.
const bundled = () =>
    esbuild.buildSync({
        stdin: { contents: 'import { IoCodeModeFactory } from "./index.mjs"; globalThis.BundledFactory = IoCodeModeFactory;', resolveDir: join(ROOT, "dist") },
        bundle: true,
        format: "iife",
        write: false,
        logLevel: "silent",
    }).outputFiles[0].text;
// The web page: the IIFE bundle of its own, in worker mode.
const WEB_PAGE = `<!doctype html><meta charset="utf-8"><title>site</title><script src="/bundled.js"></script><script>
BundledFactory({ wasmLocation: "/emscripten-module.wasm", worker: true }).then(() => "started", (e) => e.message).then((r) => { document.documentElement.dataset.page = r; });
</script>`;
const html = (script) => `<!doctype html><meta charset="utf-8"><title>copilot</title><script type="module" src="./${script}"></script>`;
const manifest = (policy) =>
    JSON.stringify({
        manifest_version: 3,
        name: "copilot",
        version: "1.0",
        background: { service_worker: "sw.mjs", type: "module" },
        side_panel: { default_path: "panel.html" },
        permissions: ["offscreen", "sidePanel"],
        content_scripts: [{ matches: ["http://127.0.0.1/*"], js: ["code-mode.global.js", "bundled.js", "content.js"] }],
        // A sandboxed page: an opaque origin, and a policy of its own that allows WebAssembly.
        sandbox: { pages: ["sandboxed.html"] },
        ...(policy ? { content_security_policy: { extension_pages: policy } } : {}),
    });

const MODES = [undefined, false, true];

const dir = mkdtempSync(join(tmpdir(), "codemode-extension-"));
const runs = {};
let site;

// Each extension is loaded in a browser of its own (a profile that loads
// it), and every run made up front: what the tests below read.
// A browser of its own (a profile) that loads the extension at ext; its
// service worker, once it runs.
async function load(ext) {
    const context = await chromium.launchPersistentContext(`${ext}-profile`, {
        executablePath: CHROMIUM,
        headless: true,
        args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", `--disable-extensions-except=${ext}`, `--load-extension=${ext}`],
    });
    return { context, sw: context.serviceWorkers()[0] || (await context.waitForEvent("serviceworker", { timeout: 60000 })) };
}

// A classic service worker (no "type": "module"): importScripts of the
// classic script, which finds its files beside the service worker's script.
async function runClassicWorker() {
    const ext = join(dir, "classic");
    mkdirSync(ext);
    for (const f of [...EXTENSION_FILES, "code-mode.global.js"]) copyFileSync(join(ROOT, "dist", f), join(ext, f));
    const runOnce = RUN.replace(/^import .*\n/, "").replace("export async function", "async function");
    writeFileSync(join(ext, "sw.js"), `importScripts("code-mode.global.js");\n${runOnce}self.runHere = runOnce;\n`);
    writeFileSync(join(ext, "manifest.json"), JSON.stringify({ manifest_version: 3, name: "copilot", version: "1.0", background: { service_worker: "sw.js" }, content_security_policy: { extension_pages: POLICIES.documented } }));
    const { context, sw } = await load(ext);
    try {
        const out = [];
        for (const worker of MODES) out.push(await sw.evaluate((w) => self.runHere(w), worker));
        return out;
    } finally {
        await context.close();
    }
}

// An extension as a bundler makes it from the installed package (USAGE,
// "Bundlers"): esbuild's ES module bundles of the side panel and of a
// module service worker, the package's files copied beside them; a page
// under lost/ whose bundle has only the QuickJS asset beside it, and one
// under noasset/ with the package's files but not the asset. A second
// extension's classic service worker is esbuild's IIFE bundle.
async function runBundled() {
    const src = join(dir, "bundled-src");
    mkdirSync(src);
    writeFileSync(join(src, "run.mjs"), RUN.replace('"./index.mjs"', JSON.stringify(join(ROOT, "dist", "index.mjs"))));
    writeFileSync(join(src, "panel.mjs"), PANEL);
    writeFileSync(join(src, "sw.mjs"), `import { runOnce } from "./run.mjs";\nself.runHere = runOnce;\n`);
    const bundle = (entry, outfile, format = "esm") => esbuild.buildSync({ entryPoints: [join(src, entry)], bundle: true, format, outfile, logLevel: "silent" });
    const ext = join(dir, "bundled");
    const copy = (to, files) => {
        mkdirSync(to, { recursive: true });
        for (const f of files) copyFileSync(join(ROOT, "dist", f), join(to, f));
    };
    copy(ext, EXTENSION_FILES.slice(1));
    copy(join(ext, "lost"), ["emscripten-module.wasm"]);
    copy(join(ext, "noasset"), ["code-mode.wasm", "code-mode.worker.mjs"]);
    for (const page of [".", "lost", "noasset"]) {
        bundle("panel.mjs", join(ext, page, "panel.js"));
        writeFileSync(join(ext, page, "panel.html"), html("panel.js"));
    }
    bundle("sw.mjs", join(ext, "sw.js"));
    const policy = { content_security_policy: { extension_pages: POLICIES.documented } };
    writeFileSync(join(ext, "manifest.json"), JSON.stringify({ manifest_version: 3, name: "copilot", version: "1.0", background: { service_worker: "sw.js", type: "module" }, ...policy }));
    const classic = join(dir, "bundled-classic");
    copy(classic, EXTENSION_FILES.slice(1));
    bundle("sw.mjs", join(classic, "sw.js"), "iife");
    writeFileSync(join(classic, "manifest.json"), JSON.stringify({ manifest_version: 3, name: "copilot", version: "1.0", background: { service_worker: "sw.js" }, ...policy }));
    const out = { problems: [] };
    let { context, sw } = await load(ext);
    try {
        const id = new URL(sw.url()).host;
        for (const page of ["", "lost/", "noasset/"]) {
            const results = (out[page.slice(0, -1) || "panel"] = []);
            for (const worker of MODES) {
                const tab = await context.newPage();
                tab.on("pageerror", (e) => out.problems.push(`${page}panel: ${e.message}`));
                await tab.goto(`chrome-extension://${id}/${page}panel.html${worker === undefined ? "" : `?worker=${worker}`}`);
                await tab.waitForFunction(() => globalThis.__result, null, { timeout: 60000 });
                results.push(await tab.evaluate(() => globalThis.__result));
                await tab.close();
            }
        }
        out.sw = [];
        for (const worker of MODES) out.sw.push(await sw.evaluate((w) => self.runHere(w), worker));
    } finally {
        await context.close();
    }
    ({ context, sw } = await load(classic));
    try {
        out.classic = [];
        for (const worker of MODES) out.classic.push(await sw.evaluate((w) => self.runHere(w), worker));
    } finally {
        await context.close();
    }
    return out;
}

async function runAll(policy) {
    const ext = join(dir, policy);
    mkdirSync(ext);
    for (const f of [...EXTENSION_FILES, "code-mode.global.js"]) copyFileSync(join(ROOT, "dist", f), join(ext, f));
    const files = { "run.mjs": RUN, "panel.mjs": PANEL, "offscreen.mjs": OFFSCREEN, "sw.mjs": SW, "panel.html": html("panel.mjs"), "sandboxed.html": html("panel.mjs"), "offscreen.html": html("offscreen.mjs"), "manifest.json": manifest(POLICIES[policy]), "bundled.js": site.bundle, "content.js": CONTENT };
    for (const [name, body] of Object.entries(files)) writeFileSync(join(ext, name), body);
    const { context, sw } = await load(ext);
    const out = { panel: [], sandboxed: [], offscreen: [], sw: [], problems: [] };
    try {
        const id = new URL(sw.url()).host;
        for (const [page, modes] of [["panel", MODES], ["sandboxed", [true, false]]]) {
            for (const worker of modes) {
                const tab = await context.newPage();
                tab.on("pageerror", (e) => out.problems.push(`${page}: ${e.message}`));
                await tab.goto(`chrome-extension://${id}/${page}.html${worker === undefined ? "" : `?worker=${worker}`}`);
                await tab.waitForFunction(() => globalThis.__result, null, { timeout: 60000 });
                out[page].push(await tab.evaluate(() => globalThis.__result));
                await tab.close();
            }
        }
        for (const worker of MODES) out.sw.push(await sw.evaluate((w) => self.runHere(w), worker));
        for (const worker of MODES) out.offscreen.push(await sw.evaluate((w) => self.runOffscreen(w), worker));
        const tab = await context.newPage();
        tab.on("pageerror", (e) => out.problems.push(`web page: ${e.message}`));
        await tab.goto(site.url);
        await tab.waitForFunction(() => document.documentElement.dataset.codeMode && document.documentElement.dataset.page, null, { timeout: 60000 });
        out.content = JSON.parse(await tab.evaluate(() => document.documentElement.dataset.codeMode));
        out.page = await tab.evaluate(() => document.documentElement.dataset.page);
    } finally {
        await context.close();
    }
    return out;
}

before(async () => {
    checkPrerequisites();
    const bundle = bundled();
    const server = createServer((req, res) => {
        const path = new URL(req.url, "http://x").pathname;
        if (path === "/bundled.js") res.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
        else if (path === "/emscripten-module.wasm") res.writeHead(200, { "content-type": "application/wasm" }).end(readFileSync(join(ROOT, "dist", "emscripten-module.wasm")));
        // A site's fallback page, as most answer a path they have no file for.
        else res.writeHead(200, { "content-type": "text/html" }).end(WEB_PAGE);
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    site = { bundle, url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
    for (const policy of Object.keys(POLICIES)) runs[policy] = await runAll(policy);
    runs.classicWorker = await runClassicWorker();
    runs.bundled = await runBundled();
});

after(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
});

const ran = [{ result: 42 }, { result: 42 }, { result: 42 }];

test("USAGE's manifest policy: the side panel runs in both modes (worker by default)", () => {
    assert.deepEqual(runs.documented.panel, ran);
    assert.deepEqual(runs.documented.problems, []);
});

test("a sandboxed page (an opaque origin): worker mode says to use worker: false, which runs", () => {
    const [worker, inThread] = runs.documented.sandboxed;
    // Was "...; a page starts a Worker only from its own origin: serve the package (...) from the page's origin, or use worker: false".
    assert.match(worker.error, /^Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: Failed to construct 'Worker': .* cannot be accessed from origin 'null'; a sandboxed page or iframe \(its origin is opaque, "null"\) starts no Worker of the package's: use worker: false/);
    assert.deepEqual(inThread, { result: 42 });
});

test("USAGE's manifest policy: an offscreen document runs in both modes", () => {
    assert.deepEqual(runs.documented.offscreen, ran);
});

test("USAGE's manifest policy: the service worker runs on its thread by default; worker: true says what to do", () => {
    const [byDefault, inThread, worker] = runs.documented.sw;
    assert.deepEqual([byDefault, inThread], [{ result: 42 }, { result: 42 }]);
    // Was "Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: Worker is not defined".
    assert.equal(worker.error, `config.worker: true, but a service worker (an extension's background is one) cannot start a Worker: leave worker out or set it to false to run the engine on this thread, or create the factory on a page (an extension's offscreen document or side panel) for worker mode (the package's README, "Browser extensions")`);
});

test("USAGE's manifest policy: a classic service worker loads the classic script with importScripts, and runs on its thread", () => {
    const [byDefault, inThread, worker] = runs.classicWorker;
    assert.deepEqual([byDefault, inThread], [{ result: 42 }, { result: 42 }]);
    assert.match(worker.error, /^config\.worker: true, but a service worker/);
});

test("Manifest V3's default policy: every context and mode names the manifest's content_security_policy", () => {
    const { panel, offscreen, sw, problems } = runs.none;
    // Was "...; the page's Content-Security-Policy must allow WebAssembly": an extension has no page header or <meta> to change.
    for (const [where, r] of [...panel.map((r) => ["panel", r]), ...offscreen.map((r) => ["offscreen", r]), ["sw", sw[0]], ["sw", sw[1]]]) {
        assert.match(r.error, NO_WASM, where);
    }
    assert.deepEqual(problems, []);
});

const CONTENT_SCRIPT = `; this is a browser extension's content script, which runs with the web page's origin and Content-Security-Policy: create the factory in an extension page (a side panel, popup or offscreen document) and give it the content script's actions as tools through messaging (the package's README, "Browser extensions")`;

test("a content script: each factory, in each mode, says to create it in an extension page; a bad config is only the config's", () => {
    const { content } = runs.documented;
    const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // The classic script looked for its files on the web page's server (was
    // "...; a bundler that does not copy them (esbuild, Rollup) needs them copied
    // next to its output"); the IIFE bundle knows no URL of its own.
    const classic = [
        new RegExp(`^Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: it failed to load from http://127\\.0\\.0\\.1:\\d+/code-mode\\.worker\\.mjs \\(the server sent text/html, not JavaScript\\)${escape(CONTENT_SCRIPT)}$`),
        new RegExp(`^Cannot load the Code Mode core from http://127\\.0\\.0\\.1:\\d+/code-mode\\.wasm: not WebAssembly: the server sent text/html .*\\)${escape(CONTENT_SCRIPT)}$`),
    ];
    const located = (file) => new RegExp(`Cannot locate the package's ${escape(file)}: this copy of @interopio/code-mode does not know its own URL${escape(CONTENT_SCRIPT)}$`);
    const expected = [classic[0], classic[1], classic[0], located("code-mode.worker.mjs"), located("code-mode.wasm"), located("code-mode.worker.mjs")];
    assert.equal(content.length, 7);
    expected.forEach((re, i) => assert.match(content[i].error, re, `factory ${i < 3 ? "classic" : "IIFE"}, worker: ${MODES[i % 3]}`));
    assert.equal(content[6].error, "config.wasmLocation: expected a non-empty string (the URL, or in Node.js the file path, of emscripten-module.wasm), got the number 1");
});

test("an IIFE bundle on a web page, worker mode: it cannot locate its worker (was \"Failed to construct 'URL': Invalid URL\")", () => {
    assert.match(runs.documented.page, /^Code Mode: the engine's worker stopped: Cannot locate the package's code-mode\.worker\.mjs: this copy of @interopio\/code-mode does not know its own URL \(a bundler that turns it into CommonJS, or into a classic script \(an IIFE\) for a browser, leaves it none\); keep the package out of the bundle/);
    assert.deepEqual(runs.documented.problems, []);
});

test("an extension bundled by esbuild (ES modules, the package's files copied): the side panel in both modes and the module service worker run", () => {
    const { panel, sw, problems } = runs.bundled;
    assert.deepEqual(panel, ran);
    assert.deepEqual(sw.slice(0, 2), [{ result: 42 }, { result: 42 }]);
    assert.match(sw[2].error, /^config\.worker: true, but a service worker \(an extension's background is one\)/);
    assert.deepEqual(problems, []);
});

test("a bundle whose extension lacks the package's files names the missing file and the copy to make (was the browser's \"Failed to fetch\" alone)", () => {
    const { lost, noasset } = runs.bundled;
    const at = (file) => `chrome-extension://[a-p]{32}/lost/${file.replace(".", "\\.")}`;
    const copy = `; the package's code-mode.wasm and code-mode.worker.mjs are looked up beside the script that loads them: a bundler that does not copy them (esbuild, Rollup, bun build, Angular's ng build) needs them copied next to its output (the package's README, "Bundlers")`;
    const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // Was "...: it failed to load from chrome-extension://.../code-mode.worker.mjs" and nothing more.
    const worker = new RegExp(`^Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: it failed to load from ${at("code-mode.worker.mjs")} \\(the extension has no such file\\)${escape(copy)}$`);
    const core = new RegExp(`^Cannot load the Code Mode core from ${at("code-mode.wasm")}: Failed to fetch \\(the extension has no such file\\)${escape(copy)}$`);
    [worker, core, worker].forEach((re, i) => assert.match(lost[i].error, re, `worker: ${MODES[i]}`));
    for (const r of noasset) assert.match(r.error, /^Cannot load the QuickJS asset from \.\/emscripten-module\.wasm \(chrome-extension:\/\/[a-p]{32}\/noasset\/emscripten-module\.wasm\): Failed to fetch \(the extension has no such file\)$/);
});

test("a classic service worker bundled as an IIFE says to bundle it as a module or use importScripts (was \"keep the package out of the bundle (esbuild --packages=external ...)\")", () => {
    const [byDefault, inThread, worker] = runs.bundled.classic;
    const want = `Cannot locate the package's code-mode.wasm: this copy of @interopio/code-mode does not know its own URL (a bundler that turns it into a classic script (an IIFE) leaves it none): bundle the extension's service worker as an ES module (esbuild --format=esm) with "type": "module" in manifest.json's background, and copy code-mode.wasm next to it, or load the package's code-mode.global.js with importScripts (the package's README, "Browser extensions")`;
    assert.deepEqual([byDefault, inThread], [{ error: want }, { error: want }]);
    assert.match(worker.error, /^config\.worker: true, but a service worker/);
});
