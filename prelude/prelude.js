// The sandbox API of Code Mode, evaluated before the model's code on every
// run, so it is kept tiny: `tools`, `console` and the web built-ins are
// getters that build themselves on first use from sources the host hands
// over (the other files beside this one). The host puts at /*GLOBALS*/ only
// the built-ins (and the refusing stand-ins for fetch, require, ...) whose
// names the code mentions: a run that uses none pays for none. The raw host functions are
// captured here and deleted from the global object. Replacing `tools` or
// `tool_call` gains nothing: every path ends in the host's pipeline (filter,
// interceptor, schema), which runs outside the sandbox.
//
// A tool call is two host calls: __cm_begin records it synchronously (so a
// call the program never awaits is still counted and recorded, even if the
// run ends at once) and returns its id; __cm_call runs its pipeline. Strings
// are cut here, before they are encoded for the host: a name longer than any
// valid tool name (128) stays unknown when cut to 129 characters.
(() => {
  const g = globalThis, O = Object, ev = eval;
  const begin = g.__cm_begin, run = g.__cm_call, find = g.__cm_search, log = g.__cm_log, src = g.__cm_src;
  delete g.__cm_begin; delete g.__cm_call; delete g.__cm_search; delete g.__cm_log; delete g.__cm_src;
  const cut = (s, n) => s.length > n ? s.slice(0, n) : s;
  const call = (name, input) => run(begin(typeof name === "string" ? cut(name, 129) : null, input));
  const search = (opts) => {
    if (opts !== null && typeof opts === "object" && typeof opts.query === "string" && opts.query.length > 1000) opts = O.assign({}, opts, { query: cut(opts.query, 1000) });
    return find(opts);
  };
  // lazy defines the globals `keys` as getters; the first read of any of
  // them builds source `name` (an object of all of them when several),
  // handing it the host functions it needs.
  const lazy = (keys, name, ...host) => { for (const key of keys) O.defineProperty(g, key, { configurable: true, get() {
    const built = ev(src(name || key))(call, log, ...host);
    for (const k of keys) O.defineProperty(g, k, { value: keys.length > 1 ? built[k] : built, configurable: false, writable: false });
    return g[key];
  } }); };
  // Too deep nesting: QuickJS throws InternalError("stack overflow"), and
  // JSON.parse a SyntaxError. Make both a RangeError, as in V8, so code
  // written for V8 catches them.
  O.setPrototypeOf(InternalError.prototype, RangeError.prototype);
  // JSON.parse's recursion in QuickJS barely moves QuickJS's own stack
  // check but takes the host engine's native stack, which overflows first
  // (somewhere past 5,000 levels in V8), so a text that nests deeper than
  // 1,000 levels is refused before parsing. Only long texts are scanned,
  // by native regular expressions down to their brackets.
  const parse = JSON.parse, STR = /"(?:[^"\\]|\\.)*"/g, NB = /[^[\]{}]/g;
  const tooDeep = (t) => {
    if (typeof t !== "string" || t.length < 2000) return false;
    const b = t.replace(STR, "").replace(NB, "");
    for (let i = 0, d = 0; i < b.length; i++) {
      const c = b.charCodeAt(i);
      if (c === 91 || c === 123) { if (++d > 1000) return true; } else d--;
    }
    return false;
  };
  O.defineProperty(JSON, "parse", { writable: true, configurable: true, value: { parse(text, reviver) {
    if (tooDeep(text)) throw new RangeError("JSON.parse: the text nests more than 1,000 levels deep");
    try { return parse(text, reviver); } catch (e) {
      if (e instanceof SyntaxError && e.message === "stack overflow") throw new RangeError("JSON.parse: the text nests too deeply");
      throw e;
    }
  } }.parse });
  lazy(["tools"]);
  lazy(["console"]);
  /*GLOBALS*/
  O.defineProperty(g, "tool_call", { value: (name, input) => call(name, input) });
  O.defineProperty(g, "tool_search", { value: (opts) => search(typeof opts === "string" ? { query: opts } : opts) });
})();
