// Deeply nested source, shared by web/test/recursion.test.mjs (Node, both
// modes) and web/browser-test/recursion.test.mjs (Chromium, a fresh Worker
// and the page's thread). QuickJS's parser recurses on the host engine's
// stack, checking its own limit only on some paths: these shapes overflowed
// a fresh Chromium Worker's stack from 243 (generator functions) to 3,532
// (runs of new) levels, and 20,000 brackets ended the whole engine in the
// core's reader of the code. The core now refuses code nested deeper than
// NESTING_LIMIT (tsstrip.MaxNesting) before anything parses it.

export const NESTING_LIMIT = 100;

const r = (s, n) => s.repeat(n);

/**
 * Rows: [name, code(n) nested n levels, result at the limit, extra]: the
 * code nests n + extra levels (an arrow's body is a level of its own).
 */
export const NESTED = [
    ["parentheses", (n) => `return ${r("(", n)}1${r(")", n)}`, 1, 0],
    ["array literals", (n) => `return ${r("[", n)}${r("]", n)}.length`, 1, 0],
    ["object literals", (n) => `return typeof ${r("{a:", n)}1${r("}", n)}`, "object", 0],
    ["blocks", (n) => `${r("{", n)}${r("}", n)} return 1`, 1, 0],
    ["function expressions", (n) => `const f = ${r("function(){return ", n)}1${r("}", n)}; return 1`, 1, 0],
    ["generator functions", (n) => `const f = ${r("function*() { yield ", n)}1${r(" }", n)}; return 1`, 1, 0],
    ["arrow functions in parentheses", (n) => `const f = ${r("(() => ", n)}1${r(")", n)}; return 1`, 1, 1],
    ["template literals", (n) => `return ${r("`${", n)}1${r("}`", n)}`, "1", 0],
    ["calls", (n) => `const f = (x) => x; return ${r("f(", n)}1${r(")", n)}`, 1, 0],
    ["async arrows returning async arrows", (n) => `const f = ${r("async x => ", n)}1; return typeof f`, "function", 0],
    // new new F is new (new F): a run of three news fails when it runs;
    // the try block is a level.
    ["runs of new", (n) => `try { ${r("new ", n)}Function } catch (e) { return e instanceof TypeError }`, true, 1],
];

/** The message of code nested `depth` levels at line 1. */
export const nestedMessage = (depth) =>
    new RegExp(`^code nested too deeply: ${depth} levels at line 1; the limit is ${NESTING_LIMIT} \\(`);
