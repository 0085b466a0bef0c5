// @mode-independent: each case sets worker itself, true and false.
// The QuickJS asset is fetched and compiled once per URL and shared by the
// factories that follow (wasm-load.mjs loadQuickJS), in both modes (in
// worker mode the page compiles it and hands it to each worker); a load
// that failed is tried again by the next factory. Counted as the requests a
// server gets for the asset. Before, each factory fetched it again (three
// factories, three requests), and Chromium kept ~0.5 MB of the page's
// memory per compile.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { assetPath, indexURL } from "./helpers.mjs";

const { IoCodeModeFactory } = await import(indexURL);
const asset = readFileSync(assetPath);
/** @type {Map<string, number>} requests by path */
const requests = new Map();
/** @type {Set<string>} paths answered 404 (once each) */
const failOnce = new Set();
let server;
let base;

before(async () => {
    server = createServer((req, res) => {
        requests.set(req.url, (requests.get(req.url) || 0) + 1);
        if (failOnce.delete(req.url)) {
            res.writeHead(404);
            return res.end();
        }
        res.writeHead(200, { "content-type": "application/wasm" });
        res.end(asset);
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${server.address().port}`;
});
after(() => new Promise((r) => server.close(r)));

async function runOnce(wasmLocation, worker) {
    const api = await IoCodeModeFactory({ wasmLocation, worker, tools: [{ name: "add", execute: ({ a, b }) => a + b }] });
    try {
        const [, executeCode] = api.createSession().getLlmTools();
        const r = await executeCode.execute({ code: "return await tools.add({ a: 2, b: 40 })", explanation: "x" });
        assert.equal(r.result, 42, JSON.stringify(r));
    } finally {
        api.dispose();
    }
}

for (const worker of [false, true]) {
    test(`worker: ${worker}: three factories fetch the QuickJS asset once`, async () => {
        const path = `/once-${worker}.wasm`;
        for (let i = 0; i < 3; i++) await runOnce(base + path, worker);
        assert.equal(requests.get(path), 1);
    });

    test(`worker: ${worker}: a load that failed is tried again by the next factory`, async () => {
        const path = `/retry-${worker}.wasm`;
        failOnce.add(path);
        await assert.rejects(runOnce(base + path, false), /Cannot load the QuickJS asset from .*HTTP 404/);
        await runOnce(base + path, worker);
        await runOnce(base + path, worker);
        assert.equal(requests.get(path), 2);
    });
}
