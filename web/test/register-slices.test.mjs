// A registerTools call past 2,048 tools, config.tools too, and an
// adapter's source's listing are registered in slices over later tasks
// (web/src/registering.mjs, web/src/adapters/source.mjs): the first 2,048
// when registerTools returns, the rest before ready() resolves (the
// factory's promise, for config.tools); a run or a search started meanwhile
// waits for the last slice, a tool refused in a later slice undoes the whole
// call or registration (ready() rejects with it), and a source's re-sync's
// refresh() settles after its last slice. Behaviour only; both modes
// (CODE_MODE_WORKER=1). The 100,000-tool cases are register-scale.test's.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, llmTools, loadFactory, run, withFactory } from "./helpers.mjs";
import { loadAdapter } from "./adapter-helpers.mjs";
import { serverWith } from "./mcp-server.mjs";

const N = 5_000;
const FIRST = 2048; // registering.mjs's

const toolsOf = (n) =>
    Array.from({ length: n }, (_, i) => ({ name: `t${i}`, description: `Tool number ${i} of the catalog`, inputSchema: { type: "object", properties: { q: { type: "string" } } } }));

/** A server of `list()` tools, its source, and a factory; all closed when the test ends. */
async function sourceOf(t, list, options) {
    const { client } = await serverWith("big", () => ({ tools: list() }), (req) => ({ content: [{ type: "text", text: JSON.stringify(`called ${req.params.name}`) }] }));
    t.after(() => client.close());
    const mcp = await loadAdapter("mcp");
    const source = await mcp.fromMcpClient(client, options);
    t.after(() => source.close());
    const api = await withFactory(t, { wasmLocation: assetPath, timeout: 120_000 });
    return { source, api };
}

describe("api.registerTools of more than 2,048 tools registers in slices", { timeout: 600_000 }, () => {
    const def = (i, extra) => ({ name: `big.t${i}`, description: `Tool number ${i} of the catalog`, inputSchema: { type: "object" }, execute: () => `t${i}`, ...extra });
    const defs = (n) => Array.from({ length: n }, (_, i) => def(i));

    test(`${N} tools: ${FIRST} when it returns; a run started then calls the last; ready() resolves with all listed; unregister takes all`, async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 120_000 });
        const unregister = api.registerTools(defs(N));
        assert.equal(api.listTools().length, FIRST);
        const r = await run(api.createSession(), `return await tools.big.t${N - 1}()`);
        assert.equal(r.result, `t${N - 1}`, JSON.stringify(r).slice(0, 300));
        await api.ready();
        assert.equal(api.listTools().length, N);
        unregister();
        await api.ready();
        assert.equal(api.listTools().length, 0);
    });

    test("a name twice in the call, or taken, past the first slice: it throws at once, registering none", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        api.registerTool(def(N + 1));
        const twice = defs(N);
        twice[3000] = def(7);
        assert.throws(() => api.registerTools(twice), { name: "TypeError", message: 'tools[3000] ("big.t7"): name: appears more than once in the batch' });
        const taken = defs(N);
        taken[4000] = def(N + 1);
        // In worker mode the page knows the names taken; on the calling
        // thread the core finds it in its slice, and the call is undone.
        try {
            api.registerTools(taken);
        } catch (err) {
            assert.equal(err.message, `tools[4000] ("big.t${N + 1}"): name: already registered`);
        }
        await api.ready().catch((err) => assert.equal(err.message, `tools[4000] ("big.t${N + 1}"): name: already registered`));
        await api.ready();
        assert.deepEqual(api.listTools().map((d) => d.name), [`big.t${N + 1}`]);
    });

    test("a tool refused in a later slice undoes the whole call, and ready() rejects naming it", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const list = defs(N);
        list[4000] = def(4000, { inputSchema: { type: "object", properties: { n: { type: "nonsense" } } } });
        const logged = [];
        const error = console.error;
        console.error = (...a) => logged.push(a.join(" "));
        t.after(() => (console.error = error));
        api.registerTools(list);
        assert.equal(api.listTools().length, FIRST);
        await assert.rejects(api.ready(), (err) => err.name === "TypeError" && err.message.startsWith('tools[4000] ("big.t4000"): inputSchema: '));
        assert.equal(api.listTools().length, 0, "none of the call's tools is left");
        assert.ok(logged.some((l) => l.includes('tools[4000] ("big.t4000"): inputSchema: ')), logged.join("\n"));
        await api.ready();
    });

    test("two calls refused in later slices: ready() rejects with the refusal that came first, not the first call's", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const error = console.error;
        console.error = () => {};
        t.after(() => (console.error = error));
        const bad = { type: "object", properties: { n: { type: "nonsense" } } };
        // The first call's bad tool is in its sixth slice, the second's in
        // its first: the slices of the two alternate, so the second's
        // refusal comes first.
        const early = Array.from({ length: N }, (_, i) => def(i, i === 4900 ? { inputSchema: bad } : {}));
        const late = Array.from({ length: 3000 }, (_, i) => def(i, { name: `other.t${i}`, ...(i === 2100 ? { inputSchema: bad } : {}) }));
        api.registerTools(early);
        api.registerTools(late);
        await assert.rejects(api.ready(), (err) => err.message.startsWith('tools[2100] ("other.t2100"): inputSchema: ') || assert.fail(err.message));
        await api.ready();
        assert.equal(api.listTools().length, 0, "neither call's tools are left");
    });
});

describe("config.tools of more than 2,048 tools registers in slices", { timeout: 600_000 }, () => {
    const def = (i, extra) => ({ name: `big.t${i}`, description: `Tool number ${i} of the catalog`, inputSchema: { type: "object" }, execute: () => `t${i}`, ...extra });
    const defs = (n) => Array.from({ length: n }, (_, i) => def(i));

    test(`${N} tools: the factory resolves with all listed, a program calls the last`, async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: defs(N) });
        assert.equal(api.listTools().length, N);
        const r = await run(api.createSession(), `return await tools.big.t${N - 1}()`);
        assert.equal(r.result, `t${N - 1}`, JSON.stringify(r).slice(0, 300));
    });

    test("a tool refused past the first slice fails the factory, naming config.tools[i]", async (t) => {
        const IoCodeModeFactory = await loadFactory();
        const twice = defs(N);
        twice[3000] = def(7);
        await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, tools: twice }), { name: "TypeError", message: 'config.tools[3000] ("big.t7"): name: appears more than once in the batch' });
        const bad = defs(N);
        bad[4000] = def(4000, { inputSchema: { type: "object", properties: { n: { type: "nonsense" } } } });
        await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, tools: bad }), (err) => err.name === "TypeError" && err.message.startsWith('config.tools[4000] ("big.t4000"): inputSchema: '));
    });
});

describe("a source's big listing is registered in slices", { timeout: 600_000 }, () => {
    test(`${N} tools: ${FIRST} when registerTools(api) returns; a run and a search started then wait for the last slice; ready() resolves with all listed`, async (t) => {
        const list = toolsOf(N);
        const { source, api } = await sourceOf(t, () => list);
        source.registerTools(api);
        assert.equal(api.listTools().length, FIRST, "the first slice is registered at once");
        const session = api.createSession();
        const running = run(session, `return await tools.big.t${N - 1}({ q: "x" })`);
        const searching = llmTools(session).searchTools.execute({ query: `tool number ${N - 1}`, limit: 3 });
        const r = await running;
        assert.equal(r.ok, true, JSON.stringify(r).slice(0, 300));
        assert.equal(r.result, `called t${N - 1}`);
        const hits = await searching;
        assert.equal(hits[0]?.name, `big.t${N - 1}`, JSON.stringify(hits).slice(0, 300));
        await api.ready();
        assert.equal(api.listTools().length, N);
    });

    test("a name taken by other code before its slice: the whole registration is undone, onError hears it, ready() rejects with it", async (t) => {
        const errors = [];
        const { source, api } = await sourceOf(t, () => toolsOf(N), { onError: (err) => errors.push(err) });
        source.registerTools(api);
        const late = `big.t${N - 10}`;
        api.registerTool({ name: late, description: "taken first", execute: () => "mine" });
        const message = `tool (${JSON.stringify(late)}): name: already registered`;
        await assert.rejects(api.ready(), (err) => err.message === message);
        assert.deepEqual(errors.map((e) => e.message), [message]);
        assert.deepEqual(api.listTools().map((d) => d.name), [late], "none of the source's tools is left");
        await api.ready(); // nothing in flight any more
        const r = await run(api.createSession(), `return await tools.big.t${N - 10}()`);
        assert.equal(r.result, "mine");
    });

    test("unregistered while slices are in flight: the pass stops, nothing of it stays", async (t) => {
        const { source, api } = await sourceOf(t, () => toolsOf(N));
        const unregister = source.registerTools(api);
        unregister();
        await api.ready();
        assert.equal(api.listTools().length, 0);
    });

    test("a re-sync that grows the listing past 2,048: refresh() settles after its last slice", async (t) => {
        let list = toolsOf(3);
        const { source, api } = await sourceOf(t, () => list);
        source.registerTools(api);
        assert.equal(api.listTools().length, 3);
        list = toolsOf(N);
        await source.refresh();
        assert.equal(api.listTools().length, N);
        const r = await run(api.createSession(), `return await tools.big.t${N - 1}()`);
        assert.equal(r.result, `called t${N - 1}`);
    });
});
