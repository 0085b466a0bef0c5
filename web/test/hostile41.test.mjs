// Attempts of the forty-first session (security41), written before reading
// the code they hit: tools registered and unregistered while a run calls
// them, tools that answer with thenables settling after dispose(), filters
// that change their answer from one ask to the next or re-enter the
// factory, limits and options given as objects that convert themselves,
// a polluted Object.prototype under the keys no earlier row polluted, tool
// names with zero-width and confusable characters beside a filter, many
// sessions, runs started from inside a tool of the same session with its
// signal, and abort signals reused across runs. Each row is what the page
// must get, in both engine modes (CODE_MODE_WORKER=1): an answer within a
// bound, never a hang, an uncaught error, a dead factory, or a tool reached
// that the host did not mean to show.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { POST_SPY, WORKER, assetPath, inChild, llmTools, loadFactory, run, sleep, tool, until, watchUncaught, within, withFactory } from "./helpers.mjs";

const obj = { type: "object" };
const idSchema = { type: "object", properties: { id: { type: "integer" } }, required: ["id"] };

// The program's outcome of one call: ["ok", value] or ["err", name].
const callOf = (expr) => `(async () => { try { return ["ok", await ${expr}] } catch (e) { return ["err", e.name] } })()`;
// A program that calls each name (tool_call) and searches for `query`: [outcome per name..., names found].
const probe = (names, query) => `const out = []; for (const n of ${JSON.stringify(names)}) out.push(await ${callOf("tool_call(n, {})")}); out.push((await tool_search({ query: ${JSON.stringify(query)}, limit: 50 })).map((x) => x.name)); return out`;

async function alive(api) {
    const r = await within(run(api.createSession(), "return 1 + 1"), 60_000);
    assert.equal(r.ok && r.result, 2, `the factory after the row: ${JSON.stringify(r.error ?? r)}`);
}

describe("hostile41: tools registered and unregistered while a run calls them", () => {
    test("a tool whose execute unregisters itself: the call in flight answers, the next call of the run is an unknown tool, execute ran once", async (t) => {
        const uncaught = watchUncaught(t);
        let ran = 0;
        let off;
        const api = await withFactory(t, { wasmLocation: assetPath });
        off = api.registerTool(tool("u.self", () => (ran++, off(), "first")));
        const r = await within(run(api.createSession(), `return [await ${callOf("tools.u.self({})")}, await ${callOf('tool_call("u.self", {})')}]`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.deepEqual(r.result[0], ["ok", "first"]);
        assert.deepEqual(r.result[1], ["err", "ToolError"]);
        assert.equal(ran, 1);
        const next = await within(run(api.createSession(), probe(["u.self"], "u.self")), 60_000);
        assert.deepEqual(next.result, [["err", "ToolError"], []]);
        assert.deepEqual(api.listTools().map((x) => x.name), []);
        assert.deepEqual(uncaught, []);
    });

    test("a tool's name unregistered and registered again with a stricter schema between two calls of a run: the old execute never runs again, the new schema holds", async (t) => {
        const uncaught = watchUncaught(t);
        const calls = [];
        const api = await withFactory(t, { wasmLocation: assetPath });
        let off = api.registerTool(tool("u.swap", (i) => (calls.push(["old", i]), "old")));
        api.registerTool(tool("u.flip", () => {
            off();
            off = api.registerTool(tool("u.swap", (i) => (calls.push(["new", i]), "new"), { inputSchema: idSchema }));
            return "flipped";
        }));
        const r = await within(run(api.createSession(), `return [await ${callOf("tools.u.swap({ id: 'a' })")}, await ${callOf("tools.u.flip({})")}, await ${callOf("tools.u.swap({ id: 'b' })")}, await ${callOf("tools.u.swap({ id: 3 })")}]`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.deepEqual(r.result.slice(0, 2), [["ok", "old"], ["ok", "flipped"]]);
        // The run may see the new definition or none under that name; never the old one.
        assert.ok(["ValidationError", "ToolError"].includes(r.result[2][1]), JSON.stringify(r.result[2]));
        assert.ok(JSON.stringify(r.result[3]) === '["ok","new"]' || JSON.stringify(r.result[3]) === '["err","ToolError"]', JSON.stringify(r.result[3]));
        assert.deepEqual(calls.filter(([who]) => who === "old"), [["old", { id: "a" }]]);
        assert.ok(calls.every(([who, i]) => who === "old" || i.id === 3), JSON.stringify(calls));
        const next = await within(run(api.createSession(), `return [await ${callOf("tools.u.swap({ id: 'x' })")}, await ${callOf("tools.u.swap({ id: 4 })")}]`), 60_000);
        assert.deepEqual(next.result, [["err", "ValidationError"], ["ok", "new"]]);
        assert.deepEqual(uncaught, []);
    });

    test("a tool registered by another tool during a run: the next run calls and finds it; the page lives", async (t) => {
        const uncaught = watchUncaught(t);
        const api = await withFactory(t, { wasmLocation: assetPath });
        api.registerTool(tool("u.maker", () => (api.registerTool(tool("u.made", () => "made ran", { description: "MADEWORD41" })), "made")));
        const r = await within(run(api.createSession(), `return [await ${callOf("tools.u.maker({})")}, await ${callOf('tool_call("u.made", {})')}]`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.deepEqual(r.result[0], ["ok", "made"]);
        assert.ok(["made ran", "ToolError"].includes(r.result[1][1]), JSON.stringify(r.result[1]));
        const next = await within(run(api.createSession(), probe(["u.made"], "MADEWORD41")), 60_000);
        assert.deepEqual(next.result[0], ["ok", "made ran"]);
        assert.ok(next.result[1].includes("u.made"), JSON.stringify(next.result[1]));
        assert.deepEqual(uncaught, []);
    });

    test("a factory tool unregistered while a session's run awaits it: the call answers, later runs of that session neither call nor find it", async (t) => {
        let release;
        const api = await withFactory(t, { wasmLocation: assetPath });
        const off = api.registerTool(tool("u.slow", () => new Promise((r) => { release = r; }), { description: "SLOWWORD41" }));
        const s = api.createSession();
        const p = within(run(s, `return await ${callOf("tools.u.slow({})")}`), 60_000);
        await until(() => release, "the call of u.slow");
        off();
        release("late answer");
        const r = await p;
        assert.deepEqual(r.result, ["ok", "late answer"]);
        const next = await within(run(s, probe(["u.slow"], "SLOWWORD41 u.slow")), 60_000);
        assert.deepEqual(next.result, [["err", "ToolError"], []]);
    });
});

describe("hostile41: thenables and dispose", () => {
    test("a tool's thenable that resolves after the factory's dispose(): the run settles, the late resolve is harmless, later calls reject clearly", async (t) => {
        const uncaught = watchUncaught(t);
        let resolveLate;
        let after = 0;
        const IoCodeModeFactory = await loadFactory();
        const api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            tools: [tool("d.late", () => ({ then(res) { resolveLate = res; } })), tool("d.after", () => (after++, "after"))],
        });
        const p = within(run(api.createSession(), "const a = await tools.d.late({}); await tools.d.after({}); return a").then((v) => v, (e) => ({ rejected: String(e?.message) })), 60_000);
        await until(() => resolveLate, "the call of d.late");
        await api.dispose();
        resolveLate("too late");
        const r = await p;
        assert.notEqual(r, "hung");
        assert.ok(r.rejected !== undefined || r.ok === false, JSON.stringify(r));
        await sleep(100);
        assert.equal(after, 0, "a tool ran after dispose()");
        assert.throws(() => api.registerTool(tool("d.new", () => 1)), /dispos/i);
        assert.throws(() => api.createSession(), /dispos/i);
        assert.deepEqual(uncaught, []);
    });

    // Each row: [name, what execute returns, the call's outcome].
    const thenables = [
        ["resolves twice then rejects: the first answer holds", () => ({ then(res, rej) { res("first"); res("second"); rej(new Error("late")); } }), ["ok", "first"]],
        ["whose then getter throws: the call fails", () => Object.defineProperty({}, "then", { get() { throw new Error("THEN41"); } }), ["err", "ToolError"]],
        ["whose then throws after resolving: the answer holds", () => ({ then(res) { res("kept"); throw new Error("after"); } }), ["ok", "kept"]],
        ["resolving with a thenable three deep", () => ({ then: (r) => r({ then: (r2) => r2({ then: (r3) => r3("deep") }) }) }), ["ok", "deep"]],
    ];
    for (const [name, make, want] of thenables) {
        test(`a tool's execute returning a thenable that ${name}`, async (t) => {
            const uncaught = watchUncaught(t);
            const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("th.x", make), tool("th.ok", () => "fine")] });
            const r = await within(run(api.createSession(), `return [await ${callOf("tools.th.x({})")}, await tools.th.ok({})]`), 60_000);
            assert.ok(r.ok, JSON.stringify(r.error));
            assert.deepEqual(r.result, [want, "fine"]);
            await sleep(50);
            assert.deepEqual(uncaught, []);
        });
    }
});

describe("hostile41: filters asked more than once, filters that re-enter the factory", () => {
    // A filter may be asked for a tool more than once in a run (the call,
    // the search, the list): the run must see one answer for it.
    const flaky = [
        ["shows it at its first ask and throws at every later one", () => { let n = 0; return () => { if (n++ > 0) throw new Error("SECOND41"); return true; }; }],
        ["answers true and false by turns", () => { let n = 0; return () => n++ % 2 === 0; }],
        ["hides it at its first ask and shows it after", () => { let n = 0; return () => n++ > 0; }],
    ];
    for (const [name, make] of flaky) {
        test(`a filter that ${name}: in each run the tool is either callable and found or neither`, async (t) => {
            const uncaught = watchUncaught(t);
            const answer = make();
            const api = await withFactory(t, {
                wasmLocation: assetPath,
                toolFilter: (x) => (x.name === "fl.x" ? answer() : true),
                tools: [tool("fl.x", () => "x ran", { description: "FLAKYWORD41" }), tool("fl.ok", () => "ok")],
            });
            const s = api.createSession();
            for (let i = 0; i < 4; i++) {
                const r = await within(run(s, probe(["fl.x", "fl.ok"], "FLAKYWORD41 fl.x")), 60_000);
                assert.ok(r.ok, JSON.stringify(r.error));
                const [x, ok, found] = r.result;
                assert.deepEqual(ok, ["ok", "ok"]);
                const called = x[0] === "ok";
                assert.equal(found.includes("fl.x"), called, `run ${i}: called ${JSON.stringify(x)} but found ${JSON.stringify(found)}`);
                try { api.listTools(); } catch (e) { assert.fail(`listTools threw ${e}`); }
            }
            assert.deepEqual(uncaught, []);
        });
    }

    test("a filter that calls listTools() (re-enters itself): the run and listTools settle, no stack overflow escapes", async (t) => {
        const uncaught = watchUncaught(t);
        let api;
        let depth = 0;
        api = await withFactory(t, {
            wasmLocation: assetPath,
            toolFilter: (x) => { depth++; try { if (depth < 50) api.listTools(); } finally { depth--; } return true; },
            tools: [tool("re.x", () => "x")],
        });
        const r = await within(run(api.createSession(), `return await ${callOf("tools.re.x({})")}`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.ok(["x", "ToolError"].includes(r.result[1]), JSON.stringify(r.result));
        await alive(api);
        assert.deepEqual(uncaught, []);
    });

    test("a filter that registers a tool and disposes a session when asked: the run settles, the new tool works in a later run", async (t) => {
        const uncaught = watchUncaught(t);
        let api;
        let victim;
        let once = true;
        api = await withFactory(t, {
            wasmLocation: assetPath,
            toolFilter: (x) => {
                // Asked first when the factory starts (worker mode): api is set by the first ask after.
                if (once && api) {
                    once = false;
                    try { api.registerTool(tool("re.added", () => "added ran")); } catch {}
                    try { victim?.dispose(); } catch {}
                }
                return true;
            },
            tools: [tool("re.y", () => "y")],
        });
        victim = api.createSession();
        const r = await within(run(api.createSession(), `return await ${callOf("tools.re.y({})")}`), 60_000);
        assert.notEqual(r, "hung");
        assert.ok(r.ok, JSON.stringify(r.error));
        const next = await within(run(api.createSession(), `return await ${callOf("tools.re.added({})")}`), 60_000);
        assert.deepEqual(next.result, ["ok", "added ran"]);
        assert.deepEqual(uncaught, []);
    });
});

describe("hostile41: limits and options that are objects converting themselves", () => {
    for (const field of ["timeout", "memoryLimit", "maxToolCalls", "maxResultChars"]) {
        test(`config.${field} as an object with Symbol.toPrimitive and valueOf: a TypeError naming ${field}, its converters never called`, async () => {
            const IoCodeModeFactory = await loadFactory();
            let converted = 0;
            const value = { [Symbol.toPrimitive]: () => (converted++, 1000), valueOf: () => (converted++, 1000) };
            await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, [field]: value }), (e) => e instanceof TypeError && e.message.includes(field));
            assert.equal(converted, 0, `${field}'s converter was called ${converted} times`);
        });
    }

    test("searchTools' limit as an object whose Symbol.toPrimitive answers 1 then 1e9: a clear error or a bounded answer, the converter called at most once", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("cv.a", () => 1), tool("cv.b", () => 2)] });
        const { searchTools } = llmTools(api.createSession());
        let converted = 0;
        const flip = { [Symbol.toPrimitive]: () => (converted++ === 0 ? 1 : 1e9) };
        let r;
        try { r = await within(searchTools.execute({ query: "cv", limit: flip }), 60_000); } catch (e) { r = { threw: e.name, message: e.message }; }
        assert.notEqual(r, "hung");
        assert.ok(converted <= 1, `the limit's converter was called ${converted} times`);
        const text = JSON.stringify(r);
        if (r.threw) assert.match(r.message, /limit/);
        else assert.ok(text.length < 20_000 && (/limit/.test(text) || /cv\./.test(text)), text.slice(0, 500));
    });

    test("execute's signal as a plain object with aborted: false and an addEventListener: a TypeError naming signal, or a run that ends; the object is not called later", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const added = [];
        const fake = { aborted: false, reason: undefined, addEventListener: (...a) => added.push(a[0]), removeEventListener() {}, throwIfAborted() {} };
        let r;
        try { r = await within(run(api.createSession(), "return 7", { signal: fake }), 60_000); } catch (e) { r = { threw: e.name, message: e.message }; }
        assert.notEqual(r, "hung");
        if (r.threw) assert.ok(r.threw === "TypeError" && /signal/.test(r.message), JSON.stringify(r));
        else assert.ok(r.result === 7 || /signal/.test(r.error?.message ?? ""), JSON.stringify(r));
        await alive(api);
    });

    test("a polluted Object.prototype under worker, memoryLimit, signal, encoding, limit and wasmLocation: the page's own config holds", () => {
        const out = inChild(`
            ${POST_SPY}
            // Node makes process.stdout and stderr at their first use, from options that
            // inherit a polluted signal (its own fault, not the package's): made first.
            void process.stdout, process.stderr;
            const aborted = AbortSignal.abort(new Error("POLLUTED41"));
            // Not signal in worker mode: Node's own Worker then never runs its script.
            const pollution = { worker: ${!WORKER}, memoryLimit: 1, ${WORKER ? "" : "signal: aborted, "}encoding: "latin1", limit: 0, wasmLocation: "/nowhere.wasm", query: "zzz" };
            for (const [k, v] of Object.entries(pollution)) Object.prototype[k] = v;
            const config = { wasmLocation: ${JSON.stringify(assetPath)}, tools: [{ name: "pp.x", description: "ppword", inputSchema: { type: "object" }, execute: () => "x ran" }] };
            ${WORKER ? `Object.defineProperty(config, "worker", { value: true, enumerable: true });` : ""}
            const out = {};
            try {
                const api = await IoCodeModeFactory(config);
                const s = api.createSession();
                const tools = s.getLlmTools();
                const ex = tools.find((t) => t.name === "executeCode"), st = tools.find((t) => t.name === "searchTools");
                const r = await ex.execute({ code: "const a = []; for (let i = 0; i < 20000; i++) a.push('x'.repeat(100)); return [await tools.pp.x({}), a.length]", explanation: "x" }).then((r) => r, (e) => ({ rejected: e.message }));
                out.run = r.ok ? r.result : r.rejected ?? r.error.message;
                const found = await st.execute({ query: "ppword" }).then((r) => r, (e) => ({ rejected: e.message }));
                out.found = JSON.stringify(found).includes("pp.x");
                out.posted = posted.length > 0;
                await api.dispose();
            } catch (e) { out.factory = String(e.message); }
            process.stdout.write(JSON.stringify(out));
            process.exit(0);
        `);
        assert.deepEqual(out, { run: ["x ran", 20000], found: true, posted: WORKER });
    });
});

describe("hostile41: names with zero-width and confusable characters beside a filter", () => {
    const lookalikes = ["admin\u200b.drop", "\u0430dmin.drop", "admin\uff0edrop", "admin.drop\u0000", "admin.drop\u200d", "ADMIN.DROP", "admin..drop", " admin.drop"];

    test("registering a lookalike of a hidden tool's name: a TypeError naming the field for every non-ASCII or invalid one; none reachable", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => !x.name.startsWith("admin."), tools: [tool("admin.drop", () => "DROPPED"), tool("safe.ok", () => "ok")] });
        const registered = [];
        for (const n of lookalikes) {
            try {
                api.registerTool(tool(n, () => `look ${JSON.stringify(n)}`));
                registered.push(n);
            } catch (e) {
                assert.ok(e instanceof TypeError && /name/.test(e.message), `${JSON.stringify(n)}: ${e}`);
            }
        }
        // Only ASCII names of [A-Za-z0-9_$.-] may be registered; ADMIN.DROP is such a name and another tool.
        assert.ok(registered.every((n) => /^[A-Za-z0-9_$.-]+$/.test(n)), JSON.stringify(registered));
        const r = await within(run(api.createSession(), probe(lookalikes, "drop admin")), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        const outcomes = r.result.slice(0, -1);
        assert.ok(outcomes.every(([k, v], i) => k === "err" || (registered.includes(lookalikes[i]) && v === `look ${JSON.stringify(lookalikes[i])}`)), JSON.stringify(outcomes));
        assert.ok(!r.result.at(-1).includes("admin.drop"), JSON.stringify(r.result.at(-1)));
    });

    test("an unknown tool's error near a hidden tool's name does not name the hidden tool (no did-you-mean leak)", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => !x.name.startsWith("admin."), tools: [tool("admin.dropTable", () => "DROPPED", { description: "SECRETDESC41" }), tool("safe.ok", () => "ok")] });
        // Each: what the program calls, and whether its own text names admin.dropTable.
        const calls = [["tool_call('admin.dropTabl', {})", false], ["tool_call('admin.droptable', {})", false], ["tools.admin.dropTabl({})", false], ["tool_call('dropTable', {})", false], ["tools.admin.dropTable({})", true]];
        const r = await within(run(api.createSession(), `const out = []; for (const f of [${calls.map(([c]) => `() => ${c}`).join(", ")}]) { try { await f(); out.push("called") } catch (e) { out.push(String(e.message)) } } return out`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        r.result.forEach((m, i) => {
            assert.notEqual(m, "called", calls[i][0]);
            assert.ok(!m.includes("SECRETDESC41"), `${calls[i][0]}: ${m}`);
            if (!calls[i][1]) assert.ok(!/admin\.dropTable/.test(m), `${calls[i][0]} names the hidden tool: ${m}`);
        });
    });

    test("a session's own tool named like a hidden factory tool's lookalike: hidden by the filter as a factory tool is", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => !x.name.startsWith("admin."), tools: [tool("safe.ok", () => "ok")] });
        const s = api.createSession({ tools: [tool("admin.own", () => "OWN RAN", { description: "OWNWORD41" }), tool("safe.own", () => "own ok")] });
        const r = await within(run(s, probe(["admin.own", "safe.own"], "OWNWORD41 admin.own")), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.deepEqual(r.result, [["err", "ToolError"], ["ok", "own ok"], []]);
    });
});

describe("hostile41: many sessions", () => {
    test("5,000 sessions (500 with two own tools each), half disposed: each kept session sees its own tools only, a disposed one rejects, the factory works", async (t) => {
        const uncaught = watchUncaught(t);
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("ms.f", () => "f")] });
        const sessions = [];
        for (let i = 0; i < 5000; i++) sessions.push(i % 10 === 5 ? api.createSession({ tools: [tool(`own${i}.a`, () => i), tool(`own${i}.b`, () => -i)] }) : api.createSession());
        for (let i = 0; i < sessions.length; i += 2) sessions[i].dispose();
        const r = await within(run(sessions[4999], `return [await tools.ms.f({}), await ${callOf("tool_call('own15.a', {})")}]`), 120_000);
        assert.notEqual(r, "hung");
        assert.deepEqual(r.result, ["f", ["err", "ToolError"]]);
        const own = await within(run(sessions[4995], `return [await tools.own4995.b({}), await ${callOf("tool_call('own15.a', {})")}]`), 120_000);
        assert.deepEqual(own.result, [-4995, ["err", "ToolError"]]);
        const gone = await within((async () => run(sessions[10], "return 1"))().then((v) => v, (e) => ({ rejected: String(e?.message) })), 60_000);
        assert.ok(gone.rejected !== undefined || gone.ok === false, JSON.stringify(gone));
        await alive(api);
        assert.deepEqual(uncaught, []);
    });
});

describe("hostile41: runs inside runs, and abort signals reused", () => {
    test("a tool that runs the same session with its own call's signal: aborting the outer run ends both, no tool runs after", async (t) => {
        const uncaught = watchUncaught(t);
        let session;
        let innerStarted = false;
        let ended = false;
        const late = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [
                tool("rr.inner", async (_, { signal }) => { innerStarted = true; const r = await run(session, "await tools.rr.wait({}); return 'inner done'", { signal }).then((v) => v, (e) => ({ rejected: e?.name })); return r.rejected ?? r.result; }),
                tool("rr.wait", () => new Promise(() => {})),
                tool("rr.record", () => { if (ended) late.push(1); return 1; }),
            ],
        });
        session = api.createSession();
        const controller = new AbortController();
        const p = within(run(session, "try { return await tools.rr.inner({}) } finally { await tools.rr.record({}) }", { signal: controller.signal }).then((v) => v, (e) => ({ rejected: e?.name })), 60_000);
        await until(() => innerStarted, "the inner run");
        await sleep(100);
        controller.abort();
        const r = await p;
        ended = true;
        assert.notEqual(r, "hung");
        assert.equal(r.rejected, "AbortError", JSON.stringify(r));
        await sleep(200);
        assert.deepEqual(late, []);
        await alive(api);
        assert.deepEqual(uncaught, []);
    });

    test("a signal aborted before the run: the run rejects with its reason at once, no tool is called, the session's next run works", async (t) => {
        let ran = 0;
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("ab.x", () => ran++)] });
        const s = api.createSession();
        const reason = new Error("ABORTED41");
        const r = await within(run(s, "await tools.ab.x({}); return 1", { signal: AbortSignal.abort(reason) }).then((v) => ({ resolved: v }), (e) => e), 60_000);
        assert.notEqual(r, "hung");
        assert.equal(r, reason);
        assert.equal(ran, 0);
        const next = await within(run(s, "return await tools.ab.x({})"), 60_000);
        assert.equal(next.result, 0);
    });

    test("one signal for 20 runs in turn and 3 at once in three sessions: aborting it ends those in flight, its listeners are gone after, a later run with it rejects", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("ab.wait", () => new Promise(() => {}))] });
        const controller = new AbortController();
        const s = api.createSession();
        for (let i = 0; i < 20; i++) assert.equal((await within(run(s, `return ${i}`, { signal: controller.signal }), 60_000)).result, i);
        assert.equal(getEventListeners(controller.signal, "abort").length, 0, "listeners left by 20 ended runs");
        const inFlight = [0, 1, 2].map(() => within(run(api.createSession(), "return await tools.ab.wait({})", { signal: controller.signal }).then((v) => ({ resolved: v }), (e) => e?.name), 60_000));
        await sleep(200);
        controller.abort();
        assert.deepEqual(await Promise.all(inFlight), ["AbortError", "AbortError", "AbortError"]);
        assert.equal(getEventListeners(controller.signal, "abort").length, 0, "listeners left by aborted runs");
        const later = await within(run(s, "return 1", { signal: controller.signal }).then((v) => ({ resolved: v }), (e) => e?.name), 60_000);
        assert.equal(later, "AbortError");
        await alive(api);
    });

    test("a tool's signal kept by the page after its run ended: aborting the run's controller later fires nothing and throws nothing", async (t) => {
        const uncaught = watchUncaught(t);
        let kept;
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("ab.keep", (_, { signal }) => ((kept = signal), "kept"))] });
        const controller = new AbortController();
        const r = await within(run(api.createSession(), "return await tools.ab.keep({})", { signal: controller.signal }), 60_000);
        assert.equal(r.result, "kept");
        let fired = 0;
        kept.addEventListener("abort", () => fired++);
        const wasAborted = kept.aborted;
        controller.abort();
        await sleep(50);
        assert.equal(fired, 0, `the ended call's signal fired (aborted before: ${wasAborted})`);
        assert.deepEqual(uncaught, []);
    });
});

describe("hostile41: a schema read once at registration", () => {
    // Each row: the keyword whose getter answers first and second, and the inputs [that must pass, that must fail].
    const rows = [
        ["const", "viewer", "admin", { role: "viewer" }, { role: "admin" }],
        ["enum", ["viewer"], ["viewer", "admin"], { role: "viewer" }, { role: "admin" }],
        ["default", "d", Infinity, { role: "d" }, { role: 1 }],
    ];
    for (const [keyword, first, second, good, bad] of rows) {
        test(`a property's ${keyword} getter that answers the check one value and a later read another: read once, the value checked is the one enforced`, async (t) => {
            let reads = 0;
            const role = { type: "string" };
            Object.defineProperty(role, keyword, { enumerable: true, get: () => (reads++ === 0 ? first : second) });
            const api = await withFactory(t, { wasmLocation: assetPath });
            const got = [];
            api.registerTool(tool("sc.role", (i) => (got.push(i.role), "ran"), { inputSchema: { type: "object", properties: { role }, required: ["role"] } }));
            assert.equal(reads, 1, `the getter was read ${reads} times at registration`);
            const r = await within(run(api.createSession(), `return [await ${callOf(`tools.sc.role(${JSON.stringify(good)})`)}, await ${callOf(`tools.sc.role(${JSON.stringify(bad)})`)}]`), 60_000);
            assert.ok(r.ok, JSON.stringify(r.error));
            assert.deepEqual(r.result, [["ok", "ran"], ["err", "ValidationError"]]);
            assert.deepEqual(got, [good.role]);
            assert.equal(reads, 1);
        });
    }
});

describe("hostile41: a definition the page renames after registering it keeps the name it was registered under", () => {
    test("unregistered after a rename: its old name is free again, its new name was never taken; a session's own tool keeps its name too (both modes alike)", async (t) => {
        const uncaught = watchUncaught(t);
        const api = await withFactory(t, { wasmLocation: assetPath });
        const def = tool("rn.orig", () => "old ran");
        const off = api.registerTool(def);
        def.name = "rn.renamed";
        off();
        const outcome = (f) => { try { f(); return "registered"; } catch (e) { return `${e.name}: ${e.message}`; } };
        assert.equal(outcome(() => api.registerTool(tool("rn.orig", () => "new ran"))), "registered");
        assert.equal(outcome(() => api.registerTool(tool("rn.renamed", () => "other ran"))), "registered");
        const own = tool("rn.own", () => "own ran");
        const s = api.createSession({ tools: [own] });
        own.name = "rn.ownRenamed";
        assert.match(outcome(() => api.registerTool(tool("rn.own", () => 1))), /TypeError: tool \("rn.own"\): name: already a tool of a session/);
        assert.equal(outcome(() => api.registerTool(tool("rn.ownRenamed", () => "factory's"))), "registered");
        const r = await within(run(s, `return [await ${callOf("tools.rn.orig({})")}, await ${callOf("tools.rn.renamed({})")}, await ${callOf("tool_call('rn.own', {})")}, await ${callOf("tool_call('rn.ownRenamed', {})")}]`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.deepEqual(r.result, [["ok", "new ran"], ["ok", "other ran"], ["ok", "own ran"], ["ok", "factory's"]]);
        assert.deepEqual(uncaught, []);
    });

    test("listTools() gives copies under the registered names: a copy the page renames or loosens changes no tool; a renamed definition is listed by its registered name, or hidden by a filter (both modes alike)", async (t) => {
        const schema = { type: "object", properties: { id: { type: "integer" } }, required: ["id"] };
        const defs = [tool("lt.a", (i) => `a ${i.id}`, { inputSchema: schema, annotations: { tag: 1 } }), tool("lt.b", () => "b")];
        for (const filter of [undefined, () => true]) {
            const api = await withFactory(t, { wasmLocation: assetPath, ...(filter && { toolFilter: filter }) });
            const off = api.registerTools(defs);
            const first = api.listTools();
            assert.deepEqual(first, defs);
            assert.ok(first[0] !== defs[0] && first[1] !== defs[1], "the page's own objects");
            first[0].name = "lt.evil";
            first[0].inputSchema = {};
            defs[1].name = "lt.renamed";
            assert.deepEqual(api.listTools().map((d) => [d.name, d.inputSchema === schema, d.annotations?.tag]), filter ? [["lt.a", true, 1]] : [["lt.a", true, 1], ["lt.b", false, undefined]]);
            const r = await within(run(api.createSession(), `return [await ${callOf("tools.lt.a({ id: 'x' })")}, await ${callOf("tools.lt.a({ id: 2 })")}, await ${callOf("tool_call('lt.evil', {})")}]`), 60_000);
            assert.deepEqual(r.result, [["err", "ValidationError"], ["ok", "a 2"], ["err", "ToolError"]]);
            off();
            defs[1].name = "lt.b";
            assert.deepEqual(api.listTools(), []);
        }
    });

    // The upstream QuickJS asset has no loop checks: a program in a C
    // built-in's loop holds the worker past its timeout, and the page
    // replaces the worker, replaying the registrations and sessions.
    test("a replacement worker gets a renamed definition under its registered name (worker mode)", { skip: !WORKER && "worker mode only", timeout: 120_000 }, async (t) => {
        const upstream = new URL("../../node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm", import.meta.url).pathname;
        const api = await withFactory(t, { wasmLocation: upstream, timeout: 500 });
        const def = tool("rn.orig", () => "orig ran", { description: "RENAMEWORD41" });
        api.registerTool(def);
        const own = tool("rn.own", () => "own ran");
        const s = api.createSession({ tools: [own] });
        def.name = "rn.renamed";
        own.name = "rn.ownRenamed";
        const stuck = await within(run(s, "return Array.prototype.indexOf.call({ length: 1e15 }, 1)"), 60_000);
        assert.match(stuck.error && stuck.error.message, /worker was restarted$/, JSON.stringify(stuck));
        const r = await within(run(s, probe(["rn.orig", "rn.renamed", "rn.own", "rn.ownRenamed"], "RENAMEWORD41")), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.deepEqual(r.result, [["ok", "orig ran"], ["err", "ToolError"], ["ok", "own ran"], ["err", "ToolError"], ["rn.orig"]]);
    });
});

describe("hostile41: a session's own tool toolFilter hides stays on the page until a run shows it", () => {
    const program = `return [await ${callOf('tool_call("own41.x", { id: 1 })')}, await ${callOf('tool_call("own41.x", { id: "no" })')}, (await tool_search({ query: "OWNHIDE41", limit: 50 })).map((x) => x.name).filter((n) => n === "own41.x")]`;
    // Each row: the filter's answers for own41.x run by run, and what each run gives.
    const rows = [
        ["hidden in run 1, shown in run 2: run 2 calls it, its schema checked", [false, true], [["err", "err", []], ["ok", "err", ["own41.x"]]]],
        ["shown, hidden, shown", [true, false, true], [["ok", "err", ["own41.x"]], ["err", "err", []], ["ok", "err", ["own41.x"]]]],
        ["a filter that throws for it, then shows it", [() => { throw new Error("FILTER41"); }, true], [["err", "err", []], ["ok", "err", ["own41.x"]]]],
    ];
    for (const [name, answers, want] of rows) {
        test(name, async (t) => {
            let n = 0;
            const toolFilter = (x) => {
                if (x.name !== "own41.x") return true;
                const a = answers[Math.min(n, answers.length - 1)];
                return typeof a === "function" ? a() : a;
            };
            const api = await withFactory(t, { wasmLocation: assetPath, toolFilter });
            const s = api.createSession({ tools: [tool("own41.x", (i) => `x ${i.id}`, { description: "OWNHIDE41 gated", inputSchema: idSchema }), tool("own41.ok", () => "ok")] });
            const other = api.createSession();
            const got = [];
            for (n = 0; n < want.length; n++) {
                const r = await within(run(s, program), 60_000);
                assert.ok(r.ok, JSON.stringify(r.error));
                got.push([r.result[0][0], r.result[1][0], r.result[2]]);
                const o = await within(run(other, probe(["own41.x"], "OWNHIDE41")), 60_000);
                assert.deepEqual(o.result, [["err", "ToolError"], []], "another session reached it");
            }
            assert.deepEqual(got, want);
        });
    }

    test("what the page posts to the worker: a session's hidden tool's name and description only once a run shows it (worker mode)", { skip: !WORKER && "worker mode only" }, () => {
        const out = inChild(`
            ${POST_SPY}
            let open = false;
            const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, worker: true, toolFilter: (t) => open || !t.name.startsWith("admin.") });
            const s = api.createSession({ tools: [{ name: "t.echo", description: "echo", inputSchema: { type: "object" }, execute: () => "seen" }, { name: "admin.OWN41", description: "OWNDESC41", inputSchema: { type: "object" }, execute: () => "own" }] });
            const ex = s.getLlmTools().find((t) => t.name === "executeCode");
            const program = "const out = [await tools.t.echo({})]; try { out.push(await tool_call('admin.OW' + 'N41', {})) } catch (e) { out.push(e.name) } return out";
            const r1 = await ex.execute({ code: program, explanation: "x" });
            const words = ["OWN41", "OWNDESC41"];
            const before = words.filter((w) => posted.join("\\n").includes(w));
            open = true;
            const r2 = await ex.execute({ code: program, explanation: "x" });
            const after = words.filter((w) => posted.join("\\n").includes(w));
            open = false;
            const r3 = await ex.execute({ code: program, explanation: "x" });
            await api.dispose();
            process.stdout.write(JSON.stringify({ r1: r1.result, r2: r2.result, r3: r3.result, before, after }));
            process.exit(0);
        `);
        assert.deepEqual(out, { r1: ["seen", "ToolError"], r2: ["seen", "own"], r3: ["seen", "ToolError"], before: [], after: ["OWN41", "OWNDESC41"] });
    });
});
