// io.Connect and FDC3 desktops as their users run them: methods that come
// and go as applications start and close, many applications, odd names and
// signatures, results JSON cannot hold, calls cut short; FDC3 intents raised
// before a listener, several handlers, wrong contexts, channels. Written from
// USAGE's promises before reading the adapters' code. The bus is the real
// Glue42 Core gateway with @interopio/core clients (as in
// adapters-io-connect-gateway), the FDC3 agent FINOS's reference one with
// DesktopAgentProxy apps (fdc3-desktop-agent.mjs).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, run, watchUncaught, within } from "./helpers.mjs";
import { eachCaught, until } from "./adapter-helpers.mjs";
import { startDesktopAgent } from "./fdc3-desktop-agent.mjs";
import { loadInterop, searchNames as search } from "./io-connect-bus.mjs";

let IoCodeModeFactory, ioc, fdc3, bus;
const connect = (application) => bus.connect(application);
const names = (api) => api.listTools().map((t) => t.name);

before(async () => ({ IoCodeModeFactory, ioc, fdc3, bus } = await loadInterop()));
after(() => bus.stop());

describe("io.Connect: a desktop whose applications come and go", () => {
    let host, api, source, errors;
    before(async () => {
        host = await connect("copilot");
        errors = [];
        api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 4000 });
        source = ioc.fromIoConnect(host, { onError: (e) => errors.push(e.message) });
        source.registerTools(api);
    });
    after(() => {
        source.close();
        api.dispose();
    });

    test("a method a second application registers after the factory started: the model finds it by search and calls it", async (t) => {
        const session = api.createSession();
        const late = await connect("late-app");
        const t0 = performance.now();
        await late.interop.register({ name: "Late.Positions.Get", description: "Open positions of a trading book.", accepts: "String book" }, ({ book }) => ({ book, positions: 3 }));
        await until(() => names(api).includes("interop.Late.Positions.Get"), "the late method as a tool");
        t.diagnostic(`listed ${Math.round(performance.now() - t0)} ms after register() resolved`);
        assert.ok((await search(session, "positions of a trading book")).includes("interop.Late.Positions.Get"));
        assert.match(session.getSystemInstruction(), /Late\.Positions\.Get/);
        const out = await run(session, "return await tools.interop.Late.Positions.Get({ book: 'b7' })");
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result, { book: "b7", positions: 3 });
        session.dispose();
        await late.done();
        await until(() => !names(api).includes("interop.Late.Positions.Get"), "the late method gone");
    });

    // Its own host and factory: after a method is unregistered while one of
    // its invocations is on its way, this gateway (@glue42/gateway-web)
    // announces no method to the caller nor to the server again (neither
    // sees a method registered later; other clients do): the bus's, not
    // the adapter's (io.interop.methods() of the host stays empty).
    test("a method unregistered while a run calls it: the run ends before its timeout with the answer or an error naming the method", async () => {
        const [caller, app] = [await connect("going-caller"), await connect("going-app")];
        const own = ioc.fromIoConnect(caller);
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 4000 });
        own.registerTools(api);
        let started, finish;
        await app.interop.register({ name: "Going.Work" }, () => new Promise((resolve) => ((started = true), (finish = resolve))));
        await until(() => names(api).includes("interop.Going.Work"), "Going.Work");
        const session = api.createSession();
        const p = within(run(session, "try { return await tools.interop.Going.Work({}); } catch (e) { return 'error: ' + e.message; }"), 8000);
        await until(() => started, "the call to reach going-app");
        await app.interop.unregister("Going.Work");
        finish({ done: true });
        const out = await p;
        assert.notEqual(out, "hung");
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.ok(JSON.stringify(out.result) === JSON.stringify({ done: true }) || /^error: Going\.Work: /.test(out.result), JSON.stringify(out.result));
        session.dispose();
        await until(() => !names(api).includes("interop.Going.Work"), "Going.Work gone");
        own.close();
        api.dispose();
        await app.done();
        await caller.done();
    });

    test("the serving application closes mid-call (no methodResponseTimeoutMs): the call fails at once with the bus's words, not at the run's timeout", async () => {
        const app = await connect("closing-app");
        let started;
        await app.interop.register({ name: "Closing.Hang" }, () => new Promise(() => (started = true)));
        await until(() => names(api).includes("interop.Closing.Hang"), "Closing.Hang");
        const session = api.createSession();
        const p = run(session, "try { return await tools.interop.Closing.Hang({}); } catch (e) { return e.message; }");
        await until(() => started, "the call to reach closing-app");
        await app.done();
        const out = await within(p, 3500);
        assert.notEqual(out, "hung", "the call waited for the run's timeout");
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.match(out.result, /^Closing\.Hang: .*(left|gone|disconnect)/i);
        session.dispose();
    });

    test("two applications serve one method: one answers by default; the host chooses the application with a target function", async () => {
        const [a, b] = [await connect("rates-primary"), await connect("rates-backup")];
        await a.interop.register({ name: "Rates.Get" }, () => ({ from: "primary" }));
        await b.interop.register({ name: "Rates.Get" }, () => ({ from: "backup" }));
        await until(() => names(api).includes("interop.Rates.Get") && host.interop.methods().find((m) => m.name === "Rates.Get")?.getServers().length === 2, "Rates.Get from both");
        assert.equal(names(api).filter((n) => n.startsWith("interop.Rates.Get")).length, 1, "one tool");
        const session = api.createSession();
        const out = await run(session, "return await tools.interop.Rates.Get({})");
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.ok(["primary", "backup"].includes(out.result.from));
        // The host's choice: a target per method, io.Connect's instance filter.
        const chosen = ioc.fromIoConnect(host, { namespace: "chosen", target: (m) => (m.name === "Rates.Get" ? { application: "rates-backup" } : "best") });
        const api2 = await IoCodeModeFactory({ wasmLocation: assetPath });
        chosen.registerTools(api2);
        await until(() => names(api2).includes("chosen.Rates.Get"), "chosen.Rates.Get");
        const two = await run(api2.createSession(), "const r = []; for (let i = 0; i < 4; i++) r.push((await tools.chosen.Rates.Get({})).from); return r;");
        assert.equal(two.ok, true, JSON.stringify(two));
        assert.deepEqual(two.result, ["backup", "backup", "backup", "backup"]);
        chosen.close();
        api2.dispose();
        session.dispose();
        await a.done();
        await b.done();
    });

    // Registered one after the other, each an event: the adapter re-read
    // every method at each (a microtask apart), 16 s for what the bus does in 2.
    test("500 methods from 20 applications, registered one after the other: all become tools about as fast as the bus lists them", async (t) => {
        const apps = ["blotter", "pricer", "risk", "compliance", "research", "crm", "chat", "news", "settlement", "treasury", "fx", "rates", "credit", "equities", "commodities", "margin", "collateral", "onboarding", "reporting", "audit"];
        const words = ["List", "Get", "Create", "Update", "Delete", "Export", "Import", "Approve", "Reject", "Summarize", "Count", "Find", "Archive", "Restore", "Assign", "Close", "Open", "Price", "Notify", "Sync", "Validate", "Tag", "Merge", "Split", "Refresh"];
        const ios = [];
        for (const app of apps) ios.push(await connect(`${app}-app`));
        const t0 = performance.now();
        // One register() after the other, as an application's start does (25
        // register() calls of one client at once never settled on this bus).
        for (const [a, io] of ios.entries()) for (const [i, w] of words.entries()) await io.interop.register({ name: `Desk${a}.Svc${i}.${w}` }, () => ({ app: apps[a], w }));
        const t1 = performance.now();
        await until(() => names(api).filter((n) => n.startsWith("interop.Desk")).length === 500, "500 tools");
        t.diagnostic(`register 500: ${Math.round(t1 - t0)} ms; listed ${Math.round(performance.now() - t1)} ms later`);
        const session = api.createSession();
        assert.ok((await search(session, "Desk9 Svc0 List")).includes("interop.Desk9.Svc0.List"));
        const out = await run(session, "return await tools.interop.Desk9.Svc0.List({})");
        assert.deepEqual(out.result, { app: "treasury", w: "List" });
        session.dispose();
        for (const io of ios) await io.done();
        await until(() => !names(api).some((n) => n.startsWith("interop.Desk")), "the 500 gone with their applications");
    });

    test("method names with slashes, spaces, unicode and stray dots: each a tool the program can call, reaching the method of that name", async () => {
        const app = await connect("odd-names");
        const odd = ["Orders/Search", "Get Price", "Prix.Récupérer", "注文.検索", "a..b", ".Lead", "Trail.", "Dash-Case.get-it", "x/y z.w"];
        for (const name of odd) await app.interop.register({ name }, () => ({ name }));
        await until(() => source.tools.filter((t) => odd.includes(t.annotations?.interopMethod)).length + errors.length >= odd.length, "odd names listed or reported");
        const byMethod = new Map(source.tools.filter((t) => odd.includes(t.annotations.interopMethod)).map((t) => [t.annotations.interopMethod, t.name]));
        assert.deepEqual([...byMethod.keys()].sort(), [...odd].sort(), `tools: ${JSON.stringify([...byMethod])}; errors: ${JSON.stringify(errors)}`);
        const session = api.createSession();
        const out = await eachCaught(
            session,
            odd.map((m) => `tool_call(${JSON.stringify(byMethod.get(m))}, {})`),
        );
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result, odd.map((name) => ({ name })));
        session.dispose();
        await app.done();
    });

    test("no signature, or one io.Connect's syntax does not allow: the tool takes any object, and onError names the method and the field", async () => {
        const app = await connect("sig-app");
        errors.length = 0;
        await app.interop.register({ name: "Sig.None" }, (args) => ({ got: args }));
        await app.interop.register({ name: "Sig.BadAccepts", accepts: "String a,, Int b" }, (args) => ({ got: args }));
        await app.interop.register({ name: "Sig.BadReturns", accepts: "String a", returns: "Composite: { String x" }, (args) => ({ got: args }));
        await app.interop.register({ name: "Sig.Unknown", accepts: "Money amount" }, (args) => ({ got: args }));
        await until(() => ["Sig.None", "Sig.BadAccepts", "Sig.BadReturns", "Sig.Unknown"].every((m) => names(api).includes(`interop.${m}`)), "the Sig methods");
        const schema = (m) => source.tools.find((t) => t.name === `interop.${m}`).inputSchema;
        assert.deepEqual(schema("Sig.None"), { type: "object" });
        assert.deepEqual(schema("Sig.BadAccepts"), { type: "object" });
        assert.deepEqual(schema("Sig.BadReturns").properties, { a: { type: "string" } });
        // Each reported once, however many applications start meanwhile (it was told at every re-read of the methods).
        const other = await connect("sig-other");
        for (let i = 0; i < 3; i++) await other.interop.register({ name: `Sig.Other${i}` }, () => ({}));
        await until(() => names(api).includes("interop.Sig.Other2"), "the other methods");
        assert.deepEqual(errors, [
            'io.Connect method Sig.BadAccepts: accepts "String a,, Int b": expected a type at offset 11; taking any object',
            'io.Connect method Sig.BadReturns: returns "Composite: { String x": expected "}" at the end; taking any object',
        ]);
        // A type io.Connect's signatures do not name is no error: its field takes any value, described.
        assert.deepEqual(schema("Sig.Unknown"), { type: "object", properties: { amount: { description: "io.Connect type Money" } }, required: ["amount"] });
        const session = api.createSession();
        const out = await eachCaught(session, ["tools.interop.Sig.None({ any: 1 })", "tools.interop.Sig.BadAccepts({ a: 'x', b: 2 })", "tools.interop.Sig.BadReturns({ a: 'y' })"]);
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result, [{ got: { any: 1 } }, { got: { a: "x", b: 2 } }, { got: { a: "y" } }]);
        session.dispose();
        await app.done();
        await other.done();
    });

    test("results JSON cannot hold (Date, Map, a cycle) and a 4 MB one: the program gets a value or an error naming the method, and the page lives", async (t) => {
        const uncaught = watchUncaught(t);
        const app = await connect("odd-results");
        const cyclic = { a: 1 };
        cyclic.self = cyclic;
        await app.interop.register({ name: "Res.Date" }, () => ({ at: new Date(Date.UTC(2026, 11, 7)) }));
        await app.interop.register({ name: "Res.Map" }, () => ({ m: new Map([["k", 1]]) }));
        await app.interop.register({ name: "Res.Cycle" }, () => cyclic);
        await app.interop.register({ name: "Res.Huge" }, () => ({ text: "x".repeat(4 << 20) }));
        await until(() => ["Res.Date", "Res.Map", "Res.Cycle", "Res.Huge"].every((m) => names(api).includes(`interop.${m}`)), "the Res methods");
        const session = api.createSession();
        const out = await eachCaught(session, ["tools.interop.Res.Date({})", "tools.interop.Res.Map({})", "tools.interop.Res.Cycle({})", "tools.interop.Res.Huge({}).then((r) => r.text.length)"]);
        assert.equal(out.ok, true, JSON.stringify(out).slice(0, 500));
        const [date, map, cycle, huge] = out.result;
        assert.ok(date.at === "2026-12-07T00:00:00.000Z" || (typeof date === "string" && /Res\.Date/.test(date)), JSON.stringify(date));
        assert.ok(typeof map === "object" || /Res\.Map/.test(map), JSON.stringify(map));
        assert.ok((typeof cycle === "object" && cycle.a === 1) || /Res\.Cycle/.test(cycle), JSON.stringify(cycle));
        assert.equal(huge, 4 << 20);
        assert.deepEqual(uncaught, []);
        session.dispose();
        await app.done();
    });

    test("a long call cut by the run's timeout: the run ends TIMEOUT naming the tool; the late answer later harms nothing", async (t) => {
        const uncaught = watchUncaught(t);
        const app = await connect("slow-app");
        let started, finish;
        await app.interop.register({ name: "Slow.Report" }, () => new Promise((resolve) => ((started = true), (finish = resolve))));
        await until(() => names(api).includes("interop.Slow.Report"), "Slow.Report");
        const quick = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 800 });
        source.registerTools(quick);
        const out = await within(run(quick.createSession(), "return await tools.interop.Slow.Report({})"), 6000);
        assert.notEqual(out, "hung");
        assert.equal(out.error?.code, "TIMEOUT", JSON.stringify(out));
        assert.match(out.error.message, /interop\.Slow\.Report/);
        assert.ok(started);
        finish({ late: true });
        const next = await run(quick.createSession(), "return 1");
        assert.equal(next.result, 1);
        assert.deepEqual(uncaught, []);
        quick.dispose();
        await app.done();
    });
});

const INSTRUMENT = { type: "object", properties: { type: { const: "fdc3.instrument" }, id: { type: "object", properties: { ticker: { type: "string" } }, required: ["ticker"] } }, required: ["type", "id"] };
const appD = (appId, listensFor) => ({ appId, title: appId, type: "web", details: { url: `https://apps.test/${appId}` }, interop: { intents: { listensFor } } });
const ticker = (t) => ({ type: "fdc3.instrument", id: { ticker: t } });

describe("FDC3: intents as a desktop's users raise them", () => {
    let da, host, api, source;
    before(async () => {
        da = await startDesktopAgent({
            directory: [
                // Adds its listener a while after it starts (a slow app's load).
                appD("slowstart", { Analyze: { contexts: ["fdc3.instrument"] } }),
                // Adds its listener only after the agent stopped waiting.
                appD("toolate", { Research: { contexts: ["fdc3.instrument"] } }),
                appD("chart", { ViewChart: { contexts: ["fdc3.instrument"] }, Quote: { contexts: ["fdc3.instrument"], resultType: "fdc3.valuation" } }),
                appD("chart2", { ViewChart: { contexts: ["fdc3.instrument"] } }),
                appD("chart3", { ViewChart: { contexts: ["fdc3.instrument"] } }),
                appD("chat", { StartChat: { contexts: ["fdc3.contact"], resultType: "channel" } }),
                appD("copilot", {}),
            ],
            intentTimeoutMs: 1500,
            mains: {
                slowstart: async (agent) => {
                    await new Promise((r) => setTimeout(r, 300));
                    await agent.addIntentListener("Analyze", async (ctx) => ({ type: "fdc3.analysis", of: ctx.id.ticker }));
                },
                toolate: async (agent) => {
                    // Past the agent's 1.5 s; the proxy's own wait for the agent's
                    // answer may end after the agent stopped (ApiTimeout): caught.
                    setTimeout(() => Promise.resolve().then(() => agent.addIntentListener("Research", async () => ({ type: "fdc3.research" }))).catch(() => {}), 2500);
                },
                chart: async (agent) => {
                    await agent.addIntentListener("ViewChart", async () => undefined);
                    await agent.addIntentListener("Quote", async (ctx) => ({ type: "fdc3.valuation", value: ctx.id.ticker.length }));
                },
                chart2: async (agent) => void (await agent.addIntentListener("ViewChart", async () => undefined)),
                chart3: async (agent) => void (await agent.addIntentListener("ViewChart", async () => undefined)),
                chat: async (agent) => {
                    await agent.addIntentListener("StartChat", async () => agent.createPrivateChannel());
                },
            },
        });
        host = (await da.connect("copilot")).fdc3;
        api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 8000 });
        source = await fdc3.fromFdc3(host, { contextTypes: ["fdc3.instrument", "fdc3.contact"], broadcast: true });
        source.registerTools(api);
    });
    after(async () => {
        source.close();
        api.dispose();
        await da.stop();
    });

    test("an intent whose app adds its listener some time after it starts: the agent waits for it, the call gets the result", async () => {
        const out = await run(api.createSession(), `return await tools.fdc3.Analyze(${JSON.stringify(ticker("AAPL"))})`);
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result, { type: "fdc3.analysis", of: "AAPL" });
    });

    test("an intent whose app adds its listener after the agent stopped waiting: a clear error that says what happened and what to do", async () => {
        const out = await run(api.createSession(), `try { return await tools.fdc3.Research(${JSON.stringify(ticker("AAPL"))}); } catch (e) { return e.message; }`);
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.match(out.result, /^ResolveError: IntentDeliveryFailed: the intent could not be delivered: its application did not listen for it in time, or failed \(one still starting may take a later call\) \(raiseIntent Research with fdc3\.instrument\)$/);
    });

    // FDC3 2.2 apps declare their intents in the app directory. FINOS's
    // agent neither lists an undeclared listener (findIntentsByContext) nor
    // raises to it (raiseIntent: NoAppsFound; only findIntent names it): no
    // tool, before refresh() or after, and the model is told so by name.
    test("an intent a running app listens for that its directory entry does not declare: no tool, and the model's call says which tools there are", async () => {
        const extra = await da.connect("chart");
        await extra.fdc3.addIntentListener("Summarize", async (ctx) => ({ type: "fdc3.summary", of: ctx.id.ticker }));
        await source.refresh();
        const session = api.createSession();
        const out = await run(session, `try { return await tool_call("fdc3.Summarize", ${JSON.stringify(ticker("IBM"))}); } catch (e) { return e.message; }`);
        assert.match(out.result, /^unknown tool "fdc3\.Summarize"; did you mean fdc3\./);
        await assert.rejects(host.raiseIntent("Summarize", ticker("IBM")), /NoAppsFound/);
        session.dispose();
    });

    test("an intent three apps handle: the program names one; without, the error names all three", async () => {
        const session = api.createSession();
        const out = await eachCaught(session, [`tools.fdc3.ViewChart(${JSON.stringify(ticker("A"))})`, `tools.fdc3.ViewChart({ ...${JSON.stringify(ticker("A"))}, app: "chart3" })`]);
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.match(out.result[0], /choose one with app \(chart, chart2, chart3\)/);
        assert.deepEqual(out.result[1], { handledBy: "chart3" });
        session.dispose();
    });

    test("a context of the wrong type is refused before the agent, naming the type the intent takes", async () => {
        const session = api.createSession();
        const out = await eachCaught(session, [`tools.fdc3.Quote({ type: "fdc3.contact", id: { email: "a@b.c" } })`, `tools.fdc3.Quote({ id: { ticker: "A" } })`, `tools.fdc3.Quote("AAPL")`]);
        assert.equal(out.ok, true, JSON.stringify(out));
        for (const m of out.result) assert.match(String(m), /fdc3\.instrument|type/, JSON.stringify(out.result));
        assert.ok(out.result.every((m) => typeof m === "string"), JSON.stringify(out.result));
        session.dispose();
    });

    test("broadcast as a tool: a context without type is refused naming type; joined, it reaches the channel", async () => {
        const session = api.createSession();
        await host.joinUserChannel("fdc3.channel.2");
        try {
            const out = await eachCaught(session, [`tools.fdc3.broadcast({ id: { ticker: "A" } })`, `tools.fdc3.broadcast(${JSON.stringify(ticker("MSFT"))})`]);
            assert.equal(out.ok, true, JSON.stringify(out));
            assert.match(out.result[0], /type/);
            assert.deepEqual(out.result[1], { broadcast: "fdc3.instrument", channel: "fdc3.channel.2" });
        } finally {
            await host.leaveCurrentChannel();
        }
        session.dispose();
    });

    test("an intent whose result is a channel, and one whose result is void: clear answers, no hang", async () => {
        const session = api.createSession();
        const out = await within(eachCaught(session, [`tools.fdc3.StartChat({ type: "fdc3.contact", id: { email: "a@b.c" } })`, `tools.fdc3.ViewChart({ ...${JSON.stringify(ticker("A"))}, app: "chart" })`]), 7000);
        assert.notEqual(out, "hung");
        assert.equal(out.ok, true, JSON.stringify(out));
        // The chat was started: data, not an error (interop45: FDC3 2.x's channel result).
        assert.deepEqual({ ...out.result[0], channel: { ...out.result[0].channel, id: typeof out.result[0].channel?.id } }, { handledBy: "chat", channel: { id: "string", type: "private" }, context: null });
        assert.deepEqual(out.result[1], { handledBy: "chart" });
        session.dispose();
    });
});
