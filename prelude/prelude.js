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
  lazy(["tools"]);
  lazy(["console"]);
  lazy(["tool_call"]);
  lazy(["tool_search"]);
  /*GLOBALS*/
})();
