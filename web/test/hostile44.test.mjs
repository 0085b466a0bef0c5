// Attempts of the forty-fourth session (security44), written before reading
// the code they hit: a block comment opened mid-line (after a name, a
// number, a string, a regexp) that holds a fenced block; prose with a glob
// ("src/*.js") before a fenced program; worker mode's instruction after the
// filter's answers change or a tool leaves; and what a program, a hostile
// host value or a hostile catalog would try that no earlier row covers:
// tool results whose getters, Proxies, toJSON or Symbol.toPrimitive answer
// one thing to the check and another later, prototype keys, one session's
// (or one user's) search, schema and namespace answers seen by another,
// hostile MCP server names, interceptor bypass through aliases, Reflect and
// Function.prototype tricks, retries and names or inputs that change
// between reads, approvals that arrive after their run, huge and sparse
// values at the boundary, callbacks a run leaves, console floods. Each row
// is what the page must get, in both engine modes (CODE_MODE_WORKER=1).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, llmTools, run, sleep, tool, until, watchUncaught, within, withFactory } from "./helpers.mjs";
import { loadAdapter } from "./adapter-helpers.mjs";
import { alive, allAsWritten, executeFactory, fenced, INNER } from "./hostile-factory.mjs";
import { serverWith } from "./mcp-server.mjs";

const settled = (p) => Promise.resolve(p).then((v) => ({ resolved: v }), (e) => ({ rejected: e }));

describe("hostile44: a block comment opened mid-line, and prose with a glob", { timeout: 600_000 }, () => {
    test("a /* opened after a name, a number, a string, a regexp, ] or ++ holding a fenced block on lines of its own: the program runs as written, the comment's code never", async (t) => {
        const { s, wiped, sent } = await executeFactory(t);
        const { executeCode } = llmTools(s);
        // Each line ends a statement without a semicolon: the comment, which
        // holds line breaks, ends it (ASI).
        const before = [
            "let x = 1",
            "let x = 0x1f",
            "let x = 1.5e3",
            "let x = 10n",
            'const who = "a note"',
            "const who = 'a note'",
            "const who = `a note`",
            "let y = Math.PI",
            "let y = globalThis",
            "let a = [1, 2]",
            "let n = 1; n++",
            "const re = /note/g",
            "let b = true",
            "let b = null",
            "let z = 1/*a*/ + 2",
            "let z = 1",
        ];
        const codes = fenced.flatMap(([open, close]) => before.map((line, i) => `${line}${i === before.length - 1 ? "/*" : " /* the mail says:"}\n${open}${INNER}${close}\n*/\nreturn await tools.mail.send({ body: "a note" });`));
        await allAsWritten(executeCode, codes, { wiped, sent });
    });

    test("prose with globs and paths (src/*.js, lib/*/x.ts, /var/log/*.log) before a fenced program: the fenced program runs", async (t) => {
        const { s, wiped, sent } = await executeFactory(t);
        const { executeCode } = llmTools(s);
        const prog = 'return await tools.mail.send({ body: "a note" });';
        const texts = [
            `Update every file under src/*.js first.\n\n\`\`\`js\n${prog}\n\`\`\``,
            `Globs: src/*.js and lib/**/*.ts\n\`\`\`js\n${prog}\n\`\`\``,
            `I read the logs (see /var/log/*.log):\n\`\`\`javascript\n${prog}\n\`\`\`\nDone.`,
            `Files like src/*.js:\n\`\`\`js\n${prog}\n\`\`\`\nand test/*/spec.js are skipped.`,
            `The pattern a /* b is not a comment here.\n\`\`\`js\n${prog}\n\`\`\``,
            `Step 1 /* draft:\n\n\`\`\`js\n${prog}\n\`\`\``,
        ];
        await allAsWritten(executeCode, texts, { wiped, sent });
    });

    test("executeCode's explanation holding a fenced program: never run, with or without code", async (t) => {
        const { s, wiped } = await executeFactory(t);
        const { executeCode } = llmTools(s);
        const fence = "```js\n" + INNER + "\n```";
        for (const args of [{ code: "return 1", explanation: fence }, { explanation: fence }, { code: "", explanation: fence }, { code: "return 1", explanation: INNER }]) {
            const r = await within(executeCode.execute(args), 60_000);
            assert.notEqual(r, "hung");
            assert.ok(!(r.ok && r.result === "INJECTED"), JSON.stringify(r).slice(0, 200));
        }
        assert.deepEqual(wiped, []);
    });
});

// What the model may be told after a tool is hidden or leaves.
const leakIn = (text) => /vault\.|openSafe|VAULTDESC44/.test(text);

describe("hostile44: the instruction after the filter's answers change or a tool leaves", { timeout: 600_000 }, () => {
    test("a tool the filter hides after the instruction was made: getSystemInstruction(), the LLM tools' descriptions and a new session's instruction name neither it nor its words; no run calls it", async (t) => {
        let hide = false;
        const ran = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            toolFilter: (x) => !(hide && x.name.startsWith("vault.")),
            tools: [tool("orders.get", () => "order"), tool("vault.openSafe", () => (ran.push(1), "SAFE"), { description: "VAULTDESC44 opens the safe and reads its codes" })],
        });
        const s = api.createSession();
        await api.ready();
        assert.ok(leakIn(s.getSystemInstruction()), "precondition: the shown tool is in the instruction");
        const first = await run(s, "return 1");
        assert.equal(first.result, 1);
        await api.ready();
        hide = true; // the user signs out
        const leaks = [];
        const check = (what, text) => leakIn(text) && leaks.push(`${what}: ${text.slice(Math.max(0, text.search(/vault|VAULT/) - 60), text.search(/vault|VAULT/) + 80)}`);
        check("getSystemInstruction()", s.getSystemInstruction());
        check("getLlmTools()", JSON.stringify(s.getLlmTools().map((x) => [x.name, x.description, x.inputSchema])));
        const s2 = api.createSession();
        check("a new session's getSystemInstruction()", s2.getSystemInstruction());
        check("listTools()", JSON.stringify(api.listTools().map((d) => d.name)));
        const r = await run(s, `const out = []; try { out.push(await tools.vault.openSafe({})) } catch (e) { out.push(e.name) } try { out.push(await tool_call("vault.openSafe", {})) } catch (e) { out.push(e.name) } out.push(JSON.stringify(await tool_search({ query: "safe codes" }))); return out`);
        check("a run", JSON.stringify(r.result ?? r.error));
        await api.ready();
        check("getSystemInstruction() after a run", s.getSystemInstruction());
        assert.deepEqual(ran, []);
        assert.deepEqual(leaks, [], `the hidden tool named to the model:\n${leaks.join("\n")}`);
    });

    test("a tool unregistered after the instruction was made: getSystemInstruction() at once, and a new session's, no longer name it", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("orders.get", () => "order")] });
        const unregister = api.registerTool(tool("vault.openSafe", () => "SAFE", { description: "VAULTDESC44 opens the safe" }));
        const s = api.createSession();
        await api.ready();
        assert.equal((await run(s, "return 1")).result, 1);
        await api.ready();
        assert.ok(leakIn(s.getSystemInstruction()), "precondition: the tool is in the instruction");
        unregister();
        const stale = [];
        if (leakIn(s.getSystemInstruction())) stale.push("getSystemInstruction()");
        if (leakIn(JSON.stringify(s.getLlmTools().map((x) => x.description)))) stale.push("getLlmTools()");
        if (leakIn(api.createSession().getSystemInstruction())) stale.push("a new session's getSystemInstruction()");
        assert.deepEqual(stale, [], "an unregistered tool still named");
    });

    test("a session's own tool the filter hides after its session's instruction was made: neither that session's instruction nor its LLM tools name it", async (t) => {
        let hide = false;
        const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => !(hide && x.name.startsWith("vault.")), tools: [tool("orders.get", () => "order")] });
        const s = api.createSession({ tools: [tool("vault.openSafe", () => "SAFE", { description: "VAULTDESC44 opens the safe" })] });
        await api.ready();
        assert.equal((await run(s, "return 1")).result, 1);
        await api.ready();
        assert.ok(leakIn(s.getSystemInstruction()), "precondition");
        hide = true;
        assert.ok(!leakIn(s.getSystemInstruction()), "the session's hidden own tool is still named");
        assert.ok(!leakIn(JSON.stringify(s.getLlmTools().map((x) => x.description))), "the session's hidden own tool is still in a description");
    });
});

describe("hostile44: what one user or session was shown is not shown to another", { timeout: 600_000 }, () => {
    test("searches made while the filter showed admin tools (warm answers, inferred result types) answer nothing of them once it hides them, in the same session and a new one", async (t) => {
        const catalog = () => [
            tool("orders.get", () => ({ id: "o1" }), { description: "Get an order" }),
            tool("vault.openSafe", () => ({ safeCode44: "1234" }), { description: "VAULTDESC44 opens the safe and reads its codes", inputSchema: { type: "object", properties: { vaultPin44: { type: "string" } } } }),
            tool("vault.listCodes", () => ["c"], { description: "VAULTDESC44 lists the safe's codes" }),
        ];
        let admin = true;
        const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => admin || !x.name.startsWith("vault."), tools: catalog() });
        // The answers of a factory whose filter never showed them.
        const never = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => !x.name.startsWith("vault."), tools: catalog() });
        const asks = [{ query: "safe codes" }, { query: "vault" }, { namespace: "vault" }, { name: "vault.openSafe" }, { query: "" }, { query: "VAULTDESC44" }];
        const a = api.createSession();
        for (const q of asks) await llmTools(a).searchTools.execute(q);
        const warm = await run(a, `await tools.vault.openSafe({}); await tools.vault.openSafe({}); return JSON.stringify(await tool_search({ query: "safe codes" }))`);
        assert.match(warm.result ?? "", /vault\.openSafe/, "precondition: the admin finds the tool");
        admin = false;
        const probe = `const out = []; for (const q of ${JSON.stringify(asks)}) out.push(JSON.stringify(await tool_search(q).catch((e) => e.message))); out.push(typeof tools.vault, Object.keys(tools).join()); return out.join("\\n")`;
        const answers = async (s) => {
            const out = [];
            for (const q of asks) out.push(JSON.stringify(await llmTools(s).searchTools.execute(q)));
            const r = await run(s, probe);
            out.push(JSON.stringify(r.result ?? r.error));
            return out;
        };
        const want = await answers(never.createSession());
        const leaks = [];
        for (const [who, s] of [["the same session", a], ["a new session", api.createSession()]]) {
            const got = await answers(s);
            for (let i = 0; i < got.length; i++) {
                const what = `${who}: ${i < asks.length ? `searchTools(${JSON.stringify(asks[i])})` : "a run"}`;
                if (got[i] !== want[i] || /VAULTDESC44|safeCode44|vaultPin44/.test(got[i])) leaks.push(`${what}:\n  got:  ${got[i].slice(0, 300)}\n  want: ${want[i].slice(0, 300)}`);
            }
        }
        assert.deepEqual(leaks, [], `what the admin was shown, shown after sign-out:\n${leaks.join("\n")}`);
    });

    test("two sessions' own tools of one name: one session's description, schema, inferred result type and namespace count never appear in the other's instruction or search", async (t) => {
        const own = (tag, extra) =>
            tool("crm.lookup", () => ({ [`${tag}Secret44`]: 1 }), { description: `${tag.toUpperCase()}DESC44 looks a customer up`, inputSchema: { type: "object", properties: { [`${tag}Key44`]: { type: "string" } } }, ...extra });
        const others = Array.from({ length: 6 }, (_, i) => tool(`crm.alphaOnly${i}`, () => i, { description: `ALPHADESC44 helper ${i}` }));
        const x = await withFactory(t, { wasmLocation: assetPath, tools: [tool("orders.get", () => "o")] });
        const y = await withFactory(t, { wasmLocation: assetPath, tools: [tool("orders.get", () => "o")] });
        const a = x.createSession({ tools: [own("alpha"), ...others] });
        const b = x.createSession({ tools: [own("beta")] });
        const lone = y.createSession({ tools: [own("beta")] });
        for (let i = 0; i < 3; i++) assert.equal((await run(a, "return JSON.stringify(await tools.crm.lookup({}))")).ok, true);
        for (const q of [{ query: "customer" }, { namespace: "crm" }, { name: "crm.lookup" }]) await llmTools(a).searchTools.execute(q);
        await run(b, "return await tools.crm.lookup({})");
        await run(lone, "return await tools.crm.lookup({})");
        await x.ready();
        await y.ready();
        const seen = async (s) => {
            const out = [s.getSystemInstruction()];
            for (const q of [{ query: "customer" }, { namespace: "crm" }, { name: "crm.lookup" }, { query: "" }]) out.push(JSON.stringify(await llmTools(s).searchTools.execute(q)));
            const r = await run(s, `return [JSON.stringify(await tool_search({ query: "customer" })), Object.keys(tools.crm).join()]`);
            out.push(JSON.stringify(r.result ?? r.error));
            return out;
        };
        const [got, want] = [await seen(b), await seen(lone)];
        for (let i = 0; i < got.length; i++) {
            assert.ok(!/alpha|ALPHADESC44/i.test(got[i]), `answer ${i} of session b shows session a's tools: ${got[i].slice(0, 300)}`);
            assert.equal(got[i], want[i], `answer ${i} of session b differs from a lone session's`);
        }
    });
});

describe("hostile44: a hostile catalog's names", { timeout: 600_000 }, () => {
    test("MCP servers named like paths, Object.prototype's keys, the host's namespace or our globals: registered under valid names apart from the host's, or refused; the host's tools answer as themselves, nothing polluted", async (t) => {
        const uncaught = watchUncaught(t);
        const mcp = await loadAdapter("mcp");
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("orders.get", () => "HOST"), tool("admin.wipe", () => "HOST WIPE")] });
        const called = [];
        const serverNames = ["orders", "Orders", "orders.", ".orders", "orders..get", "admin", "__proto__", "constructor", "prototype", "tools", "tool_call", "a..b", ".", "", "hasOwnProperty", "__defineGetter__", "then", "orders/get", "orders get"];
        for (const name of serverNames) {
            const { client } = await serverWith(name, () => ({ tools: [{ name: "get", inputSchema: { type: "object" } }, { name: "wipe", inputSchema: { type: "object" } }, { name: "__proto__", inputSchema: { type: "object" } }] }), (req) => (called.push(`${name}:${req.params.name}`), { content: [{ type: "text", text: `SERVER ${name}` }] }));
            t.after(() => client.close());
            const r = await within(settled(mcp.fromMcpClient(client)), 60_000);
            assert.notEqual(r, "hung", name);
            if (r.rejected) continue;
            const source = r.resolved;
            t.after(() => source.close());
            const reg = await settled((async () => source.registerTools(api))());
            if (reg.rejected) assert.ok(reg.rejected instanceof Error && reg.rejected.message.length < 2000, `${JSON.stringify(name)}: ${reg.rejected}`);
        }
        for (const d of api.listTools()) assert.match(d.name, /^[A-Za-z0-9_$.-]{1,128}$/);
        const r = await within(run(api.createSession(), `return [await tools.orders.get({}), await tools.admin.wipe({}), await tool_call("orders.get", {}), String(({}).get), String(Object.prototype.wipe), typeof Object.prototype.get]`), 60_000);
        assert.deepEqual(r.result, ["HOST", "HOST WIPE", "HOST", "undefined", "undefined", "undefined"], JSON.stringify(r.error ?? r.result));
        assert.equal({}.get, undefined);
        assert.equal({}.wipe, undefined);
        assert.deepEqual(uncaught, []);
    });
});

describe("hostile44: interceptor bypass", { timeout: 600_000 }, () => {
    test("a tool the interceptor denies by name, reached through aliases, Reflect, Function.prototype, bound and proxied functions, retries or a name whose toString changes: never runs", async (t) => {
        const seen = [];
        const { s, wiped, sent } = await executeFactory(t, {
            interceptors: {
                onToolCall: ({ tool: x }) => {
                    const name = typeof x === "string" ? x : x?.name;
                    seen.push(name);
                    return name === "admin.wipe" ? { allowed: false, reason: "not you" } : { allowed: true };
                },
            },
        });
        const attempts = [
            "tools.admin.wipe({})",
            'tools["admin"]["wipe"]({})',
            'tools["admin.wipe"]({})',
            'tool_call("admin.wipe", {})',
            'tool_call("admin_wipe", {})',
            'tool_call("admin/wipe", {})',
            'tool_call("tools.admin.wipe", {})',
            'tool_call("ADMIN.WIPE", {})',
            'tool_call(" admin.wipe", {})',
            'tool_call("admin.wipe\\u0000", {})',
            'tool_call("admin.wip\\u0435", {})',
            'tool_call(new String("admin.wipe"), {})',
            'tool_call({ toString() { return "admin.wipe" } }, {})',
            'tool_call(["admin.wipe"], {})',
            '(() => { let n = 0; return tool_call({ toString() { return n++ ? "admin.wipe" : "mail.send" } }, { body: "x" }) })()',
            '(() => { let n = 0; return tool_call({ toString() { return n++ ? "mail.send" : "admin.wipe" } }, { body: "x" }) })()',
            '(() => { let n = 0; return tool_call({ [Symbol.toPrimitive]() { return n++ % 2 ? "admin.wipe" : "mail.send" } }, { body: "x" }) })()',
            "Reflect.apply(tools.admin.wipe, null, [{}])",
            "tools.admin.wipe.call(tools.mail, {})",
            "tools.admin.wipe.apply(null, [{}])",
            "tools.admin.wipe.bind(null)({})",
            "Function.prototype.call.call(tools.admin.wipe, null, {})",
            "tools.admin.wipe.call.call(tools.admin.wipe, null, {})",
            "new Proxy(tools.admin.wipe, {})({})",
            "new Proxy(tools.mail.send, { apply: (f, th, args) => Reflect.apply(tools.admin.wipe, th, args) })({ body: 'x' })",
            'Object.getOwnPropertyDescriptor(tools.admin, "wipe").value({})',
            "(() => { const { admin: { wipe } } = tools; return wipe({}) })()",
            "Promise.resolve({}).then(tools.admin.wipe)",
            "[{}].map(tools.admin.wipe)[0]",
            "(() => { try { tools.mail.send = tools.admin.wipe } catch {} return tools.mail.send({ body: 'x' }) })()",
            '(() => { try { Object.defineProperty(tools.admin.wipe, "name", { value: "mail.send" }) } catch {} return tools.admin.wipe({}) })()',
            "(() => { try { Object.setPrototypeOf(tools.mail, tools.admin) } catch {} return tools.mail.wipe?.({}) })()",
            'eval("tools.admin.wipe")({})',
            'Function("return tools.admin.wipe")()({})',
            "globalThis.tools.admin.wipe({})",
            "tools.admin.wipe({}).catch(() => tools.admin.wipe({})).catch(() => tools.admin.wipe({}))",
            "Promise.any(Array.from({ length: 20 }, () => tools.admin.wipe({})))",
            "(async () => { for (let i = 0; i < 10; i++) { try { return await tools.admin.wipe({}) } catch {} } })()",
            "tools.admin.wipe({}, {})",
            'tool_call("admin.wipe")',
        ];
        const r = await within(run(s, `const out = []; for (const a of ${JSON.stringify(attempts)}) { try { out.push(["ok", String(await (0, eval)(a))]) } catch (e) { out.push(["err", e.name + ": " + String(e.message).slice(0, 120)]) } } return out`), 120_000);
        assert.ok(r.ok, JSON.stringify(r.error ?? r));
        assert.deepEqual(wiped, [], `admin.wipe ran: ${JSON.stringify(r.result.map((x, i) => [attempts[i], ...x]).filter(([, , v]) => v === "WIPED"))}`);
        for (const [i, [k, v]] of r.result.entries()) assert.ok(k === "err" || v !== "WIPED", `${attempts[i]}: ${v}`);
        // Every call that ran was decided under the name of the tool that ran.
        assert.equal(sent.length, seen.filter((n) => n === "mail.send").length, JSON.stringify({ seen, sent }));
    });

    test("an input whose amount answers 1 to the interceptor and 1e9 later (getter, Proxy, toJSON, an array-like): the tool gets what was approved", async (t) => {
        const paid = [];
        const approved = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [tool("pay.send", (i) => (paid.push(i.amount), "paid"), { inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] } })],
            interceptors: { onToolCall: ({ input }) => (approved.push(input?.amount), input?.amount <= 100 ? { allowed: true } : { allowed: false, reason: "too much" }) },
        });
        const inputs = [
            "(() => { let n = 0; return { get amount() { return n++ ? 1e9 : 1 } } })()",
            "(() => { let n = 0; return new Proxy({}, { get: (o, k) => k === 'amount' ? (n++ ? 1e9 : 1) : undefined, has: () => true, ownKeys: () => ['amount'], getOwnPropertyDescriptor: () => ({ value: n++ ? 1e9 : 1, enumerable: true, configurable: true, writable: true }) }) })()",
            "(() => { let n = 0; return { amount: 1, toJSON() { return { amount: n++ ? 1e9 : 1 } } } })()",
            "(() => { let n = 0; const o = { amount: 1 }; Object.defineProperty(o, 'x', { enumerable: true, get() { o.amount = 1e9; return 1 } }); return o })()",
        ];
        const r = await within(run(api.createSession(), `const out = []; for (const e of ${JSON.stringify(inputs)}) { try { out.push(await tools.pay.send((0, eval)(e))) } catch (err) { out.push(err.name) } } return out`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error ?? r));
        assert.ok(paid.every((a) => a <= 100), `the tool was paid ${JSON.stringify(paid)} after approvals of ${JSON.stringify(approved)}`);
    });

    test("an approval that arrives after its run was aborted or timed out, while the session's next run waits on its own: the late one runs nothing, the next run's call runs once", async (t) => {
        const pending = [];
        const { s, wiped, sent } = await executeFactory(t, {
            timeout: 1500,
            interceptors: { onToolCall: ({ tool: x, input }) => new Promise((r) => pending.push({ name: x?.name ?? x, input, r })) },
        });
        const ac = new AbortController();
        const first = settled(run(s, `await tools.admin.wipe({}); return "ran"`, { signal: ac.signal }));
        await until(() => pending.length === 1, "the first decision");
        ac.abort(new Error("user cancelled"));
        await first;
        const timedOut = run(s, `await tools.admin.wipe({}); return "ran"`);
        await until(() => pending.length === 2, "the second decision");
        assert.equal((await timedOut).error?.code, "TIMEOUT");
        const next = run(s, `return await tools.mail.send({ body: "third" })`);
        await until(() => pending.length === 3, "the third decision");
        pending[0].r({ allowed: true });
        pending[1].r({ allowed: true, input: {} });
        await sleep(200);
        assert.deepEqual(wiped, [], "a late approval ran its tool");
        pending[2].r({ allowed: true });
        const r = await within(next, 60_000);
        assert.deepEqual([r.ok, r.result, sent], [true, "sent", ["third"]], JSON.stringify(r));
        assert.deepEqual(wiped, []);
    });

    test("a page whose Object.prototype holds allowed: true or an input: a decision without them denies, or keeps the program's input", async (t) => {
        const { s, wiped, sent } = await executeFactory(t, {
            interceptors: { onToolCall: ({ tool: x }) => ((x?.name ?? x) === "admin.wipe" ? { reason: "no" } : { allowed: true }) },
        });
        Object.prototype.allowed = true;
        Object.prototype.input = { body: "POLLUTED" };
        try {
            const r = await within(run(s, `const out = []; try { out.push(await tools.admin.wipe({})) } catch (e) { out.push(e.name) } out.push(await tools.mail.send({ body: "mine" })); return out`), 60_000);
            assert.notEqual(r, "hung");
            assert.deepEqual(wiped, []);
            assert.ok(!sent.includes("POLLUTED"), JSON.stringify(sent));
        } finally {
            delete Object.prototype.allowed;
            delete Object.prototype.input;
        }
    });

    test("the program's __proto__ and constructor keys in an input: the interceptor and the tool get own data, inherit nothing the program wrote", async (t) => {
        const got = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [tool("acct.set", (i) => (got.push(["tool", i.isAdmin, Object.getPrototypeOf(i) === Object.prototype || Object.getPrototypeOf(i) === null]), "set"))],
            interceptors: { onToolCall: ({ input }) => (got.push(["decide", input.isAdmin, Object.getPrototypeOf(input) === Object.prototype || Object.getPrototypeOf(input) === null]), { allowed: input.isAdmin !== true }) },
        });
        const r = await within(run(api.createSession(), `const out = [];
            for (const i of [JSON.parse('{"__proto__": {"isAdmin": true}, "n": 1}'), Object.setPrototypeOf({ n: 2 }, { isAdmin: true }), JSON.parse('{"constructor": {"prototype": {"isAdmin": true}}, "n": 3}'), { __proto__: { isAdmin: true }, n: 4 }])
                out.push(await tools.acct.set(i).catch((e) => e.name));
            return out`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error ?? r));
        for (const [who, isAdmin, plain] of got) {
            assert.equal(isAdmin, undefined, `${who} read isAdmin: ${JSON.stringify(got)}`);
            assert.ok(plain, `${who} got an input with another prototype`);
        }
        assert.equal({}.isAdmin, undefined);
    });
});

describe("hostile44: tool results that answer one thing and then another", { timeout: 600_000 }, () => {
    test("a result whose getter, Proxy or toJSON answers a valid value first and another later: the program gets what outputSchema checked, or the call fails", async (t) => {
        const outputSchema = { type: "object", properties: { n: { type: "number" } }, required: ["n"], additionalProperties: false };
        const results = {
            getter: () => { let k = 0; return { get n() { return k++ ? "INJECTED44" : 1; } }; },
            proxy: () => { let k = 0; return new Proxy({ n: 1 }, { get: (o, p) => (p === "n" ? (k++ ? "INJECTED44" : 1) : o[p]), getOwnPropertyDescriptor: (o, p) => (p === "n" ? { value: k++ ? "INJECTED44" : 1, enumerable: true, configurable: true, writable: true } : undefined) }); },
            tojson: () => { let k = 0; return { n: 1, toJSON() { return { n: k++ ? "INJECTED44" : 1 }; } }; },
            keys: () => { let k = 0; return new Proxy({ n: 1 }, { ownKeys: () => (k++ ? ["n", "extra44"] : ["n"]), getOwnPropertyDescriptor: (o, p) => ({ value: p === "n" ? 1 : "INJECTED44", enumerable: true, configurable: true, writable: true }), get: (o, p) => (p === "n" ? 1 : p === "extra44" ? "INJECTED44" : o[p]) }); },
            nested: () => { let k = 0; return { n: 1, get later() { return k++ ? "INJECTED44" : undefined; } }; },
        };
        const api = await withFactory(t, { wasmLocation: assetPath, tools: Object.entries(results).map(([k, f]) => tool(`r.${k}`, f, { outputSchema })) });
        const r = await within(run(api.createSession(), `const out = {}; for (const k of ${JSON.stringify(Object.keys(results))}) { try { out[k] = JSON.stringify(await tools.r[k]({})) } catch (e) { out[k] = e.name } } return out`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error ?? r));
        for (const [k, v] of Object.entries(r.result)) assert.ok(!v.includes("INJECTED44"), `r.${k}: the program got ${v}, which outputSchema refuses`);
    });

    test("a result's hooks (toJSON, valueOf, toString, Symbol.toPrimitive, getters, Proxy traps) run at most once each, and never after the run ended", async (t) => {
        const hits = [];
        const make = () => {
            const inner = new Proxy({ x: 1 }, { get: (o, k) => (hits.push(`proxy get ${String(k)}`), o[k]), ownKeys: (o) => (hits.push("proxy ownKeys"), Reflect.ownKeys(o)) });
            return {
                a: 1,
                inner,
                get g() { hits.push("getter g"); return 2; },
                valueOf() { hits.push("valueOf"); return 3; },
                toString() { hits.push("toString"); return "s"; },
                [Symbol.toPrimitive]() { hits.push("toPrimitive"); return 4; },
            };
        };
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("h.get", make)] });
        const s = api.createSession();
        const r = await within(run(s, "const v = await tools.h.get({}); return [JSON.stringify(v), `${v}`, v + 1, String(v.g)]"), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error ?? r));
        const atEnd = hits.length;
        for (const name of ["getter g", "valueOf", "toString", "toPrimitive"]) assert.ok(hits.filter((h) => h === name).length <= 1, `${name} ran ${hits.filter((h) => h === name).length} times: ${hits}`);
        await sleep(300);
        assert.equal((await run(s, "return 1")).result, 1);
        assert.equal(hits.length, atEnd, `hooks ran after the run: ${hits.slice(atEnd)}`);
    });

    test("one result object returned to two runs of two sessions: what the first program writes on it or its prototypes is not in the second's copy nor on the page's object", async (t) => {
        const shared = { list: [1, 2], inner: { v: "page" } };
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("c.get", () => shared)] });
        const r1 = await run(api.createSession(), `const r = await tools.c.get({}); r.list.push("RUN1"); r.inner.v = "RUN1"; Object.getPrototypeOf(r).leak44 = "RUN1"; Object.getPrototypeOf(r.list).leak44 = "RUN1"; return 1`);
        assert.equal(r1.result, 1, JSON.stringify(r1.error));
        const r2 = await run(api.createSession(), `const r = await tools.c.get({}); return [JSON.stringify(r), String(r.leak44), String(r.list.leak44), String(({}).leak44)]`);
        assert.deepEqual(r2.result, [JSON.stringify({ list: [1, 2], inner: { v: "page" } }), "undefined", "undefined", "undefined"]);
        assert.deepEqual(shared, { list: [1, 2], inner: { v: "page" } });
        assert.equal({}.leak44, undefined);
    });
});

describe("hostile44: huge and sparse values at the boundary", { timeout: 600_000 }, () => {
    test("a page tool's sparse array of length 2^32 - 1, an array-like of length 1e9 and a 1e6-key object: the program gets a value or a clear error, bounded; the next call works", async (t) => {
        const uncaught = watchUncaught(t);
        const sparse = [];
        sparse[2 ** 32 - 2] = 1;
        const wide = {};
        for (let i = 0; i < 1e6; i++) wide[`k${i}`] = i;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 60_000,
            tools: [tool("v.sparse", () => sparse), tool("v.like", () => ({ length: 1e9, 0: "a" })), tool("v.wide", () => wide), tool("v.ok", () => "ok")],
        });
        const r = await within(run(api.createSession(), `const out = [];
            for (const k of ["sparse", "like", "wide"]) { try { const v = await tools.v[k]({}); out.push(k + ": " + (Array.isArray(v) ? "array " + v.length : typeof v + " " + Object.keys(v).length)) } catch (e) { out.push(k + ": " + e.name + " " + String(e.message).slice(0, 100)) } }
            out.push(await tools.v.ok({}));
            return out`), 120_000);
        assert.notEqual(r, "hung");
        assert.ok(r.ok, JSON.stringify(r.error ?? r).slice(0, 300));
        assert.equal(r.result.at(-1), "ok");
        assert.deepEqual(uncaught, []);
        await alive(api);
    });

    test("a program's sparse input of length 2^32 - 1, or 1e8: the tool gets a value or the program a clear error, bounded; the page lives", async (t) => {
        const got = [];
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 60_000, tools: [tool("v.take", (i) => (got.push(Array.isArray(i.a) ? i.a.length : typeof i.a), "taken"))] });
        const r = await within(run(api.createSession(), `const out = [];
            for (const n of [2 ** 32 - 2, 1e8]) { const a = []; a[n] = 1; try { out.push(await tools.v.take({ a })) } catch (e) { out.push(e.name + " " + String(e.message).slice(0, 100)) } }
            return out`), 120_000);
        assert.notEqual(r, "hung");
        assert.ok(r.ok || ["MEMORY_LIMIT", "RUNTIME", "TIMEOUT"].includes(r.error?.code), JSON.stringify(r.error ?? r).slice(0, 300));
        await alive(api);
    });
});

describe("hostile44: what a run leaves behind, and its console", { timeout: 600_000 }, () => {
    test("timers, intervals, Atomics.waitAsync, WeakRef and FinalizationRegistry callbacks left by a run call no tool after it returned", async (t) => {
        const { s, sent } = await executeFactory(t);
        const r = await run(s, `
            setTimeout(() => tools.a.mark({ v: "timeout" }), 50);
            setInterval(() => tools.a.mark({ v: "interval" }), 30);
            if (typeof SharedArrayBuffer === "function" && typeof Atomics === "object" && typeof Atomics.waitAsync === "function") {
                const w = Atomics.waitAsync(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
                if (w.async) w.value.then(() => tools.a.mark({ v: "waitAsync" }));
            }
            if (typeof FinalizationRegistry === "function") {
                const fr = new FinalizationRegistry(() => tools.a.mark({ v: "finalizer" }));
                for (let i = 0; i < 1000; i++) fr.register({ i }, i);
            }
            if (typeof WeakRef === "function") { const w = new WeakRef({}); setTimeout(() => w.deref() ?? tools.a.mark({ v: "weakref" }), 80); }
            (async function* () { await new Promise((r) => setTimeout(r, 60)); await tools.a.mark({ v: "generator" }); })().next();
            return "returned";`);
        assert.equal(r.result, "returned", JSON.stringify(r.error));
        await sleep(400);
        const next = await run(s, "await new Promise((r) => setTimeout(r, 300)); return 2");
        assert.equal(next.result, 2);
        await sleep(200);
        assert.deepEqual(sent, [], "a callback of the finished run called a tool");
    });

    test("console floods of other shapes (1e5 nested groups, 1e5 count and time labels, a 1e5-row table, a 10 MB assert, 1e5 %s): the run settles, its logs bounded", async (t) => {
        const events = [];
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 60_000, onEvent: (e) => events.push(e.type) });
        const programs = [
            "for (let i = 0; i < 1e5; i++) console.group('g' + i); console.log('deep'); return 1",
            "for (let i = 0; i < 1e5; i++) console.count('label' + i); return 1",
            "for (let i = 0; i < 1e5; i++) console.time('t' + i); for (let i = 0; i < 1e5; i++) console.timeEnd('t' + i); return 1",
            "console.table(Array.from({ length: 1e5 }, (_, i) => ({ i, s: 'x'.repeat(10) }))); return 1",
            "console.assert(false, 'a'.repeat(1e7)); return 1",
            "console.log('%s'.repeat(1e5), ...Array(1e5).fill('x')); return 1",
            "console.log('%o'.repeat(1e4), ...Array.from({ length: 1e4 }, () => ({ a: [1, 2, { b: 3 }] }))); return 1",
            "const o = {}; let c = o; for (let i = 0; i < 1e4; i++) c = c.n = {}; console.dir(o, { depth: Infinity }); return 1",
        ];
        for (const code of programs) {
            events.length = 0;
            const r = await within(run(api.createSession(), code), 120_000);
            assert.notEqual(r, "hung", code);
            assert.ok(r.ok || r.error?.code, code);
            const chars = r.logs.reduce((n, l) => n + l.message.length, 0);
            assert.ok(r.logs.length <= 201 && chars <= 201 * 2000, `${code.slice(0, 60)}: ${r.logs.length} lines, ${chars} chars`);
            assert.ok(events.length <= 1000, `${code.slice(0, 60)}: ${events.length} events`);
        }
        await alive(api);
    });
});

describe("hostile44: one session's schemas and names, another session's calls", { timeout: 600_000 }, () => {
    test("two sessions' own tools of one name with different input and output schemas: each call is checked against its own session's, whichever was compiled first", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("base.x", () => "x")] });
        const strictIn = { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false };
        const otherIn = { type: "object", properties: { q: { type: "number" } }, required: ["q"], additionalProperties: false };
        const a = api.createSession({ tools: [tool("crm.lookup", (i) => ({ id: String(i.id) }), { inputSchema: strictIn, outputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } })] });
        const b = api.createSession({ tools: [tool("crm.lookup", (i) => ({ n: i.q ?? "NOT A NUMBER" }), { inputSchema: otherIn, outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } })] });
        const probe = `const out = []; for (const i of [{ id: "x" }, { q: 1 }, {}]) { try { out.push(JSON.stringify(await tools.crm.lookup(i))) } catch (e) { out.push(e.name) } } return out`;
        const ra = await within(run(a, probe), 60_000);
        const rb = await within(run(b, probe), 60_000);
        const ra2 = await within(run(a, probe), 60_000);
        assert.deepEqual(ra.result?.map((v) => v.startsWith("{")), [true, false, false], JSON.stringify(ra));
        assert.deepEqual(rb.result?.map((v) => v.startsWith("{")), [false, true, false], JSON.stringify(rb));
        assert.deepEqual(ra2.result, ra.result);
        assert.equal(rb.result[1], JSON.stringify({ n: 1 }));
    });

    test("tool names shaped like paths and promises registered by the page (a..b, .a, a., then, a.then, __proto__.x, x.__proto__, prototype.x): refused naming the name, or callable as themselves; awaiting tools or a namespace calls none", async (t) => {
        const called = [];
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("base.x", () => "x")] });
        const names = ["a..b", ".a", "a.", "then", "a.then", "__proto__.x", "x.__proto__", "prototype.x", "x.prototype", "x.constructor", "..", "a...b"];
        const kept = [];
        for (const name of names) {
            try {
                api.registerTool(tool(name, () => (called.push(name), `ran ${name}`)));
                kept.push(name);
            } catch (e) {
                assert.ok(e instanceof TypeError && e.message.includes(name), `${name}: ${e}`);
            }
        }
        const r = await within(run(api.createSession(), `const out = [];
            await tools; await tools.a; await tools.x; await Promise.resolve(tools); await Promise.all([tools, tools.a, tools.x]);
            out.push("awaited");
            for (const n of ${JSON.stringify(kept)}) { try { out.push(await tool_call(n, {})) } catch (e) { out.push(n + ": " + e.name) } }
            out.push(String(({}).x), typeof Object.prototype.x);
            return out`), 60_000);
        assert.ok(r.ok, JSON.stringify(r.error ?? r));
        const [first, ...rest] = r.result;
        assert.equal(first, "awaited");
        // Awaiting ran no tool: each name ran once, from its tool_call.
        assert.deepEqual(called, kept.filter((n, i) => rest[i] === `ran ${n}`), JSON.stringify({ called, rest }));
        assert.deepEqual(rest.slice(-2), ["undefined", "undefined"]);
        assert.equal({}.x, undefined);
    });
});
