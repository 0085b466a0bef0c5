package codemode

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestRegistrySummaryIsSummarizeNamespaces: the registry's running
// summary of its namespaces (nsTallies, kept as tools are added and
// removed) is summarizeNamespaces of its snapshot after every change,
// whether it started at the first summary asked or at nsTallyAt tools,
// with words tied, written several ways, and namespaces and top-level
// tools that come and go.
func TestRegistrySummaryIsSummarizeNamespaces(t *testing.T) {
	words := []string{"order", "orders", "Ordering", "invoice", "Invoices", "customer", "customers", "payment", "refund", "Refunds", "ticket", "status", "alias", "price", "pricing", "shipment", "item"}
	spaces := []string{"shop", "billing", "crm", "helpDesk", "shop_v2", "x"}
	for _, start := range []string{"asked", "size"} {
		t.Run(start, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(start))))
			r := newRegistry()
			var removers []func()
			next := 0
			mkTool := func() Tool {
				next++
				name := fmt.Sprintf("%s_%s_%d", words[rng.IntN(len(words))], words[rng.IntN(len(words))], next)
				if rng.IntN(10) > 0 {
					name = spaces[rng.IntN(len(spaces))] + "." + name
				}
				return Tool{Name: name, Execute: noopToolExecute}
			}
			for step := range 60 {
				if len(removers) > 0 && rng.IntN(3) == 0 {
					i := rng.IntN(len(removers))
					removers[i]()
					removers = append(removers[:i], removers[i+1:]...)
				} else {
					n := 1 + rng.IntN(8)
					if start == "size" && step == 5 {
						n = nsTallyAt
					}
					batch := make([]Tool, n)
					for i := range batch {
						batch[i] = mkTool()
					}
					remove, err := r.add(batch...)
					if err != nil {
						t.Fatal(err)
					}
					removers = append(removers, remove)
				}
				if start == "size" && step < 5 {
					continue // no summary asked: the tallies start at nsTallyAt tools
				}
				snap := r.snapshot()
				wantSpaces, wantTop := summarizeNamespaces(snap)
				gotSpaces, gotTop, ok := r.summary(snap)
				if len(snap) == 0 {
					if ok {
						t.Fatalf("step %d: a summary of no tools", step)
					}
					continue
				}
				if !ok {
					t.Fatalf("step %d: no running summary for the registry's own snapshot", step)
				}
				if !reflect.DeepEqual(gotSpaces, wantSpaces) || !reflect.DeepEqual(gotTop, wantTop) {
					t.Fatalf("step %d (%d tools): running summary\n%v %v\nwant\n%v %v", step, len(snap), gotSpaces, gotTop, wantSpaces, wantTop)
				}
				if _, _, ok := r.summary(snap[1:]); ok && len(snap) > 1 {
					t.Fatalf("step %d: the running summary answered for a list that is not the snapshot", step)
				}
			}
			if r.ns == nil {
				t.Fatal("no tallies kept")
			}
		})
	}
}
