// Configuration errors, loading the QuickJS asset (path, file: URL, HTTP),
// and what the loader leaves (or must not leave) on the global object.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { WORKER, assetBytes, assetPath, assetURL, indexURL, loadFactory, root, run, serve, withFactory } from "./helpers.mjs";

// Vite 8's dev server's answer for a file outside server.fs.allow (HTML-escaped).
const VITE_403 = `
    <body>
      <h1>403 Restricted</h1>
      <p>The request id &quot;/home/me/lib/code-mode/dist/emscripten-module.wasm&quot; is outside of Vite serving allow list.<br/><br/>- /home/me/app<br/><br/>Refer to docs https://vite.dev/config/server-options.html#server-fs-allow for configurations and more details.</p>
    </body>
`;

let IoCodeModeFactory;
before(async () => {
    IoCodeModeFactory = await loadFactory();
});

async function smoke(api) {
    try {
        const session = api.createSession();
        const executeCode = session.getLlmTools().find((t) => t.name === "executeCode");
        const r = await executeCode.execute({ code: "return [1, 2, 3].map((x) => x * 2)", explanation: "smoke" });
        assert.deepEqual(r.result, [2, 4, 6], JSON.stringify(r));
    } finally {
        api.dispose();
    }
}

describe("config errors reject with a TypeError naming the field", () => {
    const cases = [
        ["no config", undefined, /^config: expected an object/],
        ["null config", null, /^config: expected an object/],
        ["a string config", "x", /^config: expected an object/],
        ["missing wasmLocation", {}, /config\.wasmLocation: expected .*, got undefined$/],
        // A misspelt or misnamed field: the error said "got undefined" alone.
        ["misspelt wasmLocation", { wasmLocaton: assetPath }, /^config\.wasmLocation: expected a non-empty string .*, got undefined; unknown key "wasmLocaton" \(did you mean "wasmLocation"\?\)$/],
        ["another name for wasmLocation", { timeout: 1000, wasmURL: assetPath }, /^config\.wasmLocation: expected a non-empty string .*, got undefined; unknown key "wasmURL"$/],
        ["empty wasmLocation", { wasmLocation: "" }, /config\.wasmLocation: expected/],
        ["numeric wasmLocation", { wasmLocation: 5 }, /config\.wasmLocation: expected .*, got the number 5$/],
        // A bundler's import of the asset's bytes: the package fetches it itself.
        ["the asset's bytes as wasmLocation", { wasmLocation: new Uint8Array(8) }, /^config\.wasmLocation: expected a non-empty string .*, got the file's bytes \(give where to fetch them: its URL or path\)$/],
        ["an ArrayBuffer as wasmLocation", { wasmLocation: new ArrayBuffer(8) }, /, got the file's bytes/],
        // new URL(..., import.meta.url) or pathToFileURL(path): the message says to pass its href.
        ["a URL object as wasmLocation", { wasmLocation: new URL("file:///x/emscripten-module.wasm") }, /^config\.wasmLocation: expected a non-empty string \(the URL, or in Node\.js the file path, of emscripten-module\.wasm\), got a URL object \(pass its href: wasmLocation: url\.href\)$/],
        ["timeout: -1", { wasmLocation: assetPath, timeout: -1 }, /config\.timeout: expected/],
        ["timeout: NaN", { wasmLocation: assetPath, timeout: NaN }, /config\.timeout: expected/],
        ["timeout: '1000'", { wasmLocation: assetPath, timeout: "1000" }, /config\.timeout: expected/],
        ['memoryLimit: "x"', { wasmLocation: assetPath, memoryLimit: "x" }, /config\.memoryLimit: expected/],
        ["memoryLimit: 0", { wasmLocation: assetPath, memoryLimit: 0 }, /config\.memoryLimit: expected/],
        ["toolFilter: 5", { wasmLocation: assetPath, toolFilter: 5 }, /config\.toolFilter: expected a function/],
        ["interceptors: 5", { wasmLocation: assetPath, interceptors: 5 }, /config\.interceptors: expected/],
        // Each read as no guard at all: every tool call ran unchecked.
        ["interceptors: a Map of guards", { wasmLocation: assetPath, interceptors: new Map([["onToolCall", () => ({ allowed: false })]]) }, /^config\.interceptors: expected a plain object \{ onToolCall \}, got a Map without onToolCall \(no call would be checked\)$/],
        ["interceptors: an array of guards", { wasmLocation: assetPath, interceptors: [() => ({ allowed: false })] }, /^config\.interceptors: expected a plain object \{ onToolCall \}, got an array/],
        ["interceptors: a Date", { wasmLocation: assetPath, interceptors: new Date() }, /^config\.interceptors: expected a plain object \{ onToolCall \}, got a Date without onToolCall/],
        ["interceptors: an instance without onToolCall", { wasmLocation: assetPath, interceptors: new (class Guards { onToolcall() {} })() }, /^config\.interceptors: expected a plain object \{ onToolCall \}, got an instance of a class without onToolCall/],
        [
            "interceptors.onToolCall: 5",
            { wasmLocation: assetPath, interceptors: { onToolCall: 5 } },
            /config\.interceptors\.onToolCall: expected a function/,
        ],
        [
            "overwriteSystemInstruction: 'text'",
            { wasmLocation: assetPath, overwriteSystemInstruction: "text" },
            /config\.overwriteSystemInstruction: expected a function/,
        ],
        ["maxToolCalls: 0", { wasmLocation: assetPath, maxToolCalls: 0 }, /config\.maxToolCalls: expected/],
        ["maxToolCalls: 1e6", { wasmLocation: assetPath, maxToolCalls: 1e6 }, /config\.maxToolCalls: must be at most 50000 .*got 1000000/],
        ["maxResultChars: 1.5", { wasmLocation: assetPath, maxResultChars: 1.5 }, /config\.maxResultChars: expected/],
        // A larger budget let `return "<".repeat(1e8)` stop the engine (its output escaped past V8's longest string).
        ["maxResultChars: 1e9", { wasmLocation: assetPath, maxResultChars: 1e9 }, /config\.maxResultChars: must be at most 10000000 .*got 1000000000/],
        // The same words in both modes: in-thread said "got number".
        ["onEvent: 5", { wasmLocation: assetPath, onEvent: 5 }, /^config\.onEvent: expected a function, got the number 5$/],
        ["tools: 5", { wasmLocation: assetPath, tools: 5 }, /config\.tools: expected/],
        // The AI SDK's tools (an object keyed by name), or one definition: it said
        // "expected an array of tool definitions, got an object" and no way.
        ["tools: an object of tools by name", { wasmLocation: assetPath, tools: { add: { description: "Add.", execute: () => 1 } } }, /^config\.tools: expected an array of tool definitions, got an object: an object of tools keyed by name, as the AI SDK's, converts with Object\.entries\(tools\)\.map\(\(\[name, tool\]\) => \(\{ name, \.\.\.tool \}\)\)$/],
        ["tools: one definition", { wasmLocation: assetPath, tools: { name: "add", execute: () => 1 } }, /^config\.tools: expected an array of tool definitions, got an object: a single definition goes in an array too: \[definition\]$/],
        ["tools: {}", { wasmLocation: assetPath, tools: {} }, /^config\.tools: expected an array of tool definitions, got an object$/],
        // A cosine is at most 1: over it, no tool was returned on semantic grounds alone, without a word.
        // The message offered "0: the default 0.5", which the page cannot write (0 is refused, below).
        [
            "search.minSimilarity: 1.5",
            { wasmLocation: assetPath, search: { embed: async (texts) => texts.map(() => [1]), minSimilarity: 1.5 } },
            /^config\.search\.minSimilarity: must be at most 1 \(a cosine\), got 1\.5$/,
        ],
        [
            "search.minSimilarity: 0",
            { wasmLocation: assetPath, search: { embed: async (texts) => texts.map(() => [1]), minSimilarity: 0 } },
            /^config\.search\.minSimilarity: expected a positive number, got the number 0$/,
        ],
        // The value given, in the words of the other fields' messages (it said "got string").
        ["worker: 'yes'", { wasmLocation: assetPath, worker: "yes" }, /^config\.worker: expected a boolean, got the string "yes"$/],
        ["tools without execute", { wasmLocation: assetPath, tools: [{ name: "a" }] }, /config\.tools\[0\] \("a"\): execute: expected a function/],
    ];
    for (const [name, config, message] of cases) {
        test(name, async () => {
            await assert.rejects(IoCodeModeFactory(config), (err) => {
                assert.ok(err instanceof TypeError, `expected a TypeError, got ${err && err.name}: ${err && err.message}`);
                assert.match(err.message, message);
                return true;
            });
        });
    }

    test("a valid config with every option works", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 5000,
            memoryLimit: 64,
            maxToolCalls: 10,
            maxResultChars: 5000,
            toolFilter: () => true,
            overwriteSystemInstruction: (s) => s,
            interceptors: { onToolCall: async () => ({ allowed: true }) },
            tools: [{ name: "echo", execute: (x) => x }],
        });
        assert.deepEqual(api.listTools().map((t) => t.name), ["echo"]);
        await smoke(api);
    });
});

// A list given as an object, and registerTool given a list: the errors say
// how to give it (registerTool([def]) said 'tool: unknown key "0"'), and
// the conversion they name registers the AI SDK's tools. Nothing of the
// page's runs to tell: a getter's execute is left to the core's words.
test("a tool list given as an object, or a list to registerTool: the error says how to give it", async (t) => {
    const api = await withFactory(t, { wasmLocation: assetPath });
    const record = { "orders.count": { description: "Count orders.", inputSchema: { type: "object", properties: { status: { type: "string" } } }, execute: ({ status }) => (status === "open" ? 3 : 0) } };
    const thrown = (f, type = TypeError) => {
        try {
            f();
        } catch (err) {
            assert.ok(err instanceof type, String(err));
            return err.message;
        }
        assert.fail("no error");
    };
    const objectOfTools = ": expected an array of tool definitions, got an object: an object of tools keyed by name, as the AI SDK's, converts with Object.entries(tools).map(([name, tool]) => ({ name, ...tool }))";
    assert.equal(thrown(() => api.registerTools(record)), `tools${objectOfTools}`);
    assert.equal(thrown(() => api.createSession({ tools: record })), `options.tools${objectOfTools}`);
    assert.equal(thrown(() => api.registerTools({ name: "a", execute: () => 1 })), "tools: expected an array of tool definitions, got an object: a single definition goes in an array too: [definition]");
    assert.equal(thrown(() => api.registerTool([{ name: "a", execute: () => 1 }])), "tool: expected one tool definition, got an array: registerTools(list) registers a list");
    let read = 0;
    const getter = { x: { get execute() { read++; return () => 1; } } };
    assert.equal(thrown(() => api.registerTools(getter)), "tools: expected an array of tool definitions, got an object");
    assert.equal(read, 0);
    const trap = new Proxy({}, { ownKeys() { throw new Error("trap"); } });
    assert.match(thrown(() => api.registerTools(trap)), /^tools: expected an array of tool definitions, got /);
    assert.deepEqual(api.listTools(), []);
    // As the message says.
    api.registerTools(Object.entries(record).map(([name, tool]) => ({ name, ...tool })));
    const r = await run(api.createSession(), "return await tools.orders.count({ status: 'open' })");
    assert.equal(r.result, 3, JSON.stringify(r));
    // A disposed factory says so first, as before.
    api.dispose();
    assert.match(thrown(() => api.registerTool([]), Error), /has been disposed/);
    assert.match(thrown(() => api.registerTools(record), Error), /has been disposed/);
});

// timeout: 30 (meant as seconds) and memoryLimit: 1 (meant as GiB) are
// allowed; their runs' errors name the field and its unit, where "did not
// finish within 30ms" alone left the page to guess why every run failed.
test("a short timeout or a small memoryLimit: the run's error names the field and its unit", async (t) => {
    const short = await withFactory(t, { wasmLocation: assetPath, timeout: 30 });
    const r = await run(short.createSession(), "for (;;) {}");
    assert.deepEqual([r.error?.code, r.error?.message], ["TIMEOUT", "the program did not finish within 30ms (config.timeout: 30, in milliseconds; 30 seconds would be 30000)"], JSON.stringify(r));
    const small = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 1 });
    const m = await run(small.createSession(), "const a = []; for (let i = 0; ; i++) a.push('x' + i)");
    assert.deepEqual([m.error?.code, m.error?.message], ["MEMORY_LIMIT", "out of memory (the run's memory limit is 1 MB; config.memoryLimit counts MiB: 1 GiB would be 1024; hold less data at once, e.g. work through it in parts and keep only what the result needs)"], JSON.stringify(m));
});

// An error the core makes is born inside WebAssembly: in-thread, its stack
// was ten Go frames and never the caller's line ("at syscall/js.valueNew",
// "at wasm://wasm/..."). The caller's own frame must be in it, in both modes.
describe("errors for the caller point at the caller's line", () => {
    const mine = (err) => {
        assert.ok(err instanceof TypeError, String(err));
        assert.doesNotMatch(err.stack, /wasm-function\[|syscall\/js/, err.stack);
        return err.stack;
    };
    test("registerTool with a misspelt key", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        function hostRegistersATool() {
            api.registerTool({ name: "a", descripton: "x", execute() {} });
        }
        assert.throws(hostRegistersATool, (err) => {
            assert.match(mine(err), /at hostRegistersATool \(/);
            return true;
        });
    });
    test("createSession with a bad option", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        function hostCreatesASession() {
            api.createSession({ tools: [{ name: "b", execute: 5 }] });
        }
        assert.throws(hostCreatesASession, (err) => {
            assert.match(mine(err), /at hostCreatesASession \(/);
            return true;
        });
    });
    test("the factory with a bad tool", async () => {
        async function hostMakesAFactory() {
            await IoCodeModeFactory({ wasmLocation: assetPath, tools: [{ name: "b", execute: 5 }] });
        }
        await assert.rejects(hostMakesAFactory(), (err) => {
            assert.match(err.message, /config\.tools\[0\] \("b"\): execute: expected a function/);
            assert.match(mine(err), /at (async )?hostMakesAFactory \(/);
            return true;
        });
    });
});

describe("interceptors that hold onToolCall in other ways still guard", () => {
    const deny = () => ({ allowed: false, reason: "guarded" });
    const cases = [
        ["an instance of a class with the method", new (class Guards { onToolCall() { return deny(); } })()],
        ["an object without a prototype", Object.assign(Object.create(null), { onToolCall: deny })],
    ];
    for (const [name, interceptors] of cases) {
        test(name, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath, interceptors, tools: [{ name: "echo", execute: (x) => x }] });
            const r = await run(api.createSession(), "return await tools.echo({ a: 1 })");
            assert.equal(r.ok, false, JSON.stringify(r));
            assert.match(r.error.message, /guarded/);
        });
    }
    test("an empty plain object is no guard, as documented", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, interceptors: {}, tools: [{ name: "echo", execute: (x) => x }] });
        assert.deepEqual((await run(api.createSession(), "return await tools.echo({ a: 1 })")).result, { a: 1 });
    });
});

describe("the QuickJS asset", () => {
    let dir;
    before(() => {
        dir = mkdtempSync(join(tmpdir(), "code-mode-test-"));
        writeFileSync(join(dir, "not-wasm.wasm"), "<html>this is not WebAssembly</html>");
        // A valid WebAssembly module that is not the QuickJS asset.
        writeFileSync(join(dir, "empty.wasm"), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    });

    const assetError = (location, cause) => (err) => {
        assert.ok(err instanceof Error, String(err));
        assert.ok(!(err instanceof TypeError), `not a TypeError: ${err.message}`);
        assert.ok(err.message.includes(location), `the message names the location: ${err.message}`);
        if (cause) assert.match(err.message, cause);
        return true;
    };

    test("loads from an absolute path", async () => smoke(await IoCodeModeFactory({ wasmLocation: assetPath })));

    test("loads from a path relative to the working directory", async () => {
        const rel = relative(process.cwd(), assetPath);
        assert.ok(!rel.startsWith("/"));
        await smoke(await IoCodeModeFactory({ wasmLocation: rel }));
    });

    test("loads from a file: URL", async () => smoke(await IoCodeModeFactory({ wasmLocation: assetURL })));

    test("a missing file rejects with an Error naming the location", async () => {
        const loc = join(dir, "missing.wasm");
        await assert.rejects(IoCodeModeFactory({ wasmLocation: loc }), assetError(loc, /Cannot load the QuickJS asset from .*ENOENT/));
        const url = pathToFileURL(loc).href;
        await assert.rejects(IoCodeModeFactory({ wasmLocation: url }), assetError(url, /ENOENT/));
    });

    // A config with a bad path and bad values said only the asset's error;
    // fixed, the path met the next mistake. Now the config's own come first,
    // each as its TypeError; a good config with the bad path: the asset's.
    test("a missing file with other mistakes: the config's are reported first", async () => {
        const loc = join(dir, "missing.wasm");
        for (const [extra, message] of [
            [{ timeout: -1, timeZone: 5 }, "config.timeout: expected a positive number, got the number -1"],
            [{ timeZone: "Mars/Olympus" }, 'config.timeZone: unknown time zone "Mars/Olympus": expected an IANA name such as "America/New_York" or "UTC"'],
            [{ toolFilter: 3 }, "config.toolFilter: expected a function, got the number 3"],
            [{ search: { embed: 3 } }, "config.search.embed: expected a function (texts: string[]) => Promise<number[][]>, got the number 3"],
            [{ tools: [{ name: "a b", execute() {} }] }, `config.tools[0] ("a b"): name: must be 1..128 characters of [A-Za-z0-9_$.-], found ' ' at offset 1`],
        ]) {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: loc, ...extra }), (err) => {
                assert.ok(err instanceof TypeError, `${JSON.stringify(extra)}: ${err}`);
                assert.equal(err.message, message);
                return true;
            });
        }
        await assert.rejects(IoCodeModeFactory({ wasmLocation: loc, timeout: 5, timeZone: "Asia/Tokyo", tools: [{ name: "a", execute() {} }] }), assetError(loc, /ENOENT/));
    });

    // A package's file given as a path (as the docs name the asset) said
    // ENOENT and the working directory's path alone; one that resolves from
    // the working directory (the repository's QuickJS package here) now says
    // to resolve it. Paths that resolve to no package say nothing more.
    test("a missing path that is a package's file says to resolve it", async () => {
        const loc = "@jitl/quickjs-wasmfile-release-sync/wasm";
        const resolved = createRequire(join(process.cwd(), "x.js")).resolve(loc);
        await assert.rejects(IoCodeModeFactory({ wasmLocation: loc }), (err) => assetError(loc, /ENOENT/)(err) &&
            err.message.endsWith(`; it is a package's file (${resolved}), which a path does not resolve: pass its path, wasmLocation: require.resolve("${loc}") (in an ES module, require from createRequire)`));
        for (const loc of [join(dir, "missing.wasm"), "./missing/x.wasm", "missing.wasm", "some-missing-pkg/x.wasm"]) {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: loc }), (err) => assetError(loc, /ENOENT/)(err) && !/package's file/.test(err.message));
        }
    });

    // A relative path that is no package's file ("emscripten-module.wasm"
    // copied from a page's config) said ENOENT and the path alone: it says
    // that the package has its own copy and how to pass it. The copy is
    // found beside the package's module when the working directory does
    // not resolve the package (as here: the repository runs dist/). An
    // absolute path says nothing of it.
    test("a missing relative path says where the package's own copy is", async () => {
        const hint = `; a relative path is read against the working directory (${process.cwd()}), and the package has its own copy (${assetPath}): pass its path, wasmLocation: require.resolve("@interopio/code-mode/emscripten-module.wasm") (in an ES module, require from createRequire)`;
        for (const loc of ["emscripten-module.wasm", "./emscripten-module.wasm", "./missing/x.wasm", "../missing.wasm", "some-missing-pkg/x.wasm"]) {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: loc }), (err) => assetError(loc, /ENOENT/)(err) && err.message.endsWith(hint));
        }
        for (const loc of [join(dir, "missing.wasm"), pathToFileURL(join(dir, "missing.wasm")).href]) {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: loc }), (err) => assetError(loc, /ENOENT/)(err) && !/own copy/.test(err.message));
        }
    });

    // The same file named as a bundler finds it, where Node.js reads a path
    // (a test runner's node environment, a server): new URL("@scope/pkg/file",
    // import.meta.url) is a file beside the module, and a dev server's URL of
    // it (Vite's ?url import in Vitest) a path from the root. Both said
    // ENOENT alone (the second with the server-render hint). A missing file
    // under a folder named @x that no package holds says nothing more.
    test("a package's file named by new URL(..., import.meta.url) or a dev server's URL says to resolve it", async () => {
        const spec = "@jitl/quickjs-wasmfile-release-sync/wasm";
        const resolved = createRequire(join(process.cwd(), "x.js")).resolve(spec);
        const hint = `; it names a package's file (${resolved}), which only a bundler finds from new URL(...) or a ?url import, not Node.js (a server, a test runner): pass its path, wasmLocation: require.resolve("${spec}") (in an ES module, require from createRequire)`;
        for (const loc of [pathToFileURL(join(dir, "src", spec)).href, new URL(spec, pathToFileURL(join(dir, "src", "agent.js"))).href, join(dir, spec), `/node_modules/${spec}`]) {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: loc }), (err) => assetError(loc, /ENOENT/)(err) && err.message.includes(hint));
        }
        for (const loc of [pathToFileURL(join(dir, "@x", "y", "z.wasm")).href, join(dir, "node_modules", "missing-pkg", "x.wasm")]) {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: loc }), (err) => assetError(loc, /ENOENT/)(err) && !/package's file/.test(err.message));
        }
    });

    // A page's URL of the asset (a ?url import) reached a factory created in
    // a server render (Nuxt's script setup, a React component's body): Node.js
    // read it as a path and said ENOENT alone. A path whose first folder the
    // machine has (a path of the server's own) says nothing more.
    test("a site's URL read as a path in a server render says to create the factory in the browser", async () => {
        for (const loc of ["/_nuxt/@fs/app/node_modules/@interopio/code-mode/emscripten-module.wasm", "/assets/emscripten-module-PRoXW-ZK.wasm"]) {
            const top = "/" + loc.split("/")[1];
            await assert.rejects(IoCodeModeFactory({ wasmLocation: loc }), (err) => assetError(loc, /ENOENT/)(err) &&
                err.message.endsWith(`; in Node.js wasmLocation is a file path, and this machine has no ${top}: if it is your site's URL of the asset, this factory was created on the server (a server render): create it in the browser only (an effect, onMounted, a client-only component), or give the server the file's path, wasmLocation: require.resolve("@interopio/code-mode/emscripten-module.wasm") (the package's README, "Loading")`));
        }
        const loc = join(dir, "missing.wasm");
        await assert.rejects(IoCodeModeFactory({ wasmLocation: loc }), (err) => assetError(loc, /ENOENT/)(err) && !/server render/.test(err.message));
    });

    // A folder (the package's, or dist/) said EISDIR alone.
    test("a folder as wasmLocation names the file to give", async () => {
        for (const loc of [dir, dir + "/", pathToFileURL(dir).href]) {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: loc }), (err) => assetError(loc, /EISDIR/)(err) &&
                err.message.endsWith(`; that is a folder: name the asset's file in it, wasmLocation: ${JSON.stringify(loc.replace(/\/*$/, "/emscripten-module.wasm"))}`));
        }
    });

    test("a file that is not WebAssembly rejects", async () => {
        const loc = join(dir, "not-wasm.wasm");
        await assert.rejects(IoCodeModeFactory({ wasmLocation: loc }), assetError(loc, /Cannot load the QuickJS asset/));
    });

    // The compiler's words ("expected magic word 00 61 73 6d, found 7b 0a
    // 20 20") said nothing of the file; a path and a file: URL say what it is.
    test("a file that is not WebAssembly: the message says what the file is", async () => {
        for (const [name, content, cause] of [
            ["package.json", '{\n  "name": "app",\n  "type": "module"\n}\n', ': not WebAssembly: the file is JSON that begins { "name": "app", "type": "module" }, not a WebAssembly module'],
            ["page.wasm", "<!doctype html>\n<html><body>Not found</body></html>", ": not WebAssembly: the file is HTML or XML that begins <!doctype html> <html><body>Not found</b…, not a WebAssembly module"],
            ["lfs.wasm", "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 500000\n", ": not WebAssembly: the file is a Git LFS pointer, not the file it points to (git lfs pull fetches it)"],
            ["empty-file.wasm", "", ": not WebAssembly: the file is empty"],
            ["binary.wasm", Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0xff]), ": not WebAssembly: the file does not begin as a WebAssembly module does (\\0asm)"],
        ]) {
            const loc = join(dir, name);
            writeFileSync(loc, content);
            for (const wasmLocation of [loc, pathToFileURL(loc).href]) {
                await assert.rejects(IoCodeModeFactory({ wasmLocation }), (err) => {
                    assert.equal(err.message, `Cannot load the QuickJS asset from ${wasmLocation}${cause}`);
                    return true;
                });
            }
        }
    });

    test("another WebAssembly module rejects with a clear error", async () => {
        const loc = join(dir, "empty.wasm");
        await assert.rejects(IoCodeModeFactory({ wasmLocation: loc }), assetError(loc, /QuickJS asset/));
    });

    test("a bad asset creates nothing, and the core still works afterwards", async () => {
        await assert.rejects(IoCodeModeFactory({ wasmLocation: join(dir, "empty.wasm") }));
        await smoke(await IoCodeModeFactory({ wasmLocation: assetPath }));
    });

    describe("over HTTP from 127.0.0.1", () => {
        let server;
        before(async () => {
            const bytes = assetBytes();
            server = await serve({
                "/wasm/typed.wasm": { body: bytes, type: "application/wasm" },
                "/wasm/typed-charset.wasm": { body: bytes, type: "application/wasm; charset=binary" },
                "/wasm/untyped.wasm": { body: bytes, type: "application/octet-stream" },
                "/wasm/html.wasm": { body: "<html>oops</html>", type: "text/html" },
                "/wasm/gone.wasm": 404,
                "/wasm/broken.wasm": 500,
                "/wasm/forbidden.wasm": 403,
                "/wasm/vite-403.wasm": { status: 403, type: "text/html", body: VITE_403 },
            });
        });
        after(() => server.close());

        test("served as application/wasm (streaming compile)", async () => {
            await smoke(await IoCodeModeFactory({ wasmLocation: `${server.url}/wasm/typed.wasm` }));
            await smoke(await IoCodeModeFactory({ wasmLocation: `${server.url}/wasm/typed-charset.wasm` }));
        });

        test("served with another MIME type (ArrayBuffer fallback)", async () => {
            await smoke(await IoCodeModeFactory({ wasmLocation: `${server.url}/wasm/untyped.wasm` }));
        });

        // A 404 says what to do (it said "HTTP 404 Not Found" alone); a 500 is the server's.
        test("404 and 500 reject with the location and the status", async () => {
            const gone = `${server.url}/wasm/gone.wasm`;
            await assert.rejects(IoCodeModeFactory({ wasmLocation: gone }), (err) => {
                assert.equal(err.message, `Cannot load the QuickJS asset from ${gone}: HTTP 404 Not Found; the server has no file there: copy the package's emscripten-module.wasm to where that URL points (a public/ folder), or take its URL from your bundler, as Vite's import of "@interopio/code-mode/emscripten-module.wasm?url" gives (the package's README, "Bundlers")`);
                return true;
            });
            const broken = `${server.url}/wasm/broken.wasm`;
            await assert.rejects(IoCodeModeFactory({ wasmLocation: broken }), (err) => {
                assert.equal(err.message, `Cannot load the QuickJS asset from ${broken}: HTTP 500 Internal Server Error`);
                return true;
            });
        });

        // Vite's dev server refuses a file outside its server.fs.allow folders
        // (a package linked from a folder elsewhere, an allow list without
        // node_modules) with a page that names the file: the error said
        // "HTTP 403 Forbidden" alone. Another server's 403 says just that.
        test("Vite's 403 (outside server.fs.allow) names the folder and the setting", async () => {
            const vite = `${server.url}/wasm/vite-403.wasm`;
            await assert.rejects(IoCodeModeFactory({ wasmLocation: vite }), (err) => {
                assert.equal(
                    err.message,
                    `Cannot load the QuickJS asset from ${vite}: HTTP 403 Forbidden; Vite's dev server serves no file outside its server.fs.allow folders, and /home/me/lib/code-mode/dist is not in them (a package installed as a link to a folder elsewhere, as npm install <folder> makes one, or an allow list without node_modules): add that folder to server.fs.allow in your Vite config, beside the project's root: server: { fs: { allow: [searchForWorkspaceRoot(process.cwd()), "/home/me/lib/code-mode/dist"] } } (import { searchForWorkspaceRoot } from "vite"), or install the package from its tarball (npm pack)`,
                );
                return true;
            });
            const other = `${server.url}/wasm/forbidden.wasm`;
            await assert.rejects(IoCodeModeFactory({ wasmLocation: other }), (err) => {
                assert.equal(err.message, `Cannot load the QuickJS asset from ${other}: HTTP 403 Forbidden`);
                return true;
            });
        });

        // A dev server's answer for a file it does not have (Vite's, with
        // status 200): the message says so, where the compiler's said
        // "expected magic word 00 61 73 6d, found 3c 68 74 6d".
        test("an HTML page instead of the asset rejects, saying it is a page", async () => {
            const html = `${server.url}/wasm/html.wasm`;
            await assert.rejects(
                IoCodeModeFactory({ wasmLocation: html }),
                assetError(html, /: not WebAssembly: the server sent text\/html \(a page, as a dev server answers for a file it does not have: is the file served at that URL\?\); the server has no file there: copy the package's emscripten-module\.wasm to where that URL points \(a public\/ folder\), or take its URL from your bundler, as Vite's import of "@interopio\/code-mode\/emscripten-module\.wasm\?url" gives \(the package's README, "Bundlers"\)$/),
            );
        });

        test("a network error rejects with the location", async () => {
            const closed = await serve({});
            const url = `${closed.url}/x.wasm`;
            await closed.close();
            // Node's fetch says "fetch failed"; its cause says why.
            await assert.rejects(IoCodeModeFactory({ wasmLocation: url }), assetError(url, /Cannot load the QuickJS asset from .*: fetch failed \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)$/));
        });

        test("the asset is fetched once, never per session or run", async (t) => {
            const before = server.hits.filter((p) => p === "/wasm/typed.wasm").length;
            // A URL no factory loaded before: each is fetched once, then
            // shared (quickjs-asset-once.test.mjs).
            const api = await withFactory(t, { wasmLocation: `${server.url}/wasm/typed.wasm?sessions` });
            for (let i = 0; i < 3; i++) {
                const session = api.createSession();
                const executeCode = session.getLlmTools().find((t) => t.name === "executeCode");
                for (let j = 0; j < 3; j++) {
                    const r = await executeCode.execute({ code: `return ${i} + ${j}`, explanation: "x" });
                    assert.equal(r.result, i + j);
                }
                session.dispose();
            }
            assert.equal(server.hits.filter((p) => p === "/wasm/typed.wasm").length - before, 1);
        });
    });
});

// hostile12: in worker mode the config was read again after it was
// checked, so a getter could hand the check a guard and the engine none
// (the tool ran); a throwing getter or proxy trap rejected with its own
// error, not naming the field. The factory is called with worker set on
// the config itself: loadFactory's copy would read each getter once.
describe("the config is read once, field by field", () => {
    const deny = () => ({ allowed: false, reason: "checked guard" });
    const tools = [{ name: "t.x", inputSchema: { type: "object" }, execute: () => "ran" }];
    /** A getter that answers `first` once, then undefined. */
    const once = (first) => {
        let n = 0;
        return () => (n++ === 0 ? first : undefined);
    };
    const rows = [
        ["interceptors", (c) => Object.defineProperty(c, "interceptors", { get: once({ onToolCall: deny }), enumerable: true }), "call to t.x denied: checked guard"],
        ["interceptors.onToolCall", (c) => (c.interceptors = Object.defineProperty({}, "onToolCall", { get: once(deny), enumerable: true })), "call to t.x denied: checked guard"],
        ["toolFilter", (c) => Object.defineProperty(c, "toolFilter", { get: once(() => false), enumerable: true }), 'unknown tool "t.x"; use tool_search to find tools'],
    ];
    for (const [name, set, want] of rows) {
        test(`a getter of ${name} that answers once: the guard checked is the guard used`, async () => {
            const factory = (await import(indexURL)).IoCodeModeFactory;
            const config = { wasmLocation: assetPath, worker: WORKER, tools };
            set(config);
            const api = await factory(config);
            try {
                const r = await run(api.createSession(), "try { return await tools.t.x({}) } catch (e) { return e.message }");
                assert.equal(r.result, want, JSON.stringify(r));
            } finally {
                api.dispose();
            }
        });
    }
    const throwing = [
        ["a throwing getter", () => ({ wasmLocation: assetPath, get interceptors() { throw new Error("boom"); } }), /^config\.interceptors: reading it threw: boom$/],
        ["a proxy whose ownKeys throws", () => new Proxy({ wasmLocation: assetPath }, { ownKeys() { throw new Error("boom"); } }), /^config: cannot list its keys: boom$/],
        ["interceptors whose get trap throws", () => ({ wasmLocation: assetPath, interceptors: new Proxy({}, { get() { throw new Error("boom"); } }) }), /^config\.interceptors\.onToolCall: reading it threw: boom$/],
    ];
    test("createSession(options) whose keys cannot be listed: the core's TypeError, in both modes", async () => {
        const factory = (await import(indexURL)).IoCodeModeFactory;
        const api = await factory({ wasmLocation: assetPath, worker: WORKER });
        try {
            const options = new Proxy({}, { ownKeys() { throw new Error("boom"); } });
            assert.throws(() => api.createSession(options), (err) => err instanceof TypeError && err.message === "createSession(options): cannot list its keys: boom");
        } finally {
            api.dispose();
        }
    });
    for (const [name, make, message] of throwing) {
        test(`${name}: a TypeError naming the field`, async () => {
            const factory = (await import(indexURL)).IoCodeModeFactory;
            await assert.rejects(factory(make()), (err) => err instanceof TypeError && message.test(err.message));
        });
    }
});

describe("the loader", () => {
    test("leaks no globals (Go, fs, the ready hook)", async () => {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        api.dispose();
        for (const name of ["Go", "fs", "path", "__ioCodeModeReady", "IoCodeModeFactory"]) {
            assert.equal(Object.prototype.hasOwnProperty.call(globalThis, name), false, `globalThis.${name} was set`);
        }
    });

    test("factories are independent", async () => {
        const a = await IoCodeModeFactory({ wasmLocation: assetPath });
        const b = await IoCodeModeFactory({ wasmLocation: assetPath });
        a.registerTool({ name: "onlyA", execute: () => 1 });
        assert.deepEqual(b.listTools(), []);
        a.dispose();
        await smoke(b);
    });

    test("the package root: package.json exports resolve", async () => {
        const { createRequire } = await import("node:module");
        const req = createRequire(join(root, "dist", "package.json"));
        const pkg = req("./package.json");
        assert.equal(pkg.name, "@interopio/code-mode");
        assert.equal(pkg.version, "0.0.2");
        assert.equal(pkg.type, "module");
        assert.equal(pkg.exports["."].import, "./index.mjs");
        assert.equal(pkg.exports["."].types, "./index.d.ts");
        for (const target of Object.values(pkg.exports).flatMap((v) => (typeof v === "string" ? [v] : Object.values(v)))) {
            assert.ok(
                (await import("node:fs")).existsSync(join(root, "dist", target)),
                `exports target ${target} exists`,
            );
        }
        for (const f of pkg.files) assert.ok((await import("node:fs")).existsSync(join(root, "dist", f)), `files entry ${f} exists`);
        // The files USAGE says to copy next to a bundle or a page resolve by
        // the package's name (a build script's require.resolve): the worker
        // was not exported (ERR_PACKAGE_PATH_NOT_EXPORTED).
        for (const f of ["code-mode.wasm", "code-mode.worker.mjs", "code-mode.global.js", "emscripten-module.wasm"]) {
            assert.equal(req.resolve(`@interopio/code-mode/${f}`), join(root, "dist", f), f);
        }
    });
});
