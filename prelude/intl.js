// Builds Intl for en-US, which QuickJS lacks, as a browser's ICU formats
// (web/test/intl.test.mjs compares it with Node's); not Segmenter or
// DisplayNames (rare for their size: the run's error says what to write).
// Other locales format as en-US, with a warn; an option value not
// implemented here is a RangeError naming it. n, b, d and c are the
// prelude's toLocale* and localeCompare: they use the internals, not what
// the program may put on Intl (as in V8). log and tz stay here: tz(zone,
// time, style) is the host's time zones (no data here, for its size): the
// zone's canonical name (style ""), its timeZoneName in style at time
// ("GMT-05:00" for longOffset, "" for none), null for an unknown zone, 0
// for no answer (then UTC, with a warn); kept per run.
(log, apply, tz) => {
  const O = Object, S = String, N = Number, RE = RangeError, TE = TypeError, F = Math.floor, said = { __proto__: null };
  const warn = (k, m) => { if (!said[k]) { said[k] = 1; log("warn", m); } };
  const slots = new WeakMap();
  const fail = (E, m) => { throw new E(m); };
  const tags = (l) => {
    if (l === null) fail(TE, "Intl: locales must be a string or an array of strings, not null");
    const a = l === undefined ? [] : typeof l === "string" ? [l] : Array.from(O(l));
    for (const t of a) if (typeof t !== "string" && (typeof t !== "object" || t === null) || !/^[a-z]{2,8}(-[a-z\d]{1,8})*$/i.test(t)) fail(RE, "Incorrect locale information provided");
    return a;
  };
  const LOCALES = { __proto__: null };
  const locale = (l) => typeof l === "string" ? LOCALES[l] || (LOCALES[l] = locale1(l)) : locale1(l);
  const locale1 = (l) => {
    const a = l === undefined ? [] : tags(l), m = a.length && /^en(-us)?(?=-u-|$)/i.exec(a[0]), u = a.length && /-u(-[a-z\d]{2,8})+/i.exec(a[0]), x = u ? u[0].toLowerCase() : "";
    if (!a.length) return "en-US";
    if (m) return (m[1] ? "en-US" : "en") + x;
    warn("locale", `Intl: this sandbox formats in en-US only: "${a[0]}" was formatted as en-US`);
    return "en-US" + x;
  };
  // A locale is "en" or "en-US" and its -u- extension as given: base is
  // the one, kw(l, k) the value of key k in the other ("true" for a key
  // alone, "" for none).
  const base = (l) => l.replace(/-u-.*/, "");
  const kw = (l, k) => { const m = RegExp("-u(-\\w+)*?-" + k + "((-\\w{3,8})*)(?![^-])").exec(l); return m ? m[2].slice(1) || "true" : ""; };
  const opts = (o, who) => o === undefined ? { __proto__: null } : o === null ? fail(TE, who + ": options must be an object, not null") : O(o);
  // get reads option k: a boolean (vals true), a string among vals, or d.
  const get = (o, k, vals, d, who) => {
    let v = o[k];
    if (v === undefined) return d;
    if (vals === true) return !!v;
    v = `${v}`;
    return vals.includes(v) ? v : fail(RE, `${who}: option ${k} "${v}" is not one this sandbox supports (it has: ${vals.join(", ")})`);
  };
  const num = (v, k, lo, hi, d) => {
    if (v === undefined) return d;
    v = N(v);
    return v !== v || v < lo || v > hi ? fail(RE, k + " value is out of range.") : F(v);
  };
  // A class: state in slots; format (compare) a getter that binds, as V8's.
  const klass = (name, init, methods, bound, callable) => {
    const who = "Intl." + name;
    const C = { [name]: function (l, o) {
      if (!new.target) return callable ? new C(l, o) : fail(TE, `Constructor ${who} requires 'new'`);
      slots.set(this, init(locale(l), opts(o, who), who));
    } }[name];
    const me = (x) => slots.get(x) || fail(TE, `Method ${who}.prototype method called on incompatible receiver ${S(x)}`);
    const P = C.prototype;
    // Lengths as the standard's: the constructor's 0, a method's its own
    // but the state.
    const len = (f, n) => O.defineProperty(f, "length", { value: n });
    len(C, 0);
    for (const k in methods) if (k !== "$") O.defineProperty(P, k, { value: len({ [k](...a) { return methods[k](me(this), ...a); } }[k], methods[k].length - 1), writable: true, configurable: true });
    if (bound) O.defineProperty(P, bound, { configurable: true, get() { const s = me(this); return s.bound || (s.bound = methods.$.bind(null, s)); } });
    O.defineProperty(P, Symbol.toStringTag, { value: who, configurable: true });
    O.defineProperty(C, "supportedLocalesOf", { value: { supportedLocalesOf: (l) => tags(l).filter((t) => /^en(-us)?(-u-|$)/i.test(t)) }.supportedLocalesOf, writable: true, configurable: true });
    return C;
  };

  // A number is [digits, point]: 0.digits × 10^point ("" is zero), a
  // double's shortest digits, which ICU rounds (1.005 to 2 places is 1.01).
  // nz is s without its trailing zeros: /0+$/ tries each zero of a run in
  // turn (10n ** 50000n + 1n held a run ~45 s).
  const nz = (s) => { let e = s.length; while (e && s.charCodeAt(e - 1) === 48) e--; return s.slice(0, e); };
  const dec = (x) => {
    if (typeof x === "bigint") { const s = S(x < 0n ? -x : x).replace(/^0+/, ""); return [nz(s), s.length]; }
    if (!x) return ["", 1];
    const [m, e] = x.toExponential().split("e");
    return [m.replace(/[-.]/g, "").replace(/0+$/, ""), +e + 1];
  };
  // round keeps n digits of [d, p], a multiple of inc there, as mode
  // says (neg: of a negative number). The last 5 digits kept and the first
  // dropped decide: inc divides 10^5 an even number of times.
  const round = (d, p, n, mode = "halfExpand", neg, inc = 1) => {
    if (d.length <= n && inc < 2) return [d, p];
    const h = n > 0 ? d.slice(0, n).padEnd(n, "0") : "", t = n < 0 ? "0" + d : d.slice(n > 0 ? n : 0), w = Math.min(h.length, 5);
    let pre = h.slice(0, h.length - w), low = +h.slice(h.length - w), m = low % inc, D = 2 * m - inc, i = pre.length - 1;
    // c: what is dropped against half an increment; k: the mode's way.
    const c = !t ? Math.sign(D) : D >= 0 ? 1 : D < -1 ? -1 : t[0] < "5" ? -1 : t === "5" ? 0 : 1, k = mode.replace("half", "").toLowerCase();
    const way = k === "ceil" ? !neg : k === "floor" ? neg : k === "expand" || k === "even" && (low - m) / inc & 1;
    low += (mode[0] === "h" ? c > 0 || !c && way : (m || t) && way) ? inc - m : -m;
    if (pre && low >= 1e5) {
      low -= 1e5;
      while (i >= 0 && pre[i] === "9") i--;
      pre = i < 0 ? "1".padEnd(pre.length + 1, "0") : pre.slice(0, i) + (+pre[i] + 1) + "0".repeat(pre.length - i - 1);
    }
    const all = pre + pad(low, w), r = nz(all);
    return [r, r ? p + all.length - n : 1];
  };
  const CUR = "AUD A$ BRL R$ CAD CA$ CNY CN¥ EUR € GBP £ HKD HK$ ILS ₪ INR ₹ JPY ¥ KRW ₩ MXN MX$ NZD NZ$ PHP ₱ TWD NT$ USD $ VND ₫ XAF FCFA XCD EC$ XOF F\u202fCFA XPF CFPF".split(" ");
  const NARROW = "ARS AUD BBD BMD BND BSD BZD CAD CLP COP CUP DOP FJD GYD HKD JMD KYD LRD MXN NAD NZD SBD SGD SRD TTD TWD USD UYU XCD";
  const KR = "DKK ISK NOK SEK";
  const DIG0 = "AFN ALL BIF CLP COP DJF GNF HUF IDR IQD IRR ISK JPY KMF KPW KRW LAK LBP MGA MMK PKR PYG RWF SLL SOS SYP UGX VND VUV XAF XOF XPF YER", DIG3 = "BHD JOD KWD LYD OMR TND";
  // Currency names, singular|plural where they differ.
  const NAMES = { USD: "US dollar", EUR: "euro", GBP: "British pound", JPY: "Japanese yen|", CAD: "Canadian dollar", AUD: "Australian dollar", INR: "Indian rupee", CNY: "Chinese yuan|",
    CHF: "Swiss franc", MXN: "Mexican peso", SEK: "Swedish krona|Swedish kronor" };
  // Units: short (singular|plural where they differ; _ a space) and
  // narrow (the short by default); long is the name ("fluid ounce"),
  // plural with "s", but for LONGU's.
  const LONGU = { celsius: "degree Celsius|degrees Celsius", fahrenheit: "degree Fahrenheit|degrees Fahrenheit", foot: "foot|feet", inch: "inch|inches", percent: "percent|percent", "mile-scandinavian": "mile-scandinavian|miles-scandinavian" };
  const UNIT = { __proto__: null };
  for (const u of "acre ac,bit bit,byte byte B,celsius °C,centimeter cm,day day|days d,degree deg °,fahrenheit °F °,fluid-ounce fl_oz,foot ft ′,gallon gal,gigabit Gb,gigabyte GB,gram g,hectare ha,hour hr h,inch in ″,kilobit kb,kilobyte kB,kilogram kg,kilometer km,liter L,megabit Mb,megabyte MB,meter m,microsecond μs,mile mi,mile-scandinavian smi,milliliter mL,millimeter mm,millisecond ms,minute min m,month mth|mths m,nanosecond ns,ounce oz,percent %,petabyte PB,pound lb #,second sec s,stone st,terabit Tb,terabyte TB,week wk|wks w,yard yd,year yr|yrs y".split(",")) { const [k, ...v] = u.split(" "); UNIT[k] = v; }
  const NF = "Intl.NumberFormat";
  const nfInit = (locale, o, who = NF) => {
    const g = (k, v, d) => get(o, k, v, d, who);
    g("localeMatcher", ["lookup", "best fit"]);
    g("numberingSystem", ["latn"]);
    const style = g("style", ["decimal", "percent", "currency", "unit"], "decimal");
    let cur = o.currency, c = 2;
    if (cur !== undefined) { cur = S(cur); if (!/^[a-z]{3}$/i.test(cur)) fail(RE, "Invalid currency code : " + cur); cur = cur.toUpperCase(); }
    const cd = g("currencyDisplay", ["symbol", "narrowSymbol", "code", "name"], "symbol"), cs = g("currencySign", ["standard", "accounting"], "standard");
    if (style === "currency") {
      if (cur === undefined) fail(TE, "Currency code is required with currency style.");
      c = DIG0.includes(cur) ? 0 : DIG3.includes(cur) ? 3 : 2;
      if (cd === "name" && !NAMES[cur]) warn("cur" + cur, `${NF}: this sandbox has no English name for ${cur}: it shows the code`);
    }
    let unit = o.unit;
    const ud = g("unitDisplay", ["short", "long", "narrow"], "short");
    if (style === "unit") {
      if (unit === undefined) fail(TE, "Unit is required with unit style.");
      if (!UNIT[unit = S(unit)]) fail(RE, `${who}: unit "${unit}" is not one this sandbox supports (it has the simple units, as Intl.supportedValuesOf("unit") lists them)`);
    }
    // PluralRules takes the notations NumberFormat lacks: en's plural of
    // 1E6 is that of 1000000.
    const notation = g("notation", who === NF ? ["standard", "compact"] : ["standard", "compact", "scientific", "engineering"], "standard"), compact = notation === "compact";
    // The digit options as ECMA-402 reads them (SetNumberFormatDigitOptions):
    // rt is how a number rounds: fraction digits (F), significant (S), or
    // the result with more (m) or less (l) precision of both.
    const mni = num(o.minimumIntegerDigits, "minimumIntegerDigits", 1, 21, 1);
    let mnf = o.minimumFractionDigits, mxf = o.maximumFractionDigits, mns = o.minimumSignificantDigits, mxs = o.maximumSignificantDigits, u;
    const inc = num(o.roundingIncrement, "roundingIncrement", 1, 5000, 1);
    if (!/^(1|25?|5)0*$/.test(inc)) fail(RE, `${who}: roundingIncrement ${inc} is not one of 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000`);
    const mode = g("roundingMode", ["ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"], "halfExpand");
    let prio = g("roundingPriority", ["auto", "morePrecision", "lessPrecision"], "auto"), rt = prio[0];
    const tzd = g("trailingZeroDisplay", ["auto", "stripIfInteger"], "auto");
    const hasS = mns !== undefined || mxs !== undefined, hasF = mnf !== undefined || mxf !== undefined, auto = rt === "a", needS = !auto || hasS, needF = !auto || !hasS && (hasF || !compact);
    if (needS) { mns = num(mns, "minimumSignificantDigits", 1, 21, 1); mxs = num(mxs, "maximumSignificantDigits", mns, 21, 21); } else mns = mxs = u;
    if (needF) {
      const dmn = style === "currency" ? c : 0, dmx = inc > 1 ? dmn : style === "currency" ? c : style === "percent" ? 0 : 3;
      mnf = num(mnf, "minimumFractionDigits", 0, 100); mxf = num(mxf, "maximumFractionDigits", 0, 100);
      if (mnf === u) mnf = Math.min(dmn, mxf === u ? dmx : mxf);
      else if (mxf === u) mxf = Math.max(dmx, mnf);
      else if (mnf > mxf) fail(RE, "maximumFractionDigits value is out of range.");
      if (mxf === u) mxf = dmx;
    } else mnf = mxf = u;
    if (!needS && !needF) mnf = mxf = 0, mns = 1, mxs = 2, prio = "morePrecision", rt = "m";
    else if (auto) rt = needS ? "S" : "F";
    if (inc > 1 && rt !== "F") fail(TE, `${who}: roundingIncrement ${inc} rounds fraction digits only: not with significant digits, roundingPriority or notation "compact" without fraction digits`);
    if (inc > 1 && mnf !== mxf) fail(RE, `${who}: roundingIncrement ${inc} needs minimumFractionDigits equal to maximumFractionDigits (they are ${mnf} and ${mxf})`);
    const cd2 = g("compactDisplay", ["short", "long"], "short");
    let ug = o.useGrouping;
    ug = ug === u || ug === "true" || ug === "false" ? (compact ? "min2" : "auto") : ug === true ? "always" : !ug ? false : g("useGrouping", ["always", "auto", "min2"]);
    // In resolvedOptions' order: resolved lists the defined ones.
    const cy = style === "currency", un = style === "unit";
    return { locale: base(locale), numberingSystem: "latn", style, currency: cy ? cur : u, currencyDisplay: cy ? cd : u, currencySign: cy ? cs : u, unit: un ? unit : u, unitDisplay: un ? ud : u,
      minimumIntegerDigits: mni, minimumFractionDigits: mnf, maximumFractionDigits: mxf, minimumSignificantDigits: mns, maximumSignificantDigits: mxs, useGrouping: ug, notation, compactDisplay: compact ? cd2 : u,
      signDisplay: g("signDisplay", ["auto", "never", "always", "exceptZero", "negative"], "auto"), roundingIncrement: inc, roundingMode: mode, roundingPriority: prio, trailingZeroDisplay: tzd, rt };
  };
  const COMPACT = ["", "K", "M", "B", "T"], LONG = ["", "thousand", "million", "billion", "trillion"];
  const parts = (s, x) => {
    // A decimal string formats exactly, as a BigInt does: "987654321987654321".
    const ds = typeof x === "string" && /^[+-]?(\d*)\.?(\d*)(?:e([+-]?\d{1,3}))?$/i.exec(x.trim());
    if (typeof x !== "bigint") x = N(x);
    const out = [], put = (type, value) => { if (value) out.push({ type, value }); };
    let neg = x < 0 || O.is(x, -0), d, p, k = 0, num = [];
    if (x !== x) num.push({ type: "nan", value: "NaN" });
    else if (x === Infinity || x === -Infinity) num.push({ type: "infinity", value: "∞" });
    else {
      if (ds && /[1-9]/.test(ds[1] + ds[2])) {
        const all = ds[1] + ds[2], lead = all.search(/[1-9]/);
        d = nz(all.slice(lead)); p = ds[1].length + +(ds[3] || 0) - lead;
      } else [d, p] = dec(x);
      if (s.style === "percent") p += 2;
      if (s.notation === "compact" && d) k = Math.min(Math.max(F((p - 1) / 3), 0), 4), p -= 3 * k;
      const rt = s.rt, nS = s.maximumSignificantDigits, nF = p + s.maximumFractionDigits, sig = rt === "S" || rt === "m" && nS >= nF || rt === "l" && nS < nF;
      [d, p] = round(d, p, sig ? nS : nF, s.roundingMode, neg, sig ? 1 : s.roundingIncrement);
      if (k < 4 && p > 3 && s.notation === "compact" && d) k++, p -= 3;
      const int = p > 0 ? d.slice(0, p).padEnd(p, "0") : "0";
      let fr = p >= 0 ? d.slice(p) : "0".repeat(-p) + d;
      let mf = sig ? s.minimumSignificantDigits - (d ? p : 1) : s.minimumFractionDigits || 0;
      if (s.trailingZeroDisplay === "stripIfInteger" && !fr) mf = 0;
      fr = fr.padEnd(mf, "0");
      const i = int.padStart(s.minimumIntegerDigits, "0"), g = s.useGrouping && i.length > (s.useGrouping === "min2" ? 4 : 3);
      for (let j = 0, f = g ? (i.length % 3 || 3) : i.length; j < i.length; j = f, f += 3) { if (j) num.push({ type: "group", value: "," }); num.push({ type: "integer", value: i.slice(j, f) }); }
      if (fr) num.push({ type: "decimal", value: "." }, { type: "fraction", value: fr });
      if (!d) neg = neg && s.signDisplay !== "negative" && s.signDisplay !== "exceptZero";
      if (k) s.compactDisplay === "long" && s.style !== "currency" ? num.push({ type: "literal", value: " " }, { type: "compact", value: LONG[k] }) : num.push({ type: "compact", value: COMPACT[k] });
    }
    const sd = s.signDisplay, cur = s.currency, cd = s.currencyDisplay, acc = neg && s.currencySign === "accounting" && sd !== "never";
    const sign = acc ? "(" : neg ? (sd === "never" ? "" : "-") : sd === "always" || sd === "exceptZero" && (d || x === Infinity) ? "+" : "";
    if (sign) out.push({ type: acc ? "literal" : neg ? "minusSign" : "plusSign", value: sign });
    if (cur && cd !== "name") {
      let sym = cur;
      if (cd !== "code") { const i = CUR.indexOf(cur); if (i >= 0) sym = CUR[i + 1]; if (cd === "narrowSymbol") sym = NARROW.includes(cur) ? "$" : KR.includes(cur) ? "kr" : sym; }
      put("currency", sym);
      if (/\P{S}$/u.test(sym) && num[0].type === "integer") put("literal", "\u00a0");
    }
    // One by one: a BigInt of 1e5 digits has more parts than a call's
    // 65534 arguments.
    for (const q of num) out.push(q);
    if (s.style === "percent") put("percentSign", "%");
    if (s.unit) {
      const [sh, na = sh.split("|")[0]] = UNIT[s.unit], ud = s.unitDisplay, n = s.unit.replace("-", " "), w = ud === "long" ? LONGU[s.unit] || n + "|" + n + "s" : ud === "short" ? sh : na, [a, b = a] = w.split("|");
      if (ud !== "narrow" && !/^[°%]/.test(w)) put("literal", " ");
      put("unit", (num.length === 1 && num[0].value === "1" ? a : b).replace("_", " "));
    }
    if (cd === "name") {
      const [one, many = one + "s"] = (NAMES[cur] || cur + "|").split("|");
      put("literal", " "); put("currency", num.length === 1 && num[0].value === "1" ? one : many || one);
    }
    if (acc) put("literal", ")");
    return out;
  };
  const join = (ps) => { let t = ""; for (const p of ps) t += p.value; return t; };
  const resolved = (s) => { const r = {}; for (const k in s) if (s[k] !== undefined && !/^(bound|rt|K)$/.test(k)) r[k] = s[k]; return r; };
  const nfFormat = (s, x) => join(parts(s, x));
  const NumberFormat = klass("NumberFormat", nfInit, { $: nfFormat, formatToParts: parts, resolvedOptions: resolved }, "format", 1);

  // Dates: fields of the UTC time t.
  const DAYS = "Sunday Monday Tuesday Wednesday Thursday Friday Saturday".split(" ");
  const MONTHS = "January February March April May June July August September October November December".split(" ");
  const W = ["narrow", "short", "long"], ND = ["numeric", "2-digit"], STY = ["full", "long", "medium", "short"];
  const DATE = ["weekday", "year", "month", "day"], TIME = ["hour", "minute", "second", "fractionalSecondDigits"];
  const DT = "Intl.DateTimeFormat";
  const UTC = /^(etc\/)?(utc|gmt)$/i, ZONES = new Map();
  const zone = (z, t, style = "") => {
    const k = z + " " + t + " " + style;
    let v = ZONES.get(k);
    if (v === undefined) { if (ZONES.size > 1e4) ZONES.clear(); ZONES.set(k, v = tz(z, t, style)); }
    return v;
  };
  // need and def are ToDateTimeOptions's: the fields a toLocale*String
  // call needs (date, time or any) and the ones it adds when none is given.
  const dtInit = (locale, o, need = "any", def = "date") => {
    const g = (k, v, d) => get(o, k, v, d, DT);
    g("localeMatcher", ["lookup", "best fit"]); g("calendar", ["gregory"]); g("numberingSystem", ["latn"]);
    const ca = kw(locale, "ca");
    if (ca && ca !== "gregory") warn("ca", `${DT}: this sandbox has the Gregorian calendar only: "${locale}" was formatted in it, not in ${ca}`);
    // An hourCycle in the locale (en-US-u-hc-h23) is taken when neither
    // option overrides it, and then stays in resolvedOptions' locale.
    const HC = ["h11", "h12", "h23", "h24"], h12 = g("hour12", true), hc = g("hourCycle", HC), x = kw(locale, "hc"), xh = HC.includes(x) && h12 === undefined && (!hc || hc === x) ? x : "";
    let z = o.timeZone, a;
    // Without a timeZone, the sandbox's own (tz's zone "": Config.TimeZone).
    if (z === undefined) z = zone("", 0) || "UTC";
    const s = { locale: base(locale) + (xh && "-u-hc-" + xh), tz: "UTC" };
    // An offset (ES2024: ±HH, ±HHMM, ±HH:MM) is its own zone, named ±HH:MM.
    if (a = /^([+-])([01]\d|2[0-3])(?::?([0-5]\d))?$/.exec(z = S(z))) s.tz = (+a[2] || +a[3] ? a[1] : "+") + a[2] + ":" + (a[3] || "00");
    else if (!UTC.test(z)) {
      if (z === "" || (a = zone(z, 0)) === null) fail(RE, "Invalid time zone specified: " + z);
      a ? s.tz = a : warn("tz", `${DT}: the host gave no time zone "${z}": it was formatted in UTC`);
    }
    const vals = { weekday: W, year: ND, month: [...ND, ...W], day: ND, hour: ND, minute: ND, second: ND };
    for (const k of DATE.concat(TIME)) s[k] = k[0] === "f" ? num(o[k], k, 1, 3) : g(k, vals[k]);
    g("dayPeriod", []); g("era", []);
    s.timeZoneName = g("timeZoneName", ["short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"]);
    g("formatMatcher", ["basic", "best fit"]);
    const ds = s.dateStyle = g("dateStyle", STY), ts = s.timeStyle = g("timeStyle", STY);
    const has = (ks) => ks.some((k) => s[k] !== undefined);
    if (ds || ts) {
      for (const k of [...DATE, ...TIME, "timeZoneName"]) if (s[k] !== undefined) fail(TE, `Can't set option ${k} when ${ds ? "dateStyle" : "timeStyle"} is used`);
      if (need === "date" && ts || need === "time" && ds) fail(TE, "Invalid option : " + (ts ? "timeStyle" : "dateStyle"));
      if (ds) O.assign(s, ds === "short" ? { month: "numeric", day: "numeric", year: "2-digit" } : { weekday: ds === "full" ? "long" : undefined, month: ds === "medium" ? "short" : "long", day: "numeric", year: "numeric" });
      if (ts) O.assign(s, { hour: "numeric", minute: "2-digit", second: ts === "short" ? undefined : "2-digit", timeZoneName: ts === "full" ? "long" : ts === "long" ? "short" : undefined });
    } else if (!(need !== "time" && has(DATE) || need !== "date" && has(TIME))) {
      if (def !== "time") s.year = s.month = s.day = "numeric";
      if (def !== "date") s.hour = s.minute = s.second = "numeric";
    }
    if (s.hour) s.hc = h12 !== undefined ? (h12 ? "h12" : "h23") : hc || xh || "h12";
    return s;
  };
  const pad = (n, w) => S(n).padStart(w, "0");
  const dtParts = (s, t) => {
    t = t === undefined ? Date.now() : N(t);
    if (!(Math.abs(t) <= 8.64e15)) fail(RE, "Invalid time value");
    // Local time: the UTC fields of t shifted by the zone's offset, 400
    // years (a whole cycle of dates and weekdays) back or forth past Date's range.
    const z = s.timeZoneName, o = s.tz !== "UTC" && /^(?:GMT)?([+-])(\d\d):(\d\d)(?::(\d\d))?$/.exec(s.tz < "A" ? s.tz : zone(s.tz, t, "longOffset"));
    // A host that names the zone but gives no offset (a page's Intl whose
    // format was replaced): UTC, said, not a UTC time shown as the zone's.
    if (s.tz !== "UTC" && !o) warn("tz", `${DT}: the host gave no offset of time zone "${s.tz}": it was formatted in UTC`);
    const off = o ? (o[1] + 1) * (o[2] * 3600 + o[3] * 60 + (o[4] | 0)) : 0, CYC = 126227808e5;
    let u = t + off * 1e3, sh = u > 8.64e15 ? 400 : u < -8.64e15 ? -400 : 0;
    const D = new Date(u - sh / 400 * CYC), out = [], put = (type, value) => out.push({ type, value }), lit = (v) => put("literal", v);
    const y = D.getUTCFullYear() + sh, ye = y > 0 ? y : 1 - y, mo = D.getUTCMonth(), da = D.getUTCDate(), h = D.getUTCHours();
    const m = s.month, text = m && m !== "numeric" && m !== "2-digit";
    const M = m && (text ? (m === "long" ? MONTHS[mo] : m === "short" ? MONTHS[mo].slice(0, 3) : MONTHS[mo][0]) : pad(mo + 1, m === "2-digit" ? 2 : 1));
    const Y = s.year && (s.year === "2-digit" ? pad(ye % 100, 2) : S(ye)), Dd = s.day && pad(da, s.day === "2-digit" ? 2 : 1);
    const E = s.weekday && (s.weekday === "long" ? DAYS[D.getUTCDay()] : DAYS[D.getUTCDay()].slice(0, s.weekday === "short" ? 3 : 1));
    if (E && (M || !Dd && !Y)) { put("weekday", E); if (M) lit(", "); }
    if (M) {
      put("month", M);
      if (Dd) lit(text ? " " : "/"), put("day", Dd);
      if (Y) lit(text ? Dd ? ", " : " " : "/"), put("year", Y);
    } else if (Dd || Y) {
      if (Y) put("year", Y), lit(Dd ? " (day: " : " ");
      if (Dd) put("day", Dd), lit(Y ? ")" : " ");
      if (E) put("weekday", E); else if (!Y || !Dd) out.pop();
    }
    const date = out.length, H = s.hour, mi = s.minute, se = s.second, fs = s.fractionalSecondDigits;
    if (H || mi || se || fs) {
      if (date) lit(s.dateStyle ? (s.dateStyle < "m" ? " at " : ", ") : m === "long" ? " at " : M || Dd || Y ? ", " : " ");
      const h24 = s.hc === "h23" || s.hc === "h24";
      if (H) put("hour", pad(s.hc === "h11" ? h % 12 : s.hc === "h23" ? h : h % 12 || (s.hc === "h24" ? 24 : 12), h24 || H === "2-digit" ? 2 : 1));
      if (mi) { if (H) lit(":"); put("minute", pad(D.getUTCMinutes(), H || se ? 2 : 1)); }
      if (se) { if (H || mi) lit(":"); put("second", pad(D.getUTCSeconds(), H || mi ? 2 : 1)); }
      if (fs) { if (se) lit("."); put("fractionalSecond", pad(D.getUTCMilliseconds(), 3).slice(0, fs)); }
      if (H && !h24) lit("\u202f"), put("dayPeriod", h < 12 ? "AM" : "PM");
    }
    if (z) lit(out.length > date ? " " : ", "), put("timeZoneName", o ? !/O/.test(z) && zone(s.tz, t, z) || gmt(off, z[0] === "s") : z === "short" ? "UTC" : z === "long" ? "Coordinated Universal Time" : gmt(0, z[0] === "s"));
    return out;
  };
  // gmt writes an offset as ICU does: GMT-5, GMT+5:30 (short); GMT-05:00.
  const gmt = (off, short) => {
    const m = Math.abs(off), h = F(m / 3600), mi = F(m / 60) % 60, se = m % 60;
    return "GMT" + (off < 0 ? "-" : "+") + (short ? h + (mi || se ? ":" + pad(mi, 2) : "") : pad(h, 2) + ":" + pad(mi, 2)) + (se ? ":" + pad(se, 2) : "");
  };
  // format writes a plain space before AM and PM, as V8 does (its parts
  // keep ICU's U+202F).
  const dtFormat = (s, t) => join(dtParts(s, t)).replace(/\u202f/g, " ");
  const dtResolved = (s) => {
    const r = { locale: s.locale, calendar: "gregory", numberingSystem: "latn", timeZone: s.tz };
    if (s.hc) r.hourCycle = s.hc, r.hour12 = s.hc < "h2";
    const two = { __proto__: null, hour: s.hc > "h2", minute: s.hour, second: s.hour || s.minute };
    if (s.dateStyle || s.timeStyle) { if (s.dateStyle) r.dateStyle = s.dateStyle; if (s.timeStyle) r.timeStyle = s.timeStyle; }
    else for (const k of [...DATE, ...TIME, "timeZoneName"]) if (s[k] !== undefined) r[k] = two[k] ? "2-digit" : s[k];
    return r;
  };
  // A range as en's ICU writes it (Chromium 156): one date when both show
  // alike; the date (or year) added when they differ where it is not shown;
  // what they share around a differing text date (Jan 3 – 5, 2019), the date
  // and AM/PM around differing hours and minutes (Jan 3, 2019, 10:00 – 11:00
  // AM), else both whole; " – " between (Node 20's ICU: U+2009 around –).
  const range = (s, x, y) => {
    if (x === undefined || y === undefined) fail(TE, `${DT}: formatRange needs a start date and an end date`);
    x = N(x); y = N(y);
    const day = (t) => join(dtParts({ tz: s.tz, year: "numeric", month: "numeric", day: "numeric" }, t)), a = day(x), b = day(y);
    if (a !== b) s = O.assign({}, s, s.year || s.month || s.day || s.weekday ? !s.year && (s.month || s.day) && a.slice(-5) !== b.slice(-5) && { year: "numeric" } : { year: "numeric", month: "numeric", day: "numeric" });
    const src = (ps, source) => ps.map(({ type, value }) => ({ type, value, source }));
    let p = dtParts(s, x), q = dtParts(s, y);
    if (join(p) === join(q)) return src(p, "shared");
    // ICU's ranges write a 2-digit hour (a day or month without a time) as
    // numeric, a long zone name after one date as the short one.
    const tm = s.hour || s.minute || s.second || s.timeZoneName;
    s = O.assign({}, s, { hour: s.hour && "numeric" }, !tm && { day: s.day && "numeric", month: s.month === "2-digit" ? "numeric" : s.month }, a === b && tm && s.timeZoneName === "long" && (s.year || s.month || s.day || s.weekday) && { timeZoneName: "short" });
    p = dtParts(s, x); q = dtParts(s, y);
    const n = p.length - 1;
    let i = 0, j = n, T = -1, L;
    p.forEach((e, k) => { if (/^(hour|minute|sec|frac)/.test(e.type)) { if (T < 0) T = k; L = k; } });
    while (i < n && p[i].value === q[i].value) i++;
    while (j > i && p[j].value === q[j].value) j--;
    if (i < T || T < 0) { if (T >= 0 || /^(nu|2)/.test(s.month) || a.split("/")[2] !== b.split("/")[2]) i = 0, j = n; }
    else {
      // One date before two times: "January 15, 2024, 1:05 – 1:35 PM", not " at ".
      if (p[T - 1]?.value === " at ") p[T - 1].value = ", ";
      i = T; j = s.second ? n : Math.max(j, L);
    }
    return [...src(p.slice(0, i), "shared"), ...src(p.slice(i, j + 1), "startRange"), { type: "literal", value: " – ", source: "shared" }, ...src(q.slice(i, j + 1), "endRange"), ...src(p.slice(j + 1), "shared")];
  };
  const DateTimeFormat = klass("DateTimeFormat", (l, o) => dtInit(l, o), { $: (s, t) => dtFormat(s, t), formatToParts: dtParts, formatRange: (s, x, y) => join(range(s, x, y)).replace(/\u202f/g, " "), formatRangeToParts: range, resolvedOptions: dtResolved }, "format", 1);

  // Collation after ICU's root order for what programs sort: spaces and
  // punctuation, then symbols, digits, letters (case-insensitively: case is
  // the last level, lowercase first), other scripts after Latin in code
  // point order but Hangul before kana before Han, a fullwidth or halfwidth
  // form as its character (third level). Accents (NFD's combining
  // marks) are the second level, in ICU's order for U+0300-036F (in code
  // point order past it). A string's key is a string per level, compared
  // natively.
  // Iteration marks and the prolonged sound mark of kana (コーヒー) sort
  // between ~ and $ in ICU, not as letters.
  const ORDER = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~々ゝーヽ$0123456789abcdefghijklmnopqrstuvwxyz";
  const TAB = [], PUNCT = ORDER.indexOf("`"), DIGIT = ORDER.indexOf("0"), C = S.fromCharCode;
  for (let i = 0; i < ORDER.length; i++) { const c = ORDER.charCodeAt(i); TAB[c] = i; if (c > 96 && c < 123) TAB[c - 32] = i; }
  const MARKS = "\u0301\u0300\u0306\u0302\u030c\u030a\u0308\u030b\u0303\u0307\u0327\u0328\u0304\u0323\u0331";
  // ß, æ, œ expand to ss, ae, oe, and ø, ł, đ, ħ are o, l, d, h with a
  // stroke: second-level differences from those, as in ICU.
  const EXPAND = { ß: "ss", æ: "ae", œ: "oe", ø: "o", ł: "l", đ: "d", ħ: "h" };
  // Hangul's jamo in ICU's order (leading consonants, vowels, trailing
  // ones, each block's extension after it), after the other scripts and
  // before kana: at U+2E80-2FE4 (only symbols there, weighed apart).
  const JAMO = [0x1100, 0x115f, 0xa960, 0xa97d, 0x115f, 0x11a8, 0xd7b0, 0xd7c7, 0x11a8, 0x1200, 0xd7cb, 0xd7fc];
  const jamo = (c) => {
    for (let i = 0, at = 0x2e80; i < 12; at += JAMO[i + 1] - JAMO[i], i += 2) if (c >= JAMO[i] && c < JAMO[i + 1]) return at + c - JAMO[i];
  };
  // Small kana (and the small katakana of U+31F0-31FF) and their letters:
  // as katakana and hiragana, they differ from those at the third level.
  const SMALL = "ぁぃぅぇぉっゃゅょゎゕゖ", BIG = "あいうえおつやゆよわかけ", KX = "くしすとぬはひふへほむらりるれろ";
  // Combining marks past U+036F that ICU weighs at the second level (.) or
  // not at all (!): runs of "code points from the last run's end in base
  // 36, kind, length - 1", from Node's ICU; the other marks are letters.
  // Each mark's kind is kept once read.
  const MK = { __proto__: null }, MR = [];
  const mark = (c) => {
    if (!MR.length) for (let at = 0, m, re = /(\w+)([.!])(\w+),/g; m = re.exec("w3.4,1!87,1.c,1!0,2.3,2!1,2.0,21!a,1d.11,2u!n,10.1a,1!0,1.1,1!1,1.1,1!3,4h.i,r.1,3.3f,1!5,1.1,17!n,2.6,1!5,1.2,1!0,1.f,1l.0,l!1,1.1,19.1n,1u.1q,1g.1,g.1n,1q.1u,p.0,19.0,3i.1o,1x.1n,1j.g,3i.2,5g.7,3e.6,22!v,2.0,5!1,1r.1,3.1,3!1,1r!0,34.2,md.2,ut!1,h.b,2!0,a.0,1a!4,8a.2,8p.8,3!0,1d.e,3.a,4.2t,1j!8,d.2,2s.0,29.0,49!o,5.0,7!5,5j.9,2.6,10.2yk,3y!0,iz.nd1,1!2,a.1,37.1,7u.0,39.1,1w.0,r!h,1m.2,2b.1f,7g.2,8b.0,fn6.0,ki!f,h.0,1!0,1.0,1!3,1.0,1!0,1.0,1!3,1.0,1!0,");) MR.push(at += parseInt(m[1], 36), at += parseInt(m[3], 36), m[2] === "." ? 1 : 2);
    for (let i = 0; i < MR.length; i += 3) if (c >= MR[i] && c <= MR[i + 1]) return MR[i + 2];
    return 0;
  };
  // The levels' code units go to arrays, made strings every 4,096 (an
  // element takes 8 bytes, a character 1 or 2): adding to three strings a
  // character at a time cost 2-5x as much in QuickJS. fromCharCode takes
  // at most 65,534 arguments (a run of digits may be longer).
  const text = (a) => {
    if (a.length <= 32768) return apply(C, null, a);
    let s = "";
    for (let i = 0; i < a.length; i += 32768) {
      const b = [];
      for (let j = i; j < a.length && j < i + 32768; j++) b[j - i] = a[j];
      s += apply(C, null, b);
    }
    return s;
  };
  // A digit's ASCII code (a fullwidth one's too: numeric reads 1０ as 10), or 0.
  const dv = (x, i) => { const c = x.charCodeAt(i); return c >= 48 && c <= 57 ? c : c >= 0xff10 && c <= 0xff19 ? c - 0xfee0 : 0; }, dig = (x, i) => dv(x, i) > 0;
  const key = (str, numeric, skip, upper) => {
    let p = [], s2 = [], t = [], np = 0, n2 = 0, nt = 0, P = "", S2 = "", T = "";
    // The third level is 1 or 3 by case (2 or 4 for a fullwidth form), 5-12
    // for kana and jamo.
    const push = (w, up) => { p[np++] = w + 256; s2[n2++] = 1; t[nt++] = up !== upper ? 3 : 1; };
    const flush = () => { P += text(p); S2 += text(s2); T += text(t); p = []; s2 = []; t = []; np = n2 = nt = 0; };
    if (/[^\x00-\x7f]/.test(str)) str = str.normalize("NFD");
    for (let i = 0; i < str.length; i++) {
      if ((np | n2 | nt) > 4095) flush();
      const cc = str.charCodeAt(i);
      if (numeric && dig(str, i)) {
        let j = i;
        while (dig(str, j)) j++;
        while (i < j - 1 && dv(str, i) === 48) i++;
        p[np++] = DIGIT + 256; p[np++] = j - i;
        for (; i < j; i++) p[np++] = dv(str, i);
        i = j - 1;
        continue;
      }
      let w = TAB[cc], up = cc > 64 && cc < 91;
      if (w === undefined) {
        const c = str[i], l = c.toLowerCase(), e = EXPAND[l];
        up = c !== l;
        if (cc >= 0x300 && cc < 0x370) { const m = MARKS.indexOf(c); s2[n2++] = m < 0 ? cc : m + 2; continue; }
        // Marks, kana and jamo lie past Cyrillic, outside the CJK ideographs.
        if (cc > 0x482 && (cc < 0x3400 || cc > 0x9fff)) {
          let m = MK[cc];
          if (m === undefined) m = MK[cc] = /\p{M}/u.test(c) ? mark(cc) : 0;
          if (m) { if (m < 2) s2[n2++] = cc; continue; }
          // A kana is its big hiragana at the first level; a Hangul
          // compatibility jamo is its conjoining jamo. Their third level is
          // small (lower) or big (upper) and hiragana or katakana (or jamo or
          // compatibility), then halfwidth, ordered as ICU does: 5 + 4v +
          // 2late + half with caseFirst false, 5 + 4late + 2v + half with
          // upper (ICU: ぁ あ ァ ｧ ア ｱ; あ ア ｱ ぁ ァ ｧ). A halfwidth jamo is upper.
          let h = cc, half = cc > 0xff65 && cc < 0xffdd ? 1 : 0;
          if (half) {
            h = c.normalize("NFKD").charCodeAt(0);
            if (h === 0x3099 || h === 0x309a) { s2[n2++] = h; continue; }
            if (h === 0x30fc) { push(TAB[h], true); continue; }
          }
          let v = h > 0x30a0 && h < 0x3200 || half ? 1 : 0;
          if (h > 0x3130 && h < 0x318f) h = c.normalize("NFKD").charCodeAt(0);
          const j = (h > 0x10ff && h < 0x1200 || h > 0xa95f && h < 0xd7fc) && jamo(h);
          if (j || h > 0x3040 && h < 0x3097 || h > 0x30a0 && h < 0x30f7 || h > 0x31ef && h < 0x3200) {
            const x = h > 0x31ef;
            if (!j) h = x ? KX.charCodeAt(h - 0x31f0) : h - (v ? 0x60 : 0);
            const k = SMALL.indexOf(C(h)), big = j ? half : !x && k < 0;
            p[np++] = ORDER.length + (j || (k < 0 ? h : BIG.charCodeAt(k))) + 256; s2[n2++] = 1;
            const late = big != upper ? 1 : 0;
            t[nt++] = upper ? 5 + 4 * late + 2 * v + half : 5 + 4 * v + 2 * late + half;
            continue;
          }
          // A fullwidth ASCII character is the character, wider at the third
          // level (ICU: a ａ A Ａ).
          if (cc > 0xff00 && cc < 0xff5f) {
            const a = cc - 0xfee0;
            if (!(skip && TAB[a] < PUNCT)) push(TAB[a], a > 64 && a < 91), t[nt - 1]++;
            continue;
          }
        }
        if (cc < 32 && (cc < 9 || cc > 13) || cc === 127 || cc >= 0x80 && cc < 0xa0) continue;
        if (e) { push(TAB[e.charCodeAt(0)], up); s2[n2++] = e[1] ? 0x400 : 0x338; if (e[1]) push(TAB[e.charCodeAt(1)], up); continue; }
        w = /\s/.test(c) ? 0 : /[\p{P}\p{S}]/u.test(c) ? DIGIT - 0.5 : ORDER.length + l.charCodeAt(0);
      }
      if (skip && w < PUNCT) continue;
      push(w, up);
    }
    return [P + text(p), S2 + text(s2), T + text(t)];
  };
  // Keys are kept by the options that shape them: a sort compares each
  // string many times. Kept for ~8 MB (with its string, a key is ~5 bytes
  // a character and ~300 an entry): kept by count only (5e4), a run that
  // compared long strings and let go of them held all their keys, and ended
  // MEMORY_LIMIT holding little (100 strings of 20,000 characters under
  // 16 MB).
  const KEYS = { __proto__: null };
  const keyOf = (s, x) => {
    const K = s.K, v = key(x, s.numeric, s.ignorePunctuation, s.caseFirst === "upper"), n = x.length * 5 + 300;
    if (n > 8e6) return v;
    if ((K.n += n) > 8e6) K.m.clear(), K.n = n;
    K.m.set(x, v);
    return v;
  };
  // A key is the keys of its parts where a part begins with a character
  // NFD neither decomposes to nor reorders a combining mark from (Latin,
  // Greek, Cyrillic, kana, CJK ideographs, Hangul syllables) and that does
  // not continue a number (numeric reads a run of digits as one).
  const cut = (x, i, numeric) => {
    const c = x.charCodeAt(i);
    return i >= x.length || (c < 0x300 || c >= 0x370 && c < 0x530 && (c < 0x483 || c > 0x489) || c >= 0x3041 && c < 0x30fb && (c < 0x3099 || c > 0x309a) || c >= 0x3400 && c < 0xa000 || c >= 0xac00 && c < 0xd7a4) && !(numeric && dig(x, i) && dig(x, i - 1));
  };
  // Two long strings, not both keyed: what they begin with in common orders
  // nothing, and the next 16 characters mostly decide at the first level.
  // Their keys cost ~0.7 us a character in QuickJS (a string of 20,000
  // compared with itself and one more: ~30 ms). 0 when the first level of
  // those does not decide, or no part begins within 1,000 characters.
  const early = (s, a, b) => {
    const n = a.length < b.length ? a.length : b.length, num = s.numeric;
    let i = 0;
    while (i < n && a.slice(i, i + 256) === b.slice(i, i + 256)) i += 256;
    while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
    const at = i;
    while (i > 0 && !(cut(a, i, num) && cut(b, i, num))) if (--i < at - 1e3) return 0;
    const win = (x) => {
      let e = i + 16;
      while (e < x.length && !cut(x, e, num)) if (++e > i + 1e3) return;
      return [key(x.slice(i, e), num, s.ignorePunctuation, false)[0], e >= x.length];
    };
    const wa = win(a), wb = win(b);
    if (!wa || !wb) return 0;
    const [p, endA] = wa, [q, endB] = wb;
    if (p === q || !endA && q.startsWith(p) || !endB && p.startsWith(q)) return 0;
    return p < q ? -1 : 1;
  };
  const cased = (s, T) => T.replace(/[\x02-\x0c]/g, (d) => {
    const k = d.charCodeAt(0) - 5;
    return C(k < 0 ? k < -2 ? 1 : 2 : 1 + (s.caseFirst === "upper" ? k >> 2 : k >> 1 & 1));
  });
  const compare = (s, a, b) => {
    if (typeof a !== "string") a = S(a);
    if (typeof b !== "string") b = S(b);
    if (a === b) return 0;
    const m = s.K.m;
    let x = m.get(a), y = m.get(b), i = 0;
    if (!x || !y) {
      if (a.length + b.length > 1024 && (i = early(s, a, b))) return i;
      x = x || keyOf(s, a); y = y || keyOf(s, b);
    }
    // The first level that differs decides, as far as the sensitivity reads.
    if (x[0] !== y[0]) return x[0] < y[0] ? -1 : 1;
    const sens = s.sensitivity;
    if (sens === "base") return 0;
    if (sens !== "case" && x[1] !== y[1]) return x[1] < y[1] ? -1 : 1;
    if (sens === "accent" || x[2] === y[2]) return 0;
    let p = x[2], q = y[2];
    // "case" reads only the case (a kana's small is lower), not the width
    // or the script.
    if (sens === "case") p = cased(s, p), q = cased(s, q);
    return p === q ? 0 : p < q ? -1 : 1;
  };
  const CO = "Intl.Collator", USAGE = ["sort", "search"], MATCHER = ["lookup", "best fit"], COLL = ["default"], CASES = ["upper", "lower", "false"], SENS = ["base", "accent", "case", "variant"];
  const coInit = (locale, o) => {
    const usage = get(o, "usage", USAGE, "sort", CO);
    get(o, "localeMatcher", MATCHER, 0, CO); get(o, "collation", COLL, 0, CO);
    // numeric and caseFirst may come from the locale (en-u-kn, en-u-kf-upper),
    // kept in resolvedOptions' locale when the option does not override.
    const on = get(o, "numeric", true, undefined, CO), of = get(o, "caseFirst", CASES, undefined, CO), xn = kw(locale, "kn"), xf = kw(locale, "kf");
    const kn = /^(true|false)$/.test(xn) && (on === undefined || `${on}` === xn), kf = CASES.includes(xf) && (!of || of === xf);
    const numeric = on === undefined ? kn && xn === "true" : on, caseFirst = of || (kf ? xf : "false");
    const sensitivity = get(o, "sensitivity", SENS, "variant", CO), ignorePunctuation = get(o, "ignorePunctuation", true, false, CO);
    const f = "" + numeric + ignorePunctuation + caseFirst;
    return { locale: base(locale) + (kf || kn ? "-u" : "") + (kf ? "-kf-" + xf : "") + (kn ? xn === "true" ? "-kn" : "-kn-" + xn : ""), usage, sensitivity, ignorePunctuation, collation: "default", numeric, caseFirst, K: KEYS[f] || (KEYS[f] = { m: new Map(), n: 0 }) };
  };
  const Collator = klass("Collator", coInit, { $: compare, resolvedOptions: resolved }, "compare", 1);

  const plural = (s, n) => {
    const t = nfFormat(s, n);
    if (s.type === "ordinal") { n = N(n); const a = n % 10, b = n % 100; return n % 1 ? "other" : a === 1 && b !== 11 ? "one" : a === 2 && b !== 12 ? "two" : a === 3 && b !== 13 ? "few" : "other"; }
    return t === "1" ? "one" : "other";
  };
  const PluralRules = klass("PluralRules", (l, o) => O.assign(nfInit(l, o, "Intl.PluralRules"), { type: get(o, "type", ["cardinal", "ordinal"], "cardinal", "Intl.PluralRules"), useGrouping: false }), {
    select: plural,
    resolvedOptions: (s) => resolved({ locale: s.locale, type: s.type, notation: s.notation, compactDisplay: s.compactDisplay, minimumIntegerDigits: s.minimumIntegerDigits, minimumFractionDigits: s.minimumFractionDigits, maximumFractionDigits: s.maximumFractionDigits,
      minimumSignificantDigits: s.minimumSignificantDigits, maximumSignificantDigits: s.maximumSignificantDigits, pluralCategories: s.type === "ordinal" ? ["few", "one", "two", "other"] : ["one", "other"] }),
  });

  // ListFormat and RelativeTimeFormat: en's patterns.
  const LF = "Intl.ListFormat", RT = "Intl.RelativeTimeFormat";
  const lfParts = (s, list) => {
    const a = [], out = [], unit = s.type === "unit", sep = unit && s.style === "narrow" ? " " : ", ";
    if (list !== undefined) for (const x of list) a.push(typeof x === "string" ? x : fail(TE, `Iterable yielded ${typeof x === "symbol" ? "a Symbol" : S(x)} which is not a string`));
    const last = unit ? sep : s.type === "disjunction" ? " or " : s.style === "long" ? " and " : s.style === "short" ? " & " : sep;
    a.forEach((x, i) => { if (i) out.push({ type: "literal", value: i < a.length - 1 ? sep : a.length > 2 && last !== sep ? "," + last : last }); out.push({ type: "element", value: x }); });
    return out;
  };
  const ListFormat = klass("ListFormat", (locale, o) => (get(o, "localeMatcher", ["lookup", "best fit"], 0, LF), { locale: base(locale), type: get(o, "type", ["conjunction", "disjunction", "unit"], "conjunction", LF), style: get(o, "style", ["long", "short", "narrow"], "long", LF) }), {
    format: (s, l) => join(lfParts(s, l)), formatToParts: lfParts, resolvedOptions: resolved,
  });
  const RNF = nfInit("en-US", opts()), UNITS = ["second", "minute", "hour", "day", "week", "month", "quarter", "year"];
  const SHORT = ["sec.", "min.", "hr.", "day|days", "wk.", "mo.", "qtr.|qtrs.", "yr."], NAR = ["s", "m", "h", "d", "w", "mo", "q", "y"];
  const rtParts = (s, v, unit) => {
    v = +v; unit = S(unit); // ToNumber: a BigInt is a TypeError
    const u = UNITS.indexOf(unit.replace(/s$/, "")), n = UNITS[u], long = s.style === "long";
    if (u < 0) fail(RE, `${RT}: unit "${unit}" is not one of ${UNITS.join(", ")}`);
    if (!isFinite(v)) fail(RE, `${RT}: the value must be finite, not ${v}`);
    if (s.numeric === "auto" && (v === 0 || v === 1 || v === -1)) {
      const w = u === 3 ? ["yesterday", "today", "tomorrow"][v + 1] : u > 3 ? ["last ", "this ", "next "][v + 1] + (long ? n : SHORT[u].split("|")[0]) : !v && (u ? "this " + n : "now");
      if (w) return [{ type: "literal", value: w }];
    }
    const p = parts(RNF, Math.abs(v)), one = join(p) === "1", past = v < 0 || O.is(v, -0);
    const [a, b = a] = (long ? n + "|" + n + "s" : s.style === "short" ? SHORT[u] : NAR[u]).split("|"), w = (s.style === "narrow" ? "" : " ") + (one ? a : b);
    for (const x of p) x.unit = n;
    return past ? [...p, { type: "literal", value: w + " ago" }] : [{ type: "literal", value: "in " }, ...p, { type: "literal", value: w }];
  };
  const RelativeTimeFormat = klass("RelativeTimeFormat", (locale, o) => (get(o, "localeMatcher", ["lookup", "best fit"], 0, RT), { locale: base(locale), style: get(o, "style", ["long", "short", "narrow"], "long", RT), numeric: get(o, "numeric", ["always", "auto"], "always", RT), numberingSystem: get(o, "numberingSystem", ["latn"], "latn", RT) }), {
    format: (s, v, u) => join(rtParts(s, v, u)), formatToParts: rtParts, resolvedOptions: resolved,
  });

  const Intl = {};
  for (const [k, v] of O.entries({ NumberFormat, DateTimeFormat, Collator, PluralRules, ListFormat, RelativeTimeFormat })) O.defineProperty(Intl, k, { value: v, writable: true, configurable: true });
  O.defineProperty(Intl, Symbol.toStringTag, { value: "Intl", configurable: true });

  // A call without locales and options keeps its formatter.
  const def = { __proto__: null }, once = (k, make) => def[k] || (def[k] = make());
  const NV = Number.prototype.valueOf, BV = BigInt.prototype.valueOf, TV = Date.prototype.getTime;
  const nf = (l, o) => l === undefined && o === undefined ? once("n", () => nfInit("en-US", opts())) : nfInit(locale(l), opts(o, NF));
  return {
    Intl,
    n: (x, l, o) => nfFormat(nf(l, o), apply(NV, x, [])),
    b: (x, l, o) => nfFormat(nf(l, o), apply(BV, x, [])),
    d: (x, l, o, name) => {
      const t = apply(TV, x, []);
      if (t !== t) return "Invalid Date";
      const need = name === "toLocaleString" ? "any" : name === "toLocaleDateString" ? "date" : "time";
      const s = l === undefined && o === undefined ? once(name, () => dtInit("en-US", opts(), need, need === "any" ? "all" : need)) : dtInit(locale(l), opts(o, DT), need, need === "any" ? "all" : need);
      return dtFormat(s, t);
    },
    c: (a, b, l, o) => {
      if (a == null) fail(TE, "String.prototype.localeCompare called on null or undefined");
      return compare(l === undefined && o === undefined ? def.c || (def.c = coInit("en-US", opts())) : coInit(locale(l), opts(o, CO)), a, b);
    },
  };
}
