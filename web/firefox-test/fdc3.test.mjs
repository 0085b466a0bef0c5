// @interopio/code-mode/fdc3 in Debian's Firefox ESR: the pages of
// web/browser-test/fdc3.test.mjs (an FDC3 app in an iframe finds FINOS's
// reference Desktop Agent in its parent page with getAgent()'s Web
// Connection Protocol; its program raises intents the agent delivers), in
// both engine modes. Firefox lets an iframe of another site read its
// (partitioned) sessionStorage, which getAgent() needs, so one row puts
// the agent on another site (localhost, its apps on 127.0.0.1). Run by
// `make test-firefox`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import puppeteer from "puppeteer-core";
import { checkCopilot, fdc3Pages } from "../browser-test/fdc3-pages.mjs";
import { servePages } from "../browser-test/harness.mjs";

const FIREFOX = process.env.FIREFOX || "/usr/bin/firefox-esr";

let browser;
const servers = [];
before(async () => {
    browser = await puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true });
});
after(async () => {
    await browser?.close();
    for (const s of servers) await s.close();
});

for (const { mode, site } of [
    { mode: "{}", site: "same" },
    { mode: "{ worker: false }", site: "another" },
]) {
    test(`getAgent() finds the desktop agent and a program raises intents (config ${mode}, the agent on ${site} site)`, async () => {
        const pages = await fdc3Pages(mode);
        const [agentServer, server] = [await servePages(pages.agent), await servePages(pages.apps)];
        servers.push(agentServer, server);
        const agentBase = site === "same" ? agentServer.base : agentServer.base.replace("127.0.0.1", "localhost");
        const page = await browser.newPage();
        const problems = [];
        page.on("pageerror", (e) => problems.push(e.message));
        await page.goto(`${agentBase}/da.html?apps=${encodeURIComponent(server.base)}`);
        await checkCopilot(page);
        // The chart app's rejected handler, unhandled by FINOS's proxy.
        assert.deepEqual(problems.map((p) => p.replace(/^Error: /, "")), ["no price feed"]);
        await page.close();
    });
}
