// Attempts of the forty-fifth session (security45), written before reading
// the code they hit: a block comment opened with no space after its /*
// ("x = 1 /*note") holding a fenced block, and prose with " /* " before a
// fenced program that holds its own "*/"; the Worker engine's message
// channel (replayed, forged and guessed messages, messages after dispose,
// two workers side by side); values at the worker boundary (cyclic, deep,
// huge, sparse, uncloneable); SharedArrayBuffer's presence and absence;
// approvals that settle twice, after their run or for another run; the
// filter changing or throwing while the catalog is listed; console floods
// and the host's memory; what a run could leave to the next one (patched
// built-ins, timers, the random sequence); tools registered and
// unregistered mid-run; programs that never settle but keep a timer. Each
// row is what the page must get, in both engine modes (CODE_MODE_WORKER=1).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { MessagePort, Worker } from "node:worker_threads";
import { assetPath, llmTools, run, sleep, tool, until, watchUncaught, within, withFactory, WORKER } from "./helpers.mjs";
import { alive, allAsWritten, executeFactory, fenced, INNER } from "./hostile-factory.mjs";
import { spyOn } from "./worker-spy.mjs";

describe("hostile45: a /* with no space after it, and prose with /* before a program with its own */", { timeout: 600_000 }, () => {
    test("x = 1 /*note (text right after the /*) holding a fenced block: the program runs as written, the comment's code never", async (t) => {
        const { s, wiped, sent } = await executeFactory(t);
        const { executeCode } = llmTools(s);
        const before = ["let x = 1", 'const who = "a note"', "let y = Math.PI", "let a = [1, 2]", "const re = /note/g", "let n = 1; n++", "let z = 10n"];
        const opens = ["/*note", "/*TODO: check", "/*@ts-ignore", "/*-", "/**doc", "/*!keep", "/*\tnote"];
        const codes = fenced.flatMap(([open, close]) => before.flatMap((line) => opens.map((c) => `${line} ${c}\n${open}${INNER}${close}\n*/\nreturn await tools.mail.send({ body: "a note" });`)));
        await allAsWritten(executeCode, codes, { wiped, sent });
    });

    test("prose with /* in it before a fenced program that holds its own block comment: the fenced program runs", async (t) => {
        const { s, wiped, sent } = await executeFactory(t);
        const { executeCode } = llmTools(s);
        const prog = 'return await tools.mail.send({ body: "a note" });';
        const bodies = [`/* send the note */\n${prog}`, `/** The note. */\nconst body = "a note"; /* inline */\nreturn await tools.mail.send({ body });`, `const x = 1; /* a */ const y = 2; /* b */\n${prog}`];
        const proses = ["The pattern a /* b is not a comment here.", "Step 1 /* draft:", "Globs like src /* all */ and lib/*.ts are paths.", "I wrote x /* y, then:", "Files in /*tmp:", "Look for /*TODO markers:"];
        // Each sends its mail once, as the fenced program says (a ```json block is refused: not JavaScript).
        await allAsWritten(executeCode, proses.flatMap((prose) => bodies.flatMap((body) => fenced.filter(([open]) => open !== "```json\n").map(([open, close]) => `${prose}\n\n${open}${body}${close}\nDone.`))), { wiped, sent });
    });
});

const worker = { skip: !WORKER && "the worker's channel: run with CODE_MODE_WORKER=1" };

describe("hostile45: the Worker engine's message channel", { timeout: 600_000 }, () => {
    test("every message the worker sent in a run, delivered to the page again after it: no tool or interceptor runs again, nothing uncaught, the next run right", worker, async (t) => {
        const uncaught = watchUncaught(t);
        const calls = [];
        const decided = [];
        const { api, inbox, deliver, listeners } = await spyOn(t, {
            tools: [tool("a.mark", (i) => (calls.push(i.v), `marked ${i.v}`))],
            interceptors: { onToolCall: ({ tool: x }) => (decided.push(x?.name ?? x), { allowed: true }) },
        });
        assert.ok(listeners.length > 0, "precondition: the page's listener was seen");
        const s = api.createSession();
        inbox.length = 0;
        const r = await run(s, `return await tools.a.mark({ v: "once" })`);
        assert.equal(r.result, "marked once");
        const seen = inbox.slice();
        assert.ok(seen.length > 0, "precondition: the run's messages were seen");
        for (let i = 0; i < 3; i++) for (const m of seen) deliver(structuredClone(m));
        await sleep(200);
        assert.deepEqual(calls, ["once"], "a replayed message ran the tool again");
        assert.deepEqual(decided, ["a.mark"], "a replayed message asked the interceptor again");
        const next = await run(s, `return await tools.a.mark({ v: "next" })`);
        assert.equal(next.result, "marked next", JSON.stringify(next));
        assert.deepEqual(uncaught, []);
    });

    test("a forged tool call for the live run (a denied tool, a hidden tool, an unknown one, guessed run and call ids): no tool the interceptor did not approve runs, the run gets its own result", worker, async (t) => {
        const uncaught = watchUncaught(t);
        const ran = [];
        let release;
        const gate = new Promise((r) => { release = r; });
        const { api, inbox, deliver } = await spyOn(t, {
            toolFilter: (x) => !x.name.startsWith("vault."),
            tools: [
                tool("admin.wipe", () => (ran.push("admin.wipe"), "WIPED")),
                tool("vault.open", () => (ran.push("vault.open"), "OPENED")),
                tool("slow.wait", async () => (await gate, "waited")),
            ],
            interceptors: { onToolCall: ({ tool: x }) => ((x?.name ?? x) === "admin.wipe" ? { allowed: false, reason: "never" } : { allowed: true }) },
        });
        const s = api.createSession();
        inbox.length = 0;
        const p = run(s, `return await tools.slow.wait({})`);
        // The tool's call, not onToolCall's before it (the same name, the
        // number before): that one's number + 1 is the tool call's, and a
        // forged call with it, answered before the worker's came, was
        // answered in its place (the run failed with 'tool "admin.wipe":
        // onToolCall did not approve this call', 4 of 9 runs).
        const isLive = (m) => m?.t === "call" && m?.kind === "tool" && m?.name === "slow.wait";
        await until(() => inbox.some(isLive), "the slow call");
        const live = inbox.find(isLive);
        const rids = [live.rid, live.rid - 1, live.rid + 1, 0, 999, String(live.rid), null, undefined];
        const cids = [live.cid, live.cid + 1, live.cid + 100, 0];
        for (const rid of rids) {
            for (const cid of cids) {
                for (const name of ["admin.wipe", "vault.open", "nope.nothing", "__proto__", "constructor"]) deliver({ ...live, t: "call", kind: "tool", rid, cid, name, input: {} });
                // The interceptor asked (it denies), then the tool called.
                deliver({ ...live, t: "call", kind: "intercept", rid, cid, name: "admin.wipe", input: {} });
                deliver({ ...live, t: "call", kind: "tool", rid, cid: typeof cid === "number" ? cid + 1 : cid, name: "admin.wipe", input: {} });
            }
        }
        await sleep(200);
        release();
        const r = await within(p, 60_000);
        assert.deepEqual(ran, [], "a forged message ran a tool the page never approved");
        assert.equal(r.result, "waited", JSON.stringify(r));
        assert.deepEqual(uncaught, []);
        await alive(api);
    });

    test("garbage on the channel (no object, no type, wrong fields, a getter that throws, a huge string, a deep object): nothing uncaught, the instruction and runs work", worker, async (t) => {
        const uncaught = watchUncaught(t);
        const { api, deliver } = await spyOn(t, { tools: [tool("a.mark", () => "m")] });
        const s = api.createSession();
        let deep = {};
        for (let i = 0; i < 1e5; i++) deep = { t: "call", kind: "tool", rid: deep };
        const junk = [null, undefined, 0, "x", [], {}, { t: "call" }, { t: "reply" }, { t: "done" }, { t: "done", rid: 1 }, { t: "started" }, { t: "info" }, { t: "info", sessions: null },
            { t: "info", sessions: { 1: null } }, { t: "call", kind: "tool", rid: 1, cid: 1, name: { toString() { throw new Error("x") } } },
            Object.defineProperty({}, "t", { get() { throw new Error("getter") } }), { t: "call", kind: "tool", name: "a.mark", input: null, rid: 1e9, cid: -1 },
            { t: "x".repeat(1e7) }, deep, { t: "__proto__" }, { t: "constructor" }, { t: "call", kind: "__proto__" }, { t: "done", rid: "__proto__", value: null }];
        for (const j of junk) deliver(j);
        await sleep(100);
        assert.equal(typeof s.getSystemInstruction(), "string");
        const r = await run(s, `return await tools.a.mark({})`);
        assert.equal(r.result, "m", JSON.stringify(r));
        assert.deepEqual(uncaught, []);
    });

    test("the page's own messages to the worker posted again (the run, the replies): no program runs twice, no tool runs for a finished run", worker, async (t) => {
        const uncaught = watchUncaught(t);
        const calls = [];
        const sentToWorker = [];
        const { api, ports } = await spyOn(t, { tools: [tool("a.mark", (i) => (calls.push(i.v), "marked"))] });
        const s = api.createSession();
        // Record what the page posts from now on.
        const saved = [];
        for (const P of [Worker.prototype, MessagePort.prototype]) {
            const post = P.postMessage;
            saved.push([P, post]);
            P.postMessage = function (m, ...rest) { sentToWorker.push({ port: this, m: structuredClone(m) }); return post.call(this, m, ...rest); };
        }
        let r;
        try {
            r = await run(s, `return await tools.a.mark({ v: "once" })`);
        } finally {
            for (const [P, post] of saved) P.postMessage = post;
        }
        assert.equal(r.result, "marked");
        assert.ok(sentToWorker.length > 0 && ports.length >= 0, "precondition: the page's messages seen");
        for (const { port, m } of sentToWorker) try { port.postMessage(m); } catch { /* refused */ }
        await sleep(500);
        assert.deepEqual(calls, ["once"], "a replayed run or reply ran the tool again");
        const next = await run(s, `return await tools.a.mark({ v: "next" })`);
        assert.equal(next.result, "marked", JSON.stringify(next));
        assert.deepEqual(calls, ["once", "next"]);
        assert.deepEqual(uncaught, []);
    });

    test("after dispose(): the run's messages delivered again and posted to the worker run nothing and throw nothing uncaught", worker, async (t) => {
        const uncaught = watchUncaught(t);
        const calls = [];
        const { api, inbox, deliver, ports } = await spyOn(t, { tools: [tool("a.mark", () => (calls.push(1), "m"))], interceptors: { onToolCall: () => (calls.push("decided"), { allowed: true }) } });
        inbox.length = 0;
        const r = await run(api.createSession(), `return await tools.a.mark({})`);
        assert.equal(r.result, "m");
        const seen = inbox.slice();
        calls.length = 0;
        await api.dispose();
        for (const m of seen) deliver(structuredClone(m));
        for (const p of ports) for (const m of seen) try { p.postMessage(structuredClone(m)); } catch { /* closed */ }
        await sleep(300);
        assert.deepEqual(calls, []);
        assert.deepEqual(uncaught, []);
    });

    test("two factories' workers at once, with runs of the same numbers and tools of the same names: each run gets its own factory's results and calls its own tools", async (t) => {
        const got = { a: [], b: [] };
        const make = (k) => withFactory(t, { wasmLocation: assetPath, tools: [tool("x.get", async (i) => (got[k].push(i.n), await sleep(5), `${k}${i.n}`))] });
        const [a, b] = await Promise.all([make("a"), make("b")]);
        const sa = a.createSession();
        const sb = b.createSession();
        const code = `const out = []; for (let n = 0; n < 10; n++) out.push(await tools.x.get({ n })); return out.join()`;
        const rs = await Promise.all([run(sa, code), run(sb, code), run(sa, code), run(sb, code)]);
        const want = (k) => Array.from({ length: 10 }, (_, n) => `${k}${n}`).join();
        assert.deepEqual(rs.map((r) => r.result), [want("a"), want("b"), want("a"), want("b")], JSON.stringify(rs.map((r) => r.error)));
        assert.equal(got.a.length, 20);
        assert.equal(got.b.length, 20);
    });

    test("the program sees no channel: postMessage, self, onmessage, close, importScripts, parentPort, MessageChannel, BroadcastChannel, Worker, process are absent, require throws", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const names = ["postMessage", "self", "onmessage", "close", "importScripts", "parentPort", "MessageChannel", "BroadcastChannel", "Worker", "process", "workerData", "addEventListener", "dispatchEvent", "__jsbridgeDirect"];
        const r = await run(api.createSession(), `let req; try { req = typeof require === "function" ? String(require("node:worker_threads")) : typeof require } catch (e) { req = "threw " + e.name } return [req, ...${JSON.stringify(names)}.map((n) => n + ":" + typeof globalThis[n])]`);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.match(r.result[0], /^(threw |undefined)/);
        assert.deepEqual(r.result.slice(1), names.map((n) => `${n}:undefined`));
    });
});

// Runs a program against both engines and answers, for each, what it returned or its error.
async function bothModes(t, config, code) {
    const out = {};
    for (const w of [false, true]) {
        const api = await withFactory(t, { wasmLocation: assetPath, ...config, worker: w });
        const r = await within(run(api.createSession(), code), 120_000);
        assert.notEqual(r, "hung", `worker ${w}`);
        out[w ? "worker" : "thread"] = r.ok ? { ok: r.result } : { error: r.error?.code };
        await alive(api);
    }
    return out;
}

describe("hostile45: values at the worker boundary, in both engines alike", { timeout: 600_000 }, () => {
    test("tool results that are cyclic, uncloneable (functions, Symbols, Proxies, WeakMaps, private fields), throwing, huge, deep or sparse: the program gets the same value or error in both engines, nothing uncaught", async (t) => {
        const uncaught = watchUncaught(t);
        const cyclic = { a: 1 };
        cyclic.self = cyclic;
        const cyclicArr = [1];
        cyclicArr.push(cyclicArr);
        let deep = { leaf: 1 };
        for (let i = 0; i < 1e5; i++) deep = { d: deep };
        const sparse = [];
        sparse[1e6] = "end";
        class Priv { #secret = "PRIVATE45"; visible = 1; }
        const values = {
            cyclic: () => cyclic,
            cyclicArr: () => cyclicArr,
            fnProp: () => ({ a: 1, f() { return 1; } }),
            symbolVal: () => ({ a: 1, s: Symbol("x") }),
            proxy: () => new Proxy({ a: 1 }, {}),
            weakmap: () => ({ w: new WeakMap() }),
            priv: () => new Priv(),
            throwing: () => ({ a: 1, get b() { throw new Error("getter45"); } }),
            protoKey: () => JSON.parse('{"__proto__": {"polluted45": 1}, "a": 1}'),
            deep: () => deep,
            sparse: () => sparse,
            big: () => "x".repeat(20e6),
            mapset: () => ({ m: new Map([[{ k: 1 }, 1]]), s: new Set([1, 2]) }),
            bigint: () => ({ n: 10n, nan: NaN, inf: -Infinity, z: -0 }),
            error: () => ({ e: new TypeError("inner45") }),
            date: () => ({ d: new Date(NaN), ok: new Date(0) }),
        };
        const tools = Object.entries(values).map(([k, f]) => tool(`v.${k}`, f));
        const code = `const out = {}; for (const k of ${JSON.stringify(Object.keys(values))}) { try { const v = await tools.v[k]({}); const j = JSON.stringify(v); out[k] = "value " + (j === undefined ? "undefined" : j.length > 200 ? j.length + " chars" : j) } catch (e) { out[k] = "error " + e.name } } out.polluted = String(({}).polluted45); return out`;
        const { thread, worker: inWorker } = await bothModes(t, { tools, timeout: 60_000, memoryLimit: 256 }, code);
        assert.ok(thread.ok, JSON.stringify(thread));
        assert.equal(thread.ok.polluted, "undefined");
        assert.ok(!JSON.stringify(thread).includes("PRIVATE45"));
        const diff = Object.keys(thread.ok).filter((k) => thread.ok[k] !== inWorker.ok?.[k]).map((k) => `${k}: thread ${thread.ok[k]?.slice(0, 100)} / worker ${inWorker.ok?.[k]?.slice(0, 100)}`);
        assert.deepEqual(diff, [], `the engines disagree:\n${diff.join("\n")}`);
        assert.deepEqual(uncaught, []);
    });

    test("a program's cyclic, deep or huge input to a tool: the same answer in both engines, the tool never gets a half value", async (t) => {
        const got = [];
        const tools = [tool("v.take", (i) => (got.push(typeof i), "taken"))];
        const code = `const out = []; const c = { a: 1 }; c.c = c; let d = {}; for (let i = 0; i < 1e5; i++) d = { d };
            for (const v of [c, d, { s: "x".repeat(2e7) }, { f() {} }, { s: Symbol("q") }, [1, , 3]]) { try { out.push(await tools.v.take(v)) } catch (e) { out.push(e.name) } } return out`;
        const { thread, worker: inWorker } = await bothModes(t, { tools, timeout: 60_000, memoryLimit: 256 }, code);
        assert.ok(thread.ok, JSON.stringify(thread));
        assert.deepEqual(inWorker, thread);
    });
});

describe("hostile45: SharedArrayBuffer and Atomics, present and absent", { timeout: 600_000 }, () => {
    test("the sandbox's SharedArrayBuffer and Atomics are the same in both engines; an Atomics.wait with no end, if there, ends at the TIMEOUT", async (t) => {
        const code = `const out = [typeof SharedArrayBuffer, typeof Atomics]; if (typeof Atomics === "object" && typeof SharedArrayBuffer === "function") { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); out.push("woke") } return out`;
        const r = await bothModes(t, { timeout: 1500 }, code);
        assert.deepEqual(r.worker, r.thread);
        if (r.thread.error) assert.equal(r.thread.error, "TIMEOUT");
    });

    test("a page tool's SharedArrayBuffer (and a view on one): the program gets a copy; the page's later writes and the program's writes never cross", async (t) => {
        const sab = new SharedArrayBuffer(16);
        const view = new Int32Array(sab);
        view[0] = 7;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [tool("s.get", () => ({ view, sab })), tool("s.bump", () => ((view[0] = 99), "bumped"))],
        });
        const r = await run(api.createSession(), `const v = await tools.s.get({}); const before = JSON.stringify(v); await tools.s.bump({}); const after = JSON.stringify(v); try { if (v.view && typeof v.view === "object") v.view[0] = 1234; } catch {} return [before, after]`);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.equal(r.result[0], r.result[1], "the page's write reached the program's copy");
        assert.equal(view[0], 99, "the program's write reached the page's buffer");
    });

    test("a page without SharedArrayBuffer and Atomics (not cross-origin isolated): a factory of each engine is made and runs", async (t) => {
        const sab = globalThis.SharedArrayBuffer;
        const atomics = globalThis.Atomics;
        delete globalThis.SharedArrayBuffer;
        delete globalThis.Atomics;
        try {
            for (const w of [false, true]) {
                const api = await withFactory(t, { wasmLocation: assetPath, worker: w, tools: [tool("a.get", () => ({ n: 1 }))] });
                const r = await within(run(api.createSession(), `return (await tools.a.get({})).n + 1`), 60_000);
                assert.equal(r.result, 2, `worker ${w}: ${JSON.stringify(r)}`);
                await api.dispose();
            }
        } finally {
            globalThis.SharedArrayBuffer = sab;
            globalThis.Atomics = atomics;
        }
    });
});

describe("hostile45: approvals that settle twice, late, or for another run", { timeout: 600_000 }, () => {
    test("a decision thenable that settles twice (deny then allow, allow then deny, two inputs, reject then resolve) or whose then throws: the first settlement decides, once", async (t) => {
        const runs = [];
        const twice = [
            (res) => (res({ allowed: false, reason: "first" }), res({ allowed: true })),
            (res, rej) => (rej(new Error("first")), res({ allowed: true })),
            (res) => (res({ allowed: true, input: { body: "first" } }), res({ allowed: true, input: { body: "second" } })),
            (res) => (setTimeout(() => res({ allowed: true }), 0), res({ allowed: false, reason: "first" })),
        ];
        let i = 0;
        const { s, sent } = await executeFactory(t, {
            interceptors: {
                onToolCall: () => {
                    const k = i++;
                    if (k === twice.length) return { get then() { throw new Error("then getter"); } };
                    if (k === twice.length + 1) return { then() { throw new Error("then threw"); } };
                    return { then: (res, rej) => twice[k](res, rej) };
                },
            },
        });
        const r = await run(s, `const out = []; for (let i = 0; i < 6; i++) { try { out.push(await tools.mail.send({ body: "program" })) } catch (e) { out.push("denied") } } return out`);
        assert.ok(r.ok, JSON.stringify(r.error));
        runs.push(...r.result);
        assert.deepEqual(runs, ["denied", "denied", "sent", "denied", "denied", "denied"]);
        assert.deepEqual(sent, ["first"]);
    });

    test("an approval that arrives after its run returned without awaiting the call: the tool never runs", async (t) => {
        const pending = [];
        const { s, wiped } = await executeFactory(t, { interceptors: { onToolCall: () => new Promise((r) => pending.push(r)) } });
        const r = await run(s, `tools.admin.wipe({}).catch(() => {}); tool_call("admin.wipe", {}).catch(() => {}); return "returned"`);
        assert.equal(r.result, "returned");
        await sleep(100);
        for (const p of pending) p({ allowed: true });
        await sleep(300);
        assert.deepEqual(wiped, [], "an approval after the run ran its tool");
        assert.equal((await run(s, "return 3")).result, 3);
    });

    test("one decision promise shared by the calls of two runs, settled after the first run timed out: the second run's call runs once, the first's never", async (t) => {
        let resolve;
        const shared = new Promise((r) => { resolve = r; });
        const { api, sent } = await executeFactory(t, { timeout: 1500, interceptors: { onToolCall: () => shared } });
        const first = await run(api.createSession(), `return await tools.mail.send({ body: "first" })`);
        assert.equal(first.error?.code, "TIMEOUT");
        const second = (async () => {
            const s = api.createSession();
            return run(s, `return await tools.mail.send({ body: "second" })`, {});
        })();
        await sleep(200);
        resolve({ allowed: true });
        const r = await within(second, 60_000);
        // The second run may also end at its TIMEOUT if it started late; the first never sends.
        assert.ok(!sent.includes("first"), `the timed-out run's call ran: ${sent}`);
        if (r.ok) assert.deepEqual(sent, ["second"]);
    });

    test("a decision whose allowed and input are getters answering differently at each read: the tool runs with one input, and the call's record says what happened", async (t) => {
        const reads = { allowed: 0, input: 0 };
        const { s, sent, wiped } = await executeFactory(t, {
            interceptors: {
                onToolCall: ({ tool: x }) => ({
                    get allowed() { return reads.allowed++ === 0 ? (x?.name ?? x) !== "admin.wipe" : true; },
                    get input() { return reads.input++ === 0 ? undefined : { body: "SWAPPED" }; },
                    reason: "no",
                }),
            },
        });
        const r = await run(s, `const out = []; try { out.push(await tools.admin.wipe({})) } catch { out.push("denied") } try { out.push(await tools.mail.send({ body: "program" })) } catch { out.push("denied") } return out`);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.deepEqual(wiped, []);
        assert.deepEqual(sent.length, 1);
        assert.deepEqual(r.toolCalls.map((c) => c.allowed), [false, true]);
    });
});

describe("hostile45: the catalog while the filter changes or throws", { timeout: 600_000 }, () => {
    const catalog = () => [
        ...Array.from({ length: 12 }, (_, i) => tool(`orders.o${i}`, () => "o", { description: "Order thing" })),
        ...Array.from({ length: 12 }, (_, i) => tool(`vault.v${i}`, () => "VAULT", { description: "VAULTDESC45 thing" })),
    ];
    const leaks = (text) => /vault|VAULTDESC45/.test(text);

    test("a filter that starts hiding vault.* in the middle of a run: that run keeps what it was shown at its start (its searches agree); from the next run no search names vault, no call reaches it", async (t) => {
        let hide = false;
        const ran = [];
        const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => !(hide && x.name.startsWith("vault.")), tools: [...catalog().map((d) => (d.name.startsWith("vault.") ? { ...d, execute: () => (ran.push(d.name), "VAULT") } : d)), tool("flip.now", () => ((hide = true), "flipped"))] });
        const s = api.createSession();
        const searches = `[JSON.stringify(await tool_search({ query: "thing", limit: 50 })), JSON.stringify(await tool_search({ namespace: "vault" }).catch((e) => e.message)), JSON.stringify(await tool_search({ query: "" })), JSON.stringify(await tool_search({ query: "VAULTDESC45" }))]`;
        const r = await run(s, `const before = ${searches}; await tools.flip.now({}); const after = ${searches}; return { before, after }`);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.ok(leaks(r.result.before.join()), "precondition: vault shown before");
        const names = (list) => list.map((x) => [...x.matchAll(/"name":"([^"]*)"/g)].map((m) => m[1]).join());
        assert.deepEqual(names(r.result.after), names(r.result.before), "a run's searches changed within the run");
        for (const who of [s, api.createSession()]) {
            const next = await run(who, `const out = ${searches}; let called = "no"; try { called = await tools.vault.v0({}) } catch (e) { called = e.name } try { called += await tool_call("vault.v1", {}) } catch (e) { called += e.name } return { out, called }`);
            assert.ok(next.ok, JSON.stringify(next.error));
            assert.deepEqual(next.result.out.filter(leaks), [], "a search of a run after the flip named vault");
            assert.ok(!next.result.called.includes("VAULT"));
        }
        assert.deepEqual(ran, []);
        await api.ready();
        assert.ok(!leaks(s.getSystemInstruction()), "the instruction after the flip names vault");
    });

    test("a filter that answers differently at each call: every listing's namespace counts agree with what that namespace lists, nothing uncaught", async (t) => {
        const uncaught = watchUncaught(t);
        let n = 0;
        const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: () => n++ % 3 !== 0, tools: catalog() });
        const s = api.createSession();
        for (let i = 0; i < 5; i++) {
            const text = s.getSystemInstruction();
            const counts = [...text.matchAll(/^- (\w+) \((\d+)\)/gm)].map((m) => [m[1], Number(m[2])]);
            for (const [ns, c] of counts) assert.ok(c <= 12, `${ns} counted ${c} of 12`);
            const r = await run(s, `const out = []; for (const ns of ["orders", "vault"]) { const l = await tool_search({ namespace: ns }).catch((e) => []); out.push(Array.isArray(l) ? l.length : -1) } return out`);
            assert.ok(r.ok, JSON.stringify(r.error));
            for (const c of r.result) assert.ok(c <= 12);
        }
        assert.deepEqual(uncaught, []);
    });

    test("a filter that throws for vault.* (an Error, a string, null, a Symbol, an error whose message getter throws, a stack overflow): getSystemInstruction() answers without vault, getLlmTools() and listTools() too, no run calls it, nothing uncaught", async (t) => {
        const uncaught = watchUncaught(t);
        const throwers = [
            () => { throw new Error("no"); },
            () => { throw "no"; },
            () => { throw null; },
            () => { throw Symbol("no"); },
            () => { throw Object.defineProperty(new Error(), "message", { get() { throw new Error("message getter"); } }); },
            () => { const f = () => f(); f(); },
            () => { throw new Proxy({}, { get() { throw new Error("proxy"); } }); },
        ];
        for (const [i, thrower] of throwers.entries()) {
            let calls = 0;
            const api = await withFactory(t, { wasmLocation: assetPath, toolFilter: (x) => (x.name.startsWith("vault.") ? thrower() : true), tools: [...catalog(), tool("vault.secret", () => ((calls += 1), "VAULT"))] });
            const s = api.createSession();
            const texts = [s.getSystemInstruction(), JSON.stringify(s.getLlmTools().map((x) => x.description)), JSON.stringify(api.listTools().map((d) => d.name))];
            await api.ready();
            texts.push(s.getSystemInstruction(), api.createSession().getSystemInstruction());
            const r = await run(s, `try { return await tools.vault.secret({}) } catch (e) { return e.name }`);
            assert.notEqual(r.result, "VAULT", `thrower ${i}`);
            assert.equal(calls, 0, `thrower ${i}`);
            assert.deepEqual(texts.filter(leaks).map((x) => x.slice(0, 80)), [], `thrower ${i}: vault named`);
            await api.dispose();
        }
        assert.deepEqual(uncaught, []);
    });
});

describe("hostile45: console floods and the host's memory", { timeout: 600_000 }, () => {
    test("a run that logs 1 KB lines until its TIMEOUT, with an onEvent per run: its logs and events are bounded, the page's heap grows little", async (t) => {
        let events = 0;
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 3000 });
        const s = api.createSession();
        const before = process.memoryUsage().heapUsed;
        const r = await within(run(s, `const line = "x".repeat(1000); for (;;) { console.log(line); console.error(line, { a: [line] }) }`, { onEvent: () => events++ }), 120_000);
        assert.notEqual(r, "hung");
        assert.equal(r.error?.code, "TIMEOUT", JSON.stringify(r.error));
        const chars = r.logs.reduce((n, l) => n + l.message.length, 0);
        assert.ok(r.logs.length <= 201 && chars <= 201 * 2000, `${r.logs.length} lines, ${chars} chars`);
        assert.ok(events <= 1000, `${events} events`);
        const grown = process.memoryUsage().heapUsed - before;
        assert.ok(grown < 200e6, `the page's heap grew ${grown} bytes`);
        await alive(api);
    });

    test("console lines logged by a run's timers after it returned, and an onEvent that throws at every event: the next run's logs hold none, nothing uncaught", async (t) => {
        const uncaught = watchUncaught(t);
        const api = await withFactory(t, { wasmLocation: assetPath, onEvent: () => { throw new Error("onEvent45"); } });
        const s = api.createSession();
        const r = await run(s, `setInterval(() => console.log("LEFT45"), 5); setTimeout(() => console.log("LEFT45"), 50); console.log("mine"); return 1`);
        assert.equal(r.result, 1);
        const next = await run(s, `await new Promise((r) => setTimeout(r, 200)); return 2`);
        assert.equal(next.result, 2);
        assert.ok(!JSON.stringify(next.logs).includes("LEFT45"), JSON.stringify(next.logs).slice(0, 200));
        assert.deepEqual(uncaught, []);
    });
});

describe("hostile45: what one run could leave to the next", { timeout: 600_000 }, () => {
    test("built-ins a run patches (Math.random, Date, JSON, Promise, Object.prototype, console, tools, tool_call, setTimeout): the next run of the session and another session's see their own", async (t) => {
        const calls = [];
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("a.mark", (i) => (calls.push(i.v), "m"))] });
        const s = api.createSession();
        const r1 = await run(s, `Math.random = () => 0.45; Date.now = () => 45; Date.prototype.toISOString = () => "X45"; JSON.stringify = () => "J45"; Promise.prototype.then = function () { return "P45" };
            Object.prototype.leak45 = "L45"; console.log = () => {}; try { tools.a.mark = () => "FAKE45" } catch {} try { tool_call = () => "FAKE45" } catch {} setTimeout = () => 45; globalThis.left45 = "G45"; Array.prototype.map = () => "M45"; return 1`);
        assert.equal(r1.result, 1, JSON.stringify(r1.error));
        const probe = `console.log("visible45"); return [Math.random() === 0.45, Date.now() === 45, new Date(0).toISOString(), JSON.stringify({a:1}), typeof Promise.resolve().then(() => 1), String(({}).leak45), await tools.a.mark({ v: "real" }), await tool_call("a.mark", { v: "real2" }), await new Promise((r) => setTimeout(() => r("fired"), 1)), String(globalThis.left45), [1].map((x) => x + 1)[0]]`;
        for (const who of [s, api.createSession()]) {
            const r = await run(who, probe);
            assert.ok(r.ok, JSON.stringify(r.error));
            assert.deepEqual(r.result.slice(0, 6), [false, false, "1970-01-01T00:00:00.000Z", '{"a":1}', "object", "undefined"]);
            assert.deepEqual(r.result.slice(6, 8), ["m", "m"]);
            assert.equal(r.result[8], "fired");
            assert.equal(r.result[9], "undefined");
            assert.equal(r.result[10], 2);
            assert.ok(r.logs.some((l) => l.message === "visible45"));
        }
        assert.deepEqual(calls, ["real", "real2", "real", "real2"]);
    });

    test("Math.random and crypto across runs and factories: no two runs repeat a sequence, no factory starts where another did", async (t) => {
        const seqs = [];
        for (let f = 0; f < 2; f++) {
            const api = await withFactory(t, { wasmLocation: assetPath });
            for (let i = 0; i < 2; i++) {
                const r = await run(api.createSession(), `return [Math.random(), Math.random(), Math.random(), Array.from(crypto.getRandomValues(new Uint32Array(4))).join()].join("|")`);
                assert.ok(r.ok, JSON.stringify(r.error));
                seqs.push(r.result);
            }
        }
        assert.equal(new Set(seqs).size, seqs.length, seqs.join("\n"));
        for (const s of seqs) assert.equal(new Set(s.split("|").slice(0, 3)).size, 3);
    });

    test("a run's timers that would set a flag after it returned: no later run of any session sees the flag or a change of time's pace", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const s = api.createSession();
        const r = await run(s, `for (let i = 1; i < 30; i++) setTimeout(() => { globalThis.flag45 = i; Object.prototype.flag45 = i }, i * 10); return 1`);
        assert.equal(r.result, 1);
        for (const who of [s, api.createSession()]) {
            const r2 = await run(who, `const seen = []; for (let i = 0; i < 10; i++) { await new Promise((r) => setTimeout(r, 30)); seen.push(String(globalThis.flag45), String(({}).flag45)) } return seen.filter((x) => x !== "undefined")`);
            assert.deepEqual(r2.result, [], JSON.stringify(r2));
        }
    });
});

describe("hostile45: tools registered and unregistered while a run uses them", { timeout: 600_000 }, () => {
    test("a tool registered while a run waits on another (one the filter hides, one it shows): the hidden one never runs; the shown one, if the run reaches it, passes the interceptor", async (t) => {
        const ran = [];
        const decided = [];
        let api;
        api = await withFactory(t, {
            wasmLocation: assetPath,
            toolFilter: (x) => !x.name.startsWith("hidden."),
            interceptors: { onToolCall: ({ tool: x }) => (decided.push(x?.name ?? x), { allowed: true }) },
            tools: [tool("reg.now", () => {
                api.registerTool(tool("hidden.late", () => (ran.push("hidden.late"), "HIDDEN")));
                api.registerTool(tool("shown.late", () => (ran.push("shown.late"), "SHOWN")));
                return "registered";
            })],
        });
        const r = await run(api.createSession(), `await tools.reg.now({}); await new Promise((r) => setTimeout(r, 100)); const out = [];
            for (const f of [() => tools.hidden?.late({}), () => tool_call("hidden.late", {}), () => tools.shown?.late?.({}), () => tool_call("shown.late", {})]) { try { out.push(String(await f())) } catch (e) { out.push(e.name) } } return out`);
        assert.ok(r.ok, JSON.stringify(r.error));
        assert.ok(!ran.includes("hidden.late"), JSON.stringify(r.result));
        for (const name of ran) assert.ok(decided.includes(name), `${name} ran without the interceptor`);
        const next = await run(api.createSession(), `try { return await tool_call("hidden.late", {}) } catch (e) { return e.name }`);
        assert.notEqual(next.result, "HIDDEN");
    });

    test("a tool that unregisters itself while it runs, and one unregistered while its call waits: the calls settle, later calls fail clearly, nothing uncaught", async (t) => {
        const uncaught = watchUncaught(t);
        const ran = [];
        let release;
        const gate = new Promise((r) => { release = r; });
        let offSelf;
        let offWait;
        const api = await withFactory(t, { wasmLocation: assetPath });
        offSelf = api.registerTool(tool("x.self", () => (ran.push("self"), offSelf(), "self done")));
        offWait = api.registerTool(tool("x.wait", async () => (ran.push("wait"), await gate, "wait done")));
        const s = api.createSession();
        const p = run(s, `const out = []; out.push(await tools.x.self({}).catch((e) => e.name));
            const w = tools.x.wait({}).catch((e) => e.name);
            for (const f of [() => tools.x.self({}), () => tool_call("x.self", {})]) { try { out.push(await f()) } catch (e) { out.push(e.name + ": " + e.message.slice(0, 60)) } }
            out.push(await w); return out`);
        await until(() => ran.includes("wait"), "the waiting call");
        offWait();
        release();
        const r = await within(p, 60_000);
        assert.ok(r.ok, JSON.stringify(r.error ?? r));
        assert.deepEqual(ran.filter((x) => x === "self"), ["self"], "the unregistered tool ran again");
        assert.ok(r.result[1].includes("x.self") || /Error/.test(r.result[1]), r.result[1]);
        assert.deepEqual(uncaught, []);
        const after = await run(s, `try { return await tools.x.wait({}) } catch (e) { return e.name }`);
        assert.notEqual(after.result, "wait done");
    });
});

describe("hostile45: programs that never settle but keep the engine busy", { timeout: 600_000 }, () => {
    test("a returned Promise that never settles while an interval, a re-armed timeout, a re-scheduling thenable or an endless async generator keeps going: TIMEOUT, the next run works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 1500 });
        const s = api.createSession();
        const programs = [
            "return new Promise(() => setInterval(() => {}, 5))",
            "return new Promise(() => { const f = () => setTimeout(f, 1); f() })",
            "return { then(r) { setTimeout(() => this.then(r), 2) } }",
            "const g = (async function* () { for (;;) { await new Promise((r) => setTimeout(r, 1)); yield 1 } })(); for await (const x of g) {}",
            "return new Promise((r) => { const tick = () => Promise.resolve().then(() => setTimeout(tick, 0)); tick() })",
            "await new Promise(() => { setInterval(() => { for (let i = 0; i < 1e5; i++); }, 0) })",
            "setInterval(() => {}, 1); return await new Promise(() => {})",
        ];
        for (const code of programs) {
            const r = await within(run(s, code), 60_000);
            assert.notEqual(r, "hung", code);
            assert.equal(r.ok, false, `${code}: ${JSON.stringify(r.result)}`);
            assert.ok(["TIMEOUT", "RUNTIME"].includes(r.error.code), `${code}: ${r.error.code} ${r.error.message}`);
            const next = await run(s, "return 2");
            assert.equal(next.result, 2, `after ${code}: ${JSON.stringify(next.error)}`);
        }
    });

    test("a promise that resolves to itself, and a never-settling promise with no timer: a clear error or TIMEOUT, never a hang", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 1500 });
        const s = api.createSession();
        for (const code of ["let r; const p = new Promise((x) => (r = x)); r(p); return await p", "return await new Promise(() => {})", "const p = Promise.withResolvers?.() ?? {}; return await p.promise"]) {
            const r = await within(run(s, code), 60_000);
            assert.notEqual(r, "hung", code);
            assert.equal(r.ok, false, code);
            assert.ok(r.error.message.length > 0, code);
        }
        assert.equal((await run(s, "return 4")).result, 4);
    });
});
