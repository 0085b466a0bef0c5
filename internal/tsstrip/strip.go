package tsstrip

import (
	"strings"
	"unicode/utf8"
)

// frame is what a bracket pair holds.
type frame uint8

const (
	fBlock  frame = iota // statements: the program, blocks, function bodies
	fExpr                // parentheses and brackets of expressions, template substitutions
	fObject              // object literals and object patterns
	fClass               // class bodies
	fParams              // parameter lists (and a catch clause's binding)
)

// States of a variable declaration and of a parameter.
const (
	dNone = iota
	dBinding
	dAfter // after the binding: ':' starts its type
	dInit
)

type stripper struct {
	src    string
	toks   []token
	m      []int
	blanks []span
	semis  []int // byte offsets (inside blanks) that become ';'
	writes []write
	// exprClose marks '}' tokens that end an expression (object literal,
	// class expression), and '!' tokens that are non-null assertions:
	// after them '!' and 'as' apply.
	exprClose map[int]bool
	err       *Error
	// typeDepth is how many type readers are open (nested).
	typeDepth int
	// module reads ES module syntax instead of failing on it (tests read
	// real JavaScript modules with it).
	module bool
}

type span struct{ s, e int }

// write puts byte b at an erased offset.
type write struct {
	off int
	b   byte
}

// Strip returns src with TypeScript's erasable syntax overwritten by
// spaces, line terminators kept, so that positions do not move. Plain
// JavaScript comes back unchanged. Code the tokenizer cannot read comes back
// unchanged too, for QuickJS to report. Syntax TypeScript cannot erase is
// an *Error.
func Strip(src string) (string, *Error) { return strip(src, false) }

func strip(src string, module bool) (string, *Error) {
	toks, ok := scan(src)
	if !ok {
		return src, nil
	}
	m, bad := match(toks)
	if bad >= 0 {
		return src, nil
	}
	s := &stripper{src: src, toks: toks, m: m, exprClose: map[int]bool{}, module: module}
	s.walk(0, len(toks), fBlock)
	if s.err != nil {
		return "", s.err
	}
	return s.output(), nil
}

func (s *stripper) output() string {
	if len(s.blanks) == 0 && len(s.writes) == 0 {
		return s.src
	}
	in := make([]bool, len(s.src)+1)
	for _, b := range s.blanks {
		for i := b.s; i < b.e && i < len(s.src); i++ {
			in[i] = true
		}
	}
	put := map[int]byte{}
	for _, o := range s.semis {
		put[o] = ';'
	}
	for _, w := range s.writes {
		put[w.off] = w.b
	}
	var b strings.Builder
	b.Grow(len(s.src))
	for i := 0; i < len(s.src); {
		r, n := utf8.DecodeRuneInString(s.src[i:])
		switch {
		case !in[i] || r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			b.WriteString(s.src[i : i+n])
		case put[i] != 0:
			b.WriteByte(put[i])
		default:
			b.WriteByte(' ')
			if r >= 0x10000 {
				b.WriteByte(' ') // QuickJS counts columns in UTF-16 units
			}
		}
		i += n
	}
	return b.String()
}

// tok returns token i, or a zero token past the end.
func (s *stripper) tok(i int) token {
	if i < 0 || i >= len(s.toks) {
		return token{}
	}
	return s.toks[i]
}

// is says whether token i is the punctuator or name v.
func (s *stripper) is(i int, v string) bool {
	t := s.tok(i)
	return (t.k == tPunct || t.k == tName) && t.v == v
}

// blank erases tokens [i, j).
func (s *stripper) blank(i, j int) {
	if j > i && i < len(s.toks) {
		s.blanks = append(s.blanks, span{s.toks[i].s, s.toks[min(j, len(s.toks))-1].e})
	}
}

// blankStmt erases the statement in tokens [i, j) and leaves a ';' where it
// began, so the statements around it stay apart as they were.
func (s *stripper) blankStmt(i, j int) {
	s.blank(i, j)
	if j > i && i < len(s.toks) {
		s.semis = append(s.semis, s.toks[i].s)
	}
}

// endType erases the type annotation (or 'as T') in tokens [i, j) and, when
// the next line starts with a token that would otherwise continue the
// expression, ends the statement there as TypeScript's parser does.
func (s *stripper) endType(i, j int) {
	s.blank(i, j)
	n := s.tok(j)
	if j > i && n.nl && (n.k == tTemplate || n.k == tTemplateHead || n.k == tRegex ||
		n.k == tPunct && strings.Contains("([+-*/", n.v[:1]) && n.v != "++" && n.v != "--") {
		s.semis = append(s.semis, s.toks[j-1].e-1)
	}
}

func (s *stripper) fail(i int, msg string) {
	if s.err == nil {
		off := len(s.src)
		if i < len(s.toks) {
			off = s.toks[i].s
		}
		line, col := position(s.src, off)
		s.err = &Error{Line: line, Column: col, Message: msg}
	}
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

// walk reads tokens [i, end) as the inside of a frame of kind f.
func (s *stripper) walk(i, end int, f frame) {
	tern, decl, param := 0, dNone, dNone
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
				s.fail(i, "TypeScript parameter properties ("+s.src[t.s:s.tok(j).e]+") are not supported: they are not erasable; declare the field and assign it in the constructor")
				return
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

// typeParams erases type parameters <...> at j, if any, and returns where
// the code goes on.
func (s *stripper) typeParams(j int) int {
	if s.is(j, "<") {
		if k, ok := s.angle(j); ok {
			s.blank(j, k)
			return k
		}
	}
	return j
}

// returnType erases a return type ': T' at j, if any, and returns where the
// code goes on.
func (s *stripper) returnType(j int) int {
	if s.is(j, ":") {
		if k, ok := s.typ(j + 1); ok {
			s.blank(j, k)
			return k
		}
	}
	return j
}

// afterParams erases a return type after a parameter list's ')' and reads
// the body; it returns where reading goes on.
func (s *stripper) afterParams(j int) int {
	if s.is(j, ":") {
		if k, ok := s.typ(j + 1); ok {
			s.blank(j, k)
			if s.is(k, "=>") && !s.tok(k).nl && strings.ContainsAny(s.src[s.toks[j].s:s.toks[k-1].e], "\n\r\u2028\u2029") {
				// JavaScript allows no line break between an arrow's
				// parameters and its '=>': the ')' moves down to the last
				// character of the erased return type, before the '=>'.
				s.blank(j-1, j)
				s.writes = append(s.writes, write{s.toks[k-1].e - 1, ')'})
			}
			j = k
		}
	}
	if s.is(j, "=>") {
		j++
	}
	if s.is(j, "{") {
		s.walk(j+1, s.m[j], fBlock)
		return s.m[j] + 1
	}
	return j
}

// function reads a function from its keyword at i.
func (s *stripper) function(i int, f frame) int {
	start := i
	if s.is(i-1, "async") {
		start = i - 1
	}
	j := i + 1
	if s.is(j, "*") {
		j++
	}
	if s.tok(j).k == tName {
		j++
	}
	j = s.typeParams(j)
	if !s.is(j, "(") {
		return i + 1
	}
	mm := s.m[j]
	s.walk(j+1, mm, fParams)
	k := mm + 1
	k = s.returnType(k)
	if s.is(k, "{") {
		s.walk(k+1, s.m[k], fBlock)
		return s.m[k] + 1
	}
	if f == fBlock && (s.is(k, ";") || k >= len(s.toks) || s.tok(k).nl) {
		// An overload signature: a declaration without a body.
		if s.is(k, ";") {
			k++
		}
		s.blankStmt(start, k)
	}
	return k
}

// class reads a class from its keyword at i: type parameters, type
// arguments of the base class and 'implements' are erased.
func (s *stripper) class(i int) int {
	j := i + 1
	if t := s.tok(j); t.k == tName && t.v != "extends" && t.v != "implements" {
		j++
	}
	j = s.typeParams(j)
	if s.is(j, "extends") {
		j++
		for j < len(s.toks) && !s.is(j, "{") && !s.is(j, "implements") {
			switch {
			case s.is(j, "(") || s.is(j, "["):
				s.walk(j+1, s.m[j], fExpr)
				j = s.m[j] + 1
			case s.is(j, "<"):
				k, ok := s.angle(j)
				if !ok {
					return j
				}
				s.blank(j, k)
				j = k
			default:
				j++
			}
		}
	}
	if s.is(j, "implements") {
		k := j + 1
		for k < len(s.toks) && !s.is(k, "{") {
			if s.is(k, "<") {
				e, ok := s.angle(k)
				if !ok {
					return k
				}
				k = e
				continue
			}
			k++
		}
		s.blank(j, k)
		j = k
	}
	if s.is(j, "{") {
		s.walk(j+1, s.m[j], fClass)
		s.exprClose[s.m[j]] = true
		return s.m[j] + 1
	}
	return j
}

// member reads a class member's head from i. It returns where reading goes
// on and whether an initializer (an expression) follows.
func (s *stripper) member(i, end int) (int, bool) {
	start := i
	for s.is(i, "@") { // decorators
		i++
		for s.tok(i).k == tName || s.is(i, ".") {
			i++
		}
		if s.is(i, "(") {
			s.walk(i+1, s.m[i], fExpr)
			i = s.m[i] + 1
		}
	}
	erase := false
	for {
		t, n := s.tok(i), s.tok(i+1)
		if t.k != tName || n.nl || !(n.k == tName || n.k == tString || n.k == tNumber || n.k == tPrivate || n.v == "[" || n.v == "*" || n.v == "{") {
			break
		}
		if t.v == "static" && n.v == "{" {
			s.walk(i+2, s.m[i+1], fBlock)
			return s.m[i+1] + 1, false
		}
		if n.v == "{" {
			break
		}
		switch t.v {
		case "public", "private", "protected", "readonly", "override":
			s.blank(i, i+1)
		case "abstract", "declare":
			erase = true
		case "static", "async", "get", "set", "accessor":
		default:
			return start, false
		}
		i++
	}
	if s.is(i, "[") && s.tok(i+1).k == tName && s.is(i+2, ":") {
		// An index signature.
		j := s.m[i] + 1
		if s.is(j, ":") {
			k, ok := s.typ(j + 1)
			if !ok {
				return start, false
			}
			j = k
		}
		if s.is(j, ";") {
			j++
		}
		s.blankStmt(start, j)
		return j, false
	}
	if s.is(i, "*") {
		i++
	}
	switch t := s.tok(i); {
	case t.v == "[" && t.k == tPunct:
		s.walk(i+1, s.m[i], fExpr)
		i = s.m[i] + 1
	case t.k == tName || t.k == tString || t.k == tNumber || t.k == tPrivate:
		i++
	default:
		return start, false
	}
	if s.is(i, "?") || s.is(i, "!") {
		s.blank(i, i+1)
		i++
	}
	i = s.typeParams(i)
	if s.is(i, "(") {
		mm := s.m[i]
		s.walk(i+1, mm, fParams)
		k := mm + 1
		k = s.returnType(k)
		if s.is(k, "{") && !erase {
			s.walk(k+1, s.m[k], fBlock)
			return s.m[k] + 1, false
		}
		// An overload or abstract method: no body.
		if s.is(k, "{") {
			k = s.m[k] + 1
		} else if s.is(k, ";") {
			k++
		}
		s.blankStmt(start, k)
		return k, false
	}
	if s.is(i, ":") {
		if k, ok := s.typ(i + 1); ok {
			s.endType(i, k)
			i = k
		}
	}
	if erase {
		for i < end && !s.is(i, ";") && !s.tok(i).nl {
			if s.is(i, "(") || s.is(i, "[") || s.is(i, "{") {
				i = s.m[i]
			}
			i++
		}
		if s.is(i, ";") {
			i++
		}
		s.blankStmt(start, i)
		return i, false
	}
	if s.is(i, "=") {
		return i + 1, true
	}
	return i, false
}

// statement erases a TypeScript-only statement at i, or fails on one that
// cannot be erased; it returns i when the statement is JavaScript.
func (s *stripper) statement(i, end int) int {
	t, n := s.tok(i), s.tok(i+1)
	if t.k != tName || s.isProp(i) {
		return i
	}
	sameLineName := (n.k == tName) && !n.nl
	switch t.v {
	case "interface":
		if sameLineName && n.v != "in" && n.v != "instanceof" {
			j := i + 2
			for j < end && !s.is(j, "{") {
				if s.is(j, "<") {
					k, ok := s.angle(j)
					if !ok {
						return i
					}
					j = k
					continue
				}
				j++
			}
			if j >= end {
				return i
			}
			s.blankStmt(i, s.m[j]+1)
			return s.m[j] + 1
		}
	case "type":
		if sameLineName && (s.is(i+2, "=") || s.is(i+2, "<")) {
			j := i + 2
			if s.is(j, "<") {
				k, ok := s.angle(j)
				if !ok {
					return i
				}
				j = k
			}
			if !s.is(j, "=") {
				return i
			}
			k, ok := s.typ(j + 1)
			if !ok {
				return i
			}
			if s.is(k, ";") {
				k++
			}
			s.blankStmt(i, k)
			return k
		}
	case "declare":
		if sameLineName {
			if j := s.declaration(i + 1); j > i+1 {
				s.blankStmt(i, j)
				return j
			}
		}
	case "abstract":
		if n.v == "class" && !n.nl {
			s.blank(i, i+1)
			return i + 1
		}
	case "enum":
		if sameLineName && s.is(i+2, "{") {
			s.fail(i, "TypeScript enum is not supported: it is not erasable; use a const object or a union of string literals")
		}
	case "const":
		if n.v == "enum" && s.tok(i+2).k == tName {
			s.fail(i, "TypeScript const enum is not supported: it is not erasable; use a const object or a union of string literals")
		}
	case "namespace", "module":
		if (sameLineName || t.v == "module" && n.k == tString && !n.nl) && n.v != "in" {
			j := i + 2
			for s.is(j, ".") && s.tok(j+1).k == tName {
				j += 2
			}
			if !s.is(j, "{") {
				return i
			}
			if !s.typeOnly(j+1, s.m[j]) {
				s.fail(i, "TypeScript "+t.v+" with values is not supported: it is not erasable; use a plain object")
				return i
			}
			s.blankStmt(i, s.m[j]+1)
			return s.m[j] + 1
		}
	case "import":
		if n.v == "type" && (s.tok(i+2).k == tName || s.is(i+2, "{") || s.is(i+2, "*")) {
			j := i + 2
			for j < end && s.tok(j).k != tString {
				j++
			}
			j++
			if s.is(j, ";") {
				j++
			}
			s.blankStmt(i, j)
			return j
		}
		if n.v != "(" && n.v != "." {
			if s.module {
				return s.moduleStatement(i + 1)
			}
			s.fail(i, "import is not available: the sandbox has no modules; use the tools you are given instead")
		}
	case "export":
		if n.v == "type" && s.is(i+2, "{") {
			j := s.m[i+2] + 1
			if s.is(j, "from") {
				j += 2
			}
			if s.is(j, ";") {
				j++
			}
			s.blankStmt(i, j)
			return j
		}
		if n.v == "type" || n.v == "interface" || n.v == "declare" {
			if j := s.statement(i+1, end); j > i+1 {
				s.blank(i, i+1)
				return j
			}
		}
		if s.module {
			if n.v == "{" || n.v == "*" {
				return s.moduleStatement(i + 1)
			}
			if n.v == "default" {
				return i + 2
			}
			return i + 1
		}
		// Models used to modules write their program as one: `export
		// default async function main() {...}`, `export async function
		// main()`, `export default async () => {...}`. Without the export
		// these are the whole-program forms Program calls; other exports
		// (a const, an anonymous function) stay an error that says why.
		if k := s.exportedMain(i); k > i {
			s.blank(i, k)
			return k
		}
		s.fail(i, "export is not available: the code is the body of a function; return the result instead")
	}
	return i
}

// exportedMain returns the index of the function after `export` or `export
// default` at i when it is a named function declaration or (after
// `default`) an arrow or parenthesized expression, else i.
func (s *stripper) exportedMain(i int) int {
	k := i + 1
	isDefault := s.is(k, "default")
	if isDefault {
		k++
	}
	f := k
	if s.is(f, "async") && !s.tok(f+1).nl {
		f++
	}
	if s.is(f, "function") && (s.tok(f+1).k == tName || s.is(f+1, "*") && s.tok(f+2).k == tName) {
		return k
	}
	if isDefault && (s.is(f, "(") || f > k && s.tok(f).k == tName && s.is(f+1, "=>")) {
		return k
	}
	return i
}

// moduleStatement skips an import or export clause from i: its bindings
// ({ a as b }, * as ns, a default name) up to and with its module string.
func (s *stripper) moduleStatement(i int) int {
	for i < len(s.toks) && s.tok(i).k != tString && !s.is(i, ";") && !(s.tok(i).nl && !s.is(i-1, ",") && !s.is(i-1, "{") && !s.is(i, "from") && !s.is(i, "}")) {
		if s.is(i, "{") {
			i = s.m[i]
		}
		i++
	}
	if s.tok(i).k == tString {
		i++
	}
	return i
}

// declaration finds the end of what follows 'declare' at i.
func (s *stripper) declaration(i int) int {
	switch s.tok(i).v {
	case "const", "let", "var":
		j := i + 1
		for {
			if s.is(j, "{") || s.is(j, "[") {
				j = s.m[j] + 1
			} else if s.tok(j).k == tName {
				j++
			} else {
				return i
			}
			if s.is(j, ":") {
				k, ok := s.typ(j + 1)
				if !ok {
					return i
				}
				j = k
			}
			if !s.is(j, ",") {
				break
			}
			j++
		}
		if s.is(j, ";") {
			j++
		}
		return j
	case "async", "function":
		j := i + 1
		if s.tok(i).v == "async" {
			j++
		}
		if s.tok(j).k == tName {
			j++
		}
		if s.is(j, "<") {
			k, ok := s.angle(j)
			if !ok {
				return i
			}
			j = k
		}
		if !s.is(j, "(") {
			return i
		}
		j = s.m[j] + 1
		if s.is(j, ":") {
			k, ok := s.typ(j + 1)
			if !ok {
				return i
			}
			j = k
		}
		if s.is(j, ";") {
			j++
		}
		return j
	case "type", "interface":
		if j := s.statement(i, len(s.toks)); j > i {
			return j
		}
		return i
	case "class", "abstract", "global", "module", "namespace", "enum":
		j := i + 1
		for j < len(s.toks) && !s.is(j, "{") && !s.is(j, ";") {
			j++
		}
		if s.is(j, "{") {
			return s.m[j] + 1
		}
		return i
	}
	return i
}

// typeOnly says whether a namespace body declares types only.
func (s *stripper) typeOnly(i, end int) bool {
	for ; i < end; i++ {
		if s.is(i, "{") || s.is(i, "(") || s.is(i, "[") {
			i = s.m[i]
			continue
		}
		if t := s.tok(i); t.k == tName && !s.isProp(i) {
			switch t.v {
			case "const", "let", "var", "function", "class", "enum":
				return false
			case "namespace", "module":
				// A nested namespace of types only is still types.
				j := i + 1
				for s.tok(j).k == tName || s.tok(j).k == tString || s.is(j, ".") {
					j++
				}
				if !s.is(j, "{") || !s.typeOnly(j+1, s.m[j]) {
					return false
				}
				i = s.m[j]
			case "declare":
				// declare const x: T declares no value the program has.
				if d := s.declaration(i + 1); d > i+1 {
					i = d - 1
				}
			}
		}
	}
	return true
}

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
