// Sessions 38, 39, 40, 42, 43, 44, 45 and 46's batches of what models send (model-programs38-cases.mjs,
// model-programs39-cases.mjs, model-programs40-cases.mjs, model-programs42-cases.mjs, model-programs43-cases.mjs, model-programs44-cases.mjs, model-programs45-cases.mjs, model-programs46-cases.mjs), run through the built package's LLM tools
// against model-outputs-cases.mjs's catalog and two tools more. Runs
// in-thread and, with CODE_MODE_WORKER=1, in worker mode.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, loadFactory } from "./helpers.mjs";
import { callOf, catalog, judge } from "./model-outputs-cases.mjs";
import { extraTools, rows38 } from "./model-programs38-cases.mjs";
import { rows39 } from "./model-programs39-cases.mjs";
import { rows40 } from "./model-programs40-cases.mjs";
import { rows42 } from "./model-programs42-cases.mjs";
import { rows43 } from "./model-programs43-cases.mjs";
import { rows44 } from "./model-programs44-cases.mjs";
import { rows45 } from "./model-programs45-cases.mjs";
import { rows46 } from "./model-programs46-cases.mjs";

let api;
let tools;

before(async () => {
    const IoCodeModeFactory = await loadFactory();
    api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: [...catalog(), ...extraTools()] });
    const session = api.createSession();
    tools = Object.fromEntries(session.getLlmTools().map((t) => [t.name, t]));
    await api.ready();
});
after(() => api.dispose());

test("each table has at least 40 rows (session 45's 30, session 46's 25), with distinct ids", () => {
    for (const rows of [rows38, rows39, rows40, rows42, rows43, rows44]) assert.ok(rows.length >= 40, `${rows.length} rows`);
    assert.ok(rows45.length >= 30, `${rows45.length} rows`);
    assert.ok(rows46.length >= 25, `${rows46.length} rows`);
    const all = [...rows38, ...rows39, ...rows40, ...rows42, ...rows43, ...rows44, ...rows45, ...rows46];
    assert.equal(new Set(all.map((r) => r.id)).size, all.length);
});

for (const row of [...rows38, ...rows39, ...rows40, ...rows42, ...rows43, ...rows44, ...rows45, ...rows46]) {
    test(`${row.id} (${row.src})`, async () => {
        const [name, args] = callOf(row);
        const res = await tools[name].execute(args);
        const why = judge(row, res) ?? (row.check ? row.check(res) : null);
        assert.equal(why, null, `${row.id}: ${why}\n${JSON.stringify(res).slice(0, 1500)}`);
    });
}
