// Builds setTimeout, setInterval, clearTimeout and clearInterval over the
// host's timer: timer(id, ms) settles after ms milliseconds; clear(id)
// makes it settle at once. The run's timeout bounds every wait, and timers
// still pending when the run ends are dropped. A callback that throws is
// logged as an error, as a page would report it, and the run goes on.
(call, log, timer, clear) => {
  const live = new Map(), max = 1000;
  let next = 0;
  const start = (name, fn, ms, args, repeat) => {
    if (typeof fn !== "function") throw new TypeError(name + ": the callback must be a function");
    if (live.size >= max) throw new RangeError(name + ": more than " + max + " timers are pending");
    const id = ++next, wait = Math.max(Number(ms) || 0, repeat ? 1 : 0);
    live.set(id, true);
    const tick = () => timer(id, wait).then(() => {
      if (!live.has(id)) return;
      if (!repeat) live.delete(id);
      try { fn(...args); } catch (e) { log("error", "uncaught in a " + name + " callback: " + (e instanceof Error ? e.name + ": " + e.message : String(e))); }
      if (repeat && live.has(id)) tick();
    }, () => {});
    tick();
    return id;
  };
  const stop = (id) => { if (live.delete(id)) clear(id); };
  return {
    setTimeout: (fn, ms, ...args) => start("setTimeout", fn, ms, args, false),
    setInterval: (fn, ms, ...args) => start("setInterval", fn, ms, args, true),
    clearTimeout: stop,
    clearInterval: stop,
  };
}
