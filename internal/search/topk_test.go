package search

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// topK keeps the k first of what it is given, in order: what sorting the
// whole and taking its first k gives, for any order of arrival, with ties
// of the score (the index breaks them) and k past the count.
func TestTopKIsTheSortedPrefix(t *testing.T) {
	by := func(a, b ranked) int {
		if c := cmp.Compare(a.score, b.score); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 500 {
		n := r.IntN(300)
		xs := make([]ranked, n)
		for i := range xs {
			xs[i] = ranked{i: i, score: float64(r.IntN(1 + n/4))}
		}
		if round%5 == 0 {
			slices.SortFunc(xs, func(a, b ranked) int { return -by(a, b) }) // worst first: every one displaces the root
		}
		for _, k := range []int{1, 2, 10, 50, n + 3} {
			best := bestOf(k, by)
			for _, x := range xs {
				best.add(x)
			}
			want := slices.SortedFunc(slices.Values(xs), by)
			want = want[:min(k, len(want))]
			if got := best.sorted(); !slices.Equal(got, want) {
				t.Fatalf("round %d, n %d, k %d: got %v, want %v", round, n, k, got, want)
			}
		}
	}
}
