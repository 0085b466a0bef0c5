// LEB128, WebAssembly's variable-length integers, for the build's binary
// rewrites (wasm-jumps.mjs, wasm-data.mjs) and their tests. Each reader
// takes the buffer and a position and returns [value, next position].

/** @param {Uint8Array} buf @param {number} p @returns {[number, number]} value, next position */
export function u32(buf, p) {
    let r = 0, s = 0, b;
    do {
        if (p >= buf.length) throw new Error("WebAssembly binary ends inside a number");
        b = buf[p++];
        r += (b & 0x7f) * 2 ** s;
        s += 7;
    } while (b & 0x80);
    return [r, p];
}

/** @param {Uint8Array} buf @param {number} p @returns {[number, number]} */
export function s32(buf, p) {
    let r = 0, s = 0, b;
    do {
        b = buf[p++];
        r |= (b & 0x7f) << s;
        s += 7;
    } while (b & 0x80 && s < 35);
    if (s < 32 && b & 0x40) r |= -1 << s;
    return [r, p];
}

/** @param {Uint8Array} buf @param {number} p @returns {number} the position after a LEB128 */
export function skipLEB(buf, p) {
    while (buf[p++] & 0x80);
    return p;
}

/** @param {number} n @returns {number[]} */
export function encodeU32(n) {
    const out = [];
    do {
        let b = n & 0x7f;
        n >>>= 7;
        if (n) b |= 0x80;
        out.push(b);
    } while (n);
    return out;
}

/** @param {number} n @returns {number[]} */
export function encodeS32(n) {
    const out = [];
    for (;;) {
        const b = n & 0x7f;
        n >>= 7;
        if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) {
            out.push(b);
            return out;
        }
        out.push(b | 0x80);
    }
}
