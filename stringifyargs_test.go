package codemode

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
)

// TestStringifyReplacerArgs: the prelude's JSON.stringify hands a replacer
// its key, its value and its holder through one argument list per
// stringify (api.js), which apply copies: the program's replacer and the
// engine's conversion of a tool's input alike get arguments of their own
// on every call, and a stringify begun inside another (a toJSON or a
// replacer that stringifies, a getter of a tool's input that calls a tool
// whose input is converted meanwhile) has a list of its own.
func TestStringifyReplacerArgs(t *testing.T) {
	var mu sync.Mutex
	var got []string
	cm := mustNew(t, Config{Tools: []Tool{{Name: "t.take", Execute: func(_ context.Context, in json.RawMessage, _ Call) (json.RawMessage, error) {
		mu.Lock()
		got = append(got, string(in))
		mu.Unlock()
		return json.RawMessage("1"), nil
	}}}})
	s := mustSession(t, cm)
	for _, tc := range []struct{ name, code, want string }{
		{"a replacer, and a toJSON that stringifies", `const inner = { toJSON: () => JSON.stringify({ c: 3 }, (k, v) => typeof v === "number" ? -v : v) };
return JSON.stringify({ a: [1, { b: 2 }], inner }, function (k, v) { return typeof v === "number" ? v * 10 + (Array.isArray(this) ? 1 : 0) : v })`,
			`"{\"a\":[11,{\"b\":20}],\"inner\":\"{\\\"c\\\":-3}\"}"`},
		{"each call's arguments are its own", `const seen = []; JSON.stringify({ a: 1, b: [2] }, function (k, v) { seen.push(arguments); return v }); return seen.map((a) => [a.length, a[0], typeof a[1]])`,
			`[[2,"","object"],[2,"a","number"],[2,"b","object"],[2,"0","number"]]`},
		{"a replacer that stringifies", `return JSON.stringify({ a: 1, b: 2 }, (k, v) => k === "a" ? JSON.stringify({ x: [v] }, (k2, v2) => typeof v2 === "number" ? v2 + 1 : v2) : v)`,
			`"{\"a\":\"{\\\"x\\\":[2]}\",\"b\":2}"`},
		{"a tool's input converted, a getter calling a tool meanwhile", `const inner = { toJSON: () => JSON.stringify({ c: 3 }, (k, v) => typeof v === "number" ? -v : v) };
let p; await tools.t.take({ m: new Map([["k", [3]]]), get g() { p = tools.t.take({ inner: [1, { z: new Set([2]) }] }); return [5] }, n: [4], inner }); await p; return 1`, `1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if res := exec(t, s, tc.code, nil); !res.OK || string(res.Result) != tc.want {
				t.Errorf("got %s %+v, want %s", res.Result, res.Error, tc.want)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(got)
	if want := []string{`{"inner":[1,{"z":[2]}]}`, `{"m":{"k":[3]},"g":[5],"n":[4],"inner":"{\"c\":-3}"}`}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("the tool got %q, want %q", got, want)
	}
}
