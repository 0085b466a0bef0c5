// @interopio/code-mode/io-connect against an in-memory Interop bus whose
// API objects tsc checks against @interopio/core's declarations
// (web/test/fakes/io-connect.mjs).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, loadFactory, run } from "./helpers.mjs";
import { eachCaught, loadAdapter, until } from "./adapter-helpers.mjs";
import { FakeBus, fakeIo } from "./fakes/io-connect.mjs";

let IoCodeModeFactory, ioc;
before(async () => {
    IoCodeModeFactory = await loadFactory();
    ioc = await loadAdapter("io-connect");
});

describe("signatureToJsonSchema", () => {
    const cases = [
        ["", { type: "object" }],
        [undefined, { type: "object" }],
        ["Int a, Int b", { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"] }],
        ["String symbol, Double? price", { type: "object", properties: { symbol: { type: "string" }, price: { type: "number" } }, required: ["symbol"] }],
        ["String[] tags, Bool flag, Long n", { type: "object", properties: { tags: { type: "array", items: { type: "string" } }, flag: { type: "boolean" }, n: { type: "integer" } }, required: ["tags", "flag", "n"] }],
        ["DateTime at", { type: "object", properties: { at: { type: "string", format: "date-time" } }, required: ["at"] }],
        [
            "Composite: { String name, Double? price }[] lines, Composite: { String id } client",
            {
                type: "object",
                properties: {
                    lines: { type: "array", items: { type: "object", properties: { name: { type: "string" }, price: { type: "number" } }, required: ["name"] } },
                    client: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
                },
                required: ["lines", "client"],
            },
        ],
        ["string name, int? age", { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } }, required: ["name"] }],
        ["Widget w", { type: "object", properties: { w: { description: "io.Connect type Widget" } }, required: ["w"] }],
    ];
    for (const [sig, want] of cases) {
        test(`${JSON.stringify(sig)}`, () => assert.deepEqual(ioc.signatureToJsonSchema(sig), want));
    }
    for (const bad of ["String", "Int a b", "Composite: { String x", "String a,, Int b", "Int 5"]) {
        test(`${JSON.stringify(bad)} is a SyntaxError naming where`, () => {
            assert.throws(() => ioc.signatureToJsonSchema(bad), (err) => err instanceof SyntaxError && /offset \d+|the end/.test(err.message));
        });
    }
});

describe("fromIoConnect", () => {
    let bus, host, blotter, pricer, api, source, unregister, decisions, errors;
    before(async () => {
        bus = new FakeBus();
        host = bus.connect("copilot");
        blotter = bus.connect("blotter");
        pricer = bus.connect("pricer");
        await blotter.register(
            { name: "Blotter.Orders.Search", displayName: "Search orders", description: "Orders of a client.", accepts: "String client, Int? limit", returns: "Composite: { String id, Double qty }[] orders", flags: { readOnlyHint: true } },
            ({ client, limit }) => ({ orders: [{ id: `${client}-1`, qty: 10 }].slice(0, limit ?? 10) }),
        );
        await blotter.register({ name: "Blotter.Orders.Cancel", accepts: "String id" }, ({ id }) => {
            if (id === "x") throw new Error("no order x");
            return { cancelled: id };
        });
        await blotter.register("Untyped", (args) => ({ echo: args }));
        await blotter.register({ name: "Quote", accepts: "String symbol", returns: "Double price" }, ({ symbol }) => ({ price: symbol.length }));
        await pricer.register({ name: "Quote", accepts: "String symbol", returns: "Double price" }, ({ symbol }) => ({ price: 100 + symbol.length }));
        await blotter.register({ name: "Slow", accepts: "" }, () => new Promise((r) => setTimeout(() => r({ late: true }), 5000)));
        await blotter.createStream({ name: "Prices.Stream" });
        await host.register({ name: "Copilot.Ask", accepts: "String q" }, () => ({ answer: 42 }));
        await host.register({ name: "Shared.Status" }, () => ({ who: "host" }));
        await pricer.register({ name: "Shared.Status" }, () => ({ who: "pricer" }));

        decisions = [];
        errors = [];
        api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            interceptors: {
                onToolCall: ({ tool }) => {
                    decisions.push({ name: tool.name, annotations: tool.annotations });
                    return { allowed: true };
                },
            },
        });
        source = ioc.fromIoConnect(fakeIo(host), { methodResponseTimeoutMs: 200, onError: (e) => errors.push(e.message) });
        unregister = source.registerTools(api);
    });
    after(() => {
        unregister();
        source.close();
        api.dispose();
    });

    test("other applications' request/response methods, never streams or the host's own", () => {
        assert.deepEqual(api.listTools().map((t) => t.name).sort(), [
            "interop.Blotter.Orders.Cancel",
            "interop.Blotter.Orders.Search",
            "interop.Quote",
            "interop.Shared.Status",
            "interop.Slow",
            "interop.Untyped",
        ]);
    });

    test("signatures become schemas; no signature is any object", () => {
        const search = source.tools.find((t) => t.name === "interop.Blotter.Orders.Search");
        // Its own text, then the application that serves it (a search by that name finds it: adapters-interop44).
        assert.equal(search.description, "Search orders: Orders of a client. Served by blotter.");
        assert.deepEqual(search.inputSchema, { type: "object", properties: { client: { type: "string" }, limit: { type: "integer" } }, required: ["client"] });
        assert.equal(search.outputSchema.properties.orders.items.properties.qty.type, "number");
        assert.deepEqual(source.tools.find((t) => t.name === "interop.Untyped").inputSchema, { type: "object" });
        assert.deepEqual(search.annotations, { readOnlyHint: true, openWorldHint: true, interopMethod: "Blotter.Orders.Search", source: "io-connect", untrusted: true });
        const cancel = source.tools.find((t) => t.name === "interop.Blotter.Orders.Cancel");
        assert.equal(cancel.annotations.destructiveHint, true);
    });

    test("a call invokes the method with its options and unwraps returned; the signature shows in tool_search", async () => {
        bus.invocations.length = 0;
        decisions.length = 0;
        const session = api.createSession();
        const out = await run(
            session,
            `const hit = (await tool_search({ query: "search orders" }))[0];
             const r = await tools.interop.Blotter.Orders.Search({ client: "acme" });
             return { sig: hit.signature, r };`,
        );
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.match(out.result.sig, /client: string/);
        assert.match(out.result.sig, /limit\?: number/);
        assert.deepEqual(out.result.r, { orders: [{ id: "acme-1", qty: 10 }] });
        assert.deepEqual(bus.invocations, [{ method: "Blotter.Orders.Search", args: { client: "acme" }, target: "best", options: { methodResponseTimeoutMs: 200 } }]);
        assert.deepEqual(decisions.map((d) => [d.name, d.annotations.source, d.annotations.readOnlyHint]), [["interop.Blotter.Orders.Search", "io-connect", true]]);
        session.dispose();
    });

    test("errors, timeouts and bad input come back as errors the code can catch", async () => {
        const session = api.createSession();
        const out = await eachCaught(session, [`tools.interop.Blotter.Orders.Cancel({ id: "x" })`, "tools.interop.Slow({})", "tools.interop.Blotter.Orders.Cancel({ id: 7 })"]);
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.match(out.result[0], /no order x/);
        assert.match(out.result[1], /timeout \(200 ms\)/);
        assert.match(out.result[2], /id/);
        session.dispose();
    });

    test("a method the host also offers goes to another server, never to the host", async () => {
        const session = api.createSession();
        bus.invocations.length = 0;
        const out = await run(session, "return await tools.interop.Shared.Status({})");
        assert.deepEqual(out.result, { who: "pricer" });
        assert.equal(bus.invocations[0].target.application, "pricer");
        session.dispose();
    });

    test("methods added and removed are followed, also by an open session", async () => {
        const session = api.createSession();
        const risk = bus.connect("risk");
        await risk.register({ name: "Risk.Check", accepts: "String book" }, ({ book }) => ({ book, ok: true }));
        await until(() => api.listTools().some((t) => t.name === "interop.Risk.Check"), "Risk.Check");
        let out = await run(session, "return await tools.interop.Risk.Check({ book: 'b1' })");
        assert.deepEqual(out.result, { book: "b1", ok: true });
        risk.unregister("Risk.Check");
        await until(() => !api.listTools().some((t) => t.name === "interop.Risk.Check"), "Risk.Check removed");
        out = await run(session, "try { await tool_call('interop.Risk.Check', { book: 'b1' }); } catch (e) { return e.message; }");
        assert.match(out.result, /unknown tool|not found|no tool/i);
        session.dispose();
    });

    test("aborting the run stops waiting for an invocation io.Connect cannot cancel", async () => {
        const session = api.createSession();
        const ctrl = new AbortController();
        bus.invocations.length = 0;
        const p = run(session, "return await tools.interop.Slow({})", { signal: ctrl.signal });
        await until(() => bus.invocations.some((i) => i.method === "Slow"), "the invocation");
        ctrl.abort(new Error("stop"));
        await assert.rejects(p, /stop/);
        session.dispose();
    });

    test("names that collide after sanitising get suffixes; a name another source took is a clear error", async () => {
        const bus2 = new FakeBus();
        const app = bus2.connect("app");
        await app.register({ name: "Orders Search" }, () => "space");
        await app.register({ name: "Orders_Search" }, () => "underscore");
        const s = ioc.fromIoConnect(fakeIo(bus2.connect("copilot")));
        assert.deepEqual(s.tools.map((t) => t.name), ["interop.Orders_Search", "interop.Orders_Search_2"]);
        const api2 = await IoCodeModeFactory({ wasmLocation: assetPath });
        s.registerTools(api2);
        const out = await run(api2.createSession(), "return [await tools.interop.Orders_Search({}), await tools.interop.Orders_Search_2({})]");
        assert.deepEqual(out.result, ["space", "underscore"]);
        const again = ioc.fromIoConnect(fakeIo(bus2.connect("copilot")));
        assert.throws(() => again.registerTools(api2), (err) => err instanceof TypeError && /interop\.Orders_Search/.test(err.message));
        s.close();
        again.close();
        api2.dispose();
    });

    test("a signature it cannot read is reported, and the method takes any object", async () => {
        const odd = bus.connect("odd");
        await odd.register({ name: "Odd.Method", accepts: "String" }, () => 1);
        await until(() => api.listTools().some((t) => t.name === "interop.Odd.Method"), "Odd.Method");
        assert.deepEqual(source.tools.find((t) => t.name === "interop.Odd.Method").inputSchema, { type: "object" });
        assert.ok(errors.some((m) => /Odd\.Method: accepts "String": expected a field name/.test(m)), errors.join("; "));
        odd.unregister("Odd.Method");
    });
});

describe("fromIoConnect options", () => {
    test('target "all" returns every server\'s answer; a function picks per method', async () => {
        const bus = new FakeBus();
        const host = bus.connect("copilot");
        const a = bus.connect("a");
        const b = bus.connect("b");
        await a.register({ name: "Quote", accepts: "String s" }, () => ({ price: 1 }));
        await b.register({ name: "Quote", accepts: "String s" }, ({ s }) => {
            if (s === "bad") throw new Error("unknown symbol");
            return { price: 2 };
        });
        await a.register({ name: "Ping" }, () => "pong");
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        const all = ioc.fromIoConnect(fakeIo(host), { target: "all", namespace: "desk" });
        all.registerTools(api);
        // A given namespace's dots are steps (they were made "_": "desk.fx" gave desk_fx.Ping).
        const dotted = ioc.fromIoConnect(fakeIo(host), { namespace: "desk.fx" });
        assert.deepEqual(dotted.tools.map((t) => t.name).sort(), ["desk.fx.Ping", "desk.fx.Quote"]);
        dotted.close();
        const session = api.createSession();
        let out = await run(session, "return [await tools.desk.Quote({ s: 'X' }), await tools.desk.Quote({ s: 'bad' })]");
        assert.deepEqual(out.result, [
            [
                { server: "a", returned: { price: 1 } },
                { server: "b", returned: { price: 2 } },
            ],
            [
                { server: "a", returned: { price: 1 } },
                { server: "b", error: "unknown symbol" },
            ],
        ]);
        all.close();
        api.dispose();

        const api2 = await IoCodeModeFactory({ wasmLocation: assetPath });
        const picked = ioc.fromIoConnect(fakeIo(host), { target: (m) => (m.name === "Quote" ? m.getServers().find((s) => s.application === "b") : "best") });
        picked.registerTools(api2);
        out = await run(api2.createSession(), "return [await tools.interop.Quote({ s: 'X' }), await tools.interop.Ping({})]");
        assert.deepEqual(out.result, [{ price: 2 }, "pong"]);
        picked.close();
        api2.dispose();
    });

    test("a disposed Code Mode instance is no longer followed, without errors", async () => {
        const bus = new FakeBus();
        const errors = [];
        const s = ioc.fromIoConnect(fakeIo(bus.connect("copilot")), { onError: (e) => errors.push(e) });
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        s.registerTools(api);
        api.dispose();
        await bus.connect("late").register({ name: "Late" }, () => 1);
        await until(() => s.tools.length > 0, "the source to follow the bus");
        assert.deepEqual(s.tools.map((t) => t.name), ["interop.Late"]);
        assert.deepEqual(errors, []);
        s.close();
    });

    test("bad arguments are TypeErrors naming the option", () => {
        assert.throws(() => ioc.fromIoConnect({}), { name: "TypeError", message: /expected an io\.Connect API object/ });
        const io = fakeIo(new FakeBus().connect("x"));
        assert.throws(() => ioc.fromIoConnect(io, { target: "first" }), { name: "TypeError", message: /^fromIoConnect: options\.target: expected "best", "all", "skipMine"/ });
        assert.throws(() => ioc.fromIoConnect(io, { methodResponseTimeout: 5 }), { name: "TypeError", message: /did you mean "methodResponseTimeoutMs"/ });
    });

    // io.Connect's invoke hands methodResponseTimeoutMs to setTimeout, which
    // fires at once past 2^31-1 ms: Infinity failed every call with
    // 'Invocation timeout (Infinity ms) reached'. waitTimeoutMs it counts
    // against a poll: any number works there, Infinity included.
    test("a methodResponseTimeoutMs setTimeout cannot hold is refused, naming the range; waitTimeoutMs takes any", async () => {
        const bus = new FakeBus();
        await bus.connect("a").register({ name: "Echo" }, (args) => args);
        const io = fakeIo(bus.connect("copilot"));
        for (const ms of [Infinity, 2 ** 31]) {
            assert.throws(() => ioc.fromIoConnect(io, { methodResponseTimeoutMs: ms }), {
                name: "TypeError",
                message: `fromIoConnect: options.methodResponseTimeoutMs: expected a positive number of milliseconds, at most 2147483647 (setTimeout's limit, about 24.8 days), got ${ms}`,
            });
        }
        const s = ioc.fromIoConnect(io, { methodResponseTimeoutMs: 2 ** 31 - 1, waitTimeoutMs: Infinity });
        try {
            assert.equal(s.tools.length, 1);
            assert.deepEqual(await s.tools[0].execute({ x: 1 }, {}), { x: 1 });
        } finally {
            s.close();
        }
    });

    test("trusted: flags' hints are taken at their word", () => {
        const bus = new FakeBus();
        const host = bus.connect("copilot");
        bus.connect("a").register({ name: "Read", flags: { readOnlyHint: true } }, () => 1);
        const s = ioc.fromIoConnect(fakeIo(host), { trusted: true });
        assert.equal(s.tools[0].annotations.untrusted, false);
        assert.equal(s.tools[0].annotations.readOnlyHint, true);
        s.close();
    });
});
