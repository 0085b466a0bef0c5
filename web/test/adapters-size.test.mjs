// Each adapter entry point stays under its brotli budget (quality 11): a
// page pays for what it imports, and an adapter is glue, not a library.
// The budgets are listed in web/USAGE.md ("Adapters").
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants } from "node:zlib";
import { dist } from "./helpers.mjs";

const BUDGET = { llm: 2048 };

for (const [name, budget] of Object.entries(BUDGET)) {
    test(`${name}.mjs is at most ${budget} bytes brotli`, () => {
        const bytes = readFileSync(join(dist, `${name}.mjs`));
        const size = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
        console.log(`SIZE ${name}.mjs raw=${bytes.length} brotli=${size} budget=${budget}`);
        assert.ok(size <= budget, `${name}.mjs: ${size} bytes brotli, over its budget of ${budget}`);
        // It must not pull in the core or an SDK.
        assert.doesNotMatch(bytes.toString(), /^\s*import\s/m);
    });
}
