package search

import (
	"math"
	"slices"
	"strings"
)

// Hit is one result of Rank: the position of a doc in the slice ranked and
// its score (0 for a name or namespace match without matching words, and
// for every hit of an empty query).
type Hit struct {
	Index int
	Score float64
}

const (
	// DefaultLimit is the number of hits for a limit <= 0.
	DefaultLimit = 10
	// MaxLimit caps a limit.
	MaxLimit = 50
)

// params are the ranking's weights, chosen on the tuning split of eval/.
type params struct {
	// Per-field weights and length normalisation of the BM25F view.
	fieldWeights [numFields]float64
	fieldB       [numFields]float64
	nameWeights  [numFields]float64
	descWeights  [numFields]float64
	k1           float64
	// synonymWeight discounts query words added by the vocabulary, so a
	// tool that uses the user's own word wins over one using a synonym.
	synonymWeight float64
	// prefixWeight discounts corpus words that only share a prefix with a
	// query word ("remind" and "reminder").
	prefixWeight float64
	// rrfK is the constant of reciprocal rank fusion.
	rrfK float64
	// views switches the fused views: full, name, desc, cover.
	views [4]bool
	// verbPenalty multiplies the scores of a tool whose name's action
	// contradicts the query's.
	verbPenalty float64
	// coverExp is the exponent of the share of a name's words the query
	// matches, in the name-coverage view.
	coverExp float64
	// specExp weighs the share of a name's words the query explains:
	// deleteCustomer beats deleteCustomerCard for "delete a customer".
	specExp  float64
	spaceExp float64
}

var p = params{
	fieldWeights:  [numFields]float64{3, 2, 3, 1, 0.5},
	fieldB:        [numFields]float64{0.5, 0.3, 0.5, 0.75, 0.75},
	nameWeights:   [numFields]float64{1, 0.5, 0, 0, 0},
	descWeights:   [numFields]float64{0, 0, 1, 1, 0},
	k1:            1.2,
	synonymWeight: 0.6,
	prefixWeight:  0.5,
	rrfK:          20,
	views:         [4]bool{true, false, false, false},
	verbPenalty:   0.5,
	coverExp:      1,
	specExp:       0.5,
	spaceExp:      1,
}

// Rank ranks docs for a query: an exact tool name first, then the tools of
// a namespace the query names, then relevance. An empty query lists every
// tool by name. limit <= 0 means DefaultLimit; it is capped at MaxLimit.
func Rank(docs []*Doc, query string, limit int) []Hit {
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)

	q := strings.ToLower(strings.TrimSpace(query))
	q = strings.Trim(strings.TrimPrefix(q, "tools."), ".")
	if q == "" {
		var hits []Hit
		for _, i := range byName(docs) {
			if len(hits) == limit {
				break
			}
			hits = append(hits, Hit{Index: i})
		}
		return hits
	}

	groups := parseQuery(query)
	expandPrefixes(groups, docs)
	st := newStats(docs, groups)
	full := make([]float64, len(docs))
	name := make([]float64, len(docs))
	desc := make([]float64, len(docs))
	cover := make([]float64, len(docs))
	var qverbs uint64
	for _, g := range groups {
		qverbs |= verbClasses[g.alts[0].term]
	}
	for i, d := range docs {
		full[i] = st.score(d, groups, &p.fieldWeights)
		name[i] = st.score(d, groups, &p.nameWeights)
		desc[i] = st.score(d, groups, &p.descWeights)
		cover[i] = st.cover(d, groups)
		if p.specExp > 0 {
			last, space := matchedName(d, groups)
			full[i] *= math.Pow(float64(1+last)/float64(1+d.lastTerms), p.specExp) *
				math.Pow(float64(1+space)/float64(1+len(d.nameTerms)-d.lastTerms), p.spaceExp)
		}
		if qverbs != 0 && d.verbs != 0 && qverbs&d.verbs == 0 {
			full[i] *= p.verbPenalty
			name[i] *= p.verbPenalty
			desc[i] *= p.verbPenalty
			cover[i] *= p.verbPenalty
		}
	}
	var views [][]float64
	for v, on := range p.views {
		if on {
			views = append(views, [][]float64{full, name, desc, cover}[v])
		}
	}
	fused := fuse(views...)

	type ranked struct {
		i     int
		tier  int
		fused float64
	}
	var rs []ranked
	for i, d := range docs {
		tier := 0
		switch {
		case d.lower == q:
			tier = 2
		case strings.HasPrefix(d.lower, q+"."), strings.HasSuffix(d.lower, "."+q):
			// a namespace, or a name without its namespace ("getOwner")
			tier = 1
		}
		if tier == 0 && full[i] <= 0 {
			continue
		}
		rs = append(rs, ranked{i, tier, fused[i]})
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		if a.tier != b.tier {
			return b.tier - a.tier
		}
		if a.fused != b.fused {
			if a.fused > b.fused {
				return -1
			}
			return 1
		}
		if full[a.i] != full[b.i] {
			if full[a.i] > full[b.i] {
				return -1
			}
			return 1
		}
		return strings.Compare(docs[a.i].name, docs[b.i].name)
	})
	hits := make([]Hit, 0, min(limit, len(rs)))
	for _, r := range rs[:min(limit, len(rs))] {
		hits = append(hits, Hit{Index: r.i, Score: full[r.i]})
	}
	return hits
}

// fuse combines views by reciprocal rank: a doc ranked well by several
// views beats one that a single view loves.
func fuse(views ...[]float64) []float64 {
	n := len(views[0])
	out := make([]float64, n)
	idx := make([]int, n)
	for _, v := range views {
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(a, b int) int {
			if v[a] > v[b] {
				return -1
			}
			if v[a] < v[b] {
				return 1
			}
			return a - b
		})
		rank := 0
		for r, i := range idx {
			if v[i] <= 0 {
				break
			}
			if r == 0 || v[i] != v[idx[r-1]] {
				rank = r
			}
			out[i] += 1 / (p.rrfK + float64(rank+1))
		}
	}
	return out
}

// byName returns the positions of docs in name order.
func byName(docs []*Doc) []int {
	idx := make([]int, len(docs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(docs[a].name, docs[b].name) })
	return idx
}

// A group is one word of the query with its alternatives: the word itself
// (weight 1), vocabulary synonyms and prefix relatives at a discount. A doc
// scores a group once, by its best alternative.
type group struct {
	alts []alt
}

type alt struct {
	term   string
	weight float64
}

func (g *group) add(term string, w float64) {
	for i, a := range g.alts {
		if a.term == term {
			g.alts[i].weight = max(a.weight, w)
			return
		}
	}
	g.alts = append(g.alts, alt{term, w})
}

// stats are the corpus statistics of the docs ranked, which are the tools
// visible to the caller, so hidden tools do not skew the ranking.
type stats struct {
	n   float64
	avg [numFields]float64
	idf map[string]float64
}

func newStats(docs []*Doc, groups []*group) *stats {
	st := &stats{n: float64(len(docs)), idf: map[string]float64{}}
	df := map[string]int{}
	for _, g := range groups {
		for _, a := range g.alts {
			df[a.term] = 0
		}
	}
	for _, d := range docs {
		for f := range numFields {
			st.avg[f] += float64(d.length[f])
		}
		for t := range df {
			for f := range numFields {
				if d.tf(f, t) > 0 {
					df[t]++
					break
				}
			}
		}
	}
	for f := range st.avg {
		st.avg[f] = max(st.avg[f]/max(st.n, 1), 1)
	}
	for t, c := range df {
		if c > 0 {
			st.idf[t] = math.Log(1 + (st.n-float64(c)+0.5)/(float64(c)+0.5))
		}
	}
	return st
}

// score is the BM25F score of a doc with the given field weights.
func (st *stats) score(d *Doc, groups []*group, weights *[numFields]float64) float64 {
	var s float64
	for _, g := range groups {
		var best float64
		for _, a := range g.alts {
			idf := st.idf[a.term]
			if idf == 0 {
				continue
			}
			var w float64
			for f := range numFields {
				if weights[f] == 0 {
					continue
				}
				if c := d.tf(f, a.term); c > 0 {
					norm := 1 - p.fieldB[f] + p.fieldB[f]*float64(d.length[f])/st.avg[f]
					w += weights[f] * float64(c) / norm
				}
			}
			if w > 0 {
				best = max(best, a.weight*idf*w/(p.k1+w))
			}
		}
		s += best
	}
	return s
}

// cover scores how much of the name the query explains: the idf of the
// query words found in the name, times the share of the name's words they
// are, so deleteCustomer beats deleteCustomerCard for "delete a customer".
func (st *stats) cover(d *Doc, groups []*group) float64 {
	if len(d.nameTerms) == 0 {
		return 0
	}
	var s float64
	matched := 0
	for _, g := range groups {
		var best float64
		for _, a := range g.alts {
			if slices.Contains(d.nameTerms, a.term) {
				best = max(best, a.weight*st.idf[a.term])
			}
		}
		if best > 0 {
			matched++
			s += best
		}
	}
	return s * math.Pow(float64(min(matched, len(d.nameTerms)))/float64(len(d.nameTerms)), p.coverExp)
}

// matchedName counts the words of a doc's name that some query word
// matches, in the last segment and in the namespace.
func matchedName(d *Doc, groups []*group) (last, space int) {
	for i, t := range d.nameTerms {
	groups:
		for _, g := range groups {
			for _, a := range g.alts {
				if a.term == t {
					if i < d.lastTerms {
						last++
					} else {
						space++
					}
					break groups
				}
			}
		}
	}
	return last, space
}

// parseQuery tokenizes the query as written (lowercasing first would lose
// the camelCase humps of a name-like query), applies the vocabulary's
// phrases and adds synonyms.
func parseQuery(query string) []*group {
	var groups []*group
	seen := map[string]bool{}
	addWord := func(t string) *group {
		if seen[t] {
			return nil
		}
		seen[t] = true
		g := &group{}
		g.add(t, 1)
		groups = append(groups, g)
		return g
	}
	// Phrases are matched on the lowercased words and replaced by their
	// meaning, so "logged in" does not also search for logs.
	text := " " + strings.Join(strings.Fields(strings.ToLower(query)), " ") + " "
	for _, ph := range phrases {
		if strings.Contains(text, " "+ph.phrase+" ") {
			text = strings.ReplaceAll(text, " "+ph.phrase+" ", " "+ph.means+" ")
		}
	}
	if text == " "+strings.Join(strings.Fields(strings.ToLower(query)), " ")+" " {
		text = query // keep camelCase humps when no phrase matched
	}
	for _, t := range tokenize(text) {
		addWord(t)
	}
	for _, g := range groups {
		for _, s := range synonyms[g.alts[0].term] {
			g.add(s, p.synonymWeight)
		}
	}
	return groups
}

// expandPrefixes lets a query word match longer or shorter forms the stemmer
// does not relate ("remind" and "reminder", "cancel" and "cancellation"),
// at a discount. Only words of 4+ letters take part, so "pay" does not pull
// in "payroll".
func expandPrefixes(groups []*group, docs []*Doc) {
	const minLen, maxExtra = 4, 4
	vocab := map[string]bool{}
	for _, d := range docs {
		for f := range numFields {
			for _, tc := range d.terms[f] {
				vocab[tc.term] = true
			}
		}
	}
	for _, g := range groups {
		t := g.alts[0].term
		if len(t) < minLen {
			continue
		}
		for v := range vocab {
			if len(v) < minLen || v == t {
				continue
			}
			long, short := v, t
			if len(t) > len(v) {
				long, short = t, v
			}
			if len(long)-len(short) <= maxExtra && strings.HasPrefix(long, short) {
				g.add(v, p.prefixWeight)
			}
		}
	}
}
