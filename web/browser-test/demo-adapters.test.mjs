// The demo's adapter: the courier widget offers its tools through WebMCP
// (the pinned polyfill provides document.modelContext in Chromium), the
// copilot consumes them with @interopio/code-mode/webmcp, and the trace
// names where each tool comes from. Run with `make test-browser`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { MODE_QUERY, checkPrerequisites, launchBrowser, openPage, pickProgram, runAndWait, screenshot, startServer, text } from "./harness.mjs";

let server, browser;
before(async () => {
    checkPrerequisites();
    server = await startServer();
    browser = await launchBrowser();
});
after(async () => {
    await browser?.close();
    await server?.stop();
});

async function withPage(fn) {
    const p = await openPage(browser, server.url + MODE_QUERY);
    try {
        await fn(p.page);
        assert.deepEqual(p.problems, [], "the page had errors");
    } finally {
        await p.close();
    }
}

test("the widget's WebMCP tools run next to the desk's, and the trace names each source", async () => {
    await withPage(async (page) => {
        assert.match(await text(page, "#tool-summary"), /plus 2 tools the courier widget offers through WebMCP \(tools\.webmcp\.\*\)/);
        await pickProgram(page, "pickups");
        assert.equal(await runAndWait(page), "ok");
        assert.deepEqual(JSON.parse(await text(page, "#trace-result")), [
            { order: "SO-1008", city: "Ghent", pickup: "2026-12-03 10:00" },
            { order: "SO-1005", city: "Utrecht", pickup: "2026-12-02 11:00" },
            { order: "SO-1003", city: "Tallinn", pickup: "2026-12-05 08:00" },
            { order: "SO-1001", city: "Rotterdam", pickup: "2026-12-02 09:00" },
        ]);
        assert.match(await text(page, "#trace-logs"), /found: webmcp\.courier\.pickupSlots/);
        const slots = page.locator('#trace-calls > li[data-name="webmcp.courier.pickupSlots"]');
        assert.equal(await slots.count(), 4);
        assert.equal(await page.locator('#trace-calls > li[data-name="webmcp.courier.pickupSlots"][data-source="webmcp"][data-state="done"]').count(), 4);
        assert.match(await slots.first().innerText(), /webmcp[\s\S]*allowed by policy/);
        assert.equal(await page.locator('#trace-calls > li[data-name="orders.list"][data-source="page"]').count(), 1);
        assert.equal(await page.locator('#trace-calls > li[data-name="customers.get"][data-source="page"]').count(), 4);
        await screenshot(page, "20-webmcp-widget-trace");
    });
});

test("a widget tool that is not read-only goes to the approval dialog", async () => {
    await withPage(async (page) => {
        await page.fill("#code", 'return await tools.webmcp.courier.bookPickup({ orderId: "SO-1001", city: "Rotterdam", slot: "2026-12-02 09:00" });');
        await page.click("#run");
        const dialog = page.locator("dialog#approval");
        await dialog.waitFor({ state: "visible" });
        assert.equal(await text(page, "#approval-tool"), "webmcp.courier.bookPickup");
        await page.click("#approval-approve");
        await dialog.waitFor({ state: "hidden" });
        await page.locator('#run-status[data-state="ok"]').waitFor();
        assert.deepEqual(JSON.parse(await text(page, "#trace-result")), { pickup: "PU-1001", orderId: "SO-1001", city: "Rotterdam", slot: "2026-12-02 09:00" });
        assert.match(await text(page, '#trace-calls > li[data-name="webmcp.courier.bookPickup"]'), /webmcp[\s\S]*approved by you/);
    });
});

test("a browser agent drives the copilot through WebMCP", async () => {
    await withPage(async (page) => {
        const out = await page.evaluate(async () => {
            const tools = await document.modelContext.getTools();
            const exec = tools.find((t) => t.name === "executeCode");
            const res = await document.modelContext.executeTool(exec, JSON.stringify({ code: "return (await tools.orders.list({ status: 'paid' })).length", explanation: "count" }));
            return { names: tools.map((t) => t.name).sort(), res: JSON.parse(res) };
        });
        assert.deepEqual(out.names, ["courier.bookPickup", "courier.pickupSlots", "executeCode", "searchTools"]);
        assert.equal(out.res.ok, true);
        assert.equal(out.res.result, 4);
    });
});

test("the demo's agent loop (through @interopio/code-mode/llm) survives a malformed call and an unknown tool", async () => {
    await withPage(async (page) => {
        const requests = [];
        const base = new URL("/mock-model/v1", server.url).href;
        const call = (id, name, args) => ({ id, type: "function", function: { name, arguments: args } });
        await page.route(`${base}/chat/completions`, async (route) => {
            requests.push(route.request().postDataJSON());
            const reply =
                requests.length === 1
                    ? { role: "assistant", content: null, tool_calls: [call("c1", "executeCode", '{"code": "return 1'), call("c2", "orders.list", "{}")] }
                    : requests.length === 2
                      ? { role: "assistant", content: null, tool_calls: [call("c3", "executeCode", JSON.stringify({ code: "return (await tools.orders.list({ status: 'paid' })).length", explanation: "Count paid orders." }))] }
                      : { role: "assistant", content: "4 paid orders." };
            await route.fulfill({ json: { id: "x", object: "chat.completion", choices: [{ index: 0, message: reply, finish_reason: "stop" }] } });
        });
        await page.click("#connect > summary");
        await page.fill("#agent-base", base);
        await page.fill("#agent-model", "test-model");
        await page.click("#agent-run");
        await page.locator("#agent-steps .step-answer").waitFor();
        assert.match(await text(page, "#agent-steps"), /4 paid orders\./);
        const results = requests[1].messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, JSON.parse(m.content).error?.code]);
        assert.deepEqual(results, [
            ["c1", "INVALID_INPUT"],
            ["c2", "UNKNOWN_TOOL"],
        ]);
        assert.equal(JSON.parse(requests[2].messages.at(-1).content).result, 4);
        assert.deepEqual(requests[0].tools.map((t) => t.function.name), ["searchTools", "executeCode"]);
    });
});
