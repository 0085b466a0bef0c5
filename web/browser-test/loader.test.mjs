// The loader in a real browser (Debian's Chromium through playwright-core):
// the ESM build and the classic-script build, served from 127.0.0.1 by the
// harness's in-memory page server. Checks what Node cannot: the shadow global
// against the browser's receiver-checking Window accessors and methods,
// streaming instantiation, page-relative wasmLocation, and no global leaks.
// Run with `make test-browser` (after `make build`).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM, MODE_OPTION, ROOT, SERVE_THE_FOLDER, filePage, servePages } from "./harness.mjs";

// Test pages, served from memory.
const PAGES = {
    "/pages/esm.html": `<!doctype html><meta charset="utf-8"><title>esm</title>
<script type="module">
import { IoCodeModeFactory as factory } from "/dist/index.mjs";
const IoCodeModeFactory = (c) => factory({ ...${MODE_OPTION}, ...c });
window.__run = async () => {
    const out = {};
    const api = await IoCodeModeFactory({
        wasmLocation: "../dist/emscripten-module.wasm",
        tools: [{ name: "page.title", execute: async (input, { context }) => ({ title: document.title, context }) }],
    });
    const [, executeCode] = api.createSession().getLlmTools();
    out.run = await executeCode.execute({ code: "return await tools.page.title({})", explanation: "x" }, { context: { k: 1 } });
    // The sandbox's crypto reads the page's crypto.getRandomValues (a
    // receiver-checking Window accessor and method) through the shadow.
    out.crypto = await executeCode.execute({ code: "const u = crypto.randomUUID(); return [/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u), u !== crypto.randomUUID(), crypto.getRandomValues(new Uint32Array(8)).some((x) => x !== 0)]", explanation: "x" });
    out.timeout = await (await IoCodeModeFactory({ wasmLocation: "/dist/emscripten-module.wasm", timeout: 200 }))
        .createSession().getLlmTools()[1].execute({ code: "while (true) {}", explanation: "x" });
    try { await IoCodeModeFactory({ wasmLocation: "/nope.wasm" }); } catch (e) { out.missing = e.message; }
    // Relative to the page (in /pages/), not to the site's root: the error names the URL.
    try { await IoCodeModeFactory({ wasmLocation: "./emscripten-module.wasm" }); } catch (e) { out.relative = e.message; }
    out.leaks = ["Go", "fs", "process", "path", "__ioCodeModeReady", "IoCodeModeFactory"].filter((k) => k in window);
    api.dispose();
    return out;
};
window.__ready = true;
</script>`,
    "/pages/classic.html": `<!doctype html><meta charset="utf-8"><title>classic</title>
<script src="/dist/code-mode.global.js"></script>
<script>
window.__run = async () => {
    const out = {};
    const api = await IoCodeModeFactory({ ...${MODE_OPTION}, wasmLocation: "/dist/emscripten-module.wasm", tools: [
        { name: "add", execute: ({ a, b }) => a + b },
        // A DOM node returned as it is: JSON reads it as {}.
        { name: "page.title", execute: () => ({ el: document.querySelector("title"), text: document.title }) },
    ] });
    const [, executeCode] = api.createSession().getLlmTools();
    out.run = await executeCode.execute({ code: "return await tools.add({ a: 2, b: 40 })", explanation: "x" });
    out.node = await executeCode.execute({ code: "return await tools.page.title({})", explanation: "x" });
    out.leaks = ["Go", "fs", "process", "path", "__ioCodeModeReady"].filter((k) => k in window);
    out.factory = typeof window.IoCodeModeFactory;
    api.dispose();
    return out;
};
window.__ready = true;
</script>`,
};
const IMPORT_MAP_PAGE = usageImportMapPage();
if (IMPORT_MAP_PAGE) PAGES["/pages/importmap.html"] = IMPORT_MAP_PAGE;

// USAGE.md's page of ES modules without a bundler (its import map block), as
// written but for the folder: /vendor/code-mode/ is dist/ here. Its module
// gets the test's __run appended (codeMode is its own). The README said "ES module (browsers, ...)"
// of the bare import alone, which a page without a bundler cannot resolve.
function usageImportMapPage() {
    const usage = readFileSync(join(ROOT, "web", "USAGE.md"), "utf8");
    const block = [...usage.matchAll(/^```html\n([\s\S]*?)^```$/gm)].map((m) => m[1]).find((b) => b.includes('<script type="importmap">'));
    if (!block) return undefined;
    const end = block.lastIndexOf("</script>");
    return block.slice(0, end).replaceAll("/vendor/code-mode/", "/dist/") + `    window.__run = async () => {
        codeMode.registerTool({ name: "add", execute: ({ a, b }) => a + b });
        const session = codeMode.createSession();
        const { toOpenAITools } = await import("@interopio/code-mode/llm");
        const run = await session.getLlmTools()[1].execute({ code: "return await tools.add({ a: 2, b: 40 })", explanation: "x" });
        const openai = toOpenAITools(session).map((t) => t.function.name);
        codeMode.dispose();
        return { run, openai };
    };
    window.__ready = true;
` + block.slice(end);
}

let server;
let base;
let browser;

before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing (${CHROMIUM}): apt-get update && apt-get install -y chromium`);
    for (const f of ["index.mjs", "code-mode.global.js", "code-mode.wasm", "emscripten-module.wasm"]) {
        if (!existsSync(join(ROOT, "dist", f))) throw new Error(`dist/${f} is missing: run \`make build\` first`);
    }
    server = await servePages(PAGES);
    base = server.base;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
});

after(async () => {
    await browser?.close();
    await server?.close();
});

async function runPage(path) {
    const page = await browser.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(e.message));
    try {
        await page.goto(base + path);
        await page.waitForFunction(() => window.__ready === true);
        const out = await page.evaluate(() => window.__run());
        return { out, problems };
    } finally {
        await page.close();
    }
}

test("ESM build in Chromium", async () => {
    const { out, problems } = await runPage("/pages/esm.html");
    assert.deepEqual(problems, []);
    assert.equal(out.run.ok, true, JSON.stringify(out.run));
    assert.deepEqual(out.run.result, { title: "esm", context: { k: 1 } });
    assert.deepEqual(out.crypto.result, [true, true, true], JSON.stringify(out.crypto));
    assert.equal(out.timeout.error.code, "TIMEOUT");
    assert.match(out.missing, /^Cannot load the QuickJS asset from \/nope\.wasm \(http:\/\/127\.0\.0\.1:\d+\/nope\.wasm\): HTTP 404/);
    assert.match(out.relative, /^Cannot load the QuickJS asset from \.\/emscripten-module\.wasm \(http:\/\/127\.0\.0\.1:\d+\/pages\/emscripten-module\.wasm\): HTTP 404/);
    assert.deepEqual(out.leaks, []);
});

test("USAGE's page of ES modules with an import map, no bundler: the package and an adapter by their names", async () => {
    assert.ok(IMPORT_MAP_PAGE, "web/USAGE.md has no ```html block with an import map");
    const { out, problems } = await runPage("/pages/importmap.html");
    assert.deepEqual(problems, []);
    assert.equal(out.run.result, 42, JSON.stringify(out.run));
    assert.deepEqual(out.openai, ["searchTools", "executeCode"]);
});

test("classic-script build in Chromium", async () => {
    const { out, problems } = await runPage("/pages/classic.html");
    assert.deepEqual(problems, []);
    assert.equal(out.run.ok, true, JSON.stringify(out.run));
    assert.equal(out.run.result, 42);
    // A DOM node in a tool's result became {} without a word.
    assert.deepEqual(out.node.result, { el: {}, text: "classic" }, JSON.stringify(out.node));
    assert.deepEqual(out.node.logs, [{ level: "warn", message: "tools.page.title result.el: a HTMLTitleElement object, converted to {}: JSON reads only an object's own properties, and it has none" }]);
    assert.equal(out.factory, "function");
    assert.deepEqual(out.leaks, []);
});

// A page opened from a file (a double-clicked index.html with the classic
// script): Chromium fetches no file: URL for it and starts no Worker from
// one, in either mode, and its own words ("cannot be accessed from origin
// 'null'", "Failed to fetch") sent the developer to worker: false, which
// fails too. (Firefox runs such a page, WebKit refuses it: engine-suite.mjs.)
test("a page opened from a file: both engine modes say to serve its folder over HTTP", async () => {
    const file = filePage();
    const page = await browser.newPage();
    try {
        await page.goto(file.url);
        await page.waitForFunction(() => window.__ready === true);
        const out = await page.evaluate(() => window.__run());
        assert.match(out.true, /^Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: Failed to construct 'Worker': .* cannot be accessed from origin 'null'; /);
        assert.match(out.true, SERVE_THE_FOLDER);
        assert.doesNotMatch(out.true, /use worker: false/);
        assert.match(out.false, /^Cannot load the (Code Mode core|QuickJS asset) from file:\/\/.*: Failed to fetch; /);
        assert.match(out.false, SERVE_THE_FOLDER);
    } finally {
        await page.close();
        file.remove();
    }
});
