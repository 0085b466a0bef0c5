// Deep recursion rows shared by web/test/recursion.test.mjs (Node, both
// modes) and web/browser-test/recursion.test.mjs (Chromium, a fresh Worker
// and the page's thread). Each program recurses without bound; QuickJS's own
// stack limit must stop it first, as a RangeError the program catches, in
// every host: a host stack that overflowed first would end the run with the
// uncatchable "Maximum call stack size exceeded: ... nests too deeply"
// (what a Chromium Worker, half the page's stack, did at 256 KiB).

const caught = (body) => `${body} catch (e) { return [e instanceof RangeError, e.message] }`;

/** Rows: [name, code]; each run's result must be [true, "stack overflow"]. */
export const CAUGHT = [
    ["plain recursion", caught("function f() { return f() + 1 } try { f() }")],
    ["recursion with an argument", caught("function f(n) { return n ? f(n - 1) + 1 : 0 } try { f(1e6) }")],
    ["a self-recursive getter", caught("const o = { get x() { return this.x } }; try { o.x }")],
    ["a recursive toString", caught("const o = { toString() { return '' + this } }; try { '' + o }")],
    ["a recursive valueOf", caught("const o = { valueOf() { return +this } }; try { +o }")],
    ["a recursive generator", caught("function* g() { yield* g() } try { [...g()] }")],
    ["Array.prototype.map callbacks", caught("function f() { return [1].map(f) } try { f() }")],
    ["Array.prototype.sort comparators", caught("function f() { [2, 1].sort(() => (f(), 0)) } try { f() }")],
    ["a Proxy get trap", caught("const p = new Proxy({}, { get(t, k) { return p[k] } }); try { p.x }")],
    // 10,000: QuickJS's limit stops the chain's read under 100 levels deep
    // (a chain of 20 to 70 fits and is read in exponential time), so any
    // chain past it takes the same path; 100,000 took JavaScriptCore 10-28 s
    // to build in a loaded Worker and ran into the 60 s timeout with its
    // WebAssembly JIT off.
    ["a chain of 10,000 Proxies", caught("let p = {}; for (let i = 0; i < 1e4; i++) p = new Proxy(p, {}); try { p.x }")],
    ["JSON.stringify through toJSON", caught("const o = { toJSON() { return JSON.stringify(this) } }; try { JSON.stringify(o) }")],
    ["String of an array nested 100,000 deep", caught("let d = []; for (let i = 0; i < 1e5; i++) d = [d]; try { String(d) }")],
    ["flat(Infinity) of an array nested 100,000 deep", caught("let d = []; for (let i = 0; i < 1e5; i++) d = [d]; try { d.flat(Infinity) }")],
    ["recursion after an await", caught("await null; function f() { return f() + 1 } try { f() }")],
    ["a getter after a timer", caught("await new Promise((r) => setTimeout(r, 1)); const o = { get x() { return this.x } }; try { o.x }")],
    ["recursion in a then job", `function f() { return f() + 1 } return await Promise.resolve().then(() => { ${caught("try { f() }")} })`],
    ["async recursion", caught("async function f() { return await f() } try { await f() }")],
];

/**
 * Rows: [name, code, message pattern]; the run fails with a RUNTIME error,
 * and the next run works.
 */
export const UNCAUGHT = [
    ["uncaught recursion", "function f(n) { return n ? f(n - 1) + 1 : 0 } return f(1e6)", /^stack overflow$/],
    // QuickJS's parser recurses on the host's stack, using little of its
    // own: no QuickJS limit stops it first; the host's overflow ends the run.
    // The core refuses such source before it runs (nesting-cases.mjs), and
    // the function constructors refuse such text (funcguard.go): uncaught,
    // that is the run's error. eval is the intrinsic (a wrapper would make
    // every eval indirect, blind to the caller's variables): its text is
    // parsed unchecked, and the host's overflow ends the run.
    ["source nested 100,000 brackets deep, built", "new Function('['.repeat(1e5))", /^Function: code nested too deeply: 100000 levels at line 1; the limit is 100 \(/],
    ["source nested 100,000 brackets deep, evaluated", "eval('['.repeat(1e5))", /^Maximum call stack size exceeded: the code, the data or the recursion nests too deeply \(keep data under 1,000 levels and brackets in code under 100 deep\)$/],
    ["a rejection whose name and message getters recurse", "const o = { get name() { return this.name }, get message() { return this.message } }; throw o", /^a non-Error value was thrown: \[object Object\] \(not shown as JSON: stack overflow\)$/],
];

/**
 * Rows: [name, code, result]: what the limit must still allow (the depths
 * web/USAGE.md promises, and data nested 1,000 levels, which the JSON
 * guards accept, through QuickJS's C recursion).
 */
export const FITS = [
    ["300 levels of plain recursion", "let d = 0; function f() { d++; f() } try { f() } catch (e) {} return d >= 300", true],
    ["230 levels of a recursive getter", "let d = 0; const o = { get x() { d++; return this.x } }; try { o.x } catch (e) {} return d >= 230", true],
    ["structuredClone of data nested 10,000 levels (it keeps a stack of its own)", "let d = []; for (let i = 0; i < 1e4; i++) d = [d, i]; let c = structuredClone(d), n = 0; while (c.length) n++, c = c[0]; return n", 1e4],
    ["a tool input and result nested 1,000 levels (t.echo returns its input)", "let d = []; for (let i = 0; i < 998; i++) d = [d]; return JSON.stringify(await tools.t.echo({ d })).length", 2004],
    ["data nested 1,000 levels through JSON.stringify and structuredClone", "let d = []; for (let i = 0; i < 998; i++) d = [d]; return [JSON.stringify({ d }).length, JSON.stringify(structuredClone({ d })).length]", [2004, 2004]],
];
