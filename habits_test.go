package codemode

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestSyntaxHabits: a program in another language's habit that QuickJS
// refuses (a Python slice, an arrow's object of several keys) gets the fix
// in the error's message; the same characters meant as JavaScript run as
// written, with no word of it.
func TestSyntaxHabits(t *testing.T) {
	list := func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		return json.RawMessage(`[{"id":"o-1","total":30},{"id":"o-2","total":12},{"id":"o-3","total":50}]`), nil
	}
	s := mustSession(t, newTestCodeMode(t, Config{Tools: []Tool{{Name: "store.list", Execute: list}}}))
	const os = "const os = await tools.store.list({});\n"
	for _, tc := range []struct {
		name, code string
		result     string // the result's JSON, "" for an error
		want       string // the warning, or the error's message; "" for none
	}{
		{"an arrow's object in parentheses", os + "return os.map((o) => ({ id: o.id }))[0]", `{"id":"o-1"}`, ""},
		{"a ternary in brackets", os + "return os[os.length > 2 ? 1 : 0].id", `"o-2"`, ""},
		{"a label in an arrow's block", os + "let n = 0;\nos.forEach((o) => { outer: for (const c of o.id) { n++; break outer } });\nreturn n", "3", ""},
		{"a Python slice", os + "const ids = os.map((o) => o.id);\nreturn ids[:2];", "",
			"unexpected token in expression: ':': ids[:2] is Python's slice; JavaScript's is ids.slice(0, 2)"},
		{"a slice from 1", os + "return os[1:].length;", "", "os[1:] is Python's slice; JavaScript's is os.slice(1)"},
		{"a slice of the last two", os + "return os[-2:];", "", "os[-2:] is Python's slice; JavaScript's is os.slice(-2)"},
		{"a slice between", os + "return os[1:2];", "", "os[1:2] is Python's slice; JavaScript's is os.slice(1, 2)"},
		{"reversed", os + "return os[::-1];", "", "os[::-1] is Python's slice; JavaScript's is [...os].reverse()"},
		{"an arrow's object of two keys", os + "return os.map((o) => { id: o.id, total: o.total });", "",
			"expecting ';': (o) => { id: o.id, total: o.total }: braces after => are a block, not an object; write (o) => ({ id: o.id, total: o.total })"},
	} {
		res, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: tc.code}, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var warns []string
		for _, l := range res.Logs {
			if l.Level == "warn" {
				warns = append(warns, l.Message)
			}
		}
		switch {
		case tc.result == "" && (res.Error == nil || !strings.Contains(res.Error.Message, tc.want)):
			t.Errorf("%s: error %+v, want one with %q", tc.name, res.Error, tc.want)
		case tc.result != "" && string(res.Result) != tc.result:
			t.Errorf("%s: result %s (%+v), want %s", tc.name, res.Result, res.Error, tc.result)
		case tc.result != "" && tc.want == "" && strings.Contains(strings.Join(warns, "\n"), "JavaScript"):
			t.Errorf("%s: warned %q", tc.name, warns)
		case tc.result != "" && tc.want != "" && !strings.Contains(strings.Join(warns, "\n"), tc.want):
			t.Errorf("%s: warnings %q, want %q", tc.name, warns, tc.want)
		}
	}
}
