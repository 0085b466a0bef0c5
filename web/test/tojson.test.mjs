// @mode-independent: the page's conversion alone; no engine runs.
// tojson.mjs: a page tool's result by a run's result rules, each change
// reported with its path, in one pass (a getter runs once).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./helpers.mjs";

const { MAX_ARRAY_LEN, SHOWN_ARRAY_LEN, notDataKind, toJSON } = await import(pathToFileURL(join(root, "web", "src", "tojson.mjs")).href);

test("toJSON: JSON data as JSON.stringify writes it, everything else by the rules with its path", () => {
    let reads = 0;
    const shared = { s: new Set() };
    const cases = [
        [{ id: 5, name: "item-5", tags: ["alpha", "beta"], active: false }, '{"id":5,"name":"item-5","tags":["alpha","beta"],"active":false}', []],
        [1, "1", []],
        ["s", '"s"', []],
        [null, "null", []],
        [undefined, undefined, []],
        [{ a: undefined }, "{}", []],
        [new Date(0), '"1970-01-01T00:00:00.000Z"', []],
        [{ d: new Date(0) }, '{"d":"1970-01-01T00:00:00.000Z"}', []],
        [Object.create(null), "{}", []],
        [new (class A { x = 1 })(), '{"x":1}', []],
        [{ get g() { reads++; return 2; } }, '{"g":2}', []],
        [[1, undefined], "[1,null]", ["r[1]: undefined, converted to null"]],
        [{ m: new Map([["a", 1]]) }, '{"m":{"a":1}}', ["r.m: a Map, converted to an object"]],
        [10n, '"10"', ["r: a BigInt, converted to a string"]],
        [{ b: 1n }, '{"b":"1"}', ["r.b: a BigInt, converted to a string"]],
        [NaN, '"NaN"', ['r: NaN, converted to the string "NaN"']],
        [[Infinity], '["Infinity"]', ['r[0]: Infinity, converted to the string "Infinity"']],
        [() => 1, undefined, ["r: a function, which is not data: no value"]],
        [{ f() {} }, "{}", ["r.f: a function, which is not data: omitted"]],
        [[() => 1], "[null]", ["r[0]: a function, which is not data: converted to null"]],
        [{ s: Symbol("x") }, '{"s":"Symbol(x)"}', ['r.s: a symbol, converted to the string "Symbol(x)"']],
        [new Set([1]), "[1]", ["r: a Set, converted to an array"]],
        [{ toJSON: () => new Map() }, "{}", ["r: a Map, converted to an object"]],
        [{ "a-b": { c: new Set() } }, '{"a-b":{"c":[]}}', ['r["a-b"].c: a Set, converted to an array']],
        // Paths after siblings JSON has finished with, deep, and of an
        // object met twice (each time under its own path).
        [
            { a: { b: [1, { c: new Set() }] }, d: [new Map()], e: { f: NaN }, g: shared, h: [{ i: shared }] },
            '{"a":{"b":[1,{"c":[]}]},"d":[{}],"e":{"f":"NaN"},"g":{"s":[]},"h":[{"i":{"s":[]}}]}',
            ["r.a.b[1].c: a Set, converted to an array", "r.d[0]: a Map, converted to an object", 'r.e.f: NaN, converted to the string "NaN"', "r.g.s: a Set, converted to an array", "r.h[0].i.s: a Set, converted to an array"],
        ],
    ];
    for (const [value, json, warnings] of cases) {
        assert.deepEqual(toJSON(value, "r"), { json, warnings }, String(json));
    }
    assert.equal(reads, 1, "a getter runs once");
});

test("toJSON: an object JSON reads as {} (a Response, Headers, data in getters) is reported once JSON passed over it, and no trap runs for it", () => {
    const none = "converted to {}: JSON reads only an object's own properties, and it has none";
    let traps = 0;
    class Z {}
    const proxy = new Proxy(new Z(), {
        ownKeys(t) {
            traps++;
            return Reflect.ownKeys(t);
        },
    });
    const cases = [
        [new Response("{}"), "{}", [`r: a Response object, ${none} (read its body first: await res.json() or await res.text())`]],
        [{ h: new Headers({ a: "1" }), q: [new URLSearchParams("a=1")] }, '{"h":{},"q":[{}]}', [`r.h: a Headers object, ${none}`, `r.q[0]: a URLSearchParams object, ${none}`]],
        [{ o: new (class Order { get total() { return 5; } })() }, '{"o":{}}', [`r.o: an Order object, ${none}`]],
        [{ o: Object.create({ a: 1 }) }, '{"o":{}}', [`r.o: an object, ${none}`]],
        [{ p: proxy }, '{"p":{}}', [`r.p: a Z object, ${none}`]],
        [{ x: [1, [2]], y: [{ z: new Z() }] }, '{"x":[1,[2]],"y":[{"z":{}}]}', [`r.y[0].z: a Z object, ${none}`]],
        // As JSON reads them: own data, boxed primitives, a URL's toJSON.
        [[new (class A { x = 1 })(), new String("s"), new Number(2), new Boolean(false), new URL("http://x/")], '[{"x":1},"s",2,false,"http://x/"]', []],
    ];
    for (const [value, json, warnings] of cases) {
        assert.deepEqual(toJSON(value, "r"), { json, warnings }, String(json));
    }
    assert.equal(traps, 1, "the Proxy's ownKeys runs once, as JSON.stringify runs it");
});

// An object of a class with own data: JSON wrote the data and left its
// class's getters out, with no word (the sandbox's result says the same).
test("toJSON: an object with own data loses its class's getters, which are named once per class, none run", () => {
    let ran = 0;
    class Summary {
        constructor() {
            this.rows = [1];
        }
        get total() {
            return ++ran;
        }
        list() {}
    }
    class C {
        z = 3;
    }
    const said = "r.s: a Summary object: its getters (total) are its class's, which JSON does not read";
    const cases = [
        [{ s: new Summary() }, '{"s":{"rows":[1]}}', [said]],
        [{ s: new Summary(), c: new C(), t: [new Summary()] }, '{"s":{"rows":[1]},"c":{"z":3},"t":[{"rows":[1]}]}', [said]],
    ];
    for (const [value, json, warnings] of cases) {
        assert.deepEqual(toJSON(value, "r"), { json, warnings }, String(json));
    }
    assert.equal(ran, 0, "no getter ran");
});

test("toJSON: ArrayBuffer, SharedArrayBuffer and DataView become their bytes, WeakMap/WeakSet {} and WeakRef null, each reported", () => {
    const buffer = new Uint8Array([1, 2, 3, 255]).buffer;
    const shared = new SharedArrayBuffer(3);
    new Uint8Array(shared).set([7, 0, 255]);
    const cases = [
        [{ b: buffer }, '{"b":[1,2,3,255]}', ["r.b: an ArrayBuffer, converted to an array of its bytes"]],
        [[new ArrayBuffer(0)], "[[]]", ["r[0]: an ArrayBuffer, converted to an array of its bytes"]],
        // It was {} ("a SharedArrayBuffer object, converted to {}"), while
        // a typed array over it gave its numbers.
        [{ s: shared, u: new Uint8Array(shared, 1) }, '{"s":[7,0,255],"u":[0,255]}', ["r.s: a SharedArrayBuffer, converted to an array of its bytes", "r.u: a typed array, converted to an array"]],
        [{ d: new DataView(buffer, 1, 2) }, '{"d":[2,3]}', ["r.d: a DataView, converted to an array of its bytes"]],
        [{ w: new WeakMap([[{}, 1]]) }, '{"w":{}}', ["r.w: a WeakMap, which cannot be listed: converted to {}"]],
        [[new WeakSet()], "[{}]", ["r[0]: a WeakSet, which cannot be listed: converted to {}"]],
        [{ r: new WeakRef({ a: 1 }) }, '{"r":null}', ["r.r: a WeakRef, which is not data: converted to null"]],
        [new WeakMap(), "{}", ["r: a WeakMap, which cannot be listed: converted to {}"]],
    ];
    for (const [value, json, warnings] of cases) {
        assert.deepEqual(toJSON(value, "r"), { json, warnings }, String(json));
    }
});

// A tool returning map.values() or a generator: {} with no warning before,
// an empty result to the model; now null and said, not consumed, as in
// the sandbox.
test("toJSON: an iterator becomes null, not consumed, and is reported", () => {
    let ran = false;
    const cases = [
        [new Map([["a", 1]]).values(), "null", ["r: an iterator, which is not data: converted to null (to return its values, spread it: [...it] or Array.from(it))"]],
        [{ ids: new Set([1]).values(), m: "ab".matchAll(/./g) }, '{"ids":null,"m":null}', ["r.ids: an iterator, which is not data: converted to null (to return its values, spread it: [...it] or Array.from(it))", "r.m: an iterator, which is not data: converted to null (to return its values, spread it: [...it] or Array.from(it))"]],
        [[(function* () { ran = true; yield 1; })()], "[null]", ["r[0]: an iterator, which is not data: converted to null (to return its values, spread it: [...it] or Array.from(it))"]],
        // A streaming tool's async generator was {} with no warning.
        [{ rows: (async function* () { ran = true; yield 1; })() }, '{"rows":null}', ["r.rows: an async iterator, which is not data: converted to null (to return its values, collect them: for await (const x of it) list.push(x))"]],
    ];
    for (const [value, json, warnings] of cases) {
        assert.deepEqual(toJSON(value, "r"), { json, warnings }, String(json));
    }
    assert.equal(ran, false, "the generator did not run");
});

// The count of what a report leaves out agrees with its noun: "… and 1
// more value converted", not "1 more values" (the core's words too).
test("toJSON: past 20 conversions the rest are counted, one in the singular", () => {
    for (const [n, last] of [[21, "… and 1 more value converted"], [22, "… and 2 more values converted"]]) {
        const { warnings } = toJSON(Array.from({ length: n }, () => NaN), "r");
        assert.equal(warnings.length, 21);
        assert.equal(warnings[20], last);
    }
});

// The core keeps 2,000 bytes of a report (a log line): a report is cut to
// 4,096 characters, the same as the whole one that far, before the core
// takes it in (a key of millions of characters was quoted whole in each).
test("toJSON: a report under a long key is cut to 4,096 characters, as the whole report begins", () => {
    const pair = "😀";
    for (const [what, key] of [
        ["a key JSON quotes", `${"a".repeat(5000)} b`],
        ["a name that is an identifier", "a".repeat(9000)],
        ["a key whose first 4,096 characters are an identifier", `${"a".repeat(5000)}-`],
        ["a pair across the cut", `${"x".repeat(4095 - "r.".length)}${pair.repeat(10)}`],
        ["keys under keys", "k".repeat(3000)],
    ]) {
        const value = { [key]: { [key]: { [key]: new Map() } } };
        const whole = `r${[key, key, key].map((k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`)).join("")}: a Map, converted to an object`;
        const { warnings } = toJSON(value, "r");
        assert.equal(warnings.length, 1, what);
        const [report] = warnings;
        assert.ok(report.length === 4096 || (report.length === 4095 && report.endsWith("x")), `${what}: ${report.length} characters`);
        assert.equal(report, whole.slice(0, report.length), what);
    }
});

test("notDataKind: a function, a Symbol or a BigInt as the value itself, nothing else (not inside, not a boxed one)", () => {
    const cases = [
        [() => 1, "function"],
        [class A {}, "function"],
        [async () => 1, "function"],
        [Symbol("s"), "symbol"],
        [10n, "bigint"],
        [undefined, undefined],
        [null, undefined],
        [0, undefined],
        ["bigint", undefined],
        [{ f() {} }, undefined],
        [[10n], undefined],
        [Object(10n), undefined],
        [Object(Symbol("s")), undefined],
        [new Proxy(() => 1, {}), "function"],
    ];
    for (const [value, want] of cases) assert.equal(notDataKind(value), want, String(typeof value));
});

// The core's array limit (sandbox/convert.go, held to the same table by
// sandbox/arraycap_test.go): a longer array in a tool's result fails at once,
// with its path and the core's words, instead of being written hole by hole
// on the page (a sparse length of 2**24 took 12 s; 2**32-1 never ended).
test("toJSON: an array longer than the core's limit throws the core's words, before its elements are read", () => {
    const { max, rows } = JSON.parse(readFileSync(join(root, "testdata", "arraycap.json"), "utf8"));
    assert.equal(MAX_ARRAY_LEN, max);
    assert.equal(toJSON({ a: new Array(max).fill(0) }, "r").json.length, 2 * max + 7, "the longest array converts");
    for (const { length, message } of rows) {
        const a = [];
        a.length = length;
        for (const [value, path] of [[a, "r"], [{ x: [1, { a }] }, "r.x[1].a"], [new Map([["k", a]]), "r.k"]]) {
            assert.throws(() => toJSON(value, "r"), (err) => err instanceof RangeError && err.message === `${path}: ${message}`, `${path}, length ${length}`);
        }
    }
});

// What a tool threw, shown as text (env.mjs thrownByTool), caps arrays as
// the core's log lines do (testdata/arraycap.json's shown): a long array
// is its first elements and how many more, a typed array (an ArrayBuffer,
// a DataView) an array of its elements, not {"0":1,...}; JSON.stringify
// wrote every element, and a sparse array of 2**32-1 never ended.
test("thrownByTool: a thrown object's long and typed arrays are shown capped, as arrays", async () => {
    const { shown } = JSON.parse(readFileSync(join(root, "testdata", "arraycap.json"), "utf8"));
    assert.equal(SHOWN_ARRAY_LEN, shown);
    const { thrownByTool } = await import(pathToFileURL(join(root, "web", "src", "env.mjs")).href);
    const sparse = [];
    sparse.length = 2 ** 32 - 1;
    const head = (n, x) => Array(n).fill(x);
    const cases = [
        [{ data: new Uint8Array([1, 2, 3]) }, { data: [1, 2, 3] }],
        [{ b: new BigInt64Array([1n, -2n]) }, { b: ["1", "-2"] }],
        [{ buf: new Uint8Array([7, 8]).buffer, view: new DataView(new Uint8Array([5, 6, 7]).buffer, 1) }, { buf: [7, 8], view: [6, 7] }],
        [{ data: new Float64Array(5e6) }, { data: [...head(shown, 0), `… ${5e6 - shown} more items`] }],
        [{ list: sparse }, { list: [...head(shown, null), `… ${2 ** 32 - 1 - shown} more items`] }],
        [{ list: head(shown, 1) }, { list: head(shown, 1) }],
        [{ list: head(shown + 1, 1) }, { list: [...head(shown, 1), "… 1 more item"] }],
    ];
    for (const [thrown, want] of cases) {
        const err = thrownByTool(thrown);
        assert.ok(err instanceof Error);
        assert.deepEqual(JSON.parse(err.message), want);
    }
});
