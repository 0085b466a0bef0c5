// A page of a throwaway app in Chromium (playwright-core, which downloads no
// browser): opened, waited on for its window.__result, with what went wrong
// on it and the Workers it started. One browser per test process, launched
// on first use. Used by run.test.mjs and web/nextjs-test/run.test.mjs.
import { chromium } from "../../node_modules/playwright-core/index.mjs";

const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
let browser;

/** @param {string} url */
export async function runIn(url) {
    browser ??= await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
    const page = await browser.newPage();
    const problems = [];
    const workers = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("worker", (w) => workers.push(w.url()));
    try {
        await page.goto(url);
        const r = await page.waitForFunction(() => window.__result, null, { timeout: 60000 }).then(() => page.evaluate(() => window.__result));
        return { r, problems, workers };
    } finally {
        await page.close();
    }
}

export async function closeBrowser() {
    await browser?.close();
    browser = undefined;
}
