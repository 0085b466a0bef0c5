// The package in Debian's Firefox ESR (SpiderMonkey), headless, driven by
// puppeteer-core over WebDriver BiDi (it downloads no browser): the cases of
// web/browser-test/engine-suite.mjs, in Firefox's words. Run by `make
// test-firefox`.
import { existsSync } from "node:fs";
import puppeteer from "puppeteer-core";
import { engineSuite } from "../browser-test/engine-suite.mjs";

const FIREFOX = process.env.FIREFOX || "/usr/bin/firefox-esr";

engineSuite({
    name: "Firefox",
    make: "make test-firefox",
    launch() {
        if (!existsSync(FIREFOX)) {
            throw new Error(`Firefox ESR is missing (${FIREFOX}): apt-get update && apt-get install -y firefox-esr (or set FIREFOX=/path/to/firefox)`);
        }
        return puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true });
    },
    fetchFailed: "NetworkError when attempting to fetch resource",
    // Without Origin-Agent-Cluster: ?1 the WebMCP polyfill refuses the page.
    keyedByDefault: false,
    // Firefox makes the worker, which then fails to load.
    sandboxedWorker: (origin) => `it failed to load from ${origin}\\/none\\/dist\\/code-mode\\.worker\\.mjs`,
    sharedWorkerNests: true,
    // A page opened from a file loads the package's files beside it.
    filePageWorker: null,
    // Under WebDriver BiDi (host-worker-files.mjs BLOCKED_IN_NEW_WORKER).
    newWorkerCanBlock: true,
});
