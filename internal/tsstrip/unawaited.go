package tsstrip

// UnawaitedCall is a statement that calls an async function the program
// declares and does nothing with the promise: `save(x);`. The program goes
// on (and may end) before the call finishes, and a rejection of that
// promise is lost: the pinned QuickJS build exposes no rejection tracker.
type UnawaitedCall struct {
	Line int    // 1-based, of the function's name at the call
	Name string // the function's name
}

// unawaitedCalls finds the statements `f(...)` (ended by ';', '}', the end
// or a line break before a statement) where f is an async function that
// the program declares at its top level: `async function f`, or `const`,
// `let` or `var f = async function` or an async arrow. Only where the
// answer is certain, so that no warning is false:
//
//   - every other appearance of the name is a call, a property (`o.f`,
//     `{ f: 1 }`, a method `f() {}`): a parameter, a variable, a second
//     declaration, an assignment or any other read of f anywhere could
//     make f something else at the call, and the name is left alone;
//   - the call stands as a statement: not after await, void, return, '=',
//     '(' or ',' (its promise is used), nor followed by '.', '?.', an
//     operator or '(' (`f().catch(...)`);
//   - in a script (body false), only a call inside a function: the
//     script's completion value may be that promise, and the host awaits
//     it (`main();` last), so a call outside every function is left out.
//
// body says that the program is the body of an async function (a
// top-level return). m holds toks' matched brackets.
func unawaitedCalls(src string, toks []token, m []int, body bool) []UnawaitedCall {
	s := &stripper{toks: toks, m: m}
	// Each declared name and its token; -1 once the name is not certain.
	decls := map[string]int{}
	for i, depth := range nameDepths(toks) {
		if depth != 0 {
			continue
		}
		if name, at := asyncDecl(s, i); name != "" {
			if _, seen := decls[name]; seen {
				decls[name] = -1
			} else {
				decls[name] = at
			}
		}
	}
	if len(decls) == 0 {
		return nil
	}
	var calls []int
	for i, t := range toks {
		decl, ok := decls[t.v]
		if t.k != tName || !ok || decl < 0 || i == decl {
			continue
		}
		if i > 0 && isDot(toks[i-1]) || s.is(i+1, ":") {
			continue // a property, a key, a label or a branch of ?: (no binding)
		}
		if !s.is(i+1, "(") || m[i+1] >= len(toks) || s.is(i-1, "function") || s.is(i-1, "*") {
			decls[t.v] = -1 // any other use of the name: not certain
			continue
		}
		if s.is(m[i+1]+1, "{") {
			continue // a method's definition
		}
		calls = append(calls, i)
	}
	if len(calls) == 0 {
		return nil
	}
	encl := enclosing(toks, m)
	var out []UnawaitedCall
	for _, i := range calls {
		name := toks[i].v
		if decls[name] < 0 || !bareStatement(s, encl, i) || !body && !inFunction(s, encl, i) {
			continue
		}
		line, _ := position(src, toks[i].s)
		out = append(out, UnawaitedCall{Line: line, Name: name})
	}
	return out
}

// asyncDecl returns the name that toks[i] starts declaring as an async
// function, and the index of that name's token: `async function f (`
// (not a generator, whose call runs nothing), or `const|let|var f = async`
// then `function` or an arrow's parameters and `=>`. A line break after
// async makes it a name.
func asyncDecl(s *stripper, i int) (string, int) {
	switch {
	case s.is(i, "async") && s.is(i+1, "function") && !s.tok(i+1).nl:
		if n := s.tok(i + 2); n.k == tName && s.is(i+3, "(") {
			return n.v, i + 2
		}
	case s.is(i, "const") || s.is(i, "let") || s.is(i, "var"):
		n := s.tok(i + 1)
		if n.k != tName || !s.is(i+2, "=") || !s.is(i+3, "async") || s.tok(i+4).nl {
			return "", 0
		}
		j := i + 4
		switch {
		case s.is(j, "function") && !s.is(j+1, "*"),
			s.tok(j).k == tName && s.is(j+1, "=>"),
			s.is(j, "(") && s.m[j] < len(s.toks) && s.is(s.m[j]+1, "=>"):
			return n.v, i + 1
		}
	}
	return "", 0
}

// enclosing gives, for each token, the index of the innermost bracket
// (or template piece) open around it, -1 at the top level.
func enclosing(toks []token, m []int) []int {
	out := make([]int, len(toks))
	var stack []int
	for i, t := range toks {
		opens, closes := t.k == tTemplateHead || t.k == tTemplateMid, t.k == tTemplateMid || t.k == tTemplateTail
		if t.k == tPunct {
			opens, closes = t.v == "(" || t.v == "[" || t.v == "{", t.v == ")" || t.v == "]" || t.v == "}"
		}
		if closes && len(stack) > 0 {
			stack = stack[:len(stack)-1]
		}
		out[i] = -1
		if len(stack) > 0 {
			out[i] = stack[len(stack)-1]
		}
		if opens {
			stack = append(stack, i)
		}
	}
	return out
}

// bareStatement says whether the call whose name is toks[i] is a whole
// statement: in a block or at the top level, after the start of one, and
// ended by ';', '}', the end, or a line break before a name that begins
// the next statement (ASI).
func bareStatement(s *stripper, encl []int, i int) bool {
	if o := encl[i]; o >= 0 && !s.is(o, "{") {
		return false
	}
	if i > 0 {
		switch p := s.toks[i-1]; {
		case p.k == tPunct && (p.v == ";" || p.v == "{" || p.v == "}" || p.v == ")"):
		case p.k == tName && (p.v == "else" || p.v == "do"):
		case s.toks[i].nl && endsValue(p):
			// `x` then a line break then `f()`: `x f()` cannot be one
			// statement, so a semicolon is inserted between them.
		default:
			return false
		}
	}
	n := s.m[i+1] + 1
	if n >= len(s.toks) || s.is(n, ";") || s.is(n, "}") {
		return true
	}
	t := s.toks[n]
	return t.nl && t.k == tName && t.v != "in" && t.v != "instanceof"
}

// inFunction says whether toks[i] is inside a function's body: a '{'
// after '=>', or after the parameters of a function or a method (a ')'
// whose '(' does not follow if, for, while, switch, catch or with).
func inFunction(s *stripper, encl []int, i int) bool {
	for o := encl[i]; o >= 0; o = encl[o] {
		if !s.is(o, "{") || o == 0 {
			continue
		}
		if s.is(o-1, "=>") {
			return true
		}
		if !s.is(o-1, ")") {
			continue
		}
		open := s.m[o-1]
		if open < 0 || open >= o {
			continue
		}
		head := s.tok(open - 1)
		if head.k == tName && (head.v == "await" || controlHeads[head.v]) {
			continue // for await (...), if (...), ...
		}
		return true
	}
	return false
}

var controlHeads = words("if for while switch catch with")

// endsValue says whether a statement can end with token t: a name that is
// not an operator or a keyword expecting more, a literal, ']', '++', '--'.
func endsValue(t token) bool {
	switch t.k {
	case tName:
		return !expectsMore[t.v]
	case tString, tNumber, tTemplate, tTemplateTail, tRegex:
		return true
	case tPunct:
		return t.v == "]" || t.v == "++" || t.v == "--"
	}
	return false
}

var expectsMore = words("await void typeof new delete in instanceof of case extends return yield throw async let const var function class import export default else do")
