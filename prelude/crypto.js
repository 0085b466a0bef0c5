// Builds crypto.getRandomValues and crypto.randomUUID over the host's
// random source (Config.Random: crypto/rand natively, the host's
// crypto.getRandomValues under GOOS=js): random(n) returns n random bytes
// as a new ArrayBuffer, n at most 65,536, or throws. As in browsers, only
// integer typed arrays are filled, at most 65,536 bytes per call. The
// typed array's kind, buffer, offset and length are read with the
// intrinsic getters taken here, so an own property or a subclass cannot
// misreport them, and what the program replaces later changes nothing. (A
// built-in it replaced before its first use of crypto is taken as it is:
// that breaks its own crypto, nothing else; the host only ever gets a byte
// count, which it checks too.)
(call, log, text, random) => {
  const O = Object, apply = Reflect.apply, U8 = Uint8Array, TA = O.getPrototypeOf(U8).prototype;
  const getter = (k) => O.getOwnPropertyDescriptor(TA, k).get;
  const tag = getter(Symbol.toStringTag), buffer = getter("buffer"), offset = getter("byteOffset"), length = getter("byteLength");
  const set = U8.prototype.set, isView = ArrayBuffer.isView, isArray = Array.isArray, max = 65536;
  const ints = O.create(null);
  for (const k of ["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "BigInt64Array", "BigUint64Array"]) ints[k] = true;
  const what = (v, kind) => kind || (v === null || v === undefined ? String(v) : isView(v) ? "a DataView" : isArray(v) ? "an array" : typeof v === "object" ? "an object" : "a " + typeof v);
  const H = "0123456789abcdef";
  const crypto = {
    getRandomValues(array) {
      const kind = isView(array) ? apply(tag, array, []) : undefined;
      if (kind === undefined || ints[kind] !== true) {
        throw new TypeError("crypto.getRandomValues: expected an integer typed array (Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array or BigUint64Array), got " + what(array, kind));
      }
      const n = apply(length, array, []);
      if (n > max) {
        const e = new Error("crypto.getRandomValues: the array's byte length (" + n + ") exceeds the number of bytes of entropy available (65536)");
        e.name = "QuotaExceededError";
        throw e;
      }
      if (n > 0) apply(set, new U8(apply(buffer, array, []), apply(offset, array, []), n), [new U8(random(n))]);
      return array;
    },
    randomUUID() {
      const b = new U8(random(16));
      b[6] = (b[6] & 0x0f) | 0x40; // version 4
      b[8] = (b[8] & 0x3f) | 0x80; // variant 10
      let s = "";
      for (let i = 0; i < 16; i++) s += (i === 4 || i === 6 || i === 8 || i === 10 ? "-" : "") + H[b[i] >> 4] + H[b[i] & 15];
      return s;
    },
  };
  return O.freeze(crypto);
}
