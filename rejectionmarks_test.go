package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
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

// TestRejectedCallsKeepNoErrors: a run kept the Error of every rejected
// host call until it ended (to name the call of the run's error, and for
// the warnings about unobserved rejections). A program that awaits and
// catches refused calls in a loop then held ~195 bytes a call: 20,000 of
// them left 3.9 MB less of a 16 MB limit (193 x 64 KB held after, 254
// before), and 50,000 under 8 MB ended MEMORY_LIMIT holding nothing of its
// own. Only the last few Errors are kept now, and the messages of calls
// nobody had observed when they were rejected.
func TestRejectedCallsKeepNoErrors(t *testing.T) {
	holdsAsMuchAfter(t, []struct{ what, code string }{
		{"20,000 refused tool_search calls, awaited and caught", `for (let i = 0; i < 2e4; i++) { try { await tool_search({ query: {} }) } catch {} }`},
		{"20,000 refused tool_search calls, caught by .catch", `for (let i = 0; i < 2e4; i++) await tool_search({ query: {} }).catch(() => 0)`},
		{"20,000 tool_search calls", `for (let i = 0; i < 2e4; i++) await tool_search({ query: "orders" })`},
	})
	small := mustSession(t, newTestCodeMode(t, Config{MemoryLimitMB: 8, Timeout: time.Minute}))
	res := exec(t, small, `let n = 0; for (let i = 0; i < 5e4; i++) { try { await tool_search({ query: {} }) } catch { n++ } } return n`, nil)
	if !res.OK || string(res.Result) != "50000" {
		t.Errorf("50,000 refused calls under 8 MB: %s %+v, want 50000", res.Result, res.Error)
	}
}
