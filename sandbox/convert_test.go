//go:build !js

package sandbox_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

// TestResultConversion: values JSON cannot hold convert by the documented
// rules, each change reported with its path; plain values pass unreported.
// Every case runs in the three stringify modes: native (no prelude), the
// engine prelude, and the tracker prelude (async host functions).
// invalidDate is the note of an Invalid Date in a result or an input.
const invalidDate = "an Invalid Date, converted to null (new Date(x) of a value that is no date: undefined, or text it cannot read)"

func TestResultConversion(t *testing.T) {
	e := mustEngine(t, sandbox.Config{})
	modes := map[string]sandbox.Program{
		"native":  {},
		"prelude": {Prelude: "globalThis.x = 1"},
		"tracker": {Funcs: map[string]sandbox.Func{"f": {Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) { return nil, nil }}}},
	}
	for _, tc := range []struct {
		name, code, want string
		warnings         []string
	}{
		{"plain", `return {a: 1, b: [true, null, "x"], c: {d: 2.5}}`, `{"a":1,"b":[true,null,"x"],"c":{"d":2.5}}`, nil},
		{"null", `return null`, `null`, nil},
		{"nothing", `return`, ``, nil},
		// An undefined property is left out, as JSON does, and said: a
		// result that lost a misspelt field looked like data without it.
		{"absent property", `return {a: undefined, b: 1}`, `{"b":1}`, []string{"result.a: undefined, so JSON leaves it out"}},
		{"absent properties, said once", `const os = [{id: 1}, {id: 2}, {id: 3}]; return {rows: os.map((o) => ({id: o.id, name: o.name})), n: os.count}`, `{"rows":[{"id":1},{"id":2},{"id":3}]}`,
			[]string{"result.rows[0].name: undefined, so JSON leaves it out (3 more properties are undefined too)"}},
		{"null prototype", `const o = Object.create(null); o.a = 1; return o`, `{"a":1}`, nil},
		{"class instance", `class P { constructor() { this.x = 1 } }; return new P()`, `{"x":1}`, nil},
		{"Date", `return {when: new Date(0)}`, `{"when":"1970-01-01T00:00:00.000Z"}`, nil},
		// Session 46: an Invalid Date (new Date of a field the data lacks)
		// became null with no word.
		{"Invalid Date", `return [{id: 1, due: new Date(undefined)}, new Date("soon")]`, `[{"id":1,"due":null},null]`,
			[]string{"result[0].due: " + invalidDate, "result[1]: " + invalidDate}},
		{"an Invalid Date after 64 nulls is not looked for", `const a = Array(64).fill(null); a.push(new Date(NaN)); return a`, "[" + strings.Repeat("null,", 64) + "null]", nil},
		{"top-level Invalid Date", `return new Date(NaN)`, `null`, []string{"result: " + invalidDate}},
		{"nulls and a null getter stay silent", `let n = 0; return {a: null, b: [null], get c() { n++; return null }, d: {toJSON() { return null }}, get n() { return n }}`, `{"a":null,"b":[null],"c":null,"d":null,"n":1}`, nil},
		{"Invalid Date after the program replaced the descriptor read", `Object.getOwnPropertyDescriptor = () => { throw new Error("ran") }; return {d: new Date(NaN), e: null}`, `{"d":null,"e":null}`, nil},
		{"Invalid Date after the program deleted Date", `const D = Date; delete globalThis.Date; class Z {} return {d: new D(NaN), e: null, z: new Z()}`, `{"d":null,"e":null,"z":{}}`, []string{"result.z: a Z object, converted to {}: JSON reads only an object's own properties, and it has none"}},
		{"Map with string keys", `return {m: new Map([["a", 1], ["b", 2]])}`, `{"m":{"a":1,"b":2}}`, []string{"result.m: a Map, converted to an object"}},
		{"Map with other keys", `return new Map([[1, "x"], [{k: 1}, "y"]])`, `[[1,"x"],[{"k":1},"y"]]`, []string{"result: a Map with non-string keys, converted to an array of [key, value] entries"}},
		{"Set", `return {tags: new Set(["a", "b"])}`, `{"tags":["a","b"]}`, []string{"result.tags: a Set, converted to an array"}},
		{"Error", `return [1, new TypeError("bad")]`, `[1,{"name":"TypeError","message":"bad"}]`, []string{"result[1]: an Error, converted to {name, message}"}},
		{"BigInt", `return {n: 12345678901234567890n}`, `{"n":"12345678901234567890"}`, []string{"result.n: a BigInt, converted to a string"}},
		{"top-level BigInt", `return 5n`, `"5"`, []string{"result: a BigInt, converted to a string"}},
		{"NaN and Infinity", `return {a: NaN, b: [Infinity, -Infinity]}`, `{"a":"NaN","b":["Infinity","-Infinity"]}`,
			[]string{`result.a: NaN, converted to the string "NaN"`, `result.b[0]: Infinity, converted to the string "Infinity"`, `result.b[1]: -Infinity, converted to the string "-Infinity"`}},
		{"top-level NaN", `return 0/0`, `"NaN"`, []string{`result: NaN, converted to the string "NaN"`}},
		{"undefined in an array", `return [1, undefined]`, `[1,null]`, []string{"result[1]: undefined, converted to null"}},
		{"function property", `return {f() {}, a: 1}`, `{"a":1}`, []string{"result.f: a function, which is not data: omitted"}},
		{"function in an array", `return [() => 1]`, `[null]`, []string{"result[0]: a function, which is not data: converted to null"}},
		{"top-level function", `return () => 1`, ``, []string{"result: a function, which is not data: no result (the program's value is a function; to run it, call it: end the program with return f(...), or send its body as the program)"}},
		{"symbol", `return {s: Symbol("k")}`, `{"s":"Symbol(k)"}`, []string{`result.s: a symbol, converted to the string "Symbol(k)"`}},
		{"forgotten await", `return {p: Promise.resolve(1)}`, `{"p":null}`, []string{"result.p: a Promise, converted to null (await it)"}},
		{"RegExp", `return {r: /a+/g}`, `{"r":"/a+/g"}`, []string{`result.r: a RegExp, converted to the string "/a+/g"`}},
		{"typed array", `return {bytes: new Uint8Array([1, 2])}`, `{"bytes":[1,2]}`, []string{"result.bytes: a typed array, converted to an array"}},
		{"ArrayBuffer", `const b = new Uint8Array([1, 2, 255]).buffer; return {b}`, `{"b":[1,2,255]}`, []string{"result.b: an ArrayBuffer, converted to an array of its bytes"}},
		// A SharedArrayBuffer was {} with "a SharedArrayBuffer object,
		// converted to {}", while a typed array over it gave its numbers.
		{"SharedArrayBuffer", `const s = new SharedArrayBuffer(3); new Uint8Array(s).set([7, 0, 255]); return {s, u: new Uint8Array(s, 1)}`, `{"s":[7,0,255],"u":[0,255]}`,
			[]string{"result.s: a SharedArrayBuffer, converted to an array of its bytes", "result.u: a typed array, converted to an array"}},
		{"empty ArrayBuffer", `return [new ArrayBuffer(0)]`, `[[]]`, []string{"result[0]: an ArrayBuffer, converted to an array of its bytes"}},
		{"DataView", `const b = new Uint8Array([1, 2, 3, 4]).buffer; return {d: new DataView(b, 1, 2)}`, `{"d":[2,3]}`, []string{"result.d: a DataView, converted to an array of its bytes"}},
		{"WeakMap", `return {w: new WeakMap([[{}, 1]])}`, `{"w":{}}`, []string{"result.w: a WeakMap, which cannot be listed: converted to {}"}},
		{"WeakSet", `return [new WeakSet()]`, `[{}]`, []string{"result[0]: a WeakSet, which cannot be listed: converted to {}"}},
		{"WeakRef", `return {r: new WeakRef({a: 1})}`, `{"r":null}`, []string{"result.r: a WeakRef, which is not data: converted to null"}},
		// An iterator returned for its values (map.values() for
		// Object.values(m)) was {} with no warning: the model read "empty".
		{"a Map's values()", `return new Map([["a", 1]]).values()`, `null`, []string{"result: an iterator, which is not data: converted to null (to return its values, spread it: [...it] or Array.from(it))"}},
		{"a generator, not run", `let ran = false; return {g: (function* () { ran = true; yield 1 })(), get ran() { return ran }}`, `{"g":null,"ran":false}`,
			[]string{"result.g: an iterator, which is not data: converted to null (to return its values, spread it: [...it] or Array.from(it))"}},
		{"matchAll in an array", `return ["ab".matchAll(/./g)]`, `[null]`, []string{"result[0]: an iterator, which is not data: converted to null (to return its values, spread it: [...it] or Array.from(it))"}},
		// An async generator (a streaming tool's, a program's) was {} with
		// no warning, as sync iterators were.
		{"an async generator, not run", `let ran = false; return {g: (async function* () { ran = true; yield 1 })(), get ran() { return ran }}`, `{"g":null,"ran":false}`,
			[]string{"result.g: an async iterator, which is not data: converted to null (to return its values, collect them: for await (const x of it) list.push(x))"}},
		// An object of a class JSON reads as {} (its data in getters or
		// internal state) was {} with no warning. Reported once JSON has
		// passed over it, so a trap or getter runs no more than JSON runs it.
		{"methods only", `class Api { get() { return 1 } } return {api: new Api()}`, `{"api":{}}`,
			[]string{"result.api: an Api object, converted to {}: JSON reads only an object's own properties, and it has none"}},
		{"data in getters", `class Order { #t = 5; get total() { return this.#t } } return [new Order()]`, `[{}]`,
			[]string{"result[0]: an Order object, converted to {}: JSON reads only an object's own properties, and it has none; its getters (total) are its class's, which JSON does not read: return { total: x.total }"}},
		// Up to five getters, not its methods, setters or keys that are no
		// names; a getter that throws runs not at all.
		{"getters named, methods not", `class Summary { get count() { return 1 } get total() { throw new Error("ran") } set note(v) {} list() {} get ["a b"]() { return 1 } get a() {} get b() {} get c() {} get d() {} } return new Summary()`, `{}`,
			[]string{"result: a Summary object, converted to {}: JSON reads only an object's own properties, and it has none; its getters (count, total, a, b, c) are its class's, which JSON does not read: return { count: x.count, total: x.total, a: x.a, b: x.b, c: x.c }"}},
		{"after the program replaced Array's methods", `Array.prototype.join = Array.prototype.map = () => { throw new Error("ran") }; Array.prototype[Symbol.iterator] = function* () {}; class T { get n() { return 1 } } return [new T()]`, `[{}]`,
			[]string{"result[0]: a T object, converted to {}: JSON reads only an object's own properties, and it has none; its getters (n) are its class's, which JSON does not read: return { n: x.n }"}},
		// Own data beside its class's getters: JSON wrote the data and left
		// the getters out, with no word (models43: a Summary's rows kept,
		// its total lost). Said once per class, of the first 20.
		{"own data beside its class's getters", `class Summary { constructor() { this.rows = [1] } get total() { return 1 } list() {} } return {s: new Summary()}`, `{"s":{"rows":[1]}}`,
			[]string{"result.s: a Summary object: its getters (total) are its class's, which JSON does not read: return { ...x, total: x.total }"}},
		{"own data beside getters, once per class", `class A { x = 1; get a() { return 1 } } class B { y = 2; get b() { throw new Error("ran") } } class C { z = 3 } return [new A(), new C(), new A(), new B(), new B()]`, `[{"x":1},{"z":3},{"x":1},{"y":2},{"y":2}]`,
			[]string{"result[0]: an A object: its getters (a) are its class's, which JSON does not read: return { ...x, a: x.a }", "result[3]: a B object: its getters (b) are its class's, which JSON does not read: return { ...x, b: x.b }"}},
		{"own data beside getters, after the program replaced Array's and Set's methods", `Array.prototype.includes = Array.prototype.indexOf = Set.prototype.has = Set.prototype.add = () => { throw new Error("ran") }; class T { n = 1; get m() { return 2 } } return [new T(), new T()]`, `[{"n":1},{"n":1}]`,
			[]string{"result[0]: a T object: its getters (m) are its class's, which JSON does not read: return { ...x, m: x.m }"}},
		{"inherited data", `return {o: Object.create({a: 1})}`, `{"o":{}}`,
			[]string{"result.o: an object, converted to {}: JSON reads only an object's own properties, and it has none"}},
		{"a Proxy of an instance, trap counted", `let n = 0; class Z {} const p = new Proxy(new Z(), { ownKeys(t) { n++; return Reflect.ownKeys(t) } }); return {p, get n() { return n }}`, `{"p":{},"n":1}`,
			[]string{"result.p: a Z object, converted to {}: JSON reads only an object's own properties, and it has none"}},
		{"a class with own data, boxed values: as JSON reads them", `class A { x = 1 } return [new A(), new String("s"), new Number(2), new Boolean(false), new (class E {})]`, `[{"x":1},"s",2,false,{}]`,
			[]string{"result[4]: an E object, converted to {}: JSON reads only an object's own properties, and it has none"}},
		{"odd keys", `return {"a b": new Set([1])}`, `{"a b":[1]}`, []string{`result["a b"]: a Set, converted to an array`}},
		{"nested paths", `return {rows: [{id: 1, at: new Map()}, {id: 2, tags: new Set()}]}`, `{"rows":[{"id":1,"at":{}},{"id":2,"tags":[]}]}`,
			[]string{"result.rows[0].at: a Map, converted to an object", "result.rows[1].tags: a Set, converted to an array"}},
		{"inside a converted value", `return new Map([["k", new Set([1n])]])`, `{"k":["1"]}`,
			[]string{"result: a Map, converted to an object", "result.k: a Set, converted to an array", "result.k[0]: a BigInt, converted to a string"}},
		{"paths after a converted subtree", `return {a: {b: new Map([["x", {y: [1]}]]), c: [1, {d: new Set()}]}, e: [[NaN]]}`, `{"a":{"b":{"x":{"y":[1]}},"c":[1,{"d":[]}]},"e":[["NaN"]]}`,
			[]string{"result.a.b: a Map, converted to an object", "result.a.c[1].d: a Set, converted to an array", `result.e[0][0]: NaN, converted to the string "NaN"`}},
		{"a shared object at two paths", `const o = {s: new Set([1])}; return {a: o, b: [0, o], c: {d: o}}`, `{"a":{"s":[1]},"b":[0,{"s":[1]}],"c":{"d":{"s":[1]}}}`,
			[]string{"result.a.s: a Set, converted to an array", "result.b[1].s: a Set, converted to an array", "result.c.d.s: a Set, converted to an array"}},
		{"toJSON gives a holder of its own", `return {a: {toJSON() { return {m: new Map([["x", NaN]])} }}, b: NaN}`, `{"a":{"m":{"x":"NaN"}},"b":"NaN"}`,
			[]string{"result.a.m: a Map, converted to an object", `result.a.m.x: NaN, converted to the string "NaN"`, `result.b: NaN, converted to the string "NaN"`}},
		{"a Proxy of an array", `return {p: new Proxy([1, new Set([2])], {})}`, `{"p":[1,[2]]}`, []string{"result.p[1]: a Set, converted to an array"}},
		// The value is read once, whether it converts or not: a getter,
		// toJSON or Proxy trap runs as often as the program wrote it.
		{"getter read once", `let n = 0; return {get a() { return ++n }, s: new Set([1])}`, `{"a":1,"s":[1]}`, []string{"result.s: a Set, converted to an array"}},
		{"getter read once, plain", `let n = 0; return {get a() { return ++n }, get b() { return n }}`, `{"a":1,"b":1}`, nil},
		{"getter of a converted value", `let n = 0; return {get a() { n++; return NaN }, get b() { return n }}`, `{"a":"NaN","b":1}`, []string{`result.a: NaN, converted to the string "NaN"`}},
		{"toJSON called once", `let n = 0; return {toJSON() { n++; return {n, m: new Map()} }}`, `{"n":1,"m":{}}`, []string{"result.m: a Map, converted to an object"}},
		{"Proxy read once", `let n = 0; return [new Proxy({}, {ownKeys: () => ["a"], getOwnPropertyDescriptor: () => ({value: 0, enumerable: true, configurable: true}), get: (t, k) => k === "a" ? ++n : undefined}), NaN]`, `[{"a":1},"NaN"]`,
			[]string{`result[1]: NaN, converted to the string "NaN"`}},
		{"getter inside a converted value", `let n = 0; return new Map([["k", {get a() { return ++n }}]])`, `{"k":{"a":1}}`, []string{"result: a Map, converted to an object"}},
	} {
		for mode, base := range modes {
			t.Run(tc.name+"/"+mode, func(t *testing.T) {
				p := base
				p.Code, p.Timeout = tc.code, 10*time.Second
				res, err := e.Run(context.Background(), p)
				if err != nil {
					t.Fatal(err)
				}
				if res.Error != nil {
					t.Fatalf("error %+v", res.Error)
				}
				if string(res.Value) != tc.want {
					t.Errorf("value %s, want %s", res.Value, tc.want)
				}
				if len(res.Warnings) != 0 || len(tc.warnings) != 0 {
					if !reflect.DeepEqual(res.Warnings, tc.warnings) {
						t.Errorf("warnings %q, want %q", res.Warnings, tc.warnings)
					}
				}
			})
		}
	}
}

// TestResultConversionBounded: the report lists 20 paths and counts the rest.
func TestResultConversionBounded(t *testing.T) {
	e := mustEngine(t, sandbox.Config{})
	res, err := e.Run(context.Background(), sandbox.Program{Code: `return Array.from({length: 50}, () => NaN)`, Timeout: 10 * time.Second})
	if err != nil || res.Error != nil {
		t.Fatal(err, res.Error)
	}
	if len(res.Warnings) != 21 || res.Warnings[20] != "… and 30 more values converted" {
		t.Errorf("warnings %q", res.Warnings)
	}
	// One left: its count agrees with its noun ("1 more values" before).
	res, err = e.Run(context.Background(), sandbox.Program{Code: `return Array.from({length: 21}, () => NaN)`, Timeout: 10 * time.Second})
	if err != nil || res.Error != nil {
		t.Fatal(err, res.Error)
	}
	if len(res.Warnings) != 21 || res.Warnings[20] != "… and 1 more value converted" {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// TestConversionTampered: a program that replaced JSON.stringify cannot
// make the host take text that is not JSON. With host functions the
// stringify was captured before the program ran, so the replacement changes
// nothing; without (native), it is taken after, and its text is checked.
func TestConversionTampered(t *testing.T) {
	e := mustEngine(t, sandbox.Config{})
	var got []json.RawMessage
	f := sandbox.Func{Sync: func(a []json.RawMessage) (json.RawMessage, error) { got = append(got, a...); return nil, nil }}
	const replace = `JSON.stringify = () => "{not json";` + "\n"
	for _, tc := range []struct {
		name, code     string
		native         bool
		want, wantCode string
		wantInput      string
	}{
		{name: "result", code: replace + "return new Set([1])", want: "[1]"},
		{name: "plain result", code: replace + "return {a: 1}", want: `{"a":1}`},
		{name: "input", code: replace + "f(new Set([1]), {a: 1}); return 2", want: "2", wantInput: `[1] {"a":1}`},
		{name: "native result", code: replace + "return new Set([1])", native: true, wantCode: "RESULT_NOT_SERIALIZABLE"},
		{name: "native plain result", code: replace + "return {a: 1}", native: true, wantCode: "RESULT_NOT_SERIALIZABLE"},
		{name: "native BigInt", code: replace + "return 5n", native: true, wantCode: "RESULT_NOT_SERIALIZABLE"},
		{name: "native number", code: replace + "return 5", native: true, want: "5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got = nil
			p := sandbox.Program{Code: tc.code, Funcs: map[string]sandbox.Func{"f": f}, Timeout: 10 * time.Second}
			if tc.native {
				p.Funcs = nil
			}
			res, err := e.Run(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			var in []string
			for _, g := range got {
				in = append(in, string(g))
			}
			if strings.Join(in, " ") != tc.wantInput {
				t.Errorf("the host got %q, want %s", in, tc.wantInput)
			}
			if tc.wantCode != "" {
				if res.Error == nil || string(res.Error.Code) != tc.wantCode {
					t.Errorf("got %s %+v, want %s", res.Value, res.Error, tc.wantCode)
				}
				return
			}
			if res.Error != nil || string(res.Value) != tc.want {
				t.Errorf("got %s %+v, want %s", res.Value, res.Error, tc.want)
			}
		})
	}
}

// TestHostResultIntegers: results that look like integers reach the
// program as JSON.parse would give them (the fast path takes only
// well-formed integers; -0, 1.0, +5 and 05 go through the parse).
func TestHostResultIntegers(t *testing.T) {
	e := mustEngine(t, sandbox.Config{})
	for _, tc := range []struct{ raw, want string }{
		{"0", `[0,false]`}, {"7", `[7,false]`}, {"-12", `[-12,false]`}, {"2147483647", `[2147483647,false]`},
		{"2147483648", `[2147483648,false]`}, {"-0", `[0,true]`}, {"1.0", `[1,false]`},
		{"+5", `"SyntaxError"`}, {"05", `"SyntaxError"`}, {"-", `"SyntaxError"`},
	} {
		raw := tc.raw
		for _, kind := range []string{"sync", "async"} {
			f := sandbox.Func{Sync: func([]json.RawMessage) (json.RawMessage, error) { return json.RawMessage(raw), nil }}
			if kind == "async" {
				f = sandbox.Func{Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) { return json.RawMessage(raw), nil }}
			}
			res, err := e.Run(context.Background(), sandbox.Program{Code: "try { const v = await h(); return [v, Object.is(v, -0)] } catch (e) { return e.name }", Funcs: map[string]sandbox.Func{"h": f}})
			if err != nil || res.Error != nil {
				t.Fatalf("%s %s: %v %+v", kind, raw, err, res.Error)
			}
			if string(res.Value) != tc.want {
				t.Errorf("%s result %s: got %s, want %s", kind, raw, res.Value, tc.want)
			}
		}
	}
}

// TestConversionHugeArray: an array longer than any result can hold (a
// sparse a.length = 1e9) fails its conversion at once with its path,
// instead of converting a billion holes until the run's timeout; a tool
// input's failure is the program's to catch.
func TestConversionHugeArray(t *testing.T) {
	e := mustEngine(t, sandbox.Config{})
	f := sandbox.Func{Sync: func([]json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`"called"`), nil }}
	const huge = "const a = []; a.length = 1e9;\n"
	const msg = "an array of 1000000000 elements, more than the 1000000 a result or tool input can hold; return or pass a part of it (a.slice(0, n))"
	for _, tc := range []struct {
		name, code       string
		native           bool
		want, wantErrMsg string
	}{
		{name: "result", code: huge + "return {list: [1, a]}", wantErrMsg: "result.list[1]: " + msg},
		{name: "native result", code: huge + "return a", native: true, wantErrMsg: "result: " + msg},
		{name: "input", code: huge + "try { return f({a}) } catch (e) { return e.name + ': ' + e.message }", want: `"RangeError: input.a: ` + msg + `"`},
		// What becomes an array is held to the same limit (hostile12: a
		// Uint8Array of 5e6 converted in 7 s, an ArrayBuffer of 5e7 in 44).
		{name: "typed array result", code: "return {t: new Uint8Array(1000001)}", wantErrMsg: "result.t: " + sandbox.ArrayTooLong(1000001)},
		{name: "native ArrayBuffer result", code: "return new ArrayBuffer(2e6)", native: true, wantErrMsg: "result: " + sandbox.ArrayTooLong(2000000)},
		{name: "DataView input", code: "try { return f({d: new DataView(new ArrayBuffer(1000001))}) } catch (e) { return e.name + ': ' + e.message }", want: `"RangeError: input.d: ` + sandbox.ArrayTooLong(1000001) + `"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := sandbox.Program{Code: tc.code, Funcs: map[string]sandbox.Func{"f": f}, Timeout: 20 * time.Second}
			if tc.native {
				p.Funcs = nil
			}
			res, err := e.Run(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantErrMsg != "" {
				if res.Error == nil || !strings.Contains(res.Error.Message, tc.wantErrMsg) {
					t.Errorf("got %s %+v, want an error with %q", res.Value, res.Error, tc.wantErrMsg)
				}
				return
			}
			if res.Error != nil || string(res.Value) != tc.want {
				t.Errorf("got %s %+v, want %s", res.Value, res.Error, tc.want)
			}
		})
	}
}

// TestStringArgs: a string argument reaches a host function as the JSON
// JSON.stringify writes for it, whether callFunction reads its bytes itself
// (printable ASCII, at most maxNarrowArg) or leaves it to the stringify
// (escapes, characters past ASCII, lone surrogates, ropes, long strings).
func TestStringArgs(t *testing.T) {
	e := mustEngine(t, sandbox.Config{})
	// h returns the JSON text it got, as a string.
	h := sandbox.Func{Sync: func(args []json.RawMessage) (json.RawMessage, error) { return json.Marshal(string(args[0])) }}
	for _, s := range []string{
		`""`, `"bench.echo"`, `"a b ~ !"`, `"quo\"te"`, `"back\\slash"`, `"tab\tnew\nline"`, `"nul\u0000byte"`, `"\u007f"`,
		`"caf\u00e9"`, `"\u20ac"`, `"\ud800"`, `"a\udc00b"`, `"\ud83d\ude00"`, `"\u2028"`,
		`"x".repeat(1024)`, `"x".repeat(1025)`, `"y".repeat(1023) + "\""`, `(() => { let s = "a".repeat(5000); s += "b".repeat(3000); return s })()`,
	} {
		code := "const s = " + s + ";\nconst got = h(s), want = JSON.stringify(s);\nreturn got === want ? 'same' : [got, want]"
		res, err := e.Run(context.Background(), sandbox.Program{Code: code, Funcs: map[string]sandbox.Func{"h": h}})
		if err != nil || res.Error != nil {
			t.Fatalf("%s: %v %+v", s, err, res.Error)
		}
		if string(res.Value) != `"same"` {
			t.Errorf("%s: [got, want] %s", s, res.Value)
		}
	}
}
