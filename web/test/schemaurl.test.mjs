// @mode-independent: URL resolution alone; no engine runs.
// The page resolves a schema's ids and references as the core does (Go's
// net/url, schemaref.go's resolveURL), not as a WHATWG URL would: each row's
// answer is what go1.26's url.Parse + ResolveReference gave for it (null:
// url.Parse refuses). Where the page is not sure it says "" and leaves the
// schema to the core; it must never answer otherwise than Go.
import assert from "node:assert/strict";
import { test } from "node:test";
import { resolveRef } from "../src/schemaurl.mjs";

const known = [
    ["mem:///codemode/schema.json", "item.json", "mem:///codemode/item.json"],
    ["mem:///codemode/schema.json", "./a/../item.json#x", "mem:///codemode/item.json"],
    ["http://X.test/a/b.json", "c.json", "http://X.test/a/c.json"],
    ["HTTP://x.test/a/b.json", "c.json", "http://x.test/a/c.json"],
    ["http://x.test/a/b.json", "HTTP://X.test/c.json", "http://X.test/c.json"],
    ["http://x.test:80/a/b.json", "c.json", "http://x.test:80/a/c.json"],
    ["https://x.test/a/b/c.json", "../../../d.json", "https://x.test/d.json"],
    ["https://x.test/a/b/c.json", "/d.json", "https://x.test/d.json"],
    ["https://x.test/a/b/c.json", ".", "https://x.test/a/b/"],
    ["https://x.test/a/b/c.json", "..", "https://x.test/a/"],
    ["https://x.test/a/b.json", "%2e%2e/c.json", "https://x.test/a/%2e%2e/c.json"],
    ["https://x.test/a/b.json", "%2e%2e/c d.json", "https://x.test/c%20d.json"],
    ["https://x.test/a/b.json", "a b/é!.json", "https://x.test/a/a%20b/%C3%A9%21.json"],
    ["https://x.test/a/b.json", "%41(x).json", "https://x.test/a/%41(x).json"],
    ["https://x.test/a/b.json", "a%2Fb c", "https://x.test/a/a/b%20c"],
    ["http:///a.json", "b.json", "http:///b.json"],
    ["http://x.test/a.json", "http://", "http:"],
    ["http://x.test/a.json", "urn:example:b", "urn:example:b"],
    ["http://x.test/a.json", "a:b", "a:b"],
    ["http://x.test/a.json", "%zz", null],
    ["http://x.test/a.json", "c.json#%zz", null], // the fragment's escape
    ["http://x.test/a.json", "c.json#%4", null],
    ["http://x.test/a.json", "c.json#%41", "http://x.test/c.json"],
];
// Go's answers, which the page does not give: "" (the core judges).
const unsure = [
    ["urn:example:a", "b.json"], // Go: "urn:///b.json" (the compiler keeps the opaque base)
    ["http://x.test/a.json", "b.json?q"], // Go: "http://x.test/b.json?q"
    ["http://x.test/a.json", "//y.test/b.json"], // Go: "http://y.test/b.json"
    ["http://x.test/a.json", "http://[::1]/b.json"], // Go: "http://[::1]/b.json"
    ["", "b.json"], // a base not known here
];

test("ids and references resolve as Go's net/url resolves them", () => {
    for (const [base, ref, want] of known) assert.equal(resolveRef(base, ref), want, `resolveRef(${JSON.stringify(base)}, ${JSON.stringify(ref)})`);
    for (const [base, ref] of unsure) assert.equal(resolveRef(base, ref), "", `resolveRef(${JSON.stringify(base)}, ${JSON.stringify(ref)}) should be left to the core`);
});
