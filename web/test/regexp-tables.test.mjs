// @mode-independent: a build script on the toolchain's sources; no factory.
// scripts/regexp-tables.mjs, the build's copy of regexp/syntax (through go
// build -overlay) that finds \p{...}'s tables without unicode's maps: every
// key of unicode.Categories and unicode.Scripts gives the same table as the
// maps, any other name none, and the standard library's own tests of
// regexp/syntax (\p{Braille}, \pL, \p{^Greek}, ...) pass on the copy.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { rewriteParse, writeRegexpOverlay } from "../../scripts/regexp-tables.mjs";

const go = process.env.GO || "go";
const root = new URL("../..", import.meta.url).pathname;

const sameTables = `package syntax

import (
	"testing"
	"unicode"
)

func TestOverlayTablesAreUnicodes(t *testing.T) {
	if len(ucTables) != len(unicode.Categories)+len(unicode.Scripts) {
		t.Fatalf("%d tables, unicode has %d categories and %d scripts", len(ucTables), len(unicode.Categories), len(unicode.Scripts))
	}
	for k, v := range unicode.Categories {
		if ucCategory(k) != v {
			t.Errorf("category %q: another table", k)
		}
		if ucScript(k) != unicode.Scripts[k] {
			t.Errorf("category %q read as a script", k)
		}
	}
	for k, v := range unicode.Scripts {
		if ucScript(k) != v || ucCategory(k) != unicode.Categories[k] {
			t.Errorf("script %q: another table", k)
		}
	}
	for _, k := range []string{"", "Greekk", "Gree", "greek", "L ", "Adlam Ahom", "Zanabazar_Square "} {
		if ucCategory(k) != nil || ucScript(k) != nil {
			t.Errorf("%q: a table, unicode has none", k)
		}
	}
}
`;

test("regexp-tables: the copy of regexp/syntax finds unicode's tables, and passes the standard library's tests", () => {
    const goroot = spawnSync(go, ["env", "GOROOT"], { encoding: "utf8" }).stdout.trim();
    const out = mkdtempSync(join(tmpdir(), "regexp-tables-"));
    try {
        const replace = writeRegexpOverlay(goroot, out, "test");
        assert.equal(Object.keys(replace).length, 2);
        // A copy named *.go under build/ would be a package of the module's own to go list ./... and go vet.
        for (const copy of Object.values(replace)) assert.doesNotMatch(copy, /\.go$/, copy);
        writeFileSync(join(out, "tables_test.go"), sameTables);
        replace[join(goroot, "src", "regexp", "syntax", "zz_unicode_tables_test.go")] = join(out, "tables_test.go");
        writeFileSync(join(out, "overlay.json"), JSON.stringify({ Replace: replace }));
        const r = spawnSync(go, ["test", "-count=1", `-overlay=${join(out, "overlay.json")}`, "-run", "OverlayTables|Parse|Unicode|Fold|Simplify", "-v", "regexp/syntax"], { cwd: root, encoding: "utf8" });
        assert.equal(r.status, 0, `go test regexp/syntax with the overlay:\n${r.stdout}${r.stderr}`);
        assert.match(r.stdout, /--- PASS: TestOverlayTablesAreUnicodes/);
        assert.match(r.stdout, /--- PASS: TestParseSimple/);
    } finally {
        rmSync(out, { recursive: true, force: true });
    }
});

test("regexp-tables: a parse.go reading unicode's maps other than by a key is refused", () => {
    assert.equal(rewriteParse("a := unicode.Categories[name]\nb := unicode.Scripts[x]\n"), "a := ucCategory(name)\nb := ucScript(x)\n");
    assert.throws(() => rewriteParse("for k := range unicode.Scripts {}\nunicode.Categories[k]"), /read other than by an index/);
    assert.throws(() => rewriteParse("no tables here"), /read other than by an index/);
});
