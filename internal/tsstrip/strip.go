package tsstrip

import (
	"slices"
	"sort"
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
	// edits put JavaScript where TypeScript that cannot be erased stood
	// (enum, namespace, parameter properties, using), on its lines.
	edits []edit
	// exprClose marks '}' tokens that end an expression (object literal,
	// class expression), and '!' tokens that are non-null assertions:
	// after them '!' and 'as' apply.
	exprClose map[int]bool
	err       *Error
	// typeDepth is how many type readers are open (nested).
	typeDepth int
	// ns is the namespace whose body is being read ("" outside any),
	// exportTo the one exporting the enum or namespace statement reads.
	ns, exportTo string
	// ctorParams is the first token of the parameters of the constructor
	// being read, whose parameter properties props lists (their names);
	// classBody is the '{' of the class it is in, derived whether that
	// class extends another; uses counts the using declarations.
	ctorParams, classBody, uses int
	props                       []int
	// pre starts the names the rewrites declare (scratch).
	pre     string
	derived bool
	// module reads ES module syntax instead of failing on it (tests read
	// real JavaScript modules with it).
	module bool
}

type span struct{ s, e int }

// edit replaces src[s:e] with text (s == e inserts it), on the same lines:
// line terminators in [s, e) are kept, text has none, so no later line
// moves (columns after it on its line do). Edits at one offset go in
// order of prio, then of their making.
type edit struct {
	s, e, prio int
	text       string
}

// write puts byte b at an erased offset.
type write struct {
	off int
	b   byte
}

// Strip returns src with TypeScript's erasable syntax overwritten by
// spaces, line terminators kept, so that positions do not move. Plain
// JavaScript comes back unchanged. Code the tokenizer cannot read comes back
// unchanged too, for QuickJS to report. Syntax TypeScript cannot erase
// (enum, namespace with values, parameter properties, using) becomes tsc's
// JavaScript on its own lines (only columns after it move); what tsc
// itself refuses there, or what is not rewritten, is an *Error.
func Strip(src string) (string, *Error) { return strip(src, false) }

func strip(src string, module bool) (string, *Error) {
	out, _, err := rewrite(src, module)
	return out, err
}

// rewrite is strip, and says whether TypeScript that cannot be erased was
// rewritten (edits) rather than erased.
func rewrite(src string, module bool) (string, bool, *Error) {
	toks, ok := scan(src)
	if !ok {
		return src, false, nil
	}
	m, bad := match(toks)
	if bad >= 0 {
		return src, false, nil
	}
	s := &stripper{src: src, toks: toks, m: m, exprClose: map[int]bool{}, module: module}
	s.walk(0, len(toks), fBlock)
	if s.err != nil {
		return "", false, s.err
	}
	return s.output(), len(s.edits) > 0, nil
}

func (s *stripper) output() string {
	if len(s.blanks) == 0 && len(s.writes) == 0 && len(s.edits) == 0 {
		return s.src
	}
	edits := slices.Clone(s.edits)
	sort.SliceStable(edits, func(i, j int) bool {
		return edits[i].s < edits[j].s || edits[i].s == edits[j].s && edits[i].prio < edits[j].prio
	})
	skip := 0 // bytes before skip that an edit replaced
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
		for len(edits) > 0 && edits[0].s <= i {
			b.WriteString(edits[0].text)
			skip = max(skip, edits[0].e)
			edits = edits[1:]
		}
		r, n := utf8.DecodeRuneInString(s.src[i:])
		switch {
		case i < skip && r != '\n' && r != '\r' && r != '\u2028' && r != '\u2029':
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
	for _, e := range edits {
		b.WriteString(e.text) // at the end of the program
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

// is says whether token i is the punctuator or name v. Not inlined, nor
// is fail (nor replace and after): the core is WebAssembly, where each of
// the hundreds of places that call them grew by its body (together about
// 75 KB of the core's Go build, 13 KB brotli), for a call that costs
// nanoseconds.
//
//go:noinline
func (s *stripper) is(i int, v string) bool {
	t := s.tok(i)
	return (t.k == tPunct || t.k == tName) && t.v == v
}

// replace puts text in place of tokens [i, j) (j == i: before token i).
//
//go:noinline
func (s *stripper) replace(i, j int, text string) {
	o := s.tok(i).s
	e := o
	if i >= len(s.toks) {
		o, e = len(s.src), len(s.src)
	} else if j > i {
		e = s.toks[j-1].e
	}
	s.edits = append(s.edits, edit{s: o, e: e, text: text})
}

// after puts text just after token i.
//
//go:noinline
func (s *stripper) after(i int, text string) {
	o := s.toks[i].e
	s.edits = append(s.edits, edit{s: o, e: o, text: text})
}

// blank erases tokens [i, j).
func (s *stripper) blank(i, j int) {
	if j > i && i < len(s.toks) {
		s.blanks = append(s.blanks, span{s.toks[i].s, s.toks[min(j, len(s.toks))-1].e})
	}
}

// pastSemi is j, or past it when token j is the ';' that ends the
// statement before it: what a statement being erased takes with it.
func (s *stripper) pastSemi(j int) int {
	if s.is(j, ";") {
		return j + 1
	}
	return j
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

//go:noinline
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
