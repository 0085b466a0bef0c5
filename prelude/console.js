// Builds `console`: each argument as api.js's text writes it (strings as
// they are, errors as "Name: message", other values as JSON; never a
// throw). A line is cut before it goes to the host (the host keeps at most
// 2,000 characters of it).
(call, log, text) => {
  const console = {};
  for (const level of ["log", "info", "warn", "error", "debug"]) console[level] = (...args) => { const m = args.map((v) => text(v)).join(" "); log(level, m.length > 4000 ? m.slice(0, 4000) : m); };
  return Object.freeze(console);
}
