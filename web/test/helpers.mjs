// Shared helpers of the node:test suites. They run against the built
// package in dist/ (`make build` first).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const dist = join(root, "dist");
export const indexURL = pathToFileURL(join(dist, "index.mjs")).href;
export const assetPath = join(dist, "emscripten-module.wasm");
export const assetURL = pathToFileURL(assetPath).href;
export const coreWasmPath = join(dist, "code-mode.wasm");

for (const f of [join(dist, "index.mjs"), assetPath, coreWasmPath]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: run \`make build\` first`);
}

/**
 * The engine mode of this test process: CODE_MODE_WORKER=1 runs every
 * factory of the suites with { worker: true } (worker_threads), unless the
 * test sets worker itself; `make test-node` runs the suites both ways.
 */
export const WORKER = process.env.CODE_MODE_WORKER === "1";

/** The package's IoCodeModeFactory, imported from dist/index.mjs. */
export async function loadFactory() {
    const factory = (await import(indexURL)).IoCodeModeFactory;
    if (!WORKER) return factory;
    return (config) =>
        factory(config !== null && typeof config === "object" && !("worker" in config) ? { ...config, worker: true } : config);
}

/** A tool definition with defaults. */
export function tool(name, execute, extra = {}) {
    return { name, description: `The ${name} tool.`, inputSchema: { type: "object" }, execute, ...extra };
}

// An exponential anyOf: checking 40 levels of { c } against it takes far
// longer than any run of the tests, so the check ends only when its stop
// says so (timeoutwait_test.go's deepCheckTool).
export const deepAnyOf = {
    $defs: {
        n: {
            anyOf: [
                { type: "object", properties: { c: { $ref: "#/$defs/n" } }, required: ["z"] },
                { type: "object", properties: { c: { $ref: "#/$defs/n" } }, required: ["y"] },
                { type: "object", properties: { c: { $ref: "#/$defs/n" } } },
            ],
        },
    },
    type: "object",
    properties: { c: { $ref: "#/$defs/n" } },
};

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits (polling, at most 10 s) until check() is truthy; fails naming what.
 * A test waits so for what it expects to happen, not a fixed few ms that a
 * loaded machine may not give it.
 */
export async function until(check, what) {
    for (let i = 0; i < 400; i++) {
        if (await check()) return;
        await sleep(25);
    }
    assert.fail(`timed out waiting for ${what}`);
}

// The page's own timers, taken when the helpers load, before any test
// stubs setTimeout (fake timers): a test that waits for an outcome keeps
// the event loop alive with them.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const realSetInterval = globalThis.setInterval;
const realClearInterval = globalThis.clearInterval;
/**
 * `p`, or "hung" after `ms` of the real clock. The timer is cleared once
 * `p` settles: left pending, it held the test process open for its whole
 * `ms` after the last test.
 */
export const within = (p, ms) => {
    let timer;
    const guard = new Promise((r) => { timer = realSetTimeout(() => r("hung"), ms); });
    return Promise.race([p, guard]).finally(() => realClearTimeout(timer));
};

/** Collects, for one test (t its context), the unhandled rejections and uncaught exceptions of the process. */
export function watchUncaught(t) {
    const seen = [];
    const on = (e) => seen.push(String(e?.stack ?? e).slice(0, 300));
    process.on("unhandledRejection", on);
    process.on("uncaughtException", on);
    t.after(() => (process.off("unhandledRejection", on), process.off("uncaughtException", on)));
    return seen;
}

/** The executeCode and searchTools LLM tools of a session. */
export function llmTools(session) {
    const list = session.getLlmTools();
    return {
        executeCode: list.find((t) => t.name === "executeCode"),
        searchTools: list.find((t) => t.name === "searchTools"),
    };
}

/** Runs code through a session's executeCode. */
export function run(session, code, options) {
    return llmTools(session).executeCode.execute({ code, explanation: "test" }, options);
}

/**
 * Runs code that must end at the session's timeout and asserts so: a
 * TIMEOUT, never "hung"; in a Worker the page's timers fire meanwhile (on
 * the page's thread the engine holds it until the timeout); and the next
 * run of the session works.
 */
export async function endsAtTimeout(session, name, code) {
    let ticks = 0;
    const timer = realSetInterval(() => ticks++, 20);
    const r = await within(run(session, code), 60_000);
    realClearInterval(timer);
    assert.notEqual(r, "hung", name);
    assert.equal(r.ok, false, `${name}: ${JSON.stringify(r.result)}`);
    assert.equal(r.error.code, "TIMEOUT", `${name}: ${r.error.message}`);
    if (WORKER) assert.ok(ticks > 0, `${name}: the page's timer never fired while the run computed`);
    const next = await run(session, "return 2");
    assert.equal(next.result, 2, `the run after ${name}: ${JSON.stringify(next.error)}`);
}

/**
 * Starts an HTTP server on 127.0.0.1 serving `routes` (path -> {body, type}
 * or a status number). Returns {url, close, hits}.
 */
export async function serve(routes) {
    const hits = [];
    const server = createServer((req, res) => {
        const path = new URL(req.url, "http://x").pathname;
        hits.push(path);
        const route = routes[path];
        if (route === undefined || typeof route === "number") {
            res.writeHead(typeof route === "number" ? route : 404, { "content-type": "text/plain" });
            res.end("not found");
            return;
        }
        const headers = {};
        if (route.type) headers["content-type"] = route.type;
        res.writeHead(route.status ?? 200, headers);
        res.end(route.body);
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address();
    return {
        url: `http://127.0.0.1:${port}`,
        hits,
        close: () => new Promise((r) => server.close(r)),
    };
}

export const assetBytes = () => readFileSync(assetPath);

/**
 * Creates a factory for one test and disposes of it when the test ends
 * (t is the test's context: `test("...", async (t) => { ... })`).
 */
export async function withFactory(t, config) {
    const IoCodeModeFactory = await loadFactory();
    const api = await IoCodeModeFactory(config);
    t.after(() => api.dispose());
    return api;
}

/**
 * Runs `script`, an ES module's source that writes its answer as JSON to
 * stdout and exits 0, in a fresh Node process, and returns the answer: for
 * what must not reach the test's own process (a polluted Object.prototype,
 * a worker left to its backstop).
 * @param {string} script
 */
export function inChild(script) {
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 120_000 });
    assert.equal(child.status, 0, `the child process failed (status ${child.status}, signal ${child.signal}): ${child.stderr.slice(-2000)}`);
    return JSON.parse(child.stdout);
}

/**
 * Runs `node --expose-gc fixtures/<fixture> <index.mjs URL> <asset path>
 * <worker 0|1> <scenario>` in the suite's mode and returns what it printed
 * (JSON). The garbage collection cases run in a child process: they need
 * gc(), and node:test's own bookkeeping kept some of a test's objects.
 * @param {string} fixture
 * @param {string} scenario
 * @param {number} [timeout]
 */
export function inGcChild(fixture, scenario, timeout = 120_000) {
    const path = join(root, "web", "test", "fixtures", fixture);
    const child = spawnSync(process.execPath, ["--expose-gc", path, indexURL, assetPath, WORKER ? "1" : "0", scenario], {
        encoding: "utf8",
        timeout,
        maxBuffer: 64 << 20,
    });
    if (child.status !== 0) throw new Error(`the child failed (status ${child.status}, signal ${child.signal}): ${child.stderr.slice(-2000)}`);
    return JSON.parse(child.stdout);
}

/**
 * The start of an inChild script (worker mode) that keeps, in \`posted\`,
 * the JSON of every message the page posts to a worker or a port, then
 * imports the package's IoCodeModeFactory.
 */
export const POST_SPY = `import { Worker, MessagePort } from "node:worker_threads";
            const posted = [];
            const spy = (proto) => { const orig = proto.postMessage; proto.postMessage = function (m, ...rest) { try { posted.push(JSON.stringify(m, (k, v) => typeof v === "bigint" ? String(v) : v instanceof ArrayBuffer || ArrayBuffer.isView(v) ? Buffer.from(v.buffer ?? v).toString("latin1") : v) ?? "") } catch (e) { posted.push(String(m)) } return orig.call(this, m, ...rest) } };
            spy(Worker.prototype); spy(MessagePort.prototype);
            const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});`;

/** The strings of a Go `name = []string{...}` table in a file of the repository. */
export function goStringList(path, name) {
    const m = readFileSync(join(root, path), "utf8").match(new RegExp(`\\b${name}\\s*=\\s*\\[\\]string\\{([^}]*)\\}`));
    if (!m) throw new Error(`${path} has no ${name}`);
    return [...m[1].matchAll(/"([^"]*)"/g)].map((x) => x[1]);
}
