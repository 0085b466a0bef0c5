// io.Connect where its users meet it (session 46), on the real Glue42 Core
// gateway with @interopio/core clients (io-connect-bus.mjs): a call made in
// the moment between a method's going and its tool's removal (the adapter
// re-reads the bus a burst after its events), and a method two applications
// serve pinned to one of them.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, run } from "./helpers.mjs";
import { until } from "./adapter-helpers.mjs";
import { loadInterop } from "./io-connect-bus.mjs";

let IoCodeModeFactory, ioc, bus;

before(async () => ({ IoCodeModeFactory, ioc, bus } = await loadInterop()));
after(() => bus.stop());

// Whether the host's bus still lists `name` with a server other than the host.
const served = (host, name) => host.interop.methods().some((m) => m.name === name && m.getServers().some((s) => s.peerId !== host.interop.instance.peerId));
const settle = (p) => p.then((v) => ({ ok: v }), (e) => ({ err: e.message }));

describe("io.Connect: a call in the moment before a method's tool is removed", () => {
    let host;
    before(async () => {
        host = await bus.connect("copilot-46");
    });

    // The tool as listed, called once the bus has dropped its method (the
    // adapter's re-read, BURST ms later, has not yet removed the tool). It
    // waited io.Connect's 10 s for a server, then failed with the bus's
    // 'Can not find a method matching {"name":"Risk.Check"} with server filter "best"'.
    test("a method unregistered, or its application gone: the call fails at once saying so, not in the bus's words", async () => {
        const errors = [];
        const source = ioc.fromIoConnect(host, { namespace: "stale", onError: (e) => errors.push(e.message) });
        const risk = await bus.connect("risk-46");
        await risk.interop.register({ name: "Risk.Check", accepts: "String book" }, ({ book }) => ({ book, ok: true }));
        const fx = await bus.connect("fx-46");
        await fx.interop.register({ name: "Fx.Rate", accepts: "String pair" }, () => ({ rate: 1.1 }));
        await until(() => ["stale.Risk.Check", "stale.Fx.Rate"].every((n) => source.tools.some((t) => t.name === n)), "the two tools");
        const [check, rate] = ["stale.Risk.Check", "stale.Fx.Rate"].map((n) => source.tools.find((t) => t.name === n));
        assert.deepEqual(await check.execute({ book: "b1" }, {}), { book: "b1", ok: true });
        await risk.interop.unregister("Risk.Check");
        await fx.done();
        await until(() => !served(host, "Risk.Check") && !served(host, "Fx.Rate"), "the bus to drop both methods");
        const out = [await settle(check.execute({ book: "b1" }, {})), await settle(rate.execute({ pair: "EURUSD" }, {}))];
        assert.deepEqual(out, [
            { err: "Risk.Check: no other application offers this method now (it was unregistered, or its application closed)" },
            { err: "Fx.Rate: no other application offers this method now (it was unregistered, or its application closed)" },
        ]);
        assert.deepEqual(errors, []);
        source.close();
        await risk.done();
    });

    // The page serves the method too: with the other application gone, the
    // target left was none, and io.Connect's "best" picked the page's own
    // method, which a call through the adapter must never reach.
    test("the page serves the method too: the call never reaches the page's own handler", async () => {
        const source = ioc.fromIoConnect(host, { namespace: "own" });
        const calls = [];
        await host.interop.register({ name: "Desk.Status" }, () => (calls.push("host"), { who: "host" }));
        const desk = await bus.connect("desk-46");
        await desk.interop.register({ name: "Desk.Status" }, () => (calls.push("desk"), { who: "desk" }));
        await until(() => source.tools.some((t) => t.name === "own.Desk.Status") && served(host, "Desk.Status"), "Desk.Status from desk-46");
        const status = source.tools.find((t) => t.name === "own.Desk.Status");
        assert.deepEqual(await status.execute({}, {}), { who: "desk" });
        await desk.done();
        await until(() => !served(host, "Desk.Status"), "the bus to drop desk-46's Desk.Status");
        assert.deepEqual(await settle(status.execute({}, {})), { err: "Desk.Status: no other application offers this method now (it was unregistered, or its application closed)" });
        assert.deepEqual(calls, ["desk"]);
        source.close();
        await host.interop.unregister("Desk.Status");
    });

    // waitTimeoutMs asks io.Connect to wait for a method: an application
    // that registers it again meanwhile (a restart) answers the call.
    test("with waitTimeoutMs, a call waits for an application to serve the method again; none comes: the same message after the wait", async () => {
        // 8 s: room for the register below on a loaded machine (a round trip of the bus).
        const source = ioc.fromIoConnect(host, { namespace: "wait", waitTimeoutMs: 8000 });
        const app = await bus.connect("restarting-46");
        await app.interop.register({ name: "Book.Get" }, () => ({ v: 1 }));
        await until(() => source.tools.some((t) => t.name === "wait.Book.Get"), "Book.Get");
        const get = source.tools.find((t) => t.name === "wait.Book.Get");
        await app.interop.unregister("Book.Get");
        await until(() => !served(host, "Book.Get"), "the bus to drop Book.Get");
        const waiting = settle(get.execute({}, {}));
        await app.interop.register({ name: "Book.Get" }, () => ({ v: 2 }));
        assert.deepEqual(await waiting, { ok: { v: 2 } });
        await app.interop.unregister("Book.Get");
        await until(() => !served(host, "Book.Get"), "the bus to drop Book.Get again");
        assert.deepEqual(await settle(get.execute({}, {})), { err: "Book.Get: no other application offers this method now (it was unregistered, or its application closed)" });
        source.close();
        await app.done();
    });
});

// io.Connect's invoke takes a target: "best", "all", "skipMine", or an
// instance filter ({ application: "pricing-b" }) that picks the servers
// whose instance matches it. The target option's function returns one per
// method: the page pins a method several applications serve.
describe("io.Connect: a method two applications serve, pinned to one by the target option", () => {
    let host, api, source;
    const handled = [];
    before(async () => {
        host = await bus.connect("copilot-46b");
        // pricing-b-46 runs twice: a filter by its name matches both instances.
        for (const app of ["pricing-a-46", "pricing-b-46", "pricing-b-46"]) {
            const io = await bus.connect(app);
            await io.interop.register({ name: "Px.Get", accepts: "String ticker", returns: "String app" }, () => (handled.push(app), { app }));
            await io.interop.register({ name: "Px.Other", returns: "String app" }, () => ({ app }));
        }
        // The page serves Px.Own too; pricing-a-46 as well.
        await host.interop.register({ name: "Px.Own", returns: "String app" }, () => (handled.push("host"), { app: "host" }));
        const c = await bus.connect("pricing-c-46");
        await c.interop.register({ name: "Px.Own", returns: "String app" }, () => (handled.push("pricing-c-46"), { app: "pricing-c-46" }));
        await host.interop.register({ name: "Px.Both" }, () => (handled.push("host"), { app: "host" }));
        await c.interop.register({ name: "Px.Both" }, () => (handled.push("pricing-c-46"), { app: "pricing-c-46" }));
        api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 8000 });
        const pins = { "Px.Get": { application: "pricing-b-46" }, "Px.Own": { application: "copilot-46b" }, "Px.Both": [{ application: "copilot-46b" }, { application: "PRICING-C-46" }] };
        source = ioc.fromIoConnect(host, { namespace: "px", target: (method) => pins[method.name] ?? "best" });
        source.registerTools(api);
        const servers = { "Px.Get": 3, "Px.Other": 3, "Px.Own": 2, "Px.Both": 2 };
        await until(() => Object.entries(servers).every(([m, n]) => host.interop.methods().find((x) => x.name === m)?.getServers().length === n) && source.tools.length === 4, "the methods from every app");
    });
    after(() => {
        source.close();
        api.dispose();
    });

    // io.Connect invokes every server an instance filter matches: the
    // tool's one result hid a second call (pricing-b-46 twice: each call
    // ran twice), and a filter the page's own instance matches ran the
    // page's method, which a call through the adapter must never reach.
    test("every call of the pinned method reaches one server of the application its filter names, once; the others go to io.Connect's best", async () => {
        const session = api.createSession();
        handled.length = 0;
        const out = await run(session, "const r = []; for (let i = 0; i < 4; i++) r.push((await tools.px.Px.Get({ ticker: 'IBM' })).app); return [r, (await tools.px.Px.Other({})).app];");
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result[0], ["pricing-b-46", "pricing-b-46", "pricing-b-46", "pricing-b-46"]);
        assert.match(out.result[1], /^pricing-[ab]-46$/);
        assert.deepEqual(handled, ["pricing-b-46", "pricing-b-46", "pricing-b-46", "pricing-b-46"]);
        session.dispose();
    });

    test("a filter that matches the page's own instance only: the call fails saying so, and the page's method is not run", async () => {
        handled.length = 0;
        const out = await run(api.createSession(), "try { return await tools.px.Px.Own({}); } catch (e) { return e.message; }");
        assert.equal(out.result, 'Px.Own: no other application matches the target {"application":"copilot-46b"}');
        assert.deepEqual(handled, []);
    });

    test("a list of filters, the page's own among them: the rows of the other servers they match, in any case", async () => {
        handled.length = 0;
        const out = await run(api.createSession(), "return await tools.px.Px.Both({})");
        assert.deepEqual(out.result, [{ server: "pricing-c-46", returned: { app: "pricing-c-46" } }], JSON.stringify(out));
        assert.deepEqual(handled, ["pricing-c-46"]);
    });
});
