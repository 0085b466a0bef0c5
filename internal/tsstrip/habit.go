package tsstrip

// Habits of other languages that QuickJS refuses with words that name
// only a token: Python's slice xs[:2] ("unexpected token in expression:
// ':'") and an arrow whose body in braces holds an object's keys, (o) =>
// { id: o.id, total: o.total } ("expecting ';'"). The syntax error's
// message gains the fix (SyntaxHabit): a regular expression on the
// error's line, of a package the core links already, so each costs its
// text more than its code; no run pays for them.

import (
	"fmt"
	"regexp"
	"sync"
)

// habitRules are the habits: the expression read on the error's line, and
// the text, of the match (%[1]s) and its submatches (%[2]s on).
var habitRules = [...][2]string{
	{`([\w$.]+)\[ ?:(-?\w+)\]`, "%[1]s is Python's slice; JavaScript's is %[2]s.slice(0, %[3]s)"},
	{`([\w$.]+)\[(-?\w+): ?\]`, "%[1]s is Python's slice; JavaScript's is %[2]s.slice(%[3]s)"},
	{`([\w$.]+)\[(-?\w+):(-?\w+)\]`, "%[1]s is Python's slice; JavaScript's is %[2]s.slice(%[3]s, %[4]s)"},
	{`([\w$.]+)\[::-1\]`, "%[1]s is Python's slice; JavaScript's is [...%[2]s].reverse()"},
	{`(\([\w$, ]*\)|[\w$]+) => (\{ ?[\w$]+: [^{}]+\})`, "%[1]s: braces after => are a block, not an object; write %[2]s => (%[3]s)"},
}

// habitRes compiles habitRules' expressions at the first syntax error,
// not at the core's start. (A sync.Once, not a sync.OnceValue: that is
// inlined as closures of its own, ~4.8 KB of the GOOS=js core.)
func habitRes() *[len(habitRules)]*regexp.Regexp {
	habitOnce.Do(func() {
		for i, r := range habitRules {
			habitRx[i] = regexp.MustCompile(r[0])
		}
	})
	return &habitRx
}

var (
	habitOnce sync.Once
	habitRx   [len(habitRules)]*regexp.Regexp
)

// habitText is habit k's text, of the match x on line.
func habitText(k int, line string, x []int) string {
	a := make([]any, len(x)/2)
	for i := range a {
		a[i] = ""
		if x[2*i] >= 0 {
			a[i] = line[x[2*i]:x[2*i+1]]
		}
	}
	return fmt.Sprintf(habitRules[k][1], a...)
}

// SyntaxHabit is what a syntax error at byte at of line gains when a
// habit there explains it (a Python slice, an arrow's object of keys):
// the habit and the JavaScript meant, "" when none does.
func SyntaxHabit(line string, at int) string {
	for k, re := range habitRes() {
		if x := re.FindAllStringSubmatchIndex(line, 1); x != nil && x[0][0] <= at && at < x[0][1] {
			return ": " + habitText(k, line, x[0])
		}
	}
	return ""
}
