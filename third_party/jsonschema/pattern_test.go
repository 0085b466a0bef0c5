package jsonschema

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// height is the height of a tree, walked without recursion (the trees
// measured here are the deep ones).
func height(re *syntax.Regexp) int {
	type item struct {
		re    *syntax.Regexp
		depth int
	}
	h := 0
	stack := []item{{re, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		h = max(h, it.depth)
		for _, s := range it.re.Sub {
			stack = append(stack, item{s, it.depth + 1})
		}
	}
	return h
}

// compiledHeight is the height of the tree Go's compiler recursed over for
// c: its expression parsed and simplified as regexp.Compile does.
func compiledHeight(t *testing.T, c Regexp) int {
	t.Helper()
	var expr string
	switch c := c.(type) {
	case pattern:
		expr = c.Regexp.String()
	case *regexp.Regexp:
		expr = c.String()
	default:
		t.Fatalf("CompilePattern gave a %T", c)
	}
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	return height(re.Simplify())
}

// TestCompilePatternSpellsLargeRepeatsFlat: a large counted repeat matches
// what regexp.Compile's matches, string for string, but is compiled from a
// tree no deeper than a small one's (.{1,576} was 1,152 levels, two frames
// of Go's recursion a count, which overflowed V8's stack under js/wasm), and
// prints as written.
func TestCompilePatternSpellsLargeRepeatsFlat(t *testing.T) {
	inputs := []string{""}
	for _, unit := range []string{"a", "ab", "b", "x", "A", "é", ":", "\n", "1"} {
		for _, n := range []int{1, 2, 3, 63, 64, 65, 66, 99, 100, 101, 199, 200, 201, 575, 576, 577, 578, 999, 1000, 1001} {
			inputs = append(inputs, strings.Repeat(unit, n), "x"+strings.Repeat(unit, n)+"y", strings.Repeat(unit, n)+"b")
		}
	}
	inputs = append(inputs, "arn:aws:iam::123:role/"+strings.Repeat("r", 576), "arn:aws:iam::123:role/", "arn:aws:iam::1:user/x")
	cases := []struct {
		pattern  string
		maxDepth int // of the compiled tree
	}{
		{".{1,576}", 10},
		{"arn:[^:]*:iam::[^:]*:(role|user)/.{1,576}", 20},
		{"^.{1,576}$", 10},
		{"^[a-z]{0,1000}$", 10},
		{"^(ab){1,500}$", 10},
		{"(?i)^a{2,300}b?$", 10},
		{"(?i:é){1,100}", 10},
		{"^x{3,200}?b", 10},
		{"^(?s:.){1,100}$", 10},
		{"^\\d{3,1000}$", 10},
		{"^(a{0,65}b){1,10}$", 30}, // the {1,10} nested as Go nests it
		{"^(?:[ab]{0,100}|x{1,66}){2}$", 20},
		{"^a{65,}$", 10},
		// A group copied: x appears twice in the compiled expression,
		// a named one too (Go allows a name twice).
		{"^(?P<x>a|b){1,100}$", 10},
		{"^((a)(?<y>b)?){0,70}c", 10},
		{"^a{1,65}$", 140}, // within maxNestedSpan: nested as Go nests it
		{"^a{1,64}$", 140},
	}
	for _, c := range cases {
		want := regexp.MustCompile(c.pattern) // native Go: stack enough
		got, err := CompilePattern(c.pattern)
		if err != nil {
			t.Fatalf("%q: %v", c.pattern, err)
		}
		if got.String() != c.pattern {
			t.Errorf("%q prints as %q", c.pattern, got.String())
		}
		for _, in := range inputs {
			if got.MatchString(in) != want.MatchString(in) {
				t.Errorf("%q on %q (%d chars): %v, regexp.Compile's %v", c.pattern, in[:min(len(in), 20)], len(in), got.MatchString(in), want.MatchString(in))
			}
		}
		if h := compiledHeight(t, got); h > c.maxDepth {
			t.Errorf("%q compiles from a tree %d deep, want at most %d", c.pattern, h, c.maxDepth)
		}
	}
}

// TestCompilePatternNestingLimit: Go's nesting limit (1,000) holds for the
// tree Go's compiler walks, its counted repeats spelled out, and errors are
// regexp.Compile's.
func TestCompilePatternNestingLimit(t *testing.T) {
	nest := func(n int, inner string) string { return strings.Repeat("(", n) + inner + strings.Repeat(")", n) }
	cases := []struct {
		pattern string
		want    syntax.ErrorCode // "" when it compiles
	}{
		{nest(990, "a"), ""},
		{nest(600, "a{1,64}"), ""},
		{nest(900, "a{1,64}"), syntax.ErrNestingDepth},
		{nest(900, "a{1,1000}"), ""},
		{nest(1001, "a"), syntax.ErrNestingDepth},
		{"a(?=b)", syntax.ErrInvalidPerlOp},
		{"a{1001}", syntax.ErrInvalidRepeatSize},
	}
	for _, c := range cases {
		_, err := CompilePattern(c.pattern)
		var se *syntax.Error
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%.30q…: %v", c.pattern, err)
		case c.want != "" && (!errors.As(err, &se) || se.Code != c.want):
			t.Errorf("%.30q…: %v, want %s", c.pattern, err, c.want)
		case c.want != syntax.ErrNestingDepth && c.want != "":
			_, native := regexp.Compile(c.pattern)
			if native == nil || native.Error() != err.Error() {
				t.Errorf("%.30q…: %v, regexp.Compile says %v", c.pattern, err, native)
			}
		}
	}
}
