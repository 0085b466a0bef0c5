package codemode

import (
	"context"
	"encoding/json"
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
