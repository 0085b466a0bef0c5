// The package as teams test their own code with it: `npm pack` of dist/,
// installed from the tarball into throwaway test-runner apps (the runners
// pinned in this folder's lockfile), each running a test file that creates a
// factory, registers a tool and runs a program that calls it, on the
// calling thread and with worker: true:
// - Vitest in its node, jsdom and happy-dom environments (pools forks and
//   threads), with a module of the app that takes the QuickJS asset as a
//   page does (a ?url import, new URL(..., import.meta.url)): the errors say
//   what to give, and USAGE.md's vi.mock of the ?url import runs;
// - Vitest's browser mode, with the Playwright provider and the installed
//   Chromium (no browser download), the asset by the ?url import;
// - Jest 30 in its ES module mode (node --experimental-vm-modules), node and
//   jsdom; a CommonJS app with babel-jest, the package by await import();
//   TypeScript by ts-jest's ES module mode.
// Opt-in (222 MB of node_modules): run by `make test-runners`, not by
// `make test`. See USAGE.md, "Loading" (the test runners).
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "..", "..");
const WORK = join(HERE, ".work");
const VITEST = join(HERE, "node_modules", "vitest", "vitest.mjs");
const JEST = join(HERE, "node_modules", "jest", "bin", "jest.js");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

// The test each runner runs, with its own test and expect: a tool call, in
// both engine modes; in worker mode an abort stops a spinning program at
// once (on the calling thread only the run's timeout could).
const suite = (header) => `${header}
export function suite(name, wasmLocation) {
    for (const worker of [false, true]) {
        test(\`\${name}: a tool call, worker: \${worker}\`, async () => {
            const codeMode = await IoCodeModeFactory({ wasmLocation, worker, timeout: 20000 });
            try {
                codeMode.registerTool({ name: "math.add", description: "a + b", inputSchema: { type: "object" }, execute: async ({ a, b }) => a + b });
                const session = codeMode.createSession();
                await codeMode.ready();
                const executeCode = session.getLlmTools().find((t) => t.name === "executeCode");
                const r = await executeCode.execute({ code: "return await tools.math.add({ a: 2, b: 40 })", explanation: "x" });
                expect(r.error).toBeUndefined();
                expect(r.result).toBe(42);
                if (worker) {
                    const c = new AbortController();
                    setTimeout(() => c.abort(new Error("stopped")), 300);
                    const spin = await executeCode.execute({ code: "for (;;) {}", explanation: "x" }, { signal: c.signal }).then((x) => x.error?.code, (e) => e.message);
                    expect(spin).toBe("stopped");
                }
            } finally {
                codeMode.dispose();
            }
        }, 60000);
    }
}
`;
const ESM_HEADER = `import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { IoCodeModeFactory } from "@interopio/code-mode";
export const assetPath = createRequire(import.meta.url).resolve("@interopio/code-mode/emscripten-module.wasm");
export const assetURL = pathToFileURL(assetPath).href;`;
const ENVIRONMENTS = (pragma) => ({
    "test/node.test.js": `import { suite, assetPath } from "./suite.js";\nsuite("node", assetPath);\n`,
    "test/jsdom.test.js": `${pragma("jsdom")}\nimport { suite, assetURL } from "./suite.js";\nsuite("jsdom", assetURL);\n`,
});

// An app module that takes the asset as a page does, and tests of it.
const AGENT = (wasmLocation, imports = "") => `import { IoCodeModeFactory } from "@interopio/code-mode";
${imports}
export const make = (worker) => IoCodeModeFactory({ wasmLocation: ${wasmLocation}, worker });
`;
const APP_TESTS = (env) => `// @vitest-environment ${env}
import { test, expect } from "vitest";
import * as byUrl from "../src/agent-url.js";
import * as byNewURL from "../src/agent-new-url.js";
const hint = ${JSON.stringify(env === "node" ? 'pass its path, wasmLocation: require.resolve("@interopio/code-mode/emscripten-module.wasm")' : "this is Node.js with a DOM (a test environment such as jsdom or happy-dom), where wasmLocation is a URL read against the page's (http://localhost:3000/): to read the file, give its file: URL")};
for (const [form, m] of [["?url", byUrl], ["new URL", byNewURL]]) for (const worker of [false, true]) {
    test(\`${env}: the app's \${form} asset, worker: \${worker}, says what to give\`, async () => {
        await expect(m.make(worker)).rejects.toThrow(hint);
    }, 60000);
}
`;
const MOCKED = (env) => `// @vitest-environment ${env}
import { test, expect, vi } from "vitest";
import { make } from "../src/agent-url.js";
vi.mock("@interopio/code-mode/emscripten-module.wasm?url", async () => {
    const { createRequire } = await import("node:module");
    const { pathToFileURL } = await import("node:url");
    return { default: pathToFileURL(createRequire(import.meta.url).resolve("@interopio/code-mode/emscripten-module.wasm")).href };
});
for (const worker of [false, true]) {
    test(\`${env}: the app's ?url asset mocked as USAGE.md says, worker: \${worker}\`, async () => {
        const api = await make(worker);
        api.registerTool({ name: "a.b", inputSchema: { type: "object" }, execute: async () => 42 });
        const r = await api.createSession().getLlmTools()[1].execute({ code: "return await tools.a.b({})", explanation: "" });
        api.dispose();
        expect(r.result).toBe(42);
    }, 60000);
}
`;

const APPS = {
    vitest: {
        "package.json": JSON.stringify({ private: true, type: "module" }),
        "test/suite.js": suite(`import { test, expect } from "vitest";\n${ESM_HEADER}`),
        ...ENVIRONMENTS((env) => `// @vitest-environment ${env}`),
        "test/happy-dom.test.js": `// @vitest-environment happy-dom\nimport { suite, assetURL } from "./suite.js";\nsuite("happy-dom", assetURL);\n`,
        "src/agent-url.js": AGENT("wasmLocation", `import wasmLocation from "@interopio/code-mode/emscripten-module.wasm?url";`),
        "src/agent-new-url.js": AGENT(`new URL("@interopio/code-mode/emscripten-module.wasm", import.meta.url).href`),
        "test/app-node.test.js": APP_TESTS("node"),
        "test/app-jsdom.test.js": APP_TESTS("jsdom"),
        "test/mocked-node.test.js": MOCKED("node"),
        "test/mocked-jsdom.test.js": MOCKED("jsdom"),
    },
    "vitest-browser": {
        "package.json": JSON.stringify({ private: true, type: "module" }),
        "vitest.config.js": `import { defineConfig } from "vitest/config";
import { playwright } from "@vitest/browser-playwright";
export default defineConfig({ test: { browser: {
    enabled: true, headless: true, instances: [{ browser: "chromium" }],
    provider: playwright({ launchOptions: { executablePath: ${JSON.stringify(CHROMIUM)}, args: ["--no-sandbox", "--disable-gpu"] } }),
} } });
`,
        "test/suite.js": suite(`import { test, expect } from "vitest";\nimport { IoCodeModeFactory } from "@interopio/code-mode";`),
        "test/page.test.js": `import wasmLocation from "@interopio/code-mode/emscripten-module.wasm?url";\nimport { suite } from "./suite.js";\nsuite("browser", wasmLocation);\n`,
    },
    "jest-esm": {
        "package.json": JSON.stringify({ private: true, type: "module", jest: { transform: {} } }),
        "test/suite.js": suite(`import { test, expect } from "@jest/globals";\n${ESM_HEADER}`),
        ...ENVIRONMENTS((env) => `/** @jest-environment ${env} */`),
    },
    // CommonJS: Babel turns the test's imports into require(); the package,
    // ES modules only, comes by await import() (Jest's require() of it needs
    // Node.js 24.9 or later).
    "jest-cjs": {
        "package.json": JSON.stringify({ private: true }),
        "babel.config.cjs": `module.exports = { presets: [["@babel/preset-env", { targets: { node: "current" } }]] };\n`,
        "test/suite.js": suite(`import { pathToFileURL } from "node:url";
export const assetPath = require.resolve("@interopio/code-mode/emscripten-module.wasm");
export const assetURL = pathToFileURL(assetPath).href;
const IoCodeModeFactory = async (config) => (await import("@interopio/code-mode")).IoCodeModeFactory(config);`),
        ...ENVIRONMENTS((env) => `/** @jest-environment ${env} */`),
    },
    // TypeScript by ts-jest's ES module mode, configured as USAGE.md says
    // (isolatedModules: transpiled alone, no @types to type-check with).
    "jest-ts": {
        "package.json": JSON.stringify({ private: true }),
        "tsconfig.esm.json": JSON.stringify({ compilerOptions: { module: "esnext", moduleResolution: "bundler", target: "es2022", isolatedModules: true } }),
        "jest.config.cjs": `module.exports = {
    extensionsToTreatAsEsm: [".ts"],
    transform: { "^.+\\\\.tsx?$": ["ts-jest", { useESM: true, tsconfig: "tsconfig.esm.json" }] },
};
`,
        "test/suite.ts": suite(`import { test, expect } from "@jest/globals";
${ESM_HEADER}`).replace("export function suite(name, wasmLocation)", "export function suite(name: string, wasmLocation: string)").replace(/\(\{ a, b \}\)/, "({ a, b }: any)").replace("(t) => t.name", "(t: any) => t.name").replace("(x) => x.error?.code, (e) => e.message", "(x: any) => x.error?.code, (e: any) => e.message"),
        "test/node.test.ts": `import { suite, assetPath } from "./suite.ts";\nsuite("node", assetPath);\n`,
        "test/jsdom.test.ts": `/** @jest-environment jsdom */\nimport { suite, assetURL } from "./suite.ts";\nsuite("jsdom", assetURL);\n`,
    },
};

function sh(cmd, args, cwd, timeout = 300_000) {
    const r = spawnSync(cmd, args, { cwd, encoding: "utf8", timeout, env: { ...process.env, NO_COLOR: "1", CI: "1" } });
    return { status: r.status, signal: r.signal, out: `${r.stdout}\n${r.stderr}` };
}

before(() => {
    for (const f of ["index.mjs", "code-mode.worker.mjs", "code-mode.wasm", "package.json"]) {
        if (!existsSync(join(ROOT, "dist", f))) throw new Error(`dist/${f} is missing: run \`make build\` first`);
    }
    if (!existsSync(VITEST) || !existsSync(JEST)) throw new Error("web/runners-test/node_modules is missing: npm ci --prefix web/runners-test");
    rmSync(WORK, { recursive: true, force: true });
    mkdirSync(WORK, { recursive: true });
    const pack = sh("npm", ["pack", "--silent", "--pack-destination", WORK, join(ROOT, "dist")], ROOT);
    assert.equal(pack.status, 0, pack.out);
    const tgz = join(WORK, pack.out.trim().split("\n").filter(Boolean).pop());
    for (const [app, files] of Object.entries(APPS)) {
        for (const [name, body] of Object.entries(files)) {
            mkdirSync(dirname(join(WORK, app, name)), { recursive: true });
            writeFileSync(join(WORK, app, name), body);
        }
        const install = sh("npm", ["install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--offline", tgz], join(WORK, app));
        assert.equal(install.status, 0, install.out);
    }
});

/**
 * The tests a runner's JSON report lists, as "title: status" (Vitest's and
 * Jest's reports have the same shape), after checking the run ended.
 */
function outcomes(run, report) {
    assert.equal(run.signal, null, `the runner was killed:\n${run.out.slice(-3000)}`);
    assert.ok(existsSync(report), `no report (status ${run.status}):\n${run.out.slice(-3000)}`);
    const { testResults } = JSON.parse(readFileSync(report, "utf8"));
    return testResults.flatMap((f) => f.assertionResults.map((a) => `${a.title}: ${a.status}${a.failureMessages?.length ? ` (${a.failureMessages.join(" ").slice(0, 600)})` : ""}`)).sort();
}
const passed = (titles) => titles.map((t) => `${t}: passed`).sort();
const bothModes = (names) => names.flatMap((n) => [`${n}: a tool call, worker: false`, `${n}: a tool call, worker: true`]);

for (const pool of ["forks", "threads"]) {
    test(`Vitest: node, jsdom and happy-dom environments (pool ${pool}); an app's page-style asset says what to give, and USAGE.md's vi.mock runs`, () => {
        const dir = join(WORK, "vitest");
        const report = join(dir, `report-${pool}.json`);
        const run = sh(process.execPath, [VITEST, "run", `--pool=${pool}`, "--reporter=json", `--outputFile=${report}`], dir);
        const app = (env) => ["?url", "new URL"].flatMap((form) => [false, true].map((w) => `${env}: the app's ${form} asset, worker: ${w}, says what to give`));
        const mocked = (env) => [false, true].map((w) => `${env}: the app's ?url asset mocked as USAGE.md says, worker: ${w}`);
        assert.deepEqual(outcomes(run, report), passed([...bothModes(["node", "jsdom", "happy-dom"]), ...app("node"), ...app("jsdom"), ...mocked("node"), ...mocked("jsdom")]));
        assert.equal(run.status, 0, run.out.slice(-3000));
    });
}

test("Vitest browser mode: the Playwright provider with the installed Chromium, the asset by its ?url import", () => {
    const dir = join(WORK, "vitest-browser");
    const report = join(dir, "report.json");
    const run = sh(process.execPath, [VITEST, "run", "--reporter=json", `--outputFile=${report}`], dir);
    assert.deepEqual(outcomes(run, report), passed(bothModes(["browser"])));
    assert.equal(run.status, 0, run.out.slice(-3000));
});

const JEST_APPS = { "jest-esm": "ES modules", "jest-cjs": "CommonJS with babel-jest, the package by await import()", "jest-ts": "TypeScript by ts-jest's ES module mode" };
for (const [app, what] of Object.entries(JEST_APPS)) {
    test(`Jest 30 (--experimental-vm-modules), ${what}: node and jsdom environments`, () => {
        const dir = join(WORK, app);
        const report = join(dir, "report.json");
        const run = sh(process.execPath, ["--experimental-vm-modules", JEST, "--rootDir", dir, "--json", `--outputFile=${report}`], dir);
        assert.deepEqual(outcomes(run, report), passed(bothModes(["node", "jsdom"])));
        assert.equal(run.status, 0, run.out.slice(-3000));
    });
}
