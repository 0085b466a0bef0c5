package tsstrip

// A whole-program main: a program that is one function (an IIFE, an arrow,
// function main) is unwrapped so that its body is the program and what it
// returns is the result; one that declares main beside other code and never
// calls it gets the call appended. Models write both shapes and mean main
// to run.

import (
	"slices"
	"strings"
)

// callMain is appended to a program that declares main() and never calls
// it; callMainTools to one that declares main(tools), the sandbox's
// global being what such a main expects (callOf makes each, and the call
// of main({ tools }) and of a lone const's function).
const (
	callMain      = "\n;return await main();"
	callMainTools = "\n;return await main(tools);"
)

// callOf is the call appended to run the function name with args.
func callOf(name, args string) string { return "\n;return await " + name + "(" + args + ");" }

// toolsArgs reads the parameters that open at toks[open]: none, or the one
// parameter models give a whole-program function for the sandbox's global
// `tools`, `tools` or `{ tools }` (`export default async function ({ tools
// }) {...}`), with a type after it or not (it is read before and after
// erasure). It gives the arguments of a call that runs the function as
// meant, "", "tools" or "{ tools }", and false for any other parameters.
func (s *stripper) toolsArgs(open int) (string, bool) {
	if !s.is(open, "(") || s.m[open] <= open {
		return "", false
	}
	end, j, args := s.m[open], open+1, ""
	switch {
	case j == end:
		return "", true
	case s.is(j, "tools"):
		j, args = j+1, "tools"
	case s.is(j, "{") && s.is(j+1, "tools") && s.is(j+2, "}"):
		j, args = j+3, "{ tools }"
	default:
		return "", false
	}
	return args, j == end || s.is(j, ":") && !s.hasTopLevel(j, end)
}

// uncalledMain returns the call to append when the program declares
// `[async] function main()` (no parameters, or the one parameter `tools`)
// at its top level, or assigns such a function to main (`const main =
// async () => {...}`, `let main = async function () {...}`), beside other
// code such as helper functions or alone, and never names main outside
// that declaration: models write both shapes and mean main to run, and
// without the call the run would end with no result and no hint why. A
// main that calls itself (recursion, a retry) is still never called by
// the program, so names inside main's own body do not count. Otherwise it
// returns "". A main of other parameters, never named either, has nothing
// to be called with: it is not called, and params is the index of its
// name (-1 otherwise), for the run to say why nothing of it ran. m holds
// toks' matched brackets.
func uncalledMain(toks []token, m []int) (call string, params int) {
	s := &stripper{toks: toks, m: m}
	names, skipTo := 0, -1
	params = -1
	for i, depth := range nameDepths(toks) {
		if i <= skipTo || toks[i].v != "main" {
			continue
		}
		names++
		if depth != 0 || i == 0 || toks[i-1].k != tName {
			continue
		}
		open, arrow := -1, false
		switch toks[i-1].v {
		case "function":
			open = i + 1
		case "const", "let", "var":
			if open, arrow = s.funcValue(i); open < 0 {
				continue
			}
		}
		if !s.is(open, "(") || m[open] <= open {
			continue
		}
		if args, ok := s.toolsArgs(open); ok {
			call = callOf("main", args)
		} else {
			call, params = "", i
		}
		b := m[open] + 1
		if arrow {
			if !s.is(b, "=>") {
				call, params = "", -1
				continue
			}
			b++
		}
		if s.is(b, "{") && m[b] > b {
			skipTo = m[b]
		} else if !arrow {
			call, params = "", -1
		} else {
			skipTo = i + 1
		}
	}
	if names != 1 {
		return "", -1
	}
	return call, params
}

// loneFunction returns the index of the name of the function declaration
// that is the whole program, `[async] function name(...) { ... }`, or -1.
// UnwrapMain runs one without parameters; one with parameters is never
// called, and nothing of the program runs.
func loneFunction(toks []token, m []int) int {
	s := &stripper{toks: toks, m: m}
	n := len(toks)
	if s.is(n-1, ";") {
		n--
	}
	i := 0
	if s.is(i, "async") {
		i++
	}
	if !s.is(i, "function") || s.tok(i+1).k != tName || !s.is(i+2, "(") {
		return -1
	}
	if b := m[i+2] + 1; !s.is(b, "{") || m[b] != n-1 {
		return -1
	}
	return i + 1
}

// loneConst returns the call to append when the whole program declares one
// name and assigns it a function of no parameters (`const run = async ()
// => { ... }`, `let run = function () { ... }`, `const run = async () =>
// tools.a.b({})`), else "". A lone function declaration of any name runs
// (UnwrapMain) and so does main in this form (uncalledMain); another name
// ended the run with no result and no word why, none of its code run. One
// of parameters has nothing to be called with: params is then the index
// of its name, as uncalledMain's, for the run to say why nothing ran.
func loneConst(toks []token, m []int) (call string, params int) {
	s := &stripper{toks: toks, m: m}
	n := len(toks)
	if s.is(n-1, ";") {
		n--
	}
	if !s.is(0, "const") && !s.is(0, "let") && !s.is(0, "var") || s.tok(1).k != tName {
		return "", -1
	}
	open, b, arrow := s.funcBody(1)
	if b < 0 {
		return "", -1
	}
	args, ok := s.toolsArgs(open)
	switch {
	case s.is(b, "{") && m[b] == n-1:
	case arrow && !s.is(b, "{") && b < n && s.oneExpression(b, n):
	default:
		return "", -1
	}
	if !ok {
		return "", 1
	}
	return callOf(toks[1].v, args), -1
}

// oneExpression says whether toks[i:end] is one expression, an arrow's
// body that ends with the program: no ',' or ';' at its top level, and no
// line break after a token that ends a value before one that starts a
// statement (`async () => 1` then `foo()`), where a semicolon is inserted
// and the program goes on. A break inside the expression
// (`tools.a\n  .b({})`, `x &&\n y`) continues it.
func (s *stripper) oneExpression(i, end int) bool {
	if s.hasTopLevel(i, end) {
		return false
	}
	for j := i; j < end; j++ {
		if j > i && s.breaksAt(j) {
			return false
		}
		if s.m[j] > j {
			j = s.m[j]
		}
	}
	return true
}

// breaksAt says whether a statement ends before toks[j]: a line break
// after a token that ends a value, before one that starts a statement,
// where a semicolon is inserted.
func (s *stripper) breaksAt(j int) bool {
	t, p := s.toks[j], s.tok(j-1)
	return t.nl && (endsValue(p) || p.k == tPunct && (p.v == ")" || p.v == "}")) &&
		t.k != tPunct && !(t.k == tName && (t.v == "in" || t.v == "instanceof"))
}

// onlyFunctions returns the names of the functions that the program
// declares when that is all it does: two or more statements, each
// `[async] function name(...) {...}` or a name given a function (`const
// total = (xs) => xs.reduce(...)`), and nothing else. None of their code
// runs, and the run ended with no result and no word why: models write the
// helpers and the function that uses them, and forget the call. Which one
// is the answer is the model's to say (one function alone, or main among
// them, is called: loneFunction, loneConst, uncalledMain). nil otherwise.
func onlyFunctions(toks []token, m []int) []string {
	s := &stripper{toks: toks, m: m}
	var names []string
	for j := 0; j < len(toks); {
		if s.is(j, ";") {
			j++
			continue
		}
		// end is the token just past the statement's function; a
		// declaration needs nothing after it, an expression a break or ';'.
		end, decl := 0, false
		switch k := j; {
		case s.is(k, "function") || s.is(k, "async") && s.is(k+1, "function"):
			if s.is(k, "async") {
				k++
			}
			if k++; s.is(k, "*") {
				k++
			}
			if s.tok(k).k != tName || !s.is(k+1, "(") || m[k+1] <= k+1 || !s.is(m[k+1]+1, "{") {
				return nil
			}
			names, end, decl = append(names, toks[k].v), m[m[k+1]+1]+1, true
		case (s.is(k, "const") || s.is(k, "let") || s.is(k, "var")) && s.tok(k+1).k == tName:
			_, b, arrow := s.funcBody(k + 1)
			switch {
			case b < 0 || b >= len(toks):
				return nil
			case s.is(b, "{"):
				end = m[b] + 1
			case !arrow:
				return nil
			default: // an arrow's expression body, to the statement's end
				for end = b + 1; end < len(toks) && !s.is(end, ";") && !s.breaksAt(end) && !s.is(end, ","); end++ {
					if m[end] > end {
						end = m[end]
					}
				}
			}
			names = append(names, toks[k+1].v)
		default:
			return nil
		}
		if end <= j || !decl && end < len(toks) && !s.is(end, ";") && !s.breaksAt(end) {
			return nil
		}
		j = end
	}
	if len(names) < 2 {
		return nil
	}
	return names
}

// lastDeclaration returns the index of the name that the program's last
// statement declares, `const name = expr` (or let, var) with one
// expression to the end, or -1. A program that ends so and returns nothing
// at its top level has no result (a declaration's value is undefined),
// which models write meaning the name's value. A function's name is none:
// returning it gives no data (a lone one is loneConst's).
func lastDeclaration(toks []token, m []int) int {
	s := &stripper{toks: toks, m: m}
	k, n := s.lastStatement("const", "let", "var")
	if k < 0 || s.tok(k+1).k != tName || !s.is(k+2, "=") || k+3 >= n || !s.oneExpression(k+3, n) {
		return -1
	}
	if _, body, _ := s.funcBody(k + 1); body >= 0 {
		return -1
	}
	return k + 1
}

// lastStatement finds the last statement outside every bracket that
// begins with one of words: its index (-1 when there is none), and n, the
// tokens' end less a last ';'.
func (s *stripper) lastStatement(words ...string) (k, n int) {
	toks, m := s.toks, s.m
	n = len(toks)
	if s.is(n-1, ";") {
		n--
	}
	k = -1
	for j := 0; j < n; j++ {
		if slices.Contains(words, toks[j].v) && toks[j].k == tName && (j == 0 || toks[j].nl || s.is(j-1, ";") || s.is(j-1, "}")) {
			k = j
		}
		if m[j] > j {
			j = m[j]
		}
	}
	return k, n
}

// funcBody reads the value a declared name at i is given as a function (see
// funcValue): where its parameters open, the index just past them (and past
// an arrow's =>), where its body begins, and whether it is an arrow; body is
// -1 when the value is no function or its parameters do not close.
func (s *stripper) funcBody(i int) (open, body int, arrow bool) {
	open, arrow = s.funcValue(i)
	if open < 0 {
		return open, -1, arrow
	}
	switch {
	case s.is(open, "(") && s.m[open] > open:
		body = s.m[open] + 1
	case arrow && s.tok(open).k == tName && s.is(open+1, "=>"):
		body = open + 1 // `x => ...`: one parameter without parentheses
	default:
		return open, -1, arrow
	}
	if arrow {
		if !s.is(body, "=>") {
			return open, -1, arrow
		}
		body++
	}
	return open, body, arrow
}

// funcValue reads what a declared name at i is given when it may be a
// function, `= [async] (` (an arrow function, arrow) or `= [async] function
// [name] (`: the index where its parameters should open, or -1 when no =
// follows the name. The caller checks for the parenthesis.
func (s *stripper) funcValue(i int) (open int, arrow bool) {
	if !s.is(i+1, "=") {
		return -1, false
	}
	j := i + 2
	if s.is(j, "async") && !s.is(j+1, "=>") {
		j++
	}
	if !s.is(j, "function") {
		return j, true
	}
	if j++; s.tok(j).k == tName {
		j++ // the function expression's own name, main or not
	}
	return j, false
}

// UnwrapMain makes a program that is one function with no parameters into
// that function's body, so what it returns is the result:
//
//	async () => { ... }            async () => expr
//	(async () => { ... })()        async function main() { ... }  [main() | await main()]
//	() => { ... }                  () => expr
//	function main() { ... }
//
// A function that names itself in its body keeps its name (and the
// program stays as written).
//
// The function's head and tail become spaces (an expression body gets
// 'return' in place of its head), so positions do not move. Anything else
// comes back unchanged.
func UnwrapMain(src string) string {
	toks, ok := scan(src)
	if !ok {
		return src
	}
	m, bad := match(toks)
	if bad >= 0 {
		return src
	}
	out, _, _ := unwrapMain(src, toks, m)
	return out
}

// unwrapMain is UnwrapMain on src's tokens and their matched brackets; it
// also returns the tokens of what it returns (toks when that is src), ok
// false if they could not be read (see stripper.tokens).
func unwrapMain(src string, toks []token, m []int) (string, []token, bool) {
	out, s, extra := unwrapEdits(src, toks, m)
	if out == src {
		return src, toks, true
	}
	utoks, ok := s.tokens(out, extra...)
	return out, utoks, ok
}

// unwrapEdits is unwrapMain's text, with the stripper that erased and the
// token it wrote ("return"), if any, when the text changed.
func unwrapEdits(src string, toks []token, m []int) (string, *stripper, []token) {
	if len(toks) < 5 {
		return src, nil, nil
	}
	s := &stripper{src: src, toks: toks, m: m}
	n := len(toks)
	if s.is(n-1, ";") {
		n--
	}
	i, end := 0, n // the function is toks[i:end]
	iife := false
	// void (async () => {...})(): void, written for a linter's
	// no-floating-promises, left the call unawaited (its tool calls were
	// cancelled when the script ended).
	// So did !async function () {...}() (and void without parentheses).
	v := 0
	if s.is(0, "void") || s.is(0, "!") {
		v = 1
	}
	if s.is(v, "(") && m[v]+3 == n && s.is(m[v]+1, "(") && s.is(m[v]+2, ")") {
		i, end, iife = v+1, m[v], true
	} else if v == 1 && s.is(n-2, "(") && s.is(n-1, ")") {
		i, end, iife = 1, n-2, true
	}
	head := i
	// A function that is the whole program is its main, async or not: as a
	// script its value would be the function, not a result. A plain
	// function declaration and a call of it is a program of its own
	// (function f() { ... } f()), which the script already runs.
	async := s.is(i, "async")
	if async {
		i++
	}
	name := ""
	arrow := false
	switch {
	case s.is(i, "function"):
		i++
		if s.tok(i).k == tName {
			name = s.tok(i).v
			i++
		}
		// Its one parameter may be the global tools (toolsArgs): the body
		// means the same tools.
		if _, ok := s.toolsArgs(i); !ok || !s.is(s.m[i]+1, "{") {
			return src, nil, nil
		}
		i = s.m[i] + 1
	case s.is(i, "(") && s.is(i+1, ")") && s.is(i+2, "=>"):
		i += 3
		arrow = true
	default:
		return src, nil, nil
	}
	if !s.is(i, "{") {
		// An arrow with an expression body: 'return' replaces its head.
		if !arrow || iife && end != n-3 {
			return src, nil, nil
		}
		if !iife && s.hasTopLevel(i, end) {
			return src, nil, nil
		}
		if !async && !iife {
			// `() => expr`: the head becomes spaces, and the expression,
			// now the program's last statement, is its value (awaited when
			// a Promise). Its head may be too short to hold 'return '. An
			// expression that would read as a declaration stays.
			switch s.tok(i).v {
			case "function", "class", "let", "async":
				return src, nil, nil
			}
			s.blank(head, i)
			return s.output(), s, nil
		}
		if s.tok(i).nl {
			return src, nil, nil
		}
		start := head
		if iife {
			start = 0
			s.blank(end, len(toks))
		}
		p := toks[start].s
		if h := src[p:toks[i].s]; len(h) < len("return ") || strings.ContainsAny(h, "\n\r") {
			return src, nil, nil
		}
		s.blank(start, i)
		out := s.output()
		return out[:p] + "return" + out[p+len("return"):], s, []token{{k: tName, s: p, e: p + len("return"), v: "return"}}
	}
	body := m[i]
	rest := body + 1
	if iife && rest != end {
		return src, nil, nil // (function () {...}.bind(x))(): not the function alone
	}
	if name != "" {
		for j := i + 1; j < body; j++ {
			if s.is(j, name) && !s.isProp(j) {
				return src, nil, nil // it calls itself: it needs its name
			}
		}
	}
	if !iife {
		// Only a call of the named async function may follow.
		switch {
		case rest == end:
		case async && name != "" && s.isCall(rest, end, name):
		default:
			return src, nil, nil
		}
	}
	s.blank(0, i+1)
	s.blank(body, len(toks))
	return s.output(), s, nil
}

// isCall says whether toks[i:end] is `name()`, `await name()` or `return
// [await] name()`, with an optional ';'.
func (s *stripper) isCall(i, end int, name string) bool {
	if s.is(i, "return") {
		i++
	}
	if s.is(i, "await") {
		i++
	}
	if !s.is(i, name) || !s.is(i+1, "(") || !s.is(i+2, ")") {
		return false
	}
	i += 3
	if i < end && s.is(i, ";") {
		i++
	}
	return i == end
}

// hasTopLevel says whether a ',' or ';' at the top level of toks[i:end]
// ends the arrow's expression body before the program does.
func (s *stripper) hasTopLevel(i, end int) bool {
	for ; i < end; i++ {
		if s.m[i] > i {
			i = s.m[i]
			continue
		}
		if s.is(i, ",") || s.is(i, ";") {
			return true
		}
	}
	return false
}
