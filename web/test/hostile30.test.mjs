// Escape and denial attempts of the thirtieth session (security30), in the
// classes of QuickJS's upstream bugs: builtins whose C code keeps a pointer
// or a length across the program's code (valueOf, getters, species, revivers,
// Proxy traps), recursion in C (a cycle's join, Proxy chains, flat, sort
// comparators, toPrimitive), C loops over array-likes of 2^53 - 1 elements,
// generators and async generators re-entered. Each row is the outcome a run
// must have (the spec's answer, a catchable "stack overflow", TIMEOUT), and
// the next run of the same factory must work, in both engine modes
// (CODE_MODE_WORKER=1); in a Worker the page's timers fire meanwhile. The
// ones that did not hold are fixed and tested where the fix is
// (hostile-program: toReversed and its kin; sandbox: nothing of a run stays
// in its instance).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, endsAtTimeout, run, withFactory, within } from "./helpers.mjs";

// Every row's program returns JSON text (a value the run gives back as is)
// or fails with the code given.
const rows = [
    // C code that kept a length across the program's code.
    ["fill with a valueOf that shrinks the array", `const v = new Array(100).fill(0); v.fill(7, { valueOf() { v.length = 4; globalThis.adj = new Array(90).fill(0xBBBB); return 0 } }); return JSON.stringify([v.length, v[99], adj.every((x) => x === 0xBBBB)])`, "[100,7,true]"],
    ["copyWithin with an end whose valueOf shrinks the array", `const arr = []; for (let i = 0; i < 100; i++) arr[i] = { i }; arr.copyWithin(0, 50, { valueOf() { arr.length = 60; return 100 } }); return JSON.stringify([arr.length, arr[0].i, arr[9].i, 10 in arr, arr[50].i])`, "[60,50,59,false,50]"],
    ["lastIndexOf, includes and indexOf with a fromIndex that shrinks the array", `const arr = []; for (let i = 0; i < 100; i++) arr[i] = { i }; const a = arr.lastIndexOf(undefined, { valueOf() { arr.length = 2; return 99 } }); const b = arr.includes(undefined, { valueOf() { arr.length = 1; return 0 } }); return JSON.stringify([a, b, arr.indexOf(undefined)])`, "[-1,true,-1]"],
    // V8 throws a TypeError here (the write-back meets the getter), QuickJS
    // sorts what it read; either way nothing is read past the array.
    ["sort with a hole whose Array.prototype getter grows the array", `Object.defineProperty(Array.prototype, 1, { configurable: true, get() { for (let i = 0; i < 1024; i++) this.push(i); return 5 } }); const a = [3]; a[2] = 7; a.length = 3; try { a.sort((x, y) => x - y) } catch (e) { if (e.name !== "TypeError") throw e } delete Array.prototype[1]; return JSON.stringify([a[0], a.length > 3, a.slice(3).every((x, i) => x === i)])`, "[3,true,true]"],
    ["sort whose comparator empties the array", `const a = []; for (let i = 0; i < 200; i++) a.push({ v: 200 - i }); let n = 0; a.sort((x, y) => { if (n++ === 50) a.length = 0; return x.v - y.v }); return JSON.stringify([a.length, a.every((x) => x && typeof x.v === "number")])`, "[200,true]"],
    ["splice whose species constructor empties the array", `const a = [1, 2, 3, 4, 5]; a.constructor = { [Symbol.species]: function (n) { a.length = 0; return new Array(n) } }; const r = a.splice(0, 5); return JSON.stringify([r.length, 0 in r, a.length])`, "[5,false,0]"],
    ["Math.max.apply of an array-like whose getters empty another array", `const a = Array.from({ length: 100 }, (_, i) => ({ i })); const al = { length: 100 }; for (let i = 0; i < 100; i++) Object.defineProperty(al, i, { get() { a.length = 0; return i } }); return JSON.stringify(Math.max.apply(null, al))`, "99"],
    ["regexp exec whose lastIndex valueOf recompiles the regexp", `const re = /(a+)+b/g; re.lastIndex = { valueOf() { re.compile("x".repeat(1000)); return 0 } }; return JSON.stringify([re.exec("aaab"), re.source.length])`, "[null,1000]"],
    ["replace whose callback recompiles the regexp", `const re = /a/g; return JSON.stringify("aaaa".replace(re, () => { re.compile("b", "g"); return "x" }))`, '"xxxx"'],
    ["replace with an exec that returns a huge negative index", `const re = /a/g; re.n = 0; re.exec = function () { if (this.n++ > 3) return null; return { index: -1e9, length: 1e9, 0: "zz" } }; try { return JSON.stringify("abcdef".replace(re, "$<x>$1")) } catch (e) { return JSON.stringify(e.message) }`, '"out of memory"'],
    ["a JSON.parse reviver deleting and replacing keys not yet visited", `return JSON.stringify(JSON.parse('{"a":{"b":1,"c":2},"d":[1,2,3],"e":5}', function (k, v) { if (k === "a") { delete this.d; delete this.e; this.d = new Proxy([], {}) } if (k === "b") { delete this.c } return v }))`, '{"a":{"b":1},"d":[]}'],
    ["a JSON.parse reviver shrinking the array it walks", `return JSON.stringify(JSON.parse("[[1,2,3,4,5,6,7,8,9,10],2]", function (k, v) { if (k === "0" && Array.isArray(this) && this.length === 10) this.length = 1; return v }))`, "[[1],2]"],
    ["JSON.stringify of an array whose toJSON shrinks it", `const a = Array.from({ length: 100 }, (_, i) => ({ i, toJSON() { if (i === 1) a.length = 2; return i } })); return JSON.stringify(JSON.stringify(a).length)`, "495"],
    ["ArrayBuffer slice whose species gives back the same buffer or a smaller one", `const ab = new ArrayBuffer(64); const out = []; for (const make of [() => ab, () => new ArrayBuffer(1)]) { ab.constructor = { [Symbol.species]: function () { return make() } }; try { ab.slice(0, 8) } catch (e) { out.push(e.name) } } return JSON.stringify(out)`, '["TypeError","TypeError"]'],
    ["TextEncoder, TextDecoder and getRandomValues given a Proxy of a view", `const u = new Uint8Array(8), p = new Proxy(u, {}); const out = []; for (const f of [() => new TextEncoder().encodeInto("abc", p), () => new TextDecoder().decode(p), () => crypto.getRandomValues(p)]) { try { f(); out.push("accepted") } catch (e) { out.push(e.name) } } return JSON.stringify(out)`, '["TypeError","TypeError","TypeError"]'],
    // Generators re-entered.
    ["a generator that calls its own next", `function* g() { it.next(); yield 1 } const it = g(); try { it.next(); return "1" } catch (e) { return JSON.stringify(e.message) }`, '"cannot invoke a running generator"'],
    ["yield* over an iterator whose return getter re-enters the generator", `const inner = { [Symbol.iterator]() { return this }, next() { return { done: false, value: 1 } }, get return() { outer.return(1); return () => ({ done: true }) } }; function* g() { yield* inner } const outer = g(); outer.next(); try { outer.return(2); return "1" } catch (e) { return JSON.stringify(e.message) }`, '"cannot invoke a running generator"'],
    // Recursion in C: a catchable stack overflow, never the host's.
    ["a cycle's join", `const a = []; a[0] = a; try { return String(a) } catch (e) { return JSON.stringify(e.message) }`, '"stack overflow"'],
    ["200,000 nested Proxies", `let r = { a: 1 }; for (let y = 0; y < 200000; y++) r = new Proxy(r, {}); const out = []; for (const f of [() => r.a, () => "a" in r, () => Object.keys(r), () => Object.getPrototypeOf(r), () => { r.c = 1 }]) { try { f(); out.push("done") } catch (e) { out.push(e.message) } } return JSON.stringify(out)`, JSON.stringify(Array(5).fill("stack overflow"))],
    ["a Proxy of a function whose prototype is itself, incremented", `var XYZ = new Proxy(function () {}, {}); try { XYZ.__proto__ = XYZ; XYZ++; return "1" } catch (e) { return JSON.stringify(e.message) }`, '"stack overflow"'],
    ["flat(Infinity) of 100,000 nested arrays", `let o = [1]; for (let i = 0; i < 100000; i++) o = [o]; try { return JSON.stringify(o.flat(Infinity).length) } catch (e) { return JSON.stringify(e.message) }`, '"stack overflow"'],
    ["a sort comparator that sorts again", `function f() { return [3, 1, 2].sort((a, b) => (f(), a - b)) } try { return JSON.stringify(f()) } catch (e) { return JSON.stringify(e.message) }`, '"stack overflow"'],
    ["a Symbol.toPrimitive that converts itself", `const o = { [Symbol.toPrimitive]() { return "" + this } }; try { return "" + o } catch (e) { return JSON.stringify(e.message) }`, '"stack overflow"'],
];

// C loops over 2^53 - 1 elements and backtracking regexps: the engine's
// loop checks end them at the timeout.
const denials = [
    ["indexOf of an array-like of 2^53 - 1 elements", "return Array.prototype.indexOf.call({ length: 2 ** 53 - 1 }, 1)"],
    ["reverse of an array-like of 2^53 - 1 elements", "return Array.prototype.reverse.call({ length: 2 ** 53 - 1 }).length"],
    ["copyWithin of an array-like of 2^53 - 1 elements", "return Array.prototype.copyWithin.call({ length: 2 ** 53 - 1 }, 0, 1).length"],
    ["lastIndexOf of a sparse array of 2^32 - 1 elements", "const a = []; a[2 ** 32 - 2] = 1; return a.lastIndexOf(2)"],
];

describe("hostile30: builtins re-entered, recursion in C, C loops", () => {
    test("each program ends as the specification says, or with a catchable stack overflow, and the next run works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const session = api.createSession();
        for (const [name, code, want] of rows) {
            const r = await within(run(session, code), 60_000);
            assert.notEqual(r, "hung", name);
            assert.equal(r.ok, true, `${name}: ${JSON.stringify(r.error)}`);
            assert.equal(r.result, want, name);
            const next = await run(session, "return 2");
            assert.equal(next.result, 2, `the run after ${name}: ${JSON.stringify(next.error)}`);
        }
    });

    // quickjs-ng#1355 (fixed upstream after the pinned QuickJS): a then
    // getter on Object.prototype re-enters an async generator while one of
    // its requests resolves, and the generator resumes after it completed.
    // The pinned build keeps its assertions, so QuickJS aborts there (a
    // release build reads freed memory): the instance is dropped, the run
    // ends with an error that says so, and the next run works.
    test("an async generator re-entered from Object.prototype.then's getter: the run ends with an error and the next run works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const session = api.createSession();
        const r = await within(run(session, `
            let it, hits = 0, inside = false;
            Object.defineProperty(Object.prototype, "then", { configurable: true, get() {
                if (inside || !it) return undefined;
                inside = true;
                try { hits++; if (hits < 4) { it.next(); it.return(hits); it.throw(hits) } } catch (_) {}
                inside = false;
                return undefined;
            } });
            async function* g() { for (let i = 0; ; i++) { await new Promise((r) => setTimeout(r, 0)); yield i } }
            it = g();
            for (let i = 0; i < 5; i++) it.next().catch(() => {});
            await new Promise((r) => setTimeout(r, 20));
            delete Object.prototype.then;
            return hits`), 60_000);
        assert.notEqual(r, "hung");
        // Today the abort; a QuickJS with the fix gives the count back.
        if (r.ok) assert.equal(typeof r.result, "number");
        else assert.match(r.error.message, /the sandbox crashed and was reset/);
        const next = await run(session, "return typeof Object.prototype.then + ' ' + (1 + 1)");
        assert.equal(next.result, "undefined 2", JSON.stringify(next.error));
    });

    test("C loops over 2^53 - 1 elements end at the timeout, the page's timers fire meanwhile in a Worker, and the next run works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 1000 });
        const session = api.createSession();
        for (const [name, code] of denials) await endsAtTimeout(session, name, code);
    });
});
