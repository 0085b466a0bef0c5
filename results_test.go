package codemode

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestFaithfulResults: through ExecuteCode, values JSON cannot hold convert
// by the documented rules and each change is a warn log naming its path; a
// result over MaxResultChars is cut structurally and stays valid JSON of
// the same shape.
func TestFaithfulResults(t *testing.T) {
	cm := newTestCodeMode(t, Config{MaxResultChars: 600})
	s := mustSession(t, cm)
	for _, tc := range []struct {
		name, code, want string
		warns            []string // substrings of the warn logs, in order
	}{
		{"plain", `return {a: [1, "x", null]}`, `{"a":[1,"x",null]}`, nil},
		{"Map, Set, Error", `return {m: new Map([["k", 1]]), s: new Set([1]), e: new RangeError("r")}`,
			`{"m":{"k":1},"s":[1],"e":{"name":"RangeError","message":"r"}}`,
			[]string{"result.m: a Map, converted to an object", "result.s: a Set, converted to an array", "result.e: an Error, converted to {name, message}"}},
		{"NaN and BigInt", `return [NaN, 2n]`, `["NaN","2"]`, []string{`result[0]: NaN, converted to the string "NaN"`, "result[1]: a BigInt, converted to a string"}},
		{"a tool's result in a Map", `return new Map([["orders", await tools.orders.get({id: 1})]])`, `{"orders":{"context":null,"input":{"id":1}}}`,
			[]string{"result: a Map, converted to an object"}},
		{"array over budget", `return Array.from({length: 500}, (_, i) => ({id: i, name: "order " + i}))`, `[{"id":0,"name":"order 0"},`,
			[]string{"result: 1"}}, // result: N bytes of JSON, over the 600 budget
		// The budget counts UTF-8 bytes, as USAGE and index.d.ts say (they
		// said characters): 300 é are 302 characters of JSON, 602 bytes.
		{"non-ASCII text counts its bytes", `return "é".repeat(300)`, `"ééé`,
			[]string{"result: 602 bytes of JSON, over the 600 budget"}},
		{"object over budget", `return Object.fromEntries(Array.from({length: 500}, (_, i) => ["k" + i, i]))`, `{"k0":0,"k1":1,`,
			[]string{"over the 600 budget: long arrays, objects and strings were shortened"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, tc.code, nil)
			if !res.OK {
				t.Fatalf("error %+v", res.Error)
			}
			if !strings.HasPrefix(string(res.Result), tc.want) {
				t.Errorf("result %.200s, want prefix %s", res.Result, tc.want)
			}
			if len(res.Result) > 600 || !json.Valid(res.Result) {
				t.Errorf("result of %d characters, valid JSON %v", len(res.Result), json.Valid(res.Result))
			}
			var warns []string
			for _, l := range res.Logs {
				if l.Level == "warn" {
					warns = append(warns, l.Message)
				}
			}
			if len(warns) != len(tc.warns) {
				t.Fatalf("warn logs %q, want %q", warns, tc.warns)
			}
			for i, w := range tc.warns {
				if !strings.Contains(warns[i], w) {
					t.Errorf("warn log %q lacks %q", warns[i], w)
				}
			}
		})
	}
}

// TestToolWarn: a tool's Call.Warn becomes a warn log of the run that made
// the call (the JS binding reports converted return values through it).
func TestToolWarn(t *testing.T) {
	cm := newTestCodeMode(t, Config{Tools: []Tool{{Name: "inv.stock", Execute: func(_ context.Context, _ json.RawMessage, c Call) (json.RawMessage, error) {
		c.Warn("tools.inv.stock result.tags: a Set, converted to an array")
		return json.RawMessage(`{"tags":["x"]}`), nil
	}}}})
	s := mustSession(t, cm)
	res := exec(t, s, `return await tools.inv.stock({})`, nil)
	if !res.OK || string(res.Result) != `{"tags":["x"]}` {
		t.Fatalf("%s %+v", res.Result, res.Error)
	}
	want := []LogEntry{{Level: "warn", Message: "tools.inv.stock result.tags: a Set, converted to an array"}}
	if !reflect.DeepEqual(res.Logs, want) {
		t.Errorf("logs %v, want %v", res.Logs, want)
	}
}
