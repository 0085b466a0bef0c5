package eval

import "testing"

// TestCatalogs: each catalog loads (every expected tool exists, the old
// split is the fixed one) and has at least 40 answerable tune queries and 12
// answerable held-out ones.
func TestCatalogs(t *testing.T) {
	for _, id := range IDs {
		c, err := Load(id)
		if err != nil {
			t.Fatal(err)
		}
		var tune, heldOut int
		for _, q := range c.Queries {
			switch {
			case len(q.Expected) == 0:
			case q.HeldOut:
				heldOut++
			default:
				tune++
			}
		}
		if tune < 40 || heldOut < 12 {
			t.Errorf("%s: %d answerable tune queries, %d held out; want >= 40 and >= 12", id, tune, heldOut)
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
		{Query: "held", Expected: []string{"x"}, HeldOut: true},
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
		m := Evaluate(c, Tune, tt.rank)
		if m.N != 2 || m.Recall1 != tt.r1 || m.Recall5 != tt.r5 || m.MRR != tt.rr {
			t.Errorf("%s: got %+v, want n=2 %v %v %v", tt.name, m, tt.r1, tt.r5, tt.rr)
		}
	}
}

// before are the figures of main at 85c776c on the new held-out split:
// recall@1, recall@5.
var before = map[string][2]float64{
	"slack":        {0.12, 0.50},
	"github":       {0.71, 0.82},
	"stripe":       {0.69, 0.94},
	"digitalocean": {0.56, 0.78},
}

// TestHeldOut: on every catalog's held-out queries, the lexical ranking is
// at least as good as main's at 85c776c, and fusing it with the
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
		if b := before[id]; lex.Recall1 < b[0]-0.005 || lex.Recall5 < b[1]-0.005 { // b is rounded to 2 places
			t.Errorf("%s: lexical %s, below main's recall@1=%.2f recall@5=%.2f", id, lex, b[0], b[1])
		}
		if fused.Recall1 < lex.Recall1 || fused.Recall5 < lex.Recall5 {
			t.Errorf("%s: fused %s lowers lexical %s", id, fused, lex)
		}
	}
}
