// @mode-independent: a build script on the toolchain's sources; no factory.
// scripts/regexp-tables.mjs, the build's copy of regexp/syntax (through go
// build -overlay) that finds \p{...}'s tables without unicode's maps, and
// \d or [:alpha:] without maps of its own: every key of unicode.Categories
// and unicode.Scripts gives the same table as the maps, every Perl and
// POSIX class its group, any other name none, and the standard library's
// own tests of regexp/syntax (\p{Braille}, \pL, \p{^Greek}, [[:alpha:]],
// \d, ...) pass on the copy.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { rewriteGroups, rewriteParse, writeRegexpOverlay } from "../../scripts/regexp-tables.mjs";

const go = process.env.GO || "go";
const root = new URL("../..", import.meta.url).pathname;

const sameTables = String.raw`package syntax

import (
	"strings"
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

// The classes as make_perl_groups.pl writes them: a name, its sign, its ranges.
func TestOverlayGroups(t *testing.T) {
	want := map[string][]rune{
		"\\d": {'0', '9'}, "\\s": {'\t', '\n', '\f', '\r', ' ', ' '}, "\\w": {'0', '9', 'A', 'Z', '_', '_', 'a', 'z'},
		"[:alnum:]": {'0', '9', 'A', 'Z', 'a', 'z'}, "[:alpha:]": {'A', 'Z', 'a', 'z'}, "[:ascii:]": {0, 0x7f}, "[:blank:]": {'\t', '\t', ' ', ' '},
		"[:cntrl:]": {0, 0x1f, 0x7f, 0x7f}, "[:digit:]": {'0', '9'}, "[:graph:]": {'!', '~'}, "[:lower:]": {'a', 'z'}, "[:print:]": {' ', '~'},
		"[:punct:]": {'!', '/', ':', '@', '[', 0x60, '{', '~'}, "[:space:]": {'\t', '\r', ' ', ' '}, "[:upper:]": {'A', 'Z'},
		"[:word:]": {'0', '9', 'A', 'Z', '_', '_', 'a', 'z'}, "[:xdigit:]": {'0', '9', 'A', 'F', 'a', 'f'},
	}
	if len(perlGroups)+len(posixGroups) != 2*len(want) {
		t.Fatalf("%d Perl and %d POSIX groups, want %d", len(perlGroups), len(posixGroups), 2*len(want))
	}
	for name, ranges := range want {
		gs, neg := perlGroups[:], "\\"+strings.ToUpper(name[1:])
		if name[0] == '[' {
			gs, neg = posixGroups[:], "[:^"+name[2:]
		}
		if g := groupOf(gs, name); g.sign != +1 || string(g.class) != string(ranges) {
			t.Errorf("%s: %+v, want +1 %v", name, g, ranges)
		}
		if g := groupOf(gs, neg); g.sign != -1 || string(g.class) != string(ranges) {
			t.Errorf("%s: %+v, want -1 %v", neg, g, ranges)
		}
	}
	for _, name := range []string{"", "\\x", "[:foo:]", "[:alpha", "\\d "} {
		if g := groupOf(perlGroups[:], name); g.sign != 0 {
			t.Errorf("%q: a Perl group", name)
		}
		if g := groupOf(posixGroups[:], name); g.sign != 0 {
			t.Errorf("%q: a POSIX group", name)
		}
	}
}
`;

test("regexp-tables: the copy of regexp/syntax finds unicode's tables, and passes the standard library's tests", () => {
    const goroot = spawnSync(go, ["env", "GOROOT"], { encoding: "utf8" }).stdout.trim();
    const out = mkdtempSync(join(tmpdir(), "regexp-tables-"));
    try {
        const replace = writeRegexpOverlay(goroot, out, "test");
        assert.equal(Object.keys(replace).length, 3);
        // A copy named *.go under build/ would be a package of the module's own to go list ./... and go vet.
        for (const copy of Object.values(replace)) assert.doesNotMatch(copy, /\.go$/, copy);
        writeFileSync(join(out, "tables_test.go"), sameTables);
        replace[join(goroot, "src", "regexp", "syntax", "zz_unicode_tables_test.go")] = join(out, "tables_test.go");
        writeFileSync(join(out, "overlay.json"), JSON.stringify({ Replace: replace }));
        const r = spawnSync(go, ["test", "-count=1", `-overlay=${join(out, "overlay.json")}`, "-run", "OverlayTables|OverlayGroups|Parse|Unicode|Fold|Simplify", "-v", "regexp/syntax"], { cwd: root, encoding: "utf8" });
        assert.equal(r.status, 0, `go test regexp/syntax with the overlay:\n${r.stdout}${r.stderr}`);
        assert.match(r.stdout, /--- PASS: TestOverlayTablesAreUnicodes/);
        assert.match(r.stdout, /--- PASS: TestOverlayGroups/);
        assert.match(r.stdout, /--- PASS: TestParseSimple/);
    } finally {
        rmSync(out, { recursive: true, force: true });
    }
});

test("regexp-tables: a parse.go or perl_groups.go read other than the rewrite knows is refused", () => {
    const groups = "\tg := perlGroup[s[0:2]]\n\tg := posixGroup[name]\n";
    assert.equal(rewriteParse("a := unicode.Categories[name]\nb := unicode.Scripts[x]\n" + groups),
        "a := ucCategory(name)\nb := ucScript(x)\n\tg := groupOf(perlGroups[:], s[0:2])\n\tg := groupOf(posixGroups[:], name)\n");
    assert.throws(() => rewriteParse("for k := range unicode.Scripts {}\nunicode.Categories[k]" + groups), /read other than by an index/);
    assert.throws(() => rewriteParse("no tables here" + groups), /read other than by an index/);
    assert.throws(() => rewriteParse("unicode.Categories[k]\nfor k := range perlGroup {}\n" + groups), /perlGroup or posixGroup read other than by an index/);
    assert.equal(rewriteGroups("var perlGroup = map[string]charGroup{\n\t`\\d`: {+1, code1},\n}\nvar posixGroup = map[string]charGroup{\n\t`[:^word:]`:   {-1, code16},\n}\n"),
        "var perlGroups = [...]namedGroup{\n\t{`\\d`, charGroup{+1, code1}},\n}\nvar posixGroups = [...]namedGroup{\n\t{`[:^word:]`, charGroup{-1, code16}},\n}\n");
    assert.throws(() => rewriteGroups("var perlGroup = map[string]charGroup{\n\t`\\d`: {+1, code1, 2},\n}\n"), /unexpected line/);
    assert.throws(() => rewriteGroups("var perlGroup = map[string]charGroup{\n\t`\\d`: {+1, code1},\n}\n"), /1 of the maps/);
});
