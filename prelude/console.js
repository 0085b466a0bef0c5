// Builds `console`: strings as they are, errors as "Name: message", other
// values as JSON.
(call, log) => {
  const S = JSON.stringify, fmt = (v) => {
    if (typeof v === "string") return v;
    if (v instanceof Error) return v.name + ": " + v.message;
    try { const s = S(v); return s === undefined ? String(v) : s; } catch (e) { return String(v); }
  };
  const console = {};
  for (const level of ["log", "info", "warn", "error", "debug"]) console[level] = (...args) => { log(level, args.map(fmt).join(" ")); };
  return Object.freeze(console);
}
