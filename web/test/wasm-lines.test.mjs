// @mode-independent: a build script on a Go program; no factory.
// scripts/wasm-lines.mjs, the build's cut of the Go core's file and line
// tables: a Go program prints the same after it, but for the lines its own
// frames report, which become the line where each function's code starts;
// the function names are kept. What is not a Go build's pclntab is refused.
// Its cut of the frame tables: the same program's work, but frames list the
// compiled functions only (no inlined ones), and a traceback no arguments.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { encodeU32 } from "../../scripts/leb128.mjs";
import { mergeDataSegments } from "../../scripts/wasm-data.mjs";
import { cutFrameTables, cutLineTables } from "../../scripts/wasm-lines.mjs";
import { runRewritten } from "./go-wasm.mjs";

const program = readFileSync(new URL("./testdata/wasm-lines.go", import.meta.url), "utf8");
/** The line of program that contains marker (1-based). @param {string} marker */
const lineOf = (marker) => {
    const i = program.split("\n").findIndex((l) => l.includes(marker));
    assert.ok(i >= 0, `no line of the program contains ${marker}`);
    return i + 1;
};

test("wasm-lines: a Go program runs the same; its frames keep their names and report where their function starts", () => {
    // The build's order: data segments merged first.
    const { original, result, want, got } = runRewritten(program, (w) => cutLineTables(mergeDataSegments(w).bytes));
    const [wantWork, wantFrames] = want.split("---\n");
    const [gotWork, gotFrames] = got.split("---\n");
    assert.equal(gotWork, wantWork);
    assert.match(wantWork, /^sum 2001000 goroutines 8 recovered: assignment to entry in nil map\n$/);
    // Go's tables: the lines of the calls.
    assert.equal(wantFrames, `main.frames ${lineOf("// frames call")}\nmain.outer ${lineOf("// outer call")}\nmain.main ${lineOf("// main call")}\nstack main.main\n`);
    // Cut: each function's first line.
    assert.equal(gotFrames, `main.frames ${lineOf("// frames")}\nmain.outer ${lineOf("// outer")}\nmain.main ${lineOf("func main()")}\nstack main.main\n`);
    assert.ok(result.functions > 1000, `functions: ${result.functions}`);
    assert.ok(result.tables > result.functions, `tables: ${result.tables}, expected more than the ${result.functions} functions (a file and a line table each)`);
    assert.ok(result.after * 5 < result.before, `bytes: ${result.before} -> ${result.after}`);
    assert.equal(result.bytes.length, mergeDataSegments(original).bytes.length, "the binary's size must not change");
    // Cut again, nothing changes.
    assert.deepEqual(Buffer.from(cutLineTables(result.bytes).bytes), Buffer.from(result.bytes));
});

test("wasm-lines: a Go program works the same without its frame tables; its frames are the compiled functions, its traceback prints no arguments", () => {
    const frames = readFileSync(new URL("./testdata/wasm-frames.go", import.meta.url), "utf8");
    // The build's order: data segments merged, frame tables, then lines.
    const { original, result, want, got } = runRewritten(frames, (w) => cutLineTables(cutFrameTables(mergeDataSegments(w).bytes).bytes));
    const [wantWork, wantFrames] = want.split("---\n");
    const [gotWork, gotFrames] = got.split("---\n");
    assert.equal(gotWork, wantWork);
    assert.match(wantWork, /^sum 2001000 goroutines 8 recovered: assignment to entry in nil map deferred 3 15\n$/);
    assert.equal(wantFrames, "[main.callers main.inlined main.outer main.main]\n[main.withArgs(0x28, 0x2) 42]\n");
    assert.equal(gotFrames, "[main.callers main.outer main.main]\n[main.withArgs() 42]\n");
    const cut = cutFrameTables(mergeDataSegments(original).bytes);
    assert.ok(cut.emptied > cut.functions, `emptied: ${cut.emptied} slots of ${cut.functions} functions`);
    assert.ok(cut.freed > 100_000, `freed: ${cut.freed} bytes`);
    assert.equal(cut.bytes.length, mergeDataSegments(original).bytes.length, "the binary's size must not change");
    // Cut again, nothing changes.
    assert.deepEqual(Buffer.from(cutFrameTables(cut.bytes).bytes), Buffer.from(cut.bytes));
});

const uleb = encodeU32;
/** @param {number} id @param {number[]} body */
const section = (id, body) => [id, ...uleb(body.length), ...body];
/** A module with one page of memory and one active segment at 64. @param {number[]} bytes */
const moduleWith = (bytes) =>
    Uint8Array.from([
        0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
        ...section(5, [1, 0x00, 1]),
        ...section(11, [1, 0x00, 0x41, 0xc0, 0x00, 0x0b, ...uleb(bytes.length), ...bytes]),
    ]);
const magic = [0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8];

test("wasm-lines: what is not a Go 1.20+ wasm pclntab is refused, by name", () => {
    const rows = [
        { name: "not WebAssembly", bytes: Buffer.from("not wasm at all"), want: /^Error: not a WebAssembly binary$/ },
        {
            name: "no data",
            bytes: Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]),
            want: /no data segments: expected a Go build, whose data holds the pclntab/,
        },
        { name: "no header", bytes: moduleWith([1, 2, 3, 4, 5, 6, 7, 8]), want: /no pclntab header \(magic 0xfffffff1, minLC 1, 8-byte pointers\)/ },
        {
            name: "an older Go's magic",
            bytes: moduleWith([0xf0, 0xff, 0xff, 0xff, 0, 0, 1, 8, ...Array(64).fill(0)]),
            want: /no pclntab header/,
        },
        { name: "two headers", bytes: moduleWith([...magic, ...Array(72).fill(0), ...magic]), want: /two pclntab headers \(at 64 and 144\); expected one/ },
        { name: "a header with no functions", bytes: moduleWith([...magic, ...Array(72).fill(0)]), want: /pclntab header at 64: offsets out of order or past the data/ },
    ];
    for (const row of rows) assert.throws(() => cutLineTables(row.bytes), row.want, row.name);
});

test("wasm-lines: a table a stack table shares is kept; another is cut to its first value over its whole span", () => {
    const u64 = (/** @type {number} */ n) => [n & 0xff, (n >> 8) & 0xff, 0, 0, 0, 0, 0, 0];
    const u32le = (/** @type {number} */ n) => [n & 0xff, (n >> 8) & 0xff, 0, 0];
    // pctab: 0 (no table), then at 1 a table of values 0, 1 over 5 and 3
    // pcs (zig-zag deltas from -1), at 6 one of 0, 2 over 4 and 6 pcs.
    const pctab = [0, 2, 5, 2, 3, 0, 2, 4, 4, 6, 0, 0, 0, 0, 0, 0];
    const pcln = 88 + pctab.length;
    const header = [...magic, ...u64(1), ...u64(1), ...u64(0), ...u64(72), ...u64(80), ...u64(80), ...u64(88), ...u64(pcln)];
    // One function: pcsp and pcln share the table at 1, pcfile is the one at 6.
    const functab = [...u32le(0), ...u32le(16), ...u32le(10), ...u32le(0)];
    const func = [...u32le(0), ...u32le(0), ...u32le(0), ...u32le(0), ...u32le(1), ...u32le(6), ...u32le(1), ...u32le(0), ...u32le(0), ...u32le(0), 0, 0, 0, 0];
    const data = [...header, ...Array(16).fill(0), ...pctab, ...functab, ...func];
    const r = cutLineTables(moduleWith(data));
    assert.deepEqual({ tables: r.tables, shared: r.shared, before: r.before, after: r.after }, { tables: 1, shared: 1, before: 5, after: 3 });
    assert.ok(WebAssembly.validate(r.bytes));
    const out = Buffer.from(r.bytes);
    const at = out.length - data.length + 88; // the segment's bytes end the module
    assert.deepEqual([...out.subarray(at, at + 16)], [0, 2, 5, 2, 3, 0, 2, 10, 0, 0, 0, 0, 0, 0, 0, 0]);
});
