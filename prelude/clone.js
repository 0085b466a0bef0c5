// Builds structuredClone: the structured clone algorithm for what code here
// holds (plain objects, arrays, Date, RegExp, Map, Set, ArrayBuffer and its
// views, Error, wrapped primitives), cycles and shared references kept.
// Functions, symbols, promises and weak collections throw DataCloneError.
() => {
  const fail = (what) => { const e = new Error(what + " could not be cloned"); e.name = "DataCloneError"; throw e; };
  const errors = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };
  const toString = Object.prototype.toString;
  return function structuredClone(value) {
    if (arguments.length === 0) throw new TypeError("structuredClone: 1 argument required");
    const seen = new Map();
    const clone = (v) => {
      if (typeof v === "function") fail("a function (" + (v.name || "anonymous") + ")");
      if (typeof v === "symbol") fail("a symbol");
      if (v === null || typeof v !== "object") return v;
      if (seen.has(v)) return seen.get(v);
      let out;
      const keep = (o) => { seen.set(v, o); return o; };
      if (Array.isArray(v)) {
        out = keep(new Array(v.length));
        for (const k of Object.keys(v)) out[k] = clone(v[k]);
        return out;
      }
      if (v instanceof Date) return keep(new Date(v.getTime()));
      if (v instanceof RegExp) return keep(new RegExp(v.source, v.flags));
      if (v instanceof Map) { out = keep(new Map()); for (const [k, x] of v) out.set(clone(k), clone(x)); return out; }
      if (v instanceof Set) { out = keep(new Set()); for (const x of v) out.add(clone(x)); return out; }
      if (v instanceof ArrayBuffer) return keep(v.slice(0));
      if (ArrayBuffer.isView(v)) {
        const buf = clone(v.buffer);
        return keep(v instanceof DataView ? new DataView(buf, v.byteOffset, v.byteLength) : new v.constructor(buf, v.byteOffset, v.length));
      }
      if (v instanceof Error) {
        const C = errors[v.name] || Error;
        out = keep(new C(v.message));
        if (!errors[v.name]) out.name = "Error";
        if ("cause" in v) out.cause = clone(v.cause);
        if (typeof v.stack === "string") out.stack = v.stack;
        return out;
      }
      const tag = toString.call(v);
      if (tag === "[object Boolean]" || tag === "[object Number]" || tag === "[object String]" || tag === "[object BigInt]") return keep(Object(v.valueOf()));
      if (v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet || (typeof WeakRef === "function" && v instanceof WeakRef)) fail(tag.slice(8, -1));
      out = keep({});
      for (const k of Object.keys(v)) out[k] = clone(v[k]);
      return out;
    };
    return clone(value);
  };
}
