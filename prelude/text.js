// Builds TextEncoder and TextDecoder for UTF-8, the one encoding of the
// Encoding standard that code here needs: lone surrogates encode as U+FFFD,
// invalid bytes decode as U+FFFD (or throw with fatal), streaming keeps an
// incomplete sequence for the next call.
() => {
  const encode = (s, dest, limit) => {
    let w = 0, i = 0;
    for (; i < s.length; i++) {
      let c = s.charCodeAt(i), n = 1;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00);
        n = 2;
      } else if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      const len = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      if (w + len > limit) break;
      if (len === 1) dest[w++] = c;
      else if (len === 2) { dest[w++] = 0xc0 | (c >> 6); dest[w++] = 0x80 | (c & 63); }
      else if (len === 3) { dest[w++] = 0xe0 | (c >> 12); dest[w++] = 0x80 | ((c >> 6) & 63); dest[w++] = 0x80 | (c & 63); }
      else { dest[w++] = 0xf0 | (c >> 18); dest[w++] = 0x80 | ((c >> 12) & 63); dest[w++] = 0x80 | ((c >> 6) & 63); dest[w++] = 0x80 | (c & 63); }
      i += n - 1;
    }
    return [i, w];
  };
  class TextEncoder {
    get encoding() { return "utf-8"; }
    encode(input = "") {
      const s = String(input), buf = new Uint8Array(s.length * 3);
      return buf.slice(0, encode(s, buf, buf.length)[1]);
    }
    encodeInto(input, dest) {
      if (!(dest instanceof Uint8Array)) throw new TypeError("TextEncoder.encodeInto: the destination must be a Uint8Array");
      const [read, written] = encode(String(input), dest, dest.length);
      return { read, written };
    }
    get [Symbol.toStringTag]() { return "TextEncoder"; }
  }
  const labels = ["utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8"];
  const bytesOf = (input) => {
    if (input === undefined) return new Uint8Array(0);
    if (input instanceof ArrayBuffer) return new Uint8Array(input);
    if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    throw new TypeError("TextDecoder.decode: the input must be an ArrayBuffer or a view of one");
  };
  class TextDecoder {
    #fatal; #ignoreBOM; #pending = []; #started = false;
    constructor(label = "utf-8", options = {}) {
      if (!labels.includes(String(label).trim().toLowerCase())) throw new RangeError("TextDecoder: the encoding '" + label + "' is not supported; only utf-8 is");
      this.#fatal = !!(options && options.fatal);
      this.#ignoreBOM = !!(options && options.ignoreBOM);
    }
    get encoding() { return "utf-8"; }
    get fatal() { return this.#fatal; }
    get ignoreBOM() { return this.#ignoreBOM; }
    decode(input, options = {}) {
      const stream = !!(options && options.stream), fresh = bytesOf(input);
      const b = this.#pending.length ? Uint8Array.from([...this.#pending, ...fresh]) : fresh;
      this.#pending = [];
      let out = "", chunk = [], i = 0;
      const put = (c) => {
        if (c > 0xffff) { c -= 0x10000; chunk.push(0xd800 + (c >> 10), 0xdc00 + (c & 1023)); } else chunk.push(c);
        if (chunk.length > 8000) { out += String.fromCharCode(...chunk); chunk = []; }
      };
      const fail = () => { if (this.#fatal) { this.#started = false; throw new TypeError("TextDecoder.decode: the data is not valid UTF-8"); } put(0xfffd); };
      while (i < b.length) {
        const c = b[i];
        if (c < 0x80) { put(c); i++; continue; }
        let need = 0, cp = 0, lo = 0x80, hi = 0xbf;
        if (c >= 0xc2 && c <= 0xdf) { need = 1; cp = c & 31; }
        else if (c >= 0xe0 && c <= 0xef) { need = 2; cp = c & 15; if (c === 0xe0) lo = 0xa0; if (c === 0xed) hi = 0x9f; }
        else if (c >= 0xf0 && c <= 0xf4) { need = 3; cp = c & 7; if (c === 0xf0) lo = 0x90; if (c === 0xf4) hi = 0x8f; }
        else { fail(); i++; continue; }
        let j = 1;
        for (; j <= need && i + j < b.length; j++) {
          const d = b[i + j];
          if (d < lo || d > hi) break;
          lo = 0x80; hi = 0xbf;
          cp = (cp << 6) | (d & 63);
        }
        if (j > need) { put(cp); i += j; continue; }
        if (i + j >= b.length && stream) { this.#pending = [...b.subarray(i)]; break; }
        fail();
        i += j;
      }
      out += String.fromCharCode(...chunk);
      if (!this.#started && !this.#ignoreBOM && out.charCodeAt(0) === 0xfeff) out = out.slice(1);
      this.#started = stream && (this.#started || out.length > 0);
      return out;
    }
    get [Symbol.toStringTag]() { return "TextDecoder"; }
  }
  return { TextEncoder, TextDecoder };
}
