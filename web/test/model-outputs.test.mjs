// What real models send to executeCode and searchTools (model-outputs-cases.mjs,
// and whole programs: model-programs-cases.mjs), run through the built package's LLM tools: each row gets the right result or
// words that let the model fix its program. Runs in-thread and, with
// CODE_MODE_WORKER=1, in worker mode.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, loadFactory } from "./helpers.mjs";
import { callOf, catalog, judge, rows as outputs } from "./model-outputs-cases.mjs";
import { programs } from "./model-programs-cases.mjs";

const rows = [...outputs, ...programs];

let api;
let tools;

before(async () => {
    const IoCodeModeFactory = await loadFactory();
    api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: catalog() });
    const session = api.createSession();
    tools = Object.fromEntries(session.getLlmTools().map((t) => [t.name, t]));
    await api.ready();
});
after(() => api.dispose());

test("the tables have at least 70 and 40 rows, with distinct ids", () => {
    assert.ok(outputs.length >= 70, `${outputs.length} rows`);
    assert.ok(programs.length >= 40, `${programs.length} programs`);
    assert.equal(new Set(rows.map((r) => r.id)).size, rows.length);
});

for (const row of rows) {
    test(`${row.id} (${row.src})`, async () => {
        const [name, args] = callOf(row);
        const res = await tools[name].execute(args);
        const why = judge(row, res);
        assert.equal(why, null, `${row.id}: ${why}\n${JSON.stringify(res).slice(0, 1500)}`);
    });
}

// The warning of a Map or Set that the program's JSON.stringify wrote as {}
// is for that only: what converts them itself (the result, a console line,
// a tool input, a replacer of the program's) writes their entries, and
// gets none.
test("a Map or Set converted with its entries gets no JSON.stringify warning", async () => {
    const code = [
        'const m = new Map([["o-1", 30]]), s = new Set(["open"]);',
        "console.log(m, s);",
        "await tools.orders.search(new Map());",
        "const text = JSON.stringify({ m, s }, (k, v) => v instanceof Map ? Object.fromEntries(v) : v instanceof Set ? [...v] : v);",
        // A Proxy whose getPrototypeOf trap throws is written as JSON writes it.
        'const p = JSON.stringify(new Proxy({ a: 1 }, { getPrototypeOf() { throw new Error("trap"); } }));',
        "return { m, s, text, p };",
    ].join("\n");
    const res = await tools.executeCode.execute({ code, explanation: "x" });
    assert.equal(res.ok, true, JSON.stringify(res));
    assert.deepEqual(res.result, { m: { "o-1": 30 }, s: ["open"], text: '{"m":{"o-1":30},"s":["open"]}', p: '{"a":1}' });
    assert.deepEqual(res.logs.filter((l) => /JSON\.stringify wrote/.test(l.message)), []);
});
