// Command overlap tells, per split and catalog, how many requests share a
// word with the tool they expect, and how the product's lexical ranking
// does on those that do: whether what a split's misses lack is words
// (vocabulary) or order (the right tool found, another first).
//
//	go run ./internal/search/eval/cmd/overlap
//
// It prints aggregates only, so a held-out split may be read with it: no
// request, miss or tool name is shown. Its tokenizer is its own and plain
// (camelCase and non-letters split, a few suffixes cut, function words and
// CRUD verbs dropped), not the product's: a measure of the ranking's input
// must not take the ranking's view of words for granted.
package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/interopio/code-mode/internal/search/eval"
)

var wordRE = regexp.MustCompile(`[A-Z]?[a-z]+|[A-Z]+(?:[A-Z][a-z]|$)?|[0-9]+`)

// ignored are function words, and the verbs of create/read/update/delete,
// which nearly every request and tool holds: sharing one says nothing of
// which thing is meant.
var ignored = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the of to for in on at by with from and or my our me i we you your it its
		this that these those is are be do does did can could would should will what which who whom how when where why
		all any some every each into about as up out off over under new get list show find give let make please want
		need see tell there their them they just only one two yesterday today tomorrow now last next more most than
		then also not no yes have has had been being was were am create update delete add remove set post put patch
		retrieve read fetch change edit modify`) {
		ignored[w] = true
	}
}

// words are a text's content words, plurals and -ing/-ed forms cut.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, t := range wordRE.FindAllString(s, -1) {
		w := strings.ToLower(t)
		if ignored[w] || len(w) < 2 {
			continue
		}
		for _, suf := range []string{"ies", "ing", "ed", "es", "s"} {
			if len(w) > len(suf)+2 && strings.HasSuffix(w, suf) {
				w = strings.TrimSuffix(w, suf)
				if suf == "ies" {
					w += "y"
				}
				break
			}
		}
		out[w] = true
	}
	return out
}

func sharesWord(q, t map[string]bool) bool {
	for w := range q {
		if t[w] {
			return true
		}
	}
	return false
}

// counts of one split or catalog: requests; those sharing a word with an
// expected tool's name, and the ranking's first and first-five hits among
// them; those sharing one with its name or description; all first hits;
// and the misses at 1 by kind (misses).
type counts struct {
	n, name, name1, name5, text, hits1 int
	misses
}

// misses are a split's requests not answered first, by where the expected
// tool is: second to fifth (order; sibling: the first hit shares its
// namespace with an expected tool), sixth to tenth (deep), or not in the
// first ten with a word of the request in its name (absentName), only in
// its description (absentText) or in neither (absentNone); empty: no
// answer at all (counted in the absent kinds too).
type misses struct{ order, sibling, deep, absentName, absentText, absentNone, empty int }

func (c *counts) add(o counts) {
	c.n, c.name, c.name1, c.name5, c.text, c.hits1 = c.n+o.n, c.name+o.name, c.name1+o.name1, c.name5+o.name5, c.text+o.text, c.hits1+o.hits1
	m, p := &c.misses, o.misses
	m.order, m.sibling, m.deep, m.absentName, m.absentText, m.absentNone, m.empty = m.order+p.order, m.sibling+p.sibling, m.deep+p.deep, m.absentName+p.absentName, m.absentText+p.absentText, m.absentNone+p.absentNone, m.empty+p.empty
}

func (m misses) String() string {
	return fmt.Sprintf("misses at 1: order (2-5) %d (sibling first %d), deep (6-10) %d, absent with a name word %d, a description word only %d, no word %d (empty answers %d)",
		m.order, m.sibling, m.deep, m.absentName, m.absentText, m.absentNone, m.empty)
}

func (c counts) String() string {
	share := func(a, b int) float64 { return float64(a) / float64(max(b, 1)) }
	return fmt.Sprintf("n=%3d r@1=%.2f  name shares a word %.2f (r@1 %.2f, r@5 %.2f there)  name or description %.2f",
		c.n, share(c.hits1, c.n), share(c.name, c.n), share(c.name1, c.name), share(c.name5, c.name), share(c.text, c.n))
}

func measure(c *eval.Catalog, split eval.Split) counts {
	rank := eval.Lexical(c)
	tools := map[string]eval.Tool{}
	for _, t := range c.Tools {
		tools[t.Name] = t
	}
	var k counts
	for _, q := range c.Queries {
		if len(q.Expected) == 0 || !split.In(q) {
			continue
		}
		k.n++
		qw := words(q.Query)
		inName := slices.ContainsFunc(q.Expected, func(e string) bool { return sharesWord(qw, words(e)) })
		inText := slices.ContainsFunc(q.Expected, func(e string) bool { return sharesWord(qw, words(e+" "+tools[e].Description)) })
		got := rank(q.Query, 10)
		pos := slices.IndexFunc(got, func(n string) bool { return slices.Contains(q.Expected, n) })
		k.miss(q.Expected, got, pos, inName, inText)
		if pos >= 5 {
			pos = -1
		}
		if pos == 0 {
			k.hits1++
		}
		if inName {
			k.name++
			if pos == 0 {
				k.name1++
			}
			if pos >= 0 {
				k.name5++
			}
		}
		if inText {
			k.text++
		}
	}
	return k
}

// miss counts a request by the kind of its miss at 1, if any.
func (k *counts) miss(expected, got []string, pos int, inName, inText bool) {
	namespace := func(n string) string { return n[:max(strings.LastIndexByte(n, '.'), 0)] }
	switch {
	case pos == 0:
	case pos > 0 && pos < 5:
		k.order++
		if slices.ContainsFunc(expected, func(e string) bool { return namespace(e) == namespace(got[0]) }) {
			k.sibling++
		}
	case pos >= 5:
		k.deep++
	case inName:
		k.absentName++
	case inText:
		k.absentText++
	default:
		k.absentNone++
	}
	if len(got) == 0 {
		k.empty++
	}
}

func main() {
	for _, name := range []string{"tune", "validation", "heldout", "heldout2", "heldout3"} {
		split, err := eval.ParseSplit(name)
		if err != nil {
			panic(err)
		}
		var all counts
		for _, id := range eval.CatalogsOf(split) {
			c, err := eval.Load(id)
			if err != nil {
				panic(err)
			}
			k := measure(c, split)
			all.add(k)
			fmt.Printf("OVERLAP %s split=%s %v\n", id, name, k)
			fmt.Printf("MISSES %s split=%s %v\n", id, name, k.misses)
		}
		fmt.Printf("OVERLAP all split=%s %v\n", name, all)
		fmt.Printf("MISSES all split=%s %v\n", name, all.misses)
	}
}
