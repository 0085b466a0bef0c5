package search

import (
	"math"
	"math/bits"
	"slices"
)

// Scores returns every doc's relevance to a query (0: no match) and the
// share of the query's information it matches.
func Scores(docs []*Doc, text string) (scores, covers []float64) {
	qu := parseQuery(text)
	scores = make([]float64, len(docs))
	covers = make([]float64, len(docs))
	if len(qu.ids) == 0 {
		return scores, covers
	}
	nq := len(qu.ids)
	// One pass over the docs' postings: which query terms each doc holds
	// (a sparse list), document frequencies and field lengths.
	type match struct {
		doc, slot int
		tf        [numFields]uint16
	}
	var matches []match
	df := make([]int, nq)
	dfOut := make([]int, nq) // docs that hold the term in their output only
	var avg [numFields]float64
	slotTF := make([][numFields]uint16, nq)
	touched := make([]int, 0, nq)
	// Only the docs that may hold a query term (index.go), and of an
	// indexed doc only the terms it holds; avg is summed over all.
	cands, buf := candidates(docs, qu.ids, &avg)
	for _, c := range cands {
		i, d := c.i, docs[c.i]
		for f := range numFields {
			ids, counts := d.fields[f].ids, d.fields[f].counts
			if c.terms&wholeDoc == 0 {
				for t := c.terms; t != 0; t &= t - 1 {
					b := bits.TrailingZeros64(t)
					if k, ok := slices.BinarySearch(ids, qu.ids[b]); ok {
						if slotTF[b] == ([numFields]uint16{}) {
							touched = append(touched, b)
						}
						slotTF[b][f] = counts[k]
					}
				}
				continue
			}
			a, b := 0, 0
			for a < len(ids) && b < nq {
				switch {
				case ids[a] < qu.ids[b]:
					a++
				case ids[a] > qu.ids[b]:
					b++
				default:
					if slotTF[b] == ([numFields]uint16{}) {
						touched = append(touched, b)
					}
					slotTF[b][f] = counts[a]
					a++
					b++
				}
			}
		}
		for _, s := range touched {
			matches = append(matches, match{i, s, slotTF[s]})
			// What a tool returns is not what it is about (see
			// params.outputLength): a doc that holds a word only in
			// its output makes it commoner by p.outputDF.
			if !onlyOutput(slotTF[s]) {
				df[s]++
			} else {
				dfOut[s]++
			}
			slotTF[s] = [numFields]uint16{}
		}
		touched = touched[:0]
	}
	keep(buf)
	if len(matches) == 0 {
		return scores, covers
	}
	n := float64(len(docs))
	for f := range avg {
		avg[f] = max(avg[f]/n, 1)
	}
	avg[fieldOut] = p.outputLength
	idf := make([]float64, nq)
	for s, ci := range df {
		if ci > 0 {
			c := float64(ci) + p.outputDF*float64(dfOut[s])
			idf[s] = math.Log(1 + (n-c+0.5)/(c+0.5))
		}
	}
	// The request's first word is its action or its subject ("merge a
	// pull request", "kubernetes cluster"): when no visible tool holds it
	// or any of its alternatives, a tool must match more of the rest.
	// A name the request starts with ("Ana's meetings") is not its action
	// or subject: the first word is the first that is not an unknown value.
	firstUnknown := false
	var firstVerbs uint64 // the verb classes of the first word
	first := 0
	for first < len(qu.groups) && qu.groups[first].value && unknown(qu.groups[first], df) {
		first++
	}
	if first < len(qu.groups) {
		firstVerbs = qu.groups[first].verbs
		firstUnknown = true
		for _, a := range qu.groups[first].alts {
			if df[a.slot] > 0 && !a.dict {
				firstUnknown = false
			}
		}
	}
	// A query word no visible tool holds counts as fairly rare: a query
	// mostly about things that are not there is not a good match for
	// anything (at p.unknownWeight of the rarest idf: some are filler).
	// In a small catalog it counts less (p.fullCatalog) toward total; a
	// request whose first word is unknown is judged on strict, where
	// unknown words count in full: the relief is for the words of a
	// call's arguments, not for an action no visible tool does ("reset
	// orders secret" where only orders.list is visible gets nothing).
	maxIDF := math.Log(1 + (n+0.5)/0.5)
	small := 1.0
	if n < p.fullCatalog {
		small = n / p.fullCatalog
	}
	var total, strict float64
	qverbs := qu.verbs
	for _, g := range qu.groups {
		best := 0.0
		for _, a := range g.alts {
			if a.weight == 1 {
				best = max(best, idf[a.slot])
			}
		}
		lacked := best == 0
		if lacked {
			best = p.unknownWeight * maxIDF
			if g.value && unknown(g, df) {
				best *= p.valueUnknown
			}
		}
		strict += g.weight * best
		if lacked {
			best *= small
		}
		total += g.weight * best
		qverbs |= g.verbs
	}

	// Per doc: BM25F per query term, the best alternative per group.
	w := make([]float64, nq)
	onlyOut := make([]bool, nq) // the doc holds the term in its output only
	for start := 0; start < len(matches); {
		i := matches[start].doc
		d := docs[i]
		end := start
		for ; end < len(matches) && matches[end].doc == i; end++ {
			m := matches[end]
			var x float64
			for f := range numFields {
				if c := m.tf[f]; c > 0 {
					norm := 1 - p.fieldB[f] + p.fieldB[f]*float64(d.length[f])/avg[f]
					x += p.fieldWeights[f] * float64(c) / norm
				}
			}
			w[m.slot] = x
			onlyOut[m.slot] = onlyOutput(m.tf)
		}
		var s, covered float64
		for _, g := range qu.groups {
			var best, bestIDF float64
			for _, a := range g.alts {
				if x := w[a.slot]; x > 0 {
					v := a.weight * idf[a.slot] * x / (p.k1 + x)
					if v > best {
						best, bestIDF = v, a.weight*idf[a.slot]
						if onlyOut[a.slot] {
							// It may order the tools that match,
							// not make one match.
							bestIDF = 0
						}
						if a.general {
							bestIDF *= p.generalCover
						}
					}
				}
			}
			s += g.weight * best
			covered += g.weight * bestIDF
		}
		// The share of the name's words the query explains.
		if p.specExp > 0 || p.spaceExp > 0 {
			last, space := 0, 0
			for k, id := range d.nameTerms {
				if slot, ok := slices.BinarySearch(qu.ids, id); ok && w[slot] > 0 {
					if k < d.lastTerms {
						last++
					} else {
						space++
					}
				}
			}
			s *= math.Pow(float64(1+last)/float64(1+d.lastTerms), p.specExp) *
				math.Pow(float64(1+space)/float64(1+len(d.nameTerms)-d.lastTerms), p.spaceExp)
		}
		if qverbs != 0 && d.verbs != 0 && qverbs&d.verbs == 0 {
			s *= p.verbPenalty
		} else if d.verbs == 0 && qverbs&^readVerbs != 0 && qverbs&readVerbs == 0 {
			s *= p.readPenalty
		}
		// A tool that acts on one thing (it needs that thing's id) for a
		// request about their list, or about one of them.
		if overlaps(d.needs, qu.many) {
			s *= p.manyNeeds
		} else if overlaps(d.needs, qu.one) {
			s *= p.oneNeeds
		}
		if qu.own != nil && qu.own.of(d) {
			s *= p.ownScope
		}
		scores[i] = s
		covers[i] = min(covered/total, 1)
		// In a small catalog, a first word that is an action the tool's
		// name states in another word of its class is not unknown to it.
		if firstUnknown && !(p.verbRelief && small < 1 && firstVerbs&d.verbs != 0) {
			if covers[i] = min(covered/strict, 1); covers[i] < p.minCoverageFirstUnknown {
				covers[i] = 0
			}
		}
		for _, m := range matches[start:end] {
			w[m.slot] = 0
			onlyOut[m.slot] = false
		}
		start = end
	}
	return scores, covers
}

// onlyOutput reports whether a doc holds a term in its output schema and
// nowhere else.
func onlyOutput(tf [numFields]uint16) bool {
	return tf[fieldOut] > 0 && tf == [numFields]uint16{fieldOut: tf[fieldOut]}
}

// unknown reports whether no visible tool holds a group's word or any of
// its alternatives.
func unknown(g group, df []int) bool {
	for _, a := range g.alts {
		if df[a.slot] > 0 {
			return false
		}
	}
	return true
}

// overlaps reports whether two short lists of term ids share one.
func overlaps(a, b []uint32) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}
