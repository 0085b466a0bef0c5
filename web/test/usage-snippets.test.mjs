// Every ```js (and ```ts) block of web/USAGE.md and README.md, run as written against
// dist/: the block is read from the file at test time, so an edit that
// breaks one fails here. Each block becomes a module in a temporary
// directory whose node_modules has @interopio/code-mode (a link to dist/)
// and the SDKs the snippets import, so its import lines stay verbatim. Its
// other lines run in a function whose parameters are the names the block
// leaves to the reader (signal, session, openai, ...), given here as fakes
// (the LLM SDKs are the real clients over a scripted fetch); the names the
// block declares come back for the case's checks. A block no case claims
// fails the suite: a new snippet needs a case, or a reason it cannot run
// here (and the test that runs it instead).
// In worker mode (CODE_MODE_WORKER=1) the factories the tests hand over
// run in a worker; a block that imports the factory runs at its default.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { MockLanguageModelV4 } from "ai/test";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { generateText as generateText6, stepCountIs as stepCountIs6, tool as tool6 } from "ai-v6";
import { MockLanguageModelV3 } from "ai-v6/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";
import { FakeStreamingChatModel } from "@langchain/core/utils/testing";
import { AIMessage, AIMessageChunk } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { ChatAnthropic } from "@langchain/anthropic";
import { createAgent } from "langchain";
import { setDefaultBaseUrls } from "@google/genai";
import { setDefaultOpenAIClient, setTracingDisabled } from "@openai/agents";
import { RequestContext } from "@mastra/core/request-context";
import { Ollama } from "ollama";
import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import Groq from "groq-sdk";
import { Mistral } from "@mistralai/mistralai";
import { CohereClientV2 } from "cohere-ai";
import { WORKER, assetPath, dist, loadFactory, root } from "./helpers.mjs";
import { anthropicMessage, anthropicStream, completion, responsesCall, responsesReply as response, responsesText, scriptedFetch } from "./adapter-helpers.mjs";
import { FakeAgent } from "./fakes/fdc3.mjs";
import { geminiServer } from "./fakes/gemini.mjs";
import { ollamaServer } from "./fakes/ollama.mjs";
import { bedrockServer } from "./fakes/bedrock.mjs";
import { groqServer } from "./fakes/groq.mjs";
import { mistralServer } from "./fakes/mistral.mjs";
import { cohereServer } from "./fakes/cohere.mjs";
import { FakeBus, fakeIo } from "./fakes/io-connect.mjs";

/** The ```js and ```ts blocks of a file: { where: "file:line", lang, code }. */
function jsBlocks(file) {
    const text = readFileSync(join(root, file), "utf8");
    const blocks = [];
    for (const m of text.matchAll(/^( *)```(js|ts)\n([\s\S]*?)^\1```/gm)) {
        const code = m[3].replace(new RegExp(`^${m[1]}`, "gm"), "");
        blocks.push({ where: `${file}:${text.slice(0, m.index).split("\n").length}`, lang: m[2], code });
    }
    return blocks;
}

let dir, Factory;
const factories = [];
before(async () => {
    const real = await loadFactory();
    // The factory a block is handed (it imports none): the suite's mode
    // unless the block chooses one.
    Factory = async (config) => {
        const api = await real({ worker: WORKER, ...config });
        factories.push(api);
        return api;
    };
    dir = mkdtempSync(join(tmpdir(), "usage-snippets-"));
    const modules = join(dir, "node_modules");
    mkdirSync(join(modules, "@interopio"), { recursive: true });
    symlinkSync(dist, join(modules, "@interopio", "code-mode"), "dir");
    for (const name of ["ai", "zod", "openai", "@anthropic-ai", "@langchain", "langchain", "@modelcontextprotocol", "@energetic-ai", "@google", "@openai", "@mastra", "ollama", "@aws-sdk", "groq-sdk", "@mistralai", "cohere-ai"]) {
        symlinkSync(join(root, "node_modules", name), join(modules, name), "dir");
    }
});
after(async () => {
    for (const api of factories) api.dispose();
    for (const close of closing) await close();
    rmSync(dir, { recursive: true, force: true });
});

let n = 0;
/**
 * A block as a module: its import lines at the top, the rest in a function
 * of `names` (typed by the JSDoc `types`, if given) that returns the names
 * the block declares at top level (its constants, variables and functions).
 */
function moduleText(code, names, types) {
    const lines = code.split("\n");
    const imports = lines.filter((l) => /^import\s/.test(l));
    const body = lines.filter((l) => !/^import\s/.test(l));
    const declared = new Set();
    for (const l of body) {
        const m = /^(?:(?:const|let|var)\s+(?:\{([^}]*)\}|\[([^\]]*)\]|([\w$]+))|(?:async\s+)?function\s+([\w$]+))/.exec(l);
        if (!m) continue;
        for (const name of (m[1] ?? m[2] ?? m[3] ?? m[4]).split(",")) {
            const id = name.trim().split(/[:=]/).pop().trim();
            if (/^[\w$]+$/.test(id)) declared.add(id);
        }
    }
    const jsdoc = types ? `/** @param {{ ${names.map((k) => `${k}: ${types[k] ?? "any"}`).join("; ")} }} env */\n` : "";
    return `${imports.join("\n")}\n${jsdoc}export default async function ({ ${names.join(", ")} }) {\n{\n${body.join("\n")}\nreturn { ${[...declared].join(", ")} };\n}\n}\n`;
}

/** Runs a block (moduleText) with env's names; resolves with what it declares. */
async function runBlock(code, env) {
    const file = join(dir, `block${n++}.mjs`);
    writeFileSync(file, moduleText(code, Object.keys(env)));
    if (env === PAGE) return inPage(file);
    if (env === STDIO) return { file };
    const mod = await import(pathToFileURL(file).href);
    const out = await mod.default(env);
    for (const v of Object.values(out)) if (v && typeof v === "object" && typeof v.dispose === "function" && typeof v.registerTool === "function") factories.push(v);
    return out;
}

// A block written for a page (wasmLocation a URL relative to it) runs in a
// child process that plays the page as seed.test.mjs does: an HTTP server
// serves the asset, and document.baseURI is set before the package loads.
// The child prints what the block declared: strings whole, arrays as their
// items' names, anything else as its type.
const PAGE = {};
const PAGE_DRIVER = `
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
const asset = readFileSync(process.argv[2]);
const server = createServer((req, res) => {
    const ok = req.url.endsWith("/emscripten-module.wasm");
    res.writeHead(ok ? 200 : 404, { "content-type": ok ? "application/wasm" : "text/plain" });
    res.end(ok ? asset : "not found");
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
globalThis.document = { baseURI: "http://127.0.0.1:" + server.address().port + "/app/index.html" };
const out = await (await import(process.argv[3])).default({});
const summary = {};
for (const [k, v] of Object.entries(out)) summary[k] = typeof v === "string" ? v : Array.isArray(v) ? v.map((x) => x?.name ?? typeof x) : typeof v;
out.codeMode?.dispose();
server.close();
console.log(JSON.stringify(summary));
`;
function inPage(file) {
    const driver = join(dir, "page-driver.mjs");
    writeFileSync(driver, PAGE_DRIVER);
    const child = spawnSync(process.execPath, [driver, assetPath, pathToFileURL(file).href], { encoding: "utf8", timeout: 120_000 });
    assert.equal(child.status, 0, child.stderr);
    return JSON.parse(child.stdout.trim().split("\n").pop());
}

// A block that serves over stdio runs in a child process whose stdin and
// stdout are the transport (node:test reports on this one's): the driver
// hands it a factory holding orders.search, and the test is its client.
const STDIO = { codeMode: null };
const STDIO_DRIVER = `
import { IoCodeModeFactory } from "@interopio/code-mode";
const codeMode = await IoCodeModeFactory({ wasmLocation: process.argv[2] });
codeMode.registerTool({ name: "orders.search", execute: ({ status }) => [{ id: "o-1", status, total: 30 }, { id: "o-2", status, total: 17 }] });
await (await import(process.argv[3])).default({ codeMode });
`;

const ORDERS = [
    { id: "o-1", status: "open", total: 30 },
    { id: "o-2", status: "open", total: 12 },
    { id: "o-3", status: "open", total: 5 },
];
const SUM = "const o = await tools.orders.search({ status: 'open' }); return o.reduce((s, x) => s + x.total, 0);";
const seen = { contexts: [], events: [] };

/** A factory holding orders.search, a session and its LLM tools, plus the reader's usual names. */
async function page() {
    const codeMode = await Factory({ wasmLocation: assetPath });
    const ordersSearch = {
        name: "orders.search",
        description: "Search orders by status.",
        inputSchema: { type: "object", properties: { status: { type: "string" } }, required: ["status"] },
        execute: async ({ status }, { context }) => {
            seen.contexts.push(context);
            return ORDERS.filter((o) => o.status === status);
        },
    };
    codeMode.registerTool(ordersSearch);
    const session = codeMode.createSession();
    const [searchTools, executeCode] = session.getLlmTools();
    await codeMode.ready();
    const requestMetadata = { user: "ada" };
    seen.contexts.length = 0;
    seen.events.length = 0;
    return {
        IoCodeModeFactory: Factory,
        wasmLocation: assetPath,
        codeMode,
        session,
        searchTools,
        executeCode,
        signal: new AbortController().signal,
        abortSignal: new AbortController().signal,
        requestMetadata,
        context: requestMetadata,
        question: "What is the total of the open orders?",
        messages: [{ role: "user", content: "What is the total of the open orders?" }],
        trace: (e) => seen.events.push(e),
        fetchOrders: async (status) => ORDERS.filter((o) => o.status === status),
        searchOrders: async (input) => ORDERS.filter((o) => o.status === input.status),
        ordersSearch,
        args: { code: SUM, explanation: "Sum the open orders." },
    };
}

/** Closed after the suite: the local provider servers. */
const closing = [];
/**
 * A local Gemini API (fakes/gemini.mjs: it refuses what Gemini refuses)
 * answering `turns`, made the default of @google/genai's clients, so that
 * the block's own `new GoogleGenAI({ apiKey })` talks to it.
 */
async function gemini(turns) {
    const server = await geminiServer(turns);
    closing.push(server.close);
    setDefaultBaseUrls({ geminiUrl: server.url });
    return { apiKey: "test-key", geminiRequests: server.requests };
}
const GEMINI_LOOP = "const functionDeclarations = session.getLlmTools().map(";
const geminiCall = (name, args) => ({ functionCall: { id: `${name}-1`, name, args } });
/** A local Ollama server (fakes/ollama.mjs) answering `turns`, and a client of it as the block's `ollama`. */
async function ollamaEnv(turns) {
    const server = await ollamaServer(turns);
    closing.push(server.close);
    return { ollama: new Ollama({ host: server.host }), ollamaRequests: server.requests };
}
/** A local Groq API (fakes/groq.mjs: it checks the model's calls as Groq does) answering `turns`, and a client of it as the block's `groq`. */
async function groqEnv(turns) {
    const server = await groqServer(turns);
    closing.push(server.close);
    return { groq: new Groq({ apiKey: "test-key", baseURL: server.baseURL, maxRetries: 0 }), groqRequests: server.requests };
}
/** A local Mistral API (fakes/mistral.mjs) answering `turns`, and a client of it as the block's `mistral`. */
async function mistralEnv(turns) {
    const server = await mistralServer(turns);
    closing.push(server.close);
    return { mistral: new Mistral({ apiKey: "test-key", serverURL: server.serverURL, retryConfig: { strategy: "none" } }), mistralRequests: server.requests };
}
/** A local Cohere API v2 (fakes/cohere.mjs) answering `turns`, and a client of it as the block's `cohere`. */
async function cohereEnv(turns) {
    const server = await cohereServer(turns);
    closing.push(server.close);
    return { cohere: new CohereClientV2({ token: "test-key", baseUrl: server.baseUrl }), cohereRequests: server.requests };
}
/** A local Bedrock runtime (fakes/bedrock.mjs) answering `turns`, and a client of it as the block's `bedrock`. */
async function bedrockEnv(turns) {
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true"; // not the SDK's warning that its releases of 2027 on want Node 22
    const server = await bedrockServer(turns);
    const bedrock = new BedrockRuntimeClient({ region: "us-east-1", endpoint: server.endpoint, credentials: { accessKeyId: "AKIDTEST", secretAccessKey: "test" }, maxAttempts: 1 });
    closing.push(async () => {
        bedrock.destroy();
        await server.close();
    });
    return { bedrock, bedrockRequests: server.requests };
}
// The OpenAI Agents SDK's default client (its provider keeps the first it
// resolves a model name with), answering with `agentsFetch.fetch`.
const agentsFetch = { fetch: undefined };
setTracingDisabled(true);
setDefaultOpenAIClient(new OpenAI({ apiKey: "test-key", baseURL: "http://127.0.0.1:9/v1", fetch: (url, init) => agentsFetch.fetch(url, init), maxRetries: 0 }));
/** A scripted AI SDK model (ai/test) answering with each of `turns` (its content parts) in order. */
const mockModel = (turns) =>
    new MockLanguageModelV4({
        doGenerate: async () => {
            const content = turns.shift() ?? [{ type: "text", text: "(no more turns)" }];
            const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
            return { content, finishReason: { unified: content.some((p) => p.type === "tool-call") ? "tool-calls" : "stop", raw: undefined }, usage, warnings: [] };
        },
    });

/** The names of @interopio/code-mode/llm, for a block that goes on from one importing them. */
const llm = () => import(pathToFileURL(join(dist, "llm.mjs")).href);

// Scripted provider replies: a call of executeCode with SUM, then an answer.
const SUM_ARGS = JSON.stringify({ code: SUM, explanation: "Sum the open orders." });
const openAIChat = () => [
    completion({ tool_calls: [{ id: "c1", type: "function", function: { name: "executeCode", arguments: SUM_ARGS } }] }, "tool_calls"),
    completion({ content: "The open orders total 47." }, "stop"),
];
const openAI = (replies) => {
    const scripted = scriptedFetch(replies);
    return { openai: new OpenAI({ apiKey: "test-key", baseURL: "http://127.0.0.1:9/v1", fetch: scripted.fetch, maxRetries: 0 }), requests: scripted.requests };
};
const anthropicReplies = () => [
    anthropicMessage([{ type: "tool_use", id: "tu1", name: "executeCode", input: JSON.parse(SUM_ARGS) }], "tool_use"),
    anthropicMessage([{ type: "text", text: "The open orders total 47." }], "end_turn"),
];
const anthropicClient = (replies) => {
    const scripted = scriptedFetch(replies);
    return { anthropic: new Anthropic({ apiKey: "test-key", baseURL: "http://127.0.0.1:9", fetch: scripted.fetch, maxRetries: 0 }), requests: scripted.requests };
};
/**
 * LangChain's own fake chat model, answering turn after turn with the next
 * tool calls of `turns`, then with none: FakeStreamingChatModel answers
 * every turn with the tool calls of its chunks' first item, and this list's
 * first item is the next turn's.
 */
function langChainModel(turns) {
    const chunks = new Proxy([], { get: (list, k) => (k === "0" ? new AIMessageChunk({ content: "", tool_calls: turns.shift() ?? [] }) : k === "length" ? 1 : list[k]) });
    return new FakeStreamingChatModel({ responses: [new AIMessage("The open orders total 47.")], chunks });
}
const LANGCHAIN_TOOLS = "verboseParsingErrors: true, // the refusal says what is wrong";
/**
 * LangChain's chat models of OpenAI and Anthropic over a scripted fetch
 * (no network): their own parsers read the replies' tool calls, and their
 * own converters write the conversation each request sends back.
 */
// useResponsesApi: OpenAI's Responses API, whose output items (the calls
// as the model wrote them, an invalid one too) ChatOpenAI sends back as is.
const chatOpenAI = (replies, useResponsesApi = false) => {
    const scripted = scriptedFetch(replies);
    return { model: new ChatOpenAI({ model: "gpt-4.1", apiKey: "test-key", maxRetries: 0, useResponsesApi, configuration: { fetch: scripted.fetch } }), requests: scripted.requests };
};
// Streamed, as agents run Claude: a tool_use's input arrives as JSON text,
// which can fail to parse (an invalid tool call); a reply's input always
// parses.
const chatAnthropic = (replies) => {
    const scripted = scriptedFetch(replies);
    return { model: new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: "test-key", streaming: true, maxRetries: 0, clientOptions: { fetch: scripted.fetch } }), requests: scripted.requests };
};

/**
 * What each request sent back that the provider refuses: a call of the
 * model's without its answer right after it, or an answer of no call there.
 * OpenAI: an assistant message's tool_calls, answered by the tool messages
 * that follow; Anthropic: its tool_use blocks, by the next user message's
 * tool_result blocks; OpenAI's Responses API: the function_call items,
 * each answered by a function_call_output. Each as "call ids -> answer ids".
 */
function unanswered(requests) {
    const wrong = [];
    for (const { body } of requests) {
        if (body.input) {
            const ids = (type) => body.input.filter((item) => item.type === type).map((item) => item.call_id).sort().join();
            if (ids("function_call") !== ids("function_call_output")) wrong.push(`${ids("function_call")} -> ${ids("function_call_output")}`);
            continue;
        }
        body.messages.forEach((m, i) => {
            if (m.role !== "assistant") return;
            let calls, answers;
            if (Array.isArray(m.content) && m.content.some((b) => b.type === "tool_use")) {
                calls = m.content.filter((b) => b.type === "tool_use").map((b) => b.id);
                const next = body.messages[i + 1]?.content;
                answers = Array.isArray(next) ? next.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id) : [];
            } else {
                calls = (m.tool_calls ?? []).map((c) => c.id);
                answers = [];
                for (let j = i + 1; body.messages[j]?.role === "tool"; j++) answers.push(body.messages[j].tool_call_id);
            }
            if (calls.join() !== answers.join()) wrong.push(`${calls} -> ${answers}`);
        });
    }
    return wrong;
}

/** The tool outputs the requests sent back to the provider, parsed. */
const outputsSent = (requests, pick) => requests.flatMap((r) => pick(r.body)).map((s) => JSON.parse(s));

// Each case claims the blocks that contain `has` (one each).
const cases = [
    {
        has: "const system = session.getSystemInstruction(); // the rules and the tool catalog",
        env: () => PAGE,
        check: ({ tools, system }) => {
            assert.deepEqual(tools, ["searchTools", "executeCode"]);
            assert.match(system, /orders\.search/);
        },
    },
    {
        has: "cancelButton.onclick = () => controller.abort();",
        // "a page: in a Worker": on the calling thread the loop holds the thread until its timeout.
        env: async () => ({
            ...(await page()),
            IoCodeModeFactory: (config) => Factory({ ...config, worker: true }),
            cancelButton: { set onclick(f) { setTimeout(f, 300); } },
            code: "for (;;) {}",
            explanation: "Spin.",
        }),
        // "settles at once, even for `for (;;) {}`": the click rejects the run with an AbortError.
        run: async (go) => {
            const started = Date.now();
            await assert.rejects(go(), { name: "AbortError" });
            assert.ok(Date.now() - started < 10_000, `settled after ${Date.now() - started} ms`);
            assert.ok(seen.events.some((e) => e.type), "onEvent saw the run");
        },
    },
    {
        has: 'wasmLocation: "/quickjs/emscripten-module.wasm", // browser: a URL',
        env: () => PAGE,
        check: ({ codeMode }) => assert.equal(codeMode, "object"),
    },
    {
        has: "const require = createRequire(import.meta.url);",
        env: page,
        check: async ({ codeMode }) => {
            codeMode.registerTool({ name: "one", execute: () => 1 });
            const [, exec] = codeMode.createSession().getLlmTools();
            assert.deepEqual((await exec.execute({ code: "return await tools.one()", explanation: "x" })).result, 1);
        },
    },
    {
        has: '// a .cts file, or a package without "type": "module" (no top-level await there)',
        // CommonJS: the block type-checks as a .cts under "node16" (and
        // without its import attribute fails with the TS1541 the text names),
        // then runs as JavaScript in a .cjs file of its own, start() called.
        run: async (_, block) => {
            const cjs = join(dir, "cjs");
            mkdirSync(cjs, { recursive: true });
            writeFileSync(join(cjs, "start.cts"), `${block}\nexport = start;\n`);
            writeFileSync(join(cjs, "bare.cts"), `${block.replace(/ with \{ "resolution-mode": "import" \}/, "")}\nexport = start;\n`);
            const compilerOptions = { strict: true, exactOptionalPropertyTypes: true, noEmit: true, module: "node16", moduleResolution: "node16", target: "es2022", types: ["node"], typeRoots: [join(root, "node_modules", "@types")] };
            writeFileSync(join(cjs, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["start.cts", "bare.cts"] }));
            const tsc = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: cjs, encoding: "utf8", timeout: 300_000 });
            assert.deepEqual(tsc.stdout.split("\n").filter(Boolean).map((l) => l.replace(/\(\d+,\d+\)/, "")), ["bare.cts: error TS1541: Type-only import of an ECMAScript module from a CommonJS module must have a 'resolution-mode' attribute."], tsc.stdout + tsc.stderr);
            const file = join(dir, "start.cjs");
            const ts = createRequire(import.meta.url)("typescript");
            writeFileSync(file, `${ts.transpileModule(block, { fileName: "start.cts", compilerOptions: { module: ts.ModuleKind.Node16, target: ts.ScriptTarget.ES2022 } }).outputText}\nmodule.exports = { start };\n`);
            const codeMode = await createRequire(import.meta.url)(file).start();
            factories.push(codeMode);
            codeMode.registerTool({ name: "one", execute: () => 1 });
            const [, exec] = codeMode.createSession().getLlmTools();
            assert.equal((await exec.execute({ code: "return await tools.one()", explanation: "x" })).result, 1);
        },
    },
    {
        has: "execute: async (input, { context, signal }) => fetchOrders(input.status, { signal }),",
        env: async () => ({ ...(await page()), codeMode: await Factory({ wasmLocation: assetPath }) }),
        // The comment's first shape: { ok: true, result: 3, logs: [...], toolCalls: [...], durationMs }.
        check: ({ result, instructions }) => {
            assert.equal(result.ok, true, JSON.stringify(result));
            assert.equal(result.result, 3);
            assert.deepEqual(Object.keys(result).sort(), ["durationMs", "logs", "ok", "result", "toolCalls"]);
            assert.match(instructions, /orders\.search/);
        },
    },
    {
        has: 'import { z } from "zod";',
        env: async () => ({ ...(await page()), codeMode: await Factory({ wasmLocation: assetPath }) }),
        check: async (out, { codeMode }) => {
            const [, exec] = codeMode.createSession().getLlmTools();
            const ok = await exec.execute({ code: "return await tools.orders.search({ status: 'open', limit: 2 })", explanation: "x" });
            assert.equal(ok.ok, true, JSON.stringify(ok));
            const refused = await exec.execute({ code: "return await tools.orders.search({ status: 'shipped', limit: 2 })", explanation: "x" });
            assert.equal(refused.ok, false);
            assert.match(refused.error.message, /no limit for shipped orders/);
        },
    },
    {
        has: "tools.orders.list(input?: unknown): Promise<",
        // A signature: the one tool_search gives after the two results the comment counts.
        run: async (_, block) => {
            const codeMode = await Factory({ wasmLocation: assetPath });
            const results = [[{ id: "o-1", total: 30, note: "rush" }], [{ id: "o-2", total: 12 }]];
            codeMode.registerTool({ name: "orders.list", description: "List orders.", execute: () => results.shift() });
            const [, exec] = codeMode.createSession().getLlmTools();
            const r = await exec.execute({ code: "await tools.orders.list(); await tools.orders.list(); return (await tool_search({ query: 'list orders' }))[0].signature;", explanation: "x" });
            assert.equal(r.result, block.trim());
        },
    },
    {
        has: "// maxResultChars: 500; return { total: 300, rows }, 300 rows",
        // Not code: the shapes cut results have, checked against real cuts of
        // the values the block names, figures and all.
        run: async (_, block) => {
            const figure = (re) => Number(re.exec(block)?.[1]);
            const codeMode = await Factory({ wasmLocation: assetPath, maxResultChars: 500 });
            const [, exec] = codeMode.createSession().getLlmTools();
            const result = async (code) => (await exec.execute({ code, explanation: "x" })).result;
            const { total, rows } = await result("const rows = Array.from({ length: 300 }, (_, id) => ({ id, note: '' })); return { total: 300, rows };");
            assert.equal(total, 300);
            assert.deepEqual(rows.slice(0, 1), [{ id: 0, note: "" }]);
            assert.deepEqual(rows.slice(-2), [{ id: figure(/\{ id: (\d+), note: "" \}, "… \d+ more items"/), note: "" }, `… ${figure(/… (\d+) more items/)} more items`]);
            const keys = await result("return Object.fromEntries(Array.from({ length: 500 }, (_, i) => ['k' + i, i]));");
            assert.deepEqual(Object.entries(keys).slice(-2), [[`k${figure(/k(\d+): \d+, "…"/)}`, figure(/k(\d+): \d+, "…"/)], ["…", `${figure(/(\d+) more keys/)} more keys`]]);
            const x = await result("return 'x'.repeat(50_000);");
            assert.equal(x.slice(x.indexOf("…")), `… [${figure(/\[(\d+) more characters\]/)} more characters]`);
            assert.equal(x.indexOf("…") + figure(/\[(\d+) more characters\]/), 50_000);
        },
    },
    {
        has: 'import { generateText, stepCountIs, tool } from "ai";',
        env: async () => ({
            ...(await page()),
            model: new MockLanguageModelV4({
                doGenerate: (() => {
                    let calls = 0;
                    const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
                    return async () =>
                        calls++ === 0
                            ? { content: [{ type: "tool-call", toolCallId: "c1", toolName: "executeCode", input: SUM_ARGS }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] }
                            : { content: [{ type: "text", text: "The open orders total 47." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
                })(),
            }),
        }),
        check: ({ text }, { requestMetadata }) => {
            assert.equal(text, "The open orders total 47.");
            assert.deepEqual(seen.contexts, [requestMetadata], "toolsContext reached the tool as options.context");
        },
    },
    {
        has: "const repairToolCall = async ({ toolCall, tools, error }) =>",
        env: page,
        // What the AI SDK cannot parse as JSON, through generateText of ai 7
        // and 6 with their mock models: without the repair each call is the
        // SDK's parse error; with it, the tools read the text (a comma before
        // the brace, a program alone, fenced JSON run) or answer with their
        // own message, a name with functions. before it is the tool's, and
        // a name neither tool has stays the SDK's error.
        check: async ({ repairToolCall }, { codeMode }) => {
            const calls = [
                ["executeCode", SUM_ARGS.replace(/}$/, ",}")],
                ["executeCode", SUM],
                ["searchTools", '```json\n{"query":"orders"}\n```'],
                ["executeCode", "{code: 'return 1'}"],
                ["execute_code", SUM_ARGS],
                ["functions.executeCode", SUM_ARGS],
                ["functions.nothing", "{}"],
            ];
            const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
            const outputs = async ({ generateText, stepCountIs, tool, Mock }, options) => {
                const seen = [];
                let step = 0;
                const model = new Mock({
                    doGenerate: async ({ prompt }) => {
                        const last = prompt.at(-1);
                        if (last.role === "tool") seen.push(...last.content.map((p) => p.output));
                        const call = calls[step++];
                        return call
                            ? { content: [{ type: "tool-call", toolCallId: `c${step}`, toolName: call[0], input: call[1] }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] }
                            : { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
                    },
                });
                const session = codeMode.createSession();
                const [searchTools, executeCode] = session.getLlmTools();
                const { text } = await generateText({ model, prompt: "Total of the open orders?", tools: { searchTools: tool(searchTools), executeCode: tool(executeCode) }, stopWhen: stepCountIs(10), ...options });
                assert.equal(text, "done");
                return seen;
            };
            for (const sdk of [{ generateText, stepCountIs, tool, Mock: MockLanguageModelV4 }, { generateText: generateText6, stepCountIs: stepCountIs6, tool: tool6, Mock: MockLanguageModelV3 }]) {
                const before = await outputs(sdk, {});
                assert.deepEqual(before.map((o) => o.type), ["error-text", "error-text", "error-text", "error-text", "error-text", "error-text", "error-text"]);
                assert.match(before[0].value, /Invalid input for tool executeCode: (AI_JSONParseError: )?JSON parsing failed: /);
                const after = await outputs(sdk, { experimental_repairToolCall: repairToolCall });
                assert.deepEqual(after.map((o) => o.type), ["json", "json", "json", "error-json", "error-text", "json", "error-text"], JSON.stringify(after));
                assert.equal(after[0].value.result, 47);
                assert.equal(after[1].value.result, 47);
                assert.deepEqual(after[2].value.map((t) => t.name), ["orders.search"]);
                assert.equal(after[3].value.error.message, "executeCode: the arguments are JSON text that does not parse (JSON writes keys and strings in double quotes); expected an object { code: string; explanation?: string }");
                assert.match(after[4].value, /tool 'execute_code'\. Available tools: searchTools, executeCode\.$/);
                assert.equal(after[5].value.result, 47);
                assert.match(after[6].value, /tool 'functions\.nothing'\. Available tools: searchTools, executeCode\.$/);
            }
        },
    },
    {
        has: 'const completion = await openai.chat.completions.create({ model: "gpt-4.1", messages, tools });',
        env: async () => ({ ...(await page()), ...openAI(openAIChat()) }),
        check: ({ messages }, { requestMetadata }) => {
            assert.equal(messages.at(-1).content, "The open orders total 47.");
            const output = JSON.parse(messages.find((m) => m.role === "tool").content);
            assert.equal(output.result, 47, JSON.stringify(output));
            assert.deepEqual(seen.contexts, [requestMetadata]);
        },
    },
    {
        has: LANGCHAIN_TOOLS,
        env: page,
        // The tools through LangChain's own model and tool calls: the model's
        // { code } alone refused with the reason, then run; the block's
        // signal and context reach the run.
        check: async ({ tools }, { codeMode, requestMetadata }) => {
            assert.deepEqual(tools.map((t) => t.name), ["searchTools", "executeCode"]);
            const model = langChainModel([
                [{ name: "executeCode", args: { code: SUM }, id: "c1", type: "tool_call" }],
                [{ name: "executeCode", args: JSON.parse(SUM_ARGS), id: "c2", type: "tool_call" }],
                [{ name: "searchTools", args: { query: "orders", limit: "5" }, id: "c3", type: "tool_call" }],
            ]).bindTools(tools);
            const [first] = (await model.invoke("What is the total of the open orders?")).tool_calls;
            await assert.rejects(tools[1].invoke(first), { message: 'Received tool input did not match expected schema\nDetails: #/required: Instance does not have required property "explanation".' });
            const [second] = (await model.invoke("Again.")).tool_calls;
            const answer = await tools[1].invoke(second);
            assert.equal(answer.tool_call_id, "c2");
            assert.equal(JSON.parse(answer.content).result, 47, answer.content);
            assert.deepEqual(seen.contexts, [requestMetadata]);
            const [third] = (await model.invoke("Search.")).tool_calls;
            await assert.rejects(tools[0].invoke(third), { message: /^Received tool input did not match expected schema\nDetails: .*\n#\/properties\/limit\/type: Instance type "string" is invalid\. Expected "integer"\.$/ });
            // LangChain rejects at the abort by itself; the run stops only if
            // the signal reaches execute (the tool's own signal aborts).
            let stopped;
            const toolAborted = new Promise((resolve) => (stopped = resolve));
            codeMode.registerTool({ name: "clock.wait", execute: (_, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => (stopped(), resolve("aborted")))) });
            const waiting = tools[1].invoke({ code: "return await tools.clock.wait({})", explanation: "Wait." }, { signal: AbortSignal.timeout(300) });
            await assert.rejects(waiting, { name: /AbortError|TimeoutError/ });
            assert.equal(await Promise.race([toolAborted.then(() => "aborted"), new Promise((resolve) => setTimeout(resolve, 5000, "still running"))]), "aborted");
            // createAgent (the langchain package) with these tools, as the
            // text says: its tool node answers the refused call with the
            // reason, and the model's next call runs.
            const agent = createAgent({
                model: langChainModel([[{ name: "executeCode", args: { code: SUM }, id: "a1", type: "tool_call" }], [{ name: "executeCode", args: JSON.parse(SUM_ARGS), id: "a2", type: "tool_call" }]]),
                tools,
                systemPrompt: "Use the tools.",
            });
            const { messages } = await agent.invoke({ messages: [{ role: "user", content: "What is the total of the open orders?" }] });
            const [refused, ran] = messages.filter((m) => m.getType() === "tool");
            assert.equal(refused.tool_call_id, "a1");
            assert.equal(refused.status, "error");
            assert.match(refused.content, /Received tool input did not match expected schema\nDetails: #\/required: Instance does not have required property "explanation"\./);
            assert.equal(JSON.parse(ran.content).result, 47, ran.content);
            assert.equal(messages.at(-1).content, "The open orders total 47.");
            // As the text says: a reply whose only call's arguments are not
            // JSON (ChatOpenAI's invalid_tool_calls) ends createAgent's run
            // there, unanswered, the model not asked again.
            const chat = chatOpenAI([
                completion({ tool_calls: [{ id: "b1", type: "function", function: { name: "executeCode", arguments: SUM_ARGS.replace(/}$/, ",}") } }] }, "tool_calls"),
                completion({ content: "The open orders total 47." }, "stop"),
            ]);
            const ended = (await createAgent({ model: chat.model, tools, systemPrompt: "Use the tools." }).invoke({ messages: [{ role: "user", content: "What is the total of the open orders?" }] })).messages;
            assert.deepEqual(ended.map((m) => m.getType()), ["human", "ai"]);
            assert.equal(ended[1].content, "");
            assert.deepEqual(ended[1].tool_calls, []);
            assert.deepEqual(ended[1].invalid_tool_calls.map((c) => c.id), ["b1"]);
            assert.equal(chat.requests.length, 1);
        },
    },
    {
        has: "const invalidToolCalls = createMiddleware({",
        // The middleware in createAgent with the tools of the block above:
        // ChatOpenAI's calls whose arguments are not JSON, a comma before
        // the brace (it runs) and one cut short (its answer says so), then
        // ChatAnthropic's streamed one beside a valid call. Every call is
        // answered in what goes back, and the block's context reaches the
        // run. (Each reply has an id of its own, as a provider's do:
        // createAgent keeps one message per id.)
        env: async () => {
            const env = await page();
            const { tools } = await runBlock(blocks.find((b) => b.code.includes(LANGCHAIN_TOOLS)).code, env);
            return { ...env, tools };
        },
        check: async ({ invalidToolCalls, unparsed }, env) => {
            const agentRun = async (model) => (await createAgent({ model, tools: env.tools, systemPrompt: "Use the tools.", middleware: [invalidToolCalls] }).invoke({ messages: [{ role: "user", content: "What is the total of the open orders?" }] })).messages;
            const answersOf = (messages) => Object.fromEntries(messages.filter((m) => m.getType() === "tool").map((m) => [m.tool_call_id, JSON.parse(m.content)]));
            const call = (id, name, args) => ({ id, type: "function", function: { name, arguments: args } });
            const reply = (n, message, finish) => ({ ...completion(message, finish), id: `chatcmpl-${n}` });
            const openai = chatOpenAI([
                reply(1, { tool_calls: [call("c1", "executeCode", SUM_ARGS.replace(/}$/, ",}"))] }, "tool_calls"),
                reply(2, { tool_calls: [call("c2", "executeCode", '{"code": "return 1')] }, "tool_calls"),
                reply(3, { content: "The open orders total 47." }, "stop"),
            ]);
            const messages = await agentRun(openai.model);
            assert.deepEqual(messages.map((m) => m.getType()), ["human", "ai", "tool", "ai", "tool", "ai"]);
            const answers = answersOf(messages);
            assert.equal(answers.c1.result, 47, JSON.stringify(answers.c1));
            assert.match(answers.c2.error?.message, /^The arguments of executeCode are not valid JSON/, JSON.stringify(answers.c2));
            assert.equal(messages.at(-1).content, "The open orders total 47.");
            assert.equal(openai.requests.length, 3);
            assert.deepEqual(unanswered(openai.requests), []);
            assert.deepEqual(seen.contexts, [env.requestMetadata]);

            seen.contexts.length = 0;
            const stream = (n, blocks, stop) => anthropicStream(blocks, stop).replace('"id":"msg_1"', `"id":"msg_${n}"`);
            const anthropic = chatAnthropic([
                stream(1, [{ id: "tu1", name: "searchTools", json: '{"query": "orders"}' }, { id: "tu2", name: "executeCode", json: '{"code" "return 1"}' }], "tool_use"),
                stream(2, [{ id: "tu3", name: "executeCode", json: SUM_ARGS }], "tool_use"),
                stream(3, [{ text: "The open orders total 47." }], "end_turn"),
            ]);
            const claude = await agentRun(anthropic.model);
            const got = answersOf(claude);
            assert.deepEqual(Object.keys(got), ["tu1", "tu2", "tu3"]);
            assert.deepEqual(got.tu1.map((h) => h.name), ["orders.search"]);
            assert.match(got.tu2.error?.message, /^The arguments of executeCode are not valid JSON/, JSON.stringify(got.tu2));
            assert.equal(got.tu3.result, 47, JSON.stringify(got.tu3));
            assert.equal(claude.at(-1).text, "The open orders total 47.");
            assert.equal(anthropic.requests.length, 3);
            assert.deepEqual(unanswered(anthropic.requests), []);
            assert.deepEqual(seen.contexts, [env.requestMetadata]);
            assert.equal(unparsed.size, 0);
        },
    },
    {
        has: "const withTools = model.bindTools(tools);",
        // The block goes on from the one above: its tools are in scope. It
        // runs with ChatOpenAI, then with ChatAnthropic (streamed), then
        // with ChatOpenAI on the Responses API.
        // ChatOpenAI: the model sends { code } alone, which handleToolCall
        // runs; then only calls whose arguments are not JSON
        // (invalid_tool_calls), which ended the loop with an empty reply:
        // one cut short, one with a comma before its brace (handleToolCall
        // runs it); then a valid call beside an invalid one.
        // ChatAnthropic: a valid call, then a valid one beside one whose
        // streamed input is not JSON, whose tool_use ChatAnthropic sends
        // back with the conversation: unanswered, Anthropic's API refused
        // the next turn.
        env: async () => {
            const env = await page();
            const { tools } = await runBlock(blocks.find((b) => b.code.includes(LANGCHAIN_TOOLS)).code, env);
            const call = (id, name, args) => ({ id, type: "function", function: { name, arguments: args } });
            const openai = chatOpenAI([
                completion({ tool_calls: [call("c1", "executeCode", JSON.stringify({ code: SUM }))] }, "tool_calls"),
                completion({ tool_calls: [call("c2", "executeCode", '{"code": "return 1')] }, "tool_calls"),
                completion({ tool_calls: [call("c3", "executeCode", SUM_ARGS.replace(/}$/, ",}"))] }, "tool_calls"),
                completion({ tool_calls: [call("c4", "searchTools", '{"query": "orders"}'), call("c5", "searchTools", '{"query": ')] }, "tool_calls"),
                completion({ content: "The open orders total 47." }, "stop"),
            ]);
            return { ...env, tools, ...openai };
        },
        run: async (go, code, env) => {
            const answersOf = (messages) => Object.fromEntries(messages.filter((m) => m.getType() === "tool").map((m) => [m.tool_call_id, JSON.parse(m.content)]));
            const { messages } = await go();
            assert.deepEqual(messages.map((m) => m.getType()), ["system", "human", "ai", "tool", "ai", "tool", "ai", "tool", "ai", "tool", "tool", "ai"]);
            const answers = answersOf(messages);
            assert.deepEqual(Object.keys(answers), ["c1", "c2", "c3", "c4", "c5"]);
            assert.equal(answers.c1.result, 47, JSON.stringify(answers.c1));
            assert.match(answers.c2.error?.message, /^The arguments of executeCode are not valid JSON/, JSON.stringify(answers.c2));
            assert.equal(answers.c3.result, 47, JSON.stringify(answers.c3));
            assert.deepEqual(answers.c4.map((h) => h.name), ["orders.search"]);
            assert.match(answers.c5.error?.message, /^The arguments of searchTools are not valid JSON/, JSON.stringify(answers.c5));
            assert.equal(messages.at(-1).content, "The open orders total 47.");
            assert.deepEqual(env.requests.map((r) => r.body.messages.filter((m) => m.role === "assistant").length), [0, 1, 2, 3, 4]);
            assert.deepEqual(unanswered(env.requests), []);
            assert.deepEqual(seen.contexts, [env.requestMetadata, env.requestMetadata]);

            seen.contexts.length = 0;
            const anthropic = chatAnthropic([
                anthropicStream([{ text: "Let me look." }, { id: "tu1", name: "executeCode", json: SUM_ARGS }], "tool_use"),
                anthropicStream([{ id: "tu2", name: "searchTools", json: '{"query": "orders"}' }, { id: "tu3", name: "executeCode", json: '{"code" "return 1"}' }], "tool_use"),
                anthropicStream([{ text: "The open orders total 47." }], "end_turn"),
            ]);
            const claude = await runBlock(code, { ...env, ...anthropic });
            const got = answersOf(claude.messages);
            assert.deepEqual(Object.keys(got), ["tu1", "tu2", "tu3"]);
            assert.equal(got.tu1.result, 47, JSON.stringify(got.tu1));
            assert.deepEqual(got.tu2.map((h) => h.name), ["orders.search"]);
            assert.match(got.tu3.error?.message, /^The arguments of executeCode are not valid JSON/, JSON.stringify(got.tu3));
            assert.equal(anthropic.requests.length, 3);
            assert.deepEqual(unanswered(anthropic.requests), []);
            assert.deepEqual(seen.contexts, [env.requestMetadata]);

            // ChatOpenAI on the Responses API sends back the model's
            // function_call items as they came, the invalid one too.
            const fc = (id, name, args) => ({ type: "function_call", id: `fc_${id}`, call_id: id, name, arguments: args, status: "completed" });
            const responses = chatOpenAI(
                [
                    response([fc("r1", "searchTools", '{"query": "orders"}'), fc("r2", "executeCode", '{"code": "return 1')]),
                    response([{ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "The open orders total 47.", annotations: [] }] }]),
                ],
                true,
            );
            const viaResponses = answersOf((await runBlock(code, { ...env, ...responses })).messages);
            assert.deepEqual(Object.keys(viaResponses), ["r1", "r2"]);
            assert.match(viaResponses.r2.error?.message, /^The arguments of executeCode are not valid JSON/, JSON.stringify(viaResponses.r2));
            assert.match(responses.requests[0].url, /\/responses$/);
            assert.deepEqual(unanswered(responses.requests), []);
        },
    },
    {
        has: 'const { message } = await ollama.chat({ model: "qwen3", messages, tools });',
        // A call as Ollama sends it (arguments an object, no explanation), a page tool called by name, a call the model
        // wrote as text (Llama's { name, parameters }, fenced), then the answer.
        env: async () => ({
            ...(await page()),
            ...(await ollamaEnv([
                { tool_calls: [{ id: "call_1", function: { index: 0, name: "executeCode", arguments: { code: SUM } } }, { id: "call_2", function: { index: 1, name: "orders.search", arguments: { status: "open" } } }] },
                { content: '```json\n{"name": "searchTools", "parameters": {"query": "orders"}}\n```' },
                { content: "The open orders total 47." },
            ])),
        }),
        check: ({ messages }, env) => {
            assert.equal(messages.at(-1).content, "The open orders total 47.");
            assert.equal(env.ollamaRequests.length, 3);
            const answers = env.ollamaRequests[2].messages.filter((m) => m.role === "tool");
            assert.deepEqual(answers.map((m) => [m.tool_name, m.tool_call_id]), [["executeCode", "call_1"], ["orders.search", "call_2"], ["searchTools", undefined]]);
            assert.equal(JSON.parse(answers[0].content).result, 47, answers[0].content);
            assert.equal(JSON.parse(answers[1].content).error.code, "UNKNOWN_TOOL", answers[1].content);
            assert.deepEqual(JSON.parse(answers[2].content).map((h) => h.name), ["orders.search"], answers[2].content);
            assert.deepEqual(seen.contexts, [env.requestMetadata]);
        },
    },
    {
        has: "const { output, stopReason } = await bedrock.send(",
        // searchTools (an array: sent as text, Bedrock takes it), executeCode, then the answer: every request passed the fake's checks.
        env: async () => ({
            ...(await page()),
            ...(await bedrockEnv([
                [{ toolUse: { toolUseId: "tooluse_1", name: "searchTools", input: { query: "orders" } } }, { toolUse: { toolUseId: "tooluse_2", name: "executeCode", input: JSON.parse(SUM_ARGS) } }],
                [{ text: "The open orders total 47." }],
            ])),
        }),
        check: ({ messages }, env) => {
            assert.deepEqual(messages.at(-1).content, [{ text: "The open orders total 47." }]);
            assert.equal(env.bedrockRequests.length, 2);
            const [hits, sum] = env.bedrockRequests[1].body.messages[2].content.map((b) => JSON.parse(b.toolResult.content[0].text));
            assert.deepEqual(hits.map((h) => h.name), ["orders.search"]);
            assert.equal(sum.result, 47, JSON.stringify(sum));
            assert.deepEqual(seen.contexts, [env.requestMetadata]);
        },
    },
    {
        has: "const { stream } = await bedrock.send(command, { abortSignal: signal });",
        // The block goes on from the one above (its toolConfig and handleToolCall): a streamed turn of text and two
        // calls, one of them malformed JSON, then the answer; every request passed the fake's checks, the inputs sent
        // back as objects.
        env: async () => {
            const env = { ...(await page()), ...(await llm()) };
            const toolConfig = { tools: env.session.getLlmTools().map((t) => ({ toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.inputSchema } } })) };
            const turns = [
                [{ text: "Let me add them up." }, { toolUse: { toolUseId: "tooluse_1", name: "executeCode", input: JSON.parse(SUM_ARGS) } }, { toolUse: { toolUseId: "tooluse_2", name: "searchTools", input: "{\"query\": " } }],
                [{ text: "The open orders total 47." }],
            ];
            return { ...env, toolConfig, ...(await bedrockEnv(turns)) };
        },
        check: ({ messages }, env) => {
            assert.deepEqual(messages.at(-1).content, [{ text: "The open orders total 47." }]);
            assert.equal(env.bedrockRequests.length, 2);
            const [turn, answers] = env.bedrockRequests[1].body.messages.slice(1);
            assert.deepEqual(turn.content.map((b) => b.text ?? b.toolUse.input), ["Let me add them up.", JSON.parse(SUM_ARGS), {}]);
            const [sum, cut] = answers.content.map((b) => JSON.parse(b.toolResult.content[0].text));
            assert.deepEqual(answers.content.map((b) => b.toolResult.status), ["success", "error"]);
            assert.equal(sum.result, 47, JSON.stringify(sum));
            assert.match(cut.error?.message, /^The arguments of searchTools are not valid JSON/, JSON.stringify(cut));
            assert.deepEqual(seen.contexts, [env.requestMetadata]);
        },
    },
    {
        has: 'const response = await mistral.chat.complete({ model: "mistral-medium-latest", messages, tools }, { signal });',
        // Two calls in a turn (one of a page tool by name), then the answer: every request passed the fake's checks.
        env: async () => ({
            ...(await page()),
            ...(await mistralEnv([
                {
                    tool_calls: [
                        { id: "abcDEF123", type: "function", function: { name: "executeCode", arguments: SUM_ARGS } },
                        { id: "ghiJKL456", type: "function", function: { name: "orders.search", arguments: '{"status": "open"}' } },
                    ],
                },
                { content: "The open orders total 47." },
            ])),
        }),
        check: ({ messages }, env) => {
            assert.equal(messages.at(-1).content, "The open orders total 47.");
            assert.equal(env.mistralRequests.length, 2);
            const answers = env.mistralRequests[1].messages.filter((m) => m.role === "tool");
            assert.deepEqual(answers.map((m) => m.tool_call_id), ["abcDEF123", "ghiJKL456"]);
            assert.equal(JSON.parse(answers[0].content).result, 47, answers[0].content);
            assert.equal(JSON.parse(answers[1].content).error.code, "UNKNOWN_TOOL", answers[1].content);
            assert.deepEqual(seen.contexts, [env.requestMetadata]);
        },
    },
    {
        has: 'const response = await cohere.chat({ model: "command-a-03-2025", messages, tools }, { abortSignal: signal });',
        // A plan and a call, then the answer: every request passed the fake's checks.
        env: async () => ({
            ...(await page()),
            ...(await cohereEnv([{ tool_plan: "I will sum the open orders.", tool_calls: [{ id: "executeCode_1", type: "function", function: { name: "executeCode", arguments: SUM_ARGS } }] }, { text: "The open orders total 47." }])),
        }),
        check: ({ messages }, env) => {
            assert.deepEqual(messages.at(-1).content, [{ type: "text", text: "The open orders total 47." }]);
            const [turn, answer] = env.cohereRequests[1].messages.slice(2);
            assert.equal(turn.tool_plan, "I will sum the open orders.");
            assert.equal(answer.tool_call_id, "executeCode_1");
            assert.equal(JSON.parse(answer.content).result, 47, answer.content);
            assert.deepEqual(seen.contexts, [env.requestMetadata]);
        },
    },
    {
        has: "completion = await groq.chat.completions.create(",
        // A generation Groq refuses (no explanation), then one it takes, then the answer.
        env: async () => ({
            ...(await page()),
            ...(await groqEnv([
                { tool_calls: [{ id: "c1", type: "function", function: { name: "executeCode", arguments: JSON.stringify({ code: SUM }) } }] },
                { tool_calls: [{ id: "c2", type: "function", function: { name: "executeCode", arguments: SUM_ARGS } }] },
                { content: "The open orders total 47." },
            ])),
        }),
        check: ({ messages }, env) => {
            assert.equal(messages.at(-1).content, "The open orders total 47.");
            assert.equal(env.groqRequests.length, 3);
            assert.match(messages[2].content, /^Your tool call was refused: .*missing properties: 'explanation'/);
            const answer = messages.find((m) => m.role === "tool");
            assert.equal(answer.tool_call_id, "c2");
            assert.equal(JSON.parse(answer.content).result, 47, answer.content);
            assert.deepEqual(seen.contexts, [env.requestMetadata]);
        },
    },
    {
        has: GEMINI_LOOP,
        // A turn of text and two calls (searchTools: an array under output), then the answer: every request passed
        // the fake API's checks (else the SDK throws), the parts answered in order.
        env: async () => ({
            ...(await page()),
            ...(await gemini([[{ text: "Let me look." }, geminiCall("searchTools", { query: "orders" }), geminiCall("executeCode", JSON.parse(SUM_ARGS))], [{ text: "The open orders total 47." }]])),
        }),
        check: ({ contents }, env) => {
            assert.equal(env.geminiRequests.length, 2);
            assert.deepEqual(contents.at(-2).parts.map((p) => p.text ?? p.functionCall.name), ["Let me look.", "searchTools", "executeCode"]);
            const [hits, sum] = contents.at(-1).parts;
            assert.deepEqual([hits.functionResponse.id, sum.functionResponse.id], ["searchTools-1", "executeCode-1"]);
            assert.deepEqual(hits.functionResponse.response.output.map((h) => h.name), ["orders.search"]);
            assert.equal(sum.functionResponse.response.output.result, 47, JSON.stringify(sum));
            assert.deepEqual(seen.contexts, [env.requestMetadata]);
        },
    },
    {
        has: "callTool: (calls) => Promise.all(calls.map((functionCall) => handleToolCall(session, { functionCall },",
        // The block goes on from the one above (its ai, functionDeclarations and handleToolCall): that block's turns, then
        // this one's, a search beside a call of a page tool as an LLM tool (UNKNOWN_TOOL, answered all the same).
        env: async () => {
            const env = { ...(await page()), ...(await gemini([[geminiCall("executeCode", JSON.parse(SUM_ARGS))], [{ text: "47" }], [geminiCall("searchTools", { query: "orders" }), geminiCall("orders.search", { status: "open" })], [{ text: "The open orders total 47." }]])) };
            return { ...env, ...(await llm()), ...(await runBlock(blocks.find((b) => b.code.includes(GEMINI_LOOP)).code, env)) };
        },
        check: ({ result }, env) => {
            assert.equal(result.text, "The open orders total 47.");
            assert.equal(env.geminiRequests.length, 4);
            const [hits, unknown] = env.geminiRequests[3].contents.at(-1).parts.map((p) => p.functionResponse.response);
            assert.deepEqual(hits.output.map((h) => h.name), ["orders.search"]);
            // A failed call under Gemini's "error" key.
            assert.equal(unknown.error?.error.code, "UNKNOWN_TOOL", JSON.stringify(unknown));
        },
    },
    {
        has: 'toolNotFoundBehavior: "return_error_to_model" });',
        env: async () => {
            const scripted = scriptedFetch([
                response([responsesCall("c1", "executeCode", SUM_ARGS), responsesCall("c2", "orders.search", { status: "open" })]),
                response([responsesText("The open orders total 47.")]),
            ]);
            agentsFetch.fetch = scripted.fetch;
            return { ...(await page()), requests: scripted.requests };
        },
        check: ({ result }, env) => {
            assert.equal(result.finalOutput, "The open orders total 47.");
            const sent = env.requests[1].body.input.filter((i) => i.type === "function_call_output");
            assert.equal(JSON.parse(sent[0].output).result, 47, sent[0].output);
            assert.match(sent[1].output, /Tool 'orders\.search' not found/);
            assert.deepEqual(seen.contexts, [env.requestMetadata]);
        },
    },
    {
        has: "const { text } = await agent.generate(question, { maxSteps: 10, requestContext, abortSignal });",
        // No explanation: Mastra hands the tools the call as it came.
        env: async () => ({
            ...(await page()),
            requestContext: new RequestContext([["user", "ada"]]),
            model: mockModel([[{ type: "tool-call", toolCallId: "c1", toolName: "executeCode", input: JSON.stringify({ code: SUM }) }], [{ type: "text", text: "The open orders total 47." }]]),
        }),
        check: ({ text }, env) => {
            assert.equal(text, "The open orders total 47.");
            assert.equal(seen.contexts.length, 1);
            assert.equal(seen.contexts[0], env.requestContext);
        },
    },
    { has: "inputSchema: jsonSchema<IoCodeMode.SearchToolsArgs>(searchTools.inputSchema),", why: "TypeScript: web/types-check/usage.ts type-checks it (withAiSdk)" },
    {
        has: "openai.chat.completions.runTools(",
        // The block goes on from the one above: its imports are in scope.
        env: async () => ({ ...(await page()), ...(await llm()), ...openAI(openAIChat()) }),
        check: ({ answer }, { requests }) => {
            assert.equal(answer, "The open orders total 47.");
            const [output] = outputsSent(requests.slice(1), (b) => b.messages.filter((m) => m.role === "tool").map((m) => m.content));
            assert.equal(output.result, 47, JSON.stringify(output));
        },
    },
    {
        has: "const res = await openai.responses.create(",
        env: async () => ({
            ...(await page()),
            ...openAI([
                { id: "resp_1", object: "response", status: "completed", output: [{ type: "function_call", id: "fc1", call_id: "call1", name: "executeCode", arguments: SUM_ARGS, status: "completed" }] },
                { id: "resp_2", object: "response", status: "completed", output: [{ type: "message", id: "m1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "The open orders total 47.", annotations: [] }] }] },
            ]),
        }),
        check: ({ input }) => {
            const output = JSON.parse(input.find((i) => i.type === "function_call_output").output);
            assert.equal(output.result, 47, JSON.stringify(output));
        },
    },
    {
        has: "const response = await anthropic.messages.create({",
        env: async () => ({ ...(await page()), ...anthropicClient(anthropicReplies()) }),
        check: ({ messages }) => {
            assert.deepEqual(messages.at(-1).content, [{ type: "text", text: "The open orders total 47." }]);
            const result = messages.find((m) => m.role === "user" && Array.isArray(m.content)).content[0];
            assert.equal(result.is_error, false);
            assert.equal(JSON.parse(result.content).result, 47, result.content);
        },
    },
    {
        has: "anthropic.beta.messages.toolRunner(",
        env: async () => ({ ...(await page()), ...(await llm()), ...anthropicClient(anthropicReplies()) }),
        check: ({ final }) => {
            assert.deepEqual(final.content, [{ type: "text", text: "The open orders total 47." }]);
        },
    },
    {
        has: "openai.chat.completions.parse(",
        env: async () => ({ ...(await page()), ...(await llm()), response_format: undefined, ...openAI(openAIChat()) }),
        check: ({ res }) => {
            assert.equal(res.choices[0].message.tool_calls[0].function.name, "executeCode");
        },
    },
    {
        has: "inputSchema: jsonSchema(strict[i].function.parameters),",
        env: async () => ({ ...(await page()), ...(await llm()), tool, jsonSchema }),
        check: async ({ tools }) => {
            assert.deepEqual(Object.keys(tools), ["searchTools", "executeCode"]);
            const out = await tools.executeCode.execute(JSON.parse(SUM_ARGS), { toolCallId: "c1", messages: [] });
            assert.equal(out.result, 47, JSON.stringify(out));
        },
    },
    {
        has: 'await tool_search({ query: "", namespace: "issues" });',
        // Model code: it runs inside executeCode.
        run: async (_, block) => {
            const codeMode = await Factory({ wasmLocation: assetPath });
            codeMode.registerTools([
                { name: "issues.addLabel", description: "Add a label to an issue.", execute: () => 1 },
                { name: "issues.close", description: "Close an issue.", execute: () => 1 },
                { name: "repos.create", description: "Create a repository.", execute: () => 1 },
            ]);
            const [, exec] = codeMode.createSession().getLlmTools();
            const [list, search] = block.split("\n").filter(Boolean);
            const listed = await exec.execute({ code: `return ${list}`.replace(/;.*$/, ""), explanation: "x" });
            assert.equal(listed.ok, true, JSON.stringify(listed));
            assert.deepEqual(listed.result.map((h) => h.name).sort(), ["issues.addLabel", "issues.close"]);
            const found = await exec.execute({ code: `return ${search}`.replace(/;.*$/, ""), explanation: "x" });
            assert.equal(found.ok, true, JSON.stringify(found));
            assert.equal(found.result[0].name, "issues.addLabel");
        },
    },
    {
        has: 'const r = await openai.embeddings.create({ model: "text-embedding-3-small", input: texts });',
        env: async () => {
            // The block's client has no fetch of its own: the global one answers, with a vector per text.
            const vector = (t) => Array.from({ length: 8 }, (_, i) => [...t].filter((c) => c.charCodeAt(0) % 8 === i).length + 1);
            const fetch = globalThis.fetch;
            globalThis.fetch = async (url, init) => {
                if (!String(url).endsWith("/embeddings")) return fetch(url, init);
                const { input } = JSON.parse(init.body);
                seen.events.push({ type: "embed", count: input.length });
                return Response.json({ object: "list", data: input.map((t, index) => ({ object: "embedding", index, embedding: vector(t) })), model: "m", usage: { prompt_tokens: 1, total_tokens: 1 } });
            };
            return { ...(await page()), apiKey: "test-key", restore: () => (globalThis.fetch = fetch) };
        },
        check: async ({ api }, { restore }) => {
            try {
                api.registerTools([
                    { name: "refunds.create", description: "Refund a payment.", execute: () => 1 },
                    { name: "orders.list", description: "List orders.", execute: () => 1 },
                ]);
                const [search] = api.createSession().getLlmTools();
                const hits = await search.execute({ query: "give the money back" });
                assert.ok(Array.isArray(hits), JSON.stringify(hits));
                assert.ok(seen.events.some((e) => e.type === "embed"), "embed was called");
            } finally {
                restore();
            }
        },
    },
    {
        has: 'import { initModel } from "@energetic-ai/embeddings";',
        // The real model (the dev dependency; about 2 s to load). What it finds
        // with other settings is search-model.test.mjs's; here, the recipe as
        // written starts, searches, and its words() is the rewrite that suite tests.
        env: page,
        check: async ({ api, words }) => {
            assert.equal(words("refunds.PostRefunds\nCreate a refund.\nIt is final."), "refunds post refunds. Create a refund. It is final.");
            assert.equal(words("usb.listUSBDevices\nList them"), "usb list usb devices. List them");
            api.registerTools([
                { name: "music.play", description: "Start playing a song or playlist.", execute: () => true },
                { name: "forecast.get", description: "Get the weather forecast for a city.", execute: () => ({}) },
            ]);
            const [search] = api.createSession().getLlmTools();
            const hits = await search.execute({ query: "play a song" });
            assert.equal(hits[0]?.name, "music.play", JSON.stringify(hits));
        },
    },
    {
        has: "if (a.source && (a.untrusted || !a.readOnlyHint) && !(await askUser(",
        env: async () => ({ ...(await page()), askUser: async (what) => (seen.events.push({ type: "asked", what }), false) }),
        check: async ({ codeMode }) => {
            const { fromFdc3 } = await import(pathToFileURL(join(dist, "fdc3.mjs")).href);
            const agent = new FakeAgent([]);
            (await fromFdc3(agent, { contextTypes: ["fdc3.instrument"], broadcast: true })).registerTools(codeMode);
            const [, exec] = codeMode.createSession().getLlmTools();
            const r = await exec.execute({ code: "return await tools.fdc3.broadcast({ type: 'fdc3.instrument', id: { ticker: 'AAPL' } })", explanation: "x" });
            assert.equal(r.ok, false, JSON.stringify(r));
            assert.match(r.error.message, /the user declined/);
            assert.deepEqual(agent.broadcasts, []);
            assert.ok(seen.events.some((e) => e.type === "asked" && /fdc3\.broadcast \(fdc3\)/.test(e.what)), JSON.stringify(seen.events));
        },
    },
    {
        has: "new StreamableHTTPClientTransport(",
        // The block's server URL answered by an MCP server of the SDK's in this
        // process: the client transport's fetch is the global one.
        env: async () => {
            const server = new McpServer({ name: "github", version: "1.0.0" });
            server.registerTool("search_issues", { description: "Search issues.", inputSchema: { q: z.string() } }, async ({ q }) => ({
                content: [{ type: "text", text: JSON.stringify([{ id: 7, title: `${q} fails` }]) }],
            }));
            const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => "s1", enableJsonResponse: true });
            await server.connect(transport);
            const fetch = globalThis.fetch;
            globalThis.fetch = async (url, init) => (String(url).startsWith("https://mcp.example.com/") ? transport.handleRequest(new Request(url, init)) : fetch(url, init));
            return { ...(await page()), restore: () => ((globalThis.fetch = fetch), server.close()) };
        },
        check: async ({ github, client }, { codeMode, restore }) => {
            try {
                const [, exec] = codeMode.createSession().getLlmTools();
                // The block's "model code" comment, run.
                const r = await exec.execute({ code: 'const issues = await tools.github.search_issues({ q: "login" }); return issues;', explanation: "x" });
                assert.deepEqual(r.result, [{ id: 7, title: "login fails" }], JSON.stringify(r));
                github.close();
                await client.close();
            } finally {
                await restore();
            }
        },
    },
    {
        has: "await server.connect(new StdioServerTransport());",
        env: () => STDIO,
        check: async ({ file }) => {
            const driver = join(dir, "stdio-driver.mjs");
            writeFileSync(driver, STDIO_DRIVER);
            const client = new Client({ name: "usage-snippets", version: "1.0.0" });
            await client.connect(new StdioClientTransport({ command: process.execPath, args: [driver, assetPath, pathToFileURL(file).href], stderr: "pipe" }));
            try {
                const { tools } = await client.listTools();
                assert.deepEqual(tools.map((t) => t.name), ["searchTools", "executeCode"]);
                const r = await client.callTool({ name: "executeCode", arguments: JSON.parse(SUM_ARGS) });
                assert.equal(r.isError ?? false, false, JSON.stringify(r));
                assert.equal(JSON.parse(r.content[0].text).result, 47, JSON.stringify(r));
            } finally {
                await client.close();
            }
        },
    },
    {
        has: "const page = await fromWebMcp();",
        // The page's model context (navigator.modelContext, where the block
        // finds it), holding one page tool; what the block exposes lands in it.
        env: async () => {
            const exposed = new Map();
            const modelContext = Object.assign(new EventTarget(), {
                getTools: async () => [{ name: "cart_add", description: "Add to the cart.", inputSchema: { type: "object" }, origin: "x", window: null }],
                executeTool: async (_, json) => JSON.stringify({ added: JSON.parse(json).sku }),
                registerTool: async (t) => void exposed.set(t.name, t),
                unregisterTool: (name) => void exposed.delete(name),
            });
            globalThis.navigator = { modelContext };
            return { ...(await page()), exposed };
        },
        check: async ({ page, unregister, unexpose }, { codeMode, exposed }) => {
            try {
                const [, exec] = codeMode.createSession().getLlmTools();
                const r = await exec.execute({ code: "return await tools.webmcp.cart_add({ sku: 'A-1' })", explanation: "x" });
                assert.deepEqual(r.result, { added: "A-1" }, JSON.stringify(r));
                assert.deepEqual([...exposed.keys()], ["searchTools", "executeCode"]);
                const out = await exposed.get("executeCode").execute(JSON.parse(SUM_ARGS));
                assert.equal(out.result, 47, JSON.stringify(out));
                assert.deepEqual(seen.contexts, [{ via: "webmcp" }]);
                unexpose();
                unregister();
                page.close();
            } finally {
                delete globalThis.navigator;
            }
        },
    },
    {
        has: 'import IOBrowser from "@interopio/browser";',
        // @interopio/browser is a package of its own (a platform); here a
        // stand-in whose default export resolves with an io.Connect API object
        // over the fake bus, where another app serves Blotter.Orders.Search.
        env: async () => {
            const bus = new FakeBus();
            await bus.connect("blotter").register({ name: "Blotter.Orders.Search", accepts: "String client" }, ({ client }) => ({ orders: [{ id: 1, client }] }));
            await bus.connect("t42").register("T42.Hidden", () => 1);
            globalThis.usageSnippetsIo = fakeIo(bus.connect("copilot"));
            const pkg = join(dir, "node_modules", "@interopio", "browser");
            mkdirSync(pkg, { recursive: true });
            writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "@interopio/browser", type: "module", main: "index.mjs" }));
            writeFileSync(join(pkg, "index.mjs"), "export default async () => globalThis.usageSnippetsIo;\n");
            return page();
        },
        check: async ({ unregister }, { codeMode }) => {
            try {
                const [, exec] = codeMode.createSession().getLlmTools();
                // The block's "model code" comment, run; T42.* is filtered out.
                const r = await exec.execute({ code: 'const { orders } = await tools.desk.Blotter.Orders.Search({ client: "acme" }); return [orders, typeof tools.desk.T42];', explanation: "x" });
                assert.deepEqual(r.result, [[{ id: 1, client: "acme" }], "undefined"], JSON.stringify(r));
                unregister();
            } finally {
                delete globalThis.usageSnippetsIo;
            }
        },
    },
    {
        has: "const intents = await fromFdc3(window.fdc3, {",
        env: async () => ({
            ...(await page()),
            window: { fdc3: new FakeAgent([{ appId: "chart-app", intents: [{ name: "ViewChart", contexts: ["fdc3.instrument"] }] }]) },
            instrumentSchema: { type: "object", properties: { type: { const: "fdc3.instrument" }, id: { type: "object" } }, required: ["type", "id"] },
        }),
        check: ({ intents }) => {
            assert.equal(typeof intents.registerTools, "function");
        },
    },
    {
        has: "await codeMode.ready();                        // the engine has the tool",
        env: async () => ({ ...(await page()), codeMode: await Factory({ wasmLocation: assetPath }) }),
        check: ({ system }) => assert.match(system, /orders\.search/),
    },
    { has: "// vite.config.js (Vite 7 and older)", why: "a bundler's config; web/bundler-test/run.test.mjs runs Vite's dev server with it" },
    { has: 'vi.mock("@interopio/code-mode/emscripten-module.wasm?url", async () => {', why: "Vitest's; web/runners-test/run.test.mjs (make test-runners) runs it in Vitest's node and jsdom environments" },
    { has: "// vitest.config.js", why: "a test runner's config; web/runners-test/run.test.mjs (make test-runners) runs Vitest's browser mode with it" },
    { has: 'import { FunctionTool, InMemoryRunner, LlmAgent } from "@google/adk";', why: "@google/adk is not among the root's packages; web/adk-test/run.test.mjs (make test-adk) runs it against the local Gemini API" },
    { has: "// jest.config.cjs, with tsconfig.esm.json", why: "a test runner's config; web/runners-test/run.test.mjs (make test-runners) runs Jest with it" },
    { has: "// worker.mjs: a Cloudflare Worker (wrangler bundles it, the .wasm files as modules)", why: "a Cloudflare Worker; web/test/workerd.test.mjs runs it in workerd" },
    { has: 'trustedTypes.createPolicy("default", {', why: "Trusted Types are a browser's; web/browser-test/csp.test.mjs runs a page that enforces them" },
    {
        has: "const onThisThread = await IoCodeModeFactory({ wasmLocation, worker: false });",
        env: page,
        check: async ({ codeMode, onThisThread }) => {
            for (const api of [codeMode, onThisThread]) {
                api.registerTool({ name: "one", execute: () => 1 });
                const [, exec] = api.createSession().getLlmTools();
                assert.equal((await exec.execute({ code: "return await tools.one()", explanation: "x" })).result, 1);
            }
        },
    },
    {
        has: "onEvent: (e) => console.log(e.type, e) });",
        env: page,
        run: async (go) => {
            // The factory's onEvent logs; the run's own (trace) must see this run's events.
            const log = console.log;
            console.log = () => {};
            try {
                await go();
            } finally {
                console.log = log;
            }
            assert.ok(seen.events.length > 0 && seen.events.every((e) => typeof e.type === "string"), JSON.stringify(seen.events));
        },
    },
];

const blocks = [...jsBlocks("README.md"), ...jsBlocks("web/USAGE.md")];

test("every js and ts block of README.md and web/USAGE.md has a case", () => {
    const unclaimed = blocks.filter((b) => cases.filter((c) => b.code.includes(c.has)).length !== 1);
    assert.deepEqual(unclaimed.map((b) => `${b.where}: ${b.code.split("\n")[0]}`), []);
    for (const c of cases) assert.ok(blocks.some((b) => b.code.includes(c.has)), `no block holds ${JSON.stringify(c.has)}: update the case`);
});

// The blocks the suite runs with env, type-checked against the package's
// .d.ts as written (tsc, checkJs, strict but for implicit any: a snippet
// leaves its callbacks' parameters untyped): each name the reader supplies
// has the type the documentation gives it, so an option, method or field
// the types do not have fails here. Left out: the blocks of the LLM SDKs'
// loops (LangChain's too), whose JavaScript (a messages array TypeScript
// infers from its first element) no TypeScript reader writes; web/types-check/usage.ts,
// adapters-llm.ts and adapters-llm-clients.ts hold their TypeScript forms. Also the TypeScript blocks
// (types-check's) and those that are not page code (model code, a result's
// shape, a bundler's config).
const IO = 'import("@interopio/code-mode").IoCodeMode';
const LLM = 'typeof import("@interopio/code-mode/llm")';
const TYPES = {
    IoCodeModeFactory: 'typeof import("@interopio/code-mode").IoCodeModeFactory',
    codeMode: `${IO}.API`,
    session: `${IO}.Session`,
    executeCode: `${IO}.LlmTool`,
    searchTools: `${IO}.LlmTool`,
    ordersSearch: `${IO}.ToolDefinition`,
    args: `${IO}.ExecuteCodeArgs`,
    wasmLocation: "string",
    signal: "AbortSignal",
    abortSignal: "AbortSignal",
    question: "string",
    code: "string",
    explanation: "string",
    handleToolCall: `${LLM}["handleToolCall"]`,
    toOpenAITools: `${LLM}["toOpenAITools"]`,
    toAnthropicTools: `${LLM}["toAnthropicTools"]`,
};
const UNTYPED = ["requestMetadata", "context", "messages", "response_format", "fetchOrders", "searchOrders", "trace", "askUser", "cancelButton", "apiKey", "window", "instrumentSchema"];

test("the blocks type-check against the package's types", () => {
    const sdk = /\b(openai|anthropic|ollama|bedrock|groq|mistral|cohere)\.|from "(ai|openai|groq-sdk|@anthropic-ai\/[^"]*|@langchain\/[^"]*|@google\/genai|@openai\/agents|@mastra\/[^"]*|@aws-sdk\/[^"]*)"|\bjsonSchema\(|\bcodeModeTool\b/;
    const typed = blocks.filter((b) => b.lang === "js" && !sdk.test(b.code) && cases.find((c) => b.code.includes(c.has))?.env);
    assert.ok(typed.length >= 15, `${typed.length} blocks`);
    const files = {};
    typed.forEach((b, i) => {
        files[`types-${i}.mjs`] = b.where;
        writeFileSync(join(dir, `types-${i}.mjs`), moduleText(b.code, [...Object.keys(TYPES), ...UNTYPED], TYPES));
    });
    // A page's platform package (@interopio/browser, io.Connect Browser's
    // client) is typed by its own declarations, read by paths: the block's
    // run below gets a stand-in package in dir/node_modules, which cannot
    // run a browser platform in Node. A page a bundler builds resolves it
    // as "bundler" does; under "nodenext" tsc reads the package as CommonJS
    // and IOBrowser() is "not callable", as USAGE says.
    const platform = Object.keys(files).filter((f) => /from "@interopio\/browser"/.test(typed[Number(f.slice(6, -4))].code));
    assert.equal(platform.length, 1, "the io.Connect recipe's block");
    const paths = { "@interopio/browser": [join(root, "node_modules", "@interopio", "browser", "browser.d.ts")] };
    const compilerOptions = { allowJs: true, checkJs: true, noEmit: true, strict: true, noImplicitAny: false, module: "nodenext", moduleResolution: "nodenext", target: "es2022", skipLibCheck: true, types: ["node"], typeRoots: [join(root, "node_modules", "@types")], paths };
    const tsc = (name, options, include) => {
        writeFileSync(join(dir, name), JSON.stringify({ compilerOptions: { ...compilerOptions, ...options }, include }));
        const r = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(dir, name)], { encoding: "utf8", timeout: 300_000 });
        return { status: r.status, errors: r.stdout.replace(/types-\d+\.mjs/g, (f) => files[f]) || r.stderr };
    };
    const node = tsc("tsconfig.json", {}, Object.keys(files));
    const notCallable = new RegExp(`^\\S*/${files[platform[0]].replace(/[.:]/g, "\\$&")}\\(\\d+,\\d+\\): error TS2349: This expression is not callable\\.\n.*@interopio/browser/browser.*has no call signatures\\.\n$`);
    assert.match(node.errors, notCallable, "under nodenext, only the io.Connect recipe's IOBrowser() is not callable");
    const page = tsc("tsconfig.bundler.json", { module: "esnext", moduleResolution: "bundler" }, platform);
    assert.equal(page.status, 0, page.errors);
});

for (const block of blocks) {
    const c = cases.find((c) => block.code.includes(c.has));
    if (!c) continue;
    test(`${block.where}: ${block.code.split("\n")[0]}`, { skip: c.why }, async () => {
        const env = c.env ? await c.env() : {};
        const go = () => runBlock(block.code, env);
        if (c.run) return c.run(go, block.code, env);
        const out = await go();
        await c.check(out, env);
    });
}
