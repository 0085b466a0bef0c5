// The package as a Next.js app installs it: `npm pack` of dist/, installed
// from the tarball into a throwaway App Router app, built once with
// Turbopack (next build's default) and served by next start: a client
// component creates a factory in each engine mode in Chromium (the QuickJS
// asset from new URL("@interopio/code-mode/emscripten-module.wasm",
// import.meta.url), no copy in public/), and a route handler does on the
// server (the asset's path from process.cwd(), as USAGE.md says). Opt-in
// (369 MB of node_modules, a build of about a minute): run by
// `make test-nextjs`, not by `make test`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { closeBrowser, runIn } from "../bundler-test/page.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "..", "..");
const WORK = join(HERE, ".work");
const APP = join(WORK, "app");
const NEXT = join(HERE, "node_modules", "next", "dist", "bin", "next");
const PKG = join(APP, "node_modules", "@interopio", "code-mode");

// Both modes, the worker one told by abort() stopping a spinning program at
// once (on the page's thread it could only fire after the run's timeout).
const RUN = `async function run(worker, wasmLocation) {
    const api = await IoCodeModeFactory({ wasmLocation, worker, timeout: 20000, tools: [{ name: "add", description: "a + b", inputSchema: { type: "object" }, execute: async ({ a, b }) => a + b }] });
    try {
        const [, executeCode] = api.createSession().getLlmTools();
        const r = await executeCode.execute({ code: "return await tools.add({ a: 2, b: 40 })", explanation: "x" });
        if (!worker) return { result: r.result ?? r.error };
        const c = new AbortController();
        setTimeout(() => c.abort(new Error("stopped while spinning")), 300);
        const spin = await executeCode.execute({ code: "for (;;) {}", explanation: "x" }, { signal: c.signal }).then((x) => x.error && x.error.code, (e) => e.message);
        return { result: r.result ?? r.error, spin };
    } finally {
        api.dispose();
    }
}
`;
const FILES = {
    "package.json": JSON.stringify({ private: true }),
    "next.config.mjs": `export default { turbopack: { root: ${JSON.stringify(HERE)} }, outputFileTracingRoot: ${JSON.stringify(HERE)} };\n`,
    "app/layout.js": `export default function RootLayout({ children }) { return <html><body>{children}</body></html>; }\n`,
    "app/page.js": `"use client";
import { useEffect } from "react";
import { IoCodeModeFactory } from "@interopio/code-mode";
${RUN}
export default function Page() {
    useEffect(() => {
        const wasmLocation = new URL("@interopio/code-mode/emscripten-module.wasm", import.meta.url).href;
        window.__result = (async () => ({ worker: await run(true, wasmLocation), thread: await run(false, wasmLocation) }))().catch((e) => ({ error: String((e && e.message) || e) }));
    }, []);
    return <p>app</p>;
}
`,
    "app/api/agent/route.js": `import path from "node:path";
import { IoCodeModeFactory } from "@interopio/code-mode";
${RUN}
export const dynamic = "force-dynamic";
export async function GET() {
    const wasmLocation = path.join(process.cwd(), "public/quickjs/emscripten-module.wasm");
    try {
        return Response.json({ worker: await run(true, wasmLocation), thread: await run(false, wasmLocation) });
    } catch (e) {
        return Response.json({ error: String((e && e.message) || e) });
    }
}
`,
};

function sh(cmd, args, cwd) {
    const r = spawnSync(cmd, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", NEXT_TELEMETRY_DISABLED: "1" } });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
}

async function freePort() {
    const s = createServer();
    await new Promise((r) => s.listen(0, "127.0.0.1", r));
    const { port } = s.address();
    await new Promise((r) => s.close(r));
    return port;
}

let server;
let base;
let built;
before(async () => {
    for (const f of ["index.mjs", "code-mode.worker.mjs", "code-mode.wasm", "package.json"]) {
        if (!existsSync(join(ROOT, "dist", f))) throw new Error(`dist/${f} is missing: run \`make build\` first`);
    }
    if (!existsSync(NEXT)) throw new Error("web/nextjs-test/node_modules is missing: npm ci --prefix web/nextjs-test");
    rmSync(WORK, { recursive: true, force: true });
    mkdirSync(join(APP, "app", "api", "agent"), { recursive: true });
    const tgz = sh("npm", ["pack", "--silent", "--pack-destination", WORK, join(ROOT, "dist")], ROOT).trim().split("\n").pop();
    for (const [name, body] of Object.entries(FILES)) writeFileSync(join(APP, name), body);
    sh("npm", ["install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--offline", join(WORK, tgz)], APP);
    mkdirSync(join(APP, "public", "quickjs"), { recursive: true });
    copyFileSync(join(PKG, "emscripten-module.wasm"), join(APP, "public", "quickjs", "emscripten-module.wasm"));
    built = sh(process.execPath, [NEXT, "build"], APP);
    const port = await freePort();
    const child = spawn(process.execPath, [NEXT, "start", "-p", String(port), "-H", "127.0.0.1"], { cwd: APP, env: { ...process.env, NO_COLOR: "1", NEXT_TELEMETRY_DISABLED: "1" }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    await new Promise((res, rej) => {
        const timer = setTimeout(() => rej(new Error(`next start did not start:\n${out}`)), 60000);
        const on = (d) => {
            out += d;
            if (/Ready in|ready/i.test(out)) {
                clearTimeout(timer);
                res();
            }
        };
        child.stdout.on("data", on);
        child.stderr.on("data", on);
        child.on("exit", (code) => rej(new Error(`next start exited (${code}):\n${out}`)));
    });
    server = child;
    base = `http://127.0.0.1:${port}`;
});

after(async () => {
    await closeBrowser();
    if (server && server.exitCode === null) await new Promise((r) => (server.once("exit", r), server.kill("SIGTERM")));
});

const BOTH = { worker: { result: 42, spin: "stopped while spinning" }, thread: { result: 42 } };

test("Next.js 16 (Turbopack build, next start): a client component runs a factory in each mode in Chromium", async () => {
    assert.doesNotMatch(built, /warn/i, built);
    const { r, problems, workers } = await runIn(base + "/");
    assert.deepEqual(r, BOTH);
    assert.deepEqual(problems, []);
    assert.equal(workers.length, 1, `workers: ${workers}`);
});

test("Next.js 16 (Turbopack build, next start): a route handler runs a factory in each mode", async () => {
    const res = await fetch(base + "/api/agent");
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), BOTH);
});
