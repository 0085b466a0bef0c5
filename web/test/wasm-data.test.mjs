// @mode-independent: a build script on a Go program; no factory.
// scripts/wasm-data.mjs, the build's merge of the Go core's data segments:
// the memory a module starts with is the same byte for byte, segments a
// small run of zeros apart become one, and a module where merging could
// change what an instruction means is refused. A Go program prints the same
// after the merge.

import assert from "node:assert/strict";
import { test } from "node:test";
import { encodeU32 } from "../../scripts/leb128.mjs";
import { mergeDataSegments } from "../../scripts/wasm-data.mjs";
import { runRewritten } from "./go-wasm.mjs";

const uleb = encodeU32;
/** @param {number} id @param {number[]} body */
const section = (id, body) => [id, ...uleb(body.length), ...body];
/** An active segment of memory 0 at an i32.const offset (sleb of a positive offset: a trailing 0 byte when bit 6 is set). @param {number} offset @param {number[]} bytes */
const active = (offset, bytes) => {
    const o = uleb(offset);
    if (o[o.length - 1] & 0x40) {
        o[o.length - 1] |= 0x80;
        o.push(0);
    }
    return [0x00, 0x41, ...o, 0x0b, ...uleb(bytes.length), ...bytes];
};

/**
 * A module with exported memory (one page unless told) and the given segments.
 * @param {number[][]} segments encoded segments
 * @param {{ dataCount?: boolean, pages?: number }} [opts]
 */
function module(segments, opts = {}) {
    const body = [...uleb(segments.length)];
    for (const s of segments) for (const x of s) body.push(x);
    return Uint8Array.from([
        0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
        ...section(5, [1, 0x00, ...uleb(opts.pages ?? 1)]),
        ...section(7, [1, 3, 0x6d, 0x65, 0x6d, 0x02, 0]),
        ...(opts.dataCount ? section(12, uleb(segments.length)) : []),
        ...section(11, body),
    ]);
}

/** The memory a module starts with. @param {Uint8Array} bytes */
async function memoryOf(bytes) {
    const { instance } = await WebAssembly.instantiate(bytes);
    return Buffer.from(/** @type {WebAssembly.Memory} */ (instance.exports.mem).buffer);
}

const fill = (/** @type {number} */ n, /** @type {number} */ v) => Array.from({ length: n }, (_, i) => (v + i) % 255 + 1);

test("wasm-data: segments at most maxGap zeros apart become one; the memory is the same", async () => {
    const original = module([
        // Not in the order of their offsets, as Go writes them.
        active(3000, fill(5, 40)),
        active(100, fill(10, 1)),
        active(110 + 9, fill(3, 20)), // 9 zeros after the previous: joined
        active(122 + 64, fill(4, 30)), // exactly 64: joined
        active(190 + 65, fill(2, 50)), // 65: a segment of its own
        active(70000 - 65536 + 100, fill(1, 60)), // 4 KiB further: its own
    ]);
    const r = mergeDataSegments(original);
    assert.equal(r.before, 6);
    assert.equal(r.after, 4);
    assert.ok(WebAssembly.validate(r.bytes));
    assert.deepEqual(await memoryOf(r.bytes), await memoryOf(original));
    // Nothing left to merge at the same gap; a gap of 0 merges nothing here.
    assert.equal(mergeDataSegments(r.bytes).after, 4);
    assert.equal(mergeDataSegments(original, 0).after, 6);
    // A gap large enough for every one: one segment, the same memory.
    const one = mergeDataSegments(original, 1 << 20);
    assert.equal(one.after, 1);
    assert.deepEqual(await memoryOf(one.bytes), await memoryOf(original));
});

test("wasm-data: 100,000 segments, as many as Go writes at most, in and out", async () => {
    const apart = (/** @type {number} */ gap) => Array.from({ length: 100_000 }, (_, i) => active(i * gap, [i % 255 + 1]));
    const far = module(apart(10), { pages: 16 });
    const kept = mergeDataSegments(far, 8);
    assert.equal(kept.after, 100_000);
    assert.deepEqual(await memoryOf(kept.bytes), await memoryOf(far));
    const near = module(apart(9), { pages: 16 });
    const one = mergeDataSegments(near, 8);
    assert.equal(one.after, 1);
    assert.deepEqual(await memoryOf(one.bytes), await memoryOf(near));
});

test("wasm-data: a module without a data section is copied as it is", () => {
    const bytes = Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...section(5, [1, 0x00, 1])]);
    const r = mergeDataSegments(bytes);
    assert.deepEqual(Buffer.from(r.bytes), Buffer.from(bytes));
    assert.equal(r.before, 0);
});

test("wasm-data: what merging could change is refused, by name", () => {
    const rows = [
        { name: "not WebAssembly", bytes: Buffer.from("not wasm at all"), want: /^Error: not a WebAssembly binary$/ },
        {
            name: "a data count section",
            bytes: module([active(0, [1]), active(9, [2])], { dataCount: true }),
            want: /data count section: memory\.init or data\.drop may name data segments by index/,
        },
        {
            name: "a passive segment",
            bytes: module([active(0, [1]), [0x01, 1, 7]]),
            want: /data segment 1: expected an active segment of memory 0 at an i32\.const offset \(flag 0x00, then 0x41\), got 0x1 0x1/,
        },
        {
            name: "overlapping segments",
            bytes: module([active(10, [1, 2, 3, 4]), active(12, [5])]),
            want: /data segment 1 \(at 12\) overlaps segment 0 \(10 to 14\)/,
        },
        {
            name: "an offset that is not a bare i32.const",
            bytes: module([[0x00, 0x41, 0, 0x41, 0, 0x6a, 0x0b, 1, 1]]),
            want: /data segment 0: expected its offset expression to end after the i32\.const/,
        },
    ];
    for (const row of rows) {
        assert.throws(() => mergeDataSegments(row.bytes), row.want, row.name);
    }
    assert.throws(() => mergeDataSegments(module([]), -1), /maxGap: expected a non-negative integer, got -1/);
});

const program = `package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"
)

var table = map[string][]int{"a": {1, 2, 3}, "bb": {4, 5}, "ccc": nil}

type point struct {
	X, Y int
	Name string \`json:"name,omitempty"\`
}

func main() {
	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Println(k, table[k], strings.ToUpper(k), unicode.IsUpper(rune(k[0])))
	}
	b, _ := json.Marshal([]point{{1, 2, "p"}, {X: 3}})
	fmt.Println(string(b))
	var back []point
	fmt.Println(json.Unmarshal(b, &back), back)
	defer func() { fmt.Println("recovered:", recover()) }()
	var m map[string]int
	m["x"] = 1
}
`;

test("wasm-data: a Go program prints the same with its segments merged", () => {
    const { result: r, want, got } = runRewritten(program, mergeDataSegments);
    assert.ok(r.before > 1000 && r.after < 100, `${r.before} segments merged into ${r.after}`);
    assert.ok(WebAssembly.validate(r.bytes));
    assert.match(want, /^a \[1 2 3\] A false\nbb \[4 5\] BB false\nccc \[\] CCC false\n/);
    assert.match(want, /\[\{"X":1,"Y":2,"name":"p"\},\{"X":3,"Y":0\}\]\n<nil> \[\{1 2 p\} \{3 0 \}\]/);
    assert.match(want, /recovered: assignment to entry in nil map/);
    assert.equal(got, want);
});
