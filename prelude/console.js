// Builds `console`: strings as they are, errors as "Name: message", other
// values as JSON. A line is cut before it goes to the host (the host keeps
// at most 2,000 characters of it).
(call, log) => {
  const S = JSON.stringify, fmt = (v) => {
    if (typeof v === "string") return v;
    if (v instanceof Error) return v.name + ": " + v.message;
    try { const s = S(v); return s === undefined ? String(v) : s; } catch (e) { return String(v); }
  };
  const console = {};
  for (const level of ["log", "info", "warn", "error", "debug"]) console[level] = (...args) => { const m = args.map(fmt).join(" "); log(level, m.length > 4000 ? m.slice(0, 4000) : m); };
  return Object.freeze(console);
}
