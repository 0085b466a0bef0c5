//go:build !js

package sandbox_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

// TestNoBufferChangesUnderTypedArrays: the pinned QuickJS keeps a typed
// array's pointer or length across JavaScript it runs in the middle of a
// builtin (the new.target's prototype getter of a constructor, a valueOf),
// so a buffer detached or resized there gave the program a view past it:
// one over the instance's whole memory from address 0, C stack and other
// runs' leftovers included. The program can neither detach nor resize a
// buffer, so every such view stays inside its buffer; each attempt throws
// a TypeError naming what to do instead. The second run of each is the
// image's (precompile), which must withhold them too.
func TestNoBufferChangesUnderTypedArrays(t *testing.T) {
	e := mustEngine(t, sandbox.Config{MaxInstances: 1, MaxIdleInstances: 1})
	// view builds a Uint8Array over ab whose constructor's prototype lookup
	// runs change(ab); it returns the view's length and the sum of its
	// bytes, or the error change threw.
	const view = `const view = (ab, change) => {
		const nt = function () {}.bind();
		Object.defineProperty(nt, "prototype", { get() { change(ab); return Uint8Array.prototype; } });
		try {
			const u = Reflect.construct(Uint8Array, [ab, 0, ab.byteLength], nt);
			let sum = 0;
			for (let i = 0; i < u.length; i++) sum += u[i];
			return [u.length, ab.byteLength, sum];
		} catch (e) { return e.name + ": " + e.message }
	};
	`
	for _, tc := range []struct{ name, code, want string }{
		{"transfer in a constructor", view + `return view(new ArrayBuffer(4096), (ab) => ab.transfer())`,
			"TypeError: ArrayBuffer.prototype.transfer is not available here: buffer.slice() copies a buffer"},
		{"transferToFixedLength in a constructor", view + `return view(new ArrayBuffer(4096), (ab) => ab.transferToFixedLength())`,
			"TypeError: ArrayBuffer.prototype.transferToFixedLength is not available here: buffer.slice() copies a buffer"},
		{"resize in a constructor", view + `return view(new ArrayBuffer(4096, { maxByteLength: 4096 }), (ab) => ab.resize(0))`,
			"TypeError: ArrayBuffer.prototype.resize is not available here: make a new ArrayBuffer of the size needed and copy the bytes into it"},
		{"resize in with's valueOf", `const ab = new ArrayBuffer(4096, { maxByteLength: 4096 });
			const ta = new Int32Array(ab).fill(7);
			try { const r = ta.with(0, { valueOf() { ab.resize(16); return 1 } }); return [r.length, r[1000]] } catch (e) { return e.name + ": " + e.message }`,
			"TypeError: ArrayBuffer.prototype.resize is not available here: make a new ArrayBuffer of the size needed and copy the bytes into it"},
		{"grow of a SharedArrayBuffer", `try { new SharedArrayBuffer(8, { maxByteLength: 16 }).grow(16) } catch (e) { return e.name + ": " + e.message }`,
			"TypeError: SharedArrayBuffer.prototype.grow is not available here: make a new SharedArrayBuffer of the size needed and copy the bytes into it"},
		// Its callbacks run from the collector, where QuickJS's use after
		// free bugs are (bellard/quickjs#494, quickjs-ng#1318): it is gone,
		// and feature detection sees so; the weak collections stay.
		{"FinalizationRegistry is withheld", `return [typeof FinalizationRegistry, "FinalizationRegistry" in globalThis, Object.getOwnPropertyNames(globalThis).includes("FinalizationRegistry"), typeof WeakRef, typeof WeakMap, typeof WeakSet]`,
			`["undefined",false,false,"function","function","function"]`},
		{"the withheld functions cannot be found again", `const p = ArrayBuffer.prototype, names = ["resize", "transfer", "transferToFixedLength"];
			return [names.map((n) => p[n].name === n && !/native code/.test(String(p[n]))), Object.getOwnPropertyNames(p).filter((n) => !names.includes(n) && typeof Object.getOwnPropertyDescriptor(p, n).value === "function").sort().join()]`,
			`[[true,true,true],"constructor,slice"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for run := 1; run <= 2; run++ {
				res, err := e.Run(context.Background(), sandbox.Program{Code: tc.code})
				if err != nil || res.Error != nil {
					t.Fatalf("run %d: %v %+v", run, err, res.Error)
				}
				got := strings.Trim(string(res.Value), `"`)
				if got != tc.want {
					t.Fatalf("run %d: got %s, want %s", run, res.Value, tc.want)
				}
			}
		})
	}
}

// TestWithholdingOutlastsTheClock: an instance's first run withholds them
// in its new context on the run's one-time clock; a clock already run out
// (a short timeout on a loaded machine) interrupted that, and the run
// failed with MEMORY_LIMIT where it times out.
func TestWithholdingOutlastsTheClock(t *testing.T) {
	for _, timeout := range []time.Duration{time.Nanosecond, time.Microsecond} {
		e := mustEngine(t, sandbox.Config{})
		res, err := e.Run(context.Background(), sandbox.Program{Code: "return 1", Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		if got := errorCode(res); got != sandbox.CodeTimeout {
			t.Errorf("timeout %v: %q %+v, want TIMEOUT", timeout, got, res.Error)
		}
	}
}

// TestArrayCopiesHoldOnlyWhatTheyRead: the pinned QuickJS made the result
// of toReversed, toSorted, toSpliced and with with every element counted
// before reading one, so a garbage collection while a Proxy's trap ran
// (here: the trap allocates until one runs) took the unread elements for
// values: the words a freed buffer left there, made to read as objects at
// 0xfffffff0, which the collector followed out of the instance's memory
// (a trap: "the sandbox crashed"). Their replacements (withheld.go) read
// into an array that holds only what was read; "answers as V8" pins their
// semantics to V8's answers for the same program (node, December 2026).
func TestArrayCopiesHoldOnlyWhatTheyRead(t *testing.T) {
	e := mustEngine(t, sandbox.Config{MaxInstances: 1, MaxIdleInstances: 1})
	// spray frees buffers of 4,096 NaN-boxed words whose tag is an
	// object's and whose pointer is past the instance's memory; p is an
	// array-like of 4,096 elements whose first read allocates until the
	// collector runs.
	const spray = `const N = 4096;
	for (let k = 0; k < 20; k++) {
		const u = new Uint32Array(N * 2);
		for (let i = 0; i < u.length; i += 2) { u[i] = 0xFFFFFFF0; u[i + 1] = 0xFFFFFFFF; }
	}
	let fired = 0;
	const p = new Proxy([], { has() { return true }, get(t, k) {
		if (k === "length") return N;
		if (!fired) { fired = 1; const junk = []; for (let i = 0; i < 100000; i++) junk.push({ i }); }
		return 1;
	} });
	`
	for _, tc := range []struct{ name, code, want string }{
		{"toReversed", spray + "const r = Array.prototype.toReversed.call(p); return [r.length, r[0], fired]", "[4096,1,1]"},
		{"toSorted", spray + "const r = Array.prototype.toSorted.call(p); return [r.length, r[0], fired]", "[4096,1,1]"},
		{"toSpliced", spray + "const r = Array.prototype.toSpliced.call(p, 0, 0); return [r.length, r[0], fired]", "[4096,1,1]"},
		{"with", spray + "const r = Array.prototype.with.call(p, 0, 5); return [r.length, r[0], fired]", "[4096,5,1]"},
		{"answers as V8", `const out = [];
const t = (f) => { try { out.push(JSON.stringify(f())) } catch (e) { out.push(e.name) } };
const a = [3, 1, , 2];
t(() => a.toReversed());
t(() => a.toSorted());
t(() => a.toSorted((x, y) => y - x));
t(() => [..."hello"].toSorted());
t(() => [undefined, 3, , 1].toSorted());
t(() => a.toSpliced());
t(() => a.toSpliced(1));
t(() => a.toSpliced(undefined));
t(() => a.toSpliced(1, 1));
t(() => a.toSpliced(-2, 1, "x", "y"));
t(() => a.toSpliced(1, -5, "z"));
t(() => a.toSpliced(10, 1, "z"));
t(() => a.toSpliced(-10, Infinity));
t(() => a.with(0, 9));
t(() => a.with(-1, 9));
t(() => a.with(2, 9));
t(() => a.with(4, 9));
t(() => a.with(-5, 9));
t(() => a.with("1", 9));
t(() => a.toSorted("x"));
t(() => a.toSorted(null));
t(() => Array.prototype.toReversed.call({ length: 3, 0: "a", 2: "c" }));
t(() => Array.prototype.with.call({ length: 2.7, 0: "a" }, 1, "b"));
t(() => Array.prototype.toSorted.call("cab"));
t(() => Array.prototype.toReversed.call(null));
t(() => Array.prototype.toSpliced.call(undefined));
t(() => Array.prototype.toReversed.call({ length: 2 ** 32 }));
t(() => Array.prototype.toSpliced.call({ length: 2 ** 53 - 1 }, 0, 0, 1));
t(() => Array.prototype.with.call({ length: -3 }, 0, 1));
t(() => Array.prototype.toReversed.call({ length: "2", 0: 1, 1: 2 }));
t(() => [Array.prototype.toReversed.length, Array.prototype.toSorted.length, Array.prototype.toSpliced.length, Array.prototype.with.length]);
t(() => ["toReversed", "toSorted", "toSpliced", "with"].map((n) => Array.prototype[n].name === n && !Object.getOwnPropertyDescriptor(Array.prototype, n).enumerable));
t(() => { try { new Array.prototype.toReversed(); return "constructed" } catch (e) { return e.name } });
t(() => { const r = a.toSorted(); return [Array.isArray(r), Object.getPrototypeOf(r) === Array.prototype, r !== a, a.length, 2 in a] });
t(() => { class B extends Array {} const b = B.from([2, 1]); const r = b.toSorted(); return [r instanceof B, r.constructor === Array] });
t(() => { const log = []; const p = new Proxy([1, 2, 3], { get(t, k) { log.push(String(k)); return t[k] } }); p.toReversed(); p.with(1, 0); p.toSpliced(1, 1); return log });
t(() => { let n = 0; const o = { length: 3, get 0() { n++; return 1 }, get 1() { throw new RangeError("boom") } }; try { Array.prototype.toSorted.call(o) } catch (e) { return [e.message, n] } });
t(() => [1, 2, 3].with({ valueOf() { return 1 } }, 0));
t(() => Array.prototype.toReversed.call({ length: 1n }));
return out;`, `["[2,null,1,3]","[1,2,3,null]","[3,2,1,null]","[\"e\",\"h\",\"l\",\"l\",\"o\"]","[1,3,null,null]","[3,1,null,2]","[3]","[]","[3,null,2]","[3,1,\"x\",\"y\",2]","[3,\"z\",1,null,2]","[3,1,null,2,\"z\"]","[]","[9,1,null,2]","[3,1,null,9]","[3,1,9,2]","RangeError","RangeError","[3,9,null,2]","TypeError","TypeError","[\"c\",null,\"a\"]","[\"a\",\"b\"]","[\"a\",\"b\",\"c\"]","TypeError","TypeError","RangeError","TypeError","RangeError","[2,1]","[0,1,2,2]","[true,true,true,true]","\"TypeError\"","[true,true,true,4,false]","[false,true]","[\"toReversed\",\"length\",\"2\",\"1\",\"0\",\"with\",\"length\",\"0\",\"2\",\"toSpliced\",\"length\",\"0\",\"2\"]","[\"boom\",1]","[1,0,3]","TypeError"]`},
	} {
		t.Run(tc.name, func(t *testing.T) { answersTwice(t, e, tc.code, tc.want) })
	}
}

// TestProxyKeysFitQuickJSTable: QuickJS sizes its table of a Proxy's
// ownKeys as 8 bytes times their count in a 32-bit size_t
// (bellard/quickjs#535, open upstream): an array-like of 2^29 keys failed
// an assertion (a table of 0 bytes), and one of 2^29 + 1 made a table of
// 8 bytes that the program's keys were written past (a trap in
// JS_FreeAtomStruct as the run failed). The sandbox's Proxy copies what
// the trap returns into a new array, its length read once, and refuses
// 2^29 keys or more; "answers as V8" pins the constructor's and the traps'
// behaviour to V8's answers for the same program (node, December 2026).
func TestProxyKeysFitQuickJSTable(t *testing.T) {
	e := mustEngine(t, sandbox.Config{MaxInstances: 1, MaxIdleInstances: 1})
	keys := func(n string) string {
		return `const keys = new Proxy({}, { get(t, k) { if (k === "length") return ` + n + `; const i = Number(k); if (i < 64) return "k" + i; throw new Error("stop") } });
		try { return Object.keys(new Proxy({}, { ownKeys() { return keys } })).length } catch (e) { return e.name + ": " + e.message }`
	}
	for _, tc := range []struct{ name, code, want string }{
		{"2^29 keys", keys("0x20000000"), `"RangeError: proxy: ownKeys returned 536870912 keys; at most 536870911 are possible"`},
		{"2^29 + 1 keys", keys("0x20000001"), `"RangeError: proxy: ownKeys returned 536870913 keys; at most 536870911 are possible"`},
		{"a length that grows when read again", `let n = 0; const flip = { get length() { return n++ ? 0x20000001 : 2 }, 0: "a", 1: "b" };
			return Object.keys(new Proxy({ a: 1, b: 2 }, { ownKeys() { return flip } })).join()`, `"a,b"`},
		{"after the program set Object.prototype.get and ownKeys", `Object.prototype.get = function () { return "inherited" }; Object.prototype.value = 1;
			const p = new Proxy({ a: 1 }, {}); const q = new Proxy({ b: 2 }, { ownKeys: () => ["b"] });
			const r = [p.a, Object.keys(p).join(), Object.keys(q).join()];
			delete Object.prototype.get; delete Object.prototype.value; return r.join(" ")`, `"inherited a b"`},
		{"a trap's this is the program's handler", `const h = { n: 0, get(t, k) { this.n++; return this === h } };
			const p = new Proxy({}, h); const a = p.a; p.b;
			const { proxy } = Proxy.revocable({}, h); const b = proxy.c;
			const bare = new Proxy({ x: 1 }, { __proto__: h }); const c = bare.x;
			return [h.n, a, b, c, Object.hasOwn(h, "n")].join()`, `"3,true,true,false,true"`},
		{"a proxy without traps, Object.prototype.value set", `Object.prototype.value = 1;
			const p = new Proxy({ get acc() { return 5 } }, {}); Object.defineProperty(p, "g", { __proto__: null, get() { return 3 }, enumerable: true });
			const d = Object.getOwnPropertyDescriptor(p, "acc");
			const r = [p.acc, p.g, Object.keys(p).join(), typeof d.get, Object.hasOwn(d, "value"), JSON.stringify({ ...p })];
			delete Object.prototype.value; return r.join(" ")`, `"5 3 acc,g function false {\"acc\":5,\"g\":3}"`},
		{"answers as V8", `const out = [];
const log = [];
const h = { get(t, k, r) { log.push("get " + String(k)); return k === "x" ? 42 : Reflect.get(t, k, r) } };
const p = new Proxy({ a: 1 }, h);
out.push(p.x, p.a, Object.keys(p).join(), "a" in p);
h.has = (t, k) => k === "zz"; out.push("zz" in p, "a" in p);
h.ownKeys = () => ["a", "b"]; try { out.push(Object.keys(p).join()) } catch (e) { out.push(e.message) }
h.getOwnPropertyDescriptor = (t, k) => ({ value: 1, enumerable: true, configurable: true }); try { out.push(JSON.stringify(Object.keys(new Proxy({}, { ownKeys: () => ["q"], getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }) })))) } catch (e) { out.push(e.message) }
const f = new Proxy(function (a, b) { return a + b }, {}); out.push(f(1, 2), typeof f, new Proxy(class { constructor(v) { this.v = v } }, {}).name);
const C = new Proxy(class K { constructor(v) { this.v = v } }, { construct(t, args) { return { made: args[0] } } }); out.push(JSON.stringify(new C(5)));
const { proxy, revoke } = Proxy.revocable({ a: 1 }, {}); out.push(proxy.a); revoke(); try { proxy.a } catch (e) { out.push(e.name) }
try { Proxy({}, {}) } catch (e) { out.push(e.name) }
try { new Proxy({}, null) } catch (e) { out.push(e.name) }
try { new Proxy(1, {}) } catch (e) { out.push(e.name) }
out.push(Proxy.name, Proxy.length, typeof Proxy.prototype, typeof Proxy.revocable, Proxy.revocable.length);
const self = { tag: "T", get(t, k) { return this.tag + String(k) } }; out.push(new Proxy({}, self).z);
try { Object.keys(new Proxy({}, { ownKeys: () => [1] })) } catch (e) { out.push(e.name) }
try { Object.keys(new Proxy({}, { ownKeys: () => 5 })) } catch (e) { out.push(e.name) }
try { Object.keys(new Proxy({}, { ownKeys: () => ["a", "a"] })) } catch (e) { out.push(e.name) }
try { Object.keys(new Proxy(Object.preventExtensions({ a: 1 }), { ownKeys: () => [] })) } catch (e) { out.push(e.name) }
out.push(JSON.stringify({ ...new Proxy({ a: 1, b: 2 }, {}) }), JSON.stringify(new Proxy([1, 2], {})), Array.isArray(new Proxy([], {})));
for (const k in new Proxy({ m: 1, n: 2 }, { ownKeys: () => ["n", "m"] })) out.push("for-in " + k);
return out;`, `[42,1,"a",true,true,false,"a","[\"q\"]",3,"function","","{\"made\":5}",1,"TypeError","TypeError","TypeError","TypeError","Proxy",2,"undefined","function",2,"Tz","TypeError","TypeError","TypeError","TypeError","{\"a\":1,\"b\":2}","[1,2]",true,"for-in n","for-in m"]`},
	} {
		t.Run(tc.name, func(t *testing.T) { answersTwice(t, e, tc.code, tc.want) })
	}
}

// answersTwice runs code twice on e, the second time on the instance the
// first left (its image written back), and wants its value, want, each time.
func answersTwice(t *testing.T, e *sandbox.Engine, code, want string) {
	t.Helper()
	for run := 1; run <= 2; run++ {
		res, err := e.Run(context.Background(), sandbox.Program{Code: code, Timeout: time.Minute})
		if err != nil || res.Error != nil {
			t.Fatalf("run %d: %v %+v", run, err, res.Error)
		}
		if got := string(res.Value); got != want {
			t.Fatalf("run %d: got %s, want %s", run, got, want)
		}
	}
}
