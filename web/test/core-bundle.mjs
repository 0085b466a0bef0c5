// A bundle of web/src's in-thread factory for tests that need what the
// package does not export: threadFactory(config, overrides), whose overrides
// replace globals of the factory's Go core (a constructor that throws on
// demand makes the Go program die, say). Built with esbuild and the same
// wasm_exec plugin as dist/ (scripts/wasm-exec.mjs), into a temporary folder
// next to a link to dist/code-mode.wasm.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BroadcastChannel } from "node:worker_threads";
import * as esbuild from "esbuild";
import { wasmExecPlugin } from "../../scripts/wasm-exec.mjs";
import { coreWasmPath, root } from "./helpers.mjs";

/**
 * A temporary folder holding a link to dist/code-mode.wasm (the bundles
 * load it from next to themselves), and the wasm_exec plugin of this Go.
 * @param {string} prefix
 */
function prepare(prefix) {
    const go = process.env.GO || "go";
    const env = spawnSync(go, ["env", "GOROOT", "GOVERSION"], { encoding: "utf8" });
    if (env.status !== 0) throw new Error(`${go} env failed: ${env.stderr}`);
    const [goroot, goversion] = env.stdout.trim().split("\n");
    const dir = mkdtempSync(join(tmpdir(), prefix));
    symlinkSync(coreWasmPath, join(dir, "code-mode.wasm"));
    return { dir, plugin: wasmExecPlugin(goroot, goversion) };
}

/** @returns {Promise<{ threadFactory: (config: any, overrides?: Record<string, unknown>) => Promise<any>, dir: string, cleanup: () => void }>} */
export async function loadThreadFactory() {
    const { mod, dir, cleanup } = await bundleOf("code-mode-core-", 'export { threadFactory } from "./web/src/factory.mjs";');
    return { threadFactory: mod.threadFactory, dir, cleanup };
}

/**
 * A bundle of web/src's worker factory whose worker imports a module of
 * fixtures/ first: by default arm-typeerror.mjs, with which the worker's Go
 * core dies when the file named by CODE_MODE_TEST_ARM exists and Go builds a
 * TypeError.
 * @param {string} [first]
 * @returns {Promise<{ workerFactory: (config: any) => Promise<any>, hostURL: string, cleanup: () => void }>}
 */
export async function loadWorkerFactory(first = "arm-typeerror.mjs") {
    const { dir, plugin } = prepare("code-mode-worker-");
    const common = { bundle: true, format: "esm", platform: "node", target: "es2022", plugins: [plugin], logLevel: "silent" };
    await esbuild.build({
        ...common,
        stdin: { contents: `import "./web/test/fixtures/${first}"; import "./web/src/worker.mjs";`, resolveDir: root, loader: "js" },
        outfile: join(dir, "code-mode.worker.mjs"),
        // The package says "sideEffects": false, which would drop these
        // imports: they are the worker.
        ignoreAnnotations: true,
    });
    await esbuild.build({
        ...common,
        stdin: { contents: 'export { workerFactory } from "./web/src/worker-host.mjs";', resolveDir: root, loader: "js" },
        outfile: join(dir, "host.mjs"),
    });
    const hostURL = pathToFileURL(join(dir, "host.mjs")).href;
    const { workerFactory } = await import(hostURL);
    return { workerFactory, hostURL, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The byte length of the Go core's memory in the worker of a bundle of
 * loadWorkerFactory("go-memory.mjs") (the only such worker alive).
 * @returns {Promise<number>}
 */
export async function goMemoryOfWorker() {
    const sizes = /** @type {number[]} */ (await askGoMemory("size?"));
    if (sizes.length !== 1) throw new Error(`the worker has ${sizes.length} Go cores`);
    return sizes[0];
}

/**
 * How many QuickJS memories are alive, once collected, in the worker of a
 * bundle of loadWorkerFactory("go-memory.mjs") (the only such worker alive).
 * @returns {Promise<number>}
 */
export async function quickJSMemoriesOfWorker() {
    return /** @type {{ quickjs: number }} */ (await askGoMemory("quickjs?")).quickjs;
}

/**
 * How many QuickJS memories were ever made in the worker of a bundle of
 * loadWorkerFactory("go-memory.mjs") (the only such worker alive).
 * @returns {Promise<number>}
 */
export async function quickJSMemoriesMadeInWorker() {
    return /** @type {{ made: number }} */ (await askGoMemory("made?")).made;
}

/**
 * The answer of fixtures/go-memory.mjs in the worker to request.
 * @param {string} request
 */
function askGoMemory(request) {
    const ch = new BroadcastChannel("code-mode-go-memory");
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
            ch.close();
            reject(new Error(`no worker answered ${request}`));
        }, 10_000);
        ch.onmessage = (/** @type {MessageEvent} */ e) => {
            clearTimeout(timer);
            ch.close();
            resolve(e.data);
        };
        ch.postMessage(request);
    });
}

/**
 * A bundle of web/src/wrap.mjs: the public API's wrapper of the Go core's
 * objects, for tests that give it fakes of them.
 * @returns {Promise<{ wrapApi: Function, pagePipeline: Function, cleanup: () => void }>}
 */
export async function loadWrap() {
    const { mod, cleanup } = await bundleOf("code-mode-wrap-", 'export { pagePipeline, wrapApi } from "./web/src/wrap.mjs";');
    return { pagePipeline: mod.pagePipeline, wrapApi: mod.wrapApi, cleanup };
}

/**
 * A bundle of web/src/worker-engine.mjs's rule for a run past its deadline
 * (overrunWait), for tests that give it a clock.
 * @returns {Promise<{ overrunWait: (t: number, deadline: number, lastSign: number, grace?: number) => number, cleanup: () => void }>}
 */
export async function loadEngineHelpers() {
    const { mod, cleanup } = await bundleOf("code-mode-engine-", 'export { overrunWait } from "./web/src/worker-engine.mjs";');
    return { overrunWait: mod.overrunWait, cleanup };
}

/**
 * Bundles `contents` (exports of web/src modules) for the calling thread
 * and imports it.
 * @param {string} prefix @param {string} contents
 */
async function bundleOf(prefix, contents) {
    const { dir, plugin } = prepare(prefix);
    await esbuild.build({
        stdin: { contents, resolveDir: root, loader: "js" },
        outfile: join(dir, "bundle.mjs"),
        bundle: true,
        format: "esm",
        platform: "neutral",
        target: "es2022",
        plugins: [plugin],
        logLevel: "silent",
    });
    const mod = await import(pathToFileURL(join(dir, "bundle.mjs")).href);
    return { mod, dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
