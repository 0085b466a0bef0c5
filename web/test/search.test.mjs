// Tool search through the public API: namespaces, an empty answer when
// nothing matches, and config.search.embed (a deterministic test embedder).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assetPath, llmTools, loadFactory, root, run, tool, withFactory } from "./helpers.mjs";
import { typeScriptProblems } from "./typescript-check.mjs";

const IoCodeModeFactory = await loadFactory();

const desk = [
    tool("orders.search", () => [], { description: "Search orders by status." }),
    tool("orders.cancel", () => true, { description: "Cancel an order." }),
    tool("payments.transfer", () => true, { description: "Transfer money to an account." }),
    tool("admin.wipe", () => true, { description: "Delete everything." }),
];
const hideAdmin = (t) => !t.name.startsWith("admin.");

// A deterministic embedder: a text's vector counts concept words, so
// "send cash" meets "Transfer money" without a shared word.
function conceptEmbedder() {
    const calls = [];
    const concepts = [["money", "cash", "transfer", "pay"], ["order", "purchase"], ["delete", "wipe", "erase"]];
    const embed = async (texts) => {
        calls.push([...texts]);
        return texts.map((t) => Float32Array.from([...concepts.map((ws) => ws.filter((w) => t.toLowerCase().includes(w)).length), 0.01]));
    };
    return { embed, calls };
}

describe("tool search", () => {
    // The budget is the Go core's (searchanswer.go), so both engine modes
    // give the same answer: a catalog of long descriptions and schemas gave
    // the model a 1.4 MB answer for a limit of 50.
    test("searchTools' whole answer stays within its 50,000-character budget, and the last hit says what was shortened", async () => {
        const props = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`field${i}`, { type: "string", description: `what field ${i} of the report holds, in detail` }]));
        const tools = Array.from({ length: 1000 }, (_, i) =>
            tool(`reports.r${String(i).padStart(4, "0")}`, () => null, { description: `Report number ${i}. ${"long words of prose ".repeat(400)}`, inputSchema: { type: "object", properties: props } }));
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, tools });
        try {
            await api.ready();
            const { searchTools } = llmTools(api.createSession());
            const hits = await searchTools.execute({ query: "report", limit: 50 });
            const text = JSON.stringify(hits);
            assert.ok(text.length <= 50000, `${text.length} characters`);
            // Every hit listed: its description cut at a word, its
            // signature in a shorter form or the line saying how to get it.
            assert.equal(hits.length, 50);
            assert.ok(hits.every((h, i) => h.name.startsWith("reports.r") && ("note" in h) === (i === hits.length - 1)), "the note is on the last hit only");
            assert.ok(hits.every((h) => h.description.startsWith("Report number ") && h.description.endsWith("…")), "descriptions cut at a word");
            const leftOut = (h) => `// left out to fit this answer: searchTools({ query: "${h.name}", limit: 1 }) gives it`;
            assert.ok(hits.every((h) => h.signature === leftOut(h) || h.signature.includes("(Shortened to fit: ")), "signatures in a shorter form or left out, never cut");
            assert.match(hits.at(-1).note, /^this answer was cut to its 50000-character budget: 50 of these hits are shortened \(a signature with less, as its comment says, or left out; a description ending in …\); ask for fewer /);
            const few = await searchTools.execute({ query: "report", limit: 1 });
            assert.equal(few.length, 1);
            assert.ok(few.every((h) => !("note" in h) && h.description.length > 8000 && !h.description.endsWith("…") && !h.signature.endsWith("…")), "an answer that fits is whole");
        } finally {
            api.dispose();
        }
    });

    // Microsoft 365's MCP server (344 tools over Graph's request bodies,
    // signatures up to 32 KB): 10 hits for "create" or "update" are 110-160
    // KB. The answer lists every hit; a signature is whole, or a shorter form
    // of it that parses and says what it left out: never cut inside the
    // declaration (it was cut to ~4.4 KB mid-type, without its result).
    test("a Graph-sized catalog: an answer over budget lists every hit, each signature whole or in a shorter form that parses", async (t) => {
        const { tools: defs } = JSON.parse(readFileSync(join(root, "internal/search/eval/testdata/ms365.catalog.json"), "utf8"));
        const api = await withFactory(t, { wasmLocation: assetPath, tools: defs.map((d) => ({ ...d, execute: () => null })) });
        const session = api.createSession();
        const { searchTools } = llmTools(session);
        for (const [query, shortened] of [["create", 9], ["update", 5]]) {
            const hits = await searchTools.execute({ query });
            assert.ok(JSON.stringify(hits).length <= 50000, `${query}: ${JSON.stringify(hits).length} characters`);
            // The whole hits, as tool_search gives them in a run.
            const r = await run(session, `const given = ${JSON.stringify(hits)};
                return (await tool_search({ query: ${JSON.stringify(query)} })).map((h, i) => [h.name, h.description === given[i].description, h.signature === given[i].signature]);`);
            assert.deepEqual(r.result?.map((w) => w[0]), hits.map((h) => h.name), JSON.stringify(r.error));
            assert.ok(r.result.every((w) => w[1]), `${query}: descriptions whole`);
            const short = hits.filter((h, i) => !r.result[i][2]);
            assert.equal(short.length, shortened, `${query}: hits shortened`);
            assert.ok(short.every((h) => h.signature.includes("(Shortened to fit: ")), `${query}: a shorter signature says what it left out`);
            assert.deepEqual(typeScriptProblems(short.map((h) => ({ label: h.name, text: h.signature, names: [h.name] }))), []);
            assert.match(hits.at(-1).note, new RegExp(`^this answer was cut to its 50000-character budget: ${shortened} of these hits are shortened `));
            // Its name and limit 1 give one hit whole.
            const [one] = await searchTools.execute({ query: short[0].name, limit: 1 });
            const whole = await run(session, `return (await tool_search({ query: ${JSON.stringify(short[0].name)}, limit: 1 }))[0].signature === (${JSON.stringify(one.signature)})`);
            assert.deepEqual([one.name, "note" in one, whole.result], [short[0].name, false, true]);
        }
    });

    test("namespace: lists one, hits carry their namespace, hidden tools stay hidden", async () => {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: desk, toolFilter: hideAdmin });
        const session = api.createSession();
        const { searchTools } = llmTools(session);
        const listed = await searchTools.execute({ query: "", namespace: "orders" });
        assert.deepEqual(listed.map((h) => [h.name, h.namespace]), [["orders.cancel", "orders"], ["orders.search", "orders"]]);
        // A hidden tool's namespace does not exist for the model: the answer
        // names the visible namespaces only (an unknown one is INVALID_INPUT,
        // so a model given only the tools learns what to list).
        const hidden = await searchTools.execute({ query: "", namespace: "admin" });
        assert.deepEqual([hidden.ok, hidden.error], [false, {
            name: "TypeError",
            code: "INVALID_INPUT",
            message: 'searchTools: namespace: there is no namespace "admin"; expected one of orders, payments (list one with { namespace }, or search every tool with { query })',
        }]);
        assert.deepEqual(await searchTools.execute({ query: "zzqx wibble", namespace: "orders" }), []);
        const r = await run(session, "return (await tool_search({ query: 'cancel', namespace: 'orders' })).map((h) => h.name)");
        assert.deepEqual(r.result, ["orders.cancel"]);
        api.dispose();
    });

    test("no good match: an empty list, and the run's logs say so", async () => {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: desk, toolFilter: hideAdmin });
        const session = api.createSession();
        assert.deepEqual(await llmTools(session).searchTools.execute({ query: "zzqx wibble" }), []);
        const r = await run(session, "return await tool_search({ query: 'zzqx wibble' })");
        assert.deepEqual(r.result, []);
        assert.deepEqual(r.logs, [{ level: "info", message: 'tool_search: no tool matches "zzqx wibble"; try other words, or list a namespace with tool_search({ namespace }): orders, payments.' }]);
        api.dispose();
    });

    test("search.embed: tools embedded once at registration, the query per search, fused ranking", async () => {
        const { embed, calls } = conceptEmbedder();
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: desk, toolFilter: hideAdmin, search: { embed } });
        const session = api.createSession();
        const hits = await llmTools(session).searchTools.execute({ query: "send cash" });
        assert.equal(hits[0]?.name, "payments.transfer");
        const texts = calls.flat();
        assert.equal(texts.filter((t) => t === "payments.transfer\nTransfer money to an account.").length, 1);
        assert.equal(texts.filter((t) => t === "send cash").length, 1);
        // The same tool again costs no embedding.
        const before = calls.flat().length;
        const unregister = api.registerTool(tool("orders.refund", () => 1, { description: "Refund an order." }));
        unregister();
        api.registerTool(tool("orders.refund", () => 1, { description: "Refund an order." }));
        const r = await run(session, "return (await tool_search({ query: 'refund a purchase' })).map((h) => h.name)");
        assert.equal(r.result[0], "orders.refund");
        assert.equal(calls.flat().slice(before).filter((t) => t === "orders.refund\nRefund an order.").length, 1);
        api.dispose();
    });

    test("search.embed failing: lexical results and a console.warn", async (t) => {
        const warnings = [];
        t.mock.method(console, "warn", (m) => warnings.push(String(m)));
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: desk, search: { embed: async () => { throw new Error("endpoint down"); } } });
        const hits = await llmTools(api.createSession()).searchTools.execute({ query: "transfer money" });
        assert.equal(hits[0]?.name, "payments.transfer");
        assert.ok(warnings.some((w) => /lexical/.test(w) && /endpoint down/.test(w)), warnings.join("\n"));
        api.dispose();
    });

    test("search.embed that never answers: lexical after search.timeout", async (t) => {
        const warnings = [];
        t.mock.method(console, "warn", (m) => warnings.push(String(m)));
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: desk, search: { embed: () => new Promise(() => {}), timeout: 50 } });
        const hits = await llmTools(api.createSession()).searchTools.execute({ query: "transfer money" });
        assert.equal(hits[0]?.name, "payments.transfer");
        assert.ok(warnings.some((w) => /lexical/.test(w)), warnings.join("\n"));
        api.dispose();
    });

    test("search config errors name the field", async () => {
        await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, search: {} }), { name: "TypeError", message: /^config\.search\.embed: expected a function/ });
        await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, search: { embed: () => [], wieght: 1 } }), { name: "TypeError", message: /config\.search: unknown key "wieght" \(did you mean "weight"\?\)/ });
        await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, search: { embed: () => [], weight: -1 } }), { name: "TypeError", message: /^config\.search\.weight: expected a positive number/ });
        await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, search: { embed: () => [], timeout: "5s" } }), { name: "TypeError", message: /^config\.search\.timeout: expected a positive number/ });
    });
});
