// Builds `console`: each argument as api.js's text writes it (strings as
// they are, errors as "Name: message", other values as JSON; never a
// throw). A line is cut before it goes to the host (the host keeps at most
// 2,000 characters of it). Besides the five levels, the methods models
// write out of habit work as in Node and browsers, so a debugging line
// never ends the run with "not a function": table and dir log their value
// as JSON, trace, assert, count, time and group write Node's words, and a
// first argument with % substitutions (%s %d %i %f %o %O %j %c %%) is
// formatted when more arguments follow. `log` (the host function) is only
// ever called here, never handed to anything the program can replace.
(call, log, text) => {
  const console = {};
  const counts = { __proto__: null }, timers = { __proto__: null };
  // The indentation stops growing at 32 levels: a group opened in a loop
  // and never closed (a `continue` before groupEnd) pushed every later
  // line's text past the cut, leaving lines of spaces, and cost each line
  // time growing with the depth.
  let depth = 0, indent = "";
  const nest = (by) => { depth = Math.max(0, depth + by); indent = "  ".repeat(Math.min(depth, 32)); };
  const num = (v, f) => { if (typeof v === "bigint") return v + "n"; if (typeof v === "symbol") return "NaN"; try { return String(f(v)); } catch (_) { return "NaN"; } };
  const sub = (c, v) => c === "d" ? num(v, Number) : c === "i" ? num(v, (x) => parseInt(x, 10)) : c === "f" ? num(v, (x) => parseFloat(x)) : c === "c" ? "" : text(v);
  // A scan for %, as /%([sdifjoOc%])/g would match, not replace with that
  // regexp: replace collects every match before it substitutes, and a
  // format of 1e6 %s took over 128 MB for the match arrays.
  const format = (args) => {
    let i = 0, m = "";
    if (typeof args[0] === "string" && args.length > 1) {
      const f = args[0];
      let from = 0;
      i = 1;
      for (let at = f.indexOf("%"); at >= 0; at = f.indexOf("%", at)) {
        const c = f[at + 1];
        if (c === "%" || c !== undefined && "sdifjoOc".includes(c) && i < args.length) {
          m += f.slice(from, at) + (c === "%" ? "%" : sub(c, args[i++]));
          from = at += 2;
        } else at++;
      }
      m += f.slice(from);
    } else if (args.length) m = text(args[i++]);
    for (; i < args.length; i++) m += " " + text(args[i]);
    return m;
  };
  const out = (level, m) => {
    if (indent) m = indent + (m.length > 4000 ? m.slice(0, 4000) : m).split("\n").join("\n" + indent);
    log(level, m.length > 4000 ? m.slice(0, 4000) : m);
  };
  const label = (l) => l === undefined ? "default" : text(typeof l === "symbol" ? String(l) : l);
  const since = (l) => Math.round((Date.now() - timers[l]) * 1000) / 1000 + "ms";
  for (const level of ["log", "info", "warn", "error", "debug"]) console[level] = (...args) => out(level, format(args));
  console.trace = (...args) => out("log", "Trace" + (args.length ? ": " + format(args) : ""));
  console.dir = console.dirxml = console.table = (v) => out("log", text(v));
  console.assert = (ok, ...args) => { if (!ok) out("error", "Assertion failed" + (args.length ? ": " + format(args) : "")); };
  console.count = (l) => { l = label(l); counts[l] = (counts[l] || 0) + 1; out("log", l + ": " + counts[l]); };
  console.countReset = (l) => { delete counts[label(l)]; };
  console.time = (l) => { l = label(l); if (l in timers) out("warn", "Label '" + l + "' already exists for console.time()"); else timers[l] = Date.now(); };
  const timeLog = (name, end) => (l, ...args) => {
    l = label(l);
    if (!(l in timers)) return out("warn", "No such label '" + l + "' for console." + name + "()");
    out("log", l + ": " + since(l) + (args.length ? " " + format(args) : ""));
    if (end) delete timers[l];
  };
  console.timeLog = timeLog("timeLog", false);
  console.timeEnd = timeLog("timeEnd", true);
  console.group = console.groupCollapsed = (...args) => { if (args.length) out("log", format(args)); nest(1); };
  console.groupEnd = () => nest(-1);
  console.clear = () => {};
  return Object.freeze(console);
}
