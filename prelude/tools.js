// Builds `tools`: objects without a prototype, filled with defineProperty,
// so a tool named "__proto__" or "constructor" is just a property. The same
// in every run (a shared source, compiled once per instance): src gives the
// run's tools one object at a time (source "toolnames", toolops.go), and O
// and isArr are the Object and Array.isArray api.js captured. A namespace is a getter that builds it
// on its first read, so a run pays for the namespaces it reads, not for the
// catalog (3,000 tools took 30-40 ms of every run that named `tools`). Each
// object is frozen when built: the program can neither replace a tool nor
// add one. The build may run after the program changed the built-ins, so
// it iterates nothing and reads no property of an object the program
// could have changed (an Object.prototype.get would have turned a
// descriptor with a prototype into an accessor's).
(call, src, O, isArr) => {
  // What a tool is given after its input it would drop, and the call is
  // refused saying so (tools.orders.search(input, { limit: 1 })), but an
  // array method's index and array: inputs.map(tools.orders.get).
  // tools.orders.get.call({ id }), call read as invoke, gives the object
  // as this and no input: the tool ran with none (everything, for a tool
  // whose fields only narrow it). So a tool is a method (no prototype, no
  // constructor, as an arrow), which sees its this: a namespace, `tools`
  // (no prototype), the global object or none when called as itself.
  const G = (function () { return this })();
  const source = Function.prototype.toString, tool = (name) => ({
    __proto__: null,
    [name](input, ...m) {
      if (input === undefined && !m.length && this !== G && typeof this === "object" && this !== null && O.getPrototypeOf(this) !== null) {
        throw new TypeError(`tools.${name}.call(x) passes x as this, not as the input: call tools.${name}(x)`);
      }
      return call(name, input, m.length === 2 && typeof m[0] === "number" && isArr(m[1]) ? 0 : m.length);
    },
  })[name];
  // A tool named toString or valueOf is its namespace's own key, which
  // String(ns), `${ns}` and ns + "" would call: a tool call (its side
  // effects, its approval) made by a conversion the program may only log.
  // Such a namespace converts as any other does (a TypeError: it has no
  // prototype; a tool that is also a namespace, to its source), by a
  // Symbol.toPrimitive, which conversions look up first; ns.toString(input)
  // still calls the tool.
  const fill = (o, path) => {
    const lists = src("toolnames", path), m = lists[0];
    let prim = true;
    for (let i = 0; i < m.length; i += 2) {
      const k = m[i], v = m[i + 1], d = { __proto__: null, enumerable: i < lists[1] };
      if (v === 0) {
        const sub = path === "" ? k : path + "." + k;
        let ns;
        d.get = () => ns || (ns = fill(O.create(null), sub));
      } else d.value = typeof v === "string" ? O.freeze(tool(v)) : fill(tool(v[0]), v[0]);
      O.defineProperty(o, k, d);
      if ((k === "toString" || k === "valueOf") && prim) {
        prim = false;
        O.defineProperty(o, Symbol.toPrimitive, { __proto__: null, value: typeof o === "function" ? () => source.call(o) : () => "" + O.create(null) });
      }
    }
    return O.freeze(o);
  };
  // tools["orders.get"], a tool's full name as a key (models write it), is
  // tools.orders.get, read through the namespaces by a Proxy whose target
  // is the frozen top level. It is no own key (there would be one per tool
  // to make in every run): `in` and reads find it, Object.keys and
  // getOwnPropertyNames do not. The host says which keys are tools (a
  // hidden tool is not); only a dotted key, at most a name long, is asked
  // about, once. (A program that replaced Proxy is handed the top level
  // and these traps: nothing it could not read from `tools`.)
  const full = O.create(null), dotted = (k) => {
    for (let i = 0; i < k.length; i++) if (k[i] === ".") return true;
  };
  const get = (t, k) => {
    if (typeof k !== "string" || k in t || k.length > 128 || !dotted(k)) return t[k];
    if (!(k in full)) {
      const path = src("toolnames", k)[2];
      let v = path === 0 ? undefined : t;
      for (let i = 0; path !== 0 && i < path.length; i++) v = v[path[i]];
      full[k] = v;
    }
    return full[k];
  };
  return new Proxy(fill(O.create(null), ""), { __proto__: null, get, has: (t, k) => k in t || get(t, k) !== undefined });
}
