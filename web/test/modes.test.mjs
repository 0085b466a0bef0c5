// make test-node-worker runs web/test again with CODE_MODE_WORKER=1, except
// the files marked "// @mode-independent: why" on their first line: their
// tests never read the suite's mode (they set worker themselves, compare
// both modes, or run no engine), so a second run would repeat the same
// work (register-parity alone is ~100 s of CPU). This keeps the marker
// true: a marked file, and every local module it imports, names none of
// the ways to the mode (helpers.mjs's WORKER, loadFactory, withFactory, or
// the variable itself).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { root } from "./helpers.mjs";

const dir = join(root, "web", "test");
const MODE = /\b(WORKER|loadFactory|withFactory|CODE_MODE_WORKER)\b/;
const MARK = /^\/\/ @mode-independent: \S/;

/** The local modules `file` imports statically, transitively, helpers.mjs aside (it defines the mode's ways; a marked file may use its other exports). */
function localImports(file, seen = new Set()) {
    for (const [, spec] of readFileSync(file, "utf8").matchAll(/^import\b[^;]*?\bfrom\s+["'](\.{1,2}\/[^"']+)["']/gm)) {
        const dep = resolve(dirname(file), spec);
        if (dep === join(dir, "helpers.mjs") || seen.has(dep)) continue;
        seen.add(dep);
        localImports(dep, seen);
    }
    return seen;
}

const files = readdirSync(dir).filter((f) => f.endsWith(".test.mjs"));
const marked = files.filter((f) => MARK.test(readFileSync(join(dir, f), "utf8")));

test("a file marked @mode-independent reads no engine mode of the suite's, nor do the modules it imports", () => {
    assert.ok(marked.length > 0);
    for (const f of marked) {
        const path = join(dir, f);
        const body = readFileSync(path, "utf8").split("\n").slice(1).join("\n");
        assert.doesNotMatch(body, MODE, `${f} is marked @mode-independent but reads the mode`);
        for (const dep of localImports(path)) assert.doesNotMatch(readFileSync(dep, "utf8"), MODE, `${f} is marked @mode-independent but imports ${dep}, which reads the mode`);
    }
});

test("the marker is on the first line, where make test-node-worker's grep looks", () => {
    for (const f of files.filter((f) => f !== "modes.test.mjs")) {
        const lines = readFileSync(join(dir, f), "utf8").split("\n");
        assert.ok(!lines.slice(1).some((l) => l.includes("@mode-independent")), `${f}: the marker must be the first line`);
    }
});
