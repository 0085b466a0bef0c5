// @interopio/code-mode/fdc3 in Debian's WebKitGTK (Safari's engine): the
// pages of web/browser-test/fdc3.test.mjs (an FDC3 app in an iframe finds
// FINOS's reference Desktop Agent in its parent page with getAgent()'s Web
// Connection Protocol; its program raises intents the agent delivers), in
// both engine modes, the agent and its apps on two ports of one site. Run by
// `make test-webkit`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { checkCopilot, fdc3Pages } from "../browser-test/fdc3-pages.mjs";
import { servePages } from "../browser-test/harness.mjs";
import { launchWebKit } from "./webdriver.mjs";

let browser;
const servers = [];
before(async () => {
    browser = await launchWebKit();
});
after(async () => {
    await browser?.close();
    for (const s of servers) await s.close();
});

for (const mode of ["{}", "{ worker: false }"]) {
    test(`getAgent() finds the desktop agent and a program raises intents (config ${mode})`, async () => {
        const pages = await fdc3Pages(mode);
        const [agentServer, server] = [await servePages(pages.agent), await servePages(pages.apps)];
        servers.push(agentServer, server);
        const page = await browser.newPage();
        const problems = [];
        page.on("pageerror", (e) => problems.push(e.message));
        await page.goto(`${agentServer.base}/da.html?apps=${encodeURIComponent(server.base)}`);
        await checkCopilot(page);
        // The agent page's own uncaught errors: none. (WebDriver classic
        // sees only the page's document, not the chart app's iframe, whose
        // rejected handler, unhandled by FINOS's proxy, firefox-test's fdc3
        // test finds.)
        assert.deepEqual(problems, []);
        await page.close();
    });
}
