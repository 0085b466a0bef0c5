// @interopio/code-mode/io-connect against a real Interop bus: the open
// source Glue42 Core gateway with @interopio/core clients (io-connect-bus.mjs).
// Every application below is a real io.Connect client; nothing of the bus
// is written here. (The fake bus of adapters-io-connect.test.mjs stays for
// what this gateway cannot show.)
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, loadFactory, run } from "./helpers.mjs";
import { eachCaught, loadAdapter, until } from "./adapter-helpers.mjs";
import { startBus } from "./io-connect-bus.mjs";

let IoCodeModeFactory, ioc, bus;
const connect = (application) => bus.connect(application);

before(async () => {
    IoCodeModeFactory = await loadFactory();
    ioc = await loadAdapter("io-connect");
    bus = await startBus();
});
after(() => bus.stop());

const names = (api) => api.listTools().map((t) => t.name).sort();

describe("fromIoConnect on a real gateway", () => {
    let host, blotter, pricer, api, source, errors, slow;
    before(async () => {
        [host, blotter, pricer] = [await connect("copilot"), await connect("blotter"), await connect("pricer")];
        await blotter.interop.register(
            { name: "Blotter.Orders.Search", displayName: "Search orders", description: "Orders of a client.", accepts: "String client, Int? limit", returns: "Composite: { String id, Double qty }[] orders", flags: { readOnlyHint: true } },
            ({ client, limit }) => ({ orders: [{ id: `${client}-1`, qty: 10 }].slice(0, limit ?? 10) }),
        );
        await blotter.interop.register({ name: "Blotter.Orders.Cancel", accepts: "String id" }, ({ id }) => {
            if (id === "x") throw new Error("no order x");
            return { cancelled: id };
        });
        await blotter.interop.register({ name: "Slow" }, () => new Promise((resolve) => (slow = resolve)));
        await pricer.interop.register({ name: "Quote", accepts: "String symbol", returns: "Double price" }, ({ symbol }) => ({ price: 100 + symbol.length }));
        await host.interop.register({ name: "Copilot.Ask", accepts: "String q" }, () => ({ answer: 42 }));
        await host.interop.register({ name: "Shared.Status" }, () => ({ who: "host" }));
        await pricer.interop.register({ name: "Shared.Status" }, () => ({ who: "pricer" }));
        errors = [];
        api = await IoCodeModeFactory({ wasmLocation: assetPath });
        source = ioc.fromIoConnect(host, { methodResponseTimeoutMs: 300, onError: (e) => errors.push(e.message) });
        source.registerTools(api);
        // The host learns of the others' methods from the gateway.
        await until(() => ["Blotter.Orders.Cancel", "Blotter.Orders.Search", "Quote", "Shared.Status", "Slow"].every((m) => names(api).includes(`interop.${m}`)), "the other applications' methods");
    });
    after(() => {
        slow && slow({});
        source.close();
        api.dispose();
    });

    // The bus lists Shared.Status once per server (copilot's and pricer's):
    // it was two tools, interop.Shared.Status and interop.Shared.Status_2.
    test("the other applications' methods are the tools, once each, never the host's own; signatures become schemas", () => {
        assert.deepEqual(names(api), ["interop.Blotter.Orders.Cancel", "interop.Blotter.Orders.Search", "interop.Quote", "interop.Shared.Status", "interop.Slow"]);
        const search = source.tools.find((t) => t.name === "interop.Blotter.Orders.Search");
        // Its own text, then the application that serves it (a search by that name finds it: adapters-interop44).
        assert.equal(search.description, "Search orders: Orders of a client. Served by blotter.");
        assert.deepEqual(search.inputSchema, { type: "object", properties: { client: { type: "string" }, limit: { type: "integer" } }, required: ["client"] });
        assert.equal(search.outputSchema.properties.orders.items.properties.qty.type, "number");
        assert.equal(search.annotations.readOnlyHint, true);
        assert.deepEqual(errors, []);
    });

    test("a program invokes methods and gets the applications' answers; a shared method goes to the other server", async () => {
        const session = api.createSession();
        const out = await run(
            session,
            `const orders = await tools.interop.Blotter.Orders.Search({ client: "acme" });
             const quote = await tools.interop.Quote({ symbol: "AAPL" });
             const status = await tools.interop.Shared.Status({});
             return { orders, quote, status };`,
        );
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result, { orders: { orders: [{ id: "acme-1", qty: 10 }] }, quote: { price: 104 }, status: { who: "pricer" } });
        session.dispose();
    });

    test("the bus's errors reach the program: a handler's throw, a timeout, bad input before the bus", async () => {
        const session = api.createSession();
        const out = await eachCaught(session, [`tools.interop.Blotter.Orders.Cancel({ id: "x" })`, "tools.interop.Slow({})", "tools.interop.Blotter.Orders.Cancel({ id: 7 })"]);
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.match(out.result[0], /^Blotter\.Orders\.Cancel: .*no order x/);
        assert.match(out.result[1], /^Slow: .*timeout \(300 ms\)/i);
        assert.match(out.result[2], /id/);
        session.dispose();
    });

    test("a method unregistered, or its application gone, leaves the tools; a call of the tool as it was says the method went", async () => {
        const session = api.createSession();
        const risk = await connect("risk");
        await risk.interop.register({ name: "Risk.Check", accepts: "String book" }, ({ book }) => ({ book, ok: true }));
        await until(() => names(api).includes("interop.Risk.Check"), "Risk.Check");
        let out = await run(session, "return await tools.interop.Risk.Check({ book: 'b1' })");
        assert.deepEqual(out.result, { book: "b1", ok: true });
        const listed = source.tools.find((t) => t.name === "interop.Risk.Check");
        await risk.interop.unregister("Risk.Check");
        await until(() => !names(api).includes("interop.Risk.Check"), "Risk.Check removed");
        // The tool as it was, called once its method went (adapters-interop46
        // calls it before the re-read): no wait for a server, nor the bus's words.
        await assert.rejects(listed.execute({ book: "b1" }, {}), { message: "Risk.Check: no other application offers this method now (it was unregistered, or its application closed)" });
        out = await run(session, "try { await tool_call('interop.Risk.Check', { book: 'b1' }); } catch (e) { return e.message; }");
        assert.match(out.result, /unknown tool|not found|no tool/i);

        // An application that disconnects takes all its methods with it.
        const fx = await connect("fx");
        await fx.interop.register({ name: "Fx.Rate", accepts: "String pair" }, () => ({ rate: 1.1 }));
        await until(() => names(api).includes("interop.Fx.Rate"), "Fx.Rate");
        await fx.done();
        await until(() => !names(api).includes("interop.Fx.Rate"), "Fx.Rate gone with its application");
        session.dispose();
    });

    test("a stream is no tool; an application that leaves mid-call fails the call with the bus's words", async () => {
        const flaky = await connect("flaky");
        let started;
        await flaky.interop.register({ name: "Flaky.Hang" }, () => new Promise(() => (started = true)));
        await flaky.interop.createStream({ name: "Flaky.Prices" });
        await until(() => names(api).includes("interop.Flaky.Hang") && host.interop.methods().some((m) => m.name === "Flaky.Prices"), "Flaky's methods");
        assert.ok(!names(api).includes("interop.Flaky.Prices"));
        const session = api.createSession();
        const p = run(session, "try { return await tools.interop.Flaky.Hang({}); } catch (e) { return e.message; }");
        await until(() => started, "the call to reach flaky");
        await flaky.done();
        const out = await p;
        assert.equal(out.result, "Flaky.Hang: Peer has left while waiting for result");
        await until(() => !names(api).includes("interop.Flaky.Hang"), "Flaky's methods gone");
        session.dispose();
    });

    test("a stream and a method of one name in two applications: the tool calls the method's application, never the stream's", async () => {
        const [streamer, plain] = [await connect("streamer"), await connect("plain")];
        await streamer.interop.createStream({ name: "Ticks" }, { subscriptionRequestHandler: (r) => r.accept() });
        await plain.interop.register({ name: "Ticks" }, () => ({ last: 1 }));
        await until(() => names(api).includes("interop.Ticks") && host.interop.methods().filter((m) => m.name === "Ticks").length === 2, "Ticks from both");
        const session = api.createSession();
        // "best" picked the streamer: 'Ticks: Invocation timeout (300 ms) reached ...' on every call.
        const out = await run(session, "const r = []; for (let i = 0; i < 3; i++) r.push(await tools.interop.Ticks({})); return r;");
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result, [{ last: 1 }, { last: 1 }, { last: 1 }]);
        // The application with the method gone, the stream is no tool.
        await plain.done();
        await until(() => !names(api).includes("interop.Ticks"), "Ticks gone with its method");
        session.dispose();
        await streamer.done();
    });

    // One name, two signatures: two methods to io.Connect (an entry each,
    // each with its own server). One tool had the first's schemas, and
    // target "all" called both: the other's row failed the whole call.
    test("one name registered with two signatures: a tool each, each calling its own application", async () => {
        const [v1, v2] = [await connect("pricer-v1"), await connect("pricer-v2")];
        await v1.interop.register({ name: "Sig", accepts: "String symbol", returns: "Double price" }, ({ symbol }) => ({ price: symbol.length }));
        await v2.interop.register({ name: "Sig", accepts: "String ticker", returns: "String price" }, ({ ticker }) => ({ price: `${ticker}!` }));
        const all = ioc.fromIoConnect(host, { target: "all", namespace: "rows" });
        const api2 = await IoCodeModeFactory({ wasmLocation: assetPath });
        all.registerTools(api2);
        await until(() => names(api).includes("interop.Sig_2") && all.tools.length > 0 && all.tools.some((t) => t.name === "rows.Sig_2"), "both Sig tools");
        const sig = source.tools.filter((t) => t.name.startsWith("interop.Sig")).map((t) => [t.name, Object.keys(t.inputSchema.properties)[0], t.outputSchema.properties.price.type]);
        assert.deepEqual(sig.map((r) => r.slice(1)).sort(), [["symbol", "number"], ["ticker", "string"]]);
        const bySymbol = sig.find((r) => r[1] === "symbol")[0];
        const byTicker = sig.find((r) => r[1] === "ticker")[0];
        const session = api.createSession();
        const out = await run(session, `return [await tools.${bySymbol}({ symbol: "AB" }), await tools.${byTicker}({ ticker: "CD" })]`);
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result, [{ price: 2 }, { price: "CD!" }]);
        const rowsTool = all.tools.find((t) => t.name.startsWith("rows.Sig") && t.inputSchema.properties.symbol).name;
        const rows = await run(api2.createSession(), `return await tools.${rowsTool}({ symbol: "AB" })`);
        assert.equal(rows.ok, true, JSON.stringify(rows));
        assert.deepEqual(rows.result, [{ server: "pricer-v1", returned: { price: 2 } }]);
        all.close();
        api2.dispose();
        session.dispose();
        await v1.done();
        await v2.done();
        await until(() => !names(api).some((n) => n.startsWith("interop.Sig")), "the Sig tools gone");
    });

    // @interopio/core's server side wraps a handler's value that is no
    // object as { _value: value }: the program got {"_value":42} for 42.
    test("a handler's number, string or array reaches the program as it was returned; a result unlike the method's returns fails the call", async () => {
        const odd = await connect("odd");
        const values = { "Odd.Num": 42, "Odd.Text": "text", "Odd.List": [1, { a: 2 }] };
        for (const [name, value] of Object.entries(values)) await odd.interop.register({ name }, () => value);
        // Declares a price and answers otherwise: the program is told, the data does not reach it as a price.
        await odd.interop.register({ name: "Odd.Price", returns: "Double price" }, ({ as }) => (as === "number" ? 7 : as === "text" ? { price: "high" } : { cost: 1 }));
        await odd.interop.register({ name: "Odd.Kept", returns: "Double price" }, () => ({ price: 1, currency: "EUR" }));
        await until(() => ["Odd.Num", "Odd.Text", "Odd.List", "Odd.Price", "Odd.Kept"].every((m) => names(api).includes(`interop.${m}`)), "odd's methods");
        const session = api.createSession();
        const out = await eachCaught(session, [
            "tools.interop.Odd.Num({})",
            "tools.interop.Odd.Text({})",
            "tools.interop.Odd.List({})",
            "tools.interop.Odd.Price({ as: 'number' })",
            "tools.interop.Odd.Price({ as: 'text' })",
            "tools.interop.Odd.Price({})",
            "tools.interop.Odd.Kept({})",
        ]);
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result, [
            42,
            "text",
            [1, { a: 2 }],
            "interop.Odd.Price: the tool's result does not match its outputSchema: /: type: got number, want object",
            "interop.Odd.Price: the tool's result does not match its outputSchema: /price: type: got string, want number",
            'interop.Odd.Price: the tool\'s result does not match its outputSchema: /: required: missing "price"',
            { price: 1, currency: "EUR" },
        ]);
        // The same in target "all"'s rows.
        const rows = ioc.fromIoConnect(host, { target: "all", namespace: "rows" });
        const api2 = await IoCodeModeFactory({ wasmLocation: assetPath });
        rows.registerTools(api2);
        const all = await run(api2.createSession(), "return await tools.rows.Odd.Num({})");
        assert.deepEqual(all.result, [{ server: "odd", returned: 42 }]);
        rows.close();
        api2.dispose();
        session.dispose();
        await odd.done();
    });

    test('target "all": every other server\'s answer, named by application', async () => {
        const a2 = await connect("pricer2");
        await a2.interop.register({ name: "Quote", accepts: "String symbol", returns: "Double price" }, ({ symbol }) => {
            if (symbol === "bad") throw new Error("unknown symbol");
            return { price: symbol.length };
        });
        const all = ioc.fromIoConnect(host, { target: "all", namespace: "desk" });
        const api2 = await IoCodeModeFactory({ wasmLocation: assetPath });
        all.registerTools(api2);
        await until(() => all.tools.some((t) => t.name === "desk.Quote") && host.interop.methods().find((m) => m.name === "Quote").getServers().length === 2, "two Quote servers");
        const out = await run(api2.createSession(), "return [await tools.desk.Quote({ symbol: 'X' }), await tools.desk.Quote({ symbol: 'bad' })]");
        assert.equal(out.ok, true, JSON.stringify(out));
        const byServer = (rows) => rows.slice().sort((x, y) => (x.server < y.server ? -1 : 1));
        assert.deepEqual(byServer(out.result[0]), [
            { server: "pricer", returned: { price: 101 } },
            { server: "pricer2", returned: { price: 1 } },
        ]);
        assert.deepEqual(byServer(out.result[1]), [
            { server: "pricer", returned: { price: 103 } },
            { server: "pricer2", error: "unknown symbol" },
        ]);
        all.close();
        api2.dispose();
        await a2.done();
    });
});
