// A small W3C WebDriver (classic) client for Debian's WebKitGTK: it starts
// Xvfb (WebKitGTK's MiniBrowser has no headless mode), WebKitWebDriver and a
// MiniBrowser session, and gives the tests the part of puppeteer's Page they
// use (goto, evaluate, waitForFunction, on("pageerror"), close), so that the
// Firefox suite's cases run in WebKit's engine too (JavaScriptCore, Safari's).
// Playwright's WebKit is a patched build it downloads; this drives the one
// the distribution ships.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER || "/usr/bin/WebKitWebDriver";
export const MINIBROWSER = process.env.MINIBROWSER || "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
const XVFB = process.env.XVFB || "/usr/bin/Xvfb";

// checkWebKit names the Debian package of whatever is missing.
export function checkWebKit() {
    const missing = [
        [WEBKIT_DRIVER, "webkit2gtk-driver"],
        [MINIBROWSER, "libwebkit2gtk-4.1-0"],
        [XVFB, "xvfb"],
    ].filter(([file]) => !existsSync(file));
    if (missing.length > 0) {
        throw new Error(
            `WebKitGTK is missing (${missing.map(([f]) => f).join(", ")}): apt-get update && apt-get install -y ${missing.map(([, p]) => p).join(" ")} ` +
                "(or set WEBKIT_DRIVER, MINIBROWSER, XVFB)",
        );
    }
}

const freePort = () =>
    new Promise((res, rej) => {
        const s = createServer();
        s.on("error", rej);
        s.listen(0, "127.0.0.1", () => {
            const { port } = s.address();
            s.close(() => res(port));
        });
    });

// stop ends a child this file started and waits for its exit.
const stop = (child) =>
    new Promise((res) => {
        if (!child || child.exitCode !== null || child.signalCode !== null) return res();
        child.once("exit", () => res());
        child.kill("SIGTERM");
    });

// The page's uncaught errors and rejections, kept until the driver reads
// them: installed after each navigation (WebDriver classic has no script
// that runs before the page's own).
const LISTEN = `if (!window.__webdriverProblems) {
    window.__webdriverProblems = [];
    addEventListener("error", (e) => window.__webdriverProblems.push(String(e.message || e.error)));
    addEventListener("unhandledrejection", (e) => window.__webdriverProblems.push(String((e.reason && e.reason.message) || e.reason)));
}`;

// The script of execute/async: it runs the expression or the function's
// call, and answers { value } or { error }; as JSON, so that undefined
// inside arrays reads as null, as in puppeteer.
const wrap = (body) => `const done = arguments[arguments.length - 1];
const args = Array.prototype.slice.call(arguments, 0, -1);
${LISTEN}
Promise.resolve().then(() => ${body}).then(
    (value) => done(JSON.stringify({ value: value === undefined ? null : value, problems: window.__webdriverProblems.splice(0) })),
    (e) => done(JSON.stringify({ error: String((e && e.message) || e), problems: window.__webdriverProblems.splice(0) })),
);`;

export async function launchWebKit() {
    checkWebKit();
    const xvfb = spawn(XVFB, ["-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"], { stdio: ["ignore", "pipe", "pipe"] });
    const display = await new Promise((res, rej) => {
        xvfb.stdout.once("data", (d) => res(`:${String(d).trim()}`));
        xvfb.once("exit", (code) => rej(new Error(`Xvfb exited (${code})`)));
    });
    const port = await freePort();
    // WebKitGTK gives a cross-origin isolated page no SharedArrayBuffer
    // unless JavaScriptCore is told to (Safari gives one): with it the
    // isolated page's abort flag runs as in Safari.
    const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`], { stdio: "ignore", env: { ...process.env, DISPLAY: display, JSC_useSharedArrayBuffer: "1" } });
    // A test process that ends without its after() hook (an uncaught
    // error, process.exit) still ends the driver, its browser and Xvfb,
    // which would otherwise outlive it (seen after a killed run).
    const reap = () => {
        driver.kill();
        xvfb.kill();
    };
    process.once("exit", reap);
    const base = `http://127.0.0.1:${port}`;
    const call = async (method, path, body) => {
        const r = await fetch(base + path, { method, headers: { "content-type": "application/json" }, body: body && JSON.stringify(body) });
        const { value } = await r.json();
        if (value?.error) throw new Error(`WebDriver ${method} ${path}: ${value.error}: ${value.message}`);
        return value;
    };
    let session;
    for (let i = 0; ; i++) {
        try {
            session = await call("POST", "/session", {
                capabilities: { alwaysMatch: { "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] } } },
            });
            break;
        } catch (e) {
            // The driver listens a moment after it starts.
            if (i >= 100 || !/fetch failed/.test(e.message)) {
                process.off("exit", reap);
                await stop(driver);
                await stop(xvfb);
                throw e;
            }
            await new Promise((r) => setTimeout(r, 100));
        }
    }
    const at = `/session/${session.sessionId}`;
    await call("POST", `${at}/timeouts`, { script: 600000 });
    const first = await call("GET", `${at}/window`);
    // The session has one current window and frame: each step that
    // switches them and runs a command holds them until it is done.
    let current = first;
    let queue = Promise.resolve();
    const exclusive = (/** @type {() => Promise<any>} */ step) => {
        const done = queue.then(step);
        queue = done.catch(() => {});
        return done;
    };
    const use = async (handle) => {
        if (current !== handle) await call("POST", `${at}/window`, { handle });
        current = handle;
    };
    return {
        version: session.capabilities.browserVersion,
        async newPage() {
            // The session's first window stays open (closing the last one
            // ends the session); each page is a window of its own: a new
            // tab is hidden behind it (visibilityState "hidden": no
            // requestAnimationFrame, throttled timers).
            const { handle } = await exclusive(() => call("POST", `${at}/window/new`, { type: "window" }));
            const listeners = [];
            const report = (problems) => problems.forEach((p) => listeners.forEach((f) => f(new Error(p))));
            // Runs body in the page, or in its frame'th iframe (a child of
            // the page's document).
            const run = (body, args, frame) =>
                exclusive(async () => {
                    await use(handle);
                    if (frame !== undefined) await call("POST", `${at}/frame`, { id: frame });
                    try {
                        const out = JSON.parse(await call("POST", `${at}/execute/async`, { script: wrap(body), args }));
                        report(out.problems);
                        if ("error" in out) throw new Error(out.error);
                        return out.value;
                    } finally {
                        if (frame !== undefined) await call("POST", `${at}/frame`, { id: null });
                    }
                });
            const evaluate = (frame) => (fn, ...args) => run(typeof fn === "string" ? `(${fn})` : `(${fn}).apply(null, args)`, args, frame);
            // puppeteer's frames() answers at once: this one answers with the
            // iframes seen at its last call, and looks again for the next.
            let frames = [];
            const page = {
                on(event, f) {
                    if (event === "pageerror") listeners.push(f);
                },
                async goto(url) {
                    await exclusive(async () => {
                        await use(handle);
                        await call("POST", `${at}/url`, { url });
                    });
                    await run("undefined", []);
                },
                evaluate: evaluate(undefined),
                frames() {
                    run(`Array.from(document.querySelectorAll("iframe"), (f) => f.src)`, []).then(
                        (urls) => (frames = urls.map((u, i) => ({ url: () => u, evaluate: evaluate(i) }))),
                        () => {},
                    );
                    return frames;
                },
                async waitForFunction(fn, { timeout = 30000 } = {}) {
                    const end = Date.now() + timeout;
                    while (!(await page.evaluate(fn))) {
                        if (Date.now() > end) throw new Error(`waitForFunction: ${fn} was still false after ${timeout} ms`);
                        await new Promise((r) => setTimeout(r, 100));
                    }
                },
                close: () =>
                    exclusive(async () => {
                        await use(handle);
                        await call("DELETE", `${at}/window`);
                        // New windows are opened from a live current one.
                        current = undefined;
                        await use(first);
                    }),
            };
            return page;
        },
        async close() {
            try {
                await call("DELETE", at);
            } finally {
                process.off("exit", reap);
                await stop(driver);
                await stop(xvfb);
            }
        },
    };
}
