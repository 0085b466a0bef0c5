// The sandbox API of Code Mode, evaluated before the model's code on every
// run, so it is kept tiny: `tools`, `console` and the web built-ins are
// getters that build themselves on first use from sources the host hands
// over (the other files beside this one). The host puts at /*GLOBALS*/ only
// the built-ins (and the refusing stand-ins for fetch, require, ...) whose
// names the code mentions: a run that uses none pays for none. The raw host functions are
// captured here and deleted from the global object. Replacing `tools` or
// `tool_call` gains nothing: every path ends in the host's pipeline (filter,
// interceptor, schema), which runs outside the sandbox.
(() => {
  const g = globalThis, O = Object, ev = eval;
  const call = g.__cm_call, search = g.__cm_search, log = g.__cm_log, src = g.__cm_src;
  delete g.__cm_call; delete g.__cm_search; delete g.__cm_log; delete g.__cm_src;
  // lazy defines the globals `keys` as getters; the first read of any of
  // them builds source `name` (an object of all of them when several),
  // handing it the host functions it needs.
  const lazy = (keys, name, ...host) => { for (const key of keys) O.defineProperty(g, key, { configurable: true, get() {
    const built = ev(src(name || key))(call, log, ...host);
    for (const k of keys) O.defineProperty(g, k, { value: keys.length > 1 ? built[k] : built, configurable: false, writable: false });
    return g[key];
  } }); };
  lazy(["tools"]);
  lazy(["console"]);
  /*GLOBALS*/
  O.defineProperty(g, "tool_call", { value: (name, input) => call(name, input) });
  O.defineProperty(g, "tool_search", { value: (opts) => search(typeof opts === "string" ? { query: opts } : opts) });
})();
