// The sandbox API of Code Mode, evaluated before the model's code on every
// run, so it is kept tiny: `tools`, `console` and the web built-ins are
// getters that build themselves on first use from sources the host hands
// over (the other files beside this one). The raw host functions are
// captured here and deleted from the global object. Replacing `tools` or
// `tool_call` gains nothing: every path ends in the host's pipeline (filter,
// interceptor, schema), which runs outside the sandbox.
(() => {
  const g = globalThis, O = Object, ev = eval;
  const call = g.__cm_call, search = g.__cm_search, log = g.__cm_log, src = g.__cm_src, timer = g.__cm_timer, clear = g.__cm_clear;
  delete g.__cm_call; delete g.__cm_search; delete g.__cm_log; delete g.__cm_src; delete g.__cm_timer; delete g.__cm_clear;
  // lazy defines the globals `keys` as getters; the first read of any of
  // them builds source `name` (an object of all of them when several).
  const lazy = (keys, name) => { for (const key of keys) O.defineProperty(g, key, { configurable: true, get() {
    const built = ev(src(name || key))(call, log, timer, clear);
    for (const k of keys) O.defineProperty(g, k, { value: keys.length > 1 ? built[k] : built, configurable: false, writable: false });
    return g[key];
  } }); };
  lazy(["tools"]);
  lazy(["console"]);
  lazy(["setTimeout", "setInterval", "clearTimeout", "clearInterval"], "timers");
  lazy(["URL", "URLSearchParams"], "url");
  lazy(["TextEncoder", "TextDecoder"], "text");
  lazy(["atob", "btoa"], "base64");
  lazy(["structuredClone"]);
  const none = (what) => function () { throw new ReferenceError(what + " is not available in this sandbox: it has no network and no modules; use the tools you are given (tools.*, tool_call, tool_search) instead"); };
  for (const k of ["fetch", "require", "XMLHttpRequest", "WebSocket", "EventSource"]) O.defineProperty(g, k, { value: none(k), configurable: true, writable: true });
  O.defineProperty(g, "tool_call", { value: (name, input) => call(name, input) });
  O.defineProperty(g, "tool_search", { value: (opts) => search(typeof opts === "string" ? { query: opts } : opts) });
})();
