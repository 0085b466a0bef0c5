// @mode-independent: measures the built files; no engine runs.
// Each adapter entry point stays under its brotli budget (quality 11): a
// page pays for what it imports, and an adapter is glue, not a library.
// The budgets are listed in web/USAGE.md ("Adapters"). An entry's size
// includes the package modules it imports; the SDK it adapts is the
// caller's and is not counted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { brotliCompressSync, constants } from "node:zlib";
import { dist } from "./helpers.mjs";

const BUDGET = { llm: 1940, mcp: 8352, "io-connect": 6144, fdc3: 6642, webmcp: 6211 };
const PEERS = /^@modelcontextprotocol\/sdk\//;

// The entry and every module of the package it imports, in one text.
function closure(file, seen = new Set()) {
    if (seen.has(file)) return "";
    seen.add(file);
    const text = readFileSync(file, "utf8");
    let all = text;
    for (const m of text.matchAll(/\bimport\s*(?:[^"'()]*?\bfrom\s*)?\(?\s*["']([^"']+)["']/g)) {
        const spec = m[1];
        if (spec.startsWith(".")) all += closure(resolve(dirname(file), spec), seen);
        else assert.match(spec, PEERS, `${file} imports ${spec}, which is neither the package's nor a peer SDK`);
    }
    return all;
}

for (const [name, budget] of Object.entries(BUDGET)) {
    test(`${name}.mjs is at most ${budget} bytes brotli`, () => {
        const bytes = Buffer.from(closure(join(dist, `${name}.mjs`)));
        const size = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
        console.log(`SIZE ${name}.mjs raw=${bytes.length} brotli=${size} budget=${budget}`);
        assert.ok(size <= budget, `${name}.mjs: ${size} bytes brotli, over its budget of ${budget}`);
    });
}
