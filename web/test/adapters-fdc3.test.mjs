// @interopio/code-mode/fdc3 against an in-memory FDC3 2.2 desktop agent
// that tsc checks against @finos/fdc3's DesktopAgent (web/test/fakes/fdc3.mjs).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, loadFactory, run } from "./helpers.mjs";
import { loadAdapter } from "./adapter-helpers.mjs";
import { FakeAgent, fakeChannel } from "./fakes/fdc3.mjs";

let IoCodeModeFactory, fdc3;
before(async () => {
    IoCodeModeFactory = await loadFactory();
    fdc3 = await loadAdapter("fdc3");
});

const INSTRUMENT = { type: "object", properties: { type: { const: "fdc3.instrument" }, id: { type: "object", properties: { ticker: { type: "string" } }, required: ["ticker"] } }, required: ["type", "id"] };

function desk() {
    let hang;
    const agent = new FakeAgent([
        {
            appId: "chart",
            title: "Charts",
            intents: {
                ViewChart: { contexts: ["fdc3.instrument"], handler: () => undefined },
                GetPrice: { contexts: ["fdc3.instrument"], resultType: "fdc3.valuation", handler: (ctx) => ({ type: "fdc3.valuation", value: ctx.id.ticker.length * 10, CURRENCY_ISOCODE: "USD" }) },
                OpenStream: { contexts: ["fdc3.instrument"], handler: () => fakeChannel("prices-1") },
                Fail: { contexts: ["fdc3.instrument"], handler: () => Promise.reject(new Error("boom")) },
                Wait: { contexts: ["fdc3.instrument"], handler: () => new Promise((r) => (hang = r)) },
            },
        },
        { appId: "crm", title: "CRM", intents: { StartCall: { contexts: ["fdc3.contact"], handler: () => undefined }, ViewChart: { contexts: ["fdc3.instrument"], handler: () => undefined } } },
    ]);
    return { agent, release: () => hang && hang() };
}

describe("fromFdc3", () => {
    let api, source, d, decisions;
    before(async () => {
        d = desk();
        decisions = [];
        api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            interceptors: {
                onToolCall: ({ tool, input }) => {
                    decisions.push({ name: tool.name, annotations: tool.annotations, input });
                    return { allowed: true };
                },
            },
        });
        source = await fdc3.fromFdc3(d.agent, { contextTypes: ["fdc3.instrument", "fdc3.contact", "fdc3.nothing"], contextSchemas: { "fdc3.instrument": INSTRUMENT } });
        source.registerTools(api);
    });
    after(() => api.dispose());

    test("one tool per intent found for the context types, its context schema as input", () => {
        assert.deepEqual(source.tools.map((t) => t.name), ["fdc3.Fail", "fdc3.GetPrice", "fdc3.OpenStream", "fdc3.StartCall", "fdc3.ViewChart", "fdc3.Wait"]);
        const view = source.tools.find((t) => t.name === "fdc3.ViewChart");
        // Two apps handle ViewChart: the context, and which app may be named.
        assert.deepEqual(view.inputSchema, { ...INSTRUMENT, properties: { ...INSTRUMENT.properties, app: { type: "string", enum: ["chart", "crm"], description: "The appId of the application to handle the intent; without it the desktop agent chooses, or fails when it cannot." } } });
        assert.deepEqual(source.tools.find((t) => t.name === "fdc3.GetPrice").inputSchema, INSTRUMENT);
        assert.match(view.description, /Raise the FDC3 intent ViewChart \(View Chart\) with a fdc3\.instrument context\. Handled by: Charts, CRM\. Choose one with app \(chart, crm\)\./);
        const call = source.tools.find((t) => t.name === "fdc3.StartCall");
        assert.deepEqual(call.inputSchema.properties.type, { const: "fdc3.contact" });
        assert.deepEqual(view.annotations, { readOnlyHint: false, destructiveHint: false, openWorldHint: true, fdc3Action: "raiseIntent", fdc3Intent: "ViewChart", source: "fdc3", untrusted: false });
        // broadcast and open only when asked for.
        assert.ok(!source.tools.some((t) => /broadcast|open$/.test(t.name)));
    });

    test("a call raises the intent and resolves with getResult()'s context, or who handled it", async () => {
        d.agent.raised.length = 0;
        const session = api.createSession();
        const out = await run(
            session,
            `const price = await tools.fdc3.GetPrice({ type: "fdc3.instrument", id: { ticker: "AAPL" } });
             const shown = await tools.fdc3.ViewChart({ type: "fdc3.instrument", id: { ticker: "MSFT" } });
             return { price, shown };`,
        );
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result, { price: { type: "fdc3.valuation", value: 40, CURRENCY_ISOCODE: "USD" }, shown: { handledBy: "chart" } });
        assert.deepEqual(d.agent.raised.map((r) => [r.intent, r.context.id.ticker]), [["GetPrice", "AAPL"], ["ViewChart", "MSFT"]]);
        session.dispose();
    });

    test("the context schema is enforced before the agent is asked", async () => {
        d.agent.raised.length = 0;
        const session = api.createSession();
        const out = await run(session, `try { await tools.fdc3.GetPrice({ type: "fdc3.instrument", id: {} }); } catch (e) { return e.message; }`);
        assert.match(out.result, /ticker/);
        assert.equal(d.agent.raised.length, 0);
        session.dispose();
    });

    test("ResolveError and ResultError come back as errors with those names; a channel result is data: the channel's id, type and current context", async () => {
        const session = api.createSession();
        const out = await run(
            session,
            `const r = [];
             const calls = [
                 () => tools.fdc3.Fail({ type: "fdc3.instrument", id: { ticker: "X" } }),
                 () => tools.fdc3.OpenStream({ type: "fdc3.instrument", id: { ticker: "X" } }),
             ];
             r.push(await tools.fdc3.StartCall({ type: "fdc3.contact", id: { email: "a@b.c" } }));
             for (const f of calls) { try { r.push(await f()); } catch (e) { r.push(e.message); } }
             return r;`,
        );
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result[0], { handledBy: "crm" });
        assert.match(out.result[1], /ResultError: IntentHandlerRejected: the handling application's intent handler failed \(result of Fail\)/);
        // The intent was handled: no error (a retry would raise it again), and no channel object reaches the run.
        assert.deepEqual(out.result[2], { handledBy: "chart", channel: { id: "prices-1", type: "private" }, context: null });
        session.dispose();
    });

    test("errors from the agent keep FDC3's name and value", async () => {
        const tool = source.tools.find((t) => t.name === "fdc3.ViewChart");
        const ctrl = new AbortController();
        await assert.rejects(tool.execute({ type: "fdc3.contact" }, { signal: ctrl.signal, context: undefined }), (err) => err.name === "ResolveError" && /^ResolveError: NoAppsFound: no application can handle/.test(err.message));
        d.agent.userCancels = true;
        await assert.rejects(tool.execute({ type: "fdc3.instrument", id: { ticker: "A" } }, { signal: ctrl.signal, context: undefined }), { name: "ResolveError", message: "ResolveError: UserCancelledResolution: no application was chosen: the user cancelled, or the desktop agent has no resolver to ask (raiseIntent ViewChart with fdc3.instrument; handled by Charts, CRM: choose one with app (chart, crm))" });
        d.agent.userCancels = false;
    });

    test("app names the application: raiseIntent's target, taken out of the context; the schema allows no other", async () => {
        d.agent.raised.length = 0;
        const session = api.createSession();
        const out = await run(
            session,
            `const r = [];
             r.push(await tools.fdc3.ViewChart({ type: "fdc3.instrument", id: { ticker: "A" }, app: "crm" }));
             r.push(await tools.fdc3.ViewChart({ type: "fdc3.instrument", id: { ticker: "B" } }));
             try { await tools.fdc3.ViewChart({ type: "fdc3.instrument", id: { ticker: "C" }, app: "news" }); } catch (e) { r.push(e.message); }
             return r;`,
        );
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result.slice(0, 2), [{ handledBy: "crm" }, { handledBy: "chart" }]);
        assert.match(out.result[2], /app.*chart.*crm/s);
        // The fake lists no instances (findIntent has none): an appId alone; the context has no app.
        assert.deepEqual(d.agent.raised.map((r) => [r.context, r.app]), [
            [{ type: "fdc3.instrument", id: { ticker: "A" } }, { appId: "crm" }],
            [{ type: "fdc3.instrument", id: { ticker: "B" } }, undefined],
        ]);
        session.dispose();
    });

    test("app joins each branch of the context's schema, closed ones too; a context with an app of its own keeps it", async () => {
        const closed = { ...INSTRUMENT, additionalProperties: false };
        const agent = new FakeAgent([
            { appId: "a", intents: { View: { contexts: ["fdc3.instrument", "fdc3.contact"], handler: () => undefined }, Own: { contexts: ["x.own"], handler: () => undefined } } },
            { appId: "b", intents: { View: { contexts: ["fdc3.instrument", "fdc3.contact"], handler: () => undefined }, Own: { contexts: ["x.own"], handler: () => undefined } } },
        ]);
        const own = { type: "object", properties: { type: { const: "x.own" }, app: { type: "string" } }, required: ["type"] };
        const s = await fdc3.fromFdc3(agent, { contextTypes: ["fdc3.instrument", "fdc3.contact", "x.own"], contextSchemas: { "fdc3.instrument": closed, "x.own": own } });
        const view = s.tools.find((t) => t.name === "fdc3.View");
        assert.deepEqual(view.inputSchema.anyOf.map((b) => b.properties.app.enum), [["a", "b"], ["a", "b"]]);
        assert.equal(view.inputSchema.anyOf[0].additionalProperties, false);
        const api2 = await IoCodeModeFactory({ wasmLocation: assetPath });
        s.registerTools(api2);
        const out = await run(api2.createSession(), `return [await tools.fdc3.View({ type: "fdc3.instrument", id: { ticker: "Z" }, app: "b" }), await tools.fdc3.Own({ type: "x.own", app: "mine" })]`);
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result, [{ handledBy: "b" }, { handledBy: "a" }]);
        assert.deepEqual(s.tools.find((t) => t.name === "fdc3.Own").inputSchema, own);
        assert.deepEqual(agent.raised.map((r) => [r.context, r.app]), [
            [{ type: "fdc3.instrument", id: { ticker: "Z" } }, { appId: "b" }],
            [{ type: "x.own", app: "mine" }, undefined],
        ]);
        api2.dispose();
    });

    test("the application that runs the model is no handler: an intent only it handles is no tool, one it shares names the other app or asks for one", async () => {
        const view = { contexts: ["fdc3.instrument"], handler: () => undefined };
        const agent = new FakeAgent([
            { appId: "me", title: "Me", intents: { View: view, Mine: view, Pair: view } },
            { appId: "b", title: "B", intents: { View: view, Pair: view } },
            { appId: "c", title: "C", intents: { View: view } },
        ]);
        agent.getInfo = async () => /** @type {any} */ ({ appMetadata: { appId: "me" } });
        const s = await fdc3.fromFdc3(agent, { contextTypes: ["fdc3.instrument"] });
        assert.deepEqual(s.tools.map((t) => t.name), ["fdc3.Pair", "fdc3.View"]);
        const api2 = await IoCodeModeFactory({ wasmLocation: assetPath });
        s.registerTools(api2);
        const out = await run(
            api2.createSession(),
            `const r = [];
             const x = { type: "fdc3.instrument" };
             for (const f of [() => tools.fdc3.Pair(x), () => tools.fdc3.View(x), () => tools.fdc3.View({ ...x, app: "c" })]) { try { r.push(await f()); } catch (e) { r.push(e.message); } }
             return r;`,
        );
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result, [{ handledBy: "b" }, "View: this application handles it too, and a call never reaches it: choose one with app (b, c)", { handledBy: "c" }]);
        assert.deepEqual(agent.raised.map((r) => [r.intent, r.app]), [["Pair", { appId: "b" }], ["View", { appId: "c" }]]);
        api2.dispose();
    });

    test("aborting the run stops waiting for a result that never comes", async () => {
        const session = api.createSession();
        const ctrl = new AbortController();
        const p = run(session, `return await tools.fdc3.Wait({ type: "fdc3.instrument", id: { ticker: "W" } })`, { signal: ctrl.signal });
        for (let i = 0; i < 200 && !d.agent.raised.some((r) => r.intent === "Wait"); i++) await new Promise((r) => setTimeout(r, 10));
        ctrl.abort(new Error("stop waiting"));
        await assert.rejects(p, /stop waiting/);
        d.release();
        session.dispose();
    });
});

describe("fromFdc3: given intents, broadcast and open", () => {
    test("a given list of intents, and broadcast/open marked as side effects for onToolCall", async () => {
        const d = desk();
        const decisions = [];
        const api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            interceptors: {
                onToolCall: ({ tool }) => {
                    decisions.push([tool.name, tool.annotations.fdc3Action, tool.annotations.readOnlyHint]);
                    return tool.annotations.fdc3Action === "open" ? { allowed: false, reason: "opening apps needs the user's approval" } : { allowed: true };
                },
            },
        });
        const source = await fdc3.fromFdc3(d.agent, { intents: [{ name: "StartCall", contextTypes: ["fdc3.contact"], description: "Call a contact." }, "ViewChart"], broadcast: true, open: ["chart"], namespace: "desk" });
        assert.deepEqual(source.tools.map((t) => t.name), ["desk.StartCall", "desk.ViewChart", "desk.broadcast", "desk.open"]);
        // A given namespace's dots are steps (they were made "_": "desk.fdc3" gave desk_fdc3.StartCall).
        const dotted = await fdc3.fromFdc3(d.agent, { intents: ["StartCall"], namespace: "desk.fdc3" });
        assert.deepEqual(dotted.tools.map((t) => t.name), ["desk.fdc3.StartCall"]);
        dotted.close();
        assert.equal(source.tools[0].description, "Call a contact.");
        assert.deepEqual(source.tools[1].inputSchema.required, ["type"]); // no context types given: any context
        assert.deepEqual(source.tools[3].inputSchema.properties.appId, { type: "string", enum: ["chart"] });
        source.registerTools(api);
        await d.agent.joinUserChannel("fdc3.channel.1");
        const out = await run(
            api.createSession(),
            `const sent = await tools.desk.broadcast({ type: "fdc3.instrument", id: { ticker: "IBM" } });
             let denied, unresolved;
             try { await tools.desk.open({ appId: "chart" }); } catch (e) { denied = e.message; }
             try { await tools.desk.ViewChart({ type: "fdc3.contact", name: "Ada" }); } catch (e) { unresolved = e.message; }
             return { sent, denied, unresolved, call: await tools.desk.StartCall({ type: "fdc3.contact", name: "Ada" }) };`,
        );
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result.sent, { broadcast: "fdc3.instrument", channel: "fdc3.channel.1" });
        assert.match(out.result.denied, /opening apps needs the user's approval/);
        assert.match(out.result.unresolved, /^ResolveError: NoAppsFound: no application can handle this intent with this context \(raiseIntent ViewChart with fdc3\.contact\)$/);
        assert.deepEqual(out.result.call, { handledBy: "crm" });
        assert.deepEqual(d.agent.broadcasts, [{ type: "fdc3.instrument", id: { ticker: "IBM" } }]);
        assert.deepEqual(d.agent.opened, []);
        assert.deepEqual(decisions, [
            ["desk.broadcast", "broadcast", false],
            ["desk.open", "open", false],
            ["desk.ViewChart", "raiseIntent", false],
            ["desk.StartCall", "raiseIntent", false],
        ]);
        api.dispose();
    });

    // FDC3 2.2: "If the app is not currently joined to a channel, calling
    // fdc3.broadcast will have no effect" (the real DesktopAgentProxy
    // resolves and sends nothing): the model was told it broadcast.
    test("broadcast while joined to no user channel fails and says why; nothing is sent", async () => {
        const d = desk();
        const source = await fdc3.fromFdc3(d.agent, { intents: ["ViewChart"], broadcast: true });
        const broadcast = source.tools.find((t) => t.name === "fdc3.broadcast");
        const ctx = { type: "fdc3.instrument", id: { ticker: "IBM" } };
        await assert.rejects(broadcast.execute(ctx, {}), { message: /^broadcast: this application is joined to no user channel, so FDC3 would deliver the context to no one; nothing was broadcast$/ });
        assert.deepEqual(d.agent.broadcasts, []);
        await d.agent.joinUserChannel("fdc3.channel.3");
        assert.deepEqual(await broadcast.execute(ctx, {}), { broadcast: "fdc3.instrument", channel: "fdc3.channel.3" });
        assert.deepEqual(d.agent.broadcasts, [ctx]);
        await d.agent.leaveCurrentChannel();
        await assert.rejects(broadcast.execute(ctx, {}), /joined to no user channel/);
        assert.equal(d.agent.broadcasts.length, 1);
    });

    test("refresh() follows the agent: an intent no app offers any more goes, also for an open session", async () => {
        const d = desk();
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        const source = await fdc3.fromFdc3(d.agent, { contextTypes: ["fdc3.contact"] });
        source.registerTools(api);
        const session = api.createSession();
        assert.deepEqual(api.listTools().map((t) => t.name), ["fdc3.StartCall"]);
        d.agent.apps = d.agent.apps.filter((a) => a.appId !== "crm");
        await source.refresh();
        assert.deepEqual(api.listTools().map((t) => t.name), []);
        const out = await run(session, "try { await tool_call('fdc3.StartCall', { type: 'fdc3.contact' }); } catch (e) { return e.message; }");
        assert.match(out.result, /unknown tool|not found|no tool/i);
        api.dispose();
    });

    test("open: an unknown app is an OpenError", async () => {
        const d = desk();
        const source = await fdc3.fromFdc3(d.agent, { intents: [], open: true });
        const open = source.tools.find((t) => t.name === "fdc3.open");
        assert.deepEqual(await open.execute({ appId: "chart" }, {}), { appId: "chart", instanceId: "chart-1" });
        await assert.rejects(open.execute({ appId: "nope" }, {}), (err) => err.name === "OpenError" && /^OpenError: AppNotFound: no such application \(open nope\)/.test(err.message));
    });

    test("bad arguments are TypeErrors naming the option", async () => {
        await assert.rejects(fdc3.fromFdc3({}, { intents: [] }), { name: "TypeError", message: /expected an FDC3 DesktopAgent/ });
        const { agent } = desk();
        await assert.rejects(fdc3.fromFdc3(agent, {}), { name: "TypeError", message: /options\.contextTypes or options\.intents is required/ });
        await assert.rejects(fdc3.fromFdc3(agent, { contextType: ["x"] }), { name: "TypeError", message: /did you mean "contextTypes"/ });
        await assert.rejects(fdc3.fromFdc3(agent, { intents: [5] }), { name: "TypeError", message: /^fromFdc3: options\.intents: expected an array of intent names/ });
    });
});
