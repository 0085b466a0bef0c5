// Browser tests of the demo page (demo/), in headless Chromium, through
// what the page shows: tables, the trace, the approval dialog, the editor.
// Run with `make test-browser` (it builds dist/ first).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
    IN_THREAD, MODE_QUERY, applySettings, checkPrerequisites, launchBrowser, openPage, pickProgram, runAndWait, screenshot, startServer, text,
} from "./harness.mjs";

let server;
let browser;
let demoURL;

before(async () => {
    checkPrerequisites();
    server = await startServer();
    demoURL = server.url + MODE_QUERY;
    browser = await launchBrowser();
});

after(async () => {
    await browser?.close();
    await server?.stop();
});

// withPage runs fn on a fresh page and then checks that the page had no
// uncaught errors and logged no console errors.
async function withPage(fn, viewport) {
    const p = await openPage(browser, demoURL, viewport);
    try {
        await fn(p.page, p);
        assert.deepEqual(p.problems, [], "the page had errors");
    } finally {
        await p.close();
    }
}

const orderStatus = (page, id) => page.locator(`#table-orders tr[data-id="${id}"]`).getAttribute("data-status");
// The desk renders a tool's change on the next animation frame, which may
// come after the run's status: an order's status once it shows the one
// expected (or, after 10 s, whatever it shows, for the assertion to name).
const statusOnceShown = (page, id, status) =>
    page
        .locator(`#table-orders tr[data-id="${id}"][data-status="${status}"]`)
        .waitFor({ timeout: 10_000 })
        .then(() => orderStatus(page, id), () => orderStatus(page, id));

describe("demo page", () => {
    test("loads: the desk's tables and the sandbox with the filtered tools", async () => {
        await withPage(async (page) => {
            assert.equal(await page.locator("#table-orders tbody tr").count(), 10);
            assert.match(await text(page, "#engine-status"), /Sandbox ready · timeout 15 s · memory 64 MB/);
            assert.match(await text(page, "#tool-summary"), /20 of 22 are visible/);
            assert.match(await text(page, "#user-id"), /^agent-7$/);
            assert.equal(await page.locator("#program option:not([hidden])").count(), 10);
            assert.match(await page.inputValue("#code"), /tools\.orders\.list/);
            assert.equal(await page.locator("#editor .gutter div").count(), (await page.inputValue("#code")).split("\n").length);
            await screenshot(page, "01-initial");
        });
    });

    test("a multi-step program calls tools, shows its result, and the orders table updates", async () => {
        await withPage(async (page) => {
            assert.equal(await orderStatus(page, "SO-1001"), "paid");
            await pickProgram(page, "ship-paid");
            assert.equal(await runAndWait(page), "ok");
            const result = JSON.parse(await text(page, "#trace-result"));
            assert.deepEqual(result, { shipped: ["SO-1008", "SO-1005", "SO-1001"], waiting: ["SO-1003"] });
            // The table shows what orders.updateStatus did.
            for (const id of result.shipped) assert.equal(await statusOnceShown(page, id, "shipped"), "shipped");
            assert.equal(await orderStatus(page, "SO-1003"), "paid");
            assert.match(await text(page, '#table-orders tr[data-id="SO-1001"]'), /shipped/);
            // The trace: every call, allowed by policy, with the run's context.
            const calls = page.locator("#trace-calls > li");
            assert.equal(await calls.count(), 1 + 4 * 2 + 3);
            assert.equal(await page.locator('#trace-calls > li[data-name="orders.updateStatus"][data-state="done"]').count(), 3);
            assert.match(await page.locator('#trace-calls > li[data-name="orders.updateStatus"]').first().innerText(), /allowed by policy[\s\S]*context\.userId: agent-7/);
            assert.match(await text(page, "#trace-logs"), /4 paid orders/);
            // Tool-made changes are logged with the user from the context.
            await page.click("#tab-notes");
            assert.match(await text(page, "#table-notes"), /agent-7[\s\S]*SO-1001 -> shipped: Shipped by the copilot/);
            await page.click("#tab-orders");
            await screenshot(page, "02-result");
        });
    });

    test("tool_search finds tools with signatures", async () => {
        await withPage(async (page) => {
            await pickProgram(page, "search");
            assert.equal(await runAndWait(page), "ok");
            const result = JSON.parse(await text(page, "#trace-result"));
            assert.ok(result.tools.includes("inventory.lowStock"), JSON.stringify(result));
            assert.ok(result.lowStock.some((s) => s.startsWith("ARM-DUAL")), JSON.stringify(result));
            assert.match(await text(page, "#trace-logs"), /inventory\.lowStock - /);
        });
    });

    test("approval dialog: approve runs the payment", async () => {
        await withPage(async (page) => {
            await pickProgram(page, "refund");
            await page.click("#run");
            const dialog = page.locator("dialog#approval");
            await dialog.waitFor({ state: "visible" });
            assert.equal(await text(page, "#approval-tool"), "payments.refund");
            assert.match(await text(page, "#approval-meta"), /agent-7/);
            assert.deepEqual(JSON.parse(await page.inputValue("#approval-input")), { orderId: "SO-1007", amount: 282, reason: "Damaged in transit" });
            assert.match(await text(page, '#trace-calls > li[data-name="payments.refund"]'), /awaiting approval/);
            assert.match(await text(page, "#approval-countdown"), /The run times out in 1[45] s unless you decide\./);
            await screenshot(page, "03-approval-dialog");
            await page.click("#approval-approve");
            await dialog.waitFor({ state: "hidden" });
            await page.locator('#run-status[data-state="ok"]').waitFor();
            const result = JSON.parse(await text(page, "#trace-result"));
            assert.equal(result.amount, 282);
            assert.equal(result.approvedFor, "agent-7");
            assert.match(await text(page, '#trace-calls > li[data-name="payments.refund"]'), /approved by you/);
            assert.equal(await statusOnceShown(page, "SO-1007", "refunded"), "refunded");
            await page.click("#tab-payments");
            assert.match(await text(page, `#table-payments tr[data-id="${result.refundId}"]`), /refund[\s\S]*282/);
        });
    });

    test("approval dialog: deny with a reason; the reason reaches the error", async () => {
        await withPage(async (page) => {
            await pickProgram(page, "refund");
            await page.click("#run");
            await page.locator("dialog#approval").waitFor({ state: "visible" });
            await page.fill("#approval-reason", "Refunds over 200 EUR need a manager");
            await page.click("#approval-deny");
            await page.locator("dialog#approval").waitFor({ state: "hidden" });
            assert.equal(await runStateWhenDone(page), "error");
            assert.match(await text(page, "#error-message"), /Refunds over 200 EUR need a manager/);
            assert.match(await text(page, '#trace-calls > li[data-name="payments.refund"]'), /denied by you[\s\S]*Refunds over 200 EUR need a manager/);
            assert.equal(await orderStatus(page, "SO-1007"), "delivered");
            // The error line points at the refund call in the editor.
            assert.equal(await page.locator("#editor").getAttribute("data-error-line"), await text(page, "#error-where").then((w) => w.match(/line (\d+)/)?.[1] ?? ""));
        });
    });

    test("approval dialog: edited input is what the tool runs with", async () => {
        await withPage(async (page) => {
            await pickProgram(page, "refund");
            await page.click("#run");
            await page.locator("dialog#approval").waitFor({ state: "visible" });
            await page.fill("#approval-input", "{ not json");
            assert.match(await text(page, "#approval-input-error"), /Not valid JSON/);
            assert.ok(await page.locator("#approval-approve").isDisabled());
            await page.fill("#approval-input", JSON.stringify({ orderId: "SO-1007", amount: 50, reason: "Partial: one lamp damaged" }, null, 2));
            assert.equal(await text(page, "#approval-approve"), "Approve edited input");
            await page.click("#approval-approve");
            await page.locator('#run-status[data-state="ok"]').waitFor();
            const result = JSON.parse(await text(page, "#trace-result"));
            assert.equal(result.amount, 50);
            const call = await text(page, '#trace-calls > li[data-name="payments.refund"]');
            assert.match(call, /approved with edits/);
            assert.match(call, /ran with\s*\{"orderId":"SO-1007","amount":50,"reason":"Partial: one lamp damaged"\}/);
            assert.equal(await orderStatus(page, "SO-1007"), "delivered");
            assert.match(await text(page, '#table-orders tr[data-id="SO-1007"]'), /50\.00 refunded/);
        });
    });

    test("the hidden admin tool is an unknown tool", async () => {
        await withPage(async (page) => {
            await pickProgram(page, "admin");
            assert.equal(await runAndWait(page), "error");
            assert.match(await text(page, "#error-message"), /unknown tool/i);
            assert.match(await text(page, "#error-message"), /admin\.deleteCustomer/);
            assert.match(await text(page, "#trace-logs"), /admin tools found: 0/);
            assert.match(await text(page, "#trace-logs"), /tools\.admin is undefined/);
            assert.equal(await page.locator('#trace-calls > li[data-name="admin.deleteCustomer"][data-state="blocked"]').count(), 1);
            await page.click("#tab-customers");
            assert.equal(await page.locator('#table-customers tr[data-id="C-104"]').count(), 1);
        });
    });

    test("a schema mismatch is reported with the path and the line", async () => {
        await withPage(async (page) => {
            await pickProgram(page, "bad-input");
            assert.equal(await runAndWait(page), "error");
            assert.match(await text(page, "#error-message"), /delta/);
            const line = (await page.inputValue("#code")).split("\n").findIndex((l) => l.includes("tools.inventory.adjust")) + 1;
            assert.match(await text(page, "#error-where"), new RegExp(`^line ${line}\\b`));
            assert.equal(await page.locator("#editor").getAttribute("data-error-line"), String(line));
        });
    });

    test("a syntax error shows its line in the editor's gutter", async () => {
        await withPage(async (page) => {
            await pickProgram(page, "syntax");
            assert.equal(await runAndWait(page), "error");
            assert.equal(await text(page, "#error-code"), "SYNTAX");
            assert.match(await text(page, "#error-where"), /^line 2/);
            assert.equal(await page.locator("#editor .gutter div.error").count(), 1);
            assert.equal(await text(page, "#editor .gutter div.error"), "2");
            assert.ok(await page.locator("#editor .error-band").isVisible());
            await screenshot(page, "04-syntax-error");
            // Editing clears the mark.
            await page.locator("#code").press("End");
            await page.locator("#code").type(" ");
            assert.equal(await page.locator("#editor .gutter div.error").count(), 0);
        });
    });

    test("a timeout ends the run and the page stays usable", async () => {
        await withPage(async (page) => {
            // 5 s: the next run (ship-paid, a dozen tools with simulated
            // backend delays) must fit in the same factory's timeout on a
            // loaded machine too (2 s was close under CI's load).
            await applySettings(page, { timeout: 5000 });
            assert.match(await text(page, "#engine-status"), /timeout 5 s/);
            await pickProgram(page, "loop");
            const t0 = Date.now();
            assert.equal(await runAndWait(page), "error");
            assert.equal(await text(page, "#error-code"), "TIMEOUT");
            assert.ok(Date.now() - t0 < 25000, `the 5 s timeout took ${Date.now() - t0} ms`);
            await screenshot(page, "05-timeout-error");
            // Still usable: the tabs respond and the next run works.
            await page.click("#tab-customers");
            assert.equal(await page.locator("#table-customers tbody tr").count(), 8);
            await page.click("#tab-orders");
            await pickProgram(page, "ship-paid");
            assert.equal(await runAndWait(page), "ok");
            assert.equal(await statusOnceShown(page, "SO-1001", "shipped"), "shipped");
        });
    });

    test("a memory bomb ends with MEMORY_LIMIT and the next run works", async () => {
        await withPage(async (page) => {
            await applySettings(page, { memoryLimit: 32 });
            await pickProgram(page, "memory");
            assert.equal(await runAndWait(page, { timeout: 60000 }), "error");
            assert.equal(await text(page, "#error-code"), "MEMORY_LIMIT");
            await pickProgram(page, "search");
            assert.equal(await runAndWait(page), "ok");
            assert.match(await text(page, "#trace-result"), /inventory\.lowStock/);
        });
    });

    test("the trace follows the run's events: a slow run shows its first call and its console line before it ends", async () => {
        await withPage(async (page) => {
            await pickProgram(page, "slow");
            await page.click("#run");
            await page.locator('#trace-calls > li[data-name="reports.exportLedger"][data-state="running"]').waitFor();
            // The tool takes about 4 s: the run is still going.
            assert.equal(await page.locator("#run-status").getAttribute("data-state"), "running");
            assert.match(await text(page, "#trace-logs"), /Exporting the ledger/);
            assert.match(await text(page, '#trace-calls > li[data-name="reports.exportLedger"]'), /allowed by policy[\s\S]*"format":"csv"/);
            await page.locator('#run-status[data-state="ok"]').waitFor({ timeout: 30000 });
            assert.equal(await page.locator('#trace-calls > li[data-name="reports.exportLedger"][data-state="done"]').count(), 1);
            assert.match(await text(page, '#trace-calls > li[data-name="reports.exportLedger"]'), /result · \{ "format": "csv", "rows": \d+/);
            assert.match(await text(page, "#trace-logs"), /Exporting the ledger[\s\S]*rows/);
        });
    });

    // With the engine in a Worker only: on the page's thread the click
    // cannot be handled before the loop's timeout (the test above).
    if (!IN_THREAD) test("Cancel stops an endless loop at once (engine in a Worker), and the next run works", async () => {
        await withPage(async (page) => {
            await pickProgram(page, "loop");
            await page.click("#run");
            await page.locator('#run-status[data-state="running"]').waitFor();
            await page.waitForTimeout(300);
            // The page answers while the program spins.
            await page.click("#tab-customers");
            assert.equal(await page.locator("#table-customers tbody tr").count(), 8);
            await page.click("#cancel");
            await page.locator('#run-status[data-state="cancelled"]').waitFor({ timeout: 5000 });
            assert.match(await text(page, "#trace-error"), /AbortError[\s\S]*Cancelled by the user/);
            await page.click("#tab-orders");
            await pickProgram(page, "search");
            assert.equal(await runAndWait(page), "ok");
        });
    });

    test("Cancel aborts a run that waits on a slow tool, and the tool's signal", async () => {
        await withPage(async (page) => {
            await pickProgram(page, "slow");
            await page.click("#run");
            await page.locator('#trace-calls > li[data-name="reports.exportLedger"][data-state="running"]').waitFor();
            assert.ok(await page.locator("#run").isDisabled());
            const t0 = Date.now();
            await page.click("#cancel");
            // The tool takes ~4 s: a run it ended would be "ok", not
            // "cancelled", and its call would not read "ended before the
            // tool finished" (below); the bound is only a safety net.
            await page.locator('#run-status[data-state="cancelled"]').waitFor({ timeout: 10000 });
            assert.ok(Date.now() - t0 < 10000);
            assert.match(await text(page, "#trace-error"), /AbortError[\s\S]*Cancelled by the user/);
            // The call ended with the run (its signal aborted).
            await page.locator('#trace-calls > li[data-name="reports.exportLedger"][data-state="failed"]').waitFor({ timeout: 3000 });
            assert.match(await text(page, '#trace-calls > li[data-name="reports.exportLedger"]'), /the run ended before the tool finished \(Cancelled by the user\.\)/);
            assert.ok(await page.locator("#run").isEnabled());
            assert.ok(await page.locator("#cancel").isDisabled());
            await pickProgram(page, "search");
            assert.equal(await runAndWait(page), "ok");
        });
    });

    test("Escape in the approval dialog denies the call", async () => {
        await withPage(async (page) => {
            await pickProgram(page, "refund");
            await page.click("#run");
            await page.locator("dialog#approval").waitFor({ state: "visible" });
            // The dialog is modal; Escape dismisses it, which is a denial.
            await page.keyboard.press("Escape");
            await page.locator("dialog#approval").waitFor({ state: "hidden" });
            assert.equal(await runStateWhenDone(page), "error");
            assert.match(await text(page, "#error-message"), /Dismissed by the reviewer/);
        });
    });

    test("a run that times out while awaiting approval closes the dialog", async () => {
        await withPage(async (page) => {
            await applySettings(page, { timeout: 1500 });
            await pickProgram(page, "refund");
            await page.click("#run");
            await page.locator("dialog#approval").waitFor({ state: "visible" });
            await page.locator("dialog#approval").waitFor({ state: "hidden", timeout: 5000 });
            assert.equal(await runStateWhenDone(page), "error");
            assert.equal(await text(page, "#error-code"), "TIMEOUT");
            assert.equal(await orderStatus(page, "SO-1007"), "delivered");
        });
    });

    test("your own model: the agent loop runs executeCode and shows each step", async () => {
        await withPage(async (page) => {
            const requests = [];
            const base = new URL("/mock-model/v1", demoURL).href;
            await page.route(`${base}/chat/completions`, async (route) => {
                const body = route.request().postDataJSON();
                requests.push({ body, auth: route.request().headers().authorization });
                const reply =
                    requests.length === 1
                        ? {
                              role: "assistant",
                              content: null,
                              tool_calls: [
                                  {
                                      id: "call_1",
                                      type: "function",
                                      function: {
                                          name: "executeCode",
                                          arguments: JSON.stringify({
                                              code: 'const paid = await tools.orders.list({ status: "paid" });\nreturn paid.map((o) => o.id);',
                                              explanation: "List the paid orders.",
                                          }),
                                      },
                                  },
                              ],
                          }
                        : { role: "assistant", content: "There are 4 paid orders: SO-1008, SO-1005, SO-1003 and SO-1001." };
                await route.fulfill({ json: { id: "x", object: "chat.completion", choices: [{ index: 0, message: reply, finish_reason: "stop" }] } });
            });
            await page.click("#connect > summary");
            await page.fill("#agent-base", base);
            await page.fill("#agent-model", "test-model");
            await page.fill("#agent-key", "sk-test-123");
            await page.click("#agent-run");
            await page.locator("#agent-steps .step-answer").waitFor();
            assert.match(await text(page, "#agent-steps"), /There are 4 paid orders/);
            assert.match(await text(page, "#agent-steps"), /executeCode\s*ok\s*List the paid orders\./i);
            assert.equal(await page.inputValue("#code"), 'const paid = await tools.orders.list({ status: "paid" });\nreturn paid.map((o) => o.id);');
            assert.deepEqual(JSON.parse(await text(page, "#trace-result")), ["SO-1008", "SO-1005", "SO-1003", "SO-1001"]);
            // What the model was sent.
            assert.equal(requests.length, 2);
            const first = requests[0].body;
            assert.equal(requests[0].auth, "Bearer sk-test-123");
            assert.equal(first.model, "test-model");
            assert.equal(first.messages[0].role, "system");
            assert.ok(first.messages[0].content.length > 100);
            assert.deepEqual(first.tools.map((t) => [t.type, t.function.name]), [["function", "searchTools"], ["function", "executeCode"]]);
            assert.equal(first.tools[1].function.parameters.type, "object");
            const toolMsg = requests[1].body.messages.at(-1);
            assert.equal(toolMsg.role, "tool");
            assert.equal(toolMsg.tool_call_id, "call_1");
            assert.equal(JSON.parse(toolMsg.content).ok, true);
            await screenshot(page, "06-agent");
        });
    });

    test("your own model: no network gives a readable error in the panel", async () => {
        await withPage(async (page, p) => {
            const base = "http://model.invalid/v1";
            await page.route(`${base}/chat/completions`, (route) => route.abort("internetdisconnected"));
            await page.click("#connect > summary");
            await page.fill("#agent-base", base);
            await page.click("#agent-run");
            await page.locator("#agent-steps .step-error").waitFor();
            assert.match(await text(page, "#agent-steps .step-error"), /Could not reach http:\/\/model\.invalid\/v1\/chat\/completions/);
            assert.ok(await page.locator("#agent-run").isEnabled());
            // Chromium itself logs the failed request; that one is expected.
            p.expectConsoleError(/ERR_INTERNET_DISCONNECTED/);
        });
    });

    test("settings reject bad values without restarting", async () => {
        await withPage(async (page) => {
            await page.click("#settings > summary");
            await page.fill("#set-timeout", "5");
            await page.click("#apply-settings");
            assert.match(await text(page, "#settings-message"), /timeout: 100 to 600000 ms/);
            assert.equal(await page.locator("#set-timeout").getAttribute("aria-invalid"), "true");
            assert.match(await text(page, "#engine-status"), /timeout 15 s/);
        });
    });

    test("a narrow window: one column, no horizontal scrolling", async () => {
        await withPage(
            async (page) => {
                await screenshot(page, "07-narrow-initial");
                const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
                assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
                const desk = await page.locator(".desk").boundingBox();
                const copilot = await page.locator(".copilot").boundingBox();
                assert.ok(copilot.y >= desk.y + desk.height, "the copilot is below the desk");
                await pickProgram(page, "ship-paid");
                assert.equal(await runAndWait(page), "ok");
                const after = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
                assert.ok(after <= 0, `after a run the page scrolls sideways by ${after}px`);
                await page.evaluate(() => window.scrollTo(0, 0));
                await screenshot(page, "08-narrow-full-page", { fullPage: true });
                await page.locator("#trace").scrollIntoViewIfNeeded();
                await page.evaluate(() => document.querySelector(".copilot").scrollIntoView());
                await screenshot(page, "09-narrow-copilot");
                // The approval dialog fits the narrow window.
                await pickProgram(page, "refund");
                await page.click("#run");
                await page.locator("dialog#approval").waitFor({ state: "visible" });
                const box = await page.locator("dialog#approval").boundingBox();
                assert.ok(box.x >= 0 && box.x + box.width <= 390, `the dialog spans ${box.x}..${box.x + box.width}`);
                await screenshot(page, "10-narrow-dialog");
                await page.click("#approval-approve");
                await page.locator('#run-status[data-state="ok"]').waitFor();
            },
            { width: 390, height: 844 },
        );
    });
});

async function runStateWhenDone(page) {
    await page.waitForFunction(() => {
        const s = document.querySelector("#run-status");
        return s && s.dataset.state !== "running";
    });
    return page.locator("#run-status").getAttribute("data-state");
}
