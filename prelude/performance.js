// Builds performance.now() and performance.timeOrigin, as a page has them,
// the run being the page: now() is the milliseconds since the run started
// (the moment its durationMs counts from), read from the host's monotonic
// clock; timeOrigin is that start in Unix milliseconds, so
// timeOrigin + performance.now() is about Date.now(). Both come in steps
// of 0.1 ms, coarser than the host's clock, as browsers coarsen theirs.
// time() is the host's reading; time(1) is the origin.
(call, log, text, time) => {
  const timeOrigin = time(1);
  return Object.freeze({
    now() { return time(); },
    timeOrigin,
    toJSON() { return { timeOrigin }; },
  });
}
