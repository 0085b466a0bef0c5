package codemode

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestToolResultNil: a tool whose Execute returns a nil result gives the
// program undefined (as Tool.Execute's doc says), and JSON null gives null.
func TestToolResultNil(t *testing.T) {
	for _, tc := range []struct {
		name string
		out  json.RawMessage
		want string
	}{
		{"nil", nil, `"undefined"`},
		{"empty", json.RawMessage{}, `"undefined"`},
		{"null", json.RawMessage("null"), `"object null"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cm := mustNew(t, Config{Tools: []Tool{{Name: "t.n",
				Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) { return tc.out, nil }}}})
			s := mustSession(t, cm)
			res := exec(t, s, `const r = await tools.t.n({}); return r === undefined ? "undefined" : typeof r + " " + r`, nil)
			if !res.OK || string(res.Result) != tc.want {
				t.Errorf("the program got %s %+v, want %s", res.Result, res.Error, tc.want)
			}
		})
	}
}

// TestToolResultPastMemoryLimit: a tool result whose JSON text has more
// characters than the run's memory limit fails its call with a ToolError
// naming the tool, which the program can catch, and the call's record says
// so; copied into the sandbox it ended the whole run MEMORY_LIMIT, the
// call recorded as a success.
func TestToolResultPastMemoryLimit(t *testing.T) {
	const limitMB = 8
	big := json.RawMessage(`"` + strings.Repeat("x", limitMB<<20) + `"`)
	cm := mustNew(t, Config{MemoryLimitMB: limitMB, Tools: []Tool{
		{Name: "t.big", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) { return big, nil }},
	}})
	s := mustSession(t, cm)
	res := exec(t, s, `try { await tools.t.big({}); return "no error" } catch (e) { return e.name + ": " + e.message }`, nil)
	want := `ToolError: tool t.big returned 8388610 characters of JSON, more than the run's memory limit (8 MB) can hold`
	var got string
	if !res.OK || json.Unmarshal(res.Result, &got) != nil || !strings.HasPrefix(got, want) {
		t.Fatalf("the program got %s %+v, want %q...", res.Result, res.Error, want)
	}
	if len(res.ToolCalls) != 1 || res.ToolCalls[0].OK || !strings.Contains(res.ToolCalls[0].Reason, "memory limit") {
		t.Errorf("the call's record: %+v, want a failure naming the memory limit", res.ToolCalls)
	}
}

// TestCallMemoryLimit: a tool learns the run's memory limit from its Call,
// the default's too: the JavaScript binding's page refuses a result too
// long for it before copying it into the core (web/src/call.mjs).
func TestCallMemoryLimit(t *testing.T) {
	for _, tc := range []struct{ given, want int }{{8, 8}, {0, 128}} {
		var got int
		cm := mustNew(t, Config{MemoryLimitMB: tc.given, Tools: []Tool{{Name: "t.limit",
			Execute: func(_ context.Context, _ json.RawMessage, c Call) (json.RawMessage, error) {
				got = c.MemoryLimitMB
				return json.RawMessage("1"), nil
			}}}})
		if res := exec(t, mustSession(t, cm), `return await tools.t.limit({})`, nil); !res.OK {
			t.Fatalf("the run failed: %+v", res.Error)
		}
		if got != tc.want {
			t.Errorf("MemoryLimitMB %d: the tool's Call says %d, want %d", tc.given, got, tc.want)
		}
	}
}
