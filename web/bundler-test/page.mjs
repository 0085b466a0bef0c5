// A page of a throwaway app in Chromium (playwright-core, which downloads no
// browser): opened, waited on for its window.__result, with what went wrong
// on it and the Workers it started. One browser per test process, launched
// on first use. Used by run.test.mjs and web/nextjs-test/run.test.mjs.
// runInExtension: a built extension, loaded into a browser of its own.
import { rmSync } from "node:fs";
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

/**
 * Loads the unpacked extension at ext into a Chromium of its own (a
 * profile that loads it), then calls its background's self.runHere(worker)
 * for each of swModes and opens each of pages (paths of the extension's,
 * whose window.__result is read). { sw: [...], pages: [...] } of
 * { result } or { error }.
 * @param {string} ext
 * @param {(boolean | undefined)[]} swModes
 * @param {string[]} pages
 */
export async function runInExtension(ext, swModes, pages) {
    const profile = `${ext}-profile`;
    const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", `--disable-extensions-except=${ext}`, `--load-extension=${ext}`],
    });
    try {
        const sw = context.serviceWorkers()[0] || (await context.waitForEvent("serviceworker", { timeout: 60000 }));
        const out = { sw: [], pages: [] };
        for (const worker of swModes) out.sw.push(await sw.evaluate((w) => self.runHere(w), worker));
        for (const path of pages) {
            const page = await context.newPage();
            try {
                await page.goto(`chrome-extension://${new URL(sw.url()).host}/${path}`);
                out.pages.push(await page.waitForFunction(() => window.__result, null, { timeout: 60000 }).then(() => page.evaluate(() => window.__result)));
            } finally {
                await page.close();
            }
        }
        return out;
    } finally {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
    }
}
