//go:build !js

package sandbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

// TestUnwritableValues: the conversion of host functions' arguments and of
// the result refuses nesting past 1,000 levels itself, with or without a
// prelude (the context's own JSON.stringify recursed past the host engine's
// native stack, V8's some 5,000 levels in), and a value whose shape JSON
// cannot write (too deep, an object inside itself, through a Map too) goes
// to Func.Unwritable, that argument nil, when the function has one; what a
// getter threw, its own stringify's errors among them, is thrown as it is.
// A prelude's JSON.stringify is not the conversion's: its replacer ran for
// every value of every argument, beside the conversion's own.
func TestUnwritableValues(t *testing.T) {
	e := mustEngine(t, sandbox.Config{})
	var mu sync.Mutex
	var got string
	funcs := map[string]sandbox.Func{
		"f": {Sync: func(args []json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(fmt.Sprint(len(args[0]))), nil
		}},
		"g": {Sync: func(args []json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`"called"`), nil
		}, Unwritable: func(args []json.RawMessage, i int, why sandbox.Unwritable) (json.RawMessage, error) {
			mu.Lock()
			defer mu.Unlock()
			got = fmt.Sprintf("%d %d %q", i, why, args)
			return json.RawMessage(`"unwritable"`), nil
		}},
	}
	const nest = "const nest = (d) => { let v = {}; for (let i = 0; i < d; i++) v = { a: v }; return v };\nconst o = { a: 1 }; o.self = o;\n"
	const deep = `"RangeError: JSON.stringify: the value nests more than 1,000 levels deep"`
	const counting = `(f, g) => {
		const S = JSON.stringify; let n = 0;
		JSON.stringify = (v, r, sp) => S(v, function (k, x) { n++; return r ? r.call(this, k, x) : x }, sp);
		globalThis.fns = { f, g }; globalThis.count = () => n;
	}`
	for _, tc := range []struct {
		name, prelude, code, want, got string
	}{
		{"1,001 objects pass", "", `return f(nest(1000)) > 0`, `true`, ""},
		{"1,002 objects", "", `try { return f(nest(1001)) } catch (e) { return e.name + ": " + e.message }`, deep, ""},
		{"100,000 objects", "", `try { return f({ x: [nest(1e5)] }) } catch (e) { return e.name + ": " + e.message }`, deep, ""},
		{"a cycle", "", `try { return f(o) } catch (e) { return e.name + ": " + e.message }`, `"TypeError: circular reference"`, ""},
		{"too deep, to Unwritable", "", `return g(1, { x: nest(5000) }, "x")`, `"unwritable"`, `1 1 ["1" "" "\"x\""]`},
		{"a cycle, to Unwritable", "", `return g(o)`, `"unwritable"`, `0 2 [""]`},
		{"a Map that holds itself, to Unwritable", "", `const m = new Map(); m.set("m", m); return g({ m })`, `"unwritable"`, `0 2 [""]`},
		{"a cycle deep inside, through an array", "", `const p = { rows: [{ id: 1 }] }; p.rows[0].parent = p; return g(p)`, `"unwritable"`, `0 2 [""]`},
		{"an object twice, not inside itself", "", `const n = { n: 1 }; return g({ a: n, b: [n, n], c: { d: n } })`, `"called"`, ""},
		{"a getter's own error", "", `try { return g({ get a() { throw new TypeError("mine") } }) } catch (e) { return e.name + ": " + e.message }`, `"TypeError: mine"`, ""},
		{"a getter's own stringify of a cycle", "", `try { return g({ b: {}, get a() { return JSON.stringify(o) } }) } catch (e) { return e.name + ": " + e.message }`, `"TypeError: circular reference"`, ""},
		{"a getter's own stringify too deep", "", `try { return g({ b: [{ c: 1 }], get a() { return f(nest(1001)) } }) } catch (e) { return e.name + ": " + e.message }`, deep, ""},
		{"a result of 1,002 objects", "", `return nest(1001)`, "", ""},
		{"a prelude's stringify is not the conversion's", counting, `fns.f({ a: [1, 2, { b: 3 }] }); fns.g(new Map([["m", [1]]])); return count()`, `0`, ""},
		{"nor with a cycle", counting, `return [fns.g(o), count()]`, `["unwritable",0]`, `0 2 [""]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got = ""
			p := sandbox.Program{Code: nest + tc.code, Funcs: funcs, Body: true, Timeout: 30 * time.Second}
			if tc.prelude != "" {
				p.Prelude, p.Hidden = tc.prelude, true
			}
			res, err := e.Run(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if res.Error == nil || res.Error.Code != sandbox.CodeNotSerializable || res.Error.Message != "the result cannot be converted to JSON: JSON.stringify: the value nests more than 1,000 levels deep" {
					t.Errorf("got %.100s %+v, want the result refused as too deep", res.Value, res.Error)
				}
				return
			}
			if res.Error != nil || string(res.Value) != tc.want {
				t.Errorf("got %s %+v, want %s", res.Value, res.Error, tc.want)
			}
			if got != tc.got {
				t.Errorf("Unwritable got %s, want %s", got, tc.got)
			}
		})
	}
}
