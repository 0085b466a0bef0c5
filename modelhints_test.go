package codemode

import (
	"strings"
	"testing"

	"github.com/interopio/code-mode/sandbox"
)

// TestModelHabitHints: the hints for what models trained on other code
// write (HTML entities, Python lines and names, JSON.parse of a result)
// come where the error is that habit's, and nowhere else. The packed
// package's web/test/model-outputs.test.mjs runs the same habits whole.
func TestModelHabitHints(t *testing.T) {
	syntax := func(msg string, line, col int) *sandbox.Error {
		return &sandbox.Error{Code: sandbox.CodeSyntax, Name: "SyntaxError", Message: msg, Line: line, Column: col}
	}
	for _, tc := range []struct {
		name, code string
		e          *sandbox.Error
		want       string // "" for no hint
	}{
		{"=&gt; at the error", "const a = [];\nreturn a.filter((o) =&gt; o);", syntax("unexpected token in expression: '&'", 2, 22), "HTML entities (&gt;)"},
		{"&amp; ends at the error", "return a &amp;& b", syntax("expecting ','", 1, 14), "HTML entities (&amp;)"},
		{"an entity in a string, the error elsewhere", "const el = \"&lt;b&gt;\"; return el +", syntax("unexpected end of input", 1, 36), ""},
		{"an entity on another line", "const el = '&lt;';\nreturn )", syntax("unexpected token in expression: ')'", 2, 8), ""},
		{"def", "def main():\n    return 1", syntax("expecting ';'", 1, 5), "line 1 is Python"},
		{"for x in xs:", "const xs = []\nfor x in xs:\n  y", syntax("expecting '('", 2, 5), "line 2 is Python"},
		{"a case label is JavaScript", "switch (x) {\ncase 1:\n  ) }", syntax("unexpected token in expression: ')'", 3, 3), ""},
		{"for ( is JavaScript", "for (const x of xs)\n  ) :", syntax("unexpected token in expression: ')'", 2, 3), ""},
		{"else { is JavaScript", "if (a) b\nelse {:", syntax("unexpected token in expression: ':'", 2, 7), ""},
	} {
		if got := syntaxHint(tc.code, tc.e); (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: hint %q, want one with %q", tc.name, got, tc.want)
		}
	}
	ref := func(name string) *sandbox.Error {
		return &sandbox.Error{Code: sandbox.CodeRuntime, Name: "ReferenceError", Message: "'" + name + "' is not defined"}
	}
	if h := entityNameHint("if (a &lt; b) n++", ref("lt")); !strings.Contains(h, "HTML entities (&lt;)") {
		t.Errorf("'lt' of code with &lt;: %q", h)
	}
	if h := entityNameHint("return lt", ref("lt")); h != "" {
		t.Errorf("'lt' of code without &lt;: %q", h)
	}
	for name, want := range map[string]string{"print": "console.log", "True": "true, false and null", "None": "null", "len": "x.length", "search": "tool_search({ query })", "printf": ""} {
		if h := hintFor(ref(name)); (want == "") != (h == "") || !strings.Contains(h, want) {
			t.Errorf("'%s' is not defined: hint %q, want one with %q", name, h, want)
		}
	}
	parse := &sandbox.Error{Code: sandbox.CodeRuntime, Name: "SyntaxError", Message: "unexpected token: 'object'", Stack: "    at parse (native)\n    at <anonymous> (code.js:1:24)"}
	if h := hintFor(parse); h != jsonParseObjectHint {
		t.Errorf("JSON.parse of an object: %q", h)
	}
	parse.Stack = "    at <anonymous> (code.js:1:24)"
	if h := hintFor(parse); h != "" {
		t.Errorf("the same words not from JSON.parse: %q", h)
	}
}
