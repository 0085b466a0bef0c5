package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/interopio/code-mode/internal/search/eval"
)

// A row of -table: one catalog on one held-out split.
type row struct {
	catalog, split string
	m              eval.Metrics
}

// key names a row the way its SEARCH line does: the catalog, then
// "split=<split>" for the splits after the first.
func (r row) key() string { return searchKey(r.catalog, r.split) }

func searchKey(catalog, split string) string {
	if split == "" || split == eval.HeldOut.String() {
		return catalog
	}
	return catalog + " split=" + split
}

// readSearchLines reads the figures of the SEARCH lines of an earlier run
// (make bench's output, or searcheval's on the held-out splits), keyed as
// row.key; other lines are skipped.
func readSearchLines(r io.Reader) (map[string]eval.Metrics, error) {
	out := map[string]eval.Metrics{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || f[0] != "SEARCH" {
			continue
		}
		if len(f) < 2 {
			return nil, fmt.Errorf("line %d: a SEARCH line names its catalog: %q", n, sc.Text())
		}
		k, split := f[1], ""
		var m eval.Metrics
		seen := 0
		for _, kv := range f[2:] {
			name, v, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, fmt.Errorf("line %d: want name=value, not %q", n, kv)
			}
			if name == "split" {
				split = v
				continue
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: %s=%q is not a number", n, name, v)
			}
			switch name {
			case "recall@1":
				m.Recall1 = x
			case "recall@5":
				m.Recall5 = x
			case "mrr":
				m.MRR = x
			default:
				continue
			}
			seen++
		}
		if seen != 3 {
			return nil, fmt.Errorf("line %d: want recall@1=, recall@5= and mrr=: %q", n, sc.Text())
		}
		out[searchKey(k, split)] = m
	}
	return out, sc.Err()
}

// writeTable writes the rows as a Markdown table, with the figures of
// before beside them when it holds the row (before may be nil).
func writeTable(w io.Writer, rows []row, before map[string]eval.Metrics) {
	meets := func(m eval.Metrics) string {
		var short []string
		if m.Recall1 < eval.TargetRecall1 {
			short = append(short, "recall@1")
		}
		if m.Recall5 < eval.TargetRecall5 {
			short = append(short, "recall@5")
		}
		if len(short) == 0 {
			return "yes"
		}
		return "no: " + strings.Join(short, ", ")
	}
	figures := func(m eval.Metrics) string {
		return fmt.Sprintf("%.2f / %.2f / %.2f", m.Recall1, m.Recall5, m.MRR)
	}
	fmt.Fprintf(w, "Targets: recall@1 >= %.1f and recall@5 >= %.1f on every row, lexical ranking alone.\n\n", eval.TargetRecall1, eval.TargetRecall5)
	if before == nil {
		fmt.Fprintln(w, "| catalog | split | queries | recall@1 / recall@5 / mrr | meets the targets |")
		fmt.Fprintln(w, "|---|---|---|---|---|")
		for _, r := range rows {
			fmt.Fprintf(w, "| %s | %s | %d | %s | %s |\n", r.catalog, r.split, r.m.N, figures(r.m), meets(r.m))
		}
		return
	}
	fmt.Fprintln(w, "| catalog | split | queries | before: recall@1 / recall@5 / mrr | after | meets the targets |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, r := range rows {
		was := "-"
		if b, ok := before[r.key()]; ok {
			was = figures(b)
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s |\n", r.catalog, r.split, r.m.N, was, figures(r.m), meets(r.m))
	}
}

// printTable writes the -table of the held-out splits, with the figures
// of the SEARCH lines of beforeFile beside them when it is not "".
func printTable(w io.Writer, beforeFile string) error {
	var before map[string]eval.Metrics
	if beforeFile != "" {
		f, err := os.Open(beforeFile)
		if err != nil {
			return err
		}
		defer f.Close()
		if before, err = readSearchLines(f); err != nil {
			return fmt.Errorf("%s: %w", beforeFile, err)
		}
	}
	var rows []row
	for _, id := range eval.CatalogsOf(eval.HeldOut) {
		c, err := eval.Load(id)
		if err != nil {
			return err
		}
		for _, s := range heldOuts {
			rows = append(rows, row{id, s.String(), eval.Evaluate(c, s, eval.Lexical(c))})
		}
	}
	writeTable(w, rows, before)
	return nil
}
