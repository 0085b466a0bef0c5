// How a log line shows a value: api.js's text, compiled on the first value
// that is not a string (console.log("...") and a tool call need none of
// it, and QuickJS pays for every byte it compiles, on every run). It gets
// what api.js holds, all captured before the program ran: the api (its
// guarded stringify), the host's source function (for "convert"),
// JSON.stringify, Array.isArray, Object.getPrototypeOf and
// Object.prototype.
(api, src, S, isArr, gp, OP) => {
  // related is what an Error points to that its message does not say:
  // an AggregateError's errors (Promise.any's has an empty message) and
  // the cause chain (code that rethrows as new Error("...", { cause: e })
  // would otherwise hide the tool's own error). sandbox/errors.go's
  // describeError writes the same for the run's error.
  const related = (e, get) => {
    const one = (v) => {
      let isError = false;
      try { isError = v instanceof Error; } catch (_) {}
      const s = isError ? (get(() => v.name) || "Error") + ": " + (get(() => v.message) ?? "") : get(() => (typeof v === "object" && v !== null ? api.stringify(v, capped) : v));
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
  // An object 100 levels down is written as a marker that says so.
  // st holds the objects being written (as JSON walks them, converted) and
  // was what each of them was before.
  let conv;
  // An array's length costs nothing (a.length = 1e9), and JSON writes
  // every index, String joins them: a line of one held the run to its
  // timeout. A line keeps 4,000 characters, two an element at least, so
  // past cap elements JSON writes the first cap and how many more (what
  // is seen is the same), and String (a typed array JSON refused, an
  // error's message) is not asked: the line says how long it is.
  // sandbox/errors.go's describeError does the same for the run's error,
  // with the same cap (sandbox/convert.go's shownArrayLen).
  const cap = 2000;
  const head = (x) => {
    const out = [];
    for (let i = 0; i < cap; i++) out[i] = x[i];
    // The words of sandbox/convert.go's moreJS (trunc.More in Go).
    out[cap] = "… " + (x.length - cap) + (x.length - cap === 1 ? " more item" : " more items");
    return out;
  };
  const capped = (k, x) => isArr(x) && x.length > cap ? head(x) : x;
  const tooLong = (x) => {
    const n = typeof x === "object" && x !== null ? x.length : undefined;
    return typeof n === "number" && n > cap ? "[an array of " + n + " elements]" : undefined;
  };
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
      // A line holds at most 2,000 characters: an object deeper than 100
      // levels cannot show more, and past 1,000 stringify refuses it (the
      // line read "[object Object]", saying nothing of why).
      if (n >= 100 && typeof x === "object") return "[more than 100 levels deep]";
      for (let i = 0; i < n; i++) if (was[i] === x) return "[Circular]";
      let out = x;
      if (isArr(x) && x.length > cap) out = head(x);
      else if (typeof x !== "object" || !(isArr(x) || (p = gp(x)) === OP || p === null)) {
        if (!fx) fx = (conv || (conv = src("convert")(S, isArr)))();
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
    // What QuickJS's normalize and localeCompare throw when memory runs out
    // (they set no exception): String wrote "[unsupported type]".
    if (typeof v === "unknown") return "InternalError: out of memory";
    if (typeof v === "number") return v === 0 && 1 / v < 0 ? "-0" : "" + v;
    const get = (f) => { try { const x = f(); return tooLong(x) ?? String(x); } catch (_) { return undefined; } };
    if (typeof v === "bigint" || typeof v === "symbol") return get(() => v);
    let isError = false;
    try { isError = v instanceof Error; } catch (_) {}
    if (isError) return (get(() => v.name) || get(() => v.constructor.name) || "Error") + ": " + (get(() => v.message) ?? "(its message cannot be read)") + related(v, get);
    try { const s = shown(v); if (s !== undefined) return s; } catch (_) {}
    return get(() => v) ?? (typeof v === "function" ? "a function" : "an object") + " that cannot be read or converted to text";
  };
  return text;
}
