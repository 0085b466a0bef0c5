// The imports of the Go core's own module "jsbridge" (jsbridge/direct.go):
// Go calls the QuickJS instance's exports and reads its memory through
// them, with numbers only, instead of syscall/js. Go fills the table (the
// global __jsbridgeDirect of the Go program): fns with the exports it
// calls, mems with the instances' memories, of which views caches a
// DataView. scripts/wasmexec/wasm_exec_node.cjs imports this module for
// the tools that run Go programs under Node.

import { KeptDataView } from "./intrinsics.mjs";

export function directImports() {
    /** @type {{ fns: (Function | undefined)[], mems: (WebAssembly.Memory | undefined)[], views: (DataView | undefined)[], error: unknown }} */
    const table = { fns: [], mems: [], views: [], error: undefined };
    const { fns, mems, views } = table;
    // Growth detaches a memory's buffer: the view is remade when the
    // memory's buffer is not the one it was made over. A DataView of the
    // page's at load: one whose getUint32 the page replaced afterwards gave
    // Go wrong numbers and the run failed with "unknown error". Go empties
    // a closed instance's slot in views too: the view kept its memory's
    // whole buffer for the factory's life.
    const view = (/** @type {number} */ s) => {
        const buf = /** @type {WebAssembly.Memory} */ (mems[s]).buffer;
        let v = views[s];
        if (v === undefined || v.buffer !== buf) v = views[s] = new KeptDataView(buf);
        return v;
    };
    const imports = {
        // A throw (a trap) is kept for Go, which reads it when it gets NaN.
        /** @type {(s: number, a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number) => number} */
        call(s, a, b, c, d, e, f, g, h) {
            try {
                const r = /** @type {Function} */ (fns[s])(a, b, c, d, e, f, g, h);
                return r === undefined ? 0 : r;
            } catch (err) {
                table.error = err;
                return NaN;
            }
        },
        get32: (/** @type {number} */ s, /** @type {number} */ off) => view(s).getUint32(off, true),
        set32: (/** @type {number} */ s, /** @type {number} */ off, /** @type {number} */ v) => view(s).setUint32(off, v, true),
        get8: (/** @type {number} */ s, /** @type {number} */ off) => view(s).getUint8(off),
        set8: (/** @type {number} */ s, /** @type {number} */ off, /** @type {number} */ v) => view(s).setUint8(off, v),
        size: (/** @type {number} */ s) => /** @type {WebAssembly.Memory} */ (mems[s]).buffer.byteLength,
    };
    return { table, imports };
}
