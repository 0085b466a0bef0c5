// Builds URL and URLSearchParams after the WHATWG URL standard, for what
// code here does with URLs: parse absolute and relative URLs, read and set
// their parts, build query strings. testdata/wpt holds WPT's cases
// (wpt_test.go lists those known to fail, with why).
() => {
  const special = { "http:": "80", "https:": "443", "ws:": "80", "wss:": "443", "ftp:": "21", "file:": "" };
  const invalid = (input) => new TypeError("Invalid URL: " + input);
  const wellFormed = (s) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
  // pct percent-encodes the characters of s outside the allowed set re.
  const pct = (s, re) => wellFormed(s).replace(re, (c) => c === "'" ? "%27" : encodeURIComponent(c));
  const PATH = /[\ud800-\udbff][\udc00-\udfff]|[\x00-\x20"#<>?^`{}\x7f-\uffff]/g;
  const QUERY = /[\ud800-\udbff][\udc00-\udfff]|[\x00-\x20"#<>\x7f-\uffff]/g;
  const SQUERY = /[\ud800-\udbff][\udc00-\udfff]|[\x00-\x20"#<>'\x7f-\uffff]/g;
  const FRAG = /[\ud800-\udbff][\udc00-\udfff]|[\x00-\x20"<>`\x7f-\uffff]/g;
  const USER = /[\ud800-\udbff][\udc00-\udfff]|[\x00-\x20"#<>?`{}/:;=@[\\\]^|\x7f-\uffff]/g;
  const form = (s) => encodeURIComponent(wellFormed(s)).replace(/[!'()~]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase()).replace(/%20/g, "+");
  // unform decodes a form's text: percent-encoded bytes as UTF-8, each
  // invalid sequence (its maximal valid prefix) as U+FFFD. Without a
  // callback per sequence (200,000 invalid bytes took ~2 s): each sequence
  // gets a ~ in front, the invalid ones lose their bytes, and a ~ without
  // bytes after it becomes U+FFFD's (a ~ or lone % of the text is encoded
  // first).
  const unform = (s) => {
    s = s.replace(/\+/g, " ");
    try { return decodeURIComponent(s); } catch (e) {}
    return decodeURIComponent(s.replace(/~/g, "%7E").replace(/%(?![\da-f]{2})/gi, "%25").replace(/(%[0-7].|%(?:C[2-9A-F]|D.)%[89AB].|%E0%[AB].%[89AB].|%E[1-CEF](?:%[89AB].){2}|%ED%[89].%[89AB].|%F0%[9AB].(?:%[89AB].){2}|%F[1-3](?:%[89AB].){3}|%F4%8.(?:%[89AB].){2})|%E0(?:%[AB].)?|%E[1-CEF](?:%[89AB].)?|%ED(?:%[89].)?|%F0(?:%[9AB].(?:%[89AB].)?)?|%F[1-3](?:%[89AB].){0,2}|%F4(?:%8.(?:%[89AB].)?)?|%../gi, "~$1").replace(/~(?!%)/g, "%EF%BF%BD").replace(/~/g, ""));
  };
  const drive = /^[a-z][:|]$/i, startsDrive = /^[a-z][:|]($|[/\\?#])/i, normDrive = /^\/[a-z]:(?![^/])/i;
  // dots resolves a path's . and .. segments; a file URL's first segment,
  // if a Windows drive letter (C| or C:), is C: and no .. climbs above it.
  const dots = (segs, file) => {
    const out = [];
    segs.forEach((seg, i) => {
      const s = seg.toLowerCase(), last = i === segs.length - 1;
      if (s === ".." || s === ".%2e" || s === "%2e." || s === "%2e%2e") { if (!file || out.length !== 1 || !/^[a-z]:$/i.test(out[0])) out.pop(); if (last) out.push(""); }
      else if (s === "." || s === "%2e") { if (last) out.push(""); }
      else out.push(file && !out.length && drive.test(seg) ? seg[0] + ":" : seg);
    });
    return out;
  };
  const no = () => { throw 0; };
  // v4 is host as an IPv4 address when its last label is a number
  // ("0x7f.1" is "127.0.0.1"), else host; it throws on a bad address.
  const v4 = (host) => {
    const parts = host.split(".");
    if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
    if (!/^(\d+|0x[\da-f]*)$/.test(parts[parts.length - 1])) return host;
    if (parts.length > 4) no();
    const n = parts.map((p) => /^0x[\da-f]*$/.test(p) ? parseInt(p.slice(2) || "0", 16) : /^(0[0-7]*|[1-9]\d*)$/.test(p) ? parseInt(p, p[0] === "0" ? 8 : 10) : no()), last = n.pop();
    if (n.some((x) => x > 255) || last >= 256 ** (4 - n.length)) no();
    const ip = n.reduce((a, x, i) => a + x * 256 ** (3 - i), last);
    return [3, 2, 1, 0].map((i) => Math.floor(ip / 256 ** i) % 256).join(".");
  };
  // v6 is an IPv6 address (inside its brackets) in its shortest form.
  const v6 = (s) => {
    let tail = [];
    if (s.length > 45) no(); // "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255" is the longest
    const m = /^(.*:)(\d+(?:\.\d+){3})$/s.exec(s);
    if (m) {
      const o = m[2].split(".");
      if (o.some((p) => p.length > 1 && p[0] === "0" || p > 255)) no();
      tail = [o[0] * 256 + +o[1], o[2] * 256 + +o[3]];
      s = m[1].endsWith("::") ? m[1] : m[1].slice(0, -1);
    }
    const d = s.split("::"), side = (x) => x === "" ? [] : x.split(":").map((p) => /^[\da-f]{1,4}$/i.test(p) ? parseInt(p, 16) : no());
    if (d.length > 2) no();
    const a = side(d[0]), b = d.length > 1 ? side(d[1]) : [], k = a.length + b.length + tail.length;
    if (d.length > 1 ? k > 7 : k !== 8) no();
    const p = [...a, ...Array(8 - k).fill(0), ...b, ...tail];
    let best = -1, len = 1, out = "";
    for (let i = 0; i < 8; i++) { let j = i; while (j < 8 && !p[j]) j++; if (j - i > len) { best = i; len = j - i; } }
    for (let i = 0; i < 8; i++) {
      if (i === best) { out += i ? ":" : "::"; i += len - 1; } else out += p[i].toString(16) + (i < 7 ? ":" : "");
    }
    return out;
  };
  // puny is a label's Punycode (RFC 3492), as after "xn--", in
  // O(n log n): the code points are taken in order, and a Fenwick tree over
  // positions counts those already written before each one.
  const puny = (s) => {
    const cps = Array.from(s, (c) => c.codePointAt(0)), len = cps.length, tree = Array(len + 1).fill(0), out = [s.replace(/[^\x00-\x7f]/gu, "")];
    const add = (i) => { for (i++; i <= len; i += i & -i) tree[i]++; }, before = (i) => { let c = 0; for (; i > 0; i -= i & -i) c += tree[i]; return c; };
    const digit = (d) => out.push(String.fromCharCode(d + 22 + 75 * (d < 26)));
    const order = [];
    cps.forEach((c, i) => c < 128 ? add(i) : order.push(i));
    order.sort((i, j) => cps[i] - cps[j] || i - j);
    let n = 128, delta = 0, bias = 72, h = out[0].length, from = 0;
    const b = h;
    if (b) out.push("-");
    order.forEach((p, i) => {
      const m = cps[p];
      if (cps[order[i - 1]] !== m) { delta += (m - n) * (h + 1); n = m; from = 0; }
      let q = delta += before(p) - before(from);
      for (let k = 36; ; k += 36) {
        const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
        if (q < t) break;
        digit(t + (q - t) % (36 - t)); q = Math.floor((q - t) / (36 - t));
      }
      digit(q);
      let e = Math.floor(delta / (h === b ? 700 : 2)), k = 0;
      for (e += Math.floor(e / (h + 1)); e > 455; k += 36) e = Math.floor(e / 35);
      bias = k + Math.floor(36 * e / (e + 38)); delta = 0; h++; from = p + 1;
      // After the last of m: the written code points after it, and one.
      if (cps[order[i + 1]] !== m) {
        delta = before(len) - before(from) + 1; n++;
        for (let j = i; j >= 0 && cps[order[j]] === m; j--) add(order[j]);
      }
    });
    return out.join("");
  };
  // specialHost is a special URL's host as browsers write it: an IPv6 or
  // IPv4 address, or a domain mapped near UTS 46 (NFKC, lowercase,
  // ignorables dropped, ideographic full stops) with Punycode labels.
  const specialHost = (host, file) => {
    if (host[0] === "[") return host.endsWith("]") ? "[" + v6(host.slice(1, -1)) + "]" : no();
    host = decodeURIComponent(host);
    if (/[^\x00-\x7f]/.test(host)) {
      host = host.normalize("NFKC").replace(/[\xad\u034f\u180b-\u180d\u200b\u2060\ufe00-\ufe0f\ufeff]/g, "").replace(/\u3002/g, ".");
      if (/[\ufdd0-\ufdef\ufff0-\uffff]/.test(host) || !host) no();
      host = host.toLowerCase().split(".").map((l) => /[^\x00-\x7f]/.test(l) ? "xn--" + puny(l) : l).join(".");
    }
    host = host.toLowerCase();
    if (/[\x00-\x20#%/:<>?@[\\\]^|\x7f]/.test(host) || host === "" && !file) no();
    return v4(host);
  };
  // parse reads an absolute URL into its parts, or throws.
  const parse = (input) => {
    const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):(.*)$/s.exec(input);
    if (!m) throw invalid(input);
    const u = { protocol: m[1].toLowerCase() + ":", username: "", password: "", hostname: "", port: "", pathname: "", search: "", hash: "", host: false };
    let rest = m[2];
    const isSpecial = u.protocol in special;
    const h = rest.indexOf("#");
    if (h >= 0) { u.hash = "#" + pct(rest.slice(h + 1), FRAG); rest = rest.slice(0, h); }
    const q = rest.indexOf("?");
    if (q >= 0) { u.search = "?" + pct(rest.slice(q + 1), isSpecial ? SQUERY : QUERY); rest = rest.slice(0, q); }
    if (isSpecial) rest = rest.replace(/\\/g, "/");
    const file = u.protocol === "file:";
    if (isSpecial ? !file || rest.startsWith("//") : rest.startsWith("//")) {
      // A special URL's authority starts after any run of slashes, except
      // a file URL's, after two: "file:///etc/passwd" has an empty host.
      rest = isSpecial && !file ? rest.replace(/^\/*/, "") : rest.slice(2);
      const end = rest.search(/\//);
      let auth = end < 0 ? rest : rest.slice(0, end);
      rest = end < 0 ? "" : rest.slice(end);
      // "file://C|/" is "file:///C:/": a drive letter is no host.
      if (file && drive.test(auth)) { rest = "/" + auth + rest; auth = ""; }
      const at = auth.lastIndexOf("@");
      if (at >= 0) {
        const info = auth.slice(0, at), c = info.indexOf(":");
        u.username = pct(c < 0 ? info : info.slice(0, c), USER);
        u.password = c < 0 ? "" : pct(info.slice(c + 1), USER);
        auth = auth.slice(at + 1);
      }
      const pm = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/s.exec(auth);
      let host = pm[1];
      // An empty host has no credentials or port; a file URL has no port.
      if (host === "" && (at >= 0 || pm[2] !== undefined) || file && pm[2] !== undefined) throw invalid(input);
      if (pm[2] !== undefined && pm[2] !== "") {
        if (!/^\d+$/.test(pm[2]) || Number(pm[2]) > 65535) throw invalid(input);
        u.port = String(Number(pm[2]));
        if (special[u.protocol] === u.port) u.port = "";
      }
      try { host = isSpecial ? specialHost(host, file) : host[0] === "[" ? specialHost(host) : /[\0\t\n\r #/:<>?@[\\\]^|]/.test(host) ? no() : pct(host, /[\ud800-\udbff][\udc00-\udfff]|[\x00-\x1f\x7f-\uffff]/g); } catch (e) { throw invalid(input); }
      u.hostname = file && host === "localhost" ? "" : host;
      u.host = true;
    } else if (file) u.host = true; // "file:/a" is "file:///a": a file URL always has a host, maybe empty
    if (isSpecial || u.host || rest.startsWith("/")) {
      let segs = rest.split("/");
      if (segs[0] === "") segs = segs.slice(1);
      u.pathname = (rest === "" && !isSpecial) ? "" : "/" + dots(segs, file).map((s) => pct(s, PATH)).join("/");
    } else {
      // A space last before a query or fragment is %20: removing those
      // must not leave a trailing space.
      u.pathname = pct(rest, /[\ud800-\udbff][\udc00-\udfff]|[\x00-\x1f\x7f-\uffff]/g).replace(/ $/, q >= 0 || h >= 0 ? "%20" : " ");
      u.opaque = true;
    }
    return u;
  };
  const serialize = (u) => {
    let s = u.protocol;
    if (u.host) {
      s += "//";
      if (u.username || u.password) s += u.username + (u.password ? ":" + u.password : "") + "@";
      s += u.hostname + (u.port ? ":" + u.port : "");
    } else if (!u.opaque && u.pathname.startsWith("//")) s += "/.";
    return s + u.pathname + u.search + u.hash;
  };
  // resolve turns input, relative to base, into an absolute URL string.
  const resolve = (input, base) => {
    if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(input)) {
      const scheme = input.slice(0, input.indexOf(":") + 1).toLowerCase();
      if (!(scheme in special && base && base.protocol === scheme && !/^[a-zA-Z][a-zA-Z0-9+.-]*:[/\\]{2}/.test(input))) return input;
      input = input.slice(scheme.length);
    }
    if (!base) throw invalid(input);
    const sp = base.protocol in special;
    const norm = sp ? input.replace(/^[^?#]*/, (p) => p.replace(/\\/g, "/")) : input;
    const origin = base.protocol + (base.host ? "//" + (base.username || base.password ? base.username + (base.password ? ":" + base.password : "") + "@" : "") + base.hostname + (base.port ? ":" + base.port : "") : "");
    if (base.opaque && !norm.startsWith("#")) throw invalid(input);
    // A file URL's drive letter (base's /C:, d) stays under a path from /,
    // unless the path starts with one; a relative path starting with one
    // starts from /. A path without a host starting with // is after /.
    const d = base.protocol === "file:" && normDrive.exec(base.pathname), at = (p) => origin + (!base.host && p.startsWith("//") ? "/." : "") + p;
    if (norm.startsWith("//")) return base.protocol + norm;
    if (norm.startsWith("/")) return origin + (d && !startsDrive.test(norm.slice(1)) ? d[0] : "") + norm;
    if (norm.startsWith("?")) return at(base.pathname + norm);
    if (norm.startsWith("#")) return serialize({ ...base, hash: "" }) + norm;
    if (norm === "") return serialize({ ...base, hash: "" });
    if (base.protocol === "file:" && startsDrive.test(norm)) return origin + "/" + norm;
    return at((base.host && !base.pathname ? "/" : d && d[0] === base.pathname ? d[0] + "/" : base.pathname.slice(0, base.pathname.lastIndexOf("/") + 1)) + norm);
  };
  const tnr = (s) => String(s).replace(/[\t\n\r]/g, "");
  // clean strips leading and trailing C0 controls and spaces: not by
  // /[\x00-\x20]+$/, which tries each space of a run in turn (10,000
  // spaces inside a URL took 2.4 s, 40,000 past a minute).
  const clean = (s) => {
    s = String(s).replace(/^[\x00-\x20]+/, "");
    let e = s.length;
    while (e && s.charCodeAt(e - 1) < 33) e--;
    return tnr(s.slice(0, e));
  };
  // A setter's host and port: what comes before a path, query or fragment.
  const hostPort = (u, v) => /^(\[[^\]]*\]|[^:]*)(?::(\d*))?/s.exec(tnr(v).replace(u.protocol in special ? /[/?#\\].*/s : /[/?#].*/s, ""));
  // Only a URL with a host that is not a file URL has credentials and a port.
  const creds = (u) => u.host && u.hostname !== "" && u.protocol !== "file:";
  // A URL's searchParams tell it of their changes through #owner, set by
  // own (deleted from the class like _reset). Not a WeakMap of params to
  // URL: QuickJS keeps an entry whose value reaches its key while the map
  // lives, so every URL stayed until the run ended (20,000 URLs held 13 MB).
  class URLSearchParams {
    #list = [];
    #owner = null;
    constructor(init = "") {
      if (init instanceof URLSearchParams) this.#list = init.#list.map((p) => [...p]);
      else if (init !== null && typeof init === "object" || typeof init === "function") {
        if (typeof init[Symbol.iterator] === "function") {
          for (const pair of init) {
            const p = [...pair];
            if (p.length !== 2) throw new TypeError("URLSearchParams: each pair must have exactly two items");
            this.#list.push([wellFormed(String(p[0])), wellFormed(String(p[1]))]);
          }
        } else for (const k of Object.keys(init)) this.#list.push([wellFormed(k), wellFormed(String(init[k]))]);
      } else this.#parse(String(init));
    }
    #parse(s) {
      if (s.startsWith("?")) s = s.slice(1);
      this.#list = s.split("&").filter((p) => p !== "").map((p) => {
        const i = p.indexOf("=");
        return i < 0 ? [unform(p), ""] : [unform(p.slice(0, i)), unform(p.slice(i + 1))];
      });
    }
    #update() { if (this.#owner) this.#owner(this.toString()); }
    get size() { return this.#list.length; }
    append(name, value) { this.#list.push([wellFormed(String(name)), wellFormed(String(value))]); this.#update(); }
    delete(name, value) {
      name = String(name);
      this.#list = this.#list.filter(([k, v]) => k !== name || (value !== undefined && v !== String(value)));
      this.#update();
    }
    get(name) { const p = this.#list.find(([k]) => k === String(name)); return p ? p[1] : null; }
    getAll(name) { return this.#list.filter(([k]) => k === String(name)).map(([, v]) => v); }
    has(name, value) { return this.#list.some(([k, v]) => k === String(name) && (value === undefined || v === String(value))); }
    set(name, value) {
      name = String(name); value = wellFormed(String(value));
      const i = this.#list.findIndex(([k]) => k === name);
      if (i < 0) this.#list.push([name, value]);
      else { this.#list[i][1] = value; this.#list = this.#list.filter(([k], j) => k !== name || j === i); }
      this.#update();
    }
    sort() {
      this.#list = this.#list.map((p, i) => [p, i]).sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1])).map(([p]) => p);
      this.#update();
    }
    forEach(fn, thisArg) { for (const [k, v] of this.#list) fn.call(thisArg, v, k, this); }
    *entries() { for (const [k, v] of this.#list) yield [k, v]; }
    *keys() { for (const [k] of this.#list) yield k; }
    *values() { for (const [, v] of this.#list) yield v; }
    [Symbol.iterator]() { return this.entries(); }
    toString() { return this.#list.map(([k, v]) => form(k) + "=" + form(v)).join("&"); }
    get [Symbol.toStringTag]() { return "URLSearchParams"; }
    static _reset(p, s) { p.#parse(s); }
    static _own(p, f) { p.#owner = f; }
  }
  const reset = URLSearchParams._reset, own = URLSearchParams._own;
  delete URLSearchParams._reset;
  delete URLSearchParams._own;
  class URL {
    #u; #params;
    constructor(url, base) {
      const b = base === undefined ? undefined : (base instanceof URL ? base.#u : parse(clean(base)));
      this.#u = parse(resolve(clean(url), b));
      this.#params = new URLSearchParams(this.#u.search);
      own(this.#params, (s) => { this.#u.search = s ? "?" + s : ""; });
    }
    static canParse(url, base) { try { new URL(url, base); return true; } catch (e) { return false; } }
    static parse(url, base) { try { return new URL(url, base); } catch (e) { return null; } }
    get href() { return serialize(this.#u); }
    set href(v) { this.#u = parse(resolve(clean(v))); reset(this.#params, this.#u.search); }
    get origin() {
      const u = this.#u, inner = u.protocol === "blob:" && URL.parse(u.pathname);
      if (inner) return /^https?:$/.test(inner.protocol) ? inner.origin : "null";
      return u.protocol in special && u.protocol !== "file:" ? u.protocol + "//" + u.hostname + (u.port ? ":" + u.port : "") : "null";
    }
    get protocol() { return this.#u.protocol; }
    set protocol(v) {
      const u = this.#u, p = tnr(v).replace(/:.*$/s, "").toLowerCase() + ":";
      if (/^[a-z][a-z0-9+.-]*:$/.test(p) && (p in special) === (u.protocol in special) && !(p === "file:" && (u.username || u.password || u.port)) && !(u.protocol === "file:" && u.hostname === "")) {
        this.#u.protocol = p;
        if (special[p] === this.#u.port) this.#u.port = "";
      }
    }
    get username() { return this.#u.username; }
    set username(v) { if (creds(this.#u)) this.#u.username = pct(String(v), USER); }
    get password() { return this.#u.password; }
    set password(v) { if (creds(this.#u)) this.#u.password = pct(String(v), USER); }
    get host() { return this.#u.hostname + (this.#u.port ? ":" + this.#u.port : ""); }
    set host(v) { this.#host(v, true); }
    get hostname() { return this.#u.hostname; }
    set hostname(v) { this.#host(v, false); }
    // #host sets the host and, given withPort, a port after it: "h:8080x"
    // sets both, "h:x" the host alone; a value with credentials is ignored.
    #host(v, withPort) {
      const u = this.#u, m = hostPort(u, v);
      if (u.opaque || m[1].includes("@") || m[2] !== undefined && (!withPort || u.protocol === "file:" || m[1] === "") || m[1] === "" && (u.username || u.password || u.port)) return;
      try { u.hostname = parse(u.protocol + "//" + m[1]).hostname; } catch (e) { return; }
      u.host = true;
      if (m[2]) this.port = m[2];
    }
    get port() { return this.#u.port; }
    set port(v) {
      const s = tnr(v), d = /^\d*/.exec(s)[0];
      if (!creds(this.#u)) return;
      if (String(v) === "") this.#u.port = "";
      else if (d !== "" && Number(d) <= 65535) this.#u.port = special[this.#u.protocol] === String(Number(d)) ? "" : String(Number(d));
    }
    get pathname() { return this.#u.pathname; }
    set pathname(v) {
      const u = this.#u, sp = u.protocol in special, s = tnr(v);
      if (u.opaque) return;
      if (!sp && u.host && s === "") { u.pathname = ""; return; }
      const n = parse(u.protocol + "//h/" + s.replace(sp ? /^[/\\]/ : /^\//, "").replace(/[?#]/g, (c) => encodeURIComponent(c)));
      u.pathname = n.pathname;
    }
    get search() { return this.#u.search.length > 1 ? this.#u.search : ""; }
    set search(v) {
      const s = tnr(v).replace(/^\?/, "");
      this.#u.search = String(v) === "" ? "" : "?" + pct(s, this.#u.protocol in special ? SQUERY : QUERY);
      reset(this.#params, this.#u.search);
    }
    get searchParams() { return this.#params; }
    get hash() { return this.#u.hash.length > 1 ? this.#u.hash : ""; }
    set hash(v) { const s = tnr(v).replace(/^#/, ""); this.#u.hash = String(v) === "" ? "" : "#" + pct(s, FRAG); }
    toString() { return this.href; }
    toJSON() { return this.href; }
    get [Symbol.toStringTag]() { return "URL"; }
  }
  return { URL, URLSearchParams };
}
