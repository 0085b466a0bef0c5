// The package inside an app's own workers in Chromium: a dedicated Worker
// and a SharedWorker, each a module importing index.mjs and a classic
// script loading code-mode.global.js with importScripts, from a folder
// other than the package's (USAGE, "Worker mode": "A Web Worker of your
// own may import the package (or importScripts the classic script) as a
// page does"). The classic script looked for its files beside the worker's
// own script (no document.currentScript in a worker): HTTP 404 for
// code-mode.wasm. In the suite's mode: the worker's own thread (worker:
// false, and the default there), or worker mode nested in the app's
// worker; Chromium's SharedWorker has no Worker, which worker: true names.
// A classic worker that runs SES's lockdown() first hides the stack trace
// the script reads its URL from: the 404 says so and what to do.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { IN_THREAD, checkPrerequisites, launchBrowser, servePolicyPages } from "./harness.mjs";
import { HOST_WORKER_FILES, NO_NESTED, RAN, service, start } from "./host-worker-files.mjs";

let server;
let browser;
let page;
const problems = [];

before(async () => {
    checkPrerequisites();
    server = await servePolicyPages({ app: "" }, HOST_WORKER_FILES);
    browser = await launchBrowser();
    page = await browser.newPage();
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(`http://127.0.0.1:${server.port}/app/host-workers.html`);
});

after(async () => {
    await browser?.close();
    await server?.close();
});

const MODES = IN_THREAD ? [false, undefined] : [true];

for (const kind of ["dedicated", "shared"]) {
    for (const file of [`${kind}.mjs`, `${kind}.js`]) {
        for (const mode of MODES) {
            const label = `${kind === "shared" ? "a SharedWorker" : "a dedicated Worker"} of the app's (${file.endsWith(".mjs") ? "a module importing index.mjs" : "classic, importScripts of code-mode.global.js"}), worker: ${mode}`;
            const want = kind === "shared" && mode === true ? NO_NESTED : RAN;
            test(`${label}: ${want === RAN ? "a tool call, a spinning program's TIMEOUT, the next run" : "says the SharedWorker cannot start a Worker"}`, async () => {
                assert.deepEqual(await page.evaluate(start(kind, file, mode)), want);
                assert.deepEqual(problems, []);
            });
        }
    }
}

for (const mode of MODES) {
    test(`a classic Worker that calls SES's lockdown() before importScripts, worker: ${mode}: the missing file's error says lockdown() hid the script's URL and what to do; after importScripts it runs`, async () => {
        const out = await page.evaluate(start("dedicated", "locked-first.js", mode));
        assert.match(out, /\/app\/workers\/code-mode\.(wasm|worker\.mjs).*HTTP 404 Not Found\)?; in this worker the classic script found no URL of its own \(a stack trace names it, and SES's lockdown\(\) hides stack traces\) and looked beside the worker's script: call lockdown\(\) after importScripts of code-mode\.global\.js, or import index\.mjs in a module worker$/);
        assert.deepEqual(await page.evaluate(start("dedicated", "locked-after.js", mode)), RAN);
        assert.deepEqual(problems, []);
    });
}

// A web site's service worker: its own thread; worker: true said the
// extension's way out ("(an extension's background is one) ... an
// extension's offscreen document or side panel").
for (const mode of MODES) {
    const want = mode === true ? "config.worker: true, but a service worker cannot start a Worker: leave worker out or set it to false to run the engine on this thread (the service worker's own, already off the pages' threads)" : RAN;
    test(`a web site's module service worker, worker: ${mode}: ${want === RAN ? "a tool call, a spinning program's TIMEOUT, the next run" : "says a service worker cannot start a Worker, without the extension's advice"}`, async () => {
        assert.deepEqual(await page.evaluate(service(mode)), want);
        assert.deepEqual(problems, []);
    });
}
