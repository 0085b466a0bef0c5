// The package in a Firefox extension (Manifest V3), whose background is an
// event page (a document, with Worker: worker mode is its default), not a
// service worker: dist/ copied into the extension, imported by its
// background module. With USAGE's manifest policy it runs a program in each
// mode; without it (Firefox's default, script-src 'self') each factory
// rejects naming the manifest's content_security_policy, as in Chromium
// (web/browser-test/extension.test.mjs), and one that lacks the package's
// files names them. The extension is installed over
// WebDriver BiDi (webExtension.install), which does not open an
// extension's pages: the background posts its results to a local server.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import { EXTENSION_FILES, NO_WASM, POLICIES, RUN } from "../browser-test/extension-files.mjs";
import { ROOT } from "../browser-test/harness.mjs";

const FIREFOX = process.env.FIREFOX || "/usr/bin/firefox-esr";

const background = (port, policy) => `import { runOnce } from "./run.mjs";
const out = [];
for (const worker of [undefined, false, true]) out.push(await runOnce(worker));
await fetch("http://127.0.0.1:${port}/${policy}", { method: "POST", body: JSON.stringify({ protocol: location.protocol, out }) });
`;

const dir = mkdtempSync(join(tmpdir(), "codemode-firefox-extension-"));
/** @type {Record<string, (report: any) => void>} */
const waiting = {};
const reports = {};
let server;
let browser;

before(async () => {
    if (!existsSync(FIREFOX)) throw new Error(`Firefox ESR is missing (${FIREFOX}): apt-get install -y firefox-esr (or set FIREFOX=/path/to/firefox)`);
    server = createServer((req, res) => {
        let body = "";
        req.on("data", (d) => (body += d));
        req.on("end", () => {
            res.writeHead(200).end();
            waiting[req.url.slice(1)]?.(JSON.parse(body));
        });
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    browser = await puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true });
    for (const policy of Object.keys(POLICIES)) {
        const ext = join(dir, policy);
        mkdirSync(ext);
        for (const f of EXTENSION_FILES) copyFileSync(join(ROOT, "dist", f), join(ext, f));
        const manifest = {
            manifest_version: 3,
            name: "copilot",
            version: "1.0",
            browser_specific_settings: { gecko: { id: `copilot-${policy}@code-mode.test` } },
            background: { scripts: ["background.mjs"], type: "module" },
            host_permissions: ["http://127.0.0.1/*"],
            ...(POLICIES[policy] ? { content_security_policy: { extension_pages: POLICIES[policy] } } : {}),
        };
        writeFileSync(join(ext, "manifest.json"), JSON.stringify(manifest));
        writeFileSync(join(ext, "run.mjs"), RUN);
        writeFileSync(join(ext, "background.mjs"), background(server.address().port, policy));
        const report = new Promise((resolve) => (waiting[policy] = resolve));
        await browser.installExtension(ext);
        reports[policy] = await report;
    }
    // An extension that lacks the package's files (a bundle without the copies).
    const ext = join(dir, "lost");
    mkdirSync(ext);
    for (const f of ["index.mjs", "emscripten-module.wasm"]) copyFileSync(join(ROOT, "dist", f), join(ext, f));
    const manifest = { manifest_version: 3, name: "copilot", version: "1.0", browser_specific_settings: { gecko: { id: "copilot-lost@code-mode.test" } }, background: { scripts: ["background.mjs"], type: "module" }, host_permissions: ["http://127.0.0.1/*"], content_security_policy: { extension_pages: POLICIES.documented } };
    writeFileSync(join(ext, "manifest.json"), JSON.stringify(manifest));
    writeFileSync(join(ext, "run.mjs"), RUN);
    writeFileSync(join(ext, "background.mjs"), background(server.address().port, "lost"));
    const report = new Promise((resolve) => (waiting.lost = resolve));
    await browser.installExtension(ext);
    reports.lost = await report;
});

after(async () => {
    await browser?.close();
    await new Promise((r) => (server ? server.close(r) : r()));
    rmSync(dir, { recursive: true, force: true });
});

test("USAGE's manifest policy: the background page runs in both modes (worker by default)", () => {
    assert.deepEqual(reports.documented, { protocol: "moz-extension:", out: [{ result: 42 }, { result: 42 }, { result: 42 }] });
});

test("Firefox's default extension policy: each mode names the manifest's content_security_policy", () => {
    assert.equal(reports.none.protocol, "moz-extension:");
    assert.equal(reports.none.out.length, 3);
    // Firefox's words: "call to WebAssembly.compileStreaming() blocked by CSP".
    for (const r of reports.none.out) assert.match(r.error, NO_WASM);
});

// Firefox answers a file the extension lacks with 200 and a body whose read
// aborts: the worker was said to be refused by the page's policy ("the
// server sends it as JavaScript, so the page most likely refused it: ..."),
// the core "The operation was aborted." alone.
test("an extension without the package's files names the missing file and the copy to make", () => {
    const copy = `; the package's code-mode.wasm and code-mode.worker.mjs are looked up beside the script that loads them: a bundler that does not copy them (esbuild, Rollup, bun build, Angular's ng build) needs them copied next to its output (the package's README, "Bundlers")`;
    const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const at = "moz-extension://[0-9a-f-]{36}/";
    const worker = new RegExp(`^Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: it failed to load from ${at}code-mode\\.worker\\.mjs \\(the extension has no such file\\)${escape(copy)}$`);
    const core = new RegExp(`^Cannot load the Code Mode core from ${at}code-mode\\.wasm: The operation was aborted \\(the extension has no such file\\)${escape(copy)}$`);
    assert.equal(reports.lost.protocol, "moz-extension:");
    [worker, core, worker].forEach((re, i) => assert.match(reports.lost.out[i].error, re, `worker: ${[undefined, false, true][i]}`));
});
