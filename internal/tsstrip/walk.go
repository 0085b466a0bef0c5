package tsstrip

// walk reads tokens [i, end) as the inside of a frame of kind f.
func (s *stripper) walk(i, end int, f frame) {
	tern, decl, param, first := 0, dNone, dNone, i
	if f == fParams {
		param = dBinding
	}
	stmt, member, inInit := f == fBlock, f == fClass, false
	for i < end && s.err == nil {
		t := s.toks[i]
		if f == fBlock && (stmt || t.nl) && tern == 0 {
			if j := s.statement(i, end); j > i {
				i, stmt, decl = j, true, dNone
				continue
			}
		}
		atStmt := stmt
		stmt = false
		if f == fClass && (member || inInit && t.nl && tern == 0 && s.exprEnd(i-1) && (t.k == tName || t.k == tPrivate || t.v == "@" || t.k == tString)) {
			j, init := s.member(i, end)
			if j > i {
				i, member, inInit = j, !init, init
				continue
			}
		}
		member = false
		if f == fParams {
			switch {
			case param == dBinding && t.k == tName && isParamModifier(t.v) && !s.tok(i+1).nl &&
				(s.tok(i+1).k == tName || s.is(i+1, "{") || s.is(i+1, "[")):
				j := i
				for isParamModifier(s.tok(j).v) {
					j++
				}
				if s.ctorParams != first || s.tok(j).k != tName {
					s.fail(i, "TypeScript parameter property ("+s.src[t.s:s.tok(j).e]+") must be a name among a constructor's parameters; declare the field and assign it in the constructor")
					return
				}
				// A parameter property: the constructor assigns it (props).
				s.blank(i, j)
				s.props = append(s.props, j)
				i = j
				continue
			case param == dBinding && (t.v == "..." || t.v == "@"):
				i++
				continue
			case param == dBinding && t.k == tName && t.v == "this" && s.is(i+1, ":"):
				// A 'this' parameter only types 'this': erase it and its comma.
				j, ok := s.typ(i + 2)
				if !ok {
					return
				}
				if s.is(j, ",") {
					j++
				}
				s.blank(i, j)
				i = j
				continue
			case param == dAfter && t.v == "?":
				s.blank(i, i+1) // an optional parameter
				i++
				continue
			}
			if j := s.binding(i, &param, tern, s.blank); j > i {
				i = j
				continue
			}
		}
		if decl != dNone && tern == 0 {
			if decl == dAfter && t.v == "!" && s.is(i+1, ":") {
				s.blank(i, i+1) // definite assignment: let x!: T
				i++
				continue
			}
			if j := s.binding(i, &decl, tern, s.endType); j > i {
				i = j
				continue
			}
			if decl == dAfter {
				decl = dNone // for (const x of xs): no type, no initializer
			}
		}
		switch t.k {
		case tTemplateHead, tTemplateMid:
			s.walk(i+1, s.m[i], fExpr)
			i = s.m[i]
			continue
		case tPunct:
			switch t.v {
			case ";":
				decl, tern, stmt = dNone, 0, f == fBlock
				member, inInit = f == fClass, false
			case "?":
				tern++
			case ":":
				if tern > 0 {
					tern--
				}
			case "!":
				if !t.nl && s.exprEnd(i-1) {
					s.blank(i, i+1) // non-null assertion
					s.exprClose[i] = true
				}
			case "<":
				if j, ok := s.angle(i); ok && (!s.exprEnd(i-1) || s.typeArgsFollow(j)) {
					// Type arguments f<T>(x), type parameters <T>(x) => x,
					// or an old-style assertion <T>x.
					s.blank(i, j)
					i = j
					continue
				}
			case "(":
				mm := s.m[i]
				if s.isParams(i, f, tern) {
					s.walk(i+1, mm, fParams)
					i = s.afterParams(mm + 1)
				} else {
					s.walk(i+1, mm, fExpr)
					i = mm + 1
				}
				continue
			case "[":
				s.walk(i+1, s.m[i], fExpr)
				i = s.m[i] + 1
				continue
			case "{":
				mm := s.m[i]
				if s.blockBrace(i, f, stmt, tern) {
					s.walk(i+1, mm, fBlock)
					stmt = f == fBlock
				} else {
					s.walk(i+1, mm, fObject)
					s.exprClose[mm] = true
				}
				i = mm + 1
				continue
			}
		case tName:
			if s.isProp(i) {
				break
			}
			switch t.v {
			case "const", "var", "let":
				// A declaration, not a property named so ({ const: 1 }).
				if n := s.tok(i + 1); n.k == tName || n.v == "{" || n.v == "[" {
					decl = dBinding
				}
			case "as", "satisfies":
				if !t.nl && s.exprEnd(i-1) {
					if j, ok := s.typ(i + 1); ok {
						// x as const satisfies T: the chain ends one expression.
						for (s.is(j, "as") || s.is(j, "satisfies")) && !s.tok(j).nl {
							k, ok := s.typ(j + 1)
							if !ok {
								break
							}
							j = k
						}
						s.endType(i, j)
						i = j
						continue
					}
				}
			case "function":
				i = s.function(i, f)
				if !atStmt && s.is(i-1, "}") {
					// A function expression: `as T` may follow it.
					s.exprClose[i-1] = true
				}
				stmt = atStmt || s.is(i-1, "async") && f == fBlock && s.tok(i-1).nl
				continue
			case "class":
				i = s.class(i)
				stmt = atStmt
				continue
			case "import":
				if (s.is(i+1, "(") || s.is(i+1, ".")) && !s.module {
					s.fail(i, "import() is not available: the sandbox has no modules; use the tools you are given instead")
					return
				}
			}
		}
		i++
	}
}

// binding reads token i of a variable declaration or a parameter list,
// whose state it advances: a name or a pattern is the binding, ':' starts
// its type (erased by erase), '=' its initializer, and ',' outside a
// conditional starts the next binding. It returns i for a token that is
// not its to read.
func (s *stripper) binding(i int, state *int, tern int, erase func(i, j int)) int {
	t := s.tok(i)
	switch {
	case *state == dBinding && t.k == tName:
		*state = dAfter
		return i + 1
	case *state == dBinding && (t.v == "{" || t.v == "["):
		s.walk(i+1, s.m[i], fObject)
		s.exprClose[s.m[i]] = true
		*state = dAfter
		return s.m[i] + 1
	case *state == dAfter && t.v == ":":
		if j, ok := s.typ(i + 1); ok {
			erase(i, j)
			return j
		}
	case *state == dAfter && t.v == "=":
		*state = dInit
		return i + 1
	case t.v == "," && tern == 0:
		*state = dBinding
		return i + 1
	}
	return i
}

func isParamModifier(v string) bool {
	switch v {
	case "public", "private", "protected", "readonly", "override":
		return true
	}
	return false
}

// blockBrace says whether the '{' at i opens a block (else an object).
func (s *stripper) blockBrace(i int, f frame, stmt bool, tern int) bool {
	if f == fBlock && stmt {
		return true
	}
	p := s.tok(i - 1)
	if i == 0 {
		return true
	}
	// `const x = 2` and a '{' on the next line: no expression goes on
	// with a '{' after a value, so the statement ended there (ASI) and
	// this is a block; read as an object, a using or an enum in it was
	// left as it was (a syntax error in QuickJS).
	if f == fBlock && s.toks[i].nl && endsValue(p) {
		return true
	}
	switch p.k {
	case tPunct:
		switch p.v {
		case ";", "}", ")", "=>":
			return true
		case "{":
			return f == fBlock
		case ":":
			return f == fBlock && tern == 0 // case x: {
		}
	case tName:
		switch p.v {
		case "else", "try", "finally", "do":
			return true
		}
	}
	return false
}

// isParams says whether the '(' at i opens a parameter list: of an arrow
// function, a catch clause, or a method of an object literal.
func (s *stripper) isParams(i int, f frame, tern int) bool {
	mm := s.m[i]
	if s.is(i-1, "catch") && !s.isProp(i-1) {
		return true
	}
	if s.is(mm+1, "=>") {
		return true
	}
	if s.is(mm+1, ":") && (tern == 0 || s.annotated(i+1, mm)) {
		// In a conditional, `a ? (b) : c => d` is JavaScript: only
		// parameters that carry types make `(x: T): R => e` an arrow.
		if j, ok := s.typ(mm + 2); ok && (s.is(j, "=>") || f == fObject && s.is(j, "{")) {
			return true
		}
	}
	if f == fObject && s.is(mm+1, "{") {
		p := s.tok(i - 1)
		return p.k == tName || p.k == tString || p.k == tNumber || p.v == "]" || p.v == ">"
	}
	return false
}

// annotated says whether the parameter list in tokens [i, end) has a type
// annotation at its top level.
func (s *stripper) annotated(i, end int) bool {
	for ; i < end; i++ {
		if s.m[i] > i {
			i = s.m[i]
			continue
		}
		if s.is(i, ":") {
			return true
		}
	}
	return false
}

var notExprEnd = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true, "delete": true,
	"void": true, "throw": true, "case": true, "do": true, "else": true, "yield": true, "await": true,
	"extends": true, "const": true, "let": true, "var": true, "if": true, "while": true, "for": true,
	"switch": true, "catch": true, "with": true, "export": true, "import": true, "default": true,
	"function": true, "class": true, "async": true, "as": true, "satisfies": true, "try": true, "finally": true,
}

// exprEnd says whether token i can end an expression.
func (s *stripper) exprEnd(i int) bool {
	t := s.tok(i)
	switch t.k {
	case tName:
		return !notExprEnd[t.v] || s.is(i-1, ".") || s.is(i-1, "?.")
	case tNumber, tString, tTemplate, tTemplateTail, tRegex, tPrivate:
		return true
	case tPunct:
		switch t.v {
		case ")":
			// Not the head of if/for/while/with: `for (x of y) !z`.
			o := s.m[i]
			if o > 0 && s.is(o-1, "await") {
				o--
			}
			if p := s.tok(o - 1); o > 0 && p.k == tName && !s.isProp(o-1) {
				switch p.v {
				case "if", "for", "while", "with":
					return false
				}
			}
			return true
		case "]":
			return true
		case "}", "!":
			return s.exprClose[i] // an object literal; a non-null assertion
		}
	}
	return false
}

// isProp says whether the name at i is a property name after '.'.
func (s *stripper) isProp(i int) bool { return s.is(i-1, ".") || s.is(i-1, "?.") }

// typeArgsFollow says whether the token after a '<...>' at j makes it type
// arguments rather than comparisons: '(' or a template (a call), or a token
// that cannot start an expression.
func (s *stripper) typeArgsFollow(j int) bool {
	t := s.tok(j)
	switch t.k {
	case 0, tTemplate, tTemplateHead:
		return true
	case tPunct:
		switch t.v {
		case "(", ")", "]", "}", ",", ";", ".", "?.", ":", "=", "==", "===", "!=", "!==", "&&", "||", "??", "?":
			return true
		}
	}
	return false
}
