// Package tsstrip prepares the code a model writes for QuickJS without a
// compiler: it erases TypeScript's erasable syntax by overwriting it with
// spaces (so every line and column of the remaining JavaScript is where the
// model wrote it), unwraps markdown fences and whole-program main
// functions, and checks that a function body cannot close the function it
// is compiled into.
//
// It is a tokenizer plus a small recursive reader of the token stream, not
// a parser: it knows where types can appear (annotations, `as`,
// `satisfies`, type arguments and parameters, declarations) and skips them
// with a type grammar. What TypeScript cannot erase (enum, namespace with
// values, parameter properties, using) becomes tsc's JavaScript, written on
// the lines of what it replaces (edits), so later lines do not move.
//
// Where things are, in reading order:
//   - scan.go: the tokenizer, bracket matching and CheckBody.
//   - strip.go: Strip, the stripper's state and what it writes (erased
//     spans, ';' where a statement was, a moved ')', edits).
//   - values.go, using.go, class.go's assignProps: enum, namespace, using
//     and parameter properties rewritten as tsc emits them.
//   - walk.go: the walk over a bracket pair's tokens by what it holds
//     (block, expression, object, class body, parameters): where types
//     can start, and whether a token ends an expression.
//   - statement.go: TypeScript-only statements (type, interface, declare,
//     namespace, enum, import/export) erased or refused.
//   - function.go, class.go: functions' type parameters and return types;
//     classes' heritage clauses and members.
//   - types.go: the type grammar that finds where a type ends.
//   - program.go: Program and Prepare, the steps in order; fence.go the
//     markdown fences around the program; main.go a whole-program main
//     unwrapped (or called); edited.go re-tokenizes the stripper's output.
//   - nesting.go, asyncforeach.go, callsite.go: checks and look-ups on a
//     prepared program (nesting depth, async forEach callbacks, the call
//     of a tool).
package tsstrip

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

type kind uint8

const (
	tName kind = iota + 1 // identifiers and keywords
	tPunct
	tString
	tNumber
	tTemplate     // a template without substitutions
	tTemplateHead // `...${
	tTemplateMid  // }...${
	tTemplateTail // }...`
	tRegex
	tPrivate // #name
)

type token struct {
	s, e int // byte offsets in the source
	v    string
	k    kind
	nl   bool // a line terminator comes between the previous token and this one
}

// Error is a syntax error at a 1-based line and column (in characters) of
// the source.
type Error struct {
	Line, Column int
	Message      string
}

func (e *Error) Error() string { return e.Message }

// punctuators, longest first. '>' is always its own token: in types it
// closes type argument lists one at a time, and nothing here needs to tell
// '>>' from '> >'.
var punctuators = []string{
	"...", "===", "!==", "**=", "<<=", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", "**",
}

// punctuatorsBy lists the punctuators by their first byte, longest first.
var punctuatorsBy = punctuatorsByByte()

// punctuatorsByByte is punctuatorsBy. Not inlined into the package's init (TestCoreInitInlinesNoLoop says why).
//
//go:noinline
func punctuatorsByByte() (by [0x80][]string) {
	for _, p := range punctuators {
		by[p[0]] = append(by[p[0]], p)
	}
	return by
}

// regexAfter lists the keywords after which '/' starts a regular expression.
var regexAfter = words("return typeof instanceof in of new delete void throw case do else yield await extends")

type scanner struct {
	src  string
	toks []token
	// braces says, for each '{' (or template substitution) still open,
	// whether it opened a template substitution.
	braces []bool
	// parens remembers, for each '(' still open, whether it is the head of
	// if/while/for/with, after which '/' starts a regular expression.
	parens []bool
	// closedHead is set while the last token is the ')' of such a head.
	closedHead bool
	// openTemplate is set when the source ends inside a template literal.
	openTemplate bool
	// openComment is set when it ends inside a block comment opened where
	// code puts one (first on its line, or after ; { } ( ) , = [), not
	// prose's "src/*.js".
	openComment bool
	// midComment is set when it ends inside one opened after other code
	// ("x = 1 /*", "x = 1 /*note") with white space before it, or white
	// space or a second * after it, as code writes one and a glob
	// ("src/*.js") does not: code's if it closes later and its line reads
	// as code (inCode).
	midComment bool
}

// scan splits src into tokens. It fails (ok false) on an unterminated
// string, template, comment or regular expression; callers then leave the
// code to QuickJS, which reports the error itself, and the tokens before
// the failure are what QuickJS parses before it gets there (nesting).
func scan(src string) ([]token, bool) {
	// Up to one token per two bytes of code (a model's dense code has one
	// per three): one allocation, not a series of growths, each a copy.
	s := &scanner{src: src, toks: make([]token, 0, len(src)/2+4)}
	return s.run()
}

func (s *scanner) run() ([]token, bool) {
	src := s.src
	i, nl := 0, false
	if strings.HasPrefix(src, "#!") {
		for i < len(src) && src[i] != '\n' {
			i++
		}
	}
	for next := beatBytes; ; {
		if i >= next {
			beat(i)
			next = i + beatBytes
		}
		// Skip white space and comments, noting line terminators.
		for i < len(src) {
			c := src[i]
			if c == '\n' || c == '\r' {
				nl = true
				i++
			} else if c == ' ' || c == '\t' || c == '\v' || c == '\f' {
				i++
			} else if c == '/' && i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' && src[i] != '\r' && !strings.HasPrefix(src[i:], "\u2028") && !strings.HasPrefix(src[i:], "\u2029") {
					i++
				}
			} else if c == '/' && i+1 < len(src) && src[i+1] == '*' {
				end := strings.Index(src[i+2:], "*/")
				if end < 0 {
					j := strings.TrimRight(src[:i], " \t")
					s.openComment = j == "" || strings.IndexByte("\n\r;{}(),=[", j[len(j)-1]) >= 0
					s.midComment = len(j) < i || i+2 == len(src) || strings.IndexByte(" \t\r\n*", src[i+2]) >= 0
					return s.toks, false
				}
				if strings.ContainsAny(src[i:i+2+end], "\n\r\u2028\u2029") {
					nl = true
				}
				i += end + 4
			} else if c >= 0x80 {
				r, n := utf8.DecodeRuneInString(src[i:])
				if r == '\u2028' || r == '\u2029' {
					nl = true
				} else if !unicode.IsSpace(r) && r != '\ufeff' {
					break
				}
				i += n
			} else {
				break
			}
		}
		if i >= len(src) {
			return s.toks, true
		}
		t, ok := s.next(i)
		if !ok {
			return s.toks, false
		}
		t.nl = nl
		nl = false
		s.closedHead = false
		if t.k == tPunct {
			switch t.v {
			case "(":
				head := false
				if n := len(s.toks); n > 0 && s.toks[n-1].k == tName {
					switch s.toks[n-1].v {
					case "if", "while", "for", "with":
						head = true
					}
				}
				s.parens = append(s.parens, head)
			case ")":
				if n := len(s.parens); n > 0 {
					s.closedHead = s.parens[n-1]
					s.parens = s.parens[:n-1]
				}
			case "{":
				s.braces = append(s.braces, false)
			case "}":
				if n := len(s.braces); n > 0 {
					s.braces = s.braces[:n-1]
				}
			}
		} else if t.k == tTemplateHead {
			s.braces = append(s.braces, true)
		} else if t.k == tTemplateTail && len(s.braces) > 0 {
			s.braces = s.braces[:len(s.braces)-1]
		}
		s.toks = append(s.toks, t)
		i = t.e
	}
}

func isIDStart(r rune) bool {
	return r == '$' || r == '_' || r == '\\' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
}

func isIDPart(r rune) bool {
	return isIDStart(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) ||
		unicode.Is(unicode.Pc, r) || r == '\u200c' || r == '\u200d'
}

// regexAllowed says whether a '/' here starts a regular expression, from
// the token before it.
func (s *scanner) regexAllowed() bool {
	n := len(s.toks)
	if n == 0 {
		return true
	}
	p := s.toks[n-1]
	switch p.k {
	case tName:
		return regexAfter[p.v]
	case tNumber, tString, tTemplate, tTemplateTail, tRegex, tPrivate:
		return false
	}
	switch p.v {
	case ")":
		return s.closedHead
	case "]", "++", "--":
		return false
	case "}":
		// After a block a statement may start with a regex; after an
		// object literal '/' divides. Blocks are the common case.
		return true
	}
	return true
}

func (s *scanner) next(i int) (token, bool) {
	src := s.src
	c := src[i]
	r, n := rune(c), 1
	if c >= 0x80 {
		r, n = utf8.DecodeRuneInString(src[i:])
	}
	switch {
	case isIDStart(r) || c == '#':
		j := i + n
		k := tName
		if c == '#' {
			k = tPrivate
		}
		for j < len(src) {
			if d := src[j]; d < 0x80 && d != '\\' {
				// ASCII: the common case, without the Unicode tables.
				if d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d >= '0' && d <= '9' || d == '_' || d == '$' {
					j++
					continue
				}
				break
			}
			r2, n2 := utf8.DecodeRuneInString(src[j:])
			if !isIDPart(r2) {
				break
			}
			if r2 == '\\' { // \uXXXX or \u{...}
				j++
				if j < len(src) && src[j] == 'u' {
					j++
					if j < len(src) && src[j] == '{' {
						for j < len(src) && src[j] != '}' {
							j++
						}
					}
				}
				continue
			}
			j += n2
		}
		return token{k: k, s: i, e: j, v: src[i:j]}, true
	case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
		j := i + 1
		for j < len(src) {
			d := src[j]
			if d >= '0' && d <= '9' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d == '_' || d == '.' {
				j++
			} else if (d == '+' || d == '-') && (src[j-1] == 'e' || src[j-1] == 'E') && !strings.HasPrefix(strings.ToLower(src[i:j]), "0x") {
				j++
			} else {
				break
			}
		}
		return token{k: tNumber, s: i, e: j}, true
	case c == '"' || c == '\'':
		j := i + 1
		for j < len(src) && src[j] != c {
			if src[j] == '\\' {
				j++
			} else if src[j] == '\n' || src[j] == '\r' {
				return token{}, false
			}
			j++
		}
		if j >= len(src) {
			return token{}, false
		}
		return token{k: tString, s: i, e: j + 1}, true
	case c == '`':
		return s.template(i, i+1, true)
	case c == '}' && len(s.braces) > 0 && s.braces[len(s.braces)-1]:
		return s.template(i, i+1, false)
	case c == '/' && s.regexAllowed():
		j, class := i+1, false
		for ; j < len(src); j++ {
			d := src[j]
			if d == '\\' {
				j++
			} else if d == '\n' || d == '\r' {
				return token{}, false
			} else if d == '[' {
				class = true
			} else if d == ']' {
				class = false
			} else if d == '/' && !class {
				break
			}
		}
		if j >= len(src) {
			return token{}, false
		}
		j++
		for j < len(src) && (src[j] >= 'a' && src[j] <= 'z') {
			j++
		}
		return token{k: tRegex, s: i, e: j}, true
	}
	if c == '?' && i+2 < len(src) && src[i+1] == '.' && src[i+2] >= '0' && src[i+2] <= '9' {
		return token{k: tPunct, s: i, e: i + 1, v: "?"}, true // a ? .5 : b
	}
	if c != '>' && c < 0x80 {
		for _, p := range punctuatorsBy[c] {
			if strings.HasPrefix(src[i:], p) {
				return token{k: tPunct, s: i, e: i + len(p), v: p}, true
			}
		}
	}
	return token{k: tPunct, s: i, e: i + n, v: src[i : i+n]}, true
}

// template scans a template from its start (head true) or from the '}'
// that closes a substitution.
func (s *scanner) template(start, j int, head bool) (token, bool) {
	src := s.src
	for ; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '`':
			k := tTemplateTail
			if head {
				k = tTemplate
			}
			return token{k: k, s: start, e: j + 1}, true
		case '$':
			if j+1 < len(src) && src[j+1] == '{' {
				k := tTemplateMid
				if head {
					k = tTemplateHead
				}
				return token{k: k, s: start, e: j + 2}, true
			}
		}
	}
	s.openTemplate = true
	return token{}, false
}

// match pairs every bracket token with its partner: ( ) [ ] { } and the
// template pieces (head with middle or tail, middle with the next). An
// unmatched closer is reported by index (bad >= 0).
func match(toks []token) (m []int, bad int) {
	m = make([]int, len(toks))
	var stack []int
	for i, t := range toks {
		m[i] = -1
		open, close := false, false
		switch t.k {
		case tPunct:
			switch t.v {
			case "(", "[", "{":
				open = true
			case ")", "]", "}":
				close = true
			}
		case tTemplateHead:
			open = true
		case tTemplateMid:
			open, close = true, true
		case tTemplateTail:
			close = true
		}
		if close {
			if len(stack) == 0 || !pairs(toks[stack[len(stack)-1]], t) {
				return m, i
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			m[o], m[i] = i, o
		}
		if open {
			stack = append(stack, i)
		}
	}
	if len(stack) > 0 {
		// Unclosed: leave it to the compiler, which reports the end.
		for _, o := range stack {
			m[o] = len(toks)
		}
	}
	return m, -1
}

func pairs(open, close token) bool {
	switch open.v {
	case "(":
		return close.v == ")"
	case "[":
		return close.v == "]"
	case "{":
		return close.v == "}"
	}
	return close.k == tTemplateMid || close.k == tTemplateTail
}

// position converts a byte offset to a 1-based line and column.
func position(src string, off int) (int, int) {
	line, col := 1, 1
	for i, r := range src[:off] {
		if r == '\n' || (r == '\r' && (i+1 >= len(src) || src[i+1] != '\n')) || r == '\u2028' || r == '\u2029' {
			line, col = line+1, 1
			continue
		}
		col++
		if r >= 0x10000 {
			col++ // QuickJS counts UTF-16 units
		}
	}
	return line, col
}

// CheckBody reports a closing bracket in src that has no opening one: the
// code would close the function it is compiled into. Code the tokenizer
// cannot read is left to the compiler (nil).
func CheckBody(src string) *Error {
	toks, ok := scan(src)
	if !ok {
		return nil
	}
	if _, bad := match(toks); bad >= 0 {
		line, col := position(src, toks[bad].s)
		return &Error{Line: line, Column: col, Message: "unexpected '" + src[toks[bad].s:toks[bad].s+1] + "': it closes nothing the code opened"}
	}
	return nil
}

// words is the set of s's words: the keyword sets are texts, not map
// literals, whose statement per word was code of the core's own. Not
// inlined into the package's init (TestCoreInitInlinesNoLoop says why).
//
//go:noinline
func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}
