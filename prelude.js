// The sandbox API of Code Mode, evaluated before the model's code. The raw
// host functions (__cm_call, __cm_search, __cm_log) are captured here and
// deleted from the global object; everything the model sees is frozen.
// Replacing `tools` or `tool_call` gains nothing: every path ends in the
// host's pipeline (filter, interceptor, schema), which runs outside.
(() => {
  const g = globalThis, call = g.__cm_call, search = g.__cm_search, log = g.__cm_log;
  delete g.__cm_call; delete g.__cm_search; delete g.__cm_log;
  const names = /*NAMES*/[];
  const S = JSON.stringify, str = String, isErr = (v) => v instanceof Error;
  const fmt = (v) => {
    if (typeof v === "string") return v;
    if (isErr(v)) return v.name + ": " + v.message;
    try { const s = S(v); return s === undefined ? str(v) : s; } catch (e) { return str(v); }
  };
  const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  // defineProperty, and objects without a prototype: a tool named
  // "__proto__" or "constructor" is just a property.
  const set = (o, k, v) => Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  const def = (o, k, v) => Object.defineProperty(o, k, { value: v, enumerable: false });
  const tool_call = (name, input) => call(name, input);
  const tools = Object.create(null);
  for (const name of names) {
    const fn = (input) => call(name, input);
    const parts = name.split(".");
    let node = tools;
    for (let i = 0; i < parts.length - 1; i++) {
      if (!hasOwn(node, parts[i])) set(node, parts[i], Object.create(null));
      node = node[parts[i]];
    }
    const leaf = parts[parts.length - 1];
    // Names are sorted, so a namespace never exists before its function.
    set(node, leaf, fn);
  }
  const freeze = (o) => { Object.freeze(o); for (const k of Object.keys(o)) if (typeof o[k] === "object" || typeof o[k] === "function") freeze(o[k]); return o; };
  const console = {};
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    console[level] = (...args) => { log(level, args.map(fmt).join(" ")); };
  }
  def(g, "tools", freeze(tools));
  def(g, "tool_call", tool_call);
  def(g, "tool_search", (opts) => search(typeof opts === "string" ? { query: opts } : opts));
  def(g, "console", Object.freeze(console));
})();
