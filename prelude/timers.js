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
//
// A cleared timer's wait settles only once the program yields: a loop that
// set and cleared timers held a host call and its promise (~1 KB) for each,
// and ended MEMORY_LIMIT holding nothing (3e5 under 128 MB). While 256
// such waits are outstanding, a timer armed waits in parked (ids) for one
// to settle, with no host wait of its own.
(call, log, text, timer, clear) => {
  const live = new Map(), max = 1000, parked = new Set();
  let next = 0, seq = 0, waits = 0;
  // early: t fires before its own host wait ended, which is then released.
  const fire = (t, early) => {
    if (live.get(t.id) !== t) return;
    parked.delete(t.id);
    if (t.repeat) arm(t);
    else {
      live.delete(t.id);
      if (early && t.host) clear(t.host);
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
    const e = { ...t, seq: ++seq, host: 0, due: Date.now() + t.wait };
    live.set(t.id, e);
    wait(e, t.wait);
  };
  const wait = (e, ms) => {
    // waits less the live timers that have one (e has none yet).
    if (waits - (live.size - parked.size - 1) >= 256) return parked.add(e.id);
    waits++;
    const host = e.host = e.seq, id = e.id;
    // The wait's reaction holds ids only: a cleared timer's callback (and
    // what it closes over) is let go at the clear, not when its wait ends.
    timer(host, ms).then(() => { settled(); const x = live.get(id); if (x && x.host === host) due(x); }, settled);
  };
  // A wait settled: the parked timers get theirs while they may (a copy of
  // the ids, as wait parks again past the limit).
  const settled = () => {
    waits--;
    for (const id of [...parked]) {
      parked.delete(id);
      const e = live.get(id);
      if (e && !e.host && (wait(e, Math.max(e.due - Date.now(), 0)), !e.host)) return;
    }
  };
  const start = (name, fn, ms, args, repeat) => {
    if (typeof fn !== "function") throw new TypeError(name + ": the callback must be a function");
    if (live.size >= max) throw new RangeError(name + ": more than " + max + " timers are pending");
    const id = ++next;
    arm({ id, name, fn, args, repeat, wait: Math.max(Number(ms) || 0, repeat ? 1 : 0) });
    return id;
  };
  const stop = (id) => { const t = live.get(id); if (t) { live.delete(id); parked.delete(id); if (t.host) clear(t.host); } };
  return {
    setTimeout: (fn, ms, ...args) => start("setTimeout", fn, ms, args, false),
    setInterval: (fn, ms, ...args) => start("setInterval", fn, ms, args, true),
    clearTimeout: stop,
    clearInterval: stop,
  };
}
