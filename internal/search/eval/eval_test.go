package eval

import "testing"

// TestCatalogs: each catalog loads (every expected tool exists, the split is
// the fixed one) and has at least 40 answerable queries, a third held out.
func TestCatalogs(t *testing.T) {
	for _, id := range IDs {
		c, err := Load(id)
		if err != nil {
			t.Fatal(err)
		}
		var answerable, heldOut int
		for _, q := range c.Queries {
			if len(q.Expected) > 0 {
				answerable++
				if q.HeldOut {
					heldOut++
				}
			}
		}
		if answerable < 40 || heldOut < answerable/4 {
			t.Errorf("%s: %d answerable queries, %d held out; want >= 40 and a third held out", id, answerable, heldOut)
		}
		if c.Source == "" || c.Licence == "" || len(c.Tools) < 100 {
			t.Errorf("%s: source %q, licence %q, %d tools", id, c.Source, c.Licence, len(c.Tools))
		}
	}
}

// TestEvaluate: the metrics of a ranking that knows the answers, one that
// puts them second, and one that never finds them.
func TestEvaluate(t *testing.T) {
	c := &Catalog{Queries: []Query{
		{Query: "a", Expected: []string{"x"}},
		{Query: "b", Expected: []string{"y", "z"}},
		{Query: "none"},
	}}
	answers := map[string][]string{"a": {"x"}, "b": {"z"}}
	tests := []struct {
		name       string
		rank       func(string, int) []string
		r1, r5, rr float64
	}{
		{"first", func(q string, _ int) []string { return append([]string{}, answers[q]...) }, 1, 1, 1},
		{"second", func(q string, _ int) []string { return append([]string{"w"}, answers[q]...) }, 0, 1, 0.5},
		{"sixth", func(q string, _ int) []string { return append([]string{"1", "2", "3", "4", "5"}, answers[q]...) }, 0, 0, 1.0 / 6},
		{"never", func(string, int) []string { return []string{"w"} }, 0, 0, 0},
	}
	for _, tt := range tests {
		m := Evaluate(c, All, tt.rank)
		if m.N != 2 || m.Recall1 != tt.r1 || m.Recall5 != tt.r5 || m.MRR != tt.rr {
			t.Errorf("%s: got %+v, want n=2 %v %v %v", tt.name, m, tt.r1, tt.r5, tt.rr)
		}
	}
}

// before are the held-out figures of the ranking this package was written
// to replace (main at b7bb6e3): recall@1, recall@5.
var before = map[string][2]float64{
	"slack":        {0.53, 0.88},
	"github":       {0.35, 0.53},
	"stripe":       {0.41, 0.82},
	"digitalocean": {0.62, 0.75},
}

// TestHeldOut: on every catalog's held-out queries, the lexical ranking is
// at least as good as the one it replaced, and fusing it with the
// deterministic test embedder lowers neither recall@1 nor recall@5.
func TestHeldOut(t *testing.T) {
	for _, id := range IDs {
		c, err := Load(id)
		if err != nil {
			t.Fatal(err)
		}
		lex := Evaluate(c, HeldOut, Lexical(c))
		fused := Evaluate(c, HeldOut, Fused(c, HashEmbed))
		t.Logf("%s lexical %s, fused %s", id, lex, fused)
		if b := before[id]; lex.Recall1 < b[0] || lex.Recall5 < b[1] {
			t.Errorf("%s: lexical %s, below the replaced ranking's recall@1=%.2f recall@5=%.2f", id, lex, b[0], b[1])
		}
		if fused.Recall1 < lex.Recall1 || fused.Recall5 < lex.Recall5 {
			t.Errorf("%s: fused %s lowers lexical %s", id, fused, lex)
		}
	}
}
