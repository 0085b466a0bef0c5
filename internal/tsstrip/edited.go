package tsstrip

import (
	"slices"
	"sort"
	"strings"
)

// tokens returns the tokens of out, the stripper's output (s.output(),
// with extra written into it as well), derived from s.toks without
// scanning out again: erasing overwrites whole tokens with white space and
// moves nothing, so out's tokens are the tokens not erased, at the same
// offsets, and the bytes written into erased text (s.semis, s.writes,
// extra). Only each token's nl is read again from out: an erased token
// between two others may have been all that stood between them on one
// line. A 20 KB TypeScript program was scanned three times (its
// JavaScript by UnwrapMain, then once more by Prepare).
//
// Erased text that is not ASCII does move what follows: a character
// becomes one space per UTF-16 unit, as QuickJS counts columns, in fewer
// bytes. Then out is scanned; ok is the scan's.
func (s *stripper) tokens(out string, extra ...token) (toks []token, ok bool) {
	if len(out) != len(s.src) || len(s.edits) > 0 {
		return scan(out)
	}
	blanks := slices.Clone(s.blanks)
	sort.Slice(blanks, func(i, j int) bool { return blanks[i].s < blanks[j].s })
	added := make([]token, 0, len(s.semis)+len(s.writes)+len(extra))
	for _, o := range s.semis {
		added = append(added, token{k: tPunct, s: o, e: o + 1, v: ";"})
	}
	for _, w := range s.writes {
		added = append(added, token{k: tPunct, s: w.off, e: w.off + 1, v: string(w.b)})
	}
	added = append(added, extra...)
	sort.Slice(added, func(i, j int) bool { return added[i].s < added[j].s })

	toks = make([]token, 0, len(s.toks)+len(added))
	b, covered := 0, 0 // blanks[:b] start at or before the token; covered is where they end
	prev := 0
	add := func(t token) {
		t.nl = strings.ContainsAny(out[prev:t.s], "\n\r\u2028\u2029")
		prev = t.e
		toks = append(toks, t)
	}
	kept := -1 // the index in s.toks of the last token kept, -1 after a written one
	for i, t := range s.toks {
		for len(added) > 0 && added[0].s < t.s {
			add(added[0])
			added = added[1:]
			kept = -1
		}
		for b < len(blanks) && blanks[b].s <= t.s {
			covered = max(covered, blanks[b].e)
			b++
		}
		if t.s < covered {
			continue // erased
		}
		if kept != i-1 && (t.k == tRegex || t.k == tPunct && (t.v == "/" || t.v == "/=")) {
			// Whether '/' divides or starts a regular expression is read
			// from the token before it, which the edits changed
			// (`x as any\n/re/` reads as x / re / ... in TypeScript; the
			// ';' written after x makes a regular expression of it).
			return scan(out)
		}
		add(t)
		kept = i
	}
	for _, t := range added {
		add(t)
	}
	return toks, true
}
