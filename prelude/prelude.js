// The sandbox API of Code Mode, evaluated before the model's code on every
// run. QuickJS pays for every function it compiles, on every run, so this
// part only captures what the API needs before the program can touch it
// and defines getters: `tools`, `console`, `tool_call`, `tool_search` and
// the web built-ins build themselves on first use, from api.js and the
// other sources the host hands over (the files beside this one). The host
// puts at /*GLOBALS*/ only the built-ins (and the refusing stand-ins for
// fetch, require, ...) whose names the code mentions: a run that uses none
// pays for none. The raw host functions are this function's arguments
// (the sandbox calls it with them, in the order of their names; `more` are
// the built-ins' own, handed to them at /*GLOBALS*/): they are
// never globals, and only the closures below hold them. Replacing `tools` or
// `tool_call` gains nothing: every path ends in the host's pipeline (filter,
// interceptor, schema), which runs outside the sandbox.
(begin, call, depth, log, search, src, ...more) => {
  const g = globalThis, O = Object, parse = JSON.parse, S = JSON.stringify, apply = Reflect.apply, RE = RangeError, M = Map, St = Set;
  const host = [begin, call, search, log, src, depth];
  // API builds api.js on first use, from the function the host hands over
  // (src gives the value a source evaluates to: compiled once per sandbox
  // instance for the sources every run shares, api.js among them). While
  // it is being built there is none (JSON.parse is the plain one).
  let api, building = false;
  const API = () => {
    if (!api && !building) {
      building = true;
      try { api = src("api")(host, g, O, parse, S, apply, RE, M, St); } finally { building = false; }
    }
    return api;
  };
  // lazy defines the globals `keys` as getters; the first read of any of
  // them builds them all (api.js build) from source `name`, handing it the
  // built-in's host functions a and b. They are kept as two variables, not
  // in an array: the build runs after the program, and an array's spread,
  // destructuring or a read past its end calls what the program may have
  // put on Array.prototype, with the array (and the raw functions in it).
  const lazy = (keys, name, a, b) => { for (const key of keys) O.defineProperty(g, key, { configurable: true, get() { return API().build(keys, name || key, a, b, key); } }); };
  // Too deep nesting: QuickJS throws InternalError("stack overflow"), and
  // JSON.parse a SyntaxError. Make both a RangeError, as in V8, so code
  // written for V8 catches them. JSON.parse and JSON.stringify are guarded
  // (api.js) on every path, the host's stringify of results and tool
  // inputs included; a tool's result is checked on the host instead
  // (jsondepth.go parseNatively), and only one too deep reaches the guard.
  // Building the guards calls no host function (the host's own parses run
  // inside host calls).
  // A primitive is stringified without building them.
  O.setPrototypeOf(InternalError.prototype, RangeError.prototype);
  // Assigned, not defined: JSON's methods are writable, configurable and
  // not enumerable, and an assignment keeps that. Method syntax makes
  // functions that are not constructors, as the originals.
  JSON.parse = { parse(text, reviver) {
    const a = API();
    return a ? a.parse(text, reviver) : parse(text, reviver);
  } }.parse;
  JSON.stringify = { stringify(v, r, sp) {
    const a = v === null || typeof v !== "object" || (r != null && typeof r !== "function") ? undefined : API();
    return a ? a.stringify(v, r, sp) : S(v, r, sp);
  } }.stringify;
  for (const key of ["tools", "console", "tool_call", "tool_search"]) lazy([key]);
  // QuickJS has no Symbol.dispose nor Symbol.asyncDispose, which the
  // TypeScript erasure's `using` (tsstrip) and the model's own classes
  // name: made as the engines that have them do, not writable.
  for (const key of ["dispose", "asyncDispose"]) key in Symbol || O.defineProperty(Symbol, key, { value: Symbol("Symbol." + key) });
  /*GLOBALS*/
}
