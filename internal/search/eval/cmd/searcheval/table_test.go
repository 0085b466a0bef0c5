package main

import (
	"strings"
	"testing"

	"github.com/interopio/code-mode/internal/search/eval"
)

func TestReadSearchLines(t *testing.T) {
	tests := []struct {
		name, text string
		want       map[string]eval.Metrics
		err        string
	}{
		{"make bench's lines, other lines skipped",
			"BENCH api-search-1000 ours=9.1ms base=0.2ms ratio=45.50\n" +
				"SEARCH slack recall@1=0.25 recall@5=0.62 mrr=0.41\n" +
				"PROBES slack empty=5/6\n" +
				"SEARCH github split=heldout2 recall@1=0.38 recall@5=0.69 mrr=0.49\n" +
				"SUM heldout n=67 hits@1=40 hits@5=56 recall@1=0.60 recall@5=0.84 mrr=0.70\n",
			map[string]eval.Metrics{
				"slack":                 {Recall1: 0.25, Recall5: 0.62, MRR: 0.41},
				"github split=heldout2": {Recall1: 0.38, Recall5: 0.69, MRR: 0.49},
			}, ""},
		{"no lines", "", map[string]eval.Metrics{}, ""},
		{"a figure missing", "SEARCH slack recall@1=0.25 recall@5=0.62\n", nil, "line 1: want recall@1=, recall@5= and mrr="},
		{"not a number", "x\nSEARCH slack recall@1=abc recall@5=0.62 mrr=0.41\n", nil, `line 2: recall@1="abc" is not a number`},
		{"not name=value", "SEARCH slack 0.25 recall@5=0.62 mrr=0.41\n", nil, `line 1: want name=value, not "0.25"`},
		{"no catalog", "SEARCH\n", nil, "line 1: a SEARCH line names its catalog"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readSearchLines(strings.NewReader(tt.text))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for k, w := range tt.want {
				if g := got[k]; g.Recall1 != w.Recall1 || g.Recall5 != w.Recall5 || g.MRR != w.MRR {
					t.Errorf("%s: got %+v, want %+v", k, got[k], w)
				}
			}
		})
	}
}

func TestWriteTable(t *testing.T) {
	rows := []row{
		{"slack", "heldout", eval.Metrics{N: 16, Recall1: 0.25, Recall5: 0.62, MRR: 0.41}},
		{"slack", "heldout2", eval.Metrics{N: 15, Recall1: 0.53, Recall5: 0.93, MRR: 0.69}},
		{"digitalocean", "heldout3", eval.Metrics{N: 31, Recall1: 0.71, Recall5: 0.90, MRR: 0.80}},
	}
	tests := []struct {
		name   string
		before map[string]eval.Metrics
		want   []string
	}{
		{"after only", nil, []string{
			"| catalog | split | queries | recall@1 / recall@5 / mrr | meets the targets |",
			"| slack | heldout | 16 | 0.25 / 0.62 / 0.41 | no: recall@1, recall@5 |",
			"| slack | heldout2 | 15 | 0.53 / 0.93 / 0.69 | no: recall@1 |",
			"| digitalocean | heldout3 | 31 | 0.71 / 0.90 / 0.80 | yes |",
		}},
		{"before beside, a row it lacks", map[string]eval.Metrics{
			"slack":                       {Recall1: 0.12, Recall5: 0.50, MRR: 0.30},
			"digitalocean split=heldout3": {Recall1: 0.61, Recall5: 0.78, MRR: 0.70},
		}, []string{
			"| catalog | split | queries | before: recall@1 / recall@5 / mrr | after | meets the targets |",
			"| slack | heldout | 16 | 0.12 / 0.50 / 0.30 | 0.25 / 0.62 / 0.41 | no: recall@1, recall@5 |",
			"| slack | heldout2 | 15 | - | 0.53 / 0.93 / 0.69 | no: recall@1 |",
			"| digitalocean | heldout3 | 31 | 0.61 / 0.78 / 0.70 | 0.71 / 0.90 / 0.80 | yes |",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			writeTable(&b, rows, tt.before)
			got := b.String()
			if !strings.HasPrefix(got, "Targets: recall@1 >= 0.6 and recall@5 >= 0.8") {
				t.Errorf("no targets line first:\n%s", got)
			}
			for _, line := range tt.want {
				if !strings.Contains(got, line+"\n") {
					t.Errorf("missing %q in:\n%s", line, got)
				}
			}
		})
	}
}
