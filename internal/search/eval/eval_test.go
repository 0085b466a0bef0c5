package eval

import (
	"slices"
	"strings"
	"testing"
)

// TestCatalogs: each catalog loads (every expected tool exists, the old
// split is the fixed one) and has at least 40 answerable tune queries and 12
// answerable held-out ones, the third held-out split has at least 12
// answerable queries and 5 probes per catalog, and the fourth at least 25
// and 4.
func TestCatalogs(t *testing.T) {
	for _, id := range IDs {
		c, err := Load(id)
		if err != nil {
			t.Fatal(err)
		}
		var tune, heldOut, heldOut2, heldOut3 int
		for _, q := range c.Queries {
			switch {
			case len(q.Expected) == 0:
			case q.HeldOut:
				heldOut++
			case q.HeldOut2:
				heldOut2++
			case q.HeldOut3:
				heldOut3++
			default:
				tune++
			}
		}
		if tune < 40 || heldOut < 12 || heldOut2 < 12 {
			t.Errorf("%s: %d answerable tune queries, %d held out, %d in heldout2; want >= 40, >= 12 and >= 12", id, tune, heldOut, heldOut2)
		}
		if len(c.Probes2) < 5 {
			t.Errorf("%s: %d heldout2 probes, want >= 5", id, len(c.Probes2))
		}
		if heldOut3 < 25 || len(c.Probes3) < 4 {
			t.Errorf("%s: %d answerable heldout3 queries and %d probes, want >= 25 and >= 4", id, heldOut3, len(c.Probes3))
		}
		if c.Source == "" || c.Licence == "" || len(c.Tools) < 100 {
			t.Errorf("%s: source %q, licence %q, %d tools", id, c.Source, c.Licence, len(c.Tools))
		}
	}
}

// devSplits are the splits of catalogSplits, their catalogs, the
// answerable queries and probes each catalog has at least, whether the
// split is part of Tune and of Validation, and the least number of tools
// of its catalogs. dev3 has 20 requests and 3 probes per catalog, less the
// three its catalogs have no operation for (two became probes, one was
// dropped; eval/README.md, "Dev3 split"). The small splits' catalogs are
// MCP servers of 7-14 and 16-27 tools, 8 requests and 3 probes each;
// smalltrain's of 2-29 tools (and two unions of them), 7-8 requests and
// 3-4 probes each (one firecrawl request became a probe); small3's of
// 8-45 tools, 7-8 requests and 3-4 probes each (one netlify request
// became a probe); dev4's of 40-390 tools, 26-28 requests and 3 probes
// each (one launchdarkly request dropped; eval/README.md, "Dev4 split");
// train2's of 33-200 tools, 21-25 requests and 3 probes each (nine
// requests dropped; eval/README.md, "Train2 split"); train3's of 6-844
// tools, 13-25 requests and 3 probes each (29 requests dropped;
// eval/README.md, "Train3 split"); train4's of 21-263 tools, 13-25
// requests and 3 probes each (19 requests dropped; eval/README.md, "Train4
// split"); dev5's of 39-290 tools, 18-25 requests and 3 probes each (18
// requests dropped; eval/README.md, "Dev5 split"); dev6's one of 344
// tools, 25 requests and 3 probes (one request dropped; eval/README.md,
// "Dev6 split").
var devSplits = []devSplit{
	{Dev, DevIDs, 20, 4, true, false, 100},
	{Dev2, Dev2IDs, 20, 4, false, true, 100},
	{Dev3, Dev3IDs, 18, 3, false, true, 100},
	{Small, SmallIDs, 8, 3, false, false, 5},
	{Small2, Small2IDs, 8, 3, false, false, 5},
	{SmallTrain, slices.Concat(SmallTrainIDs, SmallTrainCombos), 7, 3, false, false, 2},
	{Small3, Small3IDs, 7, 3, false, false, 8},
	{Dev4, Dev4IDs, 26, 3, false, true, 40},
	{Train2, Train2IDs, 21, 3, false, false, 33},
	{Train3, Train3IDs, 13, 3, false, false, 6},
	{Train4, Train4IDs, 13, 3, false, false, 21},
	{Dev5, Dev5IDs, 18, 3, false, true, 39},
	{Dev6, Dev6IDs, 25, 3, false, true, 344},
}

type devSplit struct {
	split            Split
	ids              []string
	queries, probes  int
	tune, validation bool
	tools            int
}

// floors are the lexical figures (recall@1, recall@5, MRR) and empty
// probes that the catalogs of a dev split must hold (devFloor, dev3Floor).
type floors = map[string]struct {
	r1, r5, mrr float64
	empty       int
}

// TestDevCatalogs: each catalog of the splits of catalogSplits loads
// (every expected tool exists), has its split's least number of answerable
// queries and probes, SplitOf names its split, and its queries are in its
// split and in no other, in tune if of dev, and in validation if of dev2,
// dev3, dev4, dev5 or dev6.
func TestDevCatalogs(t *testing.T) {
	for _, d := range devSplits {
		for _, id := range d.ids {
			c, err := Load(id)
			if err != nil {
				t.Fatal(err)
			}
			var n int
			for _, q := range c.Queries {
				var in []string
				for _, s := range []Split{HeldOut, OldHeldOut, HeldOut2, HeldOut3, Dev, Dev2, Dev3, Dev4, Small, Small2, SmallTrain, Small3, Train2, Train3, Train4, Dev5, Dev6} {
					if s.In(q) {
						in = append(in, s.String())
					}
				}
				if len(in) != 1 || in[0] != d.split.String() || Tune.In(q) != d.tune || Validation.In(q) != d.validation {
					t.Errorf("%s query %q: in splits %v, tune %v, validation %v; want %s only, tune %v, validation %v",
						id, q.Query, in, Tune.In(q), Validation.In(q), d.split, d.tune, d.validation)
				}
				if len(q.Expected) > 0 {
					n++
				}
			}
			if n < d.queries || len(c.Probes) < d.probes || len(c.ProbesOf(d.split)) != len(c.Probes) {
				t.Errorf("%s: %d answerable %s queries, %d probes; want >= %d and >= %d", id, n, d.split, len(c.Probes), d.queries, d.probes)
			}
			if c.Source == "" || c.Licence == "" || len(c.Tools) < d.tools {
				t.Errorf("%s: source %q, licence %q, %d tools", id, c.Source, c.Licence, len(c.Tools))
			}
			// A combined catalog of smalltrain has no split of its own
			// (its members have).
			want := !slices.Contains(SmallTrainCombos, id)
			if s, ok := SplitOf(id); ok != want || ok && s != d.split {
				t.Errorf("SplitOf(%s) = %s, %v; want %s, %v", id, s, ok, d.split, want)
			}
		}
		if got := CatalogsOf(d.split); !slices.Equal(got, d.ids) {
			t.Errorf("CatalogsOf(%s) = %v, want %v", d.split, got, d.ids)
		}
	}
	for _, w := range []struct {
		split Split
		want  []string
	}{
		{Tune, slices.Concat(IDs, DevIDs)},
		{All, slices.Concat(IDs, DevIDs, Dev2IDs, Dev3IDs, SmallIDs, Small2IDs, SmallTrainIDs, Small3IDs, Dev4IDs, Train2IDs, Train3IDs, Train4IDs, Dev5IDs, Dev6IDs, SmallTrainCombos)},
		{Validation, slices.Concat(Dev2IDs, Dev3IDs, Dev4IDs, Dev5IDs, Dev6IDs)},
	} {
		if got := CatalogsOf(w.split); !slices.Equal(got, w.want) {
			t.Errorf("CatalogsOf(%s) = %v, want %v", w.split, got, w.want)
		}
	}
	for _, s := range []Split{HeldOut2, HeldOut3} {
		if got := CatalogsOf(s); !slices.Equal(got, IDs) {
			t.Errorf("CatalogsOf(%s) = %v, want %v", s, got, IDs)
		}
	}
	for _, id := range IDs {
		if s, ok := SplitOf(id); ok {
			t.Errorf("SplitOf(%s) = %s, true; want false: its queries are of several splits", id, s)
		}
	}
}

// TestBlind: the splits whose misses searcheval -v refuses to list are the
// held-out ones, the validation splits (dev2, dev3, validation) and all;
// the others (tune, dev, old-heldout) may be read.
func TestBlind(t *testing.T) {
	for _, tt := range []struct {
		split Split
		blind bool
	}{
		{HeldOut, true}, {HeldOut2, true}, {HeldOut3, true}, {All, true}, {Dev2, true}, {Dev3, true}, {Dev4, true}, {Dev5, true}, {Dev6, true}, {Validation, true}, {Small, true}, {Small2, true}, {Small3, true},
		{Tune, false}, {OldHeldOut, false}, {Dev, false}, {SmallTrain, false}, {Train2, false}, {Train3, false}, {Train4, false},
	} {
		if got := tt.split.Blind(); got != tt.blind {
			t.Errorf("%s.Blind() = %v, want %v", tt.split, got, tt.blind)
		}
		if got, err := ParseSplit(tt.split.String()); err != nil || got != tt.split {
			t.Errorf("ParseSplit(%q) = %v, %v", tt.split, got, err)
		}
	}
	// An unknown name is refused with the names it may be.
	if _, err := ParseSplit("small4"); err == nil || !strings.Contains(err.Error(), `"small4"`) || !strings.Contains(err.Error(), "small3") {
		t.Errorf("ParseSplit(small4): %v, want an error naming it and the splits", err)
	}
}

// TestDev4 holds the dev4 split's counts as committed, so that a request
// or probe lost from a file (or added after the catalogs were read) shows:
// 265 requests, every one with an expected tool, and 30 probes over ten
// catalogs, in Validation and not in Tune. It ranks nothing: dev4 is
// validation, and it has no floors (eval/README.md, "Dev4 split" and "The
// coordinator's decision on validation with dev4").
func TestDev4(t *testing.T) {
	checkSplitCounts(t, Dev4, map[string]splitCount{
		"gmail": {79, 27, 3}, "spotify": {88, 27, 3}, "docker": {104, 28, 3}, "shipengine": {90, 26, 3},
		"appveyor": {53, 26, 3}, "mastodon": {127, 27, 3}, "apideck": {40, 26, 3}, "launchdarkly": {105, 26, 3},
		"onsched": {138, 26, 3}, "payrun": {390, 26, 3},
	}, 265, 30)
	if !Validation.In(Query{Own: Dev4}) || Tune.In(Query{Own: Dev4}) {
		t.Errorf("a dev4 request: in Validation %v, in Tune %v; want Validation only", Validation.In(Query{Own: Dev4}), Tune.In(Query{Own: Dev4}))
	}
}

// TestTrain2 holds the train2 split's counts as committed, so that a
// request or probe lost from a file (or added after the catalogs were
// read) shows: 191 requests, every one with an expected tool, and 24
// probes over eight catalogs, none in Tune or Validation.
func TestTrain2(t *testing.T) {
	checkSplitCounts(t, Train2, map[string]splitCount{
		"calendar": {37, 24, 3}, "classroom": {61, 25, 3}, "plaid": {200, 25, 3}, "discourse": {84, 21, 3}, "shutterstock": {118, 24, 3},
		"youtube": {80, 25, 3}, "postman": {57, 22, 3}, "blogger": {33, 25, 3},
	}, 191, 24)
	if Validation.In(Query{Own: Train2}) || Tune.In(Query{Own: Train2}) {
		t.Errorf("a train2 request: in Validation %v, in Tune %v; want neither", Validation.In(Query{Own: Train2}), Tune.In(Query{Own: Train2}))
	}
}

// TestTrain3 holds the train3 split's counts as committed, so that a
// request or probe lost from a file (or added after the catalogs were
// read) shows: 191 requests, every one with an expected tool, and 27
// probes over nine catalogs (four REST APIs of 387-844 operations, five
// MCP servers of 6-32 tools), none in Tune or Validation.
func TestTrain3(t *testing.T) {
	checkSplitCounts(t, Train3, map[string]splitCount{
		"jellyfin": {387, 25, 3}, "rubrik": {454, 22, 3}, "netbox": {844, 24, 3}, "severa": {512, 22, 3},
		"antv": {27, 24, 3}, "hevy": {22, 21, 3}, "ccxt": {24, 16, 3}, "mobile": {32, 24, 3}, "weather": {6, 13, 3},
	}, 191, 27)
	if Validation.In(Query{Own: Train3}) || Tune.In(Query{Own: Train3}) {
		t.Errorf("a train3 request: in Validation %v, in Tune %v; want neither", Validation.In(Query{Own: Train3}), Tune.In(Query{Own: Train3}))
	}
}

// TestTrain4 holds the train4 split's counts as committed: 156 requests,
// every one with an expected tool, and 21 probes over seven catalogs
// (three REST APIs of 197-263 operations, four MCP servers of 21-59
// tools), none in Tune or Validation.
func TestTrain4(t *testing.T) {
	checkSplitCounts(t, Train4, map[string]splitCount{
		"connect": {197, 24, 3}, "drchrono": {263, 25, 3}, "appstore": {252, 22, 3},
		"lunchmoney": {59, 25, 3}, "bitwarden": {59, 25, 3}, "grafana": {43, 13, 3}, "datadog": {21, 22, 3},
	}, 156, 21)
	if Validation.In(Query{Own: Train4}) || Tune.In(Query{Own: Train4}) {
		t.Errorf("a train4 request: in Validation %v, in Tune %v; want neither", Validation.In(Query{Own: Train4}), Tune.In(Query{Own: Train4}))
	}
}

// TestDev5 holds the dev5 split's counts as committed, so that a request
// or probe lost from a file (or added after the catalogs were read) shows:
// 159 requests, every one with an expected tool, and 21 probes over seven
// catalogs (five MCP servers of 39-133 tools, two REST APIs of 101 and 290
// operations), in Validation and not in Tune; and its catalogs hold
// dev5Floor.
func TestDev5(t *testing.T) {
	checkSplitCounts(t, Dev5, map[string]splitCount{
		"apacta": {290, 21, 3}, "metabase": {133, 24, 3}, "signl4": {101, 21, 3},
		"monday": {92, 25, 3}, "paperless": {44, 25, 3}, "attio": {43, 25, 3}, "quickbooks": {39, 18, 3},
	}, 159, 21)
	if !Validation.In(Query{Own: Dev5}) || Tune.In(Query{Own: Dev5}) {
		t.Errorf("a dev5 request: in Validation %v, in Tune %v; want Validation only", Validation.In(Query{Own: Dev5}), Tune.In(Query{Own: Dev5}))
	}
	checkDev(t, devSplits[11:12], dev5Floor)
}

// dev5Floor are the dev5 split's figures as devFloor's, measured on main
// (2929c68's ranking) when the split's mapping was committed, before any
// ranking change was judged on it: the base of the forty-fourth session's
// look (eval/README.md, "Dev5 split"). dev5 is a validation split: a
// change may raise a floor here only after it was judged, and nobody
// reads its misses to do so.
var dev5Floor = floors{
	"apacta":     {0.29, 0.52, 0.38, 3},
	"metabase":   {0.54, 0.79, 0.66, 1},
	"signl4":     {0.43, 0.57, 0.49, 1},
	"monday":     {0.32, 0.64, 0.44, 2},
	"paperless":  {0.52, 0.72, 0.60, 2},
	"attio":      {0.24, 0.60, 0.41, 2},
	"quickbooks": {0.44, 0.67, 0.57, 0},
}

// TestDev6 holds the dev6 split's counts as committed: 25 requests, every
// one with an expected tool, and 3 probes over Microsoft 365's MCP server
// of 344 tools, in Validation and not in Tune; and its catalog holds
// dev6Floor.
func TestDev6(t *testing.T) {
	checkSplitCounts(t, Dev6, map[string]splitCount{"ms365": {344, 25, 3}}, 25, 3)
	if !Validation.In(Query{Own: Dev6}) || Tune.In(Query{Own: Dev6}) {
		t.Errorf("a dev6 request: in Validation %v, in Tune %v; want Validation only", Validation.In(Query{Own: Dev6}), Tune.In(Query{Own: Dev6}))
	}
	checkDev(t, devSplits[12:13], dev6Floor)
}

// dev6Floor are the dev6 split's figures as devFloor's, measured on main
// (2fada3f's ranking) when the split was committed, aggregates only: the
// base of the next look (eval/README.md, "Dev6 split"). dev6 is a
// validation split: a change may raise its floor only after it was
// judged, and nobody reads its misses to do so.
var dev6Floor = floors{
	"ms365": {0.56, 0.76, 0.63, 1},
}

// splitCount is what a catalog of a split of catalogSplits holds: its
// tools, requests and probes.
type splitCount struct{ tools, queries, probes int }

// checkSplitCounts: the catalogs of split are those of want, with their
// counts; every request is of the split, has an expected tool and is
// asked once only in the split; and the split has queries requests and
// probes probes in all.
// sharedRequests are the requests two catalogs of one split both hold,
// each written blind for its own catalog: the text, then the two catalogs
// in report order. Any other request found twice in a split is an error
// (a line copied into the wrong file).
var sharedRequests = map[string][2]string{
	"list the open incidents": {"grafana", "datadog"}, // train4: two monitoring services
}

func checkSplitCounts(t *testing.T, split Split, want map[string]splitCount, queries, probes int) {
	t.Helper()
	var nq, np int
	seen := map[string]string{}
	for _, id := range CatalogsOf(split) {
		c, err := Load(id)
		if err != nil {
			t.Fatal(err)
		}
		w, ok := want[id]
		if !ok {
			t.Errorf("%s catalog %s: not one of its %d", split, id, len(want))
			continue
		}
		n := 0
		for _, q := range c.Queries {
			if !split.In(q) || len(q.Expected) == 0 {
				t.Errorf("%s query %q: in %s %v, expected %v; want every one in %s with an expected tool", id, q.Query, split, split.In(q), q.Expected, split)
			}
			if other, dup := seen[q.Query]; dup && sharedRequests[q.Query] != [2]string{other, id} {
				t.Errorf("%s query %q: also a request of %s", id, q.Query, other)
			}
			seen[q.Query] = id
			n++
		}
		if len(c.Tools) != w.tools || n != w.queries || len(c.Probes) != w.probes {
			t.Errorf("%s: %d tools, %d requests, %d probes; want %d, %d and %d", id, len(c.Tools), n, len(c.Probes), w.tools, w.queries, w.probes)
		}
		nq += n
		np += len(c.Probes)
	}
	if len(CatalogsOf(split)) != len(want) || nq != queries || np != probes {
		t.Errorf("%s: %d catalogs, %d requests, %d probes; want %d, %d and %d", split, len(CatalogsOf(split)), nq, np, len(want), queries, probes)
	}
}

// TestEvaluate: the metrics of a ranking that knows the answers, one that
// puts them second, one that never finds them, and one that answers
// nothing (counted as empty answers).
func TestEvaluate(t *testing.T) {
	c := &Catalog{Queries: []Query{
		{Query: "a", Expected: []string{"x"}},
		{Query: "b", Expected: []string{"y", "z"}},
		{Query: "none"},
		{Query: "held", Expected: []string{"x"}, HeldOut: true},
		{Query: "held2", Expected: []string{"x"}, HeldOut2: true},
		{Query: "held3", Expected: []string{"x"}, HeldOut3: true},
	}}
	answers := map[string][]string{"a": {"x"}, "b": {"z"}}
	tests := []struct {
		name       string
		rank       func(string, int) []string
		r1, r5, rr float64
		empty      int
	}{
		{"first", func(q string, _ int) []string { return append([]string{}, answers[q]...) }, 1, 1, 1, 0},
		{"second", func(q string, _ int) []string { return append([]string{"w"}, answers[q]...) }, 0, 1, 0.5, 0},
		{"sixth", func(q string, _ int) []string { return append([]string{"1", "2", "3", "4", "5"}, answers[q]...) }, 0, 0, 1.0 / 6, 0},
		{"never", func(string, int) []string { return []string{"w"} }, 0, 0, 0, 0},
		{"nothing", func(string, int) []string { return nil }, 0, 0, 0, 2},
		{"a empty", func(q string, _ int) []string {
			if q == "a" {
				return nil
			}
			return answers[q]
		}, 0.5, 0.5, 0.5, 1},
	}
	for _, tt := range tests {
		m := Evaluate(c, Tune, tt.rank)
		if m.N != 2 || m.Recall1 != tt.r1 || m.Recall5 != tt.r5 || m.MRR != tt.rr || m.Empty != tt.empty ||
			float64(m.Hits1) != tt.r1*2 || float64(m.Hits5) != tt.r5*2 {
			t.Errorf("%s: got %+v, want n=2 %v %v %v empty %d", tt.name, m, tt.r1, tt.r5, tt.rr, tt.empty)
		}
	}
}

// short are the held-out figures (recall@1, recall@5) of the catalogs
// that miss a target, as measured when the split was written; each must
// not fall, and the entry must go once its catalog meets the targets.
// Slack's short descriptions ("Deletes a reminder.") and GitHub-, Slack-
// or DigitalOcean-specific words (droplet, snooze, star) are what the
// lexical ranking cannot bridge; see the notes of issue 12. Slack's
// recall@1 since the property field weighs 0.75 (0.12 before), and since
// the general vocabulary (vocab_general.go) 0.25 and its recall@5 0.50:
// one query lower, recorded lower on purpose (eval/README.md, "General
// vocabulary"); its recall@5 0.62 since the weak tail (now params.go weakWeight).
// DigitalOcean (0.61/0.78) meets the targets since weak matches are
// discounted rather than listed last (params.go weakWeight).
var short = map[string][2]float64{
	"slack": {0.25, 0.62},
}

// TestHeldOut: on every catalog's held-out queries, the lexical ranking
// meets the targets (or, for a catalog listed in short, holds its figures
// and still misses, so the list stays true), and fusing it with the
// deterministic test embedder lowers neither recall@1 nor recall@5.
func TestHeldOut(t *testing.T) { checkHeldOut(t, HeldOut, short) }

// short2 is short for the third held-out split (heldout2), as measured
// when its mapping was committed, before any tuning could see it; slack's
// recall@1 since the dictionary vocabulary (0.47 before); stripe's since
// the property field weighs 0.75 (0.50 before); github's recall@5 and
// digitalocean's since the general vocabulary (0.56 and 0.50/0.81 before);
// slack's and github's recall@5 since weak matches are discounted (params.go
// weakWeight; 0.87 and 0.62 before). DigitalOcean (0.62/0.88) meets the
// targets since one thing or the list (params.go manyNeeds, oneNeeds;
// 0.56/0.88 before).
var short2 = map[string][2]float64{
	"slack":  {0.53, 0.93},
	"github": {0.38, 0.69},
	"stripe": {0.56, 0.62},
}

// TestHeldOut2 is TestHeldOut on the third held-out split, written by a
// party independent of the tuning.
func TestHeldOut2(t *testing.T) { checkHeldOut(t, HeldOut2, short2) }

// short3 is short for the fourth held-out split (heldout3), as measured
// when its mapping was committed (main efe3bb0 plus the mapping), before any
// ranking change could be judged on it (eval/README.md, "Fourth held-out
// split"). DigitalOcean (0.71/0.90) meets the targets there. GitHub's
// recall@1 since one thing or the list (params.go manyNeeds, oneNeeds;
// 0.47 before), and since a request in the first person ranks the
// caller's own tools higher (params.go ownScope; 0.50 before).
var short3 = map[string][2]float64{
	"slack":  {0.41, 0.74},
	"github": {0.53, 0.81},
	"stripe": {0.55, 0.79},
}

// TestHeldOut3 is TestHeldOut on the fourth held-out split.
func TestHeldOut3(t *testing.T) { checkHeldOut(t, HeldOut3, short3) }

func checkHeldOut(t *testing.T, split Split, short map[string][2]float64) {
	for _, id := range IDs {
		c, err := Load(id)
		if err != nil {
			t.Fatal(err)
		}
		lex := Evaluate(c, split, Lexical(c))
		fused := Evaluate(c, split, Fused(c, HashEmbed))
		t.Logf("%s %s lexical %s, fused %s", id, split, lex, fused)
		meets := lex.Meets()
		if b, ok := short[id]; ok {
			if lex.Recall1 < b[0]-0.005 || lex.Recall5 < b[1]-0.005 { // b is rounded to 2 places
				t.Errorf("%s %s: lexical %s, below its recorded recall@1=%.2f recall@5=%.2f", id, split, lex, b[0], b[1])
			}
			if meets {
				t.Errorf("%s %s: lexical %s meets the targets now: remove it from its short map", id, split, lex)
			}
		} else if !meets {
			t.Errorf("%s %s: lexical %s, want recall@1 >= %.1f and recall@5 >= %.1f", id, split, lex, TargetRecall1, TargetRecall5)
		}
		if fused.Recall1 < lex.Recall1 || fused.Recall5 < lex.Recall5 {
			t.Errorf("%s %s: fused %s lowers lexical %s", id, split, fused, lex)
		}
	}
}

// TestProbes: every catalog has probes, and the queries for what a
// catalog cannot do get an empty answer at least as often as when the
// empty-answer rule was last changed (github 4 -> 5 since "not" is a
// stopword).
func TestProbes(t *testing.T) {
	floor := map[string]int{"slack": 5, "github": 5, "stripe": 0, "digitalocean": 3}
	for _, id := range IDs {
		c, err := Load(id)
		if err != nil {
			t.Fatal(err)
		}
		empty, answered := EmptyProbes(c, Lexical(c))
		for _, a := range answered {
			t.Logf("%s probe %q got %v", id, a.Query, a.Got)
		}
		if len(c.Probes) < 5 || empty < floor[id] {
			t.Errorf("%s: %d of %d probes empty, want >= %d of >= 5", id, empty, len(c.Probes), floor[id])
		}
	}
}

// TestProbes2: the probes of the third held-out split get an empty answer
// at least as often as when that split was committed, or as since the
// dictionary vocabulary (wordnet.go) made one of digitalocean's probes
// (3 -> 2) find a tool: that was read after the vocabulary was chosen on
// the tune split, and is recorded rather than tuned away.
func TestProbes2(t *testing.T) {
	checkHeldOutProbes(t, HeldOut2, map[string]int{"slack": 3, "github": 2, "stripe": 3, "digitalocean": 2})
}

// TestProbes3: the probes of the fourth held-out split get an empty
// answer at least as often as when that split was committed.
func TestProbes3(t *testing.T) {
	checkHeldOutProbes(t, HeldOut3, map[string]int{"slack": 2, "github": 3, "stripe": 2, "digitalocean": 1})
}

// checkHeldOutProbes: each catalog's probes of a held-out split get an
// empty answer at least floor[id] times.
func checkHeldOutProbes(t *testing.T, split Split, floor map[string]int) {
	for _, id := range IDs {
		c, err := Load(id)
		if err != nil {
			t.Fatal(err)
		}
		probes := c.ProbesOf(split)
		if empty, _ := EmptyProbesOf(probes, Lexical(c)); empty < floor[id] {
			t.Errorf("%s: %d of %d %s probes empty, want >= %d", id, empty, len(probes), split, floor[id])
		}
	}
}

// devFloor are the dev and dev2 splits' lexical figures (recall@1,
// recall@5, MRR) and their empty probes, as measured when each split was
// committed. The dev splits are tuned on: a change may raise a figure (then raise its floor
// here), never lower one. Raised since by the value rule (query.go
// valueWords, light verbs, time words: asana, box, square, zoom) and the
// property field's weight 0.75 (box, square, zoom) and readPenalty
// (asana, linode, zoom). Re-recorded for the general vocabulary
// (vocab_general.go): every catalog's figures as measured with it, which
// lowers two on purpose, linode's recall@5 (0.71 before) and square's
// empty probes (2 before); eval/README.md, "General vocabulary", says why.
// Raised since by "not" as a stopword (trello) and by the weak tail
// (now params.go weakWeight: box, linode, square and every dev2 catalog).
// Re-recorded when weak matches were discounted rather than listed last
// (params.go weakWeight): raised for asana, box, linode, trello, hetzner,
// jira, twilio, and square's lowered on purpose (0.54/0.88/0.67 before:
// one query's first place lost, accepted because every blind split
// rises; eval/README.md, "Weak matches discounted"). Re-recorded when
// the discount went from x0.7 to x0.8 (eval/README.md, "How far weak
// matches are merged"): trello and hetzner raised, twilio's recall@1
// (0.62/0.71/0.68 before) and square's mrr (0.66) lowered on purpose.
// Raised by one thing or the list (params.go manyNeeds, oneNeeds): asana,
// box, square, mailchimp (0.25/0.50/0.37, 0.33/0.62/0.46, 0.50/0.88/0.65,
// 0.42/0.67/0.49 before). hetzner raised by the two-letter plurals of
// names (tokens.go twoLetterPlural; 0.71/0.92/0.80 before).
var devFloor = floors{
	"asana":  {0.29, 0.50, 0.40, 3},
	"box":    {0.33, 0.67, 0.46, 2},
	"linode": {0.54, 0.71, 0.63, 2},
	"square": {0.54, 0.88, 0.67, 1},
	"zoom":   {0.46, 0.83, 0.60, 1},
	// dev2 (committed at 0.21/0.38/0.28, 0.38/0.58/0.46, 0.62/0.75/0.66,
	// 0.21/0.38/0.27, 0.58/0.62/0.62).
	"trello":    {0.38, 0.54, 0.44, 4},
	"mailchimp": {0.46, 0.67, 0.52, 3},
	"hetzner":   {0.75, 0.92, 0.82, 3},
	"jira":      {0.25, 0.50, 0.35, 0},
	"twilio":    {0.58, 0.71, 0.66, 3},
}

// TestDev: on every catalog of the dev and dev2 splits, the lexical
// figures and the count of empty probes hold their floors, and fusing with
// the deterministic test embedder lowers neither recall@1 nor recall@5.
func TestDev(t *testing.T) { checkDev(t, devSplits[:2], devFloor) }

// dev3Floor are the dev3 split's figures as devFloor's, measured on main
// when the split's mapping was committed (after 799d006). dev3 is a
// validation split: a change may raise a floor here only after it was
// judged on other splits, and nobody reads its misses to do so. Raised
// by the weak tail (now params.go weakWeight: sendgrid, vercel, xero, docusign,
// magento), judged on TRAIN and dev2 first. Re-recorded when weak
// matches were discounted (params.go weakWeight; judged on TRAIN and dev2 +
// dev3 as aggregates): raised for sendgrid, vercel, xero, docusign,
// keycloak, and bitbucket's lowered on purpose (0.55/0.85/0.67 before: one
// query out of the first five, accepted because every blind split rises;
// eval/README.md, "Weak matches discounted"). Raised by one thing or the
// list (params.go manyNeeds, oneNeeds): xero (0.42/0.63/0.48 before);
// docusign's lowered on purpose by it (0.45/0.60/0.53 before: one query
// out of the first five, accepted because TRAIN, validation's sum and
// every held-out sum rise and no held-out catalog falls; eval/README.md,
// "One thing or the list"). bitbucket's recall@5 raised by the caller's
// own tools for a request in the first person (params.go ownScope; 0.80
// before; eval/README.md, "The caller's own tools"). sendgrid's mrr raised
// by the two-letter plurals of names (tokens.go twoLetterPlural; 0.36
// before).
var dev3Floor = floors{
	"sendgrid":  {0.15, 0.60, 0.37, 3},
	"bitbucket": {0.55, 0.85, 0.66, 2},
	"vercel":    {0.65, 0.75, 0.68, 2},
	"xero":      {0.47, 0.63, 0.51, 4},
	"vimeo":     {0.28, 0.33, 0.30, 3},
	"docusign":  {0.45, 0.55, 0.52, 1},
	"keycloak":  {0.45, 0.55, 0.50, 1},
	"magento":   {0.50, 0.75, 0.59, 2},
}

// TestDev3 is TestDev on the dev3 split, the validation split of eight
// catalogs.
func TestDev3(t *testing.T) { checkDev(t, devSplits[2:3], dev3Floor) }

// smallFloor are the small split's figures as devFloor's, measured on
// main when the split was committed (after b501f4f): more than half of
// the requests were answered with an empty list (22 of 40), the failure
// the split was made to measure. Branch small (coverage idf as if the
// catalog had >= 50 tools, not on main) measured 0.40/0.50/0.44 summed and
// 19 empty answers, but 12 of 15 empty probes; eval/README.md, "Small
// split". Re-recorded when unknown words came to weigh by catalog size
// (params.go fullCatalog, judged on smalltrain first): filesystem,
// puppeteer and googlemaps raised (0.12/0.50/0.28, 0.38/0.38/0.38 and
// 0.38/0.38/0.38 before), googlemaps' empty probes lowered on purpose
// (3 before: one probe answered, within the rule written before
// measuring; eval/README.md, "Small catalogs: unknown words weigh by
// catalog size"). Re-recorded when a first word of a verb class came to
// count as known to the tools whose name states that class (params.go
// verbRelief, judged on smalltrain, then small by the same rule): memory
// raised (0.12/0.12/0.12 before), slackmcp's empty probes lowered on
// purpose (3 before: one probe answered, within the rule;
// eval/README.md, "Small catalogs: a first word of a verb class").
var smallFloor = floors{
	"filesystem": {0.38, 0.75, 0.53, 2},
	"memory":     {0.25, 0.25, 0.25, 3},
	"puppeteer":  {0.50, 0.50, 0.50, 3},
	"googlemaps": {0.50, 0.75, 0.62, 2},
	"slackmcp":   {0.75, 0.88, 0.81, 2},
}

// TestSmall is TestDev on the small split, the validation split of five
// MCP servers of a few tools each.
func TestSmall(t *testing.T) { checkDev(t, devSplits[3:4], smallFloor) }

// small2Floor are the small2 split's figures as devFloor's, measured once
// on main when the split was committed (after 2c2fe57; SUM small2 hits@1
// 18/40, hits@5 23/40, 12 of 15 probes empty, 10 of 40 requests answered
// with an empty list). small2 is held out: a floor here may be raised
// after a change was judged elsewhere, never by reading its misses;
// eval/README.md, "Second small split, held out". Raised after unknown
// words came to weigh by catalog size (params.go fullCatalog, judged on
// smalltrain and small; small2 read once, as aggregates, after the
// choice): playwright, notion, mongodb and airtable (0.62/0.88/0.75,
// 0.25/0.38/0.33, 0.38/0.50/0.46 and 0.25/0.25/0.26 before).
// Re-recorded after params.go verbRelief (judged on smalltrain and small by
// the small-catalog rule; small2 read once, as aggregates, after the
// choice): airtable raised (0.38/0.75/0.56 before), mongodb's empty
// probes lowered on purpose (3 before: one probe answered, the trade the
// rule accepts on the other small splits; eval/README.md, "Small
// catalogs: a first word of a verb class").
var small2Floor = floors{
	"playwright": {0.75, 1.00, 0.88, 2},
	"notion":     {0.38, 0.62, 0.48, 2},
	"kubernetes": {0.75, 0.88, 0.78, 2},
	"mongodb":    {0.38, 0.62, 0.47, 2},
	"airtable":   {0.50, 0.88, 0.68, 3},
}

// TestSmall2 is TestDev on the small2 split, the held-out split of five
// more MCP servers.
func TestSmall2(t *testing.T) { checkDev(t, devSplits[4:5], small2Floor) }

// small3Floor are the small3 split's figures as devFloor's, measured on
// main when the split was committed (after 1b8d5a2; SUM small3 hits@1
// 23/47, hits@5 32/47, 13 of 19 probes empty, 4 of 47 requests answered
// with an empty list). small3 is a validation split like small: a floor
// may be raised after a change was judged on it by its aggregates, never
// by reading its misses; eval/README.md, "Third small split".
var small3Floor = floors{
	"sentry":   {0.62, 1.00, 0.74, 2},
	"supabase": {0.62, 0.88, 0.71, 2},
	"hubspot":  {0.25, 0.38, 0.38, 2},
	"todoist":  {0.25, 0.38, 0.33, 3},
	"netlify":  {0.57, 0.57, 0.57, 3},
	"neon":     {0.62, 0.88, 0.75, 1},
}

// TestSmall3 is TestDev on the small3 split, the second validation split
// of MCP servers.
func TestSmall3(t *testing.T) { checkDev(t, devSplits[6:7], small3Floor) }

// smallTrainFloor are the smalltrain split's figures as devFloor's,
// measured on main when the split was committed (after 2c2fe57). It is a
// training split: a change may raise a floor, never lower one unless the
// rule it is judged by allows it. Re-recorded when unknown words came to
// weigh by catalog size (params.go fullCatalog): githubmcp, redismcp,
// context7 and both combined catalogs raised (0.25/0.50/0.35,
// 0/0/0, 0.38/0.50/0.44, 0.38/0.67/0.50 and 0.40/0.67/0.52 before),
// firecrawl's mrr (0.64); one probe answered in githubmcp (3 before) and
// githubmcp+redismcp+context7 (7 before), within the rule
// (eval/README.md, "Small catalogs: unknown words weigh by catalog size").
// gitlabmcp raised after params.go verbRelief (0.12/0.12/0.12 before);
// githubmcp's mrr (0.48) and gitlabmcp+firecrawl (0.40/0.67/0.53) after
// params.go manyNeeds and oneNeeds.
var smallTrainFloor = floors{
	"githubmcp":                   {0.25, 0.88, 0.50, 2},
	"gitlabmcp":                   {0.25, 0.25, 0.25, 3},
	"redismcp":                    {0.25, 0.62, 0.44, 3},
	"firecrawl":                   {0.57, 0.71, 0.67, 1},
	"context7":                    {0.50, 0.62, 0.56, 3},
	"githubmcp+redismcp+context7": {0.42, 0.79, 0.58, 6},
	"gitlabmcp+firecrawl":         {0.40, 0.73, 0.55, 3},
}

// TestSmallTrain is TestDev on the smalltrain split, the training split
// of MCP servers of a few tools each and of two servers mounted together.
func TestSmallTrain(t *testing.T) { checkDev(t, devSplits[5:6], smallTrainFloor) }

func checkDev(t *testing.T, splits []devSplit, want floors) {
	for _, d := range splits {
		for _, id := range d.ids {
			c, err := Load(id)
			if err != nil {
				t.Fatal(err)
			}
			f, ok := want[id]
			if !ok {
				t.Fatalf("%s: no floor", id)
			}
			lex := Evaluate(c, d.split, Lexical(c))
			fused := Evaluate(c, d.split, Fused(c, HashEmbed))
			empty, _ := EmptyProbesOf(c.ProbesOf(d.split), Lexical(c))
			t.Logf("%s %s lexical %s empty=%d/%d, fused %s", id, d.split, lex, empty, len(c.Probes), fused)
			// The floors are rounded to 2 places.
			if lex.Recall1 < f.r1-0.005 || lex.Recall5 < f.r5-0.005 || lex.MRR < f.mrr-0.005 {
				t.Errorf("%s %s: lexical %s, below its floor recall@1=%.2f recall@5=%.2f mrr=%.2f", id, d.split, lex, f.r1, f.r5, f.mrr)
			}
			if empty < f.empty {
				t.Errorf("%s %s: %d of %d probes empty, below its floor %d", id, d.split, empty, len(c.Probes), f.empty)
			}
			if fused.Recall1 < lex.Recall1 || fused.Recall5 < lex.Recall5 {
				t.Errorf("%s %s: fused %s lowers lexical %s", id, d.split, fused, lex)
			}
		}
	}
}
