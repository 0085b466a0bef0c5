// io.Connect and FDC3 where their users meet them (session 45): the FDC3
// adapter's own timers under a test's fake timers installed before its
// import, as the other adapters' are; an intent whose handler answers with
// a channel (FDC3 2.x's IntentResult) on FINOS's reference agent.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { assetPath, dist, inChild, loadFactory } from "./helpers.mjs";
import { loadAdapter, runEach } from "./adapter-helpers.mjs";
import { startDesktopAgent } from "./fdc3-desktop-agent.mjs";

// sinon's fake timers (jest's, vitest's useFakeTimers()) installed before
// the adapter is imported, in a process of its own. The agent answers at
// once or never: findIntent never settles (the adapter bounds it by 1 s),
// a handler never sends its result (resultTimeoutMs bounds it). Each call
// must end by the real clock, with the fake one never moved and no timer
// of the adapter's left on it, nor a real one left pending after the call.
test("fromFdc3 under sinon's fake timers installed before its import: the findIntent bound and resultTimeoutMs run on real time; no timer is left", () => {
    const fdc3URL = pathToFileURL(join(dist, "fdc3.mjs")).href;
    const r = inChild(`
        const FakeTimers = (await import("@sinonjs/fake-timers")).default;
        const clock = FakeTimers.install({ toFake: Object.keys(FakeTimers.timers).filter((k) => k !== "nextTick" && k !== "queueMicrotask") });
        const start = clock.now;
        const warned = [];
        console.warn = (...a) => warned.push(a.join(" "));
        const { fromFdc3 } = await import(${JSON.stringify(fdc3URL)});
        const never = () => new Promise(() => {});
        let answer = never;
        const raised = [];
        const agent = {
            getInfo: async () => ({ appMetadata: { appId: "copilot" } }),
            findIntentsByContext: async () => [{ intent: { name: "ViewChart" }, apps: [{ appId: "chart" }, { appId: "crm" }] }],
            findIntent: (...a) => answer(...a),
            raiseIntent: async (name, context, app) => {
                raised.push(app ?? null);
                if (name === "Summarize") throw new Error("NoAppsFound");
                return { source: { appId: app?.appId ?? "chart" }, getResult: name === "Slow" ? never : async () => ({ type: "fdc3.chart" }) };
            },
        };
        const source = await fromFdc3(agent, { contextTypes: ["fdc3.instrument"], intents: ["Summarize", "ViewChart", "Slow"], resultTimeoutMs: 300 });
        const tool = (n) => source.tools.find((t) => t.name === "fdc3." + n);
        const ctx = { type: "fdc3.instrument", id: { ticker: "IBM" } };
        const settle = (p) => {
            let guard;
            return Promise.race([
                Promise.resolve(p).then((v) => ({ ok: v }), (e) => ({ err: e.message })),
                new Promise((r) => (guard = clock._setTimeout(() => r({ hung: true }), 20000))),
            ]).finally(() => clock._clearTimeout(guard));
        };
        const timers = () => process.getActiveResourcesInfo().filter((x) => x === "Timeout").length;
        const out = {};
        out.summarize = await settle(tool("Summarize").execute(ctx, {}));
        out.chosen = await settle(tool("ViewChart").execute({ ...ctx, app: "crm" }, {}));
        out.slow = await settle(tool("Slow").execute(ctx, {}));
        // findIntent answering at once: the 1 s bound is cleared with the call.
        answer = async () => ({ apps: [{ appId: "crm", instanceId: "crm-1" }] });
        out.found = await settle(tool("ViewChart").execute({ ...ctx, app: "crm" }, {}));
        out.pending = timers();
        out.raised = raised;
        out.moved = clock.now - start;
        out.fake = clock.countTimers();
        out.warned = warned;
        source.close();
        clock.uninstall();
        process.stdout.write(JSON.stringify(out));
        process.exit(0);`);
    assert.deepEqual(r.summarize, { err: "ResolveError: NoAppsFound: no application can handle this intent with this context (raiseIntent Summarize with fdc3.instrument)" }, "a findIntent that never answers, asked after NoAppsFound");
    assert.deepEqual(r.chosen, { ok: { type: "fdc3.chart" } }, "a chosen app's call while findIntent never answers: raised to the appId after the bound");
    assert.deepEqual(r.slow, { err: "ResultError: no result from chart within 300 ms (result of Slow): its intent handler may have failed, which the desktop agent does not always report" });
    assert.deepEqual(r.found, { ok: { type: "fdc3.chart" } });
    assert.deepEqual(r.raised, [null, { appId: "crm" }, null, { appId: "crm", instanceId: "crm-1" }]);
    assert.equal(r.pending, 0, "a real timer of the adapter's is left pending after its calls ended");
    assert.equal(r.moved, 0, "the fake clock moved");
    assert.equal(r.fake, 0, "a timer of the adapter's is on the fake clock");
    assert.deepEqual(r.warned, []);
});

const appD = (appId, listensFor) => ({ appId, title: appId, type: "web", details: { url: `https://apps.test/${appId}` }, interop: { intents: { listensFor } } });
const ibm = { type: "fdc3.instrument", id: { ticker: "IBM" } };

// The intent was handled when its handler answers with a channel (a chat
// started, a price stream opened): the program gets that as data, not an
// error that invites raising it again.
describe("FDC3: an intent answered with a channel", () => {
    let da, host, api, fdc3;
    before(async () => {
        const [IoCodeModeFactory, adapter] = await Promise.all([loadFactory(), loadAdapter("fdc3")]);
        fdc3 = adapter;
        da = await startDesktopAgent({
            directory: [
                appD("oms", { GetPrices: { contexts: ["fdc3.instrument"], resultType: "channel<fdc3.valuation>" } }),
                appD("chat", { StartChat: { contexts: ["fdc3.contact"], resultType: "channel" } }),
                appD("copilot", {}),
            ],
            intentTimeoutMs: 1500,
            mains: {
                oms: async (agent) => {
                    await agent.addIntentListener("GetPrices", async (ctx) => {
                        const channel = await agent.getOrCreateChannel(`prices-${ctx.id.ticker}`);
                        await channel.broadcast({ type: "fdc3.valuation", value: 101.5, CURRENCY_ISOCODE: "USD" });
                        return channel;
                    });
                },
                chat: async (agent) => {
                    await agent.addIntentListener("StartChat", async () => agent.createPrivateChannel());
                },
            },
        });
        host = (await da.connect("copilot")).fdc3;
        await da.connect("oms");
        await da.connect("chat");
        api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 8000 });
    });
    after(async () => {
        api.dispose();
        await da.stop();
    });

    // Each call's result, and what the program can call of its channel (nothing).
    const results = async (agent, calls) =>
        runEach(api, await fdc3.fromFdc3(agent, { contextTypes: ["fdc3.instrument", "fdc3.contact"] }), calls, (name, input) => `const x = await tool_call(${name}, ${input}); return [x, typeof x.channel?.broadcast, typeof x.channel?.addContextListener];`);

    test("an app channel: its id, type and current context; a new private channel: context null; plain data, no error", async () => {
        const chat = { type: "fdc3.contact", id: { email: "ann@example.com" } };
        const [prices, started] = await results(host, [["fdc3.GetPrices", ibm], ["fdc3.StartChat", chat]]);
        assert.deepEqual(prices, [{ handledBy: "oms", channel: { id: "prices-IBM", type: "app" }, context: { type: "fdc3.valuation", value: 101.5, CURRENCY_ISOCODE: "USD" } }, "undefined", "undefined"]);
        assert.equal(started[0].handledBy, "chat");
        assert.deepEqual(Object.keys(started[0]).sort(), ["channel", "context", "handledBy"]);
        assert.equal(started[0].channel.type, "private");
        assert.match(started[0].channel.id, /^[0-9a-f-]{36}$/);
        assert.equal(started[0].context, null);
        // Raised once each: the calls did not fail, so nothing would raise them again.
        assert.deepEqual(da.launched.map((a) => a.appId).sort(), ["chat", "copilot", "oms"]);
    });

    // The channel's getCurrentContext rejecting or never answering (an
    // agent's): the call still resolves, with context null, after at most
    // 1 s; the adapter only reads the channel (no listener added, nothing
    // broadcast).
    test("getCurrentContext rejecting or never answering: context null, within the 1 s bound; no listener added, nothing broadcast", async () => {
        const touched = [];
        const channelOf = (getCurrentContext) => ({
            id: "prices-X",
            type: "app",
            getCurrentContext,
            broadcast: async () => touched.push("broadcast"),
            addContextListener: async () => (touched.push("addContextListener"), { unsubscribe: async () => {} }),
        });
        for (const getCurrentContext of [async () => Promise.reject(new Error("AccessDenied")), () => { throw new Error("sync"); }, () => new Promise(() => {})]) {
            const agent = {
                getInfo: () => host.getInfo(),
                findIntentsByContext: (c) => host.findIntentsByContext(c),
                findIntent: (...a) => host.findIntent(...a),
                raiseIntent: async (...a) => ({ ...(await host.raiseIntent(...a)), getResult: async () => channelOf(getCurrentContext) }),
            };
            const [prices] = await results(agent, [["fdc3.GetPrices", ibm]]);
            assert.deepEqual(prices, [{ handledBy: "oms", channel: { id: "prices-X", type: "app" }, context: null }, "undefined", "undefined"]);
        }
        assert.deepEqual(touched, []);
    });
});
