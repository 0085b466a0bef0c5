// Worker mode checks a schema on the page (schemacheck.mjs schemaProblem)
// so that registerTool throws at once, with the words the Go check says
// in-thread. Patterns it judges itself (re2Problem) must get what Go's RE2
// parser says, pattern for pattern, and where it cannot say, it must say
// nothing (the core then refuses the tool a message later).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { assetPath, withFactory } from "./helpers.mjs";
import { re2Problem, schemaProblem } from "../src/schemacheck.mjs";

// The table schemacheck_table_test.go holds the Go check to, rule by rule:
// the copy must give the same message for every row, except where a row
// says the page leaves a pattern to the core ("page").
test("schemaProblem gives schemacheck.go's message for every row of the shared table", () => {
    const { rows } = JSON.parse(readFileSync(new URL("../../testdata/schemacheck.json", import.meta.url), "utf8"));
    assert.ok(rows.length > 300, `${rows.length} rows`);
    for (const row of rows) {
        assert.equal(typeof row.error, "string", `every row says its message: ${JSON.stringify(row)}`);
        if ("page" in row) {
            assert.ok(row.page === "" && row.error.includes("cannot be enforced: patterns are checked"), `page may only leave a pattern to the core: ${JSON.stringify(row)}`);
        }
        assert.equal(schemaProblem(row.schema), row.page ?? row.error, JSON.stringify(row.schema));
    }
});

// Pieces JavaScript patterns are made of, RE2's and not.
const pieces = ["a", "z", "(", ")", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<n>", "(?P<m>", "(?i)", "[", "]", "[^", "-", "^", "$", ".", "|", "*", "+", "?",
    "{", "}", "{2}", "{1,3}", "{2,}", "{1001}", "{3,1}", "{01}", ",", "\\", "\\1", "\\8", "\\12", "\\0", "\\d", "\\w", "\\b", "\\B", "\\k", "\\u", "\\c",
    "\\x41", "\\x{41}", "\\p{L}", "\\pL", "\\p{Foo}", "\\.", "\\-", "\\]", "\\/", "\\n", "\\e", "\\Q", "\\E", "\\A", "\\z", "\\Z", "[:alpha:]", "[:foo:]",
    "é", "😀", " ", ">", "<"];

/** A fixed pseudo-random list of patterns (the same every run). */
function patterns(n) {
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    return Array.from({ length: n }, () => {
        let p = "";
        for (let k = 1 + Math.floor(next() * 10); k > 0; k--) p += pieces[Math.floor(next() * pieces.length)];
        return p;
    });
}

test("re2Problem says what Go's parser says", async (t) => {
    const api = await withFactory(t, { wasmLocation: assetPath, worker: false });
    let refused = 0;
    let judged = 0;
    for (const p of patterns(3000)) {
        let goSays = "";
        try {
            api.registerTool({ name: "t.x", inputSchema: { pattern: p }, execute: () => 1 })();
        } catch (e) {
            const m = /\(error parsing regexp: (.*)\); rewrite it/s.exec(e.message);
            assert.ok(m, `${JSON.stringify(p)}: ${e.message}`);
            goSays = m[1];
            refused++;
        }
        const pageSays = re2Problem(p);
        if (pageSays) judged++;
        // Every pattern is judged on the page as Go judges it: none of
        // these is near Go's size limits, the one thing left to the core.
        assert.equal(pageSays, goSays, JSON.stringify(p));
    }
    assert.ok(refused > 2000 && judged === refused, `refused ${refused}, judged ${judged}`);
});

// Nested counted repeats whose product passes 1,000 were left to the core
// as possibly large: worker mode registered the tool and the worker refused
// it later (console.error, the tool unknown to the program). registerTool
// now throws at once in both modes, with the same message.
test("nested repeat counts past 1,000, and a pattern past Go's size limit, are refused at registration in both modes, alike", async (t) => {
    const said = [];
    for (const worker of [false, true]) {
        const api = await withFactory(t, { wasmLocation: assetPath, worker });
        for (const pattern of ["(((a{100}){100}){100})", "(\\pL{500}){200}", "[a-z]{1000}".repeat(3356)]) {
            assert.throws(() => api.registerTool({ name: "t.x", inputSchema: { type: "object", properties: { s: { type: "string", pattern } } }, execute: () => 1 }), (e) => {
                said.push(e.message);
                return e instanceof TypeError && e.message.startsWith('tool ("t.x"): inputSchema: /properties/s/pattern: ') && /invalid repeat count|expression too large/.test(e.message);
            });
        }
        assert.deepEqual(api.listTools(), []);
    }
    assert.deepEqual(said.slice(3), said.slice(0, 3));
});

// Go's size limit (3,355,443 instructions), which the page computed for no
// pattern: one past it was registered in worker mode and refused by the
// worker later. The page now says what Go says where its size is Go's (no
// alternation, which Go factors), at the limit and around it.
test("re2Problem says what Go's parser says of patterns near its size limit", async (t) => {
    const api = await withFactory(t, { wasmLocation: assetPath, worker: false });
    const goSays = (p) => {
        try {
            api.registerTool({ name: "t.x", inputSchema: { pattern: p }, execute: () => 1 })();
            return "";
        } catch (e) {
            const m = /\(error parsing regexp: (.*)\); rewrite it/s.exec(e.message);
            assert.ok(m, e.message.slice(0, 300));
            return m[1];
        }
    };
    const cases = [
        "[a-z]{1000}".repeat(3355), // 3,355,000: within
        "[a-z]{1000}".repeat(3356), // past
        "(?:[a-z]{1000}){1}".repeat(3356),
        "([a-z]{1000})".repeat(3352), // captures: 1,002 each
        "([a-z]{1000})".repeat(3349),
        "(x{1000}x{1000}x{1000}x{1000}){1000}", // too large before its counts are judged
        "(x{10}){1000}",
        "a*".repeat(1_200_000),
        "x{2,}".repeat(1_200_000),
        "[a-z]{1000}".repeat(3356) + ")", // too large before the unbalanced )
        "(" + "[a-z]{1000}".repeat(3356), // the last concat before the missing )
    ];
    let large = 0;
    for (const p of cases) {
        const go = goSays(p);
        if (go.startsWith("expression too large")) large++;
        assert.equal(re2Problem(p), go, `${p.slice(0, 60)}… (${p.length} chars)`);
    }
    assert.ok(large >= 5, `${large} too large`);
});
