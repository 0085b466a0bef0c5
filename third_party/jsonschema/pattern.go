package jsonschema

import (
	"regexp"
	"regexp/syntax"
)

// Counted repeats spelled out flat, and a bound on nesting (this copy's
// change; upstream compiles a pattern with regexp.Compile alone).
//
// Go's Simplify spells x{n,m} as n copies of x and then m-n nested ones,
// x(x(x)?)?, and the compiler (and minInputLen) recurse over that tree: two
// frames a count. Under js/wasm the frames sit on the JavaScript engine's
// stack, so .{1,576} (AWS accessanalyzer's "...(role|user)/.{1,576}") took
// some 1,150 nested frames and, in a page that had loaded another module
// first, overflowed V8's stack: "Maximum call stack size exceeded", the Go
// program dead with every tool of its factory. A tree Go's parser holds to
// its own nesting limit (1,000) survived in the same page.
//
// So a counted repeat of more than maxNestedSpan optional copies is
// compiled as x{n}(?:x?){m-n}, which matches the same strings (each x? is x
// or nothing, m-n of them give 0 to m-n more x's; a lazy x{n,m}? gets lazy
// x??) and whose copies are a flat concatenation. The spelled-out tree must
// then stay within Go's nesting limit, or the pattern is refused with Go's
// own ErrNestingDepth: only a pattern nesting several hundred groups deep
// comes near it (web/src/re2.mjs leaves one past 100 open groups to the
// core, so the page never accepts what this refuses).
const (
	maxNestedSpan = 64
	maxHeight     = 1000
)

// pattern is a compiled pattern that prints as its author wrote it (error
// messages quote it), whatever was compiled.
type pattern struct {
	*regexp.Regexp
	src string
}

func (p pattern) String() string { return p.src }

// CompilePattern compiles a schema's pattern as Go's RE2 syntax reads it
// (regexp.Compile's errors, word for word), with its large counted repeats
// spelled out flat (see above).
func CompilePattern(s string) (Regexp, error) {
	re, err := syntax.Parse(s, syntax.Perl)
	if err != nil {
		return nil, err
	}
	flat := flattenRepeats(re)
	if spelledHeight(re) > maxHeight {
		return nil, &syntax.Error{Code: syntax.ErrNestingDepth, Expr: s}
	}
	if !flat {
		return regexp.Compile(s)
	}
	c, err := regexp.Compile(re.String())
	if err != nil {
		return nil, err
	}
	return pattern{c, s}, nil
}

// flattenRepeats rewrites, in place, each x{n,m} with more than
// maxNestedSpan optional copies as x{n}(?:x?){m-n}; it reports whether it
// rewrote any. Its recursion is as deep as the parsed tree, which Go's
// parser has just walked as deep (its own height check).
func flattenRepeats(re *syntax.Regexp) bool {
	changed := false
	for _, sub := range re.Sub {
		if flattenRepeats(sub) {
			changed = true
		}
	}
	if re.Op != syntax.OpRepeat || re.Max < 0 || re.Max-re.Min <= maxNestedSpan {
		return changed
	}
	x := re.Sub[0]
	lazy := re.Flags & syntax.NonGreedy
	opt := &syntax.Regexp{Op: syntax.OpQuest, Flags: lazy, Sub: []*syntax.Regexp{x}}
	rest := &syntax.Regexp{Op: syntax.OpRepeat, Min: re.Max - re.Min, Max: re.Max - re.Min, Sub: []*syntax.Regexp{opt}}
	var subs []*syntax.Regexp
	if re.Min > 0 {
		subs = append(subs, &syntax.Regexp{Op: syntax.OpRepeat, Min: re.Min, Max: re.Min, Sub: []*syntax.Regexp{x}})
	}
	*re = syntax.Regexp{Op: syntax.OpConcat, Sub: append(subs, rest)}
	return true
}

// spelledHeight is the height of re's tree once Simplify has spelled out
// its counted repeats (an upper bound): what the compiler recurses over.
func spelledHeight(re *syntax.Regexp) int {
	h := 0
	for _, sub := range re.Sub {
		h = max(h, spelledHeight(sub))
	}
	switch {
	case re.Op == syntax.OpRepeat && re.Max > re.Min:
		// x{n,m}: a concatenation of the n copies and the nested
		// optional ones, x?(x?(...)?)?: two levels a copy.
		return h + 1 + 2*(re.Max-re.Min)
	case re.Op == syntax.OpRepeat:
		// x{n} and x{n,}: a concatenation of copies (and x+).
		return h + 2
	}
	return h + 1
}
