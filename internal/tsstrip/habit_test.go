package tsstrip

import "testing"

// TestSyntaxHabit: the syntax error of a Python slice, or of an arrow
// whose body in braces holds an object's keys, names the fix when it is
// at the habit; elsewhere on the line there is none.
func TestSyntaxHabit(t *testing.T) {
	for _, tc := range []struct {
		line string
		at   int // the error's byte on the line
		want string
	}{
		{"return ids[:2];", 11, ": ids[:2] is Python's slice; JavaScript's is ids.slice(0, 2)"},
		{"return os[1:].length;", 11, ": os[1:] is Python's slice; JavaScript's is os.slice(1)"},
		{"return os[-2:];", 12, ": os[-2:] is Python's slice; JavaScript's is os.slice(-2)"},
		{"return os[1:3];", 11, ": os[1:3] is Python's slice; JavaScript's is os.slice(1, 3)"},
		{"return os[::-1];", 10, ": os[::-1] is Python's slice; JavaScript's is [...os].reverse()"},
		{"return rows.map((o) => { id: o.id, total: o.total });", 42, ": (o) => { id: o.id, total: o.total }: braces after => are a block, not an object; write (o) => ({ id: o.id, total: o.total })"},
		{"return ids[:2] +;", 16, ""},
		{"const a = ; return rows.map((o) => { id: o.id, n: 1 });", 10, ""},
		{"return { a: 1, b: 2 ];", 20, ""},
	} {
		if got := SyntaxHabit(tc.line, tc.at); got != tc.want {
			t.Errorf("%q at %d: %q, want %q", tc.line, tc.at, got, tc.want)
		}
	}
}
