// Package eval measures tool search on real public API catalogs with
// queries phrased the way users ask, written before the catalogs' operation
// names were read (see README.md).
//
// Every third query of a catalog (positions 2, 5, 8, ... counting from 0) is
// held out: tuning looks only at the others, and the figures that are
// reported and asserted are the held-out ones.
package eval

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
)

//go:embed testdata/*.json
var data embed.FS

// Tool is one operation of a catalog, as a generic OpenAPI-to-tools
// converter registers it.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// Query is a user's request and the operations that would fulfil it; an
// empty Expected means the catalog has no operation for it.
type Query struct {
	Query    string   `json:"query"`
	Expected []string `json:"expected"`
	HeldOut  bool     `json:"heldOut"`
}

// Catalog is one public API with its queries.
type Catalog struct {
	ID      string `json:"-"`
	Source  string `json:"source"`
	API     string `json:"api"`
	Kind    string `json:"kind"`
	Licence string `json:"licence"`
	Tools   []Tool `json:"tools"`
	Queries []Query
}

// IDs are the catalogs, in report order.
var IDs = []string{"slack", "github", "stripe", "digitalocean"}

// Load reads one catalog and its queries, and checks that every expected
// name is one of its tools and that the held-out split is the fixed one.
func Load(id string) (*Catalog, error) {
	c := &Catalog{ID: id}
	if err := readJSON(id+".catalog.json", c); err != nil {
		return nil, err
	}
	if err := readJSON(id+".queries.json", &c.Queries); err != nil {
		return nil, err
	}
	names := make(map[string]bool, len(c.Tools))
	for _, t := range c.Tools {
		names[t.Name] = true
	}
	for i, q := range c.Queries {
		if q.HeldOut != (i%3 == 2) {
			return nil, fmt.Errorf("%s query %d %q: heldOut is %v, want every third query held out", id, i, q.Query, q.HeldOut)
		}
		for _, e := range q.Expected {
			if !names[e] {
				return nil, fmt.Errorf("%s query %q: expected tool %q is not in the catalog", id, q.Query, e)
			}
		}
	}
	return c, nil
}

func readJSON(name string, v any) error {
	raw, err := data.ReadFile(path.Join("testdata", name))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// Split selects queries.
type Split int

const (
	// HeldOut is the split that is reported; never tune on it.
	HeldOut Split = iota
	// Tune is every query that is not held out.
	Tune
	// All is both.
	All
)

// ParseSplit reads a split's name.
func ParseSplit(s string) (Split, error) {
	switch s {
	case "heldout":
		return HeldOut, nil
	case "tune":
		return Tune, nil
	case "all":
		return All, nil
	}
	return 0, fmt.Errorf("split %q: want heldout, tune or all", s)
}

func (s Split) String() string { return [...]string{"heldout", "tune", "all"}[s] }

// Depth is how many results a query's reciprocal rank looks at: an
// expected tool below it counts as not found.
const Depth = 10

// Miss is a query whose first result was not an expected tool.
type Miss struct {
	Query    string
	Expected []string
	Got      []string
}

// Metrics are the figures of one catalog on one split. Queries without an
// expected tool are not part of them.
type Metrics struct {
	N       int
	Recall1 float64
	Recall5 float64
	MRR     float64
	Misses  []Miss
}

func (m Metrics) String() string {
	return fmt.Sprintf("recall@1=%.2f recall@5=%.2f mrr=%.2f", m.Recall1, m.Recall5, m.MRR)
}

// Evaluate runs the queries of a split through rank, which returns tool
// names best first.
func Evaluate(c *Catalog, split Split, rank func(query string, limit int) []string) Metrics {
	var m Metrics
	for _, q := range c.Queries {
		if len(q.Expected) == 0 || split == HeldOut && !q.HeldOut || split == Tune && q.HeldOut {
			continue
		}
		m.N++
		got := rank(q.Query, Depth)
		pos := slices.IndexFunc(got, func(n string) bool { return slices.Contains(q.Expected, n) })
		if pos == 0 {
			m.Recall1++
		} else {
			m.Misses = append(m.Misses, Miss{q.Query, q.Expected, got[:min(5, len(got))]})
		}
		if pos >= 0 && pos < 5 {
			m.Recall5++
		}
		if pos >= 0 {
			m.MRR += 1 / float64(pos+1)
		}
	}
	if m.N > 0 {
		m.Recall1 /= float64(m.N)
		m.Recall5 /= float64(m.N)
		m.MRR /= float64(m.N)
	}
	return m
}

// Unanswerable returns the queries of a split that have no expected tool.
func Unanswerable(c *Catalog, split Split) []string {
	var out []string
	for _, q := range c.Queries {
		if len(q.Expected) == 0 && (split == All || (split == HeldOut) == q.HeldOut) {
			out = append(out, q.Query)
		}
	}
	return out
}

func (m Miss) String() string {
	return fmt.Sprintf("%q want %s got %s", m.Query, strings.Join(m.Expected, "|"), strings.Join(m.Got, ", "))
}
