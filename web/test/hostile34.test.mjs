// Attempts of the thirty-fourth session (security34), written before
// reading the code under test, on what session 33 added: the sandbox's
// Intl (prelude/intl.js, built on first use in the program's realm), the
// TypeScript value rewrites (enum, namespace, using), the timers' cleared
// ids, and the rejected calls the run keeps. Most held; each row is what
// the run must give, and the next run works, in both engine modes
// (CODE_MODE_WORKER=1). Four were bugs, fixed with Go tests too: the
// collation keys of strings a program let go of stayed (MEMORY_LIMIT
// holding little, TestCollationKeysLetGo); a BigInt of 1e5 digits was a
// RangeError in toLocaleString (TestBigIntToLocaleString); timers set and
// cleared in a loop that never yielded held a host call each until it did
// (MEMORY_LIMIT holding nothing, TestClearedTimersLetGo); an enum named
// _$v, or a member reading an outer _$v, met the rewrite's own _$v
// (internal/tsstrip TestRewritten).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, run, tool, withFactory, within } from "./helpers.mjs";

/** How many 64 KB strings a run holds before QuickJS's "out of memory". */
const capacity = `const held = []; let n = 0; try { for (;;) { held.push("x".repeat(65536) + n); n++ } } catch (e) { return n }`;

describe("hostile34: Intl, TypeScript values, timers and rejections of session 33", () => {
    test("Intl built on first use after the program hooked prototypes or replaced globals: its own realm only, and the next run formats as ever", async (t) => {
        // timeZone "UTC": the expected dates are UTC's whatever the machine's zone.
        const api = await withFactory(t, { wasmLocation: assetPath, timeZone: "UTC" });
        const session = api.createSession();
        const hooks = `const seen = new Set();
for (const [P, names] of [[Array.prototype, ["push", "map", "join", "slice", "indexOf", "includes", "concat", "some"]], [String.prototype, ["replace", "slice", "split", "indexOf", "padStart", "toUpperCase", "charCodeAt"]], [RegExp.prototype, ["exec", "test"]]])
  for (const k of names) { const o = P[k]; P[k] = function (...a) { for (const x of a) if (typeof x === "function" && !String(x).includes("=>")) seen.add("function " + k); return Reflect.apply(o, this, a) } }
for (const k of ["log", "apply", "src", "intl", "I", "warn"]) Object.defineProperty(Object.prototype, k, { configurable: true, set(v) { seen.add("set " + k) }, get() { return undefined } });`;
        for (const [name, code, want] of [
            ["prototype methods hooked, setters on Object.prototype", `${hooks}
return [(1234.5).toLocaleString(), new Intl.NumberFormat("en-US", { style: "currency", currency: "EUR" }).format(1234.5), new Date(0).toLocaleString(), "b".localeCompare("a"), [...seen]]`,
                ["1,234.5", "€1,234.50", "1/1/1970, 12:00:00 AM", 1, []]],
            ["Intl replaced before toLocaleString", `globalThis.Intl = { NumberFormat: function () { return { format() { return "mine" } } } }; return [(1234.5).toLocaleString(), new Date(0).toLocaleDateString(), Intl.NumberFormat === undefined]`,
                ["1,234.5", "1/1/1970", false]],
            ["Intl deleted, or a getter that throws", `delete globalThis.Intl; const a = (1234.5).toLocaleString(); Object.defineProperty(globalThis, "Intl", { get() { throw new Error("mine") } }); return [a, (5).toLocaleString("en", { minimumFractionDigits: 2 }), typeof Object.getOwnPropertyDescriptor(globalThis, "Intl").get]`,
                ["1,234.5", "5.00", "function"]],
            ["Object nulled first: Intl's build is a TypeError the program catches", `globalThis.Object = null; try { (1).toLocaleString(); return "formatted" } catch (e) { return e instanceof TypeError }`, true],
        ]) {
            const r = await run(session, code);
            assert.deepEqual(r.result, want, `${name}: ${JSON.stringify(r.error)}`);
            const next = await run(session, `return [(1.5).toLocaleString(), new Intl.NumberFormat().format(1234.5), typeof globalThis.Intl.Collator, ({}).log]`);
            assert.deepEqual(next.result, ["1.5", "1,234.5", "function", null], `the run after ${name}`);
        }
        assert.equal({}.log, undefined, "the host's Object.prototype was written");
    });

    test("Intl options and locales written to hurt: a RangeError or TypeError the program catches, a short warning, or TIMEOUT for a getter that never returns", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 60_000 });
        const session = api.createSession();
        const caught = (expr) => `try { const v = ${expr}; return "ok " + String(v).slice(0, 40) } catch (e) { return (e && e.constructor && e.constructor.name) + ": " + String(e && e.message).slice(0, 80) + " (" + String(e && e.message).length + ")" }`;
        for (const [name, code, want] of [
            ["an option getter that throws", caught(`new Intl.NumberFormat("en", { get style() { throw new Error("boom") } })`), /^Error: boom/],
            ["options a Proxy whose every trap throws", caught(`new Intl.DateTimeFormat("en", new Proxy({}, new Proxy({}, { get: (o, k) => () => { throw new TypeError("trap " + String(k)) } })))`), /^TypeError: trap get/],
            ["a digit option whose toPrimitive gives 1e9", caught(`new Intl.NumberFormat("en", { maximumFractionDigits: { [Symbol.toPrimitive]: () => 1e9 } })`), /^RangeError: maximumFractionDigits value is out of range/],
            ["a locale of 10 MB", caught(`new Intl.NumberFormat("en-" + "a".repeat(1e7))`), /^RangeError: Incorrect locale information provided \(37\)$/],
            ["locales an array-like of length 2^53 - 1", caught(`new Intl.NumberFormat({ length: 2 ** 53 - 1, 0: "en" })`), /^RangeError/],
            ["a million locales", caught(`new Intl.NumberFormat(Array(1e6).fill("en-US")).format(1234)`), /^ok 1,234$/],
        ]) {
            const r = await run(session, code);
            assert.match(String(r.result), want, `${name}: ${JSON.stringify(r.error)}`);
        }
        // The host's time zones (__cm_tz) refuse a name past 64 bytes: the browser's RangeError, no warning.
        const zone = await run(session, caught(`new Date(0).toLocaleString("en-US", { timeZone: "Z/" + "z".repeat(1e7) })`));
        assert.match(String(zone.result), /^RangeError: Invalid time zone specified: Z\/zzz/, JSON.stringify(zone.error));
        assert.deepEqual(zone.logs, []);
        const short = (await withFactory(t, { wasmLocation: assetPath, timeout: 2000 })).createSession();
        const loop = await within(run(short, `new Intl.NumberFormat("en", { minimumFractionDigits: { valueOf() { for (;;) {} } } }); return 1`), 60_000);
        assert.equal(loop.error && loop.error.code, "TIMEOUT");
        assert.equal((await run(short, "return (2).toLocaleString()")).result, "2");
    });

    test("a BigInt of 1e5 digits formats, and the collation keys of strings a run let go of are let go", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 16, timeout: 120_000 });
        const session = api.createSession();
        // 'too many arguments in function call (only 65534 allowed)' before.
        const big = await run(session, `const s = (10n ** 100000n).toLocaleString(); return [s.length, s.slice(0, 6)]`);
        assert.deepEqual(big.result, [133334, "10,000"], JSON.stringify(big.error));
        const base = await run(session, capacity);
        assert.equal(base.ok, true, JSON.stringify(base.error));
        // MEMORY_LIMIT before: every key stayed (~5 bytes a character).
        const r = await within(run(session, `for (let r = 0; r < 150; r++) { const s = "y".repeat(20000) + r; s.localeCompare(s.toUpperCase()) }\n${capacity}`), 180_000);
        assert.notEqual(r, "hung");
        assert.ok(r.ok && r.result >= base.result / 2, `${JSON.stringify(r.result ?? r.error)} x 64 KB held after 150 compares of 20,000 characters, ${base.result} before`);
    });

    test("timers set and cleared 1e5 times without yielding: the run holds as much after, and timers set next fire in order", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 16, timeout: 120_000 });
        const session = api.createSession();
        const base = await run(session, capacity);
        // MEMORY_LIMIT before: each cleared wait held a host call and its promise until the program yielded.
        const r = await within(run(session, `for (let i = 0; i < 1e5; i++) clearTimeout(setTimeout(() => {}, 20000))\n${capacity}`), 180_000);
        assert.notEqual(r, "hung");
        assert.ok(r.ok && r.result >= base.result - 8, `${JSON.stringify(r.result ?? r.error)} x 64 KB held after, ${base.result} before`);
        const order = await run(session, `for (let i = 0; i < 1e4; i++) clearTimeout(setTimeout(() => {}, 1000))
const seen = []; for (const ms of [30, 10, 20, 0, 10]) setTimeout(() => seen.push(ms), ms)
for (const id of [2 ** 31 - 1, 2 ** 53, -1, NaN, Infinity, "7", { valueOf() { throw new Error("no") } }]) clearTimeout(id)
await new Promise((r) => setTimeout(r, 60)); return seen`);
        assert.deepEqual(order.result, [0, 10, 10, 20, 30], JSON.stringify(order.error));
    });

    test("TypeScript enums, namespaces and using written to hurt: data stays data, lines stay put, disposal errors end as the proposal says", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 5000 });
        const session = api.createSession();
        for (const [name, code, want] of [
            // 'invalid redefinition of parameter name' before.
            ["an enum named _$v", "enum _$v { A, B = A + 1 }\nreturn [_$v.A, _$v.B, _$v[1]]", [0, 1, "B"]],
            // [undefined, NaN] before: the member read the rewrite's _$v.
            ["a member reading an outer _$v", "const _$v = 10\nenum E { A = _$v, B }\nreturn [E.A, E.B]", [10, 11]],
            ["a quoted member that looks like code", `enum E { "A\\"]; globalThis.pwn = 1; E[\\"" = 1, B }\nreturn [Object.keys(E).length, typeof globalThis.pwn]`, [4, "undefined"]],
            ["braces in templates, regexps and comments", "enum E { A = `}${'}'}){`.length, B = /[/}]/.test('}') ? 1 : 0 /* } globalThis.x = 1; { */, C }\nnamespace N { export const f = () => \"} return 'out'; {\" }\nreturn [E.A, E.B, E.C, N.f(), typeof globalThis.x]", [4, 1, 2, "} return 'out'; {", "undefined"]],
            ["members named __proto__ and constructor", "enum P { __proto__ = 1, constructor = 2 }\nreturn [Object.getPrototypeOf(P) === Object.prototype, P.constructor, ({}).polluted === undefined]", [true, 2, true]],
            ["a later line's error keeps its line", "enum E {\n  A = `x\ny`.length,\n  B = \"\\u2028\".length,\n}\nnamespace N { export const z = 1 }\nnull.boom", "line 7"],
            ["every dispose throws", "const order = []\nconst mk = (i) => ({ [Symbol.dispose]() { order.push(i); throw new Error('d' + i) } })\ntry { { using a = mk(1); using b = mk(2); throw new Error('body') } } catch (e) { const chain = []; for (let x = e; x; x = x.suppressed) chain.push(x.error ? x.error.message : x.message); return [e.name, order, chain] }", ["SuppressedError", [2, 1], ["d1", "d2", "body"]]],
            ["an asyncDispose that never settles", "{ await using a = { [Symbol.asyncDispose]() { return new Promise(() => {}) } } }\nreturn 'after'", /can never settle/],
            ["an asyncDispose thenable that loops", "{ await using a = { [Symbol.asyncDispose]() { return { then() { for (;;) {} } } } } }\nreturn 'after'", "TIMEOUT"],
        ]) {
            const r = await within(run(session, code), 60_000);
            assert.notEqual(r, "hung", name);
            if (want === "TIMEOUT") assert.equal(r.error && r.error.code, "TIMEOUT", name);
            else if (want instanceof RegExp) assert.match(String(r.error && r.error.message), want, name);
            else if (typeof want === "string") assert.equal(r.error && r.error.line, 7, `${name}: ${JSON.stringify(r.error)}`);
            else assert.deepEqual(r.result, want, `${name}: ${JSON.stringify(r.error)}`);
            assert.equal((await run(session, "return 2")).result, 2, `the run after ${name}`);
        }
    });

    test("1000 rejected calls with 1 MB messages left unobserved: the warnings stay short, and the next run works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("bad", (i) => { throw new Error("m".repeat(i.n)); })] });
        const session = api.createSession();
        const r = await run(session, `for (let i = 0; i < 1000; i++) tools.bad({ n: 1e6 }); Object.defineProperty(Error.prototype, "message", { get() { for (;;) {} } }); await new Promise((r) => setTimeout(r, 50)); return 1`);
        assert.equal(r.result, 1, JSON.stringify(r.error));
        const chars = r.logs.reduce((n, l) => n + l.message.length, 0);
        assert.ok(r.logs.length <= 20 && chars < 50_000, `${r.logs.length} warnings of ${chars} characters`);
        assert.equal((await run(session, "return 2")).result, 2);
    });
});
