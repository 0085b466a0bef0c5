// The demo page (demo/) in Debian's WebKitGTK (Safari's engine), with the
// engine in a Worker and on the page's thread: it starts, and its example
// programs end as in Chromium (web/browser-test/demo.test.mjs): two that
// finish, a hidden tool's refusal, a syntax error, a busy loop's TIMEOUT, the
// memory limit. Run by `make test-webkit`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "../browser-test/harness.mjs";
import { launchWebKit } from "./webdriver.mjs";

let server;
let browser;
before(async () => {
    server = await startServer();
    browser = await launchWebKit();
});
after(async () => {
    await browser?.close();
    await server?.stop();
});

// In the page: picks the program, clicks Run and waits for a new run's end;
// resolves with its state and the error's code and message as shown.
const RUN = async (id) => {
    const $ = (s) => document.querySelector(s);
    const select = $("#program");
    select.value = id;
    select.dispatchEvent(new Event("change", { bubbles: true }));
    const before = $(".trace-head h3")?.textContent ?? "";
    // As Chromium's test's click does: wait for the button to be enabled
    // (the page may show "ready" a moment before it enables Run).
    for (let i = 0; i < 300 && $("#run").disabled; i++) await new Promise((r) => setTimeout(r, 100));
    const disabled = $("#run").disabled;
    $("#run").click();
    // Bounded, to name a run that never ends (the driver's HTTP request
    // would fail first, saying only "fetch failed").
    for (let i = 0; i < 1200; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const state = $("#run-status")?.dataset.state;
        if ($(".trace-head h3")?.textContent !== before && state && state !== "running") {
            return [state, $("#error-code")?.textContent ?? "", $("#error-message")?.textContent ?? ""];
        }
    }
    return ["no end in 120 s", $("#run-status")?.dataset.state, `Run was ${disabled ? "disabled" : "enabled"}; ${$(".trace-head h3")?.textContent}`];
};

for (const [mode, query] of [["worker mode", ""], ["in-thread", "?worker=0"]]) {
    test(`the demo page, ${mode}: ready, and its programs end as in Chromium`, async () => {
        const page = await browser.newPage();
        const problems = [];
        page.on("pageerror", (e) => problems.push(e.message));
        try {
            await page.goto(server.url + query);
            await page.waitForFunction(() => document.querySelector("#engine-status")?.dataset.state === "ready", { timeout: 60000 });
            assert.match(await page.evaluate(() => document.querySelector("#engine-status").textContent), /Sandbox ready · timeout 15 s · memory 64 MB/);
            const ran = {};
            for (const id of ["ship-paid", "search", "admin", "syntax", "loop", "memory"]) {
                const [state, code, message] = await page.evaluate(RUN, id);
                ran[id] = state === "ok" ? "ok" : state === "error" ? `${code}${/unknown tool/i.test(message) ? " (unknown tool)" : ""}` : `${state}: ${code} ${message}`;
            }
            assert.deepEqual(ran, { "ship-paid": "ok", search: "ok", admin: "RUNTIME (unknown tool)", syntax: "SYNTAX", loop: "TIMEOUT", memory: "MEMORY_LIMIT" });
            assert.deepEqual(problems, []);
        } finally {
            await page.close();
        }
    });
}
