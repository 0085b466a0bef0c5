// The sandbox API of Code Mode, evaluated before the model's code on every
// run, so it is kept tiny: `tools` and `console` are getters that build
// themselves on first use from sources the host hands over
// (tools.js, console.js beside this file). The raw host functions are
// captured here and deleted from the global object. Replacing `tools` or
// `tool_call` gains nothing: every path ends in the host's pipeline (filter,
// interceptor, schema), which runs outside the sandbox.
(() => {
  const g = globalThis, O = Object, ev = eval;
  const call = g.__cm_call, search = g.__cm_search, log = g.__cm_log, src = g.__cm_src;
  delete g.__cm_call; delete g.__cm_search; delete g.__cm_log; delete g.__cm_src;
  const lazy = (key) => O.defineProperty(g, key, { configurable: true, get() {
    const value = ev(src(key))(call, log);
    O.defineProperty(g, key, { value, configurable: false, writable: false });
    return value;
  } });
  lazy("tools");
  lazy("console");
  O.defineProperty(g, "tool_call", { value: (name, input) => call(name, input) });
  O.defineProperty(g, "tool_search", { value: (opts) => search(typeof opts === "string" ? { query: opts } : opts) });
})();
