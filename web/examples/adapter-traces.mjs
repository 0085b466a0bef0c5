// One traced run per adapter, in Node, against the real SDKs and the typed
// fakes of the tests (no network): what each adapter registers, what
// onToolCall sees of each call (the tool's source and hints), and the run's
// own trace. `make build`, then `node web/examples/adapter-traces.mjs`.
// (The WebMCP adapter needs a browser: web/browser-test/webmcp.test.mjs
// prints its trace.)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import OpenAI from "openai";
import { z } from "zod";
import { assetPath, loadFactory } from "../test/helpers.mjs";
import { loadAdapter, scriptedFetch } from "../test/adapter-helpers.mjs";
import { FakeBus, fakeIo } from "../test/fakes/io-connect.mjs";
import { FakeAgent } from "../test/fakes/fdc3.mjs";

const IoCodeModeFactory = await loadFactory();

async function traced(title, register, code) {
    const seen = [];
    const api = await IoCodeModeFactory({
        wasmLocation: assetPath,
        interceptors: {
            onToolCall: ({ tool, input }) => {
                const a = tool.annotations ?? {};
                seen.push({ tool: tool.name, input, source: a.source, readOnlyHint: a.readOnlyHint, destructiveHint: a.destructiveHint, untrusted: a.untrusted });
                return { allowed: true };
            },
        },
    });
    const names = await register(api);
    const [, executeCode] = api.createSession().getLlmTools();
    const res = await executeCode.execute({ code, explanation: title });
    console.log(`\n=== ${title}`);
    console.log("registered:", names.join(", "));
    console.log("code:", code.replace(/\s+/g, " "));
    for (const s of seen) console.log("onToolCall:", JSON.stringify(s));
    console.log("toolCalls:", JSON.stringify(res.toolCalls.map(({ name, allowed, ok }) => ({ name, allowed, ok }))));
    console.log("result:", JSON.stringify(res.ok ? res.result : res.error));
    api.dispose();
}

// /mcp: an MCP server in memory.
{
    const mcp = await loadAdapter("mcp");
    const server = new McpServer({ name: "tracker", version: "1.0.0" });
    server.registerTool("search_issues", { description: "Search issues.", inputSchema: { q: z.string() }, annotations: { readOnlyHint: true } }, async ({ q }) => ({
        content: [{ type: "text", text: JSON.stringify([{ id: 7, title: `Login fails (${q})` }]) }],
    }));
    server.registerTool("close_issue", { description: "Close an issue.", inputSchema: { id: z.number() }, annotations: { destructiveHint: true } }, async ({ id }) => ({
        content: [{ type: "text", text: JSON.stringify({ id, state: "closed" }) }],
        structuredContent: { id, state: "closed" },
    }));
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "trace", version: "1.0.0" });
    await Promise.all([server.connect(b), client.connect(a)]);
    const source = await mcp.fromMcpClient(client);
    await traced("/mcp fromMcpClient", (api) => (source.registerTools(api), source.tools.map((t) => t.name)), "const [i] = await tools.tracker.search_issues({ q: 'login' }); return await tools.tracker.close_issue({ id: i.id });");
    source.close();
    await client.close();
}

// /io-connect: the typed in-memory Interop bus.
{
    const ioc = await loadAdapter("io-connect");
    const bus = new FakeBus();
    await bus.connect("pricer").register({ name: "Pricing.Quote", accepts: "String symbol, Int? qty", returns: "Double price" }, ({ symbol, qty = 1 }) => ({ price: symbol.length * 10 * qty }));
    await bus.connect("copilot").register({ name: "Copilot.Own" }, () => 0);
    const source = ioc.fromIoConnect(fakeIo(bus.connect("copilot")), { methodResponseTimeoutMs: 5000 });
    await traced("/io-connect fromIoConnect", (api) => (source.registerTools(api), source.tools.map((t) => t.name)), "return await tools.interop.Pricing.Quote({ symbol: 'AAPL', qty: 2 });");
    console.log("invoke:", JSON.stringify(bus.invocations.map(({ method, args, target, options }) => ({ method, args, target, options }))));
    source.close();
}

// /fdc3: the typed in-memory desktop agent.
{
    const fdc3 = await loadAdapter("fdc3");
    const agent = new FakeAgent([
        { appId: "pricer", title: "Pricer", intents: { GetPrice: { contexts: ["fdc3.instrument"], handler: (ctx) => ({ type: "fdc3.valuation", value: 187.5, CURRENCY_ISOCODE: "USD", instrument: ctx }) } } },
    ]);
    const source = await fdc3.fromFdc3(agent, { contextTypes: ["fdc3.instrument"], broadcast: true });
    await traced("/fdc3 fromFdc3", (api) => (source.registerTools(api), source.tools.map((t) => t.name)), "const v = await tools.fdc3.GetPrice({ type: 'fdc3.instrument', id: { ticker: 'AAPL' } }); await tools.fdc3.broadcast(v.instrument); return v.value;");
    console.log("raised:", JSON.stringify(agent.raised.map((r) => [r.intent, r.context.type])), "broadcasts:", JSON.stringify(agent.broadcasts));
}

// /llm: the OpenAI SDK over a scripted fetch; the model sends bad JSON first.
{
    const llm = await loadAdapter("llm");
    const api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: [{ name: "math.add", inputSchema: { type: "object" }, execute: ({ a, b }) => a + b }] });
    const session = api.createSession();
    const msg = (m, finish) => ({ id: "c", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message: { role: "assistant", content: null, refusal: null, ...m }, finish_reason: finish, logprobs: null }] });
    const call = (id, args) => ({ id, type: "function", function: { name: "executeCode", arguments: args } });
    const { fetch } = scriptedFetch([
        msg({ tool_calls: [call("c1", '{"code": "return 1')] }, "tool_calls"),
        msg({ tool_calls: [call("c2", JSON.stringify({ code: "return await tools.math.add({ a: 2, b: 40 })", explanation: "add" }))] }, "tool_calls"),
        msg({ content: "42" }, "stop"),
    ]);
    const openai = new OpenAI({ apiKey: "k", baseURL: "http://127.0.0.1:9/v1", fetch, maxRetries: 0 });
    const messages = [{ role: "user", content: "2 + 40?" }];
    console.log("\n=== /llm toOpenAITools + handleToolCall");
    for (;;) {
        const completion = await openai.chat.completions.create({ model: "m", messages, tools: llm.toOpenAITools(session) });
        const message = completion.choices[0].message;
        messages.push(message);
        if (!message.tool_calls?.length) {
            console.log("answer:", message.content);
            break;
        }
        for (const c of message.tool_calls) {
            const output = await llm.handleToolCall(session, c.function.name, c.function.arguments);
            console.log(`tool ${c.id} ${c.function.name}(${c.function.arguments}) ->`, JSON.stringify(output.ok ? { ok: true, result: output.result, toolCalls: output.toolCalls.map((t) => t.name) } : output));
            messages.push({ role: "tool", tool_call_id: c.id, content: JSON.stringify(output) });
        }
    }
    api.dispose();
}
