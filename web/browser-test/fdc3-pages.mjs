// The pages of the FDC3 browser tests (web/browser-test/fdc3.test.mjs):
// a Desktop Agent page running FINOS's reference implementation, and the
// applications it opens in iframes. See fdc3.test.mjs for what each does.
import assert from "node:assert/strict";
import { build } from "esbuild";
import { ROOT } from "./harness.mjs";

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
// Its own timeouts (20 s to deliver an intent, 10 s to open an app): a
// loaded machine may take seconds to start an app page.
server = new DefaultFDC3Server(sc, directory, channels, false);
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
FINOS_GA.getAgent({ timeoutMs: 20000 }).then(async (fdc3) => {
    await fdc3.addIntentListener("GetPrice", async (ctx) => ({ type: "fdc3.valuation", value: ctx.id.ticker.length * 10, CURRENCY_ISOCODE: "USD" }));
    await fdc3.addIntentListener("ViewChart", async () => undefined);
    // FINOS's 2.2.0 proxy sends no result for a handler that rejects.
    await fdc3.addIntentListener("Fail", async () => { throw new Error("no price feed"); });
});
</script>`;

const crmPage = (getAgent) => `<!doctype html><meta charset="utf-8"><title>crm</title>
<script>${getAgent}</script>
<script>
FINOS_GA.getAgent({ timeoutMs: 20000 }).then((fdc3) => fdc3.addIntentListener("ViewChart", async () => undefined));
</script>`;

// The application that runs the model: getAgent(), fromFdc3, a program.
const copilotPage = (getAgent, mode) => `<!doctype html><meta charset="utf-8"><title>copilot</title>
<script>${getAgent}</script>
<script type="module">
import { IoCodeModeFactory } from "/dist/index.mjs";
import { fromFdc3 } from "/dist/fdc3.mjs";
const out = {};
try {
    const agent = await FINOS_GA.getAgent({ timeoutMs: 20000 });
    out.info = (await agent.getInfo()).appMetadata;
    const api = await IoCodeModeFactory({ ...${mode}, wasmLocation: "/dist/emscripten-module.wasm", timeout: 60000 });
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

/**
 * The pages, by path: "/da.html" (served on one origin, `?apps=<origin>`
 * naming the other) and "/apps/<appId>.html"; `mode` is the factory
 * config the copilot app spreads in (the engine's mode).
 */
export async function fdc3Pages(mode) {
    const [finos, getAgent] = await Promise.all([
        bundle(`export { DefaultFDC3Server, BasicDirectory, State, ChannelType } from "@finos/fdc3-web-impl";`, "FINOS_DA"),
        bundle(`export { getAgent } from "@finos/fdc3-get-agent";`, "FINOS_GA"),
    ]);
    return {
        agent: { "/da.html": agentPage(finos) },
        apps: { "/apps/chart.html": chartPage(getAgent), "/apps/crm.html": crmPage(getAgent), "/apps/copilot.html": copilotPage(getAgent, mode) },
    };
}

/**
 * Waits for the copilot app's outcome in the agent page `page` (a
 * playwright or puppeteer Page: both have frames(), url(), evaluate())
 * and asserts it: what getAgent() and the program got.
 */
export async function checkCopilot(page) {
    const frame = () => page.frames().find((f) => f.url().endsWith("/apps/copilot.html"));
    let out;
    for (let i = 0; i < 480 && !out; i++) {
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
}
