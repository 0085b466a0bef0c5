package search_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/interopio/code-mode/internal/search"
	"github.com/interopio/code-mode/internal/search/eval"
)

// TestIndexRanksAsAWholeMerge: a search over indexed docs (search.Index,
// which merges only the docs sharing a term with the request) ranks as
// over the same docs in no index, which are merged whole, hit for hit and
// score for score: for every training request of the tune split's
// catalogs, over the whole catalog, over a view of every other tool, after
// half the catalog was removed and registered again (into slots freed by
// the removal) beside docs removed (a view taken before their removal), and
// with a second index's docs in the view (a session's own tools).
func TestIndexRanksAsAWholeMerge(t *testing.T) {
	ids := eval.CatalogsOf(eval.Tune)
	if len(ids) < 4 {
		t.Fatalf("the tune split has %d catalogs", len(ids))
	}
	compared := 0
	for _, id := range ids {
		c, queries := tuneQueries(t, id)
		queries = append(queries, "", "*", c.Tools[0].Name, "list every tool")
		docs := func() []*search.Doc {
			out := make([]*search.Doc, len(c.Tools))
			for i, tool := range c.Tools {
				out[i] = search.NewDoc(tool.Name, tool.Description, tool.InputSchema, tool.OutputSchema)
			}
			return out
		}
		plain, indexed := docs(), docs()
		x := search.NewIndex()
		x.Add(indexed...)
		every := func(d []*search.Doc, step int) []*search.Doc {
			var out []*search.Doc
			for i := 0; i < len(d); i += step {
				out = append(out, d[i])
			}
			return out
		}
		// Removed, then registered again as new docs: a view taken
		// before holds the removed ones, one after the new ones.
		again := docs()
		x.Remove(every(indexed[1:], 2)...)
		x.Add(every(again[1:], 2)...)
		mixed := slices.Clone(indexed)
		for i := 1; i < len(mixed); i += 2 {
			mixed[i] = again[i]
		}
		// A second index holding every third doc of the view.
		own := docs()
		two := slices.Clone(plain)
		for i := 0; i < len(two); i += 3 {
			two[i] = own[i]
		}
		search.NewIndex().Add(every(own, 3)...)
		for _, q := range queries {
			want := fmt.Sprint(search.Rank(plain, q, search.MaxLimit))
			wantHalf := fmt.Sprint(search.Rank(every(plain, 2), q, search.MaxLimit))
			for name, got := range map[string]string{
				"whole":                     fmt.Sprint(search.Rank(indexed, q, search.MaxLimit)),
				"every other tool":          fmt.Sprint(search.Rank(every(indexed, 2), q, search.MaxLimit)),
				"a view before the removal": fmt.Sprint(search.Rank(indexed, q, search.MaxLimit)),
				"registered again":          fmt.Sprint(search.Rank(mixed, q, search.MaxLimit)),
				"two indexes":               fmt.Sprint(search.Rank(two, q, search.MaxLimit)),
				"every other, two indexes":  fmt.Sprint(search.Rank(every(two, 2), q, search.MaxLimit)),
			} {
				w := want
				if name == "every other tool" || name == "every other, two indexes" {
					w = wantHalf
				}
				if got != w {
					t.Errorf("%s %q (%s): got %s, want %s", id, q, name, got, w)
				}
				compared++
			}
		}
	}
	t.Logf("%d rankings compared", compared)
}

// TestIndexRandomChurn: tools registered, unregistered and registered
// again in random orders (seeded), searched through random views (a
// toolFilter's), rank and score as the same docs merged whole: every
// search's hits, and every doc's score and coverage, so that the docs the
// index merges are a superset of those with a score.
func TestIndexRandomChurn(t *testing.T) {
	cat, err := eval.BenchCatalog(600)
	if err != nil {
		t.Fatal(err)
	}
	_, queries := tuneQueries(t, "slack")
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 44))
		x := search.NewIndex()
		in := map[int]*search.Doc{} // registered, by catalog position
		for step := range 40 {
			// Register or unregister a random batch.
			for range rng.IntN(60) + 1 {
				k := rng.IntN(len(cat))
				if d, ok := in[k]; ok && rng.IntN(3) > 0 {
					x.Remove(d)
					delete(in, k)
				} else if !ok {
					tool := cat[k]
					d := search.NewDoc(tool.Name, tool.Description, tool.InputSchema, tool.OutputSchema)
					x.Add(d)
					in[k] = d
				}
			}
			// A view: the registered tools a filter shows, in
			// catalog order, and a copy of each merged whole.
			var view, plain []*search.Doc
			for k := range cat {
				if d, ok := in[k]; ok && rng.IntN(5) > 0 {
					view = append(view, d)
					tool := cat[k]
					plain = append(plain, search.NewDoc(tool.Name, tool.Description, tool.InputSchema, tool.OutputSchema))
				}
			}
			q := queries[rng.IntN(len(queries))]
			gotS, gotC := search.Scores(view, q)
			wantS, wantC := search.Scores(plain, q)
			if !slices.Equal(gotS, wantS) || !slices.Equal(gotC, wantC) {
				t.Fatalf("seed %d step %d %q: scores over the index differ from a whole merge", seed, step, q)
			}
			if got, want := fmt.Sprint(search.Rank(view, q, search.MaxLimit)), fmt.Sprint(search.Rank(plain, q, search.MaxLimit)); got != want {
				t.Fatalf("seed %d step %d %q: got %s, want %s", seed, step, q, got, want)
			}
		}
	}
}

// tuneQueries loads catalog id and its requests of the tune split.
func tuneQueries(t *testing.T, id string) (*eval.Catalog, []string) {
	t.Helper()
	c, err := eval.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	var queries []string
	for _, q := range c.Queries {
		if eval.Tune.In(q) {
			queries = append(queries, q.Query)
		}
	}
	return c, queries
}
