// The sandbox API behind the getters of prelude.js, compiled on the first
// read of any of them (or the first JSON.parse): a run that touches none
// compiles none of it. It gets what prelude.js captured before the program
// ran (the host functions, the global object, Object, eval, the context's
// own JSON.parse and JSON.stringify, Reflect.apply, RangeError), never what
// the program may have replaced since.
//
// A tool call is two host calls: begin records it synchronously (so a call
// the program never awaits is still counted and recorded, even if the run
// ends at once) and returns its id; run runs its pipeline. Strings are cut
// here, before they are encoded for the host: a name longer than any valid
// tool name (128) stays unknown when cut to 129 characters.
(host, g, O, ev, parse, S, apply, RE) => {
  // By index: destructuring would call the program's
  // Array.prototype[Symbol.iterator], if it set one, with host.
  const begin = host[0], run = host[1], find = host[2], log = host[3], src = host[4], depth = host[5];
  const cut = (s, n) => s.length > n ? s.slice(0, n) : s;
  const gp = O.getPrototypeOf, OP = O.prototype, isArr = g.Array.isArray;
  const call = (name, input) => run(begin(typeof name === "string" ? cut(name, 129) : null, input));
  const search = (opts) => {
    if (opts !== null && typeof opts === "object" && typeof opts.query === "string" && opts.query.length > 1000) opts = O.assign({}, opts, { query: cut(opts.query, 1000) });
    return find(opts);
  };
  // No prototype: own[name] must not find what the program put on
  // Object.prototype under a built-in's name.
  const own = {
    __proto__: null,
    tool_call: () => (name, input) => call(name, input),
    tool_search: () => (opts) => search(typeof opts === "string" ? { query: opts } : opts),
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
    if (n <= 1000) return false;
    return depth(t) === true;
  };
  // related is what an Error points to that its message does not say:
  // an AggregateError's errors (Promise.any's has an empty message) and
  // the cause chain (code that rethrows as new Error("...", { cause: e })
  // would otherwise hide the tool's own error). sandbox/errors.go's
  // describeError writes the same for the run's error.
  const related = (e, get) => {
    const one = (v) => {
      let isError = false;
      try { isError = v instanceof Error; } catch (_) {}
      const s = isError ? (get(() => v.name) || "Error") + ": " + (get(() => v.message) ?? "") : get(() => (typeof v === "object" && v !== null ? api.stringify(v) : v));
      return s !== undefined && s.length > 500 ? s.slice(0, 500) + "…" : s;
    };
    let out = "";
    try {
      const list = e.errors;
      if (Array.isArray(list) && list.length) out += "; errors: " + list.slice(0, 5).map(one).join(", ") + (list.length > 5 ? " (and " + (list.length - 5) + " more)" : "");
    } catch (_) {}
    try {
      for (let c = e, i = 0; i < 3 && "cause" in c; i++) {
        c = c.cause;
        out += "; cause: " + one(c);
        if (!(c instanceof Error)) break;
      }
    } catch (_) {}
    return out;
  };
  // shown is a value's JSON in a log line. What JSON cannot hold converts
  // by the result's rules (the sandbox's "convert" source: a Map, a Set, an
  // Error, a BigInt, NaN, ...), without warnings, and a reference back to
  // an object the line is inside is "[Circular]": JSON alone wrote {} for a
  // Map or an Error and null for NaN, and gave up on a cycle or a BigInt.
  // st holds the objects being written (as JSON walks them, converted) and
  // was what each of them was before.
  let conv;
  const shown = (v) => {
    const st = [], was = [];
    let n = 0, fx, p;
    return api.stringify(v, function (k, x) {
      switch (typeof x) {
      case "string": case "boolean": case "undefined": case "function": return x;
      case "number": if (x - x === 0) return x; break;
      case "object": if (x === null) return x;
      }
      while (n && st[n - 1] !== this) n--;
      for (let i = 0; i < n; i++) if (was[i] === x) return "[Circular]";
      let out = x;
      if (typeof x !== "object" || !(isArr(x) || (p = gp(x)) === OP || p === null)) {
        if (!fx) fx = (conv || (conv = ev(src("convert"))(S, isArr)))();
        out = fx[0](x, this, k, st, st, 0, "log");
      }
      if (out !== null && typeof out === "object") { st[n] = out; was[n++] = x; }
      return out;
    });
  };
  // text is a value as a log line shows it: a string as it is, a number, a
  // BigInt or a symbol as String writes it (-0 as -0), an Error as "Name: message" and what it
  // points to (related), anything else as JSON (shown), else as String
  // gives it. A
  // getter or a Proxy trap that throws while the value is read leaves what
  // could be read: text never throws, so a console call or the report of an
  // uncaught error in a callback cannot fail on what it reports.
  const text = (v) => {
    if (typeof v === "string") return v;
    if (typeof v === "number") return v === 0 && 1 / v < 0 ? "-0" : "" + v;
    const get = (f) => { try { return String(f()); } catch (_) { return undefined; } };
    if (typeof v === "bigint" || typeof v === "symbol") return get(() => v);
    let isError = false;
    try { isError = v instanceof Error; } catch (_) {}
    if (isError) return (get(() => v.name) || get(() => v.constructor.name) || "Error") + ": " + (get(() => v.message) ?? "(its message cannot be read)") + related(v, get);
    try { const s = shown(v); if (s !== undefined) return s; } catch (_) {}
    return get(() => v) ?? (typeof v === "function" ? "a function" : "an object") + " that cannot be read or converted to text";
  };
  const api = {
    parse(text, reviver) {
      if (tooDeep(text)) throw new RangeError("JSON.parse: the text nests more than 1,000 levels deep");
      try { return parse(text, reviver); } catch (e) {
        if (e instanceof SyntaxError && e.message === "stack overflow") throw new RangeError("JSON.parse: the text nests too deeply");
        throw e;
      }
    },
    // JSON.stringify recurses in C like JSON.parse: past ~5,000 levels
    // V8's stack overflows before QuickJS's check and the run ends,
    // uncatchably. An object is stringified with a replacer that refuses
    // nesting past 1,000 levels (a RangeError); the engine's own stringify
    // of results and tool inputs is this one too. Stringify walks
    // depth-first, so the holders it passes form a path: the same holder,
    // the last value handed back (one level down), or an ancestor (back up).
    stringify(v, r, sp) {
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
    },
    // build makes the globals `keys` (source `name`, an object of all of
    // them when several, handed call, log, text and the host functions a
    // and b it needs), fixes them as values, and returns global `key`.
    // Nothing here iterates an array: see prelude.js lazy.
    build(keys, name, a, b, key) {
      const built = own[name] ? own[name]() : ev(src(name))(call, log, text, a, b);
      for (let i = 0; i < keys.length; i++) O.defineProperty(g, keys[i], { value: keys.length > 1 ? built[keys[i]] : built, configurable: false, writable: false });
      return g[key];
    },
  };
  return api;
}
