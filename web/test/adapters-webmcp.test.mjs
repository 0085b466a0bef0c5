// @interopio/code-mode/webmcp in Node.js, against a model context that
// answers as @mcp-b/webmcp-polyfill's does (executeTool gives the JSON of
// what the tool's execute returned, String() of anything else). The real
// polyfill runs in Chromium: web/browser-test/webmcp.test.mjs.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, loadFactory } from "./helpers.mjs";
import { loadAdapter, until } from "./adapter-helpers.mjs";

let IoCodeModeFactory, webmcp;
before(async () => {
    IoCodeModeFactory = await loadFactory();
    webmcp = await loadAdapter("webmcp");
});

/** A WebMCP model context holding tools, serialising results as the polyfill does. */
function modelContext(tools) {
    const ctx = new EventTarget();
    ctx.getTools = async () => tools.map(({ execute, ...t }) => ({ ...t, origin: "x", window: null }));
    ctx.registerTool = async () => {};
    ctx.executeTool = async (tool, json) => {
        const value = await tools.find((t) => t.name === tool.name).execute(JSON.parse(json));
        return (typeof value === "object" && value !== null && JSON.stringify(value)) || String(value);
    };
    return ctx;
}

const text = (t) => ({ content: [{ type: "text", text: t }] });

// WebMCP tools return MCP's tool result ({ content: [{ type: "text", text }] },
// isError, structuredContent), as the WebMCP explainer and Playwright's
// callTool describe them: the program gets the data, and an isError result
// fails the call, as fromMcpClient's do.
test("a WebMCP tool's MCP-style result reaches the program as its data; isError fails the call", async () => {
    const ctx = modelContext([
        { name: "cart_add", description: "Add to the cart.", execute: ({ sku }) => text(JSON.stringify({ added: sku })) },
        { name: "title", description: "The title.", execute: () => text("Shop") },
        { name: "stock", description: "Stock.", execute: () => ({ isError: true, content: [{ type: "text", text: "out of stock" }] }) },
        { name: "count", description: "Count.", execute: () => ({ content: [{ type: "text", text: "3 items" }], structuredContent: { n: 3 } }) },
        { name: "two", description: "Two blocks.", execute: () => ({ content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }) },
        { name: "plain", description: "Plain data.", execute: () => ({ title: "Shop", content: [{ type: "text", text: "not a result: another key" }] }) },
        { name: "words", description: "A string.", execute: () => "hello" },
    ]);
    const api = await IoCodeModeFactory({ wasmLocation: assetPath });
    try {
        const source = await webmcp.fromWebMcp({ modelContext: ctx });
        source.registerTools(api);
        const [, executeCode] = api.createSession().getLlmTools();
        const r = await executeCode.execute({
            code: `const w = tools.webmcp, out = {};
                out.cart = await w.cart_add({ sku: "A1" });
                out.title = await w.title({});
                try { await w.stock({}); out.stock = "no error"; } catch (e) { out.stock = e.message; }
                out.count = await w.count({});
                out.two = await w.two({});
                out.plain = await w.plain({});
                out.words = await w.words({});
                return out;`,
            explanation: "x",
        });
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(r.result, {
            cart: { added: "A1" },
            title: "Shop",
            stock: "out of stock",
            count: { n: 3 },
            two: [{ type: "text", text: "a" }, { type: "text", text: "b" }],
            plain: { title: "Shop", content: [{ type: "text", text: "not a result: another key" }] },
            words: "hello",
        });
        assert.deepEqual(
            r.toolCalls.map((c) => [c.name, c.ok]),
            [["webmcp.cart_add", true], ["webmcp.title", true], ["webmcp.stock", false], ["webmcp.count", true], ["webmcp.two", true], ["webmcp.plain", true], ["webmcp.words", true]],
        );
        source.close();
    } finally {
        api.dispose();
    }
});

// A context that answers getTools() later than the page registers a tool
// and fires toolchange (native WebMCP queues both as tasks): the event
// came before fromWebMcp listened, and the tool was never listed.
test("a tool registered while the first getTools() runs is listed; a failing first listing follows nothing", async () => {
    const tools = [{ name: "a", description: "A.", execute: () => 1 }];
    const ctx = modelContext(tools);
    const list = ctx.getTools;
    let first = true;
    ctx.getTools = async () => {
        const snapshot = await list();
        if (first) {
            first = false;
            tools.push({ name: "b", description: "B.", execute: () => 2 });
            ctx.dispatchEvent(new Event("toolchange"));
        }
        return snapshot;
    };
    const source = await webmcp.fromWebMcp({ modelContext: ctx });
    await until(() => source.tools.some((t) => t.name === "webmcp.b"), "webmcp.b, registered during the first listing");
    assert.deepEqual(source.tools.map((t) => t.name), ["webmcp.a", "webmcp.b"]);
    source.close();
    // A given namespace's dots are steps (they were made "_": "page.shop" gave page_shop.a).
    const dotted = await webmcp.fromWebMcp({ modelContext: ctx, namespace: "page.shop" });
    assert.deepEqual(dotted.tools.map((t) => t.name), ["page.shop.a", "page.shop.b"]);
    dotted.close();

    const broken = modelContext([]);
    let listeners = 0;
    const add = broken.addEventListener.bind(broken);
    const remove = broken.removeEventListener.bind(broken);
    broken.addEventListener = (...a) => (listeners++, add(...a));
    broken.removeEventListener = (...a) => (listeners--, remove(...a));
    broken.getTools = async () => {
        throw new Error("getTools is down");
    };
    await assert.rejects(webmcp.fromWebMcp({ modelContext: broken }), /getTools is down/);
    assert.equal(listeners, 0);
});

// Chromium's native WebMCP may list and run tools only through
// navigator.modelContextTesting (listTools(), executeTool(name, json),
// toolchange; @mcp-b/webmcp-types' ModelContextTesting): fromWebMcp threw
// 'getTools and executeTool are missing'. The polyfill's own shim of it runs
// in Chromium: web/browser-test/webmcp.test.mjs.
test("a ModelContextTesting (listTools, executeTool by name) serves as the model context", async () => {
    const tools = [{ name: "cart.total", description: "The cart's total.", inputSchema: JSON.stringify({ type: "object", properties: { currency: { type: "string" } } }), execute: ({ currency }) => ({ total: 12, currency }) }];
    const testing = new EventTarget();
    testing.listTools = () => tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
    testing.executeTool = async (name, json) => JSON.stringify(await tools.find((t) => t.name === name).execute(JSON.parse(json)));
    const api = await IoCodeModeFactory({ wasmLocation: assetPath });
    try {
        const source = await webmcp.fromWebMcp({ modelContext: testing });
        source.registerTools(api);
        assert.deepEqual(source.tools[0].inputSchema, { type: "object", properties: { currency: { type: "string" } } });
        const [, executeCode] = api.createSession().getLlmTools();
        let r = await executeCode.execute({ code: `return await tools.webmcp.cart.total({ currency: "EUR" })`, explanation: "x" });
        assert.deepEqual(r.result, { total: 12, currency: "EUR" }, JSON.stringify(r.error));
        tools.push({ name: "late", description: "Late.", execute: () => 7 });
        testing.dispatchEvent(new Event("toolchange"));
        await until(() => api.listTools().some((t) => t.name === "webmcp.late"), "webmcp.late after toolchange");
        r = await executeCode.execute({ code: `return await tools.webmcp.late({})`, explanation: "x" });
        assert.equal(r.result, 7);
        source.close();
    } finally {
        api.dispose();
    }
});

// Chromium's own WebMCP (156) takes executeTool's input as an object and
// refuses its JSON with a TypeError: every call failed. Its tools say
// consequentialHint (the user should confirm), and it hands a tool's
// execute a client with the agent call's signal. Chromium itself runs in
// web/browser-test/webmcp.test.mjs.
test("Chromium's own WebMCP: input as an object, consequentialHint, and the agent's signal ends the run", async () => {
    const registered = new Map();
    const calls = [];
    let held = false;
    const ctx = new EventTarget();
    const page = [
        { name: "order.status", description: "Status.", annotations: { readOnlyHint: true }, execute: ({ id }) => ({ id, status: "shipped" }) },
        { name: "order.pay", description: "Pays.", annotations: { readOnlyHint: true, consequentialHint: true }, execute: () => "paid" },
        { name: "hold", description: "Never answers.", annotations: { readOnlyHint: true }, execute: () => ((held = true), new Promise(() => {})) },
    ];
    ctx.getTools = async () => page.map(({ execute, ...t }) => ({ ...t, origin: "x", window: null }));
    ctx.registerTool = async (tool, { signal } = {}) => {
        registered.set(tool.name, tool);
        signal?.addEventListener("abort", () => registered.delete(tool.name));
    };
    ctx.executeTool = async (tool, input) => {
        calls.push(typeof input);
        if (input === null || typeof input !== "object") throw new TypeError("Failed to execute 'executeTool' on 'ModelContext': invalid input object: value is not an object");
        return JSON.stringify(await page.find((t) => t.name === tool.name).execute(input));
    };
    const decisions = [];
    const api = await IoCodeModeFactory({
        wasmLocation: assetPath,
        interceptors: {
            onToolCall: ({ tool }) => {
                decisions.push([tool.name, tool.annotations.readOnlyHint, tool.annotations.consequentialHint]);
                return tool.annotations.readOnlyHint ? { allowed: true } : { allowed: false, reason: "needs the user's approval" };
            },
        },
    });
    const source = await webmcp.fromWebMcp({ modelContext: ctx });
    try {
        source.registerTools(api);
        const session = api.createSession();
        const [, executeCode] = session.getLlmTools();
        const r = await executeCode.execute({
            code: `const a = await tools.webmcp.order.status({ id: 7 });
                const b = await tools.webmcp.order.status({ id: 8 });
                let pay; try { pay = await tools.webmcp.order.pay({}); } catch (e) { pay = e.message; }
                return [a, b, pay];`,
            explanation: "x",
        });
        assert.equal(r.ok, true, JSON.stringify(r));
        assert.deepEqual(r.result.slice(0, 2), [{ id: 7, status: "shipped" }, { id: 8, status: "shipped" }]);
        assert.match(r.result[2], /needs the user's approval/);
        // The JSON once, refused; then the object, kept.
        assert.deepEqual(calls, ["string", "object", "object"]);
        assert.deepEqual(decisions, [
            ["webmcp.order.status", true, false],
            ["webmcp.order.status", true, false],
            ["webmcp.order.pay", false, true],
        ]);

        // The agent cancels its call of executeCode: the run ends.
        const unexpose = await webmcp.exposeToWebMcp(session, { modelContext: ctx });
        const agent = new AbortController();
        const pending = registered.get("executeCode").execute({ code: "return await tools.webmcp.hold({})", explanation: "agent" }, { signal: agent.signal });
        await until(() => held, "the page's tool to be called");
        agent.abort(new Error("the agent cancelled"));
        await assert.rejects(pending, /the agent cancelled/);
        // The agent's objects that cannot be read (a revoked Proxy): its
        // input is arguments that are not JSON; its client rejects naming
        // it (both rejected with the Proxy's raw words).
        const p = Proxy.revocable({}, {});
        p.revoke();
        const out = await registered.get("executeCode").execute(p.proxy, {});
        assert.equal(out.error?.code, "INVALID_INPUT", JSON.stringify(out));
        await assert.rejects(registered.get("executeCode").execute({ code: "return 1", explanation: "agent" }, p.proxy), {
            name: "TypeError",
            message: "executeCode: client: cannot be read (Cannot perform 'get' on a proxy that has been revoked)",
        });
        unexpose();
    } finally {
        source.close();
        api.dispose();
    }
});
