// @mode-independent: a build script on the sandbox's sources; no factory
// but the check of the built core.
// scripts/prelude-min.mjs, the build's minified copies of prelude/*.js
// (embedded in the GOOS=js core through go build -overlay): each copy
// builds the same values as its source (run here in Node), keeps the
// /*GLOBALS*/ line the core fills in, and is what dist/code-mode.wasm holds.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { minify, writePreludeOverlay } from "../../scripts/prelude-min.mjs";

const dir = new URL("../../prelude/", import.meta.url).pathname;
const files = readdirSync(dir).filter((f) => f.endsWith(".js")).sort();
const source = (f) => readFileSync(join(dir, f), "utf8");
/** The value a prelude source evaluates to (an arrow function). @param {string} src */
const load = (src) => (0, eval)(`(${src.replace("/*GLOBALS*/", "")})`);

test("prelude-min: every source gets smaller, keeps its placeholder line, and still parses", () => {
    assert.ok(files.length >= 14, `prelude files: ${files}`);
    for (const f of files) {
        const src = source(f), min = minify(f, src);
        assert.ok(min.length < src.length * 0.95, `${f}: ${src.length} -> ${min.length} bytes`);
        assert.doesNotMatch(min, /^\s*\/\/|\n\s+\S/m, `${f}: a comment or an indented line is left`);
        assert.equal(min.split("/*GLOBALS*/\n").length, src.includes("  /*GLOBALS*/\n") ? 2 : 1, `${f}: the /*GLOBALS*/ line`);
        assert.equal(typeof load(min), "function", f);
    }
});

test("prelude-min: the minified built-ins behave as their sources (names, lengths, results)", () => {
    const both = (f, ...args) => [load(source(f))(...args), load(minify(f, source(f)))(...args)];
    const shape = (o) => Object.entries(o).map(([k, v]) => [k, typeof v, typeof v === "function" ? `${v.name}/${v.length}` : ""]);
    for (const f of ["base64.js", "text.js", "url.js", "clone.js"]) {
        const [a, b] = both(f);
        assert.deepEqual(shape(b), shape(a), f);
    }
    const [a64, b64] = both("base64.js");
    assert.equal(b64.btoa("hello"), a64.btoa("hello"));
    assert.equal(b64.atob("aGVsbG8="), "hello");
    assert.throws(() => b64.atob("@@"), (e) => e.name === "InvalidCharacterError");
    const [aURL, bURL] = both("url.js");
    const u = "https://user@example.com:8080/a/../b%20c?x=1&y=%C3%A9#frag";
    const parts = (U) => { const x = new U.URL(u); return [x.href, x.host, x.pathname, [...x.searchParams], String(new U.URLSearchParams({ a: "1 2", b: "&" }))]; };
    assert.deepEqual(parts(bURL), parts(aURL));
    const [aText, bText] = both("text.js");
    assert.deepEqual([...new bText.TextEncoder().encode("€ü")], [...new aText.TextEncoder().encode("€ü")]);
    const [aClone, bClone] = both("clone.js");
    const value = { d: new Date(0), m: new Map([[1, { s: new Set([2]) }]]), r: /x/g };
    assert.deepEqual(bClone(value), aClone(value));
    const logs = [[], []];
    // A host's time zones: one zone at GMT+01:30, named "Test Time".
    const tz = (zone, t, style) => (style === "" ? "Test/Zone" : style === "longOffset" ? "GMT+01:30" : "Test Time");
    const [aIntl, bIntl] = [load(source("intl.js"))((...m) => logs[0].push(m), Reflect.apply, tz), load(minify("intl.js", source("intl.js")))((...m) => logs[1].push(m), Reflect.apply, tz)];
    const formats = (I) => [I.n(1234567.891), I.n(0.5, "en-US", { style: "percent" }), I.d(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), "en-US", { timeZone: "UTC" }, "toLocaleString"), I.c("a", "B"), String(Object.keys(I.Intl)),
        I.d(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), "en-US", { timeZone: "x", timeZoneName: "long" }, "toLocaleString"), I.d(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), "en-US", { timeZone: "x", timeZoneName: "shortOffset" }, "toLocaleString")];
    assert.deepEqual(formats(aIntl).slice(5), ["1/2/2026, 4:34:05 AM Test Time", "1/2/2026, 4:34:05 AM GMT+1:30"]);
    assert.deepEqual(formats(bIntl), formats(aIntl));
    assert.deepEqual(logs[1], logs[0]);
});

test("prelude-min: names esbuild renames to avoid shadowing are put back as written", () => {
    // esbuild writes btoa2, locale2 and { locale: locale2 } here.
    const src = "() => {\n  const btoa = function btoa(d) { return d; };\n  const locale = (l) => l;\n  const f = (o, { locale = 1 }) => { const locale2 = 0; { const locale = o; return { locale, l: locale }; } };\n  return { btoa, f };\n}\n";
    assert.equal(minify("t.js", src), "()=>{const btoa=function btoa(d){return d};const locale=l=>l;const f=(o,{locale=1})=>{const locale2=0;{const locale=o;return{locale,l:locale}}};return{btoa,f}}\n");
});

test("prelude-min: what the core's compactJS would change, or a placeholder esbuild moves, is refused", () => {
    assert.throws(() => minify("t.js", "() => { return `a\n  // b`; }"), /t\.js: the core's compactJS would change/);
    assert.throws(() => minify("t.js", "() => {\n  /*GLOBALS*/\n  /*GLOBALS*/\n}"), /t\.js: placeholder \/\*GLOBALS\*\/ found 2 times/);
    assert.throws(() => minify("t.js", "() => { return ( }"), /Unexpected/);
});

test("prelude-min: the overlay maps each source to its copy", () => {
    const out = mkdtempSync(join(tmpdir(), "prelude-min-"));
    try {
        const { overlay, before, after } = writePreludeOverlay(dir.replace(/\/$/, ""), out);
        const { Replace } = JSON.parse(readFileSync(overlay, "utf8"));
        assert.deepEqual(Object.keys(Replace).sort(), files.map((f) => join(dir, f)));
        for (const f of files) assert.equal(readFileSync(Replace[join(dir, f)], "utf8"), minify(f, source(f)));
        assert.ok(after < before * 0.7, `${before} -> ${after} bytes`);
    } finally {
        rmSync(out, { recursive: true, force: true });
    }
});

test("prelude-min: dist/code-mode.wasm embeds the minified sources, not the readable ones", () => {
    const core = readFileSync(new URL("../../dist/code-mode.wasm", import.meta.url)); // make build
    for (const f of files) {
        assert.ok(core.includes(minify(f, source(f))), `${f}: the minified copy is not in the core`);
        assert.ok(!core.includes(source(f)), `${f}: the readable source is in the core`);
    }
});
