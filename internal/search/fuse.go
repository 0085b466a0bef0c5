package search

import (
	"math"
	"slices"
	"sort"
)

// DefaultSemanticWeight is the semantic rank's default weight in the
// fusion and fusionK the constant of reciprocal rank fusion: chosen with
// eval's deterministic embedder, which knows no meanings, as the largest
// weight at which fusion lowers the lexical figures of no catalog (0.2
// until weak matches were discounted rather than listed last: with them
// in the lexical view, 0.15 and 0.2 lower two; see eval/README.md).
var (
	DefaultSemanticWeight = 0.1
	fusionK               = 2.0
)

// fuseSemantic ranks the lexically relevant docs and the docs similar
// enough to the query, each way, and scores each doc by its reciprocal
// ranks, the semantic one weighted.
func fuseSemantic(lexical []float64, relevant []bool, sim []float64, minSim, weight float64) ([]float64, []bool) {
	lex := make([]float64, len(lexical))
	sem := make([]float64, len(sim))
	keep := slices.Clone(relevant)
	for i := range lexical {
		if relevant[i] {
			lex[i] = lexical[i]
		}
		if s := sim[i]; !math.IsNaN(s) && s > 0 && (relevant[i] || s >= minSim) {
			sem[i] = s
			keep[i] = true
		}
	}
	fused := fuse(fusionK, []float64{1, weight}, lex, sem)
	for i := range fused {
		if !keep[i] {
			fused[i] = 0
		}
	}
	return fused, keep
}

// fuse combines rankings by reciprocal rank: a doc ranked well by several
// rankings beats one that a single ranking loves. Scores <= 0 are unranked.
func fuse(k float64, weights []float64, views ...[]float64) []float64 {
	n := len(views[0])
	out := make([]float64, n)
	idx := make([]int, n)
	for vi, v := range views {
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(i, j int) bool {
			a, b := idx[i], idx[j]
			if v[a] != v[b] {
				return v[a] > v[b]
			}
			return a < b
		})
		for r, i := range idx {
			if v[i] <= 0 {
				break
			}
			out[i] += weights[vi] / (k + float64(r+1))
		}
	}
	return out
}
