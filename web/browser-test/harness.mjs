// Shared harness of the browser tests: the demo's Go file server on a free
// port, a server of in-memory pages and dist/ for the others, headless Debian Chromium driven by playwright-core, and a page
// wrapper that collects every uncaught error and console error.

import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { after, before } from "node:test";
import { chromium } from "playwright-core";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const SCREENSHOTS = join(ROOT, "screenshots");
export const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

// The engine's mode for the pages of these suites: the browser default
// (a Worker), or with CODE_MODE_WORKER=0 the page's own thread; `make
// test-browser` runs the suites both ways. MODE_QUERY is the demo's switch,
// MODE_OPTION the config entry the test pages spread into their factories.
export const IN_THREAD = process.env.CODE_MODE_WORKER === "0";
export const MODE_QUERY = IN_THREAD ? "?worker=0" : "";
export const MODE_OPTION = IN_THREAD ? "{ worker: false }" : "{}";

// A page opened from a file (a double-clicked index.html), laid out as
// USAGE's "Loading" says for the classic script: the package's four files in
// vendor/code-mode/ beside it. Its __run() makes a factory in each mode and
// runs a tool: { true: result or error message, false: ... }. remove()
// deletes the folder.
export function filePage() {
    const dir = mkdtempSync(join(tmpdir(), "code-mode-file-page-"));
    mkdirSync(join(dir, "vendor", "code-mode"), { recursive: true });
    for (const f of ["code-mode.global.js", "code-mode.worker.mjs", "code-mode.wasm", "emscripten-module.wasm"]) {
        copyFileSync(join(ROOT, "dist", f), join(dir, "vendor", "code-mode", f));
    }
    writeFileSync(join(dir, "index.html"), `<!doctype html><meta charset="utf-8"><title>file</title>
<script src="vendor/code-mode/code-mode.global.js"></script>
<script>
window.__run = async () => {
    const out = {};
    for (const worker of [true, false]) {
        try {
            const api = await IoCodeModeFactory({ wasmLocation: "vendor/code-mode/emscripten-module.wasm", worker, tools: [{ name: "add", execute: ({ a, b }) => a + b }] });
            out[worker] = (await api.createSession().getLlmTools()[1].execute({ code: "return await tools.add({ a: 2, b: 40 })", explanation: "x" })).result;
            api.dispose();
        } catch (e) {
            out[worker] = e.message;
        }
    }
    return out;
};
window.__ready = true;
</script>`);
    return { url: pathToFileURL(join(dir, "index.html")).href, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// How the factory's errors end on a file: page where the browser refuses it.
export const SERVE_THE_FOLDER =
    /; a page opened from a file cannot load Code Mode in this browser \(Chromium and WebKit fetch no file: URL for it and start no Worker from one, so worker: false fails too\): serve its folder over HTTP \(npx serve, python3 -m http\.server\) and open the page from http:\/\/localhost$/;

// The page's own error: checked before anything starts, so that a machine
// without Chromium or without dist/ says what to do.
export function checkPrerequisites() {
    if (!existsSync(CHROMIUM)) {
        throw new Error(
            `Chromium is missing (${CHROMIUM}). The browser tests drive Debian's Chromium: ` +
                "install it with `apt-get update && apt-get install -y chromium` (or set CHROMIUM=/path/to/chromium).",
        );
    }
    for (const f of ["index.mjs", "code-mode.wasm", "emscripten-module.wasm"]) {
        if (!existsSync(join(ROOT, "dist", f))) {
            throw new Error(`dist/${f} is missing: run \`make build\` first (\`make test-browser\` does).`);
        }
    }
}

// startServer builds scripts/serve and runs it on 127.0.0.1:0; resolves
// with { url, stop }.
export async function startServer() {
    const dir = mkdtempSync(join(tmpdir(), "codemode-serve-"));
    const bin = join(dir, "serve");
    const go = process.env.GO || "go";
    const build = spawnSync(go, ["build", "-o", bin, "./scripts/serve"], { cwd: ROOT, encoding: "utf8" });
    if (build.error) throw new Error(`cannot run ${go}: ${build.error.message} (set GO=/path/to/go)`);
    if (build.status !== 0) throw new Error(`go build ./scripts/serve failed:\n${build.stderr}`);

    const child = spawn(bin, ["-addr", "127.0.0.1:0", "-root", ROOT], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const url = await new Promise((res, rej) => {
        let out = "";
        const timer = setTimeout(() => rej(new Error(`the demo server did not start in 20 s:\n${out}${stderr}`)), 20000);
        child.stdout.on("data", (d) => {
            out += d;
            const m = out.match(/Code Mode demo: (http:\/\/\S+)/);
            if (m) {
                clearTimeout(timer);
                res(m[1]);
            }
        });
        child.on("exit", (code) => {
            clearTimeout(timer);
            rej(new Error(`the demo server exited (${code}):\n${out}${stderr}`));
        });
    });
    return {
        url,
        stderr: () => stderr,
        stop: () =>
            new Promise((res) => {
                if (child.exitCode !== null) return res();
                child.once("exit", () => {
                    rmSync(dir, { recursive: true, force: true });
                    res();
                });
                child.kill("SIGTERM");
            }),
    };
}

const TYPES = { ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };

// servePages serves test pages from memory (pages: path -> HTML) and the
// files of dist/ on 127.0.0.1:0, for tests that need the package but not
// the demo; resolves with { base, close }.
export async function servePages(pages) {
    const server = createServer((req, res) => {
        const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
        if (Object.hasOwn(pages, path)) {
            res.writeHead(200, { "content-type": "text/html" });
            return res.end(pages[path]);
        }
        const file = normalize(join(ROOT, path));
        if (!path.startsWith("/dist/") || !file.startsWith(join(ROOT, "dist")) || !existsSync(file)) {
            res.writeHead(404);
            return res.end();
        }
        res.writeHead(200, { "content-type": TYPES[extname(file)] || "application/octet-stream" });
        res.end(readFileSync(file));
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    return { base: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

// servePolicyPages serves, on 127.0.0.1:0, each page or script of files
// (name -> (query) => body) and the files of dist/ below a first path
// segment that names one of policies (name -> the Content-Security-Policy
// header sent with every response, "" for none), with CORS for pages of
// another origin, and the headers of headers[policy] if any (null leaves
// one out); resolves with { port, close }.
export async function servePolicyPages(policies, files, headers = {}) {
    const server = createServer((req, res) => {
        const url = new URL(req.url, "http://x");
        const [, policy, ...rest] = decodeURIComponent(url.pathname).split("/");
        const path = rest.join("/");
        const sent = { "access-control-allow-origin": "*", ...(Object.hasOwn(headers, policy) ? headers[policy] : {}) };
        for (const name of Object.keys(sent)) if (sent[name] === null) delete sent[name];
        if (policies[policy]) sent["content-security-policy"] = policies[policy];
        let body;
        if (Object.hasOwn(policies, policy) && Object.hasOwn(files, path)) body = files[path](url.searchParams);
        else if (Object.hasOwn(policies, policy) && path.startsWith("dist/")) {
            const file = normalize(join(ROOT, path));
            if (file.startsWith(join(ROOT, "dist")) && existsSync(file)) body = readFileSync(file);
        }
        if (body === undefined) {
            res.writeHead(404, sent);
            return res.end();
        }
        res.writeHead(200, { ...sent, "content-type": TYPES[extname(path)] || "application/octet-stream" });
        res.end(body);
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    return { port: server.address().port, close: () => new Promise((r) => server.close(r)) };
}

// usePage serves one in-memory page (servePages) to a Chromium tab that
// lives for the test file: it registers the file's before and after hooks,
// and returns { page, problems }, filled once before has run. problems
// collects the page's uncaught errors.
export function usePage(html) {
    const held = { page: undefined, problems: [] };
    let server;
    let browser;
    before(async () => {
        checkPrerequisites();
        server = await servePages({ "/page.html": html });
        browser = await launchBrowser();
        held.page = await browser.newPage();
        held.page.on("pageerror", (e) => held.problems.push(e.message));
        await held.page.goto(`${server.base}/page.html`);
    });
    after(async () => {
        await browser?.close();
        await server?.close();
    });
    return held;
}

export async function launchBrowser() {
    return chromium.launch({
        executablePath: CHROMIUM,
        args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    });
}

// openPage opens the demo in a fresh context. problems collects every
// uncaught page error and console error; the test checks it is empty at the
// end (expected ones are taken out explicitly with expectConsoleError).
export async function openPage(browser, url, { width = 1440, height = 900 } = {}) {
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (err) => problems.push(`pageerror: ${err.stack || err.message}`));
    page.on("console", (msg) => {
        if (msg.type() === "error") problems.push(`console.error: ${msg.text()}`);
    });
    page.on("crash", () => problems.push("the page crashed"));
    await page.goto(url);
    await page.locator('#engine-status[data-state="ready"]').waitFor({ timeout: 30000 });
    return {
        page,
        problems,
        // Removes the one expected console error matching re; fails if absent.
        expectConsoleError(re) {
            const i = problems.findIndex((p) => p.startsWith("console.error: ") && re.test(p));
            if (i < 0) throw new Error(`expected a console error matching ${re}; got ${JSON.stringify(problems)}`);
            problems.splice(i, 1);
        },
        close: () => context.close(),
    };
}

export async function screenshot(page, name, opts = {}) {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const path = join(SCREENSHOTS, `${name}.png`);
    await page.screenshot({ path, ...opts });
    return path;
}

// ------------------------------------------------------------ page actions

export async function pickProgram(page, id) {
    await page.selectOption("#program", id);
}

// run clicks Run and waits for the run to end; returns its final state.
export async function runAndWait(page, { timeout = 30000 } = {}) {
    const before = await page.locator("#run-status").count() ? await page.locator(".trace-head h3").textContent() : "";
    await page.click("#run");
    await page.waitForFunction(
        (prev) => {
            const s = document.querySelector("#run-status");
            const h = document.querySelector(".trace-head h3");
            return s && h && h.textContent !== prev && s.dataset.state !== "running";
        },
        before,
        { timeout },
    );
    return page.locator("#run-status").getAttribute("data-state");
}

export async function applySettings(page, { timeout, memoryLimit }) {
    if (!(await page.locator("#settings").evaluate((d) => d.open))) await page.click("#settings > summary");
    if (timeout !== undefined) await page.fill("#set-timeout", String(timeout));
    if (memoryLimit !== undefined) await page.fill("#set-memory", String(memoryLimit));
    await page.click("#apply-settings");
    await page.locator("#settings-message", { hasText: "Applied" }).waitFor({ timeout: 30000 });
    await page.locator('#engine-status[data-state="ready"]').waitFor();
}

export const text = (page, sel) => page.locator(sel).innerText();
