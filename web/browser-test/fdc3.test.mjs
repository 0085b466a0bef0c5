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
// against the standard API. What the agent page writes is only what a
// browser platform supplies: its ServerContext (how a message reaches an
// app's port, how an app is launched) and its answer to WCP1Hello.
// Run with `make test-browser` (after `make build`).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { build } from "esbuild";
import { MODE_OPTION, ROOT, checkPrerequisites, launchBrowser, servePages } from "./harness.mjs";

// The FINOS packages as classic scripts, one global each (their dist is
// ESM with extensionless imports, which a browser cannot load as
// published): the agent's server for the agent page, getAgent for apps.
async function bundle(contents, globalName) {
    const out = await build({ stdin: { contents, resolveDir: ROOT, loader: "js" }, bundle: true, format: "iife", globalName, platform: "browser", write: false, logLevel: "silent" });
    return out.outputFiles[0].text.replace(/<\/script/gi, "<\\/script");
}

// The Desktop Agent page: the directory, the server, and the platform's
// part. `?apps=<origin>` is where the applications are served.
const agentPage = (finos) => `<!doctype html><meta charset="utf-8"><title>desktop agent</title><body>
<script>${finos}</script>
<script>
const { DefaultFDC3Server, BasicDirectory, State, ChannelType } = FINOS_DA;
const apps = new URLSearchParams(location.search).get("apps");
const appD = (appId, listensFor) => ({ appId, title: appId, type: "web", details: { url: apps + "/apps/" + appId + ".html" }, interop: { intents: { listensFor } } });
const directory = new BasicDirectory([
    appD("chart", { GetPrice: { contexts: ["fdc3.instrument"], resultType: "fdc3.valuation" }, ViewChart: { contexts: ["fdc3.instrument"] }, Fail: { contexts: ["fdc3.instrument"] } }),
    appD("crm", { ViewChart: { contexts: ["fdc3.instrument"] } }),
    appD("copilot", {}),
]);
// instanceId -> its registration (plain data: the server copies it into
// messages), and apart from it the window and the agent's port.
const registrations = new Map();
const windows = new Map();
const ports = new Map();
window.launched = [];
let server;
function launch(appId) {
    const record = directory.retrieveAppsById(appId)[0];
    if (!record) throw new Error("AppNotFound");
    const instanceId = crypto.randomUUID();
    registrations.set(instanceId, { appId, instanceId, state: State.Pending });
    const frame = document.createElement("iframe");
    frame.src = record.details.url;
    document.body.append(frame);
    windows.set(instanceId, frame.contentWindow);
    window.launched.push(appId);
    return instanceId;
}
const sc = {
    createUUID: () => crypto.randomUUID(),
    post: async (message, instanceId) => ports.get(instanceId)?.postMessage(message),
    open: async (appId) => launch(appId),
    setFDC3Server: (s) => (server = s),
    setInstanceDetails: (id, details) => registrations.set(id, { ...registrations.get(id), ...details }),
    getInstanceDetails: (id) => registrations.get(id),
    setAppState: async (id, state) => { const r = registrations.get(id); if (r) r.state = state; },
    getConnectedApps: async () => [...registrations.values()].filter((r) => r.state === State.Connected),
    getAllApps: async () => [...registrations.values()],
    isAppConnected: async (id) => registrations.get(id)?.state === State.Connected,
    log: () => {},
    provider: () => "code-mode-browser-test",
    providerVersion: () => "1",
    fdc3Version: () => "2.2",
    narrowIntents: async (_raiser, appIntents) => appIntents,
};
const channels = [{ id: "fdc3.channel.1", type: ChannelType.user, context: [], displayMetadata: { name: "Channel 1", color: "red" } }];
server = new DefaultFDC3Server(sc, directory, channels, false, 3000, 3000);
// WCP1Hello from a window this agent opened: a MessageChannel, one end
// for the server, the other to the app in WCP3Handshake. The app then
// validates its identity (WCP4) over the port; the server answers (WCP5).
window.addEventListener("message", (e) => {
    if (e.data?.type !== "WCP1Hello") return;
    const instanceId = [...windows].find(([, w]) => w === e.source)?.[0];
    if (!instanceId) return; // a window this agent did not open
    const { port1, port2 } = new MessageChannel();
    ports.set(instanceId, port1);
    port1.onmessage = (m) => (m.data?.type === "WCP6Goodbye" ? server.cleanup(instanceId) : server.receive(m.data, instanceId));
    const handshake = { type: "WCP3Handshake", meta: { connectionAttemptUuid: e.data.meta.connectionAttemptUuid, timestamp: new Date() }, payload: { fdc3Version: "2.2", intentResolverUrl: false, channelSelectorUrl: false } };
    e.source.postMessage(handshake, "*", [port2]);
});
launch("copilot");
</script>`;

// An FDC3 app written against the standard API.
const chartPage = (getAgent) => `<!doctype html><meta charset="utf-8"><title>chart</title>
<script>${getAgent}</script>
<script>
FINOS_GA.getAgent({ timeoutMs: 5000 }).then(async (fdc3) => {
    await fdc3.addIntentListener("GetPrice", async (ctx) => ({ type: "fdc3.valuation", value: ctx.id.ticker.length * 10, CURRENCY_ISOCODE: "USD" }));
    await fdc3.addIntentListener("ViewChart", async () => undefined);
    // FINOS's 2.2.0 proxy sends no result for a handler that rejects.
    await fdc3.addIntentListener("Fail", async () => { throw new Error("no price feed"); });
});
</script>`;

const crmPage = (getAgent) => `<!doctype html><meta charset="utf-8"><title>crm</title>
<script>${getAgent}</script>
<script>
FINOS_GA.getAgent({ timeoutMs: 5000 }).then((fdc3) => fdc3.addIntentListener("ViewChart", async () => undefined));
</script>`;

// The application that runs the model: getAgent(), fromFdc3, a program.
const copilotPage = (getAgent) => `<!doctype html><meta charset="utf-8"><title>copilot</title>
<script>${getAgent}</script>
<script type="module">
import { IoCodeModeFactory } from "/dist/index.mjs";
import { fromFdc3 } from "/dist/fdc3.mjs";
const out = {};
try {
    const agent = await FINOS_GA.getAgent({ timeoutMs: 5000 });
    out.info = (await agent.getInfo()).appMetadata;
    const api = await IoCodeModeFactory({ ...${MODE_OPTION}, wasmLocation: "/dist/emscripten-module.wasm", timeout: 20000 });
    const source = await fromFdc3(agent, { contextTypes: ["fdc3.instrument"], resultTimeoutMs: 5000 });
    source.registerTools(api);
    out.tools = source.tools.map((t) => t.name);
    out.viewChart = source.tools.find((t) => t.name === "fdc3.ViewChart").inputSchema.properties.app;
    const session = api.createSession();
    const [, executeCode] = session.getLlmTools();
    out.run = await executeCode.execute({
        code: \`const aapl = { type: "fdc3.instrument", id: { ticker: "AAPL" } };
            const r = { price: await tools.fdc3.GetPrice(aapl) };
            try { await tools.fdc3.ViewChart(aapl); } catch (e) { r.unnamed = e.message; }
            r.crm = await tools.fdc3.ViewChart({ ...aapl, app: "crm" });
            r.chart = await tools.fdc3.ViewChart({ ...aapl, app: "chart" });
            try { await tools.fdc3.Fail(aapl); } catch (e) { r.fail = e.message; }
            return r;\`,
        explanation: "FDC3 in a browser",
    });
    api.dispose();
} catch (e) {
    out.error = String(e && e.stack || e);
}
window.__out = out;
</script>`;

let agentServer, server, browser, page, problems;
before(async () => {
    checkPrerequisites();
    const [finos, getAgent] = await Promise.all([
        bundle(`export { DefaultFDC3Server, BasicDirectory, State, ChannelType } from "@finos/fdc3-web-impl";`, "FINOS_DA"),
        bundle(`export { getAgent } from "@finos/fdc3-get-agent";`, "FINOS_GA"),
    ]);
    agentServer = await servePages({ "/da.html": agentPage(finos) });
    server = await servePages({ "/apps/chart.html": chartPage(getAgent), "/apps/crm.html": crmPage(getAgent), "/apps/copilot.html": copilotPage(getAgent) });
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
    const frame = () => page.frames().find((f) => f.url().endsWith("/apps/copilot.html"));
    await page.waitForFunction(() => document.querySelector("iframe"), null, { timeout: 10000 });
    let out;
    for (let i = 0; i < 240 && !out; i++) {
        out = await frame()?.evaluate(() => window.__out).catch(() => undefined);
        if (!out) await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(out, "the copilot app never finished");
    assert.equal(out.error, undefined, out.error);
    // The identity the agent gave the app over the handshake: the directory's.
    assert.equal(out.info.appId, "copilot");
    assert.deepEqual(out.tools, ["fdc3.Fail", "fdc3.GetPrice", "fdc3.ViewChart"]);
    assert.deepEqual(out.viewChart.enum, ["chart", "crm"]);
    assert.equal(out.run.ok, true, JSON.stringify(out.run));
    assert.deepEqual(out.run.result, {
        price: { type: "fdc3.valuation", value: 40, CURRENCY_ISOCODE: "USD" },
        unnamed: "ResolveError: UserCancelledResolution: no application was chosen: the user cancelled, or the desktop agent has no resolver to ask (raiseIntent ViewChart with fdc3.instrument; handled by chart, crm: choose one with app (chart, crm))",
        crm: { handledBy: "crm" },
        chart: { handledBy: "chart" },
        fail: "ResultError: no result from chart within 5000 ms (result of Fail): its intent handler may have failed, which the desktop agent does not always report",
    });
    // The agent opened chart for GetPrice and crm for the program's choice,
    // each once: a named app's running instance took the intent.
    assert.deepEqual((await page.evaluate(() => window.launched)).sort(), ["chart", "copilot", "crm"]);
    // The page's only error: the chart app's rejected handler, which the
    // FINOS proxy leaves unhandled (and so never answers the raiser).
    assert.deepEqual(problems, ["no price feed"]);
});
