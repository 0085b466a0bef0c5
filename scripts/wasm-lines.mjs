// Go's line tables cut to one line per function: a post-link rewrite of the
// Go core's data.
//
// Go's runtime keeps, for every function, tables that map a program counter
// to values (runtime/symtab.go, pcvalue): the stack pointer's offset and the
// GC's stack maps, which the runtime needs, and the source file and line,
// which only a traceback reads (a crash's printout, runtime.Caller). The
// core never asks for a file or line (go build -ldflags=-dumpdep: nothing
// reaches runtime.Caller but reflectlite's method names, which read the
// function's name only), and the two tables weigh 254 KB raw, ~125 KB of
// the core's brotli bytes: more than any Go package but the runtime. This
// rewrite replaces each function's file and line tables with a table of
// one entry: the function's first file and line, for the whole function.
// A traceback then names every function as before (names and the inlining
// tree are kept), at the line where its code starts. The table bytes freed
// are zeroed, so the memory's layout is unchanged.
//
// The tables are found through the pclntab's header (runtime/symtab.go,
// pcHeader; magic 0xfffffff1, Go 1.20 and later) in the memory the data
// segments write, and the function table after it (_func: pcsp, pcfile and
// pcln at bytes 16, 20 and 24, npcdata at 28, the pcdata offsets from 44).
// A table another kind of table shares (the linker writes identical tables
// once) is kept as it is. Anything that does not read as that layout is an
// error: build with WASM_LINES=0 to ship Go's tables as they are.
//
//   node scripts/wasm-lines.mjs in.wasm out.wasm

import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { encodeU32, s32, u32 } from "./leb128.mjs";

const MAGIC = [0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8]; // Go 1.20+, pad, minLC 1 (wasm), 8-byte pointers

/**
 * The data segments' bytes, by memory address.
 * @param {Uint8Array} b
 * @returns {{ offset: number, start: number, length: number }[]} address, position in b, length; by address
 */
function segments(b) {
    if (b.length < 8 || b[0] !== 0 || b[1] !== 0x61 || b[2] !== 0x73 || b[3] !== 0x6d) throw new Error("not a WebAssembly binary");
    let p = 8;
    /** @type {{ offset: number, start: number, length: number }[]} */
    const segs = [];
    while (p < b.length) {
        const id = b[p];
        const [size, q] = u32(b, p + 1);
        if (id === 11) {
            let count, r;
            [count, r] = u32(b, q);
            for (let i = 0; i < count; i++) {
                if (b[r] !== 0 || b[r + 1] !== 0x41) throw new Error(`data segment ${i}: expected an active segment of memory 0 at an i32.const offset`);
                let offset, len;
                [offset, r] = s32(b, r + 2);
                if (b[r++] !== 0x0b) throw new Error(`data segment ${i}: expected its offset expression to end after the i32.const`);
                [len, r] = u32(b, r);
                segs.push({ offset: offset >>> 0, start: r, length: len });
                r += len;
            }
        }
        p = q + size;
    }
    return segs.sort((x, y) => x.offset - y.offset);
}

/**
 * Whether one segment holds the addresses [from, to).
 * @param {{ offset: number, length: number }[]} segs by address @param {number} from @param {number} to
 */
function covered(segs, from, to) {
    let lo = 0, hi = segs.length - 1;
    while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (segs[mid].offset <= from) lo = mid;
        else hi = mid - 1;
    }
    return segs[lo].offset <= from && to <= segs[lo].offset + segs[lo].length;
}

/**
 * Cuts the file and line tables of every Go function to one entry.
 * @param {Uint8Array} wasm a GOOS=js GOARCH=wasm build
 * @returns {{ bytes: Uint8Array, functions: number, tables: number, shared: number, before: number, after: number }}
 *   the new binary; functions; tables rewritten; tables kept whole because a
 *   stack or GC table is the same bytes; the rewritten tables' bytes before and after
 */
export function cutLineTables(wasm) {
    const bytes = Uint8Array.from(wasm);
    const segs = segments(bytes);
    if (segs.length === 0) throw new Error("no data segments: expected a Go build, whose data holds the pclntab");
    const last = segs.at(-1);
    const mem = new Uint8Array(last.offset + last.length);
    for (const s of segs) mem.set(bytes.subarray(s.start, s.start + s.length), s.offset);

    let header = -1;
    for (let i = mem.indexOf(MAGIC[0]); i >= 0; i = mem.indexOf(MAGIC[0], i + 1)) {
        if (i % 8 === 0 && MAGIC.every((x, j) => mem[i + j] === x)) {
            if (header >= 0) throw new Error(`two pclntab headers (at ${header} and ${i}); expected one`);
            header = i;
        }
    }
    if (header < 0) throw new Error("no pclntab header (magic 0xfffffff1, minLC 1, 8-byte pointers): expected a Go 1.20+ GOOS=js build");
    const view = new DataView(mem.buffer);
    const word = (/** @type {number} */ i) => Number(view.getBigUint64(header + 8 + i * 8, true));
    const nfunc = word(0), pctab = header + word(6), functab = header + word(7);
    if (!(nfunc > 0 && header + word(3) < header + word(4) && word(4) <= word(5) && word(5) <= word(6) && word(6) < word(7) && functab + (nfunc + 1) * 8 <= mem.length)) {
        throw new Error(`pclntab header at ${header}: offsets out of order or past the data; expected Go 1.20+'s layout`);
    }

    /** @param {number} off @returns {{ end: number, span: number, first: number }} a table's end, pc span, first value's end */
    const readTable = (off) => {
        let p = pctab + off, span = 0, firstEnd = 0, v, d;
        for (let first = true; ; first = false) {
            if (p >= functab) throw new Error(`pc table at pctab+${off} runs past the pctab`);
            [v, p] = u32(mem, p);
            if (v === 0 && !first) return { end: p, span, first: firstEnd };
            if (first) firstEnd = p;
            [d, p] = u32(mem, p);
            span += d;
        }
    };

    /** @type {Set<number>} */
    const keep = new Set();
    /** @type {Set<number>} */
    const lines = new Set();
    for (let i = 0; i < nfunc; i++) {
        const f = functab + view.getUint32(functab + i * 8 + 4, true);
        if (f + 44 > mem.length) throw new Error(`function ${i}: its record is past the data`);
        keep.add(view.getUint32(f + 16, true)); // pcsp
        for (const o of [view.getUint32(f + 20, true), view.getUint32(f + 24, true)]) if (o) lines.add(o);
        const npcdata = view.getUint32(f + 28, true);
        if (npcdata > 16) throw new Error(`function ${i}: ${npcdata} pcdata tables; expected a few (Go's _func layout)`);
        for (let j = 0; j < npcdata; j++) keep.add(view.getUint32(f + 44 + j * 4, true));
    }

    let tables = 0, shared = 0, before = 0, after = 0;
    for (const off of lines) {
        if (keep.has(off)) {
            shared++;
            continue;
        }
        const t = readTable(off);
        const start = pctab + off;
        // The first value as it was, for the whole span, then the end mark.
        const table = [...mem.subarray(start, t.first), ...encodeU32(t.span), 0];
        if (table.length > t.end - start) continue; // a span longer than the table: never seen
        if (!covered(segs, start, start + table.length)) throw new Error(`pc table at pctab+${off}: not all in one data segment`);
        mem.fill(0, start, t.end);
        mem.set(table, start);
        tables++;
        before += t.end - start;
        after += table.length;
    }

    for (const s of segs) bytes.set(mem.subarray(s.offset, s.offset + s.length), s.start);
    return { bytes, functions: nfunc, tables, shared, before, after };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    const [, , input, output] = process.argv;
    if (!input || !output) {
        console.error("usage: node scripts/wasm-lines.mjs in.wasm out.wasm");
        process.exit(2);
    }
    const r = cutLineTables(readFileSync(input));
    writeFileSync(output, r.bytes);
    console.log(`wasm-lines: ${r.functions} functions, ${r.tables} file and line tables cut from ${r.before} to ${r.after} bytes`);
}
