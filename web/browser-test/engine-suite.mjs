// The package in a second and a third browser engine: the cases that
// web/firefox-test/firefox.test.mjs runs in Debian's Firefox ESR
// (SpiderMonkey) and web/webkit-test/webkit.test.mjs in Debian's WebKitGTK
// (JavaScriptCore, Safari's engine), whose WebAssembly engines, stacks,
// Workers and error texts are not Chromium's V8. Both builds (the ESM
// index.mjs and the classic code-mode.global.js) and both modes: tool
// calls, searchTools, TypeScript, the seed's policies, the timeout and abort
// of a spinning program, the memory limit, deep recursion (the rows of
// web/test/recursion-cases.mjs), a 5 MB tool result, the pages'
// Content-Security-Policy cases where these engines behave otherwise than
// Chromium (a Trusted Types refusal, a new Worker of another origin or of a
// sandboxed iframe), and an app's own Workers. Where the engines differ, the
// suite's caller says how (engine, below).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, SERVE_THE_FOLDER, filePage, servePolicyPages } from "./harness.mjs";
import { CAUGHT, FITS, UNCAUGHT } from "../test/recursion-cases.mjs";
import { AT_THE_LIMITS } from "../test/deep-core-cases.mjs";
import { BLOCKED_IN_NEW_WORKER, HOST_WORKER_FILES, NO_NESTED, RAN, start } from "./host-worker-files.mjs";

// The first segment of a path names the page's policy; the rest is a page
// or script below, or dist/.
const POLICIES = {
    none: "",
    documented: "script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'",
    nowasm: "script-src 'self'; worker-src 'self'",
    trusted: "script-src 'self' 'wasm-unsafe-eval'; require-trusted-types-for 'script'",
    noconnect: "script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'none'",
    // No policy; sent with Origin-Agent-Cluster: ?1 (HEADERS).
    keyed: "",
    // No policy; cross-origin isolated (HEADERS): SharedArrayBuffer exists.
    isolated: "",
    // No policy, and no CORS headers (HEADERS): a static host.
    nocors: "",
};
const HEADERS = {
    keyed: { "origin-agent-cluster": "?1" },
    isolated: { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" },
    nocors: { "access-control-allow-origin": null },
};

// The page loads the package (?pkg=, default its policy's dist/; ?classic
// for the classic script) and keeps the factory function for the tests'
// page.evaluate calls; an external script, which the policies allow.
const MAIN = `const q = new URLSearchParams(location.search);
const pkg = q.get("pkg") || "./dist/";
window.__wasm = pkg + "emscripten-module.wasm";
window.__factory = q.has("classic") ? Promise.resolve(globalThis.IoCodeModeFactory) : import(pkg + "index.mjs").then((m) => m.IoCodeModeFactory);
`;
const PAGE = (q) => {
    const classic = q.has("classic") ? `<script src="${(q.get("pkg") || "./dist/").replace(/[<>"&]/g, "")}code-mode.global.js"></script>` : "";
    return `<!doctype html><meta charset="utf-8"><title>engine</title>${classic}<script src="./main.js"></script>`;
};
// The WebMCP polyfill the demo and USAGE.md use, for fromWebMcp.
const POLYFILL = join(ROOT, "node_modules", "@mcp-b", "webmcp-polyfill", "dist");
// A sandboxed iframe (an opaque origin) that runs a program in the mode of
// ?worker= and posts the outcome to its parent page.
const SANDBOXED = (q) => `<!doctype html><meta charset="utf-8"><iframe sandbox="allow-scripts" src="./frame.html?${q}"></iframe><script>addEventListener("message", (e) => { window.__sandboxed = e.data; });</script>`;
const FRAME = (q) => `<!doctype html><meta charset="utf-8"><script type="module">
const pkg = ${JSON.stringify(q.get("pkg") || "./dist/")};
let out;
try {
    const { IoCodeModeFactory } = await import(pkg + "index.mjs");
    const api = await IoCodeModeFactory({ wasmLocation: pkg + "emscripten-module.wasm", worker: ${q.get("worker") === "true"}, tools: [{ name: "add", execute: ({ a, b }) => a + b }] });
    out = { result: (await api.createSession().getLlmTools()[1].execute({ code: "return await tools.add({ a: 2, b: 40 })", explanation: "x" })).result };
    api.dispose();
} catch (e) {
    out = { error: e.message };
}
parent.postMessage(out, "*");
</script>`;
const FILES = {
    "page.html": PAGE,
    "sandboxed.html": SANDBOXED,
    "frame.html": FRAME,
    "main.js": () => MAIN,
    "webmcp/index.js": () => readFileSync(join(POLYFILL, "index.js")),
    "webmcp/schema.js": () => readFileSync(join(POLYFILL, "schema.js")),
    ...HOST_WORKER_FILES,
};


let server;
let port;
let browser;

// withPage opens path, waits for the package, runs fn(page) and closes the
// tab; problems collects the page's uncaught errors. Firefox reports the
// policy's refusals over BiDi as errors too ("Content-Security-Policy: The
// page's settings blocked ..."): those are the browser's console lines,
// not the page's, and are left out.
async function withPage(path, fn) {
    const page = await browser.newPage();
    const problems = [];
    page.on("pageerror", (e) => {
        const message = String(e?.message ?? e);
        if (!message.startsWith("Content-Security-Policy: ")) problems.push(message);
    });
    try {
        await page.goto(`http://127.0.0.1:${port}/${path}`);
        await page.waitForFunction(() => window.__factory !== undefined, { timeout: 30000 });
        const out = await fn(page);
        return { out, problems };
    } finally {
        await page.close();
    }
}

// In the page: a factory with two tools and config, then body (source: it
// reads api, executeCode and searchTools), then dispose. Evaluated as the
// driver's script, which no page policy refuses (new Function in the page
// would be, without 'unsafe-eval').
const withFactory = (page, worker, config, body) =>
    page.evaluate(`(async () => {
        const IoCodeModeFactory = await window.__factory;
        const tools = [
            { name: "t.echo", description: "Returns its input.", inputSchema: { type: "object" }, execute: (input) => input },
            {
                name: "orders.search",
                description: "Search orders by status.",
                inputSchema: { type: "object", properties: { status: { type: "string" } }, required: ["status"] },
                execute: async ({ status }, { context }) => [{ id: 1, status, context }, { id: 2, status }],
            },
        ];
        const api = await IoCodeModeFactory({ wasmLocation: window.__wasm, worker: ${worker}, tools, ...${JSON.stringify(config)} });
        try {
            await api.ready();
            const [searchTools, executeCode] = api.createSession().getLlmTools();
            ${body}
        } finally {
            api.dispose();
        }
    })()`);

const MODES = [true, false];


/**
 * Registers the suite's hooks and tests.
 * @param {object} engine
 * @param {string} engine.name as the test names say it
 * @param {string} engine.make the make target that builds and runs it
 * @param {() => Promise<any>} engine.launch resolves with a browser whose
 *   newPage() gives puppeteer's Page (or its subset, webkit-test/webdriver.mjs)
 * @param {string} engine.fetchFailed a regular expression of the engine's
 *   words for a fetch that failed
 * @param {boolean} engine.keyedByDefault whether a page's agent cluster is
 *   keyed by origin without Origin-Agent-Cluster: ?1
 * @param {(origin: string) => string} engine.sandboxedWorker a regular
 *   expression of why the package's Worker (from origin, a regular
 *   expression too) did not start in a sandboxed iframe
 * @param {boolean} engine.sharedWorkerNests whether a SharedWorker has Worker
 * @param {string | null} engine.filePageWorker null when a page opened from
 *   a file runs the package (Firefox); else a regular expression of why its
 *   Worker did not start there
 * @param {number} [engine.checksTimeout] the app workers' factories' timeout
 *   (host-worker-files.mjs CHECKS; default 1 s)
 * @param {boolean} [engine.newWorkerCanBlock] whether the browser, under its
 *   driver, can leave a worker blocked for good in the constructor of a
 *   Worker it makes (host-worker-files.mjs BLOCKED_IN_NEW_WORKER: Firefox)
 */
export function engineSuite(engine) {
    before(async () => {
        for (const f of ["index.mjs", "code-mode.global.js", "code-mode.wasm", "emscripten-module.wasm"]) {
            if (!existsSync(join(ROOT, "dist", f))) throw new Error(`dist/${f} is missing: run \`make build\` first (\`${engine.make}\` does)`);
        }
        server = await servePolicyPages(POLICIES, FILES, HEADERS);
        port = server.port;
        browser = await engine.launch();
    });

    after(async () => {
        await browser?.close();
        await server?.close();
    });

    for (const classic of [false, true]) {
        for (const worker of MODES) {
            test(`${classic ? "classic script" : "ESM build"}, worker: ${worker}: tools, searchTools, TypeScript, errors`, async () => {
                const { out, problems } = await withPage(`none/page.html?${classic ? "classic" : ""}`, (page) =>
                    withFactory(page, worker, {}, `
                        const run = (code, options) => executeCode.execute({ code, explanation: "x" }, options);
                        const r = await run("const o = await tools.orders.search({ status: 'open' }); return [o.length, o[0].context];", { context: { user: "u1" } });
                        const found = await searchTools.execute({ query: "orders by status" });
                        const ts = await run("\`\`\`ts\\ninterface O { id: number }\\nconst xs: O[] = await tools.orders.search({ status: 'x' });\\nreturn xs.map((x: O): number => x.id);\\n\`\`\`");
                        const bad = await run("await tools.orders.search({ status: 1 })");
                        const syntax = await run("return 1 +");
                        const runtime = await run("null.x");
                        const misc = await run("return [typeof crypto.randomUUID(), structuredClone({ a: [1] }), new Date(0).toISOString()]");
                        return {
                            run: [r.ok, r.result], found: found[0].name, ts: [ts.ok, ts.result],
                            bad: [bad.error.code, bad.error.message], syntax: [syntax.error.code, syntax.error.line],
                            runtime: [runtime.error.code, runtime.error.name], misc: misc.result,
                        };`),
                );
                assert.deepEqual(out, {
                    run: [true, [2, { user: "u1" }]],
                    found: "orders.search",
                    ts: [true, [1, 2]],
                    bad: ["RUNTIME", "orders.search: invalid input: /status: type: got number, want string"],
                    syntax: ["SYNTAX", 1],
                    runtime: ["RUNTIME", "TypeError"],
                    misc: ["string", { a: [1] }, "1970-01-01T00:00:00.000Z"],
                });
                assert.deepEqual(problems, []);
            });
        }
    }

    for (const worker of MODES) {
        const mode = `worker: ${worker}`;

        test(`${mode}: the seed's toolFilter and onToolCall, and tool_search in the program`, async () => {
            const { out, problems } = await withPage("none/page.html", (page) =>
                page.evaluate(async (worker) => {
                    const IoCodeModeFactory = await window.__factory;
                    const seen = [];
                    const codeMode = await IoCodeModeFactory({
                        wasmLocation: window.__wasm,
                        worker,
                        toolFilter: (tool) => !tool.name.startsWith("admin."),
                        interceptors: {
                            onToolCall: async ({ tool, input, callContext }) => {
                                // As JSON: BiDi returns an object met twice as a reference, which the driver reads as undefined.
                                seen.push([tool.name, JSON.stringify(callContext)]);
                                if (tool.name === "payments.transfer") return { allowed: false, reason: "Transfers require manual approval." };
                                return { allowed: true, input };
                            },
                        },
                        tools: [
                            { name: "admin.wipe", description: "Wipe.", inputSchema: { type: "object" }, execute: () => "wiped" },
                            { name: "payments.transfer", description: "Transfer.", inputSchema: { type: "object" }, execute: () => "sent" },
                            { name: "orders.search", description: "Search orders.", inputSchema: { type: "object" }, execute: () => ["o1"] },
                        ],
                    });
                    try {
                        await codeMode.ready();
                        const executeCode = codeMode.createSession().getLlmTools().find((tool) => tool.name === "executeCode");
                        const found = await executeCode.execute({ code: "return await tool_search({ query: 'orders' });", explanation: "Search for orders." }, { context: { k: 1 } });
                        const r = await executeCode.execute(
                            { code: "const a = await tools.orders.search({}); let b; try { await tools.payments.transfer({}) } catch (e) { b = e.message } return [a, b, typeof tools.admin]", explanation: "x" },
                            { context: { k: 2 } },
                        );
                        return { found: found.result.map((t) => t.name), result: r.result, seen };
                    } finally {
                        codeMode.dispose();
                    }
                }, worker),
            );
            assert.deepEqual(out, {
                found: ["orders.search"],
                result: [["o1"], "call to payments.transfer denied: Transfers require manual approval.", "undefined"],
                seen: [["orders.search", '{"k":2}'], ["payments.transfer", '{"k":2}']],
            });
            assert.deepEqual(problems, []);
        });

        test(`${mode}: a spinning program ends with TIMEOUT; abort stops it (worker mode: at once; in-thread: at the timeout, as documented); the next run works`, async () => {
            const { out, problems } = await withPage("none/page.html", (page) =>
                withFactory(page, worker, { timeout: 1500 }, `
                    const spin = await executeCode.execute({ code: "for (;;) {}", explanation: "x" });
                    const controller = new AbortController();
                    setTimeout(() => controller.abort(new Error("stopped by the user")), 200);
                    const aborted = await executeCode.execute({ code: "for (;;) {}", explanation: "x" }, { signal: controller.signal })
                        .then((r) => r.error.code, (e) => e.message);
                    const next = await executeCode.execute({ code: "return 1", explanation: "x" });
                    return [spin.error.code, aborted, next.result];`),
            );
            assert.deepEqual(out, ["TIMEOUT", worker ? "stopped by the user" : "TIMEOUT", 1]);
            assert.deepEqual(problems, []);
        });

        test(`${mode}: past the memory limit a run ends with MEMORY_LIMIT and the next one works`, async () => {
            const { out, problems } = await withPage("none/page.html", (page) =>
                withFactory(page, worker, {}, `
                    const r = await executeCode.execute({ code: "new Array(1e8).fill(1); return 'no limit'", explanation: "x" });
                    const next = await executeCode.execute({ code: "return new Array(1e5).fill(2).length", explanation: "x" });
                    return [r.error?.code, next.result];`),
            );
            assert.deepEqual(out, ["MEMORY_LIMIT", 1e5]);
            assert.deepEqual(problems, []);
        });

        test(`${mode}: a 5 MB tool result reaches the program whole; returned, it is cut to the result budget`, async () => {
            const { out, problems } = await withPage("none/page.html", (page) =>
                withFactory(page, worker, {}, `
                    const items = Array.from({ length: 50000 }, (_, i) => ({ id: i, pad: "y".repeat(90) }));
                    api.registerTool({ name: "t.items", description: "5 MB of JSON.", inputSchema: { type: "object" }, execute: () => items });
                    await api.ready();
                    const used = await executeCode.execute({ code: "const a = await tools.t.items({}); return [a.length, a.filter((x) => x.id % 1000 === 0).length]", explanation: "x" });
                    const whole = await executeCode.execute({ code: "return await tools.t.items({})", explanation: "x" });
                    return [used.result, whole.ok, JSON.stringify(whole.result).length < 20000];`),
            );
            assert.deepEqual(out, [[50000, 50], true, true]);
            assert.deepEqual(problems, []);
        });

        // Each row in a fresh factory (in worker mode a fresh Worker, whose
        // stack is the smallest): QuickJS's own limit must come first, a
        // RangeError the program catches, and the instance must run the next
        // program. One row differs by stack: eval of source nested 100,000 deep
        // is parsed on the host's stack, which overflows first where it is
        // small (Chromium; Firefox's Worker), while on Firefox's page thread
        // QuickJS's parser reaches its own limit first, a SyntaxError "stack
        // overflow"; both end the run with RUNTIME, and the next run works.
        test(`${mode}: deep recursion is QuickJS's catchable stack overflow; the next run works`, async () => {
            const rows = [
                ...CAUGHT.map(([name, code]) => [name, code, (r) => assert.deepEqual([r.first.ok, r.first.result], [true, [true, "stack overflow"]], `${name}: ${JSON.stringify(r.first.error)}`)]),
                ...FITS.map(([name, code, result]) => [name, code, (r) => assert.deepEqual([r.first.ok, r.first.result], [true, result], `${name}: ${JSON.stringify(r.first.error)}`)]),
                ...UNCAUGHT.map(([name, code, message]) => [
                    name,
                    code,
                    (r) => {
                        assert.equal(r.first.error?.code, "RUNTIME", `${name}: ${JSON.stringify(r.first)}`);
                        const parsedFirst = name.endsWith("evaluated") && r.first.error.message === "stack overflow" && r.first.error.name === "SyntaxError";
                        if (!parsedFirst) assert.match(r.first.error.message, message, name);
                    },
                ]),
            ];
            const { out, problems } = await withPage("none/page.html", (page) =>
                page.evaluate(
                    async (worker, codes) => {
                        const IoCodeModeFactory = await window.__factory;
                        const results = [];
                        for (const code of codes) {
                            const api = await IoCodeModeFactory({
                                wasmLocation: window.__wasm,
                                worker,
                                timeout: 60000,
                                tools: [{ name: "t.echo", description: "Returns its input.", inputSchema: { type: "object" }, execute: (input) => input }],
                            });
                            try {
                                const executeCode = api.createSession().getLlmTools()[1];
                                const first = await executeCode.execute({ code, explanation: "recursion" });
                                const next = await executeCode.execute({ code: "return 1", explanation: "the next run" });
                                results.push({ first: { ok: first.ok, result: first.result, error: first.error && { code: first.error.code, name: first.error.name, message: first.error.message } }, next: next.result });
                            } finally {
                                api.dispose();
                            }
                        }
                        return results;
                    },
                    worker,
                    rows.map(([, code]) => code),
                ),
            );
            rows.forEach(([name, , check], i) => {
                check(out[i]);
                assert.equal(out[i].next, 1, `${name}: the next run`);
            });
            assert.deepEqual(problems, []);
        });

        // The Go core's walks nest on SpiderMonkey's stack here: the deepest
        // checks its limits allow must fit, in its Worker too, and past them the
        // limit must answer (web/test/deep-core-cases.mjs).
        test(`${mode}: deep input to the Go core: the limits answer before the stack overflows; the next run works`, async () => {
            const { out, problems } = await withPage("none/page.html", (page) =>
                page.evaluate(
                    async (worker, rows) => {
                        const IoCodeModeFactory = await window.__factory;
                        const results = [];
                        for (const [schema, code] of rows) {
                            const api = await IoCodeModeFactory({ wasmLocation: window.__wasm, worker, timeout: 60000 });
                            try {
                                api.registerTool({ name: "t.x", inputSchema: schema, execute: () => "ran" });
                                await api.ready();
                                const executeCode = api.createSession().getLlmTools()[1];
                                const first = await executeCode.execute({ code, explanation: "deep input" });
                                const next = await executeCode.execute({ code: "return 1", explanation: "the next run" });
                                results.push({ ok: first.ok, result: first.result, error: first.error?.message, next: next.result });
                            } finally {
                                api.dispose();
                            }
                        }
                        return results;
                    },
                    worker,
                    AT_THE_LIMITS.map(([, schema, code]) => [schema, code]),
                ),
            );
            AT_THE_LIMITS.forEach(([name, , , want], i) => {
                assert.equal(out[i].ok, true, `${name}: ${out[i].error}`);
                if (want.startsWith("~")) assert.ok(out[i].result.includes(want.slice(1)), `${name}: ${out[i].result.slice(0, 300)}`);
                else assert.equal(out[i].result, want, name);
                assert.equal(out[i].next, 1, `${name}: the next run`);
            });
            assert.deepEqual(problems, []);
        });

        test(`${mode}: USAGE's Content-Security-Policy runs; without 'wasm-unsafe-eval' the error says to add it`, async () => {
            const run = (page) => withFactory(page, worker, {}, `return (await executeCode.execute({ code: "return await tools.t.echo({ n: 42 })", explanation: "x" })).result.n;`).catch((e) => e.message);
            assert.deepEqual(await withPage("documented/page.html", run), { out: 42, problems: [] });
            const refused = await withPage("nowasm/page.html", run);
            assert.match(refused.out, /WebAssembly.*; the page's Content-Security-Policy must allow WebAssembly: add 'wasm-unsafe-eval' to its script-src/);
            assert.deepEqual(refused.problems, []);
        });

        test(`${mode}: a .wasm fetch the policy refuses is named with its directive, in ${engine.name}'s words`, async () => {
            const { out, problems } = await withPage("noconnect/page.html", (page) => withFactory(page, worker, {}, "return 1;").catch((e) => e.message));
            assert.match(out, new RegExp(`^Cannot load the (Code Mode core|QuickJS asset) from .*: ${engine.fetchFailed}; the page's Content-Security-Policy refused the fetch of http:\\/\\/127\\.0\\.0\\.1:\\d+\\/noconnect\\/dist\\/(code-mode|emscripten-module)\\.wasm: its connect-src must allow http:\\/\\/127\\.0\\.0\\.1:\\d+ \\(the package's README, "Content-Security-Policy"\\)$`));
            assert.deepEqual(problems, []);
        });

        test(`${mode}: the package from another origin (a CDN, with CORS) runs`, async () => {
            // localhost and 127.0.0.1: two origins on one server. Firefox's new
            // Worker does not refuse a script of another origin (Chromium's
            // throws); it fails to load later, so worker mode must not wait for
            // that to start its blob: worker.
            const pkg = encodeURIComponent(`http://localhost:${port}/none/dist/`);
            for (const classic of ["", "&classic"]) {
                const { out, problems } = await withPage(`none/page.html?pkg=${pkg}${classic}`, (page) =>
                    withFactory(page, worker, {}, `return (await executeCode.execute({ code: "return await tools.t.echo({ n: 42 })", explanation: "x" })).result.n;`).catch((e) => e.message),
                );
                assert.deepEqual({ out, problems }, { out: 42, problems: [] }, classic || "ESM build");
            }
        });

        // A static host of another origin without CORS headers: the classic
        // script loads (a <script src> needs none), the files it fetches do
        // not, and the error said only the engine's words (in-thread) or "it
        // failed to load from <url>" (worker mode).
        test(`${mode}: the classic script from another origin without CORS headers: the error names the origins and the header`, async () => {
            const pkg = encodeURIComponent(`http://localhost:${port}/nocors/dist/`);
            const { out, problems } = await withPage(`none/page.html?pkg=${pkg}&classic`, (page) => withFactory(page, worker, {}, "return 1;").catch((e) => e.message));
            const failed = worker ? String.raw`it failed to load from http:\/\/localhost:\d+\/nocors\/dist\/code-mode\.worker\.mjs` : String.raw`^Cannot load the Code Mode core from http:\/\/localhost:\d+\/nocors\/dist\/code-mode\.wasm: ${engine.fetchFailed}`;
            assert.match(String(out), new RegExp(String.raw`${failed}; http:\/\/localhost:\d+ is another origin than the page's \(http:\/\/127\.0\.0\.1:\d+\): its server must send CORS headers \(Access-Control-Allow-Origin\)`));
            // Firefox reports its own refusals ("Cross-Origin Request Blocked: ...") as page errors, as it does a policy's.
            assert.deepEqual(problems.filter((p) => !p.startsWith("Cross-Origin Request Blocked: ")), []);
        });
    }

    // @mcp-b/webmcp-polyfill refuses a page whose agent cluster is not keyed
    // by origin (originAgentCluster false: a SecurityError with no message),
    // which Firefox's pages are unless served with Origin-Agent-Cluster: ?1
    // (Chromium and WebKit key by origin by default). USAGE.md says so; with
    // the header, fromWebMcp runs the page's tool in both modes.
    test(`WebMCP: with Origin-Agent-Cluster: ?1 the polyfill's tools run through fromWebMcp in both modes; without it the polyfill ${engine.keyedByDefault ? "runs them too" : "refuses"}`, async () => {
        const run = (worker) => (page) =>
            withFactory(page, worker, {}, `
                const { initializeWebMCPPolyfill } = await import(new URL("webmcp/index.js", location.href).href);
                const { fromWebMcp } = await import(new URL("dist/webmcp.mjs", location.href).href);
                try {
                    initializeWebMCPPolyfill();
                    await document.modelContext.registerTool({ name: "page.title", description: "The page title.", annotations: { readOnlyHint: true }, execute: async () => ({ title: document.title }) });
                } catch (e) {
                    return { refused: e.name };
                }
                (await fromWebMcp()).registerTools(api);
                await api.ready();
                return (await executeCode.execute({ code: "return (await tools.webmcp.page.title({})).title", explanation: "x" })).result;`);
        for (const worker of MODES) {
            assert.deepEqual(await withPage("keyed/page.html", run(worker)), { out: "engine", problems: [] }, `worker: ${worker}`);
        }
        assert.deepEqual(await withPage("none/page.html", run(true)), { out: engine.keyedByDefault ? "engine" : { refused: "SecurityError" }, problems: [] });
    });

    // With a SharedArrayBuffer the page writes an aborted run's id where
    // the worker's interrupt poll reads it (Atomics), which stops that run
    // only; without one the worker is replaced and the runs on it reject.
    test("a cross-origin isolated page: worker mode's abort stops the spinning run only (the abort flag); a run waiting on the same worker ends; the next run works", async () => {
        const { out, problems } = await withPage("isolated/page.html", (page) =>
            withFactory(page, true, { timeout: 60000 }, `
                const other = executeCode.execute({ code: "await new Promise((r) => setTimeout(r, 1000)); return 'other done'", explanation: "x" }).then((r) => r.result, (e) => "rejected: " + e.message);
                const controller = new AbortController();
                const busy = executeCode.execute({ code: "for (;;) {}", explanation: "spin" }, { signal: controller.signal });
                setTimeout(() => controller.abort(new Error("stopped by the user")), 300);
                const aborted = await busy.then((r) => "resolved: " + JSON.stringify(r.error), (e) => e.message);
                const next = await executeCode.execute({ code: "return 1 + 1", explanation: "x" });
                return [crossOriginIsolated, typeof SharedArrayBuffer, aborted, await other, next.result];`),
        );
        assert.deepEqual(out, [true, "function", "stopped by the user", "other done", 2]);
        assert.deepEqual(problems, []);
    });

    test(`Trusted Types without a policy: worker mode says what to do (${engine.name}'s words differ from Chromium's); worker: false runs`, async () => {
        const run = (worker) => (page) =>
            withFactory(page, worker, {}, `return (await executeCode.execute({ code: "return 42", explanation: "x" })).result;`).catch((e) => e.message);
        const refused = await withPage("trusted/page.html", run(true));
        assert.match(refused.out, /Cannot start the Code Mode worker: .*; the page enforces Trusted Types .* a default policy that lets the package's code-mode\.worker\.mjs through .* or worker: false starts the engine/);
        assert.deepEqual(refused.problems, []);
        assert.deepEqual(await withPage("trusted/page.html", run(false)), { out: 42, problems: [] });
    });

    // A page opened from a file (a double-clicked index.html, the classic
    // script in vendor/code-mode/ beside it): Firefox runs it in both modes;
    // where the browser refuses it, both modes' errors say to serve the
    // folder over HTTP (WebKit's said "The operation is insecure", then
    // "Load failed").
    test(`a page opened from a file: ${engine.filePageWorker === null ? "both modes run" : "both modes say to serve its folder over HTTP"}`, async () => {
        const file = filePage();
        const page = await browser.newPage();
        try {
            await page.goto(file.url);
            await page.waitForFunction(() => window.__ready === true, { timeout: 60000 });
            const out = await page.evaluate(() => window.__run());
            if (engine.filePageWorker === null) {
                assert.deepEqual(out, { true: 42, false: 42 });
                return;
            }
            assert.match(out.true, new RegExp(`^Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: ${engine.filePageWorker}; `));
            assert.match(out.true, SERVE_THE_FOLDER);
            assert.match(out.false, new RegExp(`^Cannot load the (Code Mode core|QuickJS asset) from file:\\/\\/.*: ${engine.fetchFailed}; `));
            assert.match(out.false, SERVE_THE_FOLDER);
        } finally {
            await page.close();
            file.remove();
        }
    });

    test("a sandboxed iframe (an opaque origin): worker mode says to use worker: false, which runs", async () => {
        const outcome = async (worker, pkg = "") => {
            const page = await browser.newPage();
            try {
                await page.goto(`http://127.0.0.1:${port}/none/sandboxed.html?worker=${worker}${pkg && `&pkg=${encodeURIComponent(pkg)}`}`);
                await page.waitForFunction(() => window.__sandboxed !== undefined, { timeout: 60000 });
                return await page.evaluate(() => window.__sandboxed);
            } finally {
                await page.close();
            }
        };
        // Firefox makes the worker, which fails to load: this said "the page
        // most likely refused it: its Content-Security-Policy must allow
        // that URL". WebKit's new Worker throws a SecurityError at once.
        const refused = (origin) => new RegExp(`^Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: ${engine.sandboxedWorker(origin)}; a sandboxed page or iframe \\(its origin is opaque, "null"\\) starts no Worker of the package's: use worker: false`);
        const worker = await outcome(true);
        assert.match(worker.error, refused(`http://127\\.0\\.0\\.1:${port}`));
        assert.deepEqual(await outcome(false), { result: 42 });
        // The package from another origin: the blob: worker of another origin's
        // page is not tried (it fails to load there too, with the same guess).
        const other = `http://localhost:${port}/none/dist/`;
        assert.match((await outcome(true, other)).error, refused(`http://localhost:${port}`));
        assert.deepEqual(await outcome(false, other), { result: 42 });
    });

    // Firefox's SharedWorker has a Worker (Chromium's and WebKit's have
    // none): worker mode nests there too. The classic script looked for its
    // files beside the worker's own script (HTTP 404 for code-mode.wasm).
    // Firefox under its driver rarely leaves the app's worker blocked for
    // good in the nested new Worker, a lost wake-up of Gecko's
    // (BLOCKED_IN_NEW_WORKER; CI: 1 run in 4; here 2 full suites in 37 at
    // load 15-30; no pref turns off the BiDi listener that causes it): that
    // answer, and only it, is noted and the case run once more in a new app
    // worker, whose answer is asserted in full.
    test("an app's own dedicated Worker and SharedWorker, modules and classic scripts (importScripts), in every mode: a tool call, a spinning program's TIMEOUT, the next run", async (t) => {
        const page = await browser.newPage();
        const problems = [];
        page.on("pageerror", (e) => problems.push(String(e?.message ?? e)));
        try {
            await page.goto(`http://127.0.0.1:${port}/none/host-workers.html`);
            for (const kind of ["dedicated", "shared"]) {
                for (const file of [`${kind}.mjs`, `${kind}.js`]) {
                    for (const mode of [undefined, false, true]) {
                        const want = kind === "shared" && mode === true && !engine.sharedWorkerNests ? NO_NESTED : RAN;
                        let out = await page.evaluate(start(kind, file, mode, engine.checksTimeout));
                        if (engine.newWorkerCanBlock && mode === true && typeof out === "string" && BLOCKED_IN_NEW_WORKER.test(out)) {
                            t.diagnostic(`${file}, worker: true: ${engine.name} left the app's worker blocked in the package's new Worker, Gecko's lost wake-up (${out}); once more in a new app worker`);
                            out = await page.evaluate(start(kind, file, mode, engine.checksTimeout, true));
                        }
                        assert.deepEqual(out, want, `${file}, worker: ${mode}`);
                    }
                }
            }
            assert.deepEqual(problems, []);
        } finally {
            await page.close();
        }
    });
}
