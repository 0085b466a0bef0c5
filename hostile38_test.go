package codemode

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// Attempts of the thirty-eighth session (security38), written before
// reading the code under test: a Go tool's result is JSON text the host
// hands over as it is (json.RawMessage), so the text itself is the attack:
// trailing values, duplicate keys that say one thing to the outputSchema
// check and another to the program, invalid UTF-8, numbers past float64.
func TestHostile38RawResults(t *testing.T) {
	raw := func(name, text string) Tool {
		return Tool{Name: name, Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			return json.RawMessage(text), nil
		}}
	}
	checked := func(name, text string) Tool {
		tool := raw(name, text)
		tool.OutputSchema = json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`)
		return tool
	}
	_, s := newHostile(t, Config{Timeout: 10 * time.Second},
		raw("r.trailing", `{"a":1} {"a":2}`),
		raw("r.twoNumbers", `1 2`),
		raw("r.cut", `{"a":`),
		raw("r.empty", ``),
		raw("r.badUTF8", "\"a\xff\xfeb\""),
		raw("r.huge", `1e400`),
		raw("r.proto", `{"__proto__":{"polluted":1},"a":1}`),
		checked("r.dupGoodLast", `{"n":"bad","n":1}`),
		checked("r.dupBadLast", `{"n":1,"n":"bad"}`),
		raw("r.nul", "{\"a\":1}\x00"),
		echoTool("r.ok", nil),
	)
	try := func(name string) string {
		return `try { const v = await tools.r.` + name + `({}); return ["ok", v] } catch (e) { return [e.name, e.message.slice(0, 200)] }`
	}
	for _, tc := range []struct {
		name string
		// ok: what the program may get as ["ok", value]; fail: whether a
		// ToolError is allowed.
		ok   []string
		fail bool
	}{
		{"trailing", nil, true},
		{"twoNumbers", nil, true},
		{"cut", nil, true},
		{"empty", []string{`["ok",null]`}, true},
		{"badUTF8", []string{"[\"ok\",\"a\ufffd\ufffdb\"]", "[\"ok\",\"a\ufffdb\"]"}, true},
		{"huge", []string{`["ok","Infinity"]`}, true}, // the run's result writes Infinity so (hostile15)
		{"proto", []string{`["ok",{"__proto__":{"polluted":1},"a":1}]`}, true},
		{"dupGoodLast", []string{`["ok",{"n":1}]`}, true},
		{"dupBadLast", nil, true},
		{"nul", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, try(tc.name), nil)
			if !res.OK {
				t.Fatalf("the run failed: %+v", res.Error)
			}
			var got []any
			if err := json.Unmarshal(res.Result, &got); err != nil || len(got) != 2 {
				t.Fatalf("result %s", res.Result)
			}
			if got[0] == "ok" {
				for _, w := range tc.ok {
					if string(res.Result) == w {
						return
					}
				}
				t.Errorf("the program got %s, want one of %v or a ToolError", res.Result, tc.ok)
			} else if !tc.fail || got[0] != "ToolError" {
				t.Errorf("got %s", res.Result)
			}
			if res := exec(t, s, `return [({}).polluted, await tools.r.ok({a: 1})]`, nil); !res.OK || string(res.Result) != `[null,{"a":1}]` {
				t.Errorf("the next run: %s %+v", res.Result, res.Error)
			}
		})
	}
}
