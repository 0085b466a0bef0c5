// A registerTools call past 2,048 tools is registered in slices over later
// tasks (web/src/registering.mjs): the first 2,048 when it returns, the
// rest before ready() resolves; a run started meanwhile waits for the last
// slice, and a tool refused in a later slice undoes the whole call (ready()
// rejects with it). Behaviour only; both modes (CODE_MODE_WORKER=1). The
// 100,000-tool case is register-scale.test's.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, run, withFactory } from "./helpers.mjs";

const N = 5_000;
const FIRST = 2048; // registering.mjs's

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
});
