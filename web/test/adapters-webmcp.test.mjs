// @interopio/code-mode/webmcp in Node.js, against a model context that
// answers as @mcp-b/webmcp-polyfill's does (executeTool gives the JSON of
// what the tool's execute returned, String() of anything else). The real
// polyfill runs in Chromium: web/browser-test/webmcp.test.mjs.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, loadFactory } from "./helpers.mjs";
import { loadAdapter } from "./adapter-helpers.mjs";

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
