// The sandbox API of Code Mode, evaluated before the model's code on every
// run. QuickJS pays for every function it compiles, on every run, so this
// part only captures what the API needs before the program can touch it
// and defines getters: `tools`, `console`, `tool_call`, `tool_search` and
// the web built-ins build themselves on first use, from api.js (a string
// here, at API, scanned but not compiled until then) and from the sources
// the host hands over (the other files beside this one). The host puts at
// /*GLOBALS*/ only the built-ins (and the refusing stand-ins for fetch,
// require, ...) whose names the code mentions: a run that uses none pays
// for none. The raw host functions are captured here and deleted from the
// global object. Replacing `tools` or `tool_call` gains nothing: every path
// ends in the host's pipeline (filter, interceptor, schema), which runs
// outside the sandbox.
(() => {
  const g = globalThis, O = Object, ev = eval, parse = JSON.parse;
  const host = [g.__cm_begin, g.__cm_call, g.__cm_search, g.__cm_log, g.__cm_src];
  delete g.__cm_begin; delete g.__cm_call; delete g.__cm_search; delete g.__cm_log; delete g.__cm_src;
  let api;
  const API = () => api || (api = ev(/*API*/"")(host, g, O, ev, parse));
  // lazy defines the globals `keys` as getters; the first read of any of
  // them builds them all (api.js build) from source `name`.
  const lazy = (keys, name, ...extra) => { for (const key of keys) O.defineProperty(g, key, { configurable: true, get() { return API().build(keys, name || key, extra, key); } }); };
  // Too deep nesting: QuickJS throws InternalError("stack overflow"), and
  // JSON.parse a SyntaxError. Make both a RangeError, as in V8, so code
  // written for V8 catches them. JSON.parse is guarded (api.js) on every
  // path, the host's parse of tool results included; building the guard
  // calls no host function (the host's own parses run inside host calls).
  O.setPrototypeOf(InternalError.prototype, RangeError.prototype);
  O.defineProperty(JSON, "parse", { writable: true, configurable: true, value: { parse(text, reviver) { return API().parse(text, reviver); } }.parse });
  // JSON.stringify recurses in C like JSON.parse: past ~5,000 levels V8's
  // stack overflows before QuickJS's check and the run ends, uncatchably.
  // An object is stringified with a replacer that refuses nesting past
  // 1,000 levels (a RangeError); the engine's own stringify of results and
  // tool inputs is this one too. Stringify walks depth-first, so the
  // holders it passes form a path: the same holder, the last value handed
  // back (one level down), or an ancestor (back up).
  const S = JSON.stringify, apply = Reflect.apply, RE = RangeError;
  O.defineProperty(JSON, "stringify", { writable: true, configurable: true, value: { stringify(v, r, sp) {
    if (v === null || typeof v !== "object" || (r != null && typeof r !== "function")) return S(v, r, sp);
    const path = [];
    let n = 0, last;
    return S(v, function (k, x) {
      if (r) x = apply(r, this, [k, x]);
      if (n > 0 && this !== last) while (n > 0 && path[n - 1] !== this) n--;
      if (n === 0 || path[n - 1] !== this) {
        path[n++] = this;
        if (n > 1001) throw new RE("JSON.stringify: the value nests more than 1,000 levels deep");
      }
      last = x;
      return x;
    }, sp);
  } }.stringify });
  lazy(["tools"]);
  lazy(["console"]);
  lazy(["tool_call"]);
  lazy(["tool_search"]);
  /*GLOBALS*/
})();
