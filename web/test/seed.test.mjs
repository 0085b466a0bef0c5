// @mode-independent: the documentation's snippets as written, at their default mode.
// Every snippet of the user documentation (the seed), run as written.
//
// The snippets are browser code: wasmLocation "/quickjs/emscripten-module.wasm"
// is a URL relative to the page. This file plays the page: a local HTTP
// server on 127.0.0.1 serves the asset, and `document.baseURI` points at it,
// set before dist/index.mjs is imported (the loader then treats
// wasmLocation as a page URL, like a browser does).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assetBytes, dist, indexURL, serve } from "./helpers.mjs";

let server;
let IoCodeModeFactory;
const calls = [];

before(async () => {
    server = await serve({ "/quickjs/emscripten-module.wasm": { body: assetBytes(), type: "application/wasm" } });
    globalThis.document = { baseURI: `${server.url}/app/index.html` };
    ({ IoCodeModeFactory } = await import(indexURL));
});

after(async () => {
    delete globalThis.document;
    await server.close();
});

function registerPageTools(codeMode) {
    return codeMode.registerTools([
        {
            name: "orders.search",
            description: "Search orders by status.",
            inputSchema: { type: "object", properties: { status: { type: "string" } } },
            execute: async (input, { context }) => {
                calls.push({ tool: "orders.search", input, context });
                return [{ id: "o-1", status: input.status ?? "open" }];
            },
        },
        {
            name: "payments.transfer",
            description: "Transfer money.",
            inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
            execute: (input) => {
                calls.push({ tool: "payments.transfer", input });
                return { done: true };
            },
        },
        {
            name: "admin.deleteAll",
            description: "Delete all orders.",
            execute: () => {
                calls.push({ tool: "admin.deleteAll" });
                return { deleted: true };
            },
        },
    ]);
}

test("seed: Tool Policies snippet (toolFilter + onToolCall), as written", async () => {
    // ---- seed snippet, verbatim ----
    const codeMode = await IoCodeModeFactory({
        wasmLocation: "/quickjs/emscripten-module.wasm",
        toolFilter: (tool) => !tool.name.startsWith("admin."),
        interceptors: {
            onToolCall: async ({ tool, input }) => {
                if (tool.name === "payments.transfer") {
                    return { allowed: false, reason: "Transfers require manual approval." };
                }

                return { allowed: true, input };
            },
        },
    });
    // ---- end of snippet ----
    try {
        assert.ok(server.hits.includes("/quickjs/emscripten-module.wasm"), "the asset was fetched relative to the page");
        registerPageTools(codeMode);
        assert.deepEqual(
            codeMode.listTools().map((t) => t.name).sort(),
            ["orders.search", "payments.transfer"],
            "admin.* is filtered out",
        );
        const session = codeMode.createSession();
        const executeCode = session.getLlmTools().find((tool) => tool.name === "executeCode");
        calls.length = 0;
        const result = await executeCode.execute({
            code: `
                const out = {};
                out.orders = await tools.orders.search({ status: "open" });
                try { await tools.payments.transfer({ amount: 10 }); out.transfer = "ran"; }
                catch (e) { out.transfer = e.message; }
                out.adminNamespace = typeof tools.admin;
                try { await tool_call("admin.deleteAll", {}); out.admin = "ran"; }
                catch (e) { out.admin = e.message; }
                return out;`,
            explanation: "Exercise the policies.",
        });
        assert.equal(result.ok, true, JSON.stringify(result));
        assert.deepEqual(result.result.orders, [{ id: "o-1", status: "open" }]);
        assert.match(result.result.transfer, /Transfers require manual approval\./);
        assert.equal(result.result.adminNamespace, "undefined");
        assert.match(result.result.admin, /unknown tool/i);
        assert.deepEqual(calls.map((c) => c.tool), ["orders.search"], "denied and hidden tools never ran");
        const transfer = result.toolCalls.find((c) => c.name === "payments.transfer");
        assert.equal(transfer.allowed, false);
        assert.equal(transfer.reason, "Transfers require manual approval.");
    } finally {
        codeMode.dispose();
    }
});

test("seed: execute(args, { signal, context }) snippet, as written", async () => {
    const seen = [];
    const codeMode = await IoCodeModeFactory({
        wasmLocation: "/quickjs/emscripten-module.wasm",
        interceptors: {
            onToolCall: async ({ callContext }) => {
                seen.push(callContext);
                return { allowed: true };
            },
        },
    });
    try {
        registerPageTools(codeMode);
        const session = codeMode.createSession();
        const signal = new AbortController().signal;
        const requestMetadata = { user: "alice", requestId: "r-1" };

        // ---- seed snippet, verbatim but for TypeScript's non-null `!` ----
        const executeCode = session.getLlmTools().find((tool) => tool.name === "executeCode");
        const result = await executeCode.execute({ code: "return await tool_search({ query: 'orders' });", explanation: "Search for orders." }, { signal, context: requestMetadata });
        // ---- end of snippet ----

        assert.equal(result.ok, true, JSON.stringify(result));
        assert.ok(Array.isArray(result.result));
        assert.equal(result.result[0].name, "orders.search");
        for (const hit of result.result) {
            assert.equal(typeof hit.description, "string");
            assert.match(hit.signature, /orders|payments|admin/);
        }

        // The same context reaches onToolCall as callContext and the tool as
        // options.context; the sandbox cannot see it.
        calls.length = 0;
        const r2 = await executeCode.execute(
            {
                code: "const r = await tools.orders.search({}); return { r, globals: typeof requestMetadata + typeof context + typeof callContext };",
                explanation: "Call a tool with the request's context.",
            },
            { signal, context: requestMetadata },
        );
        assert.equal(r2.ok, true, JSON.stringify(r2));
        assert.equal(r2.result.globals, "undefinedundefinedundefined");
        assert.equal(seen.at(-1), requestMetadata, "onToolCall got the context object itself");
        assert.equal(calls[0].context, requestMetadata, "the tool got the context object itself");
    } finally {
        codeMode.dispose();
    }
});

test("seed: the version-pinned CDN wasmLocation, as written, resolves to this package's asset", async () => {
    // No network here: fetch of the documented CDN URL is answered from dist/,
    // mapping <cdn>/@interopio/code-mode@<version>/<path> to the package
    // folder. That checks the documented path exists in the package and the
    // documented version is this package's.
    const pkg = JSON.parse(readFileSync(join(dist, "package.json"), "utf8"));
    const realFetch = globalThis.fetch;
    const fetched = [];
    globalThis.fetch = async (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        const m = /^https:\/\/[^/]+\/@interopio\/code-mode@([^/]+)\/(.+)$/.exec(url);
        if (!m) return realFetch(input, init);
        fetched.push(url);
        assert.equal(m[1], pkg.version, "the documented version is this package's version");
        const body = readFileSync(join(dist, ...m[2].split("/")));
        return new Response(body, { headers: { "content-type": "application/wasm" } });
    };
    try {
        const codeMode = await IoCodeModeFactory({
            // ---- seed snippet, verbatim (an object literal property) ----
            wasmLocation: "https://unpkg.com/@interopio/code-mode@0.0.2/dist/emscripten-module.wasm",
        });
        assert.equal(fetched.length, 1);
        const session = codeMode.createSession();
        const executeCode = session.getLlmTools().find((tool) => tool.name === "executeCode");
        const r = await executeCode.execute({ code: "return 6 * 7", explanation: "Arithmetic." });
        assert.deepEqual([r.ok, r.result], [true, 42]);
        codeMode.dispose();
    } finally {
        globalThis.fetch = realFetch;
    }
});

test("seed: the Configuration table's defaults are the factory's", async () => {
    // `timeout` 30000, `memoryLimit` 128, overwriteSystemInstruction
    // identity, onToolCall allow, toolFilter include all: a factory given
    // only wasmLocation. The limits are read where the model reads them
    // (the instruction and executeCode's description state the resolved
    // config), and the memory limit where a run meets it.
    const codeMode = await IoCodeModeFactory({ wasmLocation: "/quickjs/emscripten-module.wasm" });
    const identity = await IoCodeModeFactory({ wasmLocation: "/quickjs/emscripten-module.wasm", overwriteSystemInstruction: (current) => current });
    try {
        registerPageTools(codeMode);
        registerPageTools(identity);
        assert.deepEqual(codeMode.listTools().map((t) => t.name).sort(), ["admin.deleteAll", "orders.search", "payments.transfer"], "toolFilter: include all");
        const session = codeMode.createSession();
        const instruction = session.getSystemInstruction();
        assert.match(instruction, /Limits per run: 30s \(time waiting for tools included\), 128 MB memory,/);
        assert.equal(identity.createSession().getSystemInstruction(), instruction, "overwriteSystemInstruction: identity");
        const executeCode = session.getLlmTools().find((tool) => tool.name === "executeCode");
        assert.match(executeCode.description, /Limits per run: 30s, 128 MB,/);
        calls.length = 0;
        const r = await executeCode.execute({ code: "return await tools.payments.transfer({ amount: 1 })", explanation: "Allowed by default." });
        assert.deepEqual([r.ok, r.result], [true, { done: true }], "onToolCall: allow");
        const big = await executeCode.execute({ code: "const a = []; for (let i = 0; i < 200; i++) a.push('x'.repeat(1 << 20) + i); return a.length", explanation: "Past 128 MB." });
        assert.equal(big.error?.code, "MEMORY_LIMIT", JSON.stringify(big));
        assert.match(big.error.message, /the run's memory limit is 128 MB/);
    } finally {
        codeMode.dispose();
        identity.dispose();
    }
});
