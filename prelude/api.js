// The sandbox API behind the getters of prelude.js, compiled on the first
// read of any of them (or the first JSON.parse): a run that touches none
// compiles none of it. It gets what prelude.js captured before the program
// ran (the host functions, the global object, Object, the context's
// own JSON.parse and JSON.stringify, Reflect.apply, RangeError, Map, Set), never what
// the program may have replaced since.
//
// A tool call is two host calls: begin records it synchronously (so a call
// the program never awaits is still counted and recorded, even if the run
// ends at once) and returns its id; run runs its pipeline. Strings are cut
// here, before they are encoded for the host: a name longer than any valid
// tool name (128) stays unknown when cut to 129 characters, and its length
// goes along, for the host to say how much was cut.
(host, g, O, parse, S, apply, RE, M, St) => {
  // By index: destructuring would call the program's
  // Array.prototype[Symbol.iterator], if it set one, with host.
  const begin = host[0], run = host[1], find = host[2], log = host[3], src = host[4], depth = host[5];
  const cut = (s, n) => s.length > n ? s.slice(0, n) : s, gp = O.getPrototypeOf, OP = O.prototype, isArr = g.Array.isArray;
  let show;
  // An input that nests too deeply for JSON, or holds itself, is refused by
  // begin itself (the host's toolcall.go beginUnwritable), naming the tool;
  // so is a call given m arguments after its input, which it would drop.
  const call = (name, input, m) => {
    const s = typeof name === "string", l = s && name.length > 129 ? name.length : 0;
    return run(begin(!s ? null : l ? cut(name, 129) : name, input, l, m));
  };
  // No prototype: own[name] must not find what the program put on
  // Object.prototype under a built-in's name.
  const own = {
    __proto__: null,
    tool_call: () => (name, input, ...m) => call(name, input, m.length),
    // tool_search("orders", { limit: 1 }): the options beside a query
    // string count (the limit was ignored); so does a number there, the
    // limit (tool_search("orders", 3)), which the host reads.
    tool_search: () => (opts, more) => {
      if (typeof opts === "string") opts = { ...more, query: opts };
      if (opts && typeof opts === "object" && typeof opts.query === "string" && opts.query.length > 1000) opts = O.assign({}, opts, { query: cut(opts.query, 1000) });
      return find(opts, more);
    },
    // tools.js is the same in every run; the run's tools are its data.
    tools: () => src("tools")(call, src, O, isArr),
  };
  // JSON.parse's recursion in QuickJS barely moves QuickJS's own stack
  // check but takes the host engine's native stack, which overflows first
  // (somewhere past 5,000 levels in V8), so a text that nests deeper than
  // 1,000 levels is refused before parsing. No regular expression reads
  // the text: they kept a backtracking state per character of a long
  // string in QuickJS (a 3 MB string ran out of 128 MB). A text with at
  // most 1,000 opening brackets, strings included, cannot nest deeper
  // (native indexOf counts them); else the host counts depth
  // (jsondepth.go: one pass, each string skipped to its closing quote, one
  // not preceded by an odd run of backslashes), on the text's JSON (one
  // copy, made in C), several times faster than that pass in QuickJS
  // (9 ms per 123 KB).
  // A text that starts with a quote is one string (else a syntax error
  // after it): nothing in it nests, and its escaped quotes made the pass
  // slow (a tool's JSON handed over as a string).
  const tooDeep = (t) => {
    if (typeof t !== "string" || t.length < 2000) return false;
    let s = 0;
    for (let c = t.charCodeAt(0); c === 32 || c === 9 || c === 10 || c === 13; c = t.charCodeAt(++s));
    if (t.charCodeAt(s) === 34) return false;
    let n = 0;
    for (let i = t.indexOf("["); i >= 0 && n <= 1000; i = t.indexOf("[", i + 1)) n++;
    for (let i = t.indexOf("{"); i >= 0 && n <= 1000; i = t.indexOf("{", i + 1)) n++;
    return n > 1000 && depth(t) === true;
  };
  // text is a value as a log line shows it (show.js): a string as it is;
  // anything else builds show.js first, on its first need in the run.
  const text = (v) => typeof v === "string" ? v : (show || (show = src("show")(api, src, S, isArr, gp, OP)))(v);
  // JSON.stringify writes a Map or a Set as {}, its entries lost: a model
  // that stringifies one (to return or log it) read "{}" as no data, with
  // no word why. The program's first one logs a warning that says how to
  // keep them (its words are source "lost", built then: this file is built
  // by every run that calls a tool). The result and console lines convert
  // both themselves, with replacers that run first: no warning there. A
  // Proxy whose getPrototypeOf trap throws is written as before. w: warned.
  let w;
  const api = {
    parse(text, reviver) {
      if (tooDeep(text)) throw new RE("JSON.parse: the text nests more than 1,000 levels deep");
      try { return parse(text, reviver); } catch (e) {
        if (e instanceof SyntaxError && e.message === "stack overflow") throw new RE("JSON.parse: the text nests too deeply");
        throw e;
      }
    },
    // JSON.stringify recurses in C like JSON.parse: past ~5,000 levels
    // V8's stack overflows before QuickJS's check and the run ends,
    // uncatchably. An object is stringified with a replacer that refuses
    // nesting past 1,000 levels (a RangeError), as the engine's own
    // stringify of results and tool inputs does in its one replacer
    // (sandbox/convert.go detectJS). Stringify walks
    // depth-first, so the holders it passes form a path: the same holder,
    // the last value handed back (one level down), or an ancestor (back up).
    // r's arguments go in one list a stringify, own elements of a literal
    // (set on an empty array, an index would find a setter the program
    // put on Array.prototype): a new [k, x] a value was half the time of a
    // tool call whose input held 50,000 objects.
    stringify(v, r, sp) {
      const path = [], a = [0, 0];
      let n = 0, last;
      return S(v, function (k, x) {
        if (r) a[0] = k, a[1] = x, x = apply(r, this, a);
        if (!w) try { if (x instanceof M || x instanceof St) w = src("lost")(log, x instanceof M); } catch {}
        if (this !== last) while (n > 0 && path[n - 1] !== this) n--;
        if (n === 0 || path[n - 1] !== this) {
          path[n++] = this;
          if (n > 1001) throw new RE("JSON.stringify: the value nests more than 1,000 levels deep");
        }
        last = x;
        return x;
      }, sp);
    },
    // build makes the globals `keys` (source `name`, an object of all of
    // them when several, handed call, log, text and the host functions a
    // and b it needs), fixes them as values, and returns global `key`.
    // Nothing here iterates an array: see prelude.js lazy.
    build(keys, name, a, b, key) {
      const built = own[name] ? own[name]() : src(name)(call, log, text, a, b);
      for (let i = 0; i < keys.length; i++) O.defineProperty(g, keys[i], { __proto__: null, value: keys.length > 1 ? built[keys[i]] : built, configurable: false, writable: false });
      return g[key];
    },
  };
  return api;
}
