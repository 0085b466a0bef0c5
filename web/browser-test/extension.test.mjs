// The package in a Chrome extension (Manifest V3), as a browser copilot
// ships it: dist/ copied into the extension, imported by its side panel
// (the popup is the same kind of page), an offscreen document and its
// background service worker. With 'wasm-unsafe-eval' in the manifest's
// policy (USAGE.md, "Browser extensions") each runs a program in both
// modes, but the service worker in worker mode: it has no Worker, and the
// factory says what to do. Without it (Manifest V3's default policy,
// script-src 'self'), every one rejects naming the manifest's
// content_security_policy, where an extension's policy is set.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM, ROOT, checkPrerequisites } from "./harness.mjs";

// runOnce(worker, code): a factory in that mode (undefined: the default),
// one program, { result } or { error } (the factory's or the run's).
const RUN = `import { IoCodeModeFactory } from "./index.mjs";
export async function runOnce(worker, code = "return await tools.add({ a: 2, b: 40 })") {
    try {
        const config = { wasmLocation: "./emscripten-module.wasm", tools: [{ name: "add", execute: ({ a, b }) => a + b }] };
        if (worker !== undefined) config.worker = worker;
        const api = await IoCodeModeFactory(config);
        const [, executeCode] = api.createSession().getLlmTools();
        const r = await executeCode.execute({ code, explanation: "x" });
        api.dispose();
        return r.error ? { error: r.error.message } : { result: r.result };
    } catch (e) {
        return { error: String((e && e.message) || e) };
    }
}
`;
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
const html = (script) => `<!doctype html><meta charset="utf-8"><title>copilot</title><script type="module" src="./${script}"></script>`;
const manifest = (policy) =>
    JSON.stringify({
        manifest_version: 3,
        name: "copilot",
        version: "1.0",
        background: { service_worker: "sw.mjs", type: "module" },
        side_panel: { default_path: "panel.html" },
        permissions: ["offscreen", "sidePanel"],
        ...(policy ? { content_security_policy: { extension_pages: policy } } : {}),
    });

// USAGE's recipe; null: the manifest sets none (Manifest V3's default).
const POLICIES = { documented: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'", none: null };
const MODES = [undefined, false, true];
const NO_WASM = /WebAssembly.*; the extension's Content-Security-Policy must allow WebAssembly: add 'wasm-unsafe-eval' to the script-src of its manifest\.json \("content_security_policy": \{ "extension_pages": "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'" \}\)/;

const dir = mkdtempSync(join(tmpdir(), "codemode-extension-"));
const runs = {};

// Each extension is loaded in a browser of its own (a profile that loads
// it), and every run made up front: what the tests below read.
async function runAll(policy) {
    const ext = join(dir, policy);
    mkdirSync(ext);
    for (const f of ["index.mjs", "code-mode.worker.mjs", "code-mode.wasm", "emscripten-module.wasm"]) copyFileSync(join(ROOT, "dist", f), join(ext, f));
    const files = { "run.mjs": RUN, "panel.mjs": PANEL, "offscreen.mjs": OFFSCREEN, "sw.mjs": SW, "panel.html": html("panel.mjs"), "offscreen.html": html("offscreen.mjs"), "manifest.json": manifest(POLICIES[policy]) };
    for (const [name, body] of Object.entries(files)) writeFileSync(join(ext, name), body);
    const context = await chromium.launchPersistentContext(join(dir, `${policy}-profile`), {
        executablePath: CHROMIUM,
        headless: true,
        args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", `--disable-extensions-except=${ext}`, `--load-extension=${ext}`],
    });
    const out = { panel: [], offscreen: [], sw: [], problems: [] };
    try {
        const sw = context.serviceWorkers()[0] || (await context.waitForEvent("serviceworker", { timeout: 60000 }));
        const id = new URL(sw.url()).host;
        for (const worker of MODES) {
            const tab = await context.newPage();
            tab.on("pageerror", (e) => out.problems.push(`panel: ${e.message}`));
            await tab.goto(`chrome-extension://${id}/panel.html${worker === undefined ? "" : `?worker=${worker}`}`);
            await tab.waitForFunction(() => globalThis.__result, null, { timeout: 60000 });
            out.panel.push(await tab.evaluate(() => globalThis.__result));
            await tab.close();
        }
        for (const worker of MODES) out.sw.push(await sw.evaluate((w) => self.runHere(w), worker));
        for (const worker of MODES) out.offscreen.push(await sw.evaluate((w) => self.runOffscreen(w), worker));
    } finally {
        await context.close();
    }
    return out;
}

before(async () => {
    checkPrerequisites();
    for (const policy of Object.keys(POLICIES)) runs[policy] = await runAll(policy);
});

after(() => rmSync(dir, { recursive: true, force: true }));

const ran = [{ result: 42 }, { result: 42 }, { result: 42 }];

test("USAGE's manifest policy: the side panel runs in both modes (worker by default)", () => {
    assert.deepEqual(runs.documented.panel, ran);
    assert.deepEqual(runs.documented.problems, []);
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

test("Manifest V3's default policy: every context and mode names the manifest's content_security_policy", () => {
    const { panel, offscreen, sw, problems } = runs.none;
    // Was "...; the page's Content-Security-Policy must allow WebAssembly": an extension has no page header or <meta> to change.
    for (const [where, r] of [...panel.map((r) => ["panel", r]), ...offscreen.map((r) => ["offscreen", r]), ["sw", sw[0]], ["sw", sw[1]]]) {
        assert.match(r.error, NO_WASM, where);
    }
    assert.deepEqual(problems, []);
});
