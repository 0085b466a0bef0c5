package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// The registry keeps its tools in name order as they are registered by
// parts (registry.order, once a part's tools are many), and starts over
// from its map after a removal: every snapshot is the registered tools by
// name, whatever the sizes and order of the parts, the removals between
// them and the snapshots taken or not.
func TestRegistrySnapshotAcrossParts(t *testing.T) {
	noop := func(context.Context, json.RawMessage, Call) (json.RawMessage, error) { return nil, nil }
	r := rand.New(rand.NewPCG(4, 2))
	reg := newRegistry()
	var removes []func()
	live := map[string]bool{}
	var parts [][]string
	next := 0
	for step := range 120 {
		switch k := r.IntN(10); {
		case k < 7: // a part of 1 to 2,500 tools, names in no order
			n := 1 + r.IntN(2500)
			if r.IntN(3) == 0 {
				n = 1 + r.IntN(5)
			}
			tools := make([]Tool, n)
			names := make([]string, n)
			for i := range tools {
				names[i] = fmt.Sprintf("ns%d.t%d", r.IntN(50), next)
				next++
				tools[i] = Tool{Name: names[i], Execute: noop}
			}
			remove, err := reg.add(tools...)
			if err != nil {
				t.Fatal(err)
			}
			removes = append(removes, remove)
			parts = append(parts, names)
			for _, n := range names {
				live[n] = true
			}
		case k < 8 && len(removes) > 0: // a part removed
			i := r.IntN(len(removes))
			removes[i]()
			for _, n := range parts[i] {
				delete(live, n)
			}
			removes = slices.Delete(removes, i, i+1)
			parts = slices.Delete(parts, i, i+1)
		}
		if r.IntN(4) > 0 {
			continue // no snapshot this step: parts pile up
		}
		var got []string
		for _, e := range reg.snapshot() {
			got = append(got, e.info.Name)
		}
		want := make([]string, 0, len(live))
		for n := range live {
			want = append(want, n)
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: the snapshot has %d tools, not the %d registered by name (first difference at %d)", step, len(got), len(want), firstDiff(got, want))
		}
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
