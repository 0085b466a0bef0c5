// io.Connect and FDC3 where their users meet them: a model asks for "the CRM
// app" or "the trading blotter" (an application's name, which io.Connect's
// method names need not carry), and an FDC3 app listens for an intent its
// app directory entry does not declare (FINOS's agent then delivers it to
// no one). The bus is the real Glue42 Core gateway with @interopio/core
// clients (io-connect-bus.mjs), the FDC3 agent FINOS's reference one with
// DesktopAgentProxy apps (fdc3-desktop-agent.mjs).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, run } from "./helpers.mjs";
import { runEach, until } from "./adapter-helpers.mjs";
import { startDesktopAgent } from "./fdc3-desktop-agent.mjs";
import { loadInterop, searchNames as search } from "./io-connect-bus.mjs";

let IoCodeModeFactory, ioc, fdc3, bus;

before(async () => ({ IoCodeModeFactory, ioc, fdc3, bus } = await loadInterop()));
after(() => bus.stop());

describe("io.Connect: the model asks for an application by its name", () => {
    let host, api, source, pricingB;
    const description = (name) => api.listTools().find((t) => t.name === name)?.description;
    // Waits for a tool's description to read `want` (the adapter re-reads
    // the bus a burst after its events); else fails showing what it reads.
    const described = (name, want) => until(() => description(name) === want, `${name}'s description`).catch(() => assert.equal(description(name), want));
    before(async () => {
        host = await bus.connect("copilot");
        const crm = await bus.connect("crm-app");
        await crm.interop.register({ name: "Clients.Portfolio", displayName: "Client portfolio", description: "The positions of a client.", accepts: "String client" }, ({ client }) => ({ client, positions: [] }));
        const blotter = await bus.connect("trading-blotter");
        await blotter.interop.register({ name: "Orders.Search", displayName: "Search orders", description: "Orders of a client.", accepts: "String client, Int? limit" }, () => ({ orders: [] }));
        // No period of its own: the sentence after it still starts a sentence.
        await blotter.interop.register({ name: "Orders.Cancel", description: "Cancel an order", accepts: "String id" }, () => ({}));
        for (const app of ["pricing-a", "pricing-b"]) {
            const io = await bus.connect(app);
            await io.interop.register({ name: "Quotes.Get", description: "Last price of an instrument.", accepts: "String ticker" }, ({ ticker }) => ({ ticker, app }));
            if (app === "pricing-b") pricingB = io;
        }
        // The host serves a method too: it is never its own tool's server, nor named.
        await host.interop.register({ name: "Clients.Portfolio", description: "The host's own." }, () => ({}));
        api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 4000 });
        source = ioc.fromIoConnect(host);
        source.registerTools(api);
        const tools = ["interop.Clients.Portfolio", "interop.Orders.Search", "interop.Orders.Cancel", "interop.Quotes.Get"];
        await until(() => tools.every((n) => description(n)), "the tools of the four applications");
    });
    after(() => {
        source.close();
        api.dispose();
    });

    test("a search by the serving application's name finds its methods; the description's own text stays first", async () => {
        const session = api.createSession();
        await described("interop.Clients.Portfolio", "Client portfolio: The positions of a client. Served by crm-app.");
        await described("interop.Orders.Search", "Search orders: Orders of a client. Served by trading-blotter.");
        await described("interop.Orders.Cancel", "Cancel an order. Served by trading-blotter.");
        assert.equal((await search(session, "ask the CRM app for the client's portfolio"))[0], "interop.Clients.Portfolio");
        assert.deepEqual((await search(session, "what can the trading blotter do")).slice(0, 2).sort(), ["interop.Orders.Cancel", "interop.Orders.Search"]);
        assert.deepEqual((await search(session, "trading-blotter")).slice(0, 2).sort(), ["interop.Orders.Cancel", "interop.Orders.Search"]);
        // What the method says of itself still finds it first.
        assert.equal((await search(session, "positions of a client"))[0], "interop.Clients.Portfolio");
        assert.equal((await search(session, "search orders"))[0], "interop.Orders.Search");
        session.dispose();
    });

    test("a method two applications serve: both named, sorted; either name finds it; one leaves, the other stays named", async () => {
        const session = api.createSession();
        await described("interop.Quotes.Get", "Last price of an instrument. Served by pricing-a, pricing-b.");
        assert.equal((await search(session, "pricing-b"))[0], "interop.Quotes.Get");
        assert.equal((await search(session, "pricing-a"))[0], "interop.Quotes.Get");
        await pricingB.done();
        await described("interop.Quotes.Get", "Last price of an instrument. Served by pricing-a.");
        const out = await run(session, "return await tools.interop.Quotes.Get({ ticker: 'IBM' })");
        assert.deepEqual(out.result, { ticker: "IBM", app: "pricing-a" }, JSON.stringify(out));
        session.dispose();
    });

    test("a method five applications serve: the first three named, sorted, and how many more", async () => {
        for (const app of ["desk-e", "desk-c", "desk-a", "desk-d", "desk-b"]) {
            const io = await bus.connect(app);
            await io.interop.register({ name: "Desk.Ping", description: "Is the desk up?" }, () => ({ app }));
        }
        await described("interop.Desk.Ping", "Is the desk up? Served by desk-a, desk-b, desk-c and 2 more.");
    });
});

const appD = (appId, listensFor) => ({ appId, title: appId, type: "web", details: { url: `https://apps.test/${appId}` }, interop: { intents: { listensFor } } });
const ticker = (t) => ({ type: "fdc3.instrument", id: { ticker: t } });

// FDC3 2.2 apps declare their intents in the app directory. FINOS's agent
// delivers none to a listener whose app's entry does not declare the
// intent (raiseIntent: NoAppsFound), while its findIntent names the
// listening instance: the call says who listens and what to declare.
describe("FDC3: an intent an app listens for but its app directory entry does not declare", () => {
    let da, host, api;
    before(async () => {
        da = await startDesktopAgent({
            directory: [
                appD("chart", { ViewChart: { contexts: ["fdc3.instrument"] }, Digest: { contexts: ["fdc3.contact"] } }),
                appD("news", { Headlines: { contexts: ["fdc3.instrument"] } }),
                appD("copilot", {}),
            ],
            intentTimeoutMs: 1500,
            mains: {
                chart: async (agent) => {
                    await agent.addIntentListener("ViewChart", async () => undefined);
                    // Declared, but for contacts only.
                    await agent.addIntentListener("Digest", async (ctx) => ({ type: "fdc3.digest", of: ctx.id.ticker }));
                    // Not declared at all.
                    await agent.addIntentListener("Summarize", async (ctx) => ({ type: "fdc3.summary", of: ctx.id.ticker }));
                },
            },
        });
        host = (await da.connect("copilot")).fdc3;
        await da.connect("chart");
        api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 8000 });
    });
    after(async () => {
        api.dispose();
        await da.stop();
    });

    const caught = (source, calls) => runEach(api, source, calls, (name, input) => `try { return await tool_call(${name}, ${input}); } catch (e) { return e.message; }`);

    test("a listed intent only a running app listens for: the model is told which app listens and what the app directory lacks", async () => {
        const errors = [];
        const source = await fdc3.fromFdc3(host, { intents: ["Summarize", { name: "Digest", contextTypes: ["fdc3.instrument"] }], onError: (e) => errors.push(e.message) });
        const [summarize, digest] = await caught(source, [["fdc3.Summarize", ticker("IBM")], ["fdc3.Digest", ticker("IBM")]]);
        assert.equal(summarize, "ResolveError: NoAppsFound: no application can handle this intent with this context (raiseIntent Summarize with fdc3.instrument; listening but not declared for fdc3.instrument in the app directory (interop.intents.listensFor), so not delivered: chart)");
        assert.equal(digest, "ResolveError: NoAppsFound: no application can handle this intent with this context (raiseIntent Digest with fdc3.instrument; listening but not declared for fdc3.instrument in the app directory (interop.intents.listensFor), so not delivered: chart)");
        assert.deepEqual(errors, []);
    });

    test("with contextTypes too, the listed intent no app declares is still a tool, and its call says the same", async () => {
        const source = await fdc3.fromFdc3(host, { contextTypes: ["fdc3.instrument"], intents: ["Summarize", "ViewChart"] });
        assert.deepEqual(source.tools.map((t) => t.name), ["fdc3.Summarize", "fdc3.ViewChart"]);
        const [summarize, view] = await caught(source, [["fdc3.Summarize", ticker("IBM")], ["fdc3.ViewChart", ticker("IBM")]]);
        assert.match(summarize, /; listening but not declared for fdc3\.instrument in the app directory \(interop\.intents\.listensFor\), so not delivered: chart\)$/);
        assert.deepEqual(view, { handledBy: "chart" });
    });

    // The listeners are asked of findIntent after the agent's NoAppsFound:
    // an agent whose findIntent fails or never answers still gets its
    // error to the program (FDC3's own words), findIntent being given a
    // bounded while (1 s), not the run's.
    test("findIntent throwing, answering no list, or never settling: the call still fails with FDC3's NoAppsFound as it was", async () => {
        const plain = "ResolveError: NoAppsFound: no application can handle this intent with this context (raiseIntent Summarize with fdc3.instrument)";
        for (const findIntent of [() => { throw new Error("findIntent broke"); }, async () => ({ apps: 7 }), () => new Promise(() => {})]) {
            const agent = { getInfo: () => host.getInfo(), findIntentsByContext: (c) => host.findIntentsByContext(c), raiseIntent: (...a) => host.raiseIntent(...a), findIntent };
            const source = await fdc3.fromFdc3(agent, { intents: ["Summarize"] });
            assert.deepEqual(await caught(source, [["fdc3.Summarize", ticker("IBM")]]), [plain]);
        }
    });

    test("an intent no app listens for, nor declares: FDC3's NoAppsFound as it was, naming no app", async () => {
        const source = await fdc3.fromFdc3(host, { intents: ["Nobody"] });
        const [nobody] = await caught(source, [["fdc3.Nobody", ticker("IBM")]]);
        assert.equal(nobody, "ResolveError: NoAppsFound: no application can handle this intent with this context (raiseIntent Nobody with fdc3.instrument)");
    });
});
