// Minified copies of the sandbox's JavaScript (prelude/*.js), for the
// GOOS=js build of the core: `go build -overlay` makes go:embed take them
// instead of the readable files, which the sources, native builds and the
// Go module's users keep. Whitespace and comments only (esbuild's
// minifyWhitespace): no identifier is renamed and no syntax rewritten, so
// function names, `arguments` and the order of evaluation stay as written.
// esbuild renames a function expression's name that shadows a binding
// (`const btoa = function btoa` becomes `function btoa2`, even unminified):
// every identifier is put back as written, checked against TypeScript's
// parse of the source. esbuild's one other change, global `undefined` read
// as `void 0`, is the same value (the global is read-only).
// The core's compactJS (execute.go) still runs over the copies and must
// leave them as they are: checked here, since it cuts lines that start with
// "//" (a template literal's raw line would lose it).

import { readdirSync, readFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as esbuild from "esbuild";
import ts from "typescript";

// A line that is only a comment such as /*GLOBALS*/ is a place the core
// fills in (builtins.go replaces "/*GLOBALS*/\n"): it stands as a statement
// through esbuild and comes back as that line.
const PLACEHOLDER = /^[ \t]*\/\*([A-Z]+)\*\/[ \t]*$/gm;
const marker = (name) => `__prelude_min_${name}__`;

const options = { loader: "js", minifyWhitespace: true, legalComments: "none", charset: "utf8", target: "esnext", logLevel: "silent" };

// The core's compactJS (execute.go), line for line.
const compactJS = (src) => src.split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("//")).map((l) => l + "\n").join("");

// identifiers lists the names of src in order, as {key, value, start, end}:
// a property written `key: value` or `key` (shorthand, value = key), in an
// object literal or a destructuring, is one entry spanning both (esbuild
// writes a shorthand whose binding it renames as `key: key2`); any other
// identifier is one with value "". `undefined` is left out: esbuild may print
// it as `void 0`.
function identifiers(src) {
    const sf = ts.createSourceFile("p.js", src, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
    const d = sf.parseDiagnostics[0];
    if (d) throw new Error(`line ${sf.getLineAndCharacterOfPosition(d.start).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
    const ids = [];
    const pair = (key, value) => ids.push({ key: key.text, value: value.text, start: key.getStart(sf), end: value.end });
    const visit = (n) => {
        if (ts.isShorthandPropertyAssignment(n)) {
            pair(n.name, n.name);
            if (n.objectAssignmentInitializer) visit(n.objectAssignmentInitializer);
        } else if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && ts.isIdentifier(n.initializer)) {
            pair(n.name, n.initializer);
        } else if (ts.isBindingElement(n) && ts.isIdentifier(n.name) && (!n.propertyName || ts.isIdentifier(n.propertyName))) {
            pair(n.propertyName || n.name, n.name);
            if (n.initializer) visit(n.initializer);
        } else if (ts.isIdentifier(n)) {
            if (n.text !== "undefined") ids.push({ key: n.text, value: "", start: n.getStart(sf), end: n.end });
        } else ts.forEachChild(n, visit);
    };
    visit(sf);
    return ids;
}

const same = (a, b) => a.key === b.key && a.value === b.value;
const text = (id) => (id.value === "" || id.value === id.key ? id.key : `${id.key}:${id.value}`);

// restoreNames puts min's names back to src's, one for one.
function restoreNames(name, src, min) {
    const want = identifiers(src), got = identifiers(min);
    if (want.length !== got.length) throw new Error(`${name}: esbuild's output has ${got.length} names, the source ${want.length}`);
    for (let i = got.length - 1; i >= 0; i--) {
        if (!same(got[i], want[i])) min = min.slice(0, got[i].start) + text(want[i]) + min.slice(got[i].end);
    }
    const back = identifiers(min);
    const i = back.findIndex((id, i) => !same(id, want[i]));
    if (i >= 0) throw new Error(`${name}: name ${i} is ${text(back[i])} after the restore, ${text(want[i])} in the source`);
    return min;
}

// minify returns the minified source of one prelude file. Each is one arrow
// function expression; esbuild ends that statement with ";", dropped so the
// source ends as written.
export function minify(name, src) {
    const names = [...src.matchAll(PLACEHOLDER)].map((m) => m[1]);
    const marked = src.replace(PLACEHOLDER, (_, n) => marker(n) + ";");
    const r = esbuild.transformSync(marked, options);
    if (r.warnings.length) throw new Error(`${name}: esbuild: ${r.warnings.map((w) => w.text).join("; ")}`);
    let min = restoreNames(name, marked, r.code.replace(/;\n$/, "\n"));
    for (const n of names) {
        // minifyWhitespace drops a block's last ";".
        const parts = min.split(new RegExp(marker(n) + ";?"));
        if (parts.length !== 2) throw new Error(`${name}: placeholder /*${n}*/ found ${parts.length - 1} times in esbuild's output, expected once`);
        min = parts.join(`\n/*${n}*/\n`);
    }
    if (compactJS(min) !== min) throw new Error(`${name}: the core's compactJS would change the minified source (a line starting with "//" or with blanks, in a template literal?)`);
    return min;
}

// writePreludeOverlay writes the minified copies of dir's *.js to outDir and
// returns the path of an overlay file (go build -overlay) mapping each
// source to its copy, with the bytes before and after.
export function writePreludeOverlay(dir, outDir) {
    mkdirSync(outDir, { recursive: true });
    const replace = {};
    let before = 0, after = 0;
    for (const f of readdirSync(dir).filter((f) => f.endsWith(".js")).sort()) {
        const src = readFileSync(join(dir, f), "utf8");
        const min = minify(f, src);
        writeFileSync(join(outDir, f), min);
        replace[join(dir, f)] = join(outDir, f);
        before += Buffer.byteLength(src);
        after += Buffer.byteLength(min);
    }
    const overlay = join(outDir, "overlay.json");
    writeFileSync(overlay, JSON.stringify({ Replace: replace }, null, 1) + "\n");
    return { overlay, before, after };
}
