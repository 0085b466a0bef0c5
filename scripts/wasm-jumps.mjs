// Forward jumps for Go's WebAssembly: a post-link rewrite of the Go core.
//
// Go's wasm backend (cmd/internal/obj/wasm) wraps each function's code in
// one `loop` whose head is a `br_table` over the function's basic blocks
// ("segments": the code after the i-th of the blocks nested at the loop's
// head), and compiles every jump between them as
//
//     i32.const <target segment>; local.set 0 (PC_B); br <that loop>
//
// so every jump, forward ones included, goes back to the loop's head and
// through the br_table. V8 charges each backward branch against the
// function's tier-up budget by the length of machine code it jumps back
// over, so a large Go function that runs a few dozen branches once is
// judged hot and compiled again by TurboFan, in background threads, at
// every cold start (bench/README.md, "Cold start: where the time goes").
//
// A jump to a later segment can branch forward instead: the target is
// the end of a block that still encloses the jump, and `br` to it lands
// exactly where the br_table would have sent it. The rewrite changes only
// the depth of those `br`s (PC_B is still set, so nothing that reads it
// sees a difference); backward jumps, calls, resume points and everything
// else stay as they are. A function whose shape is not Go's, or that holds
// an instruction this reader does not know, is left unchanged.
//
//   node scripts/wasm-jumps.mjs in.wasm out.wasm

import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { encodeU32, s32, skipLEB, u32 } from "./leb128.mjs";

// Skips an instruction's immediates. Returns the position after them, or -1
// for an opcode this reader does not know.
/** @param {Uint8Array} b @param {number} op @param {number} p */
function skipImmediates(b, op, p) {
    if (op === 0x02 || op === 0x03 || op === 0x04) {
        // block type: empty, a value type, or a type index (s33)
        return b[p] === 0x40 || (b[p] >= 0x6f && b[p] <= 0x7f) ? p + 1 : skipLEB(b, p);
    }
    if (op === 0x0c || op === 0x0d) return skipLEB(b, p);
    if (op === 0x0e) {
        let n;
        [n, p] = u32(b, p);
        for (let i = 0; i <= n; i++) p = skipLEB(b, p);
        return p;
    }
    if (op === 0x10) return skipLEB(b, p);
    if (op === 0x11) return skipLEB(b, skipLEB(b, p));
    if (op === 0x1c) {
        let n;
        [n, p] = u32(b, p);
        return p + n;
    }
    if (op >= 0x20 && op <= 0x26) return skipLEB(b, p);
    if (op >= 0x28 && op <= 0x3e) return skipLEB(b, skipLEB(b, p));
    if (op === 0x3f || op === 0x40) return p + 1;
    if (op === 0x41 || op === 0x42) return skipLEB(b, p);
    if (op === 0x43) return p + 4;
    if (op === 0x44) return p + 8;
    if (op === 0x00 || op === 0x01 || op === 0x05 || op === 0x0b || op === 0x0f || op === 0x1a || op === 0x1b) return p;
    if (op >= 0x45 && op <= 0xc4) return p;
    if (op === 0xd0) return p + 1;
    if (op === 0xd1) return p;
    if (op === 0xd2) return skipLEB(b, p);
    if (op === 0xfc) {
        let sub;
        [sub, p] = u32(b, p);
        if (sub <= 7) return p;
        if (sub === 8) return skipLEB(b, p) + 1;
        if (sub === 9 || sub === 13 || sub === 15 || sub === 16 || sub === 17) return skipLEB(b, p);
        if (sub === 10) return p + 2;
        if (sub === 11) return p + 1;
        if (sub === 12 || sub === 14) return skipLEB(b, skipLEB(b, p));
        return -1;
    }
    return -1;
}

// Rewrites one function body (locals and code). Returns null when it has
// nothing to change or is not of Go's shape.
/** @param {Uint8Array} b @param {number} start @param {number} end */
function rewriteBody(b, start, end) {
    let p = start;
    let n;
    [n, p] = u32(b, p);
    // locals: a count and a one-byte value type per entry
    for (let i = 0; i < n; i++) p = skipLEB(b, p) + 1;
    // Control stack: each entry is the kind, and for the blocks at the head
    // of Go's loop their segment number.
    /** @type {{ kind: number, seg: number, loop: boolean }[]} */
    const stack = [];
    let loopDepth = -1; // stack index of Go's loop
    let seenLoop = false;
    /** @type {number[]} the br_table's depths by PC_B, the default last */
    const table = [];
    let segments = 0;
    let seg = -1; // the segment the code is in
    /** @type {{ at: number, end: number, depth: number }[]} */
    const edits = [];
    // the last two instructions: i32.const N (value) and local.set 0
    let constAt = -2, constVal = 0, setAt = -2;
    let i = 0; // instruction counter
    while (p < end) {
        const at = p;
        const op = b[p++];
        if (op === 0x03 && !seenLoop && stack.every((e) => e.kind === 0x02)) {
            // Go's loop: k blocks, then local.get 0 and a br_table from
            // PC_B to them (several PC_B values may share a segment).
            seenLoop = true;
            let q = skipImmediates(b, op, p);
            let k = 0;
            while (b[q] === 0x02 && b[q + 1] === 0x40) {
                k++;
                q += 2;
            }
            if (k === 0 || b[q] !== 0x20 || b[q + 1] !== 0x00 || b[q + 2] !== 0x0e) return null;
            let r = q + 3, count;
            [count, r] = u32(b, r);
            for (let j = 0; j <= count; j++) {
                let d;
                [d, r] = u32(b, r);
                table.push(d);
            }
            stack.push({ kind: op, seg: -1, loop: true });
            loopDepth = stack.length - 1;
            for (let j = k - 1; j >= 0; j--) stack.push({ kind: 0x02, seg: j, loop: false });
            segments = k;
            p = q; // at local.get 0
            i++;
            continue;
        }
        const next = skipImmediates(b, op, p);
        if (next < 0) return null;
        if (op === 0x02 || op === 0x03 || op === 0x04) {
            stack.push({ kind: op, seg: -1, loop: false });
        } else if (op === 0x0b) {
            const e = stack.pop();
            if (e && e.seg >= 0) seg = e.seg;
            if (e && e.loop) loopDepth = -1;
        } else if (op === 0x41) {
            constAt = i;
            constVal = s32(b, p)[0];
        } else if (op === 0x21 && b[p] === 0x00) {
            setAt = i;
        } else if (op === 0x0c && loopDepth >= 0) {
            const [d] = u32(b, p);
            const target = stack.length - 1 - d;
            const want = constVal >= 0 && constVal < table.length - 1 ? table[constVal] : table[table.length - 1];
            if (target === loopDepth && setAt === i - 1 && constAt === i - 2 && want > seg && want < segments) {
                const to = stack.findIndex((e) => e.seg === want);
                if (to > loopDepth) edits.push({ at: p, end: next, depth: stack.length - 1 - to });
            }
        }
        p = next;
        i++;
    }
    if (stack.length !== 0) return null;
    if (edits.length === 0) return null;
    const out = [];
    let last = start;
    for (const e of edits) {
        out.push(b.subarray(last, e.at), Uint8Array.from(encodeU32(e.depth)));
        last = e.end;
    }
    out.push(b.subarray(last, end));
    return { parts: out, jumps: edits.length };
}

/**
 * @param {Uint8Array} wasm
 * @returns {{ bytes: Uint8Array, functions: number, rewritten: number, jumps: number }}
 */
export function rewriteJumps(wasm) {
    const b = wasm;
    if (b[0] !== 0 || b[1] !== 0x61 || b[2] !== 0x73 || b[3] !== 0x6d) throw new Error("not a WebAssembly binary");
    let p = 8;
    /** @type {Uint8Array[]} */
    const out = [b.subarray(0, 8)];
    let functions = 0, rewritten = 0, jumps = 0;
    while (p < b.length) {
        const id = b[p];
        let [size, q] = u32(b, p + 1);
        const end = q + size;
        if (id !== 10) {
            out.push(b.subarray(p, end));
            p = end;
            continue;
        }
        let count;
        [count, q] = u32(b, q);
        /** @type {Uint8Array[]} */
        const bodies = [];
        for (let f = 0; f < count; f++) {
            let len;
            [len, q] = u32(b, q);
            const r = rewriteBody(b, q, q + len);
            functions++;
            if (r) {
                rewritten++;
                jumps += r.jumps;
                const total = r.parts.reduce((a, x) => a + x.length, 0);
                bodies.push(Uint8Array.from(encodeU32(total)), ...r.parts);
            } else {
                bodies.push(Uint8Array.from(encodeU32(len)), b.subarray(q, q + len));
            }
            q += len;
        }
        const content = [Uint8Array.from(encodeU32(count)), ...bodies];
        const contentLen = content.reduce((a, x) => a + x.length, 0);
        out.push(Uint8Array.of(10), Uint8Array.from(encodeU32(contentLen)), ...content);
        p = end;
    }
    const total = out.reduce((a, x) => a + x.length, 0);
    const bytes = new Uint8Array(total);
    let o = 0;
    for (const x of out) {
        bytes.set(x, o);
        o += x.length;
    }
    return { bytes, functions, rewritten, jumps };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    const [, , input, output] = process.argv;
    if (!input || !output) {
        console.error("usage: node scripts/wasm-jumps.mjs in.wasm out.wasm");
        process.exit(2);
    }
    const r = rewriteJumps(readFileSync(input));
    writeFileSync(output, r.bytes);
    console.log(`wasm-jumps: ${r.jumps} jumps made forward in ${r.rewritten} of ${r.functions} functions`);
}
