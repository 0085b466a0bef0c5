// Builds URL and URLSearchParams after the WHATWG URL standard, for what
// code here does with URLs: parse absolute and relative URLs, read and set
// their parts, build query strings. Hosts are lowercased, not IDNA-mapped.
() => {
  const special = { "http:": "80", "https:": "443", "ws:": "80", "wss:": "443", "ftp:": "21", "file:": "" };
  const invalid = (input) => new TypeError("Invalid URL: " + input);
  const wellFormed = (s) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
  // pct percent-encodes the characters of s outside the allowed set re.
  const pct = (s, re) => wellFormed(s).replace(re, (c) => encodeURIComponent(c));
  const PATH = /[\ud800-\udbff][\udc00-\udfff]|[\x00-\x20"#<>?`{}\x7f-\uffff]/g;
  const QUERY = /[\ud800-\udbff][\udc00-\udfff]|[\x00-\x20"#<>\x7f-\uffff]/g;
  const SQUERY = /[\ud800-\udbff][\udc00-\udfff]|[\x00-\x20"#<>'\x7f-\uffff]/g;
  const FRAG = /[\ud800-\udbff][\udc00-\udfff]|[\x00-\x20"<>`\x7f-\uffff]/g;
  const USER = /[\ud800-\udbff][\udc00-\udfff]|[\x00-\x20"#<>?`{}/:;=@[\\\]^|\x7f-\uffff]/g;
  const form = (s) => encodeURIComponent(wellFormed(s)).replace(/[!'()~]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase()).replace(/%20/g, "+");
  const unform = (s) => s.replace(/\+/g, " ").replace(/(%[0-9A-Fa-f]{2})+/g, (m) => { try { return decodeURIComponent(m); } catch (e) { return m; } });
  const dots = (segs) => {
    const out = [];
    segs.forEach((seg, i) => {
      const s = seg.toLowerCase(), last = i === segs.length - 1;
      if (s === ".." || s === ".%2e" || s === "%2e." || s === "%2e%2e") { out.pop(); if (last) out.push(""); }
      else if (s === "." || s === "%2e") { if (last) out.push(""); }
      else out.push(seg);
    });
    return out;
  };
  // parse reads an absolute URL into its parts, or throws.
  const parse = (input) => {
    const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):(.*)$/s.exec(input);
    if (!m) throw invalid(input);
    const u = { protocol: m[1].toLowerCase() + ":", username: "", password: "", hostname: "", port: "", pathname: "", search: "", hash: "", host: false };
    let rest = m[2];
    const isSpecial = u.protocol in special;
    if (isSpecial) rest = rest.replace(/\\/g, "/");
    const h = rest.indexOf("#");
    if (h >= 0) { u.hash = "#" + pct(rest.slice(h + 1), FRAG); rest = rest.slice(0, h); }
    const q = rest.indexOf("?");
    if (q >= 0) { u.search = "?" + pct(rest.slice(q + 1), isSpecial ? SQUERY : QUERY); rest = rest.slice(0, q); }
    if (u.search === "?") u.search = "";
    if (u.hash === "#") u.hash = "";
    const file = u.protocol === "file:";
    if (isSpecial ? !file || rest.startsWith("//") : rest.startsWith("//")) {
      // A special URL's authority starts after any run of slashes, except
      // a file URL's, after two: "file:///etc/passwd" has an empty host.
      rest = isSpecial && !file ? rest.replace(/^\/*/, "") : rest.slice(2);
      const end = rest.search(/\//);
      let auth = end < 0 ? rest : rest.slice(0, end);
      rest = end < 0 ? "" : rest.slice(end);
      const at = auth.lastIndexOf("@");
      if (at >= 0) {
        const info = auth.slice(0, at), c = info.indexOf(":");
        u.username = pct(c < 0 ? info : info.slice(0, c), USER);
        u.password = c < 0 ? "" : pct(info.slice(c + 1), USER);
        auth = auth.slice(at + 1);
      }
      const pm = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/s.exec(auth);
      let host = pm[1];
      if (pm[2] !== undefined && pm[2] !== "") {
        if (!/^\d+$/.test(pm[2]) || Number(pm[2]) > 65535) throw invalid(input);
        u.port = String(Number(pm[2]));
        if (special[u.protocol] === u.port) u.port = "";
      }
      if (isSpecial) {
        try { host = decodeURIComponent(host); } catch (e) { throw invalid(input); }
        host = host.toLowerCase();
        if (/[\x00-\x20#%/:<>?@[\\\]^|]/.test(host.replace(/^\[.*\]$/, "")) || host === "" && u.protocol !== "file:") throw invalid(input);
        if (/^\d+(\.\d+){3}$/.test(host) && host.split(".").some((n) => Number(n) > 255)) throw invalid(input);
      } else host = pct(host, /[\x00-\x20"#<>`\x7f-\uffff]/g);
      u.hostname = file && host === "localhost" ? "" : host;
      u.host = true;
    } else if (file) u.host = true; // "file:/a" is "file:///a": a file URL always has a host, maybe empty
    if (isSpecial || u.host || rest.startsWith("/")) {
      let segs = rest.split("/");
      if (segs[0] === "") segs = segs.slice(1);
      u.pathname = (rest === "" && !isSpecial) ? "" : "/" + dots(segs).map((s) => pct(s, PATH)).join("/");
    } else {
      u.pathname = pct(rest, /[\ud800-\udbff][\udc00-\udfff]|[\x00-\x1f\x7f-\uffff]/g);
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
      if (!(scheme in special && base && base.protocol === scheme && !/^[a-zA-Z][a-zA-Z0-9+.-]*:[/\\]/.test(input))) return input;
      input = input.slice(scheme.length);
    }
    if (!base) throw invalid(input);
    const sp = base.protocol in special;
    const norm = sp ? input.replace(/\\/g, "/") : input;
    const origin = base.protocol + (base.host ? "//" + (base.username || base.password ? base.username + (base.password ? ":" + base.password : "") + "@" : "") + base.hostname + (base.port ? ":" + base.port : "") : "");
    if (base.opaque && !norm.startsWith("#")) throw invalid(input);
    if (norm.startsWith("//")) return base.protocol + norm;
    if (norm.startsWith("/")) return origin + norm;
    if (norm.startsWith("?")) return origin + base.pathname + norm;
    if (norm.startsWith("#")) return serialize({ ...base, hash: "" }) + norm;
    if (norm === "") return serialize({ ...base, hash: "" });
    return origin + base.pathname.slice(0, base.pathname.lastIndexOf("/") + 1) + norm;
  };
  const clean = (s) => String(s).replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, "").replace(/[\t\n\r]/g, "");
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
      const u = this.#u;
      return u.protocol in special && u.protocol !== "file:" ? u.protocol + "//" + u.hostname + (u.port ? ":" + u.port : "") : "null";
    }
    get protocol() { return this.#u.protocol; }
    set protocol(v) {
      const p = String(v).replace(/:.*$/s, "").toLowerCase() + ":";
      if (/^[a-z][a-z0-9+.-]*:$/.test(p) && (p in special) === (this.#u.protocol in special)) {
        this.#u.protocol = p;
        if (special[p] === this.#u.port) this.#u.port = "";
      }
    }
    get username() { return this.#u.username; }
    set username(v) { if (this.#u.host) this.#u.username = pct(String(v), USER); }
    get password() { return this.#u.password; }
    set password(v) { if (this.#u.host) this.#u.password = pct(String(v), USER); }
    get host() { return this.#u.hostname + (this.#u.port ? ":" + this.#u.port : ""); }
    set host(v) { if (this.#u.host) { try { const n = parse(this.#u.protocol + "//" + String(v)); this.#u.hostname = n.hostname; this.#u.port = n.port; } catch (e) {} } }
    get hostname() { return this.#u.hostname; }
    set hostname(v) { if (this.#u.host) { try { this.#u.hostname = parse(this.#u.protocol + "//" + String(v).replace(/:.*$/s, "")).hostname; } catch (e) {} } }
    get port() { return this.#u.port; }
    set port(v) {
      const s = String(v), d = /^\d*/.exec(s)[0];
      if (!this.#u.host) return;
      if (s === "") this.#u.port = "";
      else if (d !== "" && Number(d) <= 65535) this.#u.port = special[this.#u.protocol] === String(Number(d)) ? "" : String(Number(d));
    }
    get pathname() { return this.#u.pathname; }
    set pathname(v) {
      if (this.#u.opaque) return;
      const n = parse(this.#u.protocol + "//h/" + String(v).replace(/^[/\\]/, "").replace(/[?#]/g, (c) => encodeURIComponent(c)));
      this.#u.pathname = n.pathname;
    }
    get search() { return this.#u.search; }
    set search(v) {
      const s = String(v).replace(/^\?/, "");
      this.#u.search = s === "" ? "" : "?" + pct(s, this.#u.protocol in special ? SQUERY : QUERY);
      reset(this.#params, this.#u.search);
    }
    get searchParams() { return this.#params; }
    get hash() { return this.#u.hash; }
    set hash(v) { const s = String(v).replace(/^#/, ""); this.#u.hash = s === "" ? "" : "#" + pct(s, FRAG); }
    toString() { return this.href; }
    toJSON() { return this.href; }
    get [Symbol.toStringTag]() { return "URL"; }
  }
  return { URL, URLSearchParams };
}
