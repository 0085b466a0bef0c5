package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestCaughtCallsAtToolLimit: a run that awaits and catches a thousand
// failing calls and then passes MaxToolCalls ends TOOL_LIMIT with no
// warning about those calls, while a call it never awaited is still
// reported. Before, the end's read of which call promises the program
// observed ran a stringify in the interrupted run, which QuickJS's poll
// stopped part-way for a list that long: every failed call was then
// reported "unhandled rejection of a call that was not awaited", up to the
// log budget (82 and 142 lines), telling the model its awaited calls were
// not awaited.
func TestCaughtCallsAtToolLimit(t *testing.T) {
	cm := mustNew(t, Config{Tools: []Tool{{Name: "ns.fail",
		Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) { return nil, errors.New("FAILS") }}}})
	s := mustSession(t, cm)
	for _, tc := range []struct{ what, code, want string }{
		{"unknown names, caught", "for (let i = 0; i < 1005; i++) { try { await tool_call('ns.nope' + i, {}) } catch {} }", ""},
		{"a failing tool, caught", "for (let i = 0; i < 1005; i++) { try { await tools.ns.fail({}) } catch {} }", ""},
		{"one call not awaited", "tools.ns.fail({ lost: 1 }); await new Promise((r) => setTimeout(r, 10)); for (let i = 0; i < 1005; i++) { try { await tools.ns.fail({}) } catch {} }",
			"unhandled rejection of a call that was not awaited: tool ns.fail: FAILS"},
	} {
		res := exec(t, s, tc.code, nil)
		if res.OK || res.Error.Code != "TOOL_LIMIT" {
			t.Fatalf("%s: %s %+v, want TOOL_LIMIT", tc.what, res.Result, res.Error)
		}
		var got []string
		for _, l := range res.Logs {
			if strings.Contains(l.Message, "not awaited") {
				got = append(got, l.Message)
			}
		}
		if tc.want == "" && len(got) != 0 || tc.want != "" && (len(got) != 1 || got[0] != tc.want) {
			t.Errorf("%s: %d warnings about calls not awaited (first %q), want %q", tc.what, len(got), append(got, "")[0], tc.want)
		}
	}
}
