// @interopio/code-mode/fdc3 against a real FDC3 2.2 Desktop Agent: FINOS's
// reference implementation with real DesktopAgentProxy apps
// (web/test/fdc3-desktop-agent.mjs). The apps below are FDC3 apps written
// against the standard API (addIntentListener, addContextListener); the
// agent resolves, launches, delivers and answers. (The fake agent of
// adapters-fdc3.test.mjs stays for what this agent cannot show: a channel
// result, a resolver the user cancels.)
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, loadFactory, run, until } from "./helpers.mjs";
import { eachCaught, loadAdapter } from "./adapter-helpers.mjs";
import { startDesktopAgent } from "./fdc3-desktop-agent.mjs";

const INSTRUMENT = { type: "object", properties: { type: { const: "fdc3.instrument" }, id: { type: "object", properties: { ticker: { type: "string" } }, required: ["ticker"] } }, required: ["type", "id"] };

// AppD records: the agent's app directory.
const appD = (appId, listensFor) => ({ appId, title: appId, type: "web", details: { url: `https://apps.test/${appId}` }, interop: { intents: { listensFor } } });
const DIRECTORY = [
    appD("chart", {
        ViewChart: { contexts: ["fdc3.instrument"] },
        GetPrice: { contexts: ["fdc3.instrument"], resultType: "fdc3.valuation" },
        Wait: { contexts: ["fdc3.instrument"] },
        Fail: { contexts: ["fdc3.instrument"] },
    }),
    appD("crm", { StartCall: { contexts: ["fdc3.contact"] }, ViewChart: { contexts: ["fdc3.instrument"] } }),
    // Declares ReadNews but never listens for it: the agent gives up on delivery.
    appD("news", { ReadNews: { contexts: ["fdc3.instrument"] } }),
    appD("blotter", {}),
    // The application that runs the model listens too: for an intent only
    // it handles, and for one crm handles as well.
    appD("copilot", { Secret: { contexts: ["fdc3.instrument"] }, StartCall: { contexts: ["fdc3.contact"] } }),
];

let IoCodeModeFactory, fdc3, da, host, received, waiting;
let failed = 0;
const selfCalls = [];
before(async () => {
    IoCodeModeFactory = await loadFactory();
    fdc3 = await loadAdapter("fdc3");
    received = [];
    da = await startDesktopAgent({
        directory: DIRECTORY,
        intentTimeoutMs: 500,
        mains: {
            // The reference proxy calls .then on a handler's answer: FDC3
            // handlers are async (or return nothing).
            chart: async (agent) => {
                await agent.addIntentListener("GetPrice", async (ctx) => ({ type: "fdc3.valuation", value: ctx.id.ticker.length * 10, CURRENCY_ISOCODE: "USD" }));
                await agent.addIntentListener("ViewChart", () => undefined);
                await agent.addIntentListener("Wait", () => new Promise((resolve) => (waiting = resolve)));
                // A handler that fails: FINOS's 2.2.0 proxy sends no result
                // for it (done.then without a catch), so the raiser waits.
                await agent.addIntentListener("Fail", async () => {
                    failed++;
                    throw new Error("no price feed");
                });
            },
            crm: async (agent) => {
                await agent.addIntentListener("StartCall", () => undefined);
                await agent.addIntentListener("ViewChart", () => undefined);
            },
            blotter: async (agent) => {
                await agent.joinUserChannel("fdc3.channel.1");
                await agent.addContextListener("fdc3.instrument", (ctx) => received.push(ctx));
            },
        },
    });
    host = (await da.connect("copilot")).fdc3;
    await host.addIntentListener("Secret", async () => (selfCalls.push("Secret"), { type: "secret", value: "the host's own" }));
    await host.addIntentListener("StartCall", async () => (selfCalls.push("StartCall"), undefined));
});
after(async () => {
    await da.stop();
});

const ticker = (t) => ({ type: "fdc3.instrument", id: { ticker: t } });

// Runs fn while the Fail handler's rejection, unhandled in the app (FINOS's
// proxy calls .then on it without a catch), is counted instead of failing
// the test file: in a browser it is the app page's console error.
async function withUnhandled(fn) {
    const theirs = process.listeners("unhandledRejection");
    const seen = [];
    process.removeAllListeners("unhandledRejection");
    process.on("unhandledRejection", (err) => seen.push(err && err.message));
    const before = failed;
    try {
        const out = await fn();
        await until(() => seen.length > 0, "the app's unhandled rejection");
        assert.ok(failed > before, "the Fail handler ran");
        assert.ok(seen.every((m) => m === "no price feed"), JSON.stringify(seen));
        return out;
    } finally {
        process.removeAllListeners("unhandledRejection");
        for (const l of theirs) process.on("unhandledRejection", l);
    }
}

describe("fromFdc3 on the FDC3 reference desktop agent", () => {
    let api, source;
    before(async () => {
        api = await IoCodeModeFactory({ wasmLocation: assetPath });
        source = await fdc3.fromFdc3(host, { contextTypes: ["fdc3.instrument", "fdc3.contact", "fdc3.nothing"], contextSchemas: { "fdc3.instrument": INSTRUMENT }, broadcast: true, open: true });
        source.registerTools(api);
    });
    after(() => api.dispose());

    // Secret was a tool that ran the host's own handler; StartCall, with
    // the host running and crm not, went to the host.
    test("the agent's intents for the context types are the tools (a type no app takes is no error); the host's own listeners are none", () => {
        assert.deepEqual(source.tools.map((t) => t.name), ["fdc3.Fail", "fdc3.GetPrice", "fdc3.ReadNews", "fdc3.StartCall", "fdc3.ViewChart", "fdc3.Wait", "fdc3.broadcast", "fdc3.open"]);
        const view = source.tools.find((t) => t.name === "fdc3.ViewChart");
        assert.equal(view.description, "Raise the FDC3 intent ViewChart with a fdc3.instrument context. Handled by: chart, crm. Choose one with app (chart, crm). Resolves with the result context of the handling application, { handledBy } when it returns none, or { handledBy, channel, context } when it answers with a channel.");
        // Two apps: the context's schema and an optional app, one of them.
        assert.deepEqual(view.inputSchema, { ...INSTRUMENT, properties: { ...INSTRUMENT.properties, app: { type: "string", enum: ["chart", "crm"], description: "The appId of the application to handle the intent; without it the desktop agent chooses, or fails when it cannot." } } });
        // One app: the context's schema as given.
        assert.deepEqual(source.tools.find((t) => t.name === "fdc3.GetPrice").inputSchema, INSTRUMENT);
        assert.deepEqual(source.tools.find((t) => t.name === "fdc3.StartCall").inputSchema.properties.type, { const: "fdc3.contact" });
        assert.equal(source.tools.find((t) => t.name === "fdc3.StartCall").description, "Raise the FDC3 intent StartCall with a fdc3.contact context. Handled by: crm. Resolves with the result context of the handling application, { handledBy } when it returns none, or { handledBy, channel, context } when it answers with a channel.");
    });

    test("a program raises intents: the agent launches the app, delivers, and the app's result comes back", async () => {
        const session = api.createSession();
        const out = await run(
            session,
            `const price = await tools.fdc3.GetPrice({ type: "fdc3.instrument", id: { ticker: "AAPL" } });
             const call = await tools.fdc3.StartCall({ type: "fdc3.contact", id: { email: "ada@example.com" } });
             return { price, call };`,
        );
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result, { price: { type: "fdc3.valuation", value: 40, CURRENCY_ISOCODE: "USD" }, call: { handledBy: "crm" } });
        assert.ok(["chart", "crm"].every((id) => da.launched.some((a) => a.appId === id)), "the agent launched chart and crm");
        assert.deepEqual(selfCalls, [], "the host's own listener never ran");
        session.dispose();
    });

    test("the agent's errors reach the program with FDC3's names: no app, no resolver, delivery timed out", async () => {
        const session = api.createSession();
        const out = await eachCaught(session, [
            `tools.fdc3.ViewChart(${JSON.stringify(ticker("X"))})`, // two apps, no resolver to choose
            `tools.fdc3.ReadNews(${JSON.stringify(ticker("X"))})`, // news never listens
            `tools.fdc3.StartCall({ type: "fdc3.contact", name: "Ada" })`,
            `tools.fdc3.open({ appId: "nope" })`,
        ]);
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result.slice(0, 2), [
            "ResolveError: UserCancelledResolution: no application was chosen: the user cancelled, or the desktop agent has no resolver to ask (raiseIntent ViewChart with fdc3.instrument; handled by chart, crm: choose one with app (chart, crm))",
            "ResolveError: IntentDeliveryFailed: the intent could not be delivered: its application did not listen for it in time, or failed (one still starting may take a later call) (raiseIntent ReadNews with fdc3.instrument)",
        ]);
        assert.deepEqual(out.result[2], { handledBy: "crm" });
        assert.deepEqual(selfCalls, []);
        assert.equal(out.result[3], "OpenError: AppNotFound: no such application (open nope)");
        // Straight to the tool: a context type the intent does not take. Its
        // listeners take any (FDC3's have no type), the directory only
        // instruments: the error names them and what the directory lacks.
        const view = source.tools.find((t) => t.name === "fdc3.ViewChart");
        await assert.rejects(view.execute({ type: "fdc3.contact" }, {}), { message: "ResolveError: NoAppsFound: no application can handle this intent with this context (raiseIntent ViewChart with fdc3.contact; listening but not declared for fdc3.contact in the app directory (interop.intents.listensFor), so not delivered: chart, crm)" });
        session.dispose();
    });

    // Several apps handle ViewChart and this agent has no resolver UI: the
    // program names the one it wants, as raiseIntent(intent, context, app).
    test("an intent several apps handle: the program chooses one with app; a name not offered is refused before the agent", async () => {
        const session = api.createSession();
        // Both apps run (GetPrice and StartCall above launched them): the
        // intent goes to the running instance; { appId } alone would open
        // a new one per call, and leave two charts for the next ViewChart.
        const count = (appId) => da.launched.filter((a) => a.appId === appId).length;
        assert.deepEqual([count("chart"), count("crm")], [1, 1]);
        const out = await eachCaught(session, [
            `tools.fdc3.ViewChart({ ...${JSON.stringify(ticker("AAPL"))}, app: "crm" })`,
            `tools.fdc3.ViewChart({ ...${JSON.stringify(ticker("AAPL"))}, app: "chart" })`,
            `tools.fdc3.ViewChart({ ...${JSON.stringify(ticker("AAPL"))}, app: "news" })`,
        ]);
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result.slice(0, 2), [{ handledBy: "crm" }, { handledBy: "chart" }]);
        assert.match(out.result[2], /ViewChart.*app.*chart.*crm/s);
        assert.deepEqual([count("chart"), count("crm")], [1, 1], "no new instance");
        // Straight to the tool (no schema check): the adapter refuses it too, and app never reaches the context.
        const view = source.tools.find((t) => t.name === "fdc3.ViewChart");
        await assert.rejects(view.execute({ ...ticker("A"), app: "news" }, {}), { name: "TypeError", message: 'ViewChart: app "news" is not one of the applications that handle it (chart, crm)' });
        session.dispose();
    });

    test("a handler that fails sends no result: the run's timeout names the tool (no resultTimeoutMs)", async () => {
        const quick = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 1500 });
        source.registerTools(quick);
        const out = await withUnhandled(() => run(quick.createSession(), `return await tools.fdc3.Fail(${JSON.stringify(ticker("F"))})`));
        assert.equal(out.ok, false);
        assert.equal(out.error.code, "TIMEOUT");
        assert.match(out.error.message, /waiting for the result of tool fdc3\.Fail/);
        quick.dispose();
    });

    test("resultTimeoutMs: a result that does not come in time fails the call naming the app; one in time is unaffected", async () => {
        const bounded = await fdc3.fromFdc3(host, { contextTypes: ["fdc3.instrument"], namespace: "bounded", resultTimeoutMs: 2000 });
        const api2 = await IoCodeModeFactory({ wasmLocation: assetPath });
        bounded.registerTools(api2);
        const out = await withUnhandled(() => eachCaught(api2.createSession(), [`tools.bounded.Fail(${JSON.stringify(ticker("F"))})`, `tools.bounded.GetPrice(${JSON.stringify(ticker("IBM"))})`]));
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result, [
            "ResultError: no result from chart within 2000 ms (result of Fail): its intent handler may have failed, which the desktop agent does not always report",
            { type: "fdc3.valuation", value: 30, CURRENCY_ISOCODE: "USD" },
        ]);
        await assert.rejects(fdc3.fromFdc3(host, { contextTypes: ["fdc3.instrument"], resultTimeoutMs: Infinity }), { name: "TypeError", message: /^fromFdc3: options\.resultTimeoutMs: expected a positive number of milliseconds/ });
        bounded.close();
        api2.dispose();
    });

    test("a result that never comes: aborting the run stops the wait", async () => {
        const session = api.createSession();
        const ctrl = new AbortController();
        waiting = undefined;
        const p = run(session, `return await tools.fdc3.Wait(${JSON.stringify(ticker("W"))})`, { signal: ctrl.signal });
        await until(() => waiting, "the chart app to get the Wait intent");
        ctrl.abort(new Error("stop waiting"));
        await assert.rejects(p, /stop waiting/);
        // The app answers late; the agent takes the answer (before the agent
        // stops, or the app's proxy times out waiting for its receipt).
        const receipts = da.sent.filter((t) => t === "intentResultResponse").length;
        waiting();
        await until(() => da.sent.filter((t) => t === "intentResultResponse").length > receipts, "the agent to take the late result");
        session.dispose();
    });

    test("broadcast reaches an app on the user channel; unjoined it is refused, nothing sent", async () => {
        await da.connect("blotter");
        const session = api.createSession();
        let out = await run(session, `try { return await tools.fdc3.broadcast(${JSON.stringify(ticker("IBM"))}); } catch (e) { return e.message; }`);
        assert.match(out.result, /^broadcast: this application is joined to no user channel/);
        await host.joinUserChannel("fdc3.channel.1");
        out = await run(session, `return await tools.fdc3.broadcast(${JSON.stringify(ticker("IBM"))})`);
        assert.deepEqual(out.result, { broadcast: "fdc3.instrument", channel: "fdc3.channel.1" });
        await until(() => received.length === 1, "the blotter to receive the context");
        assert.deepEqual(received, [ticker("IBM")]);
        await host.leaveCurrentChannel();
        session.dispose();
    });

    test("open starts an app through the agent and returns its identity", async () => {
        const out = await run(api.createSession(), `return await tools.fdc3.open({ appId: "crm" })`);
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.equal(out.result.appId, "crm");
        assert.match(out.result.instanceId, /^[0-9a-f-]{36}$/);
    });

    test("refresh() follows the agent: an app taken out of its directory takes its intents along", async () => {
        const session = api.createSession();
        const before = da.directory.allApps;
        da.directory.allApps = before.filter((a) => a.appId !== "crm");
        try {
            await source.refresh();
            assert.ok(!api.listTools().some((t) => t.name === "fdc3.StartCall"));
            assert.equal(source.tools.find((t) => t.name === "fdc3.ViewChart").description.includes("Handled by: chart."), true);
            const out = await run(session, "try { await tool_call('fdc3.StartCall', { type: 'fdc3.contact' }); } catch (e) { return e.message; }");
            assert.match(out.result, /unknown tool|not found|no tool/i);
        } finally {
            da.directory.allApps = before;
            await source.refresh();
        }
        assert.ok(api.listTools().some((t) => t.name === "fdc3.StartCall"));
        session.dispose();
    });
});
