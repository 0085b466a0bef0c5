package tsstrip

import (
	"fmt"
	"strings"
	"testing"
)

// TestNestingDepth: what nesting counts, on tokens, so that brackets in
// strings, comments and regular expressions do not count.
func TestNestingDepth(t *testing.T) {
	for _, tc := range []struct {
		name, code string
		depth      int
		at         string // the token that went deepest
	}{
		{"none", "return 1", 0, ""},
		{"a call of an index", "return f(a[b])", 2, "["},
		{"an object in a block", "{ const o = { a: 1 } }", 2, "{"},
		{"closed brackets do not add up", "f(1); g(2); h([3])", 2, "["},
		{"a template substitution", "return `${a}`", 1, "`${"},
		{"nested template substitutions", "return `${`${a}`}`", 2, "`${"},
		{"brackets in strings, comments and regular expressions", "const s = '((('; // [[[\n/* {{{ */ return /(((x)))/.test(s + \"(\")", 1, "("},
		{"an arrow", "const f = x => x", 1, "=>"},
		{"an arrow returning an arrow", "const f = x => y => x + y", 2, "=>"},
		{"async arrows with parentheses", "const f = async (x) => async (y) => x", 2, "=>"},
		{"arrows one after another", "const f = x => 1; const g = y => 2", 1, "=>"},
		{"an arrow in arguments", "f(x => x, y => y)", 2, "=>"},
		{"a callback returning an arrow", "f((x) => (y) => 1)", 3, "=>"},
		{"new", "return new Map()", 1, "new"},
		{"new new", "return new new F()()", 2, "new"},
		{"news apart", "return [new A(), new B()]", 2, "new"},
		{"an unclosed bracket counts", "return f((1)", 2, "("},
		{"an unmatched closer", "return 1 }) ((", 2, "("},
	} {
		toks, _ := scan(tc.code)
		depth, at := nesting(toks)
		got := ""
		if at >= 0 {
			got = tc.code[toks[at].s:toks[at].e]
		}
		if depth != tc.depth || got != tc.at {
			t.Errorf("%s: %q nests %d at %q, want %d at %q", tc.name, tc.code, depth, got, tc.depth, tc.at)
		}
	}
}

// nestingShapes are programs nested n levels deep in each way model code
// can nest (one level of nesting's count per n, plus extra), the shapes
// that overflowed the host's stack before QuickJS's own check could stop
// them, and some it stops itself.
var nestingShapes = []struct {
	name          string
	code          func(n int) string
	extra         int
	line, column1 int // where the deepest token is at n = 1
	columnStep    int // how far it moves right per level
}{
	{"parentheses", func(n int) string { return "return " + rep("(", n) + "1" + rep(")", n) }, 0, 1, 8, 1},
	{"arrays", func(n int) string { return "return " + rep("[", n) + "]" + rep("]", n-1) }, 0, 1, 8, 1},
	{"object literals", func(n int) string { return "return " + rep("{a:", n) + "1" + rep("}", n) }, 0, 1, 8, 3},
	{"blocks", func(n int) string { return rep("{", n) + rep("}", n) + " return 1" }, 0, 1, 1, 1},
	{"function expressions", func(n int) string { return "const f = " + rep("function(){return ", n) + "1" + rep("}", n) }, 0, 1, 19, 18},
	{"generator functions", func(n int) string { return "const f = " + rep("function*() { yield ", n) + "1" + rep(" }", n) }, 0, 1, 20, 20},
	{"arrows in parentheses", func(n int) string { return "const f = " + rep("(() => ", n) + "1" + rep(")", n) }, 1, 1, 12, 7},
	{"template literals", func(n int) string { return "return " + rep("`${", n) + "1" + rep("}`", n) }, 0, 1, 8, 3},
	{"calls", func(n int) string { return "return " + rep("f(", n) + "1" + rep(")", n) }, 0, 1, 9, 2},
	{"async arrows returning async arrows", func(n int) string { return "const f = " + rep("async x => ", n) + "1" }, 0, 1, 19, 11},
	{"runs of new", func(n int) string { return "return typeof " + rep("new ", n) + "Function" }, 0, 1, 15, 4},
	{"lines of brackets", func(n int) string { return "return [\n" + rep("[\n", n-1) + rep("]", n) }, 0, 1, 8, -1},
}

func rep(s string, n int) string { return strings.Repeat(s, n) }

// TestPrepareNesting: a program nested deeper than MaxNesting is refused
// before anything reads it recursively (the stripper, QuickJS), with an
// error that says how deep, where, and the limit; one at the limit is
// prepared. Far deeper code (100,000 levels, which ended the GOOS=js
// engine in the stripper's recursion) is refused as fast.
func TestPrepareNesting(t *testing.T) {
	for _, sh := range nestingShapes {
		n := MaxNesting - sh.extra
		if _, err := Prepare(sh.code(n)); err != nil {
			t.Errorf("%s at the limit: %v", sh.name, err)
		}
		for _, n := range []int{n + 1, n + 50, 100000} {
			_, err := Prepare(sh.code(n))
			depth := n + sh.extra
			line, col := sh.line, sh.column1+(n-1)*sh.columnStep
			if sh.columnStep < 0 {
				line, col = n, 1 // one bracket per line
			}
			want := fmt.Sprintf("code nested too deeply: %d levels at line %d; the limit is %d", depth, line, MaxNesting)
			if err == nil || !strings.HasPrefix(err.Message, want) || err.Line != line || err.Column != col {
				t.Errorf("%s nested %d: %+v, want %q at %d:%d", sh.name, n, err, want, line, col)
			}
		}
	}
}

// TestPrepareNestingUnreadable: code the tokenizer cannot read (here an
// unterminated string) goes to QuickJS as it is, which parses what comes
// before the error: that part is measured too.
func TestPrepareNestingUnreadable(t *testing.T) {
	code := "return " + rep("(", 150) + "'unterminated"
	if _, err := Prepare(code); err == nil || !strings.HasPrefix(err.Message, "code nested too deeply: 150 levels at line 1") {
		t.Errorf("got %v", err)
	}
	if p, err := Prepare("return " + rep("(", 50) + "'unterminated"); err != nil || !strings.HasSuffix(p.Code, "'unterminated") {
		t.Errorf("50 levels: %+v %v, want the code as sent", p, err)
	}
}

// TestPrepareTypeNesting: TypeScript types nest in the stripper's
// recursion without brackets; past MaxNesting levels that is refused too.
func TestPrepareTypeNesting(t *testing.T) {
	for _, tc := range []struct {
		name string
		code func(n int) string
	}{
		{"keyof", func(n int) string { return "let x: " + rep("keyof ", n-1) + "B = 1" }},
		{"conditional types", func(n int) string { return "type T = " + rep("A extends B ? C : ", n-1) + "D; return 1" }},
		{"function types", func(n int) string { return "let x: " + rep("new () => ", n-1) + "B = 1" }},
	} {
		if _, err := Prepare(tc.code(MaxNesting)); err != nil {
			t.Errorf("%s at the limit: %v", tc.name, err)
		}
		for _, n := range []int{MaxNesting + 1, 100000} {
			want := fmt.Sprintf("code nested too deeply: a type nests more than %d levels at line 1; the limit is %d", MaxNesting, MaxNesting)
			if _, err := Prepare(tc.code(n)); err == nil || err.Message != want || err.Line != 1 {
				t.Errorf("%s nested %d: %+v, want %q", tc.name, n, err, want)
			}
		}
	}
}
