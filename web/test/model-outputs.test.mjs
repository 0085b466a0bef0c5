// What real models send to executeCode and searchTools (model-outputs-cases.mjs),
// run through the built package's LLM tools: each row gets the right result or
// words that let the model fix its program. Runs in-thread and, with
// CODE_MODE_WORKER=1, in worker mode.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, loadFactory } from "./helpers.mjs";
import { callOf, catalog, judge, rows } from "./model-outputs-cases.mjs";

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

test("the table has at least 70 rows with distinct ids", () => {
    assert.ok(rows.length >= 70, `${rows.length} rows`);
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
