// Builds setTimeout, setInterval, clearTimeout and clearInterval over the
// host's timer: timer(hostId, ms) settles after ms milliseconds; clear(hostId)
// makes it settle at once. The run's timeout bounds every wait, and timers
// still pending when the run ends are dropped. A callback that throws is
// logged as an error, as a page would report it, and the run goes on.
//
// Host timers settle in whatever order their waits end, which on a loaded
// machine is not the order they were due. So when one settles, every live
// timer due no later than it fires first, in (due, creation) order, as a
// page's event loop would run them.
(call, log, text, timer, clear) => {
  const live = new Map(), max = 1000;
  let next = 0, seq = 0;
  // early: t fires before its own host wait ended, which is then released.
  const fire = (t, early) => {
    if (live.get(t.id) !== t) return;
    if (t.repeat) arm(t);
    else {
      live.delete(t.id);
      if (early) clear(t.host);
    }
    try { t.fn(...t.args); } catch (e) { log("error", "uncaught in a " + t.name + " callback: " + text(e)); }
  };
  const due = (t) => {
    if (live.get(t.id) !== t) return;
    const ready = [...live.values()].filter((o) => o.due < t.due || (o.due === t.due && o.seq <= t.seq));
    ready.sort((a, b) => a.due - b.due || a.seq - b.seq);
    for (const o of ready) fire(o, o !== t);
  };
  // arm (re)starts t's host wait under a fresh host id, so a repeating
  // timer's earlier wait can never be mistaken for its next one.
  const arm = (t) => {
    if (t.host) clear(t.host); // a no-op unless t fired early
    const host = ++seq, entry = { ...t, seq: host, host, due: Date.now() + t.wait }, id = t.id;
    live.set(id, entry);
    // The wait's reaction holds ids only: a cleared timer's callback (and
    // what it closes over) is let go at the clear, not when its wait ends.
    timer(host, t.wait).then(() => { const e = live.get(id); if (e && e.host === host) due(e); }, () => {});
  };
  const start = (name, fn, ms, args, repeat) => {
    if (typeof fn !== "function") throw new TypeError(name + ": the callback must be a function");
    if (live.size >= max) throw new RangeError(name + ": more than " + max + " timers are pending");
    const id = ++next;
    arm({ id, name, fn, args, repeat, wait: Math.max(Number(ms) || 0, repeat ? 1 : 0) });
    return id;
  };
  const stop = (id) => { const t = live.get(id); if (t) { live.delete(id); clear(t.host); } };
  return {
    setTimeout: (fn, ms, ...args) => start("setTimeout", fn, ms, args, false),
    setInterval: (fn, ms, ...args) => start("setInterval", fn, ms, args, true),
    clearTimeout: stop,
    clearInterval: stop,
  };
}
