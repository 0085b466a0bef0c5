//go:build js && wasm

package jsbridge

import (
	"errors"
	"testing"
)

// TestToJSONStrictLongArrayPath: an array past the limit is an
// *ArrayTooLongError naming where it is under the value, as a tool
// result's conversion does (tojson.mjs), so that an interceptor's
// replacement input says which of its arrays is too long.
func TestToJSONStrictLongArrayPath(t *testing.T) {
	for _, tc := range []struct{ name, expr, path string }{
		{"the value itself", "L()", ""},
		{"a property", "({a: 1, list: L()})", ".list"},
		{"after finished siblings", "({x: {y: [1, {z: 2}]}, z: [[], [3, L()]]})", ".z[1][1]"},
		{"keys that are not names", `({"b c": {"1a": [{$k: {_1: L()}}]}})`, `["b c"]["1a"][0].$k._1`},
		{"under a toJSON", "({d: {toJSON: () => ({e: L()})}})", ".d.e"},
		{"the same object twice", "(o => ({p: o, q: [o, {r: L()}]}))({s: [1]})", ".q[1].r"},
	} {
		// L() is a sparse array of 11 elements; the limit is 10.
		v := global.Get("Function").New("const L = () => { const a = []; a.length = 11; return a }; return " + tc.expr).Invoke()
		_, err := ToJSONStrict(v, 10)
		var long *ArrayTooLongError
		if !errors.As(err, &long) {
			t.Errorf("%s: got error %v, want an *ArrayTooLongError", tc.name, err)
			continue
		}
		if long.Len != 11 || long.Path != tc.path {
			t.Errorf("%s: got length %d at %q, want 11 at %q", tc.name, long.Len, long.Path, tc.path)
		}
	}
	// Within the limit, the same shapes convert as JSON.stringify writes them.
	v := global.Get("Function").New(`return {x: {y: [1, {z: 2}]}, "b c": [[], [3, {$k: [0]}]]}`).Invoke()
	raw, err := ToJSONStrict(v, 10)
	if want := jsonObj.Call("stringify", v).String(); err != nil || string(raw) != want {
		t.Errorf("got %s, %v; want %s", raw, err, want)
	}
}

// TestToJSONStrictCycle: a value inside itself is refused in one text, not
// in the engine's words (V8's "Converting circular structure to JSON -->
// starting at ..."), which differ by engine; what else stringify throws
// keeps its own message, and an object met twice but not inside itself is
// no cycle.
func TestToJSONStrictCycle(t *testing.T) {
	const cycle = "value is not JSON data: it holds a circular reference"
	for _, tc := range []struct{ name, expr, want string }{
		{"the value itself", "(o => (o.self = o, o))({a: 1})", cycle},
		{"deep inside", "(o => (o.a.b.push({up: o.a}), o))({a: {b: [1]}})", cycle},
		{"an array in itself", "(a => (a.push([a]), a))([1])", cycle},
		{"through a toJSON", "(o => (o.p = {toJSON: () => o}, o))({})", cycle},
		{"a getter that throws", "({get a() { throw new Error('boom') }})", "value is not JSON-serialisable: Error: boom"},
		{"a BigInt after an object", "({a: {b: 1}, c: 10n})", "value is not JSON-serialisable: TypeError: Do not know how to serialize a BigInt"},
	} {
		v := global.Get("Function").New("return " + tc.expr).Invoke()
		_, err := ToJSONStrict(v, 10)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
	v := global.Get("Function").New(`const o = {s: [1]}; return {p: o, q: [o, {r: o}]}`).Invoke()
	raw, err := ToJSONStrict(v, 10)
	if want := jsonObj.Call("stringify", v).String(); err != nil || string(raw) != want {
		t.Errorf("the same object twice: got %s, %v; want %s", raw, err, want)
	}
}

// TestToJSONStrictDepth: a value nested past StrictMaxDepth is refused,
// saying so, before JSON.stringify's recursion (a call into Go's replacer
// per level) overflows the engine's stack inside Go: 100,000 levels ended
// the Go program (and this test). At the limit it converts.
func TestToJSONStrictDepth(t *testing.T) {
	nest := global.Get("Function").New("n", "leaf", "let v = leaf; for (let i = 0; i < n; i++) v = Array.isArray(leaf) ? [v] : { a: v }; return v")
	for _, tc := range []struct {
		name string
		n    int
		leaf any
		want string
	}{
		{"objects, 100,000 levels", 100000, NewObject(), "value is not JSON data: it nests more than 1,000 levels deep"},
		{"arrays, 100,000 levels", 100000, NewArray(), "value is not JSON data: it nests more than 1,000 levels deep"},
		{"objects, 1,001 levels", StrictMaxDepth, NewObject(), "value is not JSON data: it nests more than 1,000 levels deep"},
		{"objects, 1,000 levels", StrictMaxDepth - 1, NewObject(), ""},
	} {
		v := nest.Invoke(tc.n, tc.leaf)
		raw, err := ToJSONStrict(v, 10)
		if tc.want == "" {
			if want := jsonObj.Call("stringify", v).String(); err != nil || string(raw) != want {
				t.Errorf("%s: got %.40s, %v; want %.40s", tc.name, raw, err, want)
			}
			continue
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}
