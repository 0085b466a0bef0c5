// Builds structuredClone: the structured clone algorithm for what code here
// holds (plain objects, arrays, Date, RegExp, Map, Set, ArrayBuffer and its
// views, Error, wrapped primitives), cycles and shared references kept.
// Functions, symbols, promises and weak collections throw DataCloneError.
// { transfer: [buffers] } is checked as the Web checks it, but detaches
// nothing: the sandbox withholds detaching (sandbox/withheld.go), and the
// clone holds a copy of the bytes either way (a move only saves the copy).
() => {
  const dataCloneError = (message) => { const e = new Error(message); e.name = "DataCloneError"; return e; };
  const fail = (what) => { throw dataCloneError(what + " could not be cloned"); };
  const errors = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };
  const toString = Object.prototype.toString;
  // Taken now, so the brand check is the engine's own.
  const byteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength").get;
  const call = Function.prototype.call.bind(Function.prototype.call);
  const isBuffer = (v) => { try { call(byteLength, v); return true; } catch (_) { return false; } };
  const typeName = (v) => v === null ? "null" : typeof v !== "object" ? typeof v : toString.call(v).slice(8, -1);
  // The buffers of options.transfer, checked as the Web checks them.
  const transferList = (options) => {
    if (options === undefined || options === null) return [];
    if (typeof options !== "object" && typeof options !== "function") throw new TypeError("structuredClone: options must be an object, got " + typeName(options));
    const list = options.transfer;
    if (list === undefined) return [];
    if (list === null || (typeof list !== "object" && typeof list !== "function") || typeof list[Symbol.iterator] !== "function") {
      throw new TypeError("structuredClone: options.transfer must be an array of ArrayBuffers, got " + typeName(list));
    }
    const out = [];
    for (const b of list) {
      const at = "structuredClone: options.transfer[" + out.length + "]";
      if (b === null || (typeof b !== "object" && typeof b !== "function")) throw new TypeError(at + " must be an object, got " + typeName(b));
      if (!isBuffer(b)) throw dataCloneError(at + ": only an ArrayBuffer can be transferred here, got " + typeName(b));
      if (out.includes(b)) throw dataCloneError(at + ": the ArrayBuffer is listed twice");
      out.push(b);
    }
    return out;
  };
  // A value that is not an object is its own copy, taken where it stands:
  // the fill generators below yield only objects to the walk (a round trip
  // through the generator for each number or string doubled a clone's time).
  const isObject = (v) => v !== null && typeof v === "object";
  const leaf = (v) => {
    if (typeof v === "function") fail("a function (" + (v.name || "anonymous") + ")");
    if (typeof v === "symbol") fail("a symbol");
    return v;
  };
  function* fillKeys(v, out) { for (const k of Object.keys(v)) { const x = v[k]; out[k] = isObject(x) ? yield x : leaf(x); } }
  function* fillMap(v, out) { for (const [k, x] of v) out.set(isObject(k) ? yield k : leaf(k), isObject(x) ? yield x : leaf(x)); }
  function* fillSet(v, out) { for (const x of v) out.add(isObject(x) ? yield x : leaf(x)); }
  function* fillError(v, out) {
    if ("cause" in v) { const c = v.cause; out.cause = isObject(c) ? yield c : leaf(c); }
    if (typeof v.stack === "string") out.stack = v.stack;
  }
  return function structuredClone(value, options) {
    if (arguments.length === 0) throw new TypeError("structuredClone: 1 argument required");
    transferList(options);
    const seen = new Map();
    // start copies v as far as it can without going into it: a primitive,
    // a value seen before or a leaf is done ([copy]); a container is made
    // and kept, and comes with the generator that fills it, yielding each
    // value inside to copy and taking back its copy.
    const start = (v) => {
      if (!isObject(v)) return [leaf(v)];
      if (seen.has(v)) return [seen.get(v)];
      let out;
      const keep = (o) => { seen.set(v, o); return o; };
      if (Array.isArray(v)) return [out = keep(new Array(v.length)), fillKeys(v, out)];
      if (v instanceof Date) return [keep(new Date(v.getTime()))];
      if (v instanceof RegExp) return [keep(new RegExp(v.source, v.flags))];
      if (v instanceof Map) return [out = keep(new Map()), fillMap(v, out)];
      if (v instanceof Set) return [out = keep(new Set()), fillSet(v, out)];
      if (v instanceof ArrayBuffer) {
        if (!v.resizable) return [keep(v.slice(0))];
        // A resizable buffer's clone is resizable, as the Web's is.
        out = keep(new ArrayBuffer(v.byteLength, { maxByteLength: v.maxByteLength }));
        new Uint8Array(out).set(new Uint8Array(v));
        return [out];
      }
      if (ArrayBuffer.isView(v)) {
        const buf = start(v.buffer)[0];
        return [keep(v instanceof DataView ? new DataView(buf, v.byteOffset, v.byteLength) : new v.constructor(buf, v.byteOffset, v.length))];
      }
      if (v instanceof Error) {
        const C = errors[v.name] || Error;
        out = keep(new C(v.message));
        if (!errors[v.name]) out.name = "Error";
        return [out, fillError(v, out)];
      }
      const tag = toString.call(v);
      if (tag === "[object Boolean]" || tag === "[object Number]" || tag === "[object String]" || tag === "[object BigInt]") return [keep(Object(v.valueOf()))];
      if (v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet || (typeof WeakRef === "function" && v instanceof WeakRef)) fail(tag.slice(8, -1));
      return [out = keep({}), fillKeys(v, out)];
    };
    // Depth first, as the Web clones, but on a stack of its own rather
    // than QuickJS's (a few hundred frames): data nested thousands deep
    // clones too.
    const clone = (value) => {
      let r = start(value), copy = r[0], fill = r[1];
      const fills = [], outs = [];
      for (;;) {
        if (fill) fills.push(fill), outs.push(copy), copy = fill = undefined;
        if (!fills.length) return copy;
        const step = fills[fills.length - 1].next(copy);
        if (step.done) fills.pop(), copy = outs.pop();
        else r = start(step.value), copy = r[0], fill = r[1];
      }
    };
    return clone(value);
  };
}
