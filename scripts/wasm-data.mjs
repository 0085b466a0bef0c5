// Fewer data segments for Go's WebAssembly: a post-link rewrite of the Go core.
//
// Go's linker (cmd/link/internal/wasm, writeDataSec) writes the memory's
// initial contents as active data segments, and starts a new segment after
// every run of more than 8 zero bytes, which is what a segment's header
// costs uncompressed (binaryen's memory-packing pass splits by the same
// rule). The core has about 75,000 of them, most between runs of 9 to 24
// zeros in the runtime's tables. Compressed, the trade goes the other way:
// zeros cost next to nothing, while every header holds a different offset
// that brotli and gzip cannot predict. Merging the segments that at most
// maxGap zero bytes apart writes those zeros out (the memory starts zeroed,
// so its contents are the same) and drops the headers: on the core, 74,936
// segments became 27, brotli 1,437,187 -> 1,350,981 B, gzip 1,971,098 ->
// 1,840,440 B, raw 7,446,797 -> 8,184,853 B (bench/README.md).
//
// Safe only where no instruction names a segment by index: memory.init and
// data.drop need a data count section, so a module with one is refused (Go
// writes none; wasm-opt adds one, which is why the build merges before it
// and tells it to skip memory-packing). Every segment must be active, in
// memory 0, at an i32.const offset, and none may overlap another.
//
//   node scripts/wasm-data.mjs in.wasm out.wasm [maxGap]

import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { encodeS32, encodeU32, s32, u32 } from "./leb128.mjs";

/** The default largest run of zeros written out to join two segments. */
export const MAX_GAP = 64;

/**
 * Reads the data section's segments, checking that they can be merged.
 * @param {Uint8Array} b @param {number} p @param {number} end
 * @returns {{ index: number, offset: number, data: Uint8Array }[]} by offset
 */
function readSegments(b, p, end) {
    let count;
    [count, p] = u32(b, p);
    /** @type {{ index: number, offset: number, data: Uint8Array }[]} */
    const segments = [];
    for (let i = 0; i < count; i++) {
        if (p + 2 > end) throw new Error(`data section: ends inside segment ${i} of ${count}`);
        const flag = b[p];
        if (flag !== 0 || b[p + 1] !== 0x41) {
            throw new Error(`data segment ${i}: expected an active segment of memory 0 at an i32.const offset (flag 0x00, then 0x41), got 0x${flag.toString(16)} 0x${b[p + 1].toString(16)}`);
        }
        let offset;
        [offset, p] = s32(b, p + 2);
        if (b[p++] !== 0x0b) throw new Error(`data segment ${i}: expected its offset expression to end after the i32.const`);
        let len;
        [len, p] = u32(b, p);
        segments.push({ index: i, offset: offset >>> 0, data: b.subarray(p, p + len) });
        p += len;
    }
    if (p !== end) throw new Error(`data section: ${end - p} bytes left after its ${count} segments`);
    // Go's are not all in the order of their offsets (a section placed
    // higher is written before the pclntab). Active segments that do not
    // overlap write the same memory in any order.
    segments.sort((x, y) => x.offset - y.offset);
    let prev;
    for (const s of segments) {
        if (prev && s.offset < prev.offset + prev.data.length) {
            throw new Error(`data segment ${s.index} (at ${s.offset}) overlaps segment ${prev.index} (${prev.offset} to ${prev.offset + prev.data.length}); expected segments that do not overlap`);
        }
        prev = s;
    }
    return segments;
}

/**
 * Merges the data segments that are at most maxGap zero bytes apart.
 * @param {Uint8Array} wasm
 * @param {number} [maxGap]
 * @returns {{ bytes: Uint8Array, before: number, after: number }} the new binary, segments before and after
 */
export function mergeDataSegments(wasm, maxGap = MAX_GAP) {
    const b = wasm;
    if (!Number.isSafeInteger(maxGap) || maxGap < 0) throw new Error(`maxGap: expected a non-negative integer, got ${maxGap}`);
    if (b.length < 8 || b[0] !== 0 || b[1] !== 0x61 || b[2] !== 0x73 || b[3] !== 0x6d) throw new Error("not a WebAssembly binary");
    /** @type {Uint8Array[]} */
    const out = [b.subarray(0, 8)];
    let before = 0, after = 0;
    let p = 8;
    while (p < b.length) {
        const id = b[p];
        const [size, q] = u32(b, p + 1);
        const end = q + size;
        if (id === 12) throw new Error("the module has a data count section: memory.init or data.drop may name data segments by index, which merging would change");
        if (id !== 11) {
            out.push(b.subarray(p, end));
            p = end;
            continue;
        }
        const segments = readSegments(b, q, end);
        before = segments.length;
        /** @type {{ offset: number, end: number, parts: { offset: number, data: Uint8Array }[] }[]} */
        const merged = [];
        for (const s of segments) {
            const last = merged.at(-1);
            if (last && s.offset - last.end <= maxGap) {
                last.parts.push(s);
                last.end = s.offset + s.data.length;
            } else {
                merged.push({ offset: s.offset, end: s.offset + s.data.length, parts: [s] });
            }
        }
        after = merged.length;
        /** @type {Uint8Array[]} */
        const content = [Uint8Array.from(encodeU32(merged.length))];
        for (const m of merged) {
            const data = new Uint8Array(m.end - m.offset);
            for (const s of m.parts) data.set(s.data, s.offset - m.offset);
            content.push(Uint8Array.from([0x00, 0x41, ...encodeS32(m.offset | 0), 0x0b, ...encodeU32(data.length)]), data);
        }
        const contentLen = content.reduce((a, x) => a + x.length, 0);
        // One push per part: a spread of 100,000 segments' parts overflows the stack.
        out.push(Uint8Array.of(11), Uint8Array.from(encodeU32(contentLen)));
        for (const x of content) out.push(x);
        p = end;
    }
    const bytes = new Uint8Array(out.reduce((a, x) => a + x.length, 0));
    let o = 0;
    for (const x of out) {
        bytes.set(x, o);
        o += x.length;
    }
    return { bytes, before, after };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    const [, , input, output, gap] = process.argv;
    if (!input || !output) {
        console.error("usage: node scripts/wasm-data.mjs in.wasm out.wasm [maxGap]");
        process.exit(2);
    }
    const r = mergeDataSegments(readFileSync(input), gap === undefined ? MAX_GAP : Number(gap));
    writeFileSync(output, r.bytes);
    console.log(`wasm-data: ${r.before} data segments merged into ${r.after}`);
}
