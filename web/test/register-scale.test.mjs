// Registration at scale: a catalog of 100,000 tools registers (in one
// registerTools call, and from an MCP server through fromMcpClient: both
// in slices over later tasks past 2,048 tools), the last of them is found
// by a search and called by a program, and a name taken in an earlier
// registerTools call is still refused in a later one. Behaviour
// only: how long it takes is make bench's (api-register-10000,
// api-register-128x100-over-10000). Both modes (CODE_MODE_WORKER=1).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, llmTools, loadFactory, run } from "./helpers.mjs";
import { loadAdapter } from "./adapter-helpers.mjs";
import { serverWith } from "./mcp-server.mjs";

const IoCodeModeFactory = await loadFactory();

const N = 100_000;
const BATCH = 128; // as an adapter's source registers a listing (web/src/adapters/source.mjs)
const def = (i) => ({
    name: `big.t${i}`,
    description: `Tool number ${i} of the catalog.`,
    inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
    annotations: { readOnlyHint: true, source: "scale" },
    execute: ({ n }) => `t${i}:${n}`,
});

describe("registration at scale", { timeout: 600_000 }, () => {
    // The batches over 20,000: 100,000 so took 140 s of a test run at a
    // load of 25 (the one call 100 s).
    for (const [how, n, register] of [
        ["in one registerTools call", N, (api, defs) => api.registerTools(defs)],
        [`in registerTools calls of ${BATCH}`, 20_000, (api, defs) => { for (let i = 0; i < defs.length; i += BATCH) api.registerTools(defs.slice(i, i + BATCH)); }],
    ]) {
        test(`${n} ${how}: all are listed, a search finds the last one, a program calls it`, async () => {
            const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 120_000 });
            const last = `big.t${n - 1}`;
            try {
                const defs = Array.from({ length: n }, (_, i) => def(i));
                register(api, defs);
                await api.ready();
                const names = api.listTools().map((t) => t.name);
                assert.ok(names.length === n && names.join() === defs.map((d) => d.name).sort().join(), "listTools gives every tool, in name order");
                const session = api.createSession();
                const hits = await llmTools(session).searchTools.execute({ query: `tool number ${n - 1}`, limit: 5 });
                assert.ok(Array.isArray(hits), JSON.stringify(hits).slice(0, 300));
                assert.equal(hits[0]?.name, last, JSON.stringify(hits.map((h) => h.name)));
                const r = await run(session, `return await tools.${last}({ n: 7 })`);
                assert.equal(r.ok, true, JSON.stringify(r).slice(0, 300));
                assert.equal(r.result, `t${n - 1}:7`);
            } finally {
                api.dispose();
            }
        });
    }

    test("a name registered by an earlier call is refused in a later one, which registers none of its tools", async () => {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath });
        try {
            const defs = Array.from({ length: 10 * BATCH }, (_, i) => def(i));
            for (let i = 0; i < defs.length; i += BATCH) api.registerTools(defs.slice(i, i + BATCH));
            const later = [def(10 * BATCH), def(10 * BATCH + 1), def(3)];
            assert.throws(() => api.registerTools(later), { name: "TypeError", message: 'tools[2] ("big.t3"): name: already registered' });
            await api.ready();
            const names = new Set(api.listTools().map((t) => t.name));
            assert.equal(names.size, 10 * BATCH);
            assert.ok(!names.has(`big.t${10 * BATCH}`), "nothing of the refused call is registered");
            const r = await run(api.createSession(), "return await tools.big.t3({ n: 1 })");
            assert.equal(r.result, "t3:1", JSON.stringify(r).slice(0, 300));
        } finally {
            api.dispose();
        }
    });

    // A source registers a listing past 2,048 tools in slices over later
    // tasks (source.mjs), and a run started meanwhile waits for the last.
    test(`${N} tools of an MCP server (fromMcpClient): a program started as registerTools(api) returns calls the last one, a search finds it`, async (t) => {
        const list = Array.from({ length: N }, (_, i) => ({ name: `t${i}`, description: `Tool number ${i} of the catalog.`, inputSchema: { type: "object", properties: { n: { type: "integer" } } } }));
        const { client } = await serverWith("big", () => ({ tools: list }), (req) => ({ content: [{ type: "text", text: JSON.stringify(`${req.params.name}:${req.params.arguments.n}`) }] }));
        t.after(() => client.close());
        const source = await (await loadAdapter("mcp")).fromMcpClient(client);
        t.after(() => source.close());
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 120_000 });
        try {
            source.registerTools(api);
            const session = api.createSession();
            const r = await run(session, `return await tools.big.t${N - 1}({ n: 7 })`);
            assert.equal(r.ok, true, JSON.stringify(r).slice(0, 300));
            assert.equal(r.result, `t${N - 1}:7`);
            assert.equal(api.listTools().length, N);
            const hits = await llmTools(session).searchTools.execute({ query: `tool number ${N - 1}`, limit: 5 });
            assert.equal(hits[0]?.name, `big.t${N - 1}`, JSON.stringify(hits.map((h) => h.name)));
        } finally {
            api.dispose();
        }
    });
});
