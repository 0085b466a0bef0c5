// Attempts of the forty-second session (security42) on what session 41
// added, written before reading the code they hit: registration in slices
// (registerTools and config.tools past 2,048 tools) raced by unregister,
// dispose, sessions, runs, searches, a second registration of the same
// names, the page's array and definitions changed between the slices, a
// filter hiding a late tool; a session's own tools that toolFilter hides
// (held on the page until a run shows them) reached from elsewhere or
// colliding; the listing's copies and the schema read once, against
// converters, toJSON and Proxies; patterns the core's regexp copy reads;
// and what toolFilter shows, which must not depend on the engine mode.
// Each row is what the page must get, in both engine modes
// (CODE_MODE_WORKER=1): an answer within a bound, never a hang, an uncaught
// error, a dead factory, or a tool reached that the host did not mean to
// show.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { WORKER, assetPath, llmTools, loadFactory, run, sleep, tool, until, watchUncaught, within, withFactory } from "./helpers.mjs";

const N = 5_000;
const FIRST = 2048; // registering.mjs's first slice
const idSchema = { type: "object", properties: { id: { type: "integer" } }, required: ["id"] };

// The program's outcome of one call: ["ok", value] or ["err", name].
const callOf = (expr) => `(async () => { try { return ["ok", await ${expr}] } catch (e) { return ["err", e.name] } })()`;
// A program that calls each name (tool_call) and searches for `query`: [outcome per name..., names found].
const probe = (names, query) => `const out = []; for (const n of ${JSON.stringify(names)}) out.push(await ${callOf("tool_call(n, {})")}); out.push((await tool_search({ query: ${JSON.stringify(query)}, limit: 50 })).map((x) => x.name)); return out`;
const big = (i, extra) => ({ name: `big.t${i}`, description: `Tool number ${i} of the catalog`, inputSchema: { type: "object" }, execute: () => `t${i}`, ...extra });
const bigs = (n, from = 0) => Array.from({ length: n }, (_, i) => big(from + i));
const settled = (p) => p.then((v) => ({ resolved: v }), (e) => ({ rejected: e }));

async function alive(api) {
    const r = await within(run(api.createSession(), "return 1 + 1"), 120_000);
    assert.equal(r.ok && r.result, 2, `the factory after the row: ${JSON.stringify(r.error ?? r)}`);
}

describe("hostile42: registration in slices raced by the page", { timeout: 600_000 }, () => {
    test("unregister() right after registerTools returns: nothing of the call stays, a run started after calls neither a first nor a late tool", async (t) => {
        const uncaught = watchUncaught(t);
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 120_000 });
        const off = api.registerTools(bigs(N));
        off();
        off(); // twice: harmless
        const r = await within(run(api.createSession(), probe(["big.t0", `big.t${N - 1}`], "Tool number")), 240_000);
        assert.ok(r.ok, JSON.stringify(r.error ?? r));
        assert.deepEqual(r.result, [["err", "ToolError"], ["err", "ToolError"], []]);
        await api.ready();
        assert.deepEqual(api.listTools(), []);
        await alive(api);
        assert.deepEqual(uncaught, []);
    });

    test("the factory's dispose() while slices are in flight: ready() and a waiting run settle, nothing is uncaught, no tool runs after", async (t) => {
        const uncaught = watchUncaught(t);
        const IoCodeModeFactory = await loadFactory();
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 120_000 });
        let ran = 0;
        api.registerTools(Array.from({ length: N }, (_, i) => big(i, { execute: () => (ran++, i) })));
        const waiting = within(settled(run(api.createSession(), `return await tools.big.t${N - 1}({})`)), 120_000);
        const ready = within(settled(api.ready()), 120_000);
        await api.dispose();
        const [w, r] = await Promise.all([waiting, ready]);
        assert.notEqual(w, "hung", "the run waiting for the last slice");
        assert.notEqual(r, "hung", "ready()");
        assert.ok(w.rejected || w.resolved.ok === false, JSON.stringify(w));
        await sleep(200);
        assert.equal(ran, 0, "a tool ran after dispose()");
        assert.throws(() => api.registerTool(big(N + 1)), /dispos/i);
        assert.deepEqual(uncaught, []);
    });

    test("a session's own tool named as a late-slice tool, made while the slices are in flight: one of the two is refused, never both kept", async (t) => {
        const uncaught = watchUncaught(t);
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 120_000 });
        api.registerTools(bigs(N));
        let session;
        let sessionError;
        try {
            session = api.createSession({ tools: [tool(`big.t${N - 2}`, () => "own ran")] });
        } catch (e) {
            sessionError = e;
        }
        const ready = await within(settled(api.ready()), 240_000);
        assert.notEqual(ready, "hung");
        const listed = api.listTools().map((d) => d.name);
        if (sessionError) {
            // Refused at once: the factory's call stands whole.
            assert.ok(sessionError instanceof TypeError && sessionError.message.includes(`big.t${N - 2}`), String(sessionError));
            assert.ok(ready.resolved !== undefined || ready.rejected, "ready");
            assert.equal(listed.length, N);
        } else {
            // The session took the name first: the factory's call is undone, naming it.
            assert.ok(ready.rejected, `both kept: the session's own big.t${N - 2} and the factory's`);
            assert.ok(ready.rejected.message.includes(`big.t${N - 2}`), ready.rejected.message);
            assert.deepEqual(listed, []);
            const r = await within(run(session, probe([`big.t${N - 2}`, "big.t0"], "Tool number")), 120_000);
            assert.deepEqual(r.result.slice(0, 2), [["ok", "own ran"], ["err", "ToolError"]]);
        }
        await api.ready().catch(() => {});
        await alive(api);
        assert.deepEqual(uncaught, []);
    });

    test("a second registerTools of the same names while the first call's slices are in flight: each name is registered once, by one whole call", async (t) => {
        const uncaught = watchUncaught(t);
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 120_000 });
        const first = Array.from({ length: N }, (_, i) => big(i, { execute: () => `first ${i}` }));
        const second = Array.from({ length: N }, (_, i) => big(i, { execute: () => `second ${i}` }));
        api.registerTools(first);
        let secondError;
        try {
            // Its first 2,048 names are the first call's first slice: taken at once.
            api.registerTools(second.slice(3000).concat(second.slice(0, 1)));
        } catch (e) {
            secondError = e;
        }
        // Only the late names of the first call: the first call's later slices may not have run yet.
        let lateError;
        try {
            api.registerTools(second.slice(3000, 3100));
        } catch (e) {
            lateError = e;
        }
        const ready = await within(settled(api.ready()), 240_000);
        assert.notEqual(ready, "hung");
        await api.ready().catch(() => {});
        assert.ok(secondError instanceof TypeError, `a name of the first slice taken twice: ${secondError}`);
        const listed = api.listTools().map((d) => d.name);
        assert.equal(new Set(listed).size, listed.length, "a name listed twice");
        const r = await within(run(api.createSession(), `const out = []; for (const i of [0, 2047, 2048, 3000, 3050, ${N - 1}]) out.push(await ${callOf("tool_call('big.t' + i, {})")}); return out`), 120_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        const by = r.result.map(([k, v]) => (k === "ok" ? v.split(" ")[0] : v));
        // The first call whole, or undone whole (its late names taken by the second); the second's 100 whole or none.
        const firstWhole = by[0] === "first";
        if (firstWhole) assert.deepEqual(by, ["first", "first", "first", "first", "first", "first"], `${lateError}`);
        else assert.deepEqual(by, ["ToolError", "ToolError", "ToolError", "second", "second", "ToolError"], `${lateError}`);
        assert.deepEqual(uncaught, []);
    });

    test("a tool refused in a late slice: a run started meanwhile runs none of the call's tools, first slice included", async (t) => {
        const uncaught = watchUncaught(t);
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 120_000 });
        const ran = [];
        const list = Array.from({ length: N }, (_, i) => big(i, { execute: () => (ran.push(i), i) }));
        list[4000] = big(4000, { inputSchema: { type: "object", properties: { n: { type: "nonsense" } } } });
        const error = console.error;
        console.error = () => {};
        t.after(() => (console.error = error));
        api.registerTools(list);
        const r = await within(run(api.createSession(), probe(["big.t0", "big.t4999"], "Tool number")), 240_000);
        await api.ready().catch(() => {});
        assert.ok(r.ok, JSON.stringify(r.error ?? r));
        assert.deepEqual(r.result, [["err", "ToolError"], ["err", "ToolError"], []]);
        assert.deepEqual(ran, []);
        assert.deepEqual(api.listTools(), []);
        assert.deepEqual(uncaught, []);
    });

    test("a toolFilter hiding a late-slice tool: a run and a search during the slicing neither reach it nor name it in a did-you-mean", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 120_000, toolFilter: (x) => !x.name.startsWith("secret.") });
        const list = bigs(N);
        list[4500] = { name: "secret.dropEverything", description: "SECRETDESC42 wipes", inputSchema: { type: "object" }, execute: () => "DROPPED" };
        api.registerTools(list);
        const s = api.createSession();
        const program = `const out = []; for (const n of ["secret.dropEverything", "secret.dropEverythin", "dropEverything", "secret.dropeverything"]) { try { out.push("called " + await tool_call(n, {})) } catch (e) { out.push(String(e.message)) } }
            try { out.push("called " + await tools.secret.dropEverythin({})) } catch (e) { out.push(String(e.message)) }
            out.push(JSON.stringify(await tool_search({ query: "SECRETDESC42 wipes dropEverything", limit: 50 })));
            out.push(JSON.stringify(await tool_search({ query: "", namespace: "secret" })));
            return out`;
        const [r, found] = await Promise.all([within(run(s, program), 240_000), within(llmTools(s).searchTools.execute({ query: "SECRETDESC42 dropEverything", limit: 50 }).then((x) => JSON.stringify(x), (e) => String(e?.message)), 240_000)]);
        assert.ok(r.ok, JSON.stringify(r.error ?? r));
        // The first call names the tool itself: its error may echo that name, no other.
        for (const [i, m] of [...r.result, found].entries()) {
            assert.ok(!m.startsWith("called"), m);
            assert.ok(!/SECRETDESC42|did you mean/i.test(m) && (i === 0 || !/secret\.dropEverything\b/.test(m)), `names the hidden tool: ${m.slice(0, 300)}`);
        }
        await api.ready();
        assert.ok(!api.listTools().some((d) => d.name.startsWith("secret.")));
    });

    test("the page's array changed after registerTools returns (push, splice, a late element replaced): the call registers what it held when called", async (t) => {
        const uncaught = watchUncaught(t);
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 120_000 });
        const list = bigs(N);
        api.registerTools(list);
        list[4000] = { name: "evil.swapped", description: "EVILSWAP42", inputSchema: { type: "object" }, execute: () => "EVIL" };
        list.push({ name: "evil.pushed", description: "EVILPUSH42", inputSchema: { type: "object" }, execute: () => "EVIL" });
        list.splice(3000, 10);
        list.length = 2500;
        await api.ready();
        const names = api.listTools().map((d) => d.name);
        assert.equal(names.length, N);
        assert.ok(names.includes("big.t4000") && names.includes("big.t3005") && names.includes(`big.t${N - 1}`));
        assert.ok(!names.some((n) => n.startsWith("evil.")), "a tool put in the array after the call was registered");
        const r = await within(run(api.createSession(), probe(["big.t4000", "big.t3005", "evil.swapped", "evil.pushed"], "EVILSWAP42 EVILPUSH42")), 120_000);
        r.result[4] = r.result[4].filter((n) => n.startsWith("evil."));
        assert.deepEqual(r.result, [["ok", "t4000"], ["ok", "t3005"], ["err", "ToolError"], ["err", "ToolError"], []]);
        assert.deepEqual(uncaught, []);
    });

    test("a late definition whose name getter answers another name (a first-slice name, an invalid one) at later reads: read once, registered under its first name", async (t) => {
        const uncaught = watchUncaught(t);
        for (const later of ["big.t5", "admin..drop\u200b"]) {
            const api = await withFactory(t, { wasmLocation: assetPath, timeout: 120_000 });
            const list = bigs(N);
            let reads = 0;
            list[4200] = { get name() { return reads++ === 0 ? "big.t4200" : later; }, description: "getter", inputSchema: { type: "object" }, execute: () => "getter ran" };
            let thrown;
            try { api.registerTools(list); } catch (e) { thrown = e; }
            const ready = await within(settled(api.ready()), 240_000);
            assert.notEqual(ready, "hung");
            if (thrown || ready.rejected) {
                // Refused whole, naming the field: also acceptable.
                const e = thrown ?? ready.rejected;
                assert.ok(e instanceof TypeError && /tools\[4200\].*name/.test(e.message), String(e));
                assert.deepEqual(api.listTools(), []);
                continue;
            }
            assert.equal(reads, 1, `the name getter was read ${reads} times`);
            const names = api.listTools().map((d) => d.name);
            assert.equal(names.length, N);
            assert.equal(new Set(names).size, N, "a name twice");
            const r = await within(run(api.createSession(), `return [await ${callOf("tools.big.t4200({})")}, await ${callOf("tools.big.t5({})")}]`), 120_000);
            assert.deepEqual(r.result, [["ok", "getter ran"], ["ok", "t5"]]);
        }
        assert.deepEqual(uncaught, []);
    });

    // Not so yet: past the first 2,048, a tool is read when its slice registers it (USAGE says so); in both modes.
    test("a late definition the page loosens after registerTools returns (its inputSchema, its name): the definition as it read at the call is registered", { todo: "a tool past the first 2,048 is read at its slice" }, async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 120_000 });
        const list = bigs(N);
        const def = big(4100, { inputSchema: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] }, execute: (i) => `strict ${i.id}` });
        list[4100] = def;
        api.registerTools(list);
        def.inputSchema.properties.id.type = "string";
        def.inputSchema = { type: "object" };
        def.name = "admin.renamed";
        await api.ready();
        const r = await within(run(api.createSession(), `return [await ${callOf("tools.big.t4100({ id: 'x' })")}, await ${callOf("tools.big.t4100({ id: 7 })")}, await ${callOf("tool_call('admin.renamed', { id: 1 })")}]`), 120_000);
        assert.deepEqual(r.result, [["err", "ValidationError"], ["ok", "strict 7"], ["err", "ToolError"]]);
        assert.ok(api.listTools().some((d) => d.name === "big.t4100"));
    });

    test("a late definition that is a Proxy whose traps throw: the whole call is refused or undone naming tools[i], nothing uncaught, the factory lives", async (t) => {
        const uncaught = watchUncaught(t);
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 120_000 });
        const list = bigs(N);
        const boom = () => { throw new Error("TRAP42"); };
        list[4300] = new Proxy({}, { get: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom, getPrototypeOf: boom });
        const error = console.error;
        console.error = () => {};
        t.after(() => (console.error = error));
        let thrown;
        try { api.registerTools(list); } catch (e) { thrown = e; }
        const ready = await within(settled(api.ready()), 240_000);
        assert.notEqual(ready, "hung");
        const e = thrown ?? ready.rejected;
        assert.ok(e instanceof TypeError && e.message.startsWith("tools[4300]"), String(e));
        await api.ready().catch(() => {});
        assert.deepEqual(api.listTools(), []);
        await alive(api);
        assert.deepEqual(uncaught, []);
    });

    test("a deep and a huge schema in a late slice: registered and enforced, or the call refused naming tools[i]; bounded, no stack overflow", async (t) => {
        const uncaught = watchUncaught(t);
        let deep = { type: "string" };
        for (let i = 0; i < 20_000; i++) deep = { type: "object", properties: { a: deep } };
        const properties = {};
        for (let i = 0; i < 50_000; i++) properties[`p${i}`] = { type: "integer" };
        for (const [what, inputSchema] of [["deep", deep], ["huge", { type: "object", properties, required: ["p49999"] }]]) {
            const api = await withFactory(t, { wasmLocation: assetPath, timeout: 120_000 });
            const list = bigs(N);
            list[4400] = big(4400, { inputSchema, execute: () => "odd ran" });
            const error = console.error;
            console.error = () => {};
            let thrown;
            try { api.registerTools(list); } catch (e) { thrown = e; } finally { console.error = error; }
            const ready = await within(settled(api.ready()), 300_000);
            assert.notEqual(ready, "hung", what);
            const e = thrown ?? ready.rejected;
            if (e) {
                assert.ok(e instanceof TypeError && e.message.startsWith("tools[4400]") && /inputSchema/.test(e.message), `${what}: ${e}`);
                assert.ok(!/Maximum call stack/.test(e.message), `${what}: ${e.message}`);
            } else if (what === "huge") {
                const r = await within(run(api.createSession(), `return [await ${callOf("tools.big.t4400({ p49999: 'x' })")}, await ${callOf("tools.big.t4400({ p49999: 1 })")}]`), 120_000);
                assert.deepEqual(r.result, [["err", "ValidationError"], ["ok", "odd ran"]], what);
            }
            await api.ready().catch(() => {});
            await alive(api);
        }
        assert.deepEqual(uncaught, []);
    });

    test("config.tools past 2,048 with a toolFilter that throws for every tool: the factory is made, no tool is reachable, no flood of errors", async (t) => {
        const logged = [];
        const error = console.error;
        console.error = (...a) => logged.push(a.join(" "));
        t.after(() => (console.error = error));
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 120_000, tools: bigs(N), toolFilter: () => { throw new Error("FILTER42"); } });
        const r = await within(run(api.createSession(), probe(["big.t0", `big.t${N - 1}`], "Tool number")), 120_000);
        assert.deepEqual(r.result, [["err", "ToolError"], ["err", "ToolError"], []]);
        assert.deepEqual(api.listTools(), []);
        assert.ok(logged.length < 10, `console.error called ${logged.length} times`);
    });
});

describe("hostile42: a session's own tools held on the page while toolFilter hides them", () => {
    test("two sessions' own tools of one name, one hidden: each session calls its own only, whichever the filter shows", async (t) => {
        let open = false;
        const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => open || x.description !== "HELD42" });
        const a = api.createSession({ tools: [tool("own.same", () => "A ran", { description: "HELD42" })] });
        const b = api.createSession({ tools: [tool("own.same", () => "B ran", { description: "SHOWN42" })] });
        const c = api.createSession();
        const p = probe(["own.same"], "own.same HELD42 SHOWN42");
        assert.deepEqual((await within(run(a, p), 60_000)).result, [["err", "ToolError"], []]);
        assert.deepEqual((await within(run(b, p), 60_000)).result, [["ok", "B ran"], ["own.same"]]);
        assert.deepEqual((await within(run(c, p), 60_000)).result, [["err", "ToolError"], []]);
        open = true;
        assert.deepEqual((await within(run(a, p), 60_000)).result, [["ok", "A ran"], ["own.same"]]);
        assert.deepEqual((await within(run(b, p), 60_000)).result, [["ok", "B ran"], ["own.same"]]);
        assert.deepEqual((await within(run(c, p), 60_000)).result, [["err", "ToolError"], []]);
    });

    test("a live session's held (hidden) own tool still takes its name: registerTool of it throws; after that session's dispose it registers and runs the factory's", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => !x.name.startsWith("admin.") });
        const s = api.createSession({ tools: [tool("admin.held", () => "HELD RAN")] });
        assert.throws(() => api.registerTool(tool("admin.held", () => "factory's")), (e) => e instanceof TypeError && /admin\.held.*already a tool of a session/.test(e.message));
        assert.throws(() => api.registerTools([tool("ok.one", () => 1), tool("admin.held", () => 2)]), (e) => e instanceof TypeError && /admin\.held/.test(e.message));
        assert.deepEqual(api.listTools(), [], "a refused registerTools left a tool");
        s.dispose();
        api.registerTool(tool("admin.held", () => "factory's"));
        api.registerTool(tool("admin.other", () => "other"));
        // Hidden by the filter all the same: registered, not reachable.
        const r = await within(run(api.createSession(), probe(["admin.held"], "admin.held")), 60_000);
        assert.deepEqual(r.result, [["err", "ToolError"], []]);
    });

    test("a session disposed while its own tool is held, then the filter shows that name: no run anywhere reaches the disposed session's tool", async (t) => {
        let open = false;
        let ran = 0;
        const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => open || !x.name.startsWith("held.") });
        const s = api.createSession({ tools: [tool("held.x", () => (ran++, "DISPOSED RAN"), { description: "HELDX42" })] });
        assert.deepEqual((await within(run(s, probe(["held.x"], "HELDX42")), 60_000)).result, [["err", "ToolError"], []]);
        s.dispose();
        open = true;
        const other = api.createSession({ tools: [tool("held.y", () => "y")] });
        const r = await within(run(other, probe(["held.x", "held.y"], "HELDX42 held.x")), 60_000);
        r.result[2] = r.result[2].filter((n) => n === "held.x");
        assert.deepEqual(r.result, [["err", "ToolError"], ["ok", "y"], []]);
        const again = await within(settled((async () => run(s, "return await tool_call('held.x', {})"))()), 60_000);
        assert.ok(again.rejected || again.resolved.ok === false, JSON.stringify(again));
        // The name is free again for a new session and the factory alike.
        const n = api.createSession({ tools: [tool("held.x", () => "new own")] });
        assert.deepEqual((await within(run(n, probe(["held.x"], "held.x")), 60_000)).result, [["ok", "new own"], ["held.x"]]);
        assert.equal(ran, 0);
    });

    test("a run in flight when the filter starts showing a session's held tool: not in that run; the next run of the session calls it", async (t) => {
        let open = false;
        let release;
        const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => open || x.name !== "held.late" });
        const s = api.createSession({ tools: [tool("held.late", () => "late ran"), tool("held.wait", () => new Promise((r) => { release = r; }))] });
        const p = within(run(s, `await tools.held.wait({}); return [await ${callOf("tool_call('held.late', {})")}]`), 60_000);
        await until(() => release, "the call of held.wait");
        open = true;
        release(1);
        assert.deepEqual((await p).result, [["err", "ToolError"]]);
        assert.deepEqual((await within(run(s, `return [await ${callOf("tool_call('held.late', {})")}]`), 60_000)).result, [["ok", "late ran"]]);
    });

    test("createSession's own tool under a factory tool's name that the filter hides: a TypeError naming it (the hidden name is still taken), in both modes", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => !x.name.startsWith("admin."), tools: [tool("admin.fact", () => "FACT")] });
        assert.throws(() => api.createSession({ tools: [tool("admin.fact", () => "own")] }), (e) => e instanceof TypeError && /admin\.fact/.test(e.message));
        // Nothing half made: the session's other tools are not taken either.
        assert.throws(() => api.createSession({ tools: [tool("free.one", () => 1), tool("admin.fact", () => "own")] }), TypeError);
        api.registerTool(tool("free.one", () => "factory free.one"));
        const r = await within(run(api.createSession(), probe(["free.one", "admin.fact"], "admin.fact")), 60_000);
        assert.deepEqual(r.result, [["ok", "factory free.one"], ["err", "ToolError"], []]);
    });
});

describe("hostile42: the fields read once at registration, against converters, toJSON and Proxies", () => {
    test("an inputSchema with a toJSON that answers a looser schema: refused naming inputSchema, or the schema's own keywords enforced", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        let called = 0;
        const inputSchema = { ...idSchema, toJSON: () => (called++, { type: "object" }) };
        let thrown;
        try { api.registerTool(tool("tj.x", (i) => `x ${i.id}`, { inputSchema })); } catch (e) { thrown = e; }
        if (thrown) {
            assert.ok(thrown instanceof TypeError && /tj\.x.*inputSchema/.test(thrown.message), String(thrown));
            return;
        }
        const r = await within(run(api.createSession(), `return [await ${callOf("tools.tj.x({ id: 'no' })")}, await ${callOf("tools.tj.x({})")}, await ${callOf("tools.tj.x({ id: 2 })")}]`), 60_000);
        assert.deepEqual(r.result, [["err", "ValidationError"], ["err", "ValidationError"], ["ok", "x 2"]]);
        assert.equal(called, 0, "the schema's toJSON was called");
    });

    test("a nested schema whose toJSON answers {} (properties.id): refused or ignored, never loosening the check", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const inputSchema = { type: "object", properties: { id: { type: "integer", toJSON: () => ({}) } }, required: ["id"] };
        let thrown;
        try { api.registerTool(tool("tj.y", (i) => `y ${i.id}`, { inputSchema })); } catch (e) { thrown = e; }
        if (thrown) return assert.ok(thrown instanceof TypeError && /tj\.y.*inputSchema/.test(thrown.message), String(thrown));
        const r = await within(run(api.createSession(), `return [await ${callOf("tools.tj.y({ id: 'no' })")}, await ${callOf("tools.tj.y({ id: 3 })")}]`), 60_000);
        assert.deepEqual(r.result, [["err", "ValidationError"], ["ok", "y 3"]]);
    });

    for (const field of ["name", "description"]) {
        test(`a definition's ${field} as an object with Symbol.toPrimitive and toString: a TypeError naming ${field}, its converters never called`, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath });
            let converted = 0;
            const value = { [Symbol.toPrimitive]: () => (converted++, "conv.x"), toString: () => (converted++, "conv.x"), valueOf: () => (converted++, "conv.x") };
            const def = { ...tool("conv.x", () => 1), [field]: value };
            assert.throws(() => api.registerTool(def), (e) => e instanceof TypeError && e.message.includes(field));
            assert.throws(() => api.registerTools([tool("conv.ok", () => 1), def]), (e) => e instanceof TypeError && e.message.includes(field));
            assert.throws(() => api.createSession({ tools: [def] }), (e) => e instanceof TypeError && e.message.includes(field));
            assert.equal(converted, 0, `${field}'s converter was called ${converted} times`);
            assert.deepEqual(api.listTools(), []);
        });
    }

    test("a schema keyword with Symbol.toPrimitive (minimum, maxLength, pattern): refused naming the path, its converter never called", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        let converted = 0;
        const conv = (v) => ({ [Symbol.toPrimitive]: () => (converted++, v), valueOf: () => (converted++, v), toString: () => (converted++, String(v)) });
        for (const [kw, v, type] of [["minimum", 5, "integer"], ["maxLength", 3, "string"], ["pattern", "^a$", "string"]]) {
            const inputSchema = { type: "object", properties: { v: { type, [kw]: conv(v) } } };
            assert.throws(() => api.registerTool(tool(`kw.${kw}`, () => 1, { inputSchema })), (e) => e instanceof TypeError && e.message.includes(kw), kw);
        }
        assert.equal(converted, 0);
    });

    test("a schema Proxy answering ownKeys with a key twice and a key it does not have: a clear TypeError, or one consistent copy enforced", async (t) => {
        const uncaught = watchUncaught(t);
        const api = await withFactory(t, { wasmLocation: assetPath });
        const target = { type: "object", properties: { id: { type: "integer" } }, required: ["id"] };
        const schema = new Proxy(target, { ownKeys: () => ["type", "type", "properties", "required", "ghost"] });
        let thrown;
        try { api.registerTool(tool("px.x", (i) => `x ${i.id}`, { inputSchema: schema })); } catch (e) { thrown = e; }
        if (thrown) {
            assert.ok(thrown instanceof TypeError && /px\.x.*inputSchema/.test(thrown.message), String(thrown));
        } else {
            const r = await within(run(api.createSession(), `return [await ${callOf("tools.px.x({ id: 'no' })")}, await ${callOf("tools.px.x({ id: 1 })")}]`), 60_000);
            assert.deepEqual(r.result, [["err", "ValidationError"], ["ok", "x 1"]]);
        }
        await alive(api);
        assert.deepEqual(uncaught, []);
    });

    test("a schema's getters are read once at registration: listTools() three times, searches, new sessions and calls read none again", async (t) => {
        let reads = 0;
        const id = { type: "integer" };
        Object.defineProperty(id, "minimum", { enumerable: true, get: () => (reads++, 10) });
        const description = "GETTERDESC42";
        const api = await withFactory(t, { wasmLocation: assetPath });
        api.registerTool(tool("gr.x", (i) => `x ${i.id}`, { description, inputSchema: { type: "object", properties: { id }, required: ["id"] } }));
        assert.equal(reads, 1, `read ${reads} times at registration`);
        for (let i = 0; i < 3; i++) api.listTools();
        const s = api.createSession();
        s.getSystemInstruction();
        await llmTools(s).searchTools.execute({ query: "GETTERDESC42" });
        const r = await within(run(api.createSession(), `return [await ${callOf("tools.gr.x({ id: 3 })")}, await ${callOf("tools.gr.x({ id: 11 })")}]`), 60_000);
        assert.deepEqual(r.result, [["err", "ValidationError"], ["ok", "x 11"]]);
        assert.equal(reads, 1, `read ${reads} times in all`);
    });

    test("listTools()'s copy changed deep inside (a nested schema, annotations): the tool, and the next listTools(), are as registered", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        api.registerTool(tool("cp.x", (i) => `x ${i.id}`, { inputSchema: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] }, annotations: { level: "safe" } }));
        const [copy] = api.listTools();
        copy.inputSchema.properties.id.type = "string";
        copy.inputSchema.required.length = 0;
        copy.annotations.level = "admin";
        const r = await within(run(api.createSession(), `return [await ${callOf("tools.cp.x({ id: 'no' })")}, await ${callOf("tools.cp.x({})")}, await ${callOf("tools.cp.x({ id: 4 })")}]`), 60_000);
        assert.deepEqual(r.result, [["err", "ValidationError"], ["err", "ValidationError"], ["ok", "x 4"]]);
    });
});

describe("hostile42: patterns the core's regexp copy reads", () => {
    const schemaOf = (pattern) => ({ type: "object", properties: { a: { type: "string", pattern } }, required: ["a"] });
    // Each row: the pattern, inputs that must pass, inputs that must fail (when registered).
    const rows = [
        ["\\p{Greek}+", ["αβγ"], ["abc"]],
        ["^\\pL+$", ["Zürich"], ["123"]],
        ["^[[:alpha:]]+$", ["abc"], ["a1"]],
        ["^[^[:space:]]+$", ["a-b"], ["a b"]],
        ["^\\P{Han}+$", ["abc"], ["漢字"]],
        ["^[\\x{0}-\\x{10FFFF}]{2}$", ["ab"], ["abc"]],
        ["^[\\d\\s\\w\\W]{1,3}$", ["a 1"], ["abcd"]],
        ["^\\p{Script=Greek}+$", null, null], // ECMAScript's form, not RE2's: refused, or enforced as ECMAScript reads it
        ["^[\\p{L}--\\p{Ll}]+$", null, null], // the v flag's set difference, a SyntaxError with the u flag
        ["(?i)^admin$", ["ADMIN"], ["root"]],
    ];
    for (const [pattern, good, bad] of rows) {
        test(`pattern ${JSON.stringify(pattern)}: refused at registration naming its path, or enforced`, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath });
            let thrown;
            try { api.registerTool(tool("re.x", (i) => `ran ${i.a}`, { inputSchema: schemaOf(pattern) })); } catch (e) { thrown = e; }
            if (thrown) {
                assert.ok(thrown instanceof TypeError && thrown.message.includes("/properties/a/pattern") && thrown.message.includes("re.x"), String(thrown));
                return;
            }
            const inputs = [...(good ?? []), ...(bad ?? [])];
            if (inputs.length === 0) {
                // ECMAScript forms: the check must agree with the page's own RegExp (u or v flag), or the tool was refused.
                // JSON Schema's patterns are ECMA-262's with the u flag: one that flag refuses must be refused.
                let re;
                try { re = new RegExp(pattern, "u"); } catch (e) { assert.fail(`${pattern} is no ECMAScript pattern (${e.message}) and was registered`); }
                const tries = ["αβγ", "abc", "ABC", "Ab"];
                const r = await within(run(api.createSession(), `const out = []; for (const a of ${JSON.stringify(tries)}) out.push(await ${callOf("tools.re.x({ a })")}); return out`), 60_000);
                assert.ok(r.ok, JSON.stringify(r.error));
                assert.deepEqual(r.result.map(([k]) => k === "ok"), tries.map((s) => re.test(s)), `${pattern}: ${JSON.stringify(r.result)}`);
                return;
            }
            const r = await within(run(api.createSession(), `const out = []; for (const a of ${JSON.stringify(inputs)}) out.push(await ${callOf("tools.re.x({ a })")}); return out`), 60_000);
            assert.ok(r.ok, JSON.stringify(r.error));
            assert.deepEqual(r.result.map(([k]) => k), [...good.map(() => "ok"), ...bad.map(() => "err")], JSON.stringify(r.result));
        });
    }

    test("catastrophic-backtracking patterns against 100,000-character inputs: answered well within the run's timeout, the next run works", async (t) => {
        // A backtracking matcher would take longer than the universe's age
        // on these; linear checks take seconds idle, over 20 s at a load of
        // 30. Any limit between tells them apart: a generous one.
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 300_000 });
        const patterns = ["^(a+)+$", "^(a|a)*$", "^(a|aa)+$", "^(.*a){20}$", "^([a-z]+)*[0-9]$"];
        patterns.forEach((p, i) => api.registerTool(tool(`cat.t${i}`, () => "ran", { inputSchema: schemaOf(p) })));
        const r = await within(run(api.createSession(), `const s = "a".repeat(100000) + "!"; const out = []; for (let i = 0; i < ${patterns.length}; i++) { const t0 = Date.now(); out.push([await ${callOf("tool_call('cat.t' + i, { a: s })")}, Date.now() - t0]); } return out`), 360_000);
        assert.notEqual(r, "hung");
        assert.ok(r.ok, JSON.stringify(r.error ?? r).slice(0, 500));
        assert.deepEqual(r.result.map(([o]) => o), patterns.map(() => ["err", "ValidationError"]));
        await alive(api);
    });

    test("a pattern that is a huge class (20,000 ranges) or 200,000 characters long: registered and enforced, or refused naming its path; bounded", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 20_000 });
        const ranges = Array.from({ length: 20_000 }, (_, i) => `\\x{${(0x4e00 + i * 2).toString(16)}}`).join("");
        const patterns = [`^[${ranges}]+$`, `^(?:${"ab".repeat(100_000)})$`, `^${"[a-z]".repeat(20_000)}$`];
        const outcomes = [];
        for (const [i, p] of patterns.entries()) {
            try {
                api.registerTool(tool(`hc.t${i}`, () => "ran", { inputSchema: schemaOf(p) }));
                outcomes.push("registered");
            } catch (e) {
                assert.ok(e instanceof TypeError && e.message.includes("/properties/a/pattern"), `${i}: ${String(e).slice(0, 300)}`);
                outcomes.push("refused");
            }
        }
        await within(api.ready().catch(() => {}), 120_000);
        if (outcomes[0] === "registered") {
            const r = await within(run(api.createSession(), `return [await ${callOf("tools.hc.t0({ a: '\\u4e00\\u4e02' })")}, await ${callOf("tools.hc.t0({ a: '\\u4e01' })")}]`), 120_000);
            assert.deepEqual(r.result, [["ok", "ran"], ["err", "ValidationError"]]);
        }
        await alive(api);
    });

    test("a search namespace that is a regexp with catastrophic backtracking, or regexp syntax: a clear answer, bounded", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("ns.a", () => 1), tool("ns.b", () => 2)] });
        const s = api.createSession();
        for (const namespace of ["(a+)+$" + "a".repeat(50), "ns.*", "[", "n.", "\\p{L}+"]) {
            const r = await within(settled(llmTools(s).searchTools.execute({ namespace, query: "" })), 60_000);
            assert.notEqual(r, "hung", namespace);
            const text = JSON.stringify(r.resolved ?? String(r.rejected));
            assert.ok(!text.includes('"ns.a"'), `${namespace} matched as a pattern: ${text.slice(0, 300)}`);
        }
        const inRun = await within(run(s, `return (await tool_search({ query: "", namespace: "n." })).map((x) => x.name)`), 60_000);
        assert.deepEqual(inRun.result, []);
    });
});

// When toolFilter is asked: in-thread, when a run, a search, listTools()
// or getSystemInstruction() needs its answer; in worker mode at a run, a
// search, listTools(), and when a tool is registered or a session made (to
// keep what it hides on the page). How many times it is asked differs, and
// a filter must not count its asks; what a run, a search and a listing
// show is its answer of the moment, in both modes, and so does a session's
// instruction once a run or search has brought that answer to the worker.
describe("hostile42: what toolFilter shows does not depend on the engine mode", () => {
    test("a filter that throws until the page is ready: the factory is made in both modes, the first run after shows the tools, nothing reported as uncaught", async (t) => {
        const uncaught = watchUncaught(t);
        let user = null;
        const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => { if (!user) throw new Error("no user yet"); return user.can(x.name); }, tools: [tool("ui.open", () => "opened"), tool("admin.x", () => "ADMIN")] });
        const s = api.createSession();
        user = { can: (n) => !n.startsWith("admin.") };
        const r = await within(run(s, probe(["ui.open", "admin.x"], "ui.open admin.x")), 60_000);
        assert.deepEqual(r.result, [["ok", "opened"], ["err", "ToolError"], ["ui.open"]]);
        assert.deepEqual(uncaught, []);
    });

    test("a filter that calls ready() when asked: no recursion, ready() and the run settle, the tool shown", async (t) => {
        const uncaught = watchUncaught(t);
        let api;
        let calls = 0;
        const pending = [];
        api = await withFactory(t, { wasmLocation: assetPath, toolFilter: () => { if (api && calls++ < 50) pending.push(settled(api.ready())); return true; }, tools: [tool("rd.x", () => "x")] });
        const r = await within(run(api.createSession(), probe(["rd.x"], "rd.x")), 60_000);
        assert.deepEqual(r.result, [["ok", "x"], ["rd.x"]]);
        assert.notEqual(await within(api.ready(), 60_000), "hung");
        const done = await within(Promise.all(pending), 60_000);
        assert.notEqual(done, "hung");
        assert.ok(done.every((x) => !x.rejected), JSON.stringify(done.filter((x) => x.rejected).map((x) => String(x.rejected))).slice(0, 300));
        assert.deepEqual(uncaught, []);
    });

    // Each row: what the filter shows when the session is made, then after; what the session's instruction names after ready().
    for (const [name, before, after] of [["hides a tool it showed when the session was made", true, false], ["shows a tool it hid when the session was made", false, true]]) {
        test(`a filter that ${name}: after a search of the session and ready(), getSystemInstruction() names what it shows now, in both modes`, async (t) => {
            let open = before;
            const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => open || !x.name.startsWith("admin."), tools: [tool("admin.grant", () => "GRANTED", { description: "GRANTDESC42 gives rights" }), tool("ui.open", () => "opened")] });
            const s = api.createSession();
            await api.ready();
            assert.equal(/GRANTDESC42|admin\.grant/.test(s.getSystemInstruction()), before, "the instruction when the session was made");
            open = after;
            // In worker mode a run or a search brings the filter's list to the worker, which rebuilds the sessions' instructions.
            await llmTools(api.createSession()).searchTools.execute({ query: "ui" });
            await api.ready();
            assert.equal(/GRANTDESC42|admin\.grant/.test(s.getSystemInstruction()), after, `the instruction after the filter changed, a search and ready() (${WORKER ? "worker" : "in-thread"})`);
            const r = await within(run(s, probe(["admin.grant"], "GRANTDESC42")), 60_000);
            assert.deepEqual(r.result, after ? [["ok", "GRANTED"], ["admin.grant"]] : [["err", "ToolError"], []]);
            assert.equal(/GRANTDESC42|admin\.grant/.test(s.getSystemInstruction()), after, "the instruction after a run");
            const other = api.createSession();
            await api.ready();
            assert.equal(/GRANTDESC42|admin\.grant/.test(other.getSystemInstruction()), after, "a new session's instruction");
        });
    }
});
