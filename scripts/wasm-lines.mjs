// Go's line tables cut to one line per function, and the tables only a
// traceback reads emptied: post-link rewrites of the Go core's data.
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
// A traceback then names every function as before (names are kept), at
// the line where its code starts. The table bytes freed are zeroed, so the
// memory's layout is unchanged.
//
// The tables are found through the pclntab's header (runtime/symtab.go,
// pcHeader; magic 0xfffffff1, Go 1.20 and later) in the memory the data
// segments write, and the function table after it (_func: pcsp, pcfile and
// pcln at bytes 16, 20 and 24, npcdata at 28, the pcdata offsets from 44).
// A table another kind of table shares (the linker writes identical tables
// once) is kept as it is. Anything that does not read as that layout is an
// error: build with WASM_LINES=0 to ship Go's tables as they are.
//
// cutFrameTables (below) empties the inlining trees, the argument layouts
// and the unsafe points (352 KB raw, ~88 KB of the core's brotli bytes):
// what a traceback prints of a frame beyond its function's name, and what
// a preemption GOOS=js never does would read. WASM_FRAMES=0 keeps them.
//
//   node scripts/wasm-lines.mjs in.wasm out.wasm   (both rewrites)

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
 * The memory the data segments write, and the pclntab in it.
 * @param {Uint8Array} wasm a GOOS=js GOARCH=wasm build
 */
function pclntab(wasm) {
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
    const nfunc = word(0), funcnametab = header + word(3), pctab = header + word(6), functab = header + word(7);
    if (!(nfunc > 0 && header + word(3) < header + word(4) && word(4) <= word(5) && word(5) <= word(6) && word(6) < word(7) && functab + (nfunc + 1) * 8 <= mem.length)) {
        throw new Error(`pclntab header at ${header}: offsets out of order or past the data; expected Go 1.20+'s layout`);
    }
    /** @type {number[]} */
    const funcs = [];
    for (let i = 0; i < nfunc; i++) {
        const f = functab + view.getUint32(functab + i * 8 + 4, true);
        if (f + 44 > mem.length) throw new Error(`function ${i}: its record is past the data`);
        if (view.getUint32(f + 28, true) > 16) throw new Error(`function ${i}: ${view.getUint32(f + 28, true)} pcdata tables; expected a few (Go's _func layout)`);
        funcs.push(f);
    }

    /** @param {number} off @returns {{ end: number, span: number, first: number, max: number }} a table's end, pc span, first value's end, largest value */
    const readTable = (off) => {
        let p = pctab + off, span = 0, firstEnd = 0, value = -1, max = -1, v, d;
        for (let first = true; ; first = false) {
            if (p >= functab) throw new Error(`pc table at pctab+${off} runs past the pctab`);
            [v, p] = u32(mem, p);
            if (v === 0 && !first) return { end: p, span, first: firstEnd, max };
            if (first) firstEnd = p;
            value += v & 1 ? -((v + 1) >>> 1) : v >>> 1; // zig-zag
            max = Math.max(max, value);
            [d, p] = u32(mem, p);
            span += d;
        }
    };

    /** Where the funcdata offsets count from: moduledata.gofunc (runtime/symtab.go), found by its first two words. */
    const gofunc = () => {
        let found = -1;
        for (let i = 0; i + 42 * 8 <= mem.length; i += 8) {
            if (Number(view.getBigUint64(i, true)) === header && Number(view.getBigUint64(i + 8, true)) === funcnametab) {
                if (found >= 0) throw new Error(`two moduledata (at ${found} and ${i}); expected one`);
                found = i;
            }
        }
        if (found < 0) throw new Error("no moduledata pointing at the pclntab header: expected a Go 1.20+ GOOS=js build");
        const at = Number(view.getBigUint64(found + 40 * 8, true));
        if (!(at > functab && at < mem.length)) throw new Error(`moduledata at ${found}: gofunc ${at} is not after the function table`);
        return at;
    };

    const write = () => {
        for (const s of segs) bytes.set(mem.subarray(s.offset, s.offset + s.length), s.start);
        return bytes;
    };
    return { segs, mem, view, nfunc, funcnametab, pctab, funcs, readTable, gofunc, write };
}

/**
 * Cuts the file and line tables of every Go function to one entry.
 * @param {Uint8Array} wasm a GOOS=js GOARCH=wasm build
 * @returns {{ bytes: Uint8Array, functions: number, tables: number, shared: number, before: number, after: number }}
 *   the new binary; functions; tables rewritten; tables kept whole because a
 *   stack or GC table is the same bytes; the rewritten tables' bytes before and after
 */
export function cutLineTables(wasm) {
    const { segs, mem, view, nfunc, pctab, funcs, readTable, write } = pclntab(wasm);

    /** @type {Set<number>} */
    const keep = new Set();
    /** @type {Set<number>} */
    const lines = new Set();
    for (const f of funcs) {
        keep.add(view.getUint32(f + 16, true)); // pcsp
        for (const o of [view.getUint32(f + 20, true), view.getUint32(f + 24, true)]) if (o) lines.add(o);
        const npcdata = view.getUint32(f + 28, true);
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
    return { bytes: write(), functions: nfunc, tables, shared, before, after };
}

// The _func's pcdata and funcdata slots (internal/abi/symtab.go) cutFrameTables empties.
const PCDATA_UnsafePoint = 0, PCDATA_InlTreeIndex = 2;
const FUNCDATA_InlTree = 3, FUNCDATA_ArgInfo = 5;
const ARGINFO_END = 0xff, ARGINFO_MAX = 64; // _endSeq; abi.TraceArgsMaxLen is 50 or less
const INLINED_CALL = 16; // sizeof(runtime.inlinedCall)

/**
 * Empties, in every Go function's record, the tables GOOS=js reads only to
 * print or list frames, and those of a preemption it never does:
 * - the inlining trees and their pc tables: a traceback or runtime.Callers
 *   then lists the functions that were compiled, not those inlined into
 *   them (recover's check of its frames counts those too, so a recover()
 *   in a helper the compiler inlined into a deferred function would now
 *   stop the panic; the core has none: each of its recovers is in the
 *   deferred function itself);
 * - the argument layouts a traceback prints as "f(0x1, 0x2)", now "f()";
 * - the unsafe points of asynchronous preemption, which needs signals
 *   (runtime/os_wasm.go: preemptMSupported = false).
 * The runtime reads an empty slot as "none" (a pcdata offset of 0, a
 * funcdata offset of ~0); the bytes freed are zeroed, as are the names of
 * functions only the inlining trees named. A table or name anything else
 * still uses is kept.
 * @param {Uint8Array} wasm a GOOS=js GOARCH=wasm build
 * @returns {{ bytes: Uint8Array, functions: number, emptied: number, freed: number, shared: number }}
 *   the new binary; functions; slots emptied; bytes zeroed; tables, data
 *   and names kept because something kept uses them too
 */
export function cutFrameTables(wasm) {
    const { mem, view, nfunc, funcnametab, pctab, funcs, readTable, gofunc, write } = pclntab(wasm);
    const base = gofunc();
    const slots = (/** @type {number} */ f) => {
        const npcdata = view.getUint32(f + 28, true), nfuncdata = mem[f + 43];
        return {
            pcdata: (/** @type {number} */ j) => (j < npcdata ? f + 44 + j * 4 : -1),
            funcdata: (/** @type {number} */ j) => (j < nfuncdata ? f + 44 + npcdata * 4 + j * 4 : -1),
            npcdata,
            nfuncdata,
        };
    };

    /** @type {Set<number>} */
    const keepTables = new Set(), keepData = new Set(), keepNames = new Set();
    for (const f of funcs) {
        const s = slots(f);
        keepNames.add(view.getUint32(f + 4, true));
        for (const at of [16, 20, 24]) keepTables.add(view.getUint32(f + at, true));
        for (let j = 0; j < s.npcdata; j++) if (j !== PCDATA_UnsafePoint && j !== PCDATA_InlTreeIndex) keepTables.add(view.getUint32(s.pcdata(j), true));
        for (let j = 0; j < s.nfuncdata; j++) if (j !== FUNCDATA_InlTree && j !== FUNCDATA_ArgInfo) keepData.add(view.getUint32(s.funcdata(j), true));
    }

    /** @type {Set<number>} pctab offsets; funcnametab offsets */
    const tables = new Set(), names = new Set();
    /** @type {Map<number, number>} gofunc offset -> length */
    const data = new Map();
    let emptied = 0;
    for (const f of funcs) {
        const s = slots(f);
        const tree = s.funcdata(FUNCDATA_InlTree), index = s.pcdata(PCDATA_InlTreeIndex);
        if (tree >= 0 && view.getUint32(tree, true) !== 0xffffffff) {
            const off = view.getUint32(tree, true);
            const indexOff = index >= 0 ? view.getUint32(index, true) : 0;
            if (!indexOff) throw new Error(`function at ${f}: an inlining tree and no inlining pc table`);
            const calls = readTable(indexOff).max + 1;
            for (let k = 0; k < calls; k++) names.add(view.getInt32(base + off + k * INLINED_CALL + 4, true));
            data.set(off, calls * INLINED_CALL);
        }
        const args = s.funcdata(FUNCDATA_ArgInfo);
        if (args >= 0 && view.getUint32(args, true) !== 0xffffffff) {
            const off = view.getUint32(args, true);
            const end = mem.subarray(base + off, base + off + ARGINFO_MAX).indexOf(ARGINFO_END);
            if (end < 0) throw new Error(`function at ${f}: its argument layout at gofunc+${off} has no end mark in ${ARGINFO_MAX} bytes`);
            data.set(off, end + 1);
        }
        for (const at of [s.funcdata(FUNCDATA_InlTree), s.funcdata(FUNCDATA_ArgInfo)]) {
            if (at >= 0 && view.getUint32(at, true) !== 0xffffffff) {
                view.setUint32(at, 0xffffffff, true);
                emptied++;
            }
        }
        for (const at of [s.pcdata(PCDATA_UnsafePoint), index]) {
            if (at >= 0 && view.getUint32(at, true) !== 0) {
                tables.add(view.getUint32(at, true));
                view.setUint32(at, 0, true);
                emptied++;
            }
        }
    }

    let freed = 0, shared = 0;
    const zero = (/** @type {boolean} */ kept, /** @type {number} */ from, /** @type {() => number} */ to) => {
        if (kept) {
            shared++;
            return;
        }
        const end = to();
        mem.fill(0, from, end);
        freed += end - from;
    };
    for (const off of tables) zero(keepTables.has(off), pctab + off, () => readTable(off).end);
    for (const [off, length] of data) zero(keepData.has(off), base + off, () => base + off + length);
    for (const off of names) {
        zero(keepNames.has(off), funcnametab + off, () => {
            const end = mem.indexOf(0, funcnametab + off);
            if (end < 0) throw new Error(`function name at funcnametab+${off} has no end`);
            return end;
        });
    }
    return { bytes: write(), functions: nfunc, emptied, freed, shared };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    const [, , input, output] = process.argv;
    if (!input || !output) {
        console.error("usage: node scripts/wasm-lines.mjs in.wasm out.wasm");
        process.exit(2);
    }
    const frames = cutFrameTables(readFileSync(input));
    const r = cutLineTables(frames.bytes);
    writeFileSync(output, r.bytes);
    console.log(`wasm-lines: ${r.functions} functions, ${frames.emptied} frame tables emptied (${frames.freed} bytes), ${r.tables} file and line tables cut from ${r.before} to ${r.after} bytes`);
}
