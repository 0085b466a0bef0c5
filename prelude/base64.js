// Builds atob and btoa (forgiving-base64, as in browsers); errors are named
// InvalidCharacterError like the DOMException a page would throw.
() => {
  const A = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const bad = (msg) => { const e = new Error(msg); e.name = "InvalidCharacterError"; return e; };
  const btoa = function btoa(data) {
    if (arguments.length === 0) throw new TypeError("btoa: 1 argument required");
    const s = String(data);
    let out = "";
    for (let i = 0; i < s.length; i += 3) {
      const a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2);
      if (a > 255 || b > 255 || c > 255) throw bad("btoa: the string contains characters outside of Latin1 (encode it as UTF-8 first, e.g. with TextEncoder)");
      const n = (a << 16) | ((b || 0) << 8) | (c || 0);
      out += A[n >> 18] + A[(n >> 12) & 63] + (i + 1 < s.length ? A[(n >> 6) & 63] : "=") + (i + 2 < s.length ? A[n & 63] : "=");
    }
    return out;
  };
  const atob = function atob(data) {
    if (arguments.length === 0) throw new TypeError("atob: 1 argument required");
    let s = String(data).replace(/[\t\n\f\r ]/g, "");
    if (s.length % 4 === 0) s = s.replace(/==?$/, "");
    if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw bad("atob: the string is not correctly encoded base64");
    let out = "";
    for (let i = 0; i < s.length; i += 4) {
      const n = (A.indexOf(s[i]) << 18) | (A.indexOf(s[i + 1]) << 12) | ((i + 2 < s.length ? A.indexOf(s[i + 2]) : 0) << 6) | (i + 3 < s.length ? A.indexOf(s[i + 3]) : 0);
      out += String.fromCharCode(n >> 16);
      if (i + 2 < s.length) out += String.fromCharCode((n >> 8) & 255);
      if (i + 3 < s.length) out += String.fromCharCode(n & 255);
    }
    return out;
  };
  return { atob, btoa };
}
