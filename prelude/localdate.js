// The sandbox's Date in a zone other than UTC (Config.TimeZone; the
// prelude calls this for code that mentions Date). QuickJS turns a local
// date and time L into an instant with the offset at L read as an
// instant, not at the instant itself: an hour off for hours after each
// change of offset (setHours(3, 30) on New York's spring-forward day gave
// 4:30; in Sydney setHours(0) on the eve of a change was an hour off). The
// constructor with fields, the local setters, Date.parse and new
// Date(string) take the instant whose local time is L as the standard
// says: the earlier of two in a repeated hour, the offset before a skipped
// one. Away from a change (the offsets two days either side agree, kept
// by day) QuickJS's answer is that already, and the wrappers add a lookup.
// A string is read again with "Z" added for its local date and time (NaN,
// or the same instant, when it names its own offset).
() => {
  // What the wrappers call is taken now: a program that replaces Math.floor
  // or Reflect.construct later does not reach into them.
  const g = globalThis, O = Object, apply = Reflect.apply, construct = Reflect.construct, F = Math.floor, D = Date, P = D.prototype;
  const gt = P.getTime, st = P.setTime, tzo = P.getTimezoneOffset, U = D.UTC, ps = D.parse, no = [];
  let near = { __proto__: null }, kept = 0;
  const off = (t) => -apply(tzo, new D(t), no) * 6e4;
  // Whether the offset changes within two days of r's day (L is within a day of r).
  const moves = (r) => {
    const k = F(r / 864e5);
    let v = near[k];
    if (v === undefined) {
      if (++kept > 4096) near = { __proto__: null }, kept = 0;
      near[k] = v = off(k * 864e5 - 1728e5) !== off(k * 864e5 + 2592e5);
    }
    return v;
  };
  // The fields as numbers, for L (read again only near a change: a valueOf is called twice there).
  const nums = (a, n) => { const v = []; for (let i = 0; i < a.length && i < n; i++) v[i] = +a[i]; return v; };
  const pz = (s, r) => { const L = ps(s + "Z"); return L === r ? NaN : L; };
  // The instant whose local time is L; r, QuickJS's, when L is not a local time.
  const at = (L, r) => {
    const a = off(L - 864e5), b = off(L + 864e5), x = L - a, y = L - b;
    return a === b || x !== x || y !== y ? r : off(y) === b && (off(x) !== a || y < x) ? y : x;
  };
  // A rest parameter, not arguments, which QuickJS makes at every call (new Date(t) took half as long again).
  const W = function Date(...a) {
    if (!new.target) return D();
    const n = a.length, d = n < 2 && new.target === W ? (n ? new D(a[0]) : new D()) : construct(D, a, new.target), r = apply(gt, d, no);
    if ((n > 1 || typeof a[0] === "string") && r === r && moves(r)) apply(st, d, [at(n > 1 ? apply(U, D, nums(a, 7)) : pz(a[0], r), r)]);
    return d;
  };
  O.defineProperty(W, "length", { value: 7 });
  for (const [k, v] of [["now", D.now], ["UTC", U], ["parse", { parse(s) { s = `${s}`; const r = ps(s); return r === r && moves(r) ? at(pz(s, r), r) : r; } }.parse]]) O.defineProperty(W, k, { value: v, writable: true, configurable: true });
  O.defineProperty(W, "prototype", { value: P, writable: false });
  O.defineProperty(P, "constructor", { value: W, writable: true, configurable: true });
  O.defineProperty(g, "Date", { value: W, writable: true, configurable: true });
  for (const k of ["Milliseconds", "Seconds", "Minutes", "Hours", "Date", "Month", "FullYear"]) {
    const n = "set" + k, f = P[n], u = P["setUTC" + k];
    // Its length the standard's (setHours 4), as f's.
    O.defineProperty(P, n, { writable: true, configurable: true, value: O.defineProperty({ [n](...a) {
      const t = apply(gt, this, no), r = apply(f, this, a);
      return r !== r || !moves(r) ? r : apply(st, this, [at(apply(u, new D(t === t ? t + off(t) : 0), nums(a, f.length)), r)]);
    } }[n], "length", { value: f.length }) });
  }
}
