// @interopio/code-mode/fdc3 in Debian's Chromium, in an FDC3 2.2 browser
// application that finds its Desktop Agent as a real one does: with
// @finos/fdc3-get-agent's getAgent(), whose Web Connection Protocol
// (WCP1Hello to the parent window, WCP3Handshake with a MessagePort,
// WCP4/5 identity validation over it) reaches a Desktop Agent page that
// runs FINOS's reference implementation (@finos/fdc3-web-impl's
// DefaultFDC3Server). The agent page opens each application in an iframe
// of another origin (another port): the copilot application,
// which loads the package and runs the model's program, and, when an
// intent needs them, the chart and crm applications, FDC3 apps written
// against the standard API (the pages: fdc3-pages.mjs). What the agent page writes is only what a
// browser platform supplies: its ServerContext (how a message reaches an
// app's port, how an app is launched) and its answer to WCP1Hello.
// Run with `make test-browser` (after `make build`).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { checkCopilot, fdc3Pages } from "./fdc3-pages.mjs";
import { MODE_OPTION, checkPrerequisites, launchBrowser, servePages } from "./harness.mjs";

let agentServer, server, browser, page, problems;
before(async () => {
    checkPrerequisites();
    const pages = await fdc3Pages(MODE_OPTION);
    agentServer = await servePages(pages.agent);
    server = await servePages(pages.apps);
    browser = await launchBrowser();
    page = await browser.newPage();
    problems = [];
    page.on("pageerror", (e) => problems.push(e.message));
    // The agent and its apps on two ports: two origins of one site, as a
    // browser desktop agent and the apps it opens often are. (Another
    // site's iframe may not read sessionStorage in this Chromium, which
    // getAgent() needs: "Access is denied for this document".)
    await page.goto(`${agentServer.base}/da.html?apps=${encodeURIComponent(server.base)}`);
});
after(async () => {
    await browser?.close();
    await server?.close();
    await agentServer?.close();
});

test("an FDC3 app finds the desktop agent with getAgent() and its program raises intents the agent delivers to apps it opens", async () => {
    await checkCopilot(page);
    // The page's only error: the chart app's rejected handler, which the
    // FINOS proxy leaves unhandled (and so never answers the raiser).
    assert.deepEqual(problems, ["no price feed"]);
});
