// The package as users install it: `npm pack` of dist/, installed from the
// tarball into throwaway apps built with Vite (dev server, and build +
// preview), webpack 5, Rsbuild (dev server and build), esbuild and Rollup
// (pinned in this folder's lockfile), each run in Chromium in worker mode
// (the page default; Rsbuild's also on the page's thread): the Go core and
// the worker are found through new URL("./file", import.meta.url) and
// new Worker(new URL(...)), which Vite, webpack and Rsbuild rewrite. esbuild and
// Rollup do not rewrite them; their apps copy the package's code-mode.wasm
// and code-mode.worker.mjs next to their bundle, the way USAGE.md
// documents, and without the copy the factory's error says what to copy.
// A WXT extension (its Vite) is loaded into Chromium as an unpacked extension.
// Run by `make test-bundlers`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { connect } from "node:net";
import { basename, dirname, extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { closeBrowser, runIn, runInExtension } from "./page.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "..", "..");
const WORK = join(HERE, ".work");
const BIN = join(HERE, "node_modules", ".bin");
const PKG = join(WORK, "node_modules", "@interopio", "code-mode");
// Vite 7 (the package vite7, an alias): its dev server pre-bundles
// dependencies with esbuild into node_modules/.vite/deps/ and does not
// rewrite their new URL("./file", import.meta.url), as Vite 8 does.
const VITE7 = join(HERE, "node_modules", "vite7", "bin", "vite.js");

// The page's default mode (worker); the second run tells it is one: abort()
// stops a spinning program at once there, while on the page's thread it
// could only fire after the run's timeout, which then ends it.
const MAIN = `import { IoCodeModeFactory } from "@interopio/code-mode";
window.__result = (async () => {
    const api = await IoCodeModeFactory({
        wasmLocation: "/emscripten-module.wasm",
        timeout: 20000,
        tools: [{ name: "add", execute: ({ a, b }) => a + b }],
    });
    const [, executeCode] = api.createSession().getLlmTools();
    const r = await executeCode.execute({ code: "return await tools.add({ a: 2, b: 40 })", explanation: "x" });
    const c = new AbortController();
    setTimeout(() => c.abort(new Error("stopped while spinning")), 300);
    r.spin = await executeCode.execute({ code: "for (;;) {}", explanation: "x" }, { signal: c.signal }).then((x) => x.error && x.error.code, (e) => e.message);
    api.dispose();
    return r;
})().catch((e) => ({ error: String((e && e.message) || e) }));
`;
// The same on the calling thread (worker: false), which loads the Go core
// itself.
const MAIN_IN_THREAD = MAIN.replace("timeout: 20000,", "timeout: 20000, worker: false,");
const html = (script, type = "module") => `<!doctype html><meta charset="utf-8"><title>app</title><script type="${type}" src="${script}"></script>`;

function sh(cmd, args, cwd) {
    const r = spawnSync(cmd, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
}

before(() => {
    for (const f of ["index.mjs", "code-mode.worker.mjs", "code-mode.wasm", "package.json"]) {
        if (!existsSync(join(ROOT, "dist", f))) throw new Error(`dist/${f} is missing: run \`make build\` first`);
    }
    if (!existsSync(join(BIN, "vite")) || !existsSync(VITE7)) throw new Error("web/bundler-test/node_modules is missing: npm ci --prefix web/bundler-test");
    rmSync(WORK, { recursive: true, force: true });
    mkdirSync(WORK, { recursive: true });
    // npm pack, then install the tarball as an app would.
    const tgz = sh("npm", ["pack", "--silent", "--pack-destination", WORK, join(ROOT, "dist")], ROOT).trim().split("\n").pop();
    writeFileSync(join(WORK, "package.json"), JSON.stringify({ private: true, type: "module" }));
    sh("npm", ["install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--offline", join(WORK, tgz)], WORK);
    for (const app of ["vite", "vite7", "webpack", "esbuild", "rollup", "global"]) {
        mkdirSync(join(WORK, app, "public"), { recursive: true });
        writeFileSync(join(WORK, app, "main.js"), MAIN);
        copyFileSync(join(PKG, "emscripten-module.wasm"), join(WORK, app, "public", "emscripten-module.wasm"));
    }
});

after(async () => {
    await closeBrowser();
});

const TYPES = { ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };
async function staticServer(dir) {
    const server = createServer((req, res) => {
        let path = decodeURIComponent(new URL(req.url, "http://x").pathname);
        if (path === "/") path = "/index.html";
        const file = normalize(join(dir, path));
        if (!file.startsWith(dir) || !existsSync(file)) {
            res.writeHead(404);
            return res.end();
        }
        res.writeHead(200, { "content-type": TYPES[extname(file)] || "application/octet-stream" });
        res.end(readFileSync(file));
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

// Starts a long-running CLI (vite dev / preview, rsbuild dev, wxt) and waits for its URL
// (and, given ready, for its output to match it).
async function serveWith(args, cwd, vite = join(BIN, "vite"), ready = undefined) {
    const child = spawn(vite, args, { cwd, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const url = await new Promise((res, rej) => {
        const timer = setTimeout(() => rej(new Error(`${basename(vite)} ${args.join(" ")} did not start:\n${out}`)), 60000);
        const on = (d) => {
            out += d;
            const m = out.match(/http:\/\/(127\.0\.0\.1|localhost):\d+\/?/);
            if (m) {
                clearTimeout(timer);
                res(m[0].replace("localhost", "127.0.0.1"));
            }
        };
        child.stdout.on("data", on);
        child.stderr.on("data", on);
        child.on("exit", (code) => rej(new Error(`${basename(vite)} exited (${code}):\n${out}`)));
    });
    // A dev server may print its URL before it listens: Rsbuild's page,
    // opened at once, was refused once (net::ERR_CONNECTION_REFUSED).
    await listening(new URL(url), () => out);
    for (const end = Date.now() + 60000; ready && !ready.test(out); await new Promise((r) => setTimeout(r, 100))) {
        if (Date.now() > end || child.exitCode !== null) throw new Error(`${basename(vite)} ${args.join(" ")} printed no ${ready}:\n${out}`);
    }
    return { url, close: () => new Promise((r) => (child.exitCode !== null ? r() : (child.once("exit", r), child.kill("SIGTERM")))) };
}

// listening resolves once a TCP connection to url's host and port is
// accepted (60 s at most).
async function listening(url, log) {
    for (const end = Date.now() + 60000; ; ) {
        const ok = await new Promise((res) => {
            const socket = connect(Number(url.port), url.hostname, () => (socket.end(), res(true)));
            socket.on("error", () => res(false));
        });
        if (ok) return;
        if (Date.now() > end) throw new Error(`nothing listens at ${url} 60 s after it was printed:\n${log()}`);
        await new Promise((r) => setTimeout(r, 100));
    }
}

// The files of a build holding the engine's worker (a string of
// web/src/worker.mjs that only it has). One copy: the Node branch of
// spawn (web/src/worker-engine.mjs) named the worker in a second
// new URL(..., import.meta.url), and Vite and webpack emitted an unused
// copy of it (57 KB).
// A string only the worker's own module (web/src/worker.mjs) holds: the
// modules it shares with the page's bundle (the warm-up program, the core's
// loader) are in the page's chunk too, by design.
const WORKER_MARK = "the run was cancelled";

// The .wasm files a build emitted, but the QuickJS asset that the app serves
// from public/ under its own name: the Go core alone. The Node.js branch of
// a load error's hint (web/src/wasm-load.mjs) named the asset in a
// new URL("./emscripten-module.wasm", import.meta.url), and Vite and webpack
// emitted an unused copy of it (524 KB) into every app's build.
const emittedWasm = (dir) => readdirSync(dir, { recursive: true }).filter((f) => f.endsWith(".wasm") && basename(f) !== "emscripten-module.wasm");

function workerCopies(dir) {
    return readdirSync(dir, { recursive: true })
        .filter((f) => !f.endsWith(".map") && !f.endsWith(".wasm"))
        .filter((f) => {
            try {
                return readFileSync(join(dir, f), "utf8").includes(WORKER_MARK);
            } catch {
                return false; // a folder
            }
        });
}

function check({ r, problems }) {
    assert.deepEqual(problems, []);
    assert.equal(r.error, undefined, r.error);
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.result, 42);
    assert.equal(r.spin, "stopped while spinning", "the engine runs in a worker");
}

// Runs the app at the server's URL (a promise of staticServer or serveWith),
// then closes the server.
async function checkAt(server, checks = async (url) => check(await runIn(url))) {
    const s = await server;
    try {
        await checks(s.url);
    } finally {
        await s.close();
    }
}

const VITE_CONFIG = `export default { server: { host: "127.0.0.1" }, preview: { host: "127.0.0.1" } };\n`;

test("Vite: dev server", async () => {
    const dir = join(WORK, "vite");
    writeFileSync(join(dir, "index.html"), html("./main.js"));
    writeFileSync(join(dir, "vite.config.js"), VITE_CONFIG);
    await checkAt(serveWith(["--port", "0"], dir));
});

// A page of another origin than Vite's dev server, which loads the app's
// scripts from it: a backend's page (Laravel's, Rails's, Django's Vite
// integrations), an extension's pages in WXT's dev mode. The worker is a
// blob: of the page's that imports the package's worker from the dev
// server, which pre-bundled the package into node_modules/.vite/deps/ and
// rewrote its new URL(..., import.meta.url) to the package's own folder:
// the blob imported node_modules/.vite/deps/code-mode.worker.mjs, not there
// (HTTP 404, and a hint to exclude the package from pre-bundling).
test("Vite: dev server, the page on another origin (a backend's page, WXT's dev mode): worker mode runs", async () => {
    const dir = join(WORK, "vite");
    writeFileSync(join(dir, "index.html"), html("./main.js"));
    writeFileSync(join(dir, "vite.config.js"), VITE_CONFIG);
    const page = join(WORK, "vite-backend");
    mkdirSync(page, { recursive: true });
    copyFileSync(join(dir, "public", "emscripten-module.wasm"), join(page, "emscripten-module.wasm"));
    const dev = await serveWith(["--port", "0"], dir);
    try {
        writeFileSync(join(page, "index.html"), html(`${dev.url}main.js`));
        await checkAt(staticServer(page));
    } finally {
        await dev.close();
    }
});

// USAGE.md, "Bundlers": Vite 7's dev server needs the package excluded from
// its dependency optimizer. Without it, the factory's error says so (and
// which URL answered what): it said only "Cannot start the Code Mode worker:
// it failed to load".
test("Vite 7: dev server, the package pre-bundled: the error names the setting", async () => {
    assert.match(await vite7DevError(VITE_CONFIG), /^Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: it failed to load from http:\/\/127\.0\.0\.1:\d+\/@fs\/.*\/node_modules\/\.vite\/deps\/code-mode\.worker\.mjs \(HTTP 404 Not Found\); Vite pre-bundled @interopio\/code-mode .*add optimizeDeps: \{ exclude: \["@interopio\/code-mode"\] \} to your Vite config$/);
});

// The error of the app's page served by Vite 7's dev server with this config.
async function vite7DevError(config) {
    const dir = join(WORK, "vite7");
    writeFileSync(join(dir, "index.html"), html("./main.js"));
    writeFileSync(join(dir, "vite.config.js"), config);
    const s = await serveWith(["--port", "0"], dir, VITE7);
    try {
        const { r, problems } = await runIn(s.url);
        assert.deepEqual(problems, []);
        return String(r.error);
    } finally {
        await s.close();
        rmSync(join(dir, ".angular"), { recursive: true, force: true });
        rmSync(join(dir, "node_modules", ".cache", "vite"), { recursive: true, force: true });
    }
}

// Angular's dev server (ng serve) is Vite with its cache under
// .angular/cache/<version>/<project>/vite, and takes its setting from
// angular.json ("prebundle"), not a Vite config: Vite 7 with that cacheDir
// pre-bundles the package to the same place. The error said "a bundler that
// does not copy them (esbuild, Rollup) needs them copied next to its
// output", which no copy in angular.json fixes.
test("Angular's dev server layout (Vite 7, cache in .angular/cache): the error names angular.json's setting", async () => {
    const config = VITE_CONFIG.replace("export default { ", 'export default { cacheDir: ".angular/cache/21.2.30/app/vite", ');
    assert.match(await vite7DevError(config), /^Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: it failed to load from http:\/\/127\.0\.0\.1:\d+\/(@fs\/.*\/)?\.angular\/cache\/21\.2\.30\/app\/vite\/deps\/code-mode\.worker\.mjs \(HTTP 404 Not Found\); Angular's dev server \(ng serve\) pre-bundled @interopio\/code-mode away from its files: add "prebundle": \{ "exclude": \["@interopio\/code-mode"\] \} to the options of the serve target in angular\.json$/);
});

// Nuxt's dev server (nuxt dev, Nuxt 4.3: Vite 7) keeps Vite's cache in
// node_modules/.cache/vite/client and takes Vite's options from nuxt.config's
// vite key: the error said to copy the files next to the bundler's output,
// which no Nuxt app can do for its dev server.
test("Nuxt's dev server layout (Vite 7, cache in node_modules/.cache/vite/client): the error names nuxt.config's setting", async () => {
    const config = VITE_CONFIG.replace("export default { ", 'export default { cacheDir: "node_modules/.cache/vite/client", ');
    assert.match(await vite7DevError(config), /^Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: it failed to load from http:\/\/127\.0\.0\.1:\d+\/(@fs\/.*\/)?node_modules\/\.cache\/vite\/client\/deps\/code-mode\.worker\.mjs \(HTTP 404 Not Found\); Nuxt's dev server \(Vite\) pre-bundled @interopio\/code-mode away from its files: add vite: \{ optimizeDeps: \{ exclude: \["@interopio\/code-mode"\] \} \} to nuxt\.config$/);
});

test("Vite 7: dev server, with optimizeDeps.exclude as USAGE.md says", async () => {
    const dir = join(WORK, "vite7");
    writeFileSync(join(dir, "index.html"), html("./main.js"));
    writeFileSync(join(dir, "vite.config.js"), VITE_CONFIG.replace("export default { ", 'export default { optimizeDeps: { exclude: ["@interopio/code-mode"] }, '));
    await checkAt(serveWith(["--port", "0"], dir, VITE7));
});

// Vite's dev server serves no file outside its server.fs.allow folders: an
// allow list without node_modules (here), or a package installed as a link
// to a folder elsewhere (npm install <folder>), answers the package's files
// with 403. The error said "HTTP 403 Forbidden" alone (on the page's
// thread), or named node_modules/.vite/deps/code-mode.worker.mjs (HTTP 404)
// and the pre-bundling's optimizeDeps.exclude, which does not help (worker
// mode): it names the folder and the setting, and the setting as written runs.
test("Vite: dev server, the package outside server.fs.allow: the error names the folder and the setting, which runs", async () => {
    const dir = join(WORK, "vite-fs");
    mkdirSync(join(dir, "public"), { recursive: true });
    copyFileSync(join(PKG, "emscripten-module.wasm"), join(dir, "public", "emscripten-module.wasm"));
    writeFileSync(join(dir, "index.html"), html("./main.js"));
    writeFileSync(join(dir, "in-thread.html"), html("./in-thread.js"));
    writeFileSync(join(dir, "main.js"), MAIN);
    writeFileSync(join(dir, "in-thread.js"), MAIN_IN_THREAD);
    writeFileSync(join(dir, "vite.config.js"), 'export default { server: { host: "127.0.0.1", fs: { allow: ["index.html", "in-thread.html", "main.js", "in-thread.js", "public"] } } };\n');
    const hint = `; Vite's dev server serves no file outside its server.fs.allow folders, and ${PKG} is not in them (a package installed as a link to a folder elsewhere, as npm install <folder> makes one, or an allow list without node_modules): add that folder to server.fs.allow in your Vite config, beside the project's root: server: { fs: { allow: [searchForWorkspaceRoot(process.cwd()), ${JSON.stringify(PKG)}] } } (import { searchForWorkspaceRoot } from "vite"), or install the package from its tarball (npm pack)`;
    const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    await checkAt(serveWith(["--port", "0"], dir), async (url) => {
        const worker = await runIn(url);
        assert.deepEqual(worker.problems, []);
        assert.match(String(worker.r.error), new RegExp(`^Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: it failed to load from http://127\\.0\\.0\\.1:\\d+/(@fs/.*/)?node_modules/@interopio/code-mode/code-mode\\.worker\\.mjs \\(HTTP 403 Forbidden\\)${esc(hint)}$`));
        const inThread = await runIn(`${url}in-thread.html`);
        assert.deepEqual(inThread.problems, []);
        assert.match(String(inThread.r.error), new RegExp(`^Cannot load the Code Mode core from http://127\\.0\\.0\\.1:\\d+/(@fs/.*/)?node_modules/@interopio/code-mode/code-mode\\.wasm: HTTP 403 Forbidden${esc(hint)}$`));
    });
    // The setting, as the error writes it.
    writeFileSync(join(dir, "vite.config.js"), `import { searchForWorkspaceRoot } from "vite";\nexport default { server: { host: "127.0.0.1", fs: { allow: [searchForWorkspaceRoot(process.cwd()), ${JSON.stringify(PKG)}] } } };\n`);
    await checkAt(serveWith(["--port", "0"], dir));
});

test("Vite: build + preview", async () => {
    const dir = join(WORK, "vite");
    sh(join(BIN, "vite"), ["build"], dir);
    assert.ok(existsSync(join(dir, "dist")));
    assert.equal(workerCopies(join(dir, "dist")).length, 1, `the build holds the worker more than once: ${workerCopies(join(dir, "dist"))}`);
    assert.equal(emittedWasm(join(dir, "dist")).length, 1, `the Go core alone (the QuickJS asset comes from public/): ${emittedWasm(join(dir, "dist"))}`);
    await checkAt(serveWith(["preview", "--port", "0"], dir));
});

// SvelteKit's Vite config (Nuxt's likewise) names a worker's assets apart
// from the page's (worker.rollupOptions.output: the worker and its assets under
// _app/immutable/workers/assets/). The worker's module named code-mode.wasm
// in a new URL(..., import.meta.url) of its own, so their builds emitted the
// 8.7 MB core twice (the page's copy, and the worker's, which only a page
// that could not compile the core for its worker used); the page now sends
// the worker the core compiled, or its URL.
test("Vite: build with a worker's assets apart (SvelteKit's layout): the Go core is emitted once, and runs", async () => {
    const dir = join(WORK, "vite-workers");
    mkdirSync(join(dir, "public"), { recursive: true });
    writeFileSync(join(dir, "main.js"), MAIN);
    copyFileSync(join(PKG, "emscripten-module.wasm"), join(dir, "public", "emscripten-module.wasm"));
    writeFileSync(join(dir, "index.html"), html("./main.js"));
    writeFileSync(join(dir, "vite.config.js"), VITE_CONFIG.replace("export default { ", 'export default { worker: { rollupOptions: { output: { entryFileNames: "workers/[name]-[hash].js", assetFileNames: "workers/assets/[name]-[hash][extname]" } } }, '));
    sh(join(BIN, "vite"), ["build"], dir);
    const files = readdirSync(join(dir, "dist"), { recursive: true });
    assert.ok(files.some((f) => f.startsWith("workers")), `the config no longer puts the worker apart: ${files}`);
    const cores = files.filter((f) => /(^|\/)code-mode[-.][\w-]+\.wasm$/.test(f));
    assert.equal(cores.length, 1, `the build holds the Go core more than once: ${cores}`);
    await checkAt(serveWith(["preview", "--port", "0"], dir));
});

// USAGE.md, "Bundlers": with Vite, the QuickJS asset can come from the
// package by an import with ?url (emitted, and its URL given) instead of a
// copy in public/ that an upgrade leaves behind: the dev servers (Vite 7's
// with the package excluded) and build + preview.
test("Vite: wasmLocation from import ... ?url, no copy in public/", async () => {
    const dir = join(WORK, "viteurl");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "main.js"), 'import wasmLocation from "@interopio/code-mode/emscripten-module.wasm?url";\n' + MAIN.replace('wasmLocation: "/emscripten-module.wasm",', "wasmLocation,"));
    writeFileSync(join(dir, "index.html"), html("./main.js"));
    assert.ok(!existsSync(join(dir, "public")));
    for (const [args, vite, config] of [
        [["--port", "0"], undefined, VITE_CONFIG],
        [["--port", "0"], VITE7, VITE_CONFIG.replace("export default { ", 'export default { optimizeDeps: { exclude: ["@interopio/code-mode"] }, ')],
        [["preview", "--port", "0"], undefined, VITE_CONFIG],
    ]) {
        writeFileSync(join(dir, "vite.config.js"), config);
        if (args[0] === "preview") sh(join(BIN, "vite"), ["build"], dir);
        await checkAt(serveWith(args, dir, vite));
    }
    assert.ok(readdirSync(join(dir, "dist", "assets")).some((f) => /^emscripten-module-.*\.wasm$/.test(f)), "vite build emitted the QuickJS asset");
});

// Builds dir/main.js with webpack into dir/dist, with a page that loads it;
// webpack's output.
function webpackBuild(dir) {
    writeFileSync(
        join(dir, "webpack.config.cjs"),
        `module.exports = { mode: "production", entry: "./main.js", output: { path: __dirname + "/dist", publicPath: "/" } };\n`,
    );
    const out = sh(join(BIN, "webpack"), ["--config", "webpack.config.cjs"], dir);
    writeFileSync(join(dir, "dist", "index.html"), html("/main.js", "text/javascript"));
    return out;
}

test("webpack 5: build", async () => {
    const dir = join(WORK, "webpack");
    const out = webpackBuild(dir);
    // The package's own code gives the app no warning (the Go core's size
    // is the app's performance budget to set).
    assert.doesNotMatch(out, /WARNING in \S*node_modules\/@interopio\//, out);
    assert.equal(workerCopies(join(dir, "dist")).length, 1, `the build holds the worker more than once: ${workerCopies(join(dir, "dist"))}`);
    assert.equal(emittedWasm(join(dir, "dist")).length, 1, `the Go core alone (the QuickJS asset comes from public/): ${emittedWasm(join(dir, "dist"))}`);
    copyFileSync(join(dir, "public", "emscripten-module.wasm"), join(dir, "dist", "emscripten-module.wasm"));
    await checkAt(staticServer(join(dir, "dist")));
});

// USAGE.md, "Bundlers": webpack's form of Vite's ?url, no copy of the asset:
// new URL("<package>/<file>", import.meta.url) makes webpack emit the file
// and write its URL.
test("webpack 5: wasmLocation from new URL(\"@interopio/code-mode/emscripten-module.wasm\", import.meta.url), no copy", async () => {
    const dir = join(WORK, "webpackurl");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "main.js"), MAIN.replace('wasmLocation: "/emscripten-module.wasm",', 'wasmLocation: new URL("@interopio/code-mode/emscripten-module.wasm", import.meta.url).href,'));
    webpackBuild(dir);
    assert.ok(!existsSync(join(dir, "dist", "emscripten-module.wasm")), "no copy under the name the other apps use");
    await checkAt(staticServer(join(dir, "dist")));
});

// webpack writes import.meta.url as the source's file: URL on the build
// machine and rewrites new Worker(new URL(...)) to a chunk of its own. When
// that chunk did not load (refused by the page's Content-Security-Policy, or
// not deployed), the error named the build's file: path and said to serve
// the folder over HTTP, as to a page opened from a file.
test("webpack 5: a worker chunk refused by the CSP, or missing: the error says so, without the build's path", async () => {
    const dir = join(WORK, "webpack", "dist");
    const [chunk] = workerCopies(dir);
    assert.ok(chunk, "the build of the test above");
    const csp = html("/main.js", "text/javascript").replace("<title>", `<meta http-equiv="Content-Security-Policy" content="worker-src 'none'"><title>`);
    writeFileSync(join(dir, "csp.html"), csp);
    const s = await staticServer(dir);
    const said = /^Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: its script, which your bundler \(webpack\) emitted as a file of its own, did not load: the server does not have that file \(deploy every file of the build\), or the page's Content-Security-Policy refused it \(allow its URL in worker-src, .*\); the browser's console names the URL and the cause/;
    try {
        const refused = await runIn(s.url + "csp.html");
        assert.match(String(refused.r.error), said);
        rmSync(join(dir, chunk));
        const missing = await runIn(s.url);
        assert.match(String(missing.r.error), said);
        for (const { r } of [refused, missing]) assert.doesNotMatch(String(r.error), /file:|opened from a file/);
    } finally {
        await s.close();
    }
});

// A Node.js server bundle as Next.js's webpack build makes one (a route
// handler, next build --webpack): target node, publicPath "/_next/" and
// module.parser.javascript.url "relative", which turn the Go core's
// new URL("./code-mode.wasm", import.meta.url) into a URL of that public
// path ("/_next/static/media/code-mode.<hash>.wasm"), no file Node.js can
// read: every in-thread factory failed ("Failed to parse URL from
// /_next/..."). Both modes; the default there is the calling thread.
test("webpack 5: a Node.js server bundle as Next.js builds it (url: relative): a factory runs in both modes", () => {
    const dir = join(WORK, "webpack-server");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
        join(dir, "server.js"),
        `import { IoCodeModeFactory } from "@interopio/code-mode";
(async () => {
    const out = {};
    for (const worker of [false, true]) {
        try {
            const api = await IoCodeModeFactory({ wasmLocation: process.env.ASSET, worker, tools: [{ name: "add", description: "a + b", inputSchema: { type: "object" }, execute: async ({ a, b }) => a + b }] });
            const [, executeCode] = api.createSession().getLlmTools();
            const r = await executeCode.execute({ code: "return await tools.add({ a: 2, b: 40 })", explanation: "x" });
            api.dispose();
            out[worker ? "worker" : "thread"] = r.result ?? r.error;
        } catch (e) {
            out[worker ? "worker" : "thread"] = String(e && e.message);
        }
    }
    console.log(JSON.stringify(out));
})();
`,
    );
    writeFileSync(
        join(dir, "webpack.config.cjs"),
        `module.exports = { mode: "production", target: "node", entry: "./server.js", output: { path: __dirname + "/dist", filename: "main.cjs", publicPath: "/_next/" }, module: { parser: { javascript: { url: "relative" } } } };\n`,
    );
    sh(join(BIN, "webpack"), ["--config", "webpack.config.cjs"], dir);
    const bundle = readFileSync(join(dir, "dist", "main.cjs"), "utf8");
    assert.match(bundle, /"\/_next\/"/, "the bundle's public path is not Next.js's: the build no longer makes the case");
    const r = spawnSync(process.execPath, [join(dir, "dist", "main.cjs")], { cwd: dir, encoding: "utf8", timeout: 120_000, env: { ...process.env, ASSET: join(PKG, "emscripten-module.wasm") } });
    assert.equal(r.status, 0, r.stderr.slice(-2000));
    assert.deepEqual(JSON.parse(r.stdout), { thread: 42, worker: 42 });
});

// Rsbuild 2 (Rspack underneath) rewrites both URLs as webpack does, and
// new URL("<package>/<file>", import.meta.url) of the QuickJS asset too:
// its build, with a page in worker mode (the asset from public/) and one on
// the page's thread (worker: false, the asset from the package), and its
// dev server.
const RSBUILD_CONFIG = `export default { source: { entry: { index: "./main.js", thread: "./thread.js" } }, server: { host: "127.0.0.1" } };\n`;
const MAIN_THREAD_URL = `import { IoCodeModeFactory } from "@interopio/code-mode";
window.__result = (async () => {
    const api = await IoCodeModeFactory({
        wasmLocation: new URL("@interopio/code-mode/emscripten-module.wasm", import.meta.url).href,
        worker: false,
        tools: [{ name: "add", execute: ({ a, b }) => a + b }],
    });
    const [, executeCode] = api.createSession().getLlmTools();
    const r = await executeCode.execute({ code: "return await tools.add({ a: 2, b: 40 })", explanation: "x" });
    api.dispose();
    return r;
})().catch((e) => ({ error: String((e && e.message) || e) }));
`;

// The worker-mode page (check's abort of a spin tells the mode) and the
// page's-thread one (no Worker started) of the Rsbuild app at url.
async function checkRsbuild(url) {
    const worker = await runIn(url);
    check(worker);
    assert.equal(worker.workers.length, 1, `workers: ${worker.workers}`);
    // The worker's chunk is named by the package (Worker's name option):
    // the dev server named it after Rsbuild's HMR entry, a data: URL with
    // the build machine's path (data_text_javascript_import_20_7B_20init_20_7D_20from_20_2Fwork_2F...).
    assert.match(worker.workers[0], /\/code-mode\.[^/]*js$/, `the worker's chunk: ${worker.workers[0]}`);
    const thread = await runIn(url + "thread.html");
    assert.deepEqual(thread.problems, []);
    assert.equal(thread.r.error, undefined, thread.r.error);
    assert.equal(thread.r.result, 42, JSON.stringify(thread.r));
    assert.deepEqual(thread.workers, [], "worker: false starts no Worker");
}

test("Rsbuild: build, in worker mode and on the page's thread", async () => {
    const dir = join(WORK, "rsbuild");
    mkdirSync(join(dir, "public"), { recursive: true });
    copyFileSync(join(PKG, "emscripten-module.wasm"), join(dir, "public", "emscripten-module.wasm"));
    writeFileSync(join(dir, "main.js"), MAIN);
    writeFileSync(join(dir, "thread.js"), MAIN_THREAD_URL);
    writeFileSync(join(dir, "rsbuild.config.mjs"), RSBUILD_CONFIG);
    const out = sh(join(BIN, "rsbuild"), ["build"], dir);
    assert.doesNotMatch(out, /warn/i, out);
    const dist = join(dir, "dist");
    assert.equal(workerCopies(dist).length, 1, `the build holds the worker more than once: ${workerCopies(dist)}`);
    const wasm = readdirSync(dist, { recursive: true }).filter((f) => f.endsWith(".wasm"));
    assert.equal(wasm.filter((f) => f !== "emscripten-module.wasm").length, 2, `the Go core and the QuickJS asset, emitted once each: ${wasm}`);
    await checkAt(staticServer(dist), checkRsbuild);
});

test("Rsbuild: dev server", async () => {
    const dir = join(WORK, "rsbuild");
    await checkAt(serveWith(["dev", "--port", "0"], dir, join(BIN, "rsbuild")), checkRsbuild);
});

test("esbuild: build, with the package's files copied next to the bundle", async () => {
    const dir = join(WORK, "esbuild");
    sh(join(BIN, "esbuild"), ["main.js", "--bundle", "--format=esm", "--outdir=dist"], dir);
    for (const f of ["code-mode.wasm", "code-mode.worker.mjs"]) copyFileSync(join(PKG, f), join(dir, "dist", f));
    writeFileSync(join(dir, "dist", "index.html"), html("/main.js"));
    copyFileSync(join(dir, "public", "emscripten-module.wasm"), join(dir, "dist", "emscripten-module.wasm"));
    await checkAt(staticServer(join(dir, "dist")));
});

// Rollup, as esbuild: the package's two files copied next to the bundle.
const ROLLUP_CONFIG = `import { nodeResolve } from "@rollup/plugin-node-resolve";
export default { input: process.env.INPUT, output: { dir: process.env.OUT, format: "es" }, plugins: [nodeResolve({ browser: true })] };
`;
function rollup(dir, input, out) {
    writeFileSync(join(dir, "rollup.config.mjs"), ROLLUP_CONFIG);
    const r = spawnSync(join(BIN, "rollup"), ["-c", "rollup.config.mjs"], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", INPUT: input, OUT: out } });
    if (r.status !== 0) throw new Error(`rollup failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
    writeFileSync(join(dir, out, "index.html"), html(`/${input}`));
    copyFileSync(join(dir, "public", "emscripten-module.wasm"), join(dir, out, "emscripten-module.wasm"));
}

test("Rollup: build, with the package's files copied next to the bundle", async () => {
    const dir = join(WORK, "rollup");
    rollup(dir, "main.js", "dist");
    for (const f of ["code-mode.wasm", "code-mode.worker.mjs"]) copyFileSync(join(PKG, f), join(dir, "dist", f));
    await checkAt(staticServer(join(dir, "dist")));
});

// Without the copy, the factory's error names the URL it looked at, what
// the server answered, and what to copy, in both modes. The worker's said
// only "Cannot start the Code Mode worker: it failed to load" (a browser's
// error event for a script that did not load has no message).
const NOT_COPIED = String.raw`the package's code-mode\.wasm and code-mode\.worker\.mjs are looked up beside the script that loads them: a bundler that does not copy them \(esbuild, Rollup, bun build, Angular's ng build\) needs them copied next to its output \(the package's README, "Bundlers"\)`;
test("Rollup and esbuild without the package's files: the error names the file and what to copy", async () => {
    const dir = join(WORK, "rollup");
    writeFileSync(join(dir, "in-thread.js"), MAIN_IN_THREAD);
    rollup(dir, "main.js", "bare");
    rollup(dir, "in-thread.js", "bare-in-thread");
    const edir = join(WORK, "esbuild");
    sh(join(BIN, "esbuild"), ["main.js", "--bundle", "--format=esm", "--outdir=bare"], edir);
    writeFileSync(join(edir, "bare", "index.html"), html("/main.js"));
    const cases = [
        [join(dir, "bare"), new RegExp(String.raw`^Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: it failed to load from http://127\.0\.0\.1:\d+/code-mode\.worker\.mjs \(HTTP 404 Not Found\); ${NOT_COPIED}$`)],
        [join(dir, "bare-in-thread"), new RegExp(String.raw`^Cannot load the Code Mode core from http://127\.0\.0\.1:\d+/code-mode\.wasm: HTTP 404 Not Found; ${NOT_COPIED}$`)],
        [join(edir, "bare"), new RegExp(String.raw`^Code Mode: the engine's worker stopped: Cannot start the Code Mode worker: it failed to load from http://127\.0\.0\.1:\d+/code-mode\.worker\.mjs \(HTTP 404 Not Found\); ${NOT_COPIED}$`)],
    ];
    for (const [out, want] of cases) {
        const s = await staticServer(out);
        try {
            const { r, problems } = await runIn(s.url);
            assert.deepEqual(problems, []);
            assert.match(String(r.error), want, out);
        } finally {
            await s.close();
        }
    }
});

// The classic script imported for what it does (define the global), as a
// bundled app may: the package's "sideEffects" keeps that file, where
// "sideEffects": false let webpack and esbuild drop the import without a
// word (a 92-byte bundle; IoCodeModeFactory was not defined).
test("the classic script imported for its global (webpack, esbuild): the bundle defines IoCodeModeFactory", async () => {
    const dir = join(WORK, "global");
    writeFileSync(join(dir, "main.js"), `import "@interopio/code-mode/code-mode.global.js";\nwindow.__result = { factory: typeof globalThis.IoCodeModeFactory };\n`);
    writeFileSync(join(dir, "webpack.config.cjs"), `module.exports = { mode: "production", entry: "./main.js", output: { path: __dirname + "/webpack" } };\n`);
    sh(join(BIN, "webpack"), ["--config", "webpack.config.cjs"], dir);
    sh(join(BIN, "esbuild"), ["main.js", "--bundle", "--format=esm", "--outdir=esbuild"], dir);
    for (const out of ["webpack", "esbuild"]) {
        writeFileSync(join(dir, out, "index.html"), html("/main.js"));
        const s = await staticServer(join(dir, out));
        try {
            const { r, problems } = await runIn(s.url);
            assert.deepEqual(problems, []);
            assert.deepEqual(r, { factory: "function" }, out);
        } finally {
            await s.close();
        }
    }
});

// WXT (USAGE.md, "Browser extensions"): a side panel and a background that
// run a program (the side panel's mode from its query), with the QuickJS
// asset from the ?url import and the manifest's policy from wxt.config.ts.
// Built with a module background, and with WXT's default, a classic one that
// Vite bundles as an IIFE and inlines the .wasm files into (the Go core and
// the asset once each: a Node.js-only new URL(..., import.meta.url) of the
// package inlined the asset a second time); and from WXT's dev mode, whose
// pages load their scripts from its dev server, another origin.
const WXT_RUN = `import { IoCodeModeFactory } from "@interopio/code-mode";
import wasmLocation from "@interopio/code-mode/emscripten-module.wasm?url";
export async function runOnce(worker?: boolean) {
    try {
        const config: any = { wasmLocation, tools: [{ name: "add", execute: ({ a, b }: any) => a + b }] };
        if (worker !== undefined) config.worker = worker;
        const api = await IoCodeModeFactory(config);
        const [, executeCode] = api.createSession().getLlmTools();
        const r: any = await executeCode.execute({ code: "return await tools.add({ a: 2, b: 40 })", explanation: "x" });
        api.dispose();
        return r.error ? { error: r.error.message } : { result: r.result };
    } catch (e: any) {
        return { error: String((e && e.message) || e) };
    }
}
`;
const WXT_BACKGROUND = (type) => `import { runOnce } from "../lib/run";
export default defineBackground(${type ? `{ type: "${type}", main() { (self as any).runHere = runOnce; } }` : "() => { (self as any).runHere = runOnce; }"});
`;
const NO_WORKER_IN_SW = /^config\.worker: true, but a service worker \(an extension's background is one\) cannot start a Worker/;

test("WXT: build (module and classic background) and dev mode: the side panel in both modes, the background on its thread", async () => {
    const dir = join(WORK, "wxt");
    mkdirSync(join(dir, "entrypoints", "sidepanel"), { recursive: true });
    mkdirSync(join(dir, "lib"), { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "copilot", version: "1.0.0", private: true, type: "module" }));
    // The app's own node_modules: its dev server serves files of its folder
    // alone (the installed package one folder up answered 403).
    cpSync(PKG, join(dir, "node_modules", "@interopio", "code-mode"), { recursive: true });
    writeFileSync(
        join(dir, "wxt.config.ts"),
        `import { defineConfig } from "wxt";
export default defineConfig({
    webExt: { disabled: true },
    manifest: { permissions: ["sidePanel"], content_security_policy: { extension_pages: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'" } },
});
`,
    );
    writeFileSync(join(dir, "lib", "run.ts"), WXT_RUN);
    writeFileSync(join(dir, "entrypoints", "sidepanel", "index.html"), html("./main.ts"));
    writeFileSync(
        join(dir, "entrypoints", "sidepanel", "main.ts"),
        `import { runOnce } from "../../lib/run";
const w = new URLSearchParams(location.search).get("worker");
(window as any).__result = runOnce(w === null ? undefined : w === "true");
`,
    );
    const expected = (sw) => ({ sw, pages: [{ result: 42 }, { result: 42 }] });
    const PAGES = ["sidepanel.html", "sidepanel.html?worker=false"];
    const ext = join(dir, ".output", "chrome-mv3");
    for (const type of ["module", undefined]) {
        writeFileSync(join(dir, "entrypoints", "background.ts"), WXT_BACKGROUND(type));
        sh(join(BIN, "wxt"), ["build"], dir);
        const background = readFileSync(join(ext, "background.js"), "utf8");
        if (type) {
            const r = await runInExtension(ext, [undefined, true], PAGES);
            assert.match(r.sw[1].error, NO_WORKER_IN_SW);
            assert.deepEqual(r, expected([{ result: 42 }, r.sw[1]]));
            assert.ok(background.length < 10_000, `a module background imports the package: ${background.length} B`);
        } else {
            assert.deepEqual(await runInExtension(ext, [undefined], []), { sw: [{ result: 42 }], pages: [] });
            assert.equal(background.match(/data:application\/wasm;base64,/g)?.length, 2, "the Go core and the QuickJS asset inlined once each");
        }
    }
    // A free port of the system's: WXT's --port 0 takes 3000, which other
    // tests' pages name (dom-in-node.test's page is http://localhost:3000/).
    const port = await new Promise((r) => {
        const probe = createServer().listen(0, "127.0.0.1", () => {
            const { port } = probe.address();
            probe.close(() => r(port));
        });
    });
    const dev = await serveWith(["--port", String(port)], dir, join(BIN, "wxt"), /as an unpacked extension/);
    try {
        const r = await runInExtension(`${ext}-dev`, [undefined], PAGES);
        assert.deepEqual(r, expected([{ result: 42 }]));
    } finally {
        await dev.close();
    }
});
