// Builds queueMicrotask as a promise job: it runs in order with the
// program's own promise reactions, before the run's result is read. A
// callback that throws is logged as an error (nothing awaits the job, so the
// error would otherwise vanish) and the run goes on, as with timers.
(call, log, text) => {
  const P = Promise;
  const report = (e) => log("error", "uncaught in a queueMicrotask callback: " + text(e));
  return { queueMicrotask(fn) {
    if (typeof fn !== "function") throw new TypeError("queueMicrotask: the callback must be a function");
    P.resolve().then(() => { fn(); }).then(undefined, report);
  } }.queueMicrotask;
}
