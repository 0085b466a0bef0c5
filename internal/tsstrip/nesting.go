package tsstrip

import "fmt"

// MaxNesting is how deep a program's code may nest (see nesting). QuickJS's
// parser recurses on the host engine's native stack, checking its own
// stack limit only on some paths, so deeply nested source overflowed the
// host before QuickJS could object, an error the program cannot catch: in
// a fresh Chromium Worker (the smallest host measured) from 243 nested
// generator functions, 249 function expressions, 324 parentheses; on the
// page's thread and in Node about twice that. Under GOOS=js the core's own
// recursive reader of the code (stripper.walk, a Go call per bracket)
// overflowed it too, from about 500 brackets in Node to 20,000, and that
// ended the whole engine. 100 is under half of the smallest, and far
// above what code uses: the TypeScript corpus (testdata/tscorpus) nests
// at most 7 levels, the 7,322 JavaScript files of node_modules at most 29.
const MaxNesting = 100

// nesting measures, in one pass over toks, how deep the code nests in the
// ways QuickJS's parser recurses without checking its stack: brackets and
// template substitutions, and two bracket-free chains the host measured
// overflowing first, arrow functions whose body is the next arrow
// (`async x => async x => ...`, 1,211 deep in a Chromium Worker) and runs
// of `new` (`new new new F`, 3,532). Plain `x => x => ...` chains count
// alike (one rule for both; QuickJS's own check stops them first). It
// returns the deepest level and the index of the token that first reached
// it. Other bracket-free chains (unary operators, `a ? b : c`, `if`,
// labels) meet QuickJS's own check, a catchable "stack overflow", first.
func nesting(toks []token) (deepest, at int) {
	s := &stripper{toks: toks}
	// opens holds the open brackets' token indexes (on the stack for
	// code that nests under 32 levels: no allocation per run).
	var buf [32]int
	opens := buf[:0]
	// closed is the index of the opening bracket of the last closed pair;
	// newRun counts consecutive `new` tokens; arrows, the arrows in a
	// chain ending with the last `=>` (lastArrow).
	closed, newRun, arrows, lastArrow := -1, 0, 0, -1
	at = -1
	for i, t := range toks {
		if i&(beatBytes-1) == beatBytes-1 {
			beat(i)
		}
		level := len(opens)
		switch {
		case t.k == tPunct && (t.v == "(" || t.v == "[" || t.v == "{") || t.k == tTemplateHead:
			opens = append(opens, i)
			level++
		case t.k == tPunct && (t.v == ")" || t.v == "]" || t.v == "}") || t.k == tTemplateTail:
			if n := len(opens); n > 0 {
				closed, opens = opens[n-1], opens[:n-1]
			}
		case s.is(i, "new"):
			if s.is(i-1, "new") {
				newRun++
			} else {
				newRun = 1
			}
			level += newRun
		case s.is(i, "=>"):
			// The arrow's head: a name, or the parameters' parentheses,
			// the pair just closed.
			h := i - 1
			if s.is(h, ")") {
				h = closed
			}
			if s.is(h-1, "async") {
				h--
			}
			if h-1 == lastArrow && lastArrow >= 0 {
				arrows++
			} else {
				arrows = 1
			}
			lastArrow = i
			level += arrows
		}
		if level > deepest {
			deepest, at = level, i
		}
	}
	return deepest, at
}

// checkNesting is nesting's verdict on src's tokens: an *Error at the
// token that went deepest when the code nests deeper than MaxNesting.
func checkNesting(src string, toks []token) *Error {
	deepest, at := nesting(toks)
	if deepest <= MaxNesting {
		return nil
	}
	line, col := position(src, toks[at].s)
	return &Error{Line: line, Column: col, Message: fmt.Sprintf("code nested too deeply: %d levels at line %d; the limit is %d "+
		"(brackets, template substitutions, arrow functions returning arrow functions and runs of new count); "+
		"split it into functions, or build deep data in a loop", deepest, line, MaxNesting)}
}

// CheckNesting is the nesting check of a program applied to any code:
// what the sandbox's Function constructors are given (their text
// reaches QuickJS's parser as the program's does, and overflows the host's
// stack alike, ending the run). The tokens before a scan failure count, as
// for a program.
func CheckNesting(src string) *Error {
	toks, _ := scan(src)
	return checkNesting(src, toks)
}
