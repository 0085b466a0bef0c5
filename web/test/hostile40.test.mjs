// Attempts of the fortieth session (security40), written before reading
// the code they hit: tool definitions that are getters, Proxies or objects
// the page changes after registering them, toolFilter callbacks that throw,
// change their answer or touch what they are given (and one filter shared
// by two factories), programs that flood the page with tool calls or await
// a tool after their run's timeout, tools that answer with 100 MB of bytes
// or a million keys, and runs started from inside a tool of the same
// session. Each row is what the page must get, in both engine modes
// (CODE_MODE_WORKER=1): an answer within a bound, never a hang, an
// uncaught error, a dead factory, or a tool reached that the host did not
// mean to show.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { POST_SPY, WORKER, assetPath, inChild, run, tool, until, watchUncaught, within, withFactory } from "./helpers.mjs";
import { loadAdapter } from "./adapter-helpers.mjs";
import { serverWith } from "./mcp-server.mjs";

const obj = { type: "object" };
const NAME = /^[A-Za-z0-9_$.-]{1,128}$/;

// The program's outcome of one call: ["ok", value] or ["err", name, message].
const callOf = (expr) => `try { return ["ok", await ${expr}] } catch (e) { return ["err", e.name, String(e.message).slice(0, 300)] }`;

async function alive(api) {
    const r = await within(run(api.createSession(), "return 1 + 1"), 60_000);
    assert.equal(r.ok && r.result, 2, `the factory after the row: ${JSON.stringify(r.error ?? r)}`);
}

describe("hostile40: tool definitions that are getters, Proxies, or change after registration", () => {
    test("an inputSchema whose default is a getter: read at most once, at registration; never again at a call, a search or a new session", async (t) => {
        const uncaught = watchUncaught(t);
        let reads = 0;
        const prop = { type: "string" };
        Object.defineProperty(prop, "default", { enumerable: true, get() { reads++; return "d"; } });
        const api = await withFactory(t, { wasmLocation: assetPath });
        api.registerTool(tool("g.def", (input) => input, { inputSchema: { type: "object", properties: { a: prop } } }));
        const atRegistration = reads;
        assert.ok(atRegistration <= 1, `the getter was read ${atRegistration} times at registration`);
        const s = api.createSession();
        const r = await within(run(s, `return [await tools.g.def({ a: "x" }), (await tool_search({ query: "g.def" })).map((x) => x.name)]`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.deepEqual(r.result[0], { a: "x" });
        await within(run(api.createSession(), "return await tools.g.def({})"), 60_000);
        api.listTools();
        assert.equal(reads, atRegistration, "the page's getter was read again after registration");
        assert.deepEqual(uncaught, []);
    });

    test("an inputSchema whose default getter throws: registration throws an error naming the tool, or the tool works; the page lives", async (t) => {
        const uncaught = watchUncaught(t);
        const prop = { type: "string" };
        Object.defineProperty(prop, "default", { enumerable: true, get() { throw new Error("GETTER40"); } });
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("g.ok", () => "fine")] });
        let thrown;
        try {
            api.registerTool(tool("g.bad", () => "bad ran", { inputSchema: { type: "object", properties: { a: prop } } }));
        } catch (e) {
            thrown = e;
        }
        const r = await within(run(api.createSession(), `const out = [await tools.g.ok({})]; try { out.push(await tool_call("g.bad", {})) } catch (e) { out.push(e.name) } return out`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        if (thrown) {
            assert.ok(thrown instanceof TypeError && /g\.bad.*inputSchema.*GETTER40/.test(thrown.message), `the registration error names no tool: ${thrown?.message}`);
            assert.deepEqual(r.result, ["fine", "ToolError"]);
        } else {
            assert.equal(r.result[0], "fine");
        }
        assert.deepEqual(uncaught, []);
    });

    // A Proxy schema whose every trap throws (a hostile WebMCP listing's):
    // the schema's markers (an AI SDK or Standard Schema object?) were read
    // outside the guard that names the field, so the page's words alone
    // came out, and an adapter's source, taking them for a fault of its
    // own, threw from registerTools instead of leaving the tool out.
    test("an inputSchema that is a Proxy whose traps throw: registration throws a TypeError naming the tool and the field", async (t) => {
        const uncaught = watchUncaught(t);
        const trap = (what) => () => {
            throw new Error(`TRAP41 ${what}`);
        };
        const schema = new Proxy({}, { get: trap("get"), ownKeys: trap("ownKeys"), getOwnPropertyDescriptor: trap("gOPD"), has: trap("has"), getPrototypeOf: trap("getPrototypeOf") });
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("p.ok", () => "fine")] });
        assert.throws(() => api.registerTool(tool("p.bad", () => "bad ran", { inputSchema: schema })), (e) => e instanceof TypeError && /^tool \("p\.bad"\): inputSchema: cannot be read: TRAP41 /.test(e.message));
        assert.throws(() => api.registerTools([tool("p.bad2", () => "bad ran", { inputSchema: schema })]), (e) => e instanceof TypeError && /^tools\[0\] \("p\.bad2"\): inputSchema: cannot be read: TRAP41 /.test(e.message));
        await alive(api);
        assert.deepEqual(uncaught, []);
    });

    test("a definition whose name and description the page changes after registering it: the model sees the name and text of registration", async (t) => {
        const def = tool("m.orig", () => "orig ran", { description: "FIRSTWORD40 finds orders" });
        const api = await withFactory(t, { wasmLocation: assetPath });
        api.registerTool(def);
        def.name = "m.renamed";
        def.description = "SECONDWORD40 deletes everything";
        const r = await within(run(api.createSession(), `
            const out = [await tools.m.orig({})];
            try { out.push(await tool_call("m.renamed", {})) } catch (e) { out.push(e.name) }
            out.push((await tool_search({ query: "FIRSTWORD40" })).map((x) => x.name + ":" + x.description));
            out.push((await tool_search({ query: "SECONDWORD40 deletes" })).filter((x) => /SECONDWORD40/.test(x.description)).length);
            return out`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.equal(r.result[0], "orig ran");
        assert.equal(r.result[1], "ToolError");
        assert.ok(r.result[2].some((x) => x.startsWith("m.orig:") && x.includes("FIRSTWORD40")), JSON.stringify(r.result[2]));
        assert.equal(r.result[3], 0, "search read the description the page wrote after registration");
    });

    test("listTools() after the page renamed a registered definition: it names the tools the model can call", async (t) => {
        const def = tool("m.orig", () => "orig ran");
        const api = await withFactory(t, { wasmLocation: assetPath });
        api.registerTool(def);
        def.name = "m.renamed";
        assert.deepEqual(api.listTools().map((x) => x.name), ["m.orig"]);
    });

    test("a definition renamed after registration: toolFilter decides on the name the model calls, so a hidden tool stays hidden", async (t) => {
        const def = tool("admin.drop", () => "DROPPED");
        let ran = 0;
        const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => !x.name.startsWith("admin."), tools: [tool("safe.ok", () => (ran++, "ok"))] });
        api.registerTool(def);
        def.name = "safe.drop";
        const r = await within(run(api.createSession(), `const out = []; for (const n of ["admin.drop", "safe.drop", "safe.ok"]) { try { out.push(await tool_call(n, {})) } catch (e) { out.push(e.name) } } out.push((await tool_search({ query: "drop" })).map((x) => x.name)); return out`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.deepEqual(r.result.slice(0, 3), ["ToolError", "ToolError", "ok"]);
        assert.deepEqual(r.result[3].filter((n) => /drop/.test(n)), []);
    });

    test("an inputSchema the page loosens after registering it (before the first call): the schema of registration is enforced", async (t) => {
        const schema = { type: "object", properties: { id: { type: "integer" } }, required: ["id"], additionalProperties: false };
        const api = await withFactory(t, { wasmLocation: assetPath });
        let ran = 0;
        api.registerTool(tool("m.strict", () => (ran++, "ran"), { inputSchema: schema }));
        schema.required = [];
        schema.additionalProperties = true;
        schema.properties.id.type = "string";
        const r = await within(run(api.createSession(), `const out = []; for (const i of [{}, { id: "x" }, { id: 1, extra: 1 }, { id: 1 }]) { try { out.push(await tools.m.strict(i)) } catch (e) { out.push(e.name) } } return out`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.deepEqual(r.result, ["ValidationError", "ValidationError", "ValidationError", "ran"]);
        assert.equal(ran, 1);
    });

    test("a name getter that answers a valid name at its first read and another after: one name is registered, valid and callable", async (t) => {
        const uncaught = watchUncaught(t);
        const api = await withFactory(t, { wasmLocation: assetPath });
        let reads = 0;
        const def = { description: "flip", inputSchema: obj, execute: () => "flip ran" };
        Object.defineProperty(def, "name", { enumerable: true, get() { return reads++ === 0 ? "f.first" : "bad name\u0000<script>"; } });
        try {
            api.registerTool(def);
        } catch (e) {
            assert.ok(e instanceof TypeError, String(e));
        }
        const r = await within(run(api.createSession(), `return (await tool_search({ query: "flip" })).map((x) => x.name)`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.ok(r.result.every((n) => NAME.test(n)), JSON.stringify(r.result));
        if (r.result.includes("f.first")) assert.deepEqual((await run(api.createSession(), callOf("tools.f.first({})"))).result, ["ok", "flip ran"]);
        assert.deepEqual(uncaught, []);
    });

    test("a Proxy definition: registration reads each field at most once (what is checked is what is kept)", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const reads = {};
        const target = { name: "p.once", description: "proxied", inputSchema: { type: "object" }, execute: () => "proxy ran" };
        const def = new Proxy(target, { get(o, k, r) { if (typeof k === "string") reads[k] = (reads[k] ?? 0) + 1; return Reflect.get(o, k, r); } });
        api.registerTool(def);
        const many = Object.entries(reads).filter(([k, n]) => n > 1 && ["name", "description", "inputSchema", "outputSchema", "annotations"].includes(k));
        assert.deepEqual(many, [], `fields read more than once: ${JSON.stringify(reads)}`);
        assert.deepEqual((await run(api.createSession(), callOf("tools.p.once({})"))).result, ["ok", "proxy ran"]);
    });
});

describe("hostile40: toolFilter callbacks that throw, change their answer or touch what they get", () => {
    test("a toolFilter that throws for one tool: that tool is hidden (not callable, not found), the others work", async (t) => {
        const uncaught = watchUncaught(t);
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            toolFilter: (x) => { if (x.name === "f.boom") throw new Error("FILTER40"); return true; },
            tools: [tool("f.boom", () => "boom ran", { description: "boomword40" }), tool("f.ok", () => "ok ran")],
        });
        const r = await within(run(api.createSession(), `const out = []; try { out.push(await tools.f.boom({})) } catch (e) { out.push(e.name) } out.push(await tools.f.ok({})); out.push((await tool_search({ query: "boomword40 f.boom" })).map((x) => x.name)); return out`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.deepEqual(r.result, ["ToolError", "ok ran", r.result[2].filter((n) => n !== "f.boom")]);
        assert.deepEqual(uncaught, []);
    });

    // Its write of execute is the page's own: a tool's execute is called
    // as the definition has it at the call, in both modes.
    test("a toolFilter that writes to the tool it gets (inputSchema, description): the registered tool stays as registered", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            toolFilter: (x) => {
                for (const [k, v] of [["inputSchema", {}], ["description", "rewritten"]]) {
                    try { x[k] = v; } catch {}
                }
                try { if (x.inputSchema && typeof x.inputSchema === "object") x.inputSchema.required = []; } catch {}
                return true;
            },
            tools: [tool("w.kept", (i) => `kept ${i.id}`, { inputSchema: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] } })],
        });
        const s = api.createSession();
        const r = await within(run(s, `const out = []; for (const f of [() => tools.w.kept({ id: 1 }), () => tools.w.kept({}), () => tool_call("w.evil", { id: 1 })]) { try { out.push(await f()) } catch (e) { out.push(e.name) } } return out`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.deepEqual(r.result, ["kept 1", "ValidationError", "ToolError"]);
        const again = await within(run(s, callOf("tools.w.kept({ id: 2 })")), 60_000);
        assert.deepEqual(again.result, ["ok", "kept 2"]);
    });

    test("a toolFilter that renames the tool it gets: hidden (the filter judged another name), in both modes", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            toolFilter: (x) => { if (x.name === "w.renamed") x.name = "w.other"; return true; },
            tools: [tool("w.renamed", () => "renamed ran"), tool("w.ok", () => "ok")],
        });
        const r = await within(run(api.createSession(), `const out = []; for (const n of ["w.renamed", "w.other", "w.ok"]) { try { out.push(await tool_call(n, {})) } catch (e) { out.push(e.name) } } return out`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.deepEqual(r.result, ["ToolError", "ToolError", "ok"]);
        assert.deepEqual(api.listTools().map((x) => x.name), ["w.ok"]);
    });

    test("two factories sharing one toolFilter closure: each run sees its own factory's tools only, with the answer of its own run", async (t) => {
        let open = true;
        const asked = [];
        const toolFilter = (x) => (asked.push(x.name), x.name.endsWith(".always") || open);
        const a = await withFactory(t, { wasmLocation: assetPath, toolFilter, tools: [tool("a.always", () => "a"), tool("a.gated", () => "a gated")] });
        const b = await withFactory(t, { wasmLocation: assetPath, toolFilter, tools: [tool("b.always", () => "b"), tool("b.gated", () => "b gated")] });
        const sb = b.createSession({ tools: [tool("bs.always", () => "b session")] });
        const program = (mine, theirs) => `const out = []; for (const n of ${JSON.stringify([...mine, ...theirs])}) { try { out.push(await tool_call(n, {})) } catch (e) { out.push(e.name) } } out.push((await tool_search({ query: "always gated session" })).map((x) => x.name).sort()); return out`;
        const [ra, rb] = await Promise.all([
            within(run(a.createSession(), program(["a.always", "a.gated"], ["b.always", "bs.always"])), 60_000),
            within(run(sb, program(["b.always", "b.gated", "bs.always"], ["a.always"])), 60_000),
        ]);
        assert.ok(ra.ok && rb.ok, JSON.stringify([ra.error, rb.error]));
        assert.deepEqual(ra.result.slice(0, 4), ["a", "a gated", "ToolError", "ToolError"]);
        assert.ok(ra.result[4].every((n) => n.startsWith("a.")), JSON.stringify(ra.result[4]));
        assert.deepEqual(rb.result.slice(0, 4), ["b", "b gated", "b session", "ToolError"]);
        assert.ok(rb.result[4].every((n) => n.startsWith("b")), JSON.stringify(rb.result[4]));
        open = false;
        const ra2 = await within(run(a.createSession(), program(["a.always", "a.gated"], [])), 60_000);
        const rb2 = await within(run(sb, program(["b.always", "b.gated"], [])), 60_000);
        assert.deepEqual(ra2.result.slice(0, 2), ["a", "ToolError"]);
        assert.deepEqual(rb2.result.slice(0, 2), ["b", "ToolError"]);
        assert.ok(!ra2.result[2].includes("a.gated") && !rb2.result[2].includes("b.gated"), JSON.stringify([ra2.result[2], rb2.result[2]]));
        assert.ok(asked.length > 0);
    });
});

describe("hostile40: a tool toolFilter hides stays on the page until a run shows it", () => {
    // Each row: the filter's answers for hide40.x run by run (a function: what it does), and what each run gives.
    const program = `const out = []; for (const i of [{ id: 1 }, { id: "no" }]) { try { out.push(await tool_call("hide40.x", i)) } catch (e) { out.push(e.name) } } out.push((await tool_search({ query: "HIDEWORD40" })).map((x) => x.name).filter((n) => n === "hide40.x")); return out`;
    const rows = [
        ["hidden in run 1, shown in run 2: run 2 calls it, its schema checked", [false, true], [["ToolError", "ToolError", []], ["x 1", "ValidationError", ["hide40.x"]]]],
        ["shown in run 1, hidden in run 2: run 2 neither calls nor finds it", [true, false], [["x 1", "ValidationError", ["hide40.x"]], ["ToolError", "ToolError", []]]],
        ["hidden, shown, hidden, shown", [false, true, false, true], [["ToolError", "ToolError", []], ["x 1", "ValidationError", ["hide40.x"]], ["ToolError", "ToolError", []], ["x 1", "ValidationError", ["hide40.x"]]]],
        ["a filter that throws for it, then shows it", [(() => { throw new Error("FILTER40"); }), true], [["ToolError", "ToolError", []], ["x 1", "ValidationError", ["hide40.x"]]]],
    ];
    for (const [name, answers, want] of rows) {
        for (const how of ["registerTool", "config.tools"]) {
            test(`${name} (${how})`, async (t) => {
                let n = 0;
                const toolFilter = (x) => {
                    if (x.name !== "hide40.x") return true;
                    const a = answers[Math.min(n, answers.length - 1)];
                    return typeof a === "function" ? a() : a;
                };
                const def = tool("hide40.x", (i) => `x ${i.id}`, { description: "HIDEWORD40 gated", inputSchema: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] } });
                const api = await withFactory(t, { wasmLocation: assetPath, toolFilter, tools: how === "config.tools" ? [def, tool("hide40.ok", () => "ok")] : [tool("hide40.ok", () => "ok")] });
                if (how === "registerTool") api.registerTool(def);
                const s = api.createSession();
                const got = [];
                for (n = 0; n < want.length; n++) {
                    const r = await within(run(s, program), 60_000);
                    assert.ok(r.ok, JSON.stringify(r.error));
                    got.push(r.result);
                }
                assert.deepEqual(got, want);
            });
        }
    }

    test("what the page posts to the worker: a hidden tool's name and description only once a run shows it, never after an unregistration", { skip: !WORKER && "worker mode only" }, () => {
        const out = inChild(`
            ${POST_SPY}
            let open = false;
            const api = await IoCodeModeFactory({
                wasmLocation: ${JSON.stringify(assetPath)}, worker: true,
                toolFilter: (t) => open || !t.name.startsWith("admin."),
                tools: [{ name: "t.echo", description: "echo", inputSchema: { type: "object" }, execute: () => "seen" }, { name: "admin.CFG40", description: "CFGDESC40", inputSchema: { type: "object" }, execute: () => "cfg" }],
            });
            api.registerTool({ name: "admin.LATE40", description: "LATEDESC40", inputSchema: { type: "object" }, execute: () => "late" });
            const off = api.registerTool({ name: "admin.GONE40", description: "GONEDESC40", inputSchema: { type: "object" }, execute: () => "gone" });
            const ex = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
            const program = "const out = []; for (const n of ['admin.CF' + 'G40', 'admin.LA' + 'TE40', 'admin.GO' + 'NE40']) { try { out.push(await tool_call(n, {})) } catch (e) { out.push(e.name) } } return out";
            const r1 = await ex.execute({ code: program, explanation: "x" });
            const words = ["CFG40", "CFGDESC40", "LATE40", "LATEDESC40", "GONE40", "GONEDESC40"];
            const before = words.filter((w) => posted.join("\\n").includes(w));
            off();
            open = true;
            const r2 = await ex.execute({ code: program, explanation: "x" });
            const after = words.filter((w) => posted.join("\\n").includes(w));
            await api.dispose();
            process.stdout.write(JSON.stringify({ r1: r1.result, r2: r2.result, before, after }));
            process.exit(0);
        `);
        assert.deepEqual(out.r1, ["ToolError", "ToolError", "ToolError"]);
        assert.deepEqual(out.before, []);
        assert.deepEqual(out.r2, ["cfg", "late", "ToolError"]);
        assert.deepEqual(out.after, ["CFG40", "CFGDESC40", "LATE40", "LATEDESC40"]);
    });
});

describe("hostile40: programs that flood the page, tools that answer with too much, runs inside runs", () => {
    test("100,000 tool calls in one Promise.all: the run ends (a limit or its result), the page lives, at most maxToolCalls run", async (t) => {
        const uncaught = watchUncaught(t);
        let calls = 0;
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 32, timeout: 60_000, maxToolCalls: 50_000, tools: [tool("c.inc", () => ++calls)] });
        const r = await within(run(api.createSession(), "const ps = []; for (let i = 0; i < 100000; i++) ps.push(tools.c.inc({})); const v = await Promise.all(ps); return v.length"), 180_000);
        assert.notEqual(r, "hung");
        assert.ok(r.ok || ["TOOL_LIMIT", "MEMORY_LIMIT", "TIMEOUT", "RUNTIME"].includes(r.error.code), JSON.stringify(r.error));
        if (!r.ok) assert.match(r.error.message, /limit|memory|tool calls|50,?000|timed out|did not finish/i);
        assert.ok(calls <= 50_000, `${calls} tool calls ran`);
        assert.ok(r.toolCalls.length <= 50_001, `${r.toolCalls.length} call records`);
        await alive(api);
        assert.deepEqual(uncaught, []);
    });

    // Each row: [name, what the tool returns].
    const huge = [
        ["a 100 MB ArrayBuffer", () => new ArrayBuffer(100 << 20)],
        ["a 100 MB Uint8Array", () => new Uint8Array(100 << 20)],
        ["a 100 MB Float64Array view", () => new Float64Array(new ArrayBuffer(100 << 20))],
        ["an object of 1,000,000 keys", () => { const o = {}; for (let i = 0; i < 1_000_000; i++) o["k" + i] = i; return o; }],
        ["a toJSON that answers a fresh object with a toJSON, without end", () => { const mk = (n) => ({ n, toJSON: () => ({ n, next: mk(n + 1) }) }); return mk(0); }],
        ["a Proxy whose ownKeys answers 1,000,000 keys", () => new Proxy({}, { ownKeys: () => Array.from({ length: 1_000_000 }, (_, i) => "k" + i), getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }), get: (_, k) => (k === "then" ? undefined : 1) })],
    ];
    for (const [name, make] of huge) {
        test(`a tool returning ${name}: the call settles as data or a bounded error, the next call works`, async (t) => {
            const uncaught = watchUncaught(t);
            const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 64, timeout: 60_000, tools: [tool("h.big", make), tool("h.ok", () => "fine")] });
            const r = await within(run(api.createSession(), `let o; try { const v = await tools.h.big({}); o = ["ok", typeof v, v && typeof v === "object" ? Object.keys(v).length : String(v).length] } catch (e) { o = ["err", e.name, String(e.message)] } return [o, await tools.h.ok({})]`), 180_000);
            assert.notEqual(r, "hung", name);
            if (r.ok) {
                const [o, after] = r.result;
                assert.equal(after, "fine");
                if (o[0] === "err") assert.ok(o[2].length <= 1200, `${name}: an error of ${o[2].length} characters`);
            } else {
                assert.ok(["MEMORY_LIMIT", "TIMEOUT", "RESULT_NOT_SERIALIZABLE", "RUNTIME"].includes(r.error.code) && r.error.message.length <= 2000, `${name}: ${r.error.code} ${r.error.message.slice(0, 300)}`);
            }
            await alive(api);
            assert.deepEqual(uncaught, []);
        });
    }

    test("a program that awaits a tool in finally after its run's timeout: the tool is not called after the run ended", async (t) => {
        const late = [];
        let ended = false;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 1500,
            tools: [tool("z.never", () => new Promise(() => {})), tool("z.record", (i) => { if (ended) late.push(i.from); return "recorded"; })],
        });
        const s = api.createSession();
        for (const [from, code] of [
            ["await", "try { await tools.z.never({}) } finally { await tools.z.record({ from: 'await' }) }"],
            ["loop", "try { for (;;) {} } finally { await tools.z.record({ from: 'loop' }) }"],
            ["timer", "setTimeout(() => tools.z.record({ from: 'timer' }), 1400); try { await tools.z.never({}) } finally { await new Promise((r) => setTimeout(r, 200)); await tools.z.record({ from: 'timer-finally' }) }"],
        ]) {
            ended = false;
            const r = await within(run(s, code), 60_000);
            ended = true;
            assert.notEqual(r, "hung", from);
            assert.equal(r.ok, false, from);
            assert.equal(r.error.code, "TIMEOUT", `${from}: ${r.error.message}`);
        }
        await new Promise((r) => setTimeout(r, 500));
        assert.deepEqual(late, [], "a tool ran after its run ended");
        await alive(api);
    });

    test("a tool's execute that runs a program in its own session and awaits it: both runs end, within a bound", async (t) => {
        const uncaught = watchUncaught(t);
        let session;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 30_000,
            tools: [
                tool("r.inner", async () => { const r = await run(session, "return 40 + 2"); return r.ok ? r.result : `inner ${r.error.code}`; }),
                tool("r.deep", async (i) => { if (i.n <= 0) return "bottom"; const r = await run(session, `return await tools.r.deep({ n: ${i.n - 1} })`); return r.ok ? r.result : `inner ${r.error.code}`; }, { inputSchema: { type: "object", properties: { n: { type: "integer" } } } }),
            ],
        });
        session = api.createSession();
        const r = await within(run(session, "return await tools.r.inner({})"), 60_000);
        assert.notEqual(r, "hung");
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.ok(r.result === 42 || /^inner /.test(r.result), JSON.stringify(r.result));
        const d = await within(run(session, "return await tools.r.deep({ n: 8 })"), 120_000);
        assert.notEqual(d, "hung");
        assert.ok(d.ok ? d.result === "bottom" || /^inner /.test(d.result) : d.error.message.length < 2000, JSON.stringify(d.error ?? d.result));
        await alive(api);
        assert.deepEqual(uncaught, []);
    });

    test("a tool's execute that disposes the session calling it: the run settles with an error, the factory works", async (t) => {
        const uncaught = watchUncaught(t);
        let session;
        let after = 0;
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("d.kill", () => (session.dispose(), "killed")), tool("d.after", () => (after++, "after"))] });
        session = api.createSession();
        const r = await within(run(session, "const a = await tools.d.kill({}); await tools.d.after({}); return a").then((v) => v, (e) => ({ rejected: e?.message })), 60_000);
        assert.notEqual(r, "hung");
        assert.ok(r.rejected !== undefined || r.ok === false, JSON.stringify(r));
        assert.equal(after, 0, "a tool ran after its session was disposed");
        await alive(api);
        assert.deepEqual(uncaught, []);
    });

    test("onToolCall's replacement input with a getter that answers a valid value first and another later: execute gets the value the schema checked", async (t) => {
        const got = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: {
                onToolCall: () => {
                    let reads = 0;
                    const input = {};
                    Object.defineProperty(input, "role", { enumerable: true, get() { return reads++ === 0 ? "viewer" : "admin"; } });
                    return { allowed: true, input };
                },
            },
            tools: [tool("i.set", (i) => (got.push(i.role), i.role), { inputSchema: { type: "object", properties: { role: { const: "viewer" } }, required: ["role"] } })],
        });
        const r = await within(run(api.createSession(), callOf("tools.i.set({ role: 'viewer' })")), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.ok(got.every((v) => v === "viewer"), `execute got ${JSON.stringify(got)}`);
    });

    test("tool_search with a 10 MB query and a 1,000,000-word query: each settles, the next run works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 60_000, tools: [tool("q.one", () => 1)] });
        for (const q of ["'q'.repeat(10_000_000)", "Array.from({ length: 1_000_000 }, (_, i) => 'w' + i).join(' ')"]) {
            const r = await within(run(api.createSession(), `try { return (await tool_search({ query: ${q} })).length } catch (e) { return e.name + ": " + String(e.message).slice(0, 200) }`), 180_000);
            assert.notEqual(r, "hung", q);
            assert.ok(r.ok || ["MEMORY_LIMIT", "TIMEOUT"].includes(r.error.code), JSON.stringify(r.error));
        }
        await alive(api);
    });
});

describe("hostile40: an MCP server that floods notifications/tools/list_changed", () => {
    // hostile39: 10,000 notifications during a call made 1,669 listings.
    for (const n of [10_000, 100]) {
        test(`${n} list_changed in a burst during a call: at most 2 listings more, and the catalog is the server's last`, async (t) => {
            const uncaught = watchUncaught(t);
            let version = 0;
            let lists = 0;
            const { client } = await serverWith("flood", () => (lists++, { tools: [{ name: `v${version}`, inputSchema: obj }, { name: "burst", inputSchema: obj }] }), async (req, ctx) => {
                for (let i = 0; i < n; i++) {
                    version++;
                    await ctx.mcpReq.notify({ method: "notifications/tools/list_changed" });
                }
                return { content: [{ type: "text", text: "burst done" }] };
            });
            t.after(() => client.close());
            const mcp = await loadAdapter("mcp");
            const source = await mcp.fromMcpClient(client);
            t.after(() => source.close());
            const api = await withFactory(t, { wasmLocation: assetPath, timeout: 60_000 });
            source.registerTools(api);
            const before = lists;
            const r = await within(run(api.createSession(), "return await tools.flood.burst({})"), 120_000);
            assert.equal(r.ok && r.result, "burst done", JSON.stringify(r.error));
            await until(() => source.tools.some((x) => x.name.endsWith(`v${n}`)), `the catalog of version ${n}`);
            // Settled: no listing left to come.
            await new Promise((res) => setTimeout(res, 200));
            assert.ok(lists - before <= 2, `the burst listed the tools ${lists - before} times`);
            assert.deepEqual(source.tools.map((x) => x.name.replace(/^flood\./, "")).sort(), ["burst", `v${n}`].sort());
            assert.deepEqual(uncaught, []);
        });
    }
});
