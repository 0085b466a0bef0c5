package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The prefix index is sorted into by the writers once many terms are new
// (done) and by the next reader otherwise: whatever the parts, a reader
// finds every term in term order, and extensions what a scan finds.
func TestDictionaryIndexAcrossParts(t *testing.T) {
	d := &dictionary{ids: map[string]uint32{}}
	r := rand.New(rand.NewPCG(7, 1))
	for step := range 60 {
		w := d.writer()
		for range r.IntN(6000) {
			w.intern(fmt.Sprintf("w%x", r.IntN(1<<20)))
		}
		w.done()
		if len(d.terms)-len(d.sorted) >= 4096 && len(d.terms)-len(d.sorted) >= len(d.sorted)/8 {
			t.Fatalf("step %d: %d terms left out of the index of %d after a writer", step, len(d.terms)-len(d.sorted), len(d.sorted))
		}
		if r.IntN(3) > 0 {
			continue
		}
		rd, done := d.reader()
		if len(rd.sorted) != len(rd.terms) || !slices.IsSortedFunc(rd.sorted, func(a, b uint32) int { return strings.Compare(rd.terms[a], rd.terms[b]) }) {
			done()
			t.Fatalf("step %d: the index holds %d of %d terms, or out of order", step, len(rd.sorted), len(rd.terms))
		}
		p := fmt.Sprintf("w%x", r.IntN(256))
		var want []uint32
		for _, id := range rd.sorted {
			if s := rd.terms[id]; strings.HasPrefix(s, p) && len(s) > len(p) && len(s)-len(p) <= 2 {
				want = append(want, id)
			}
		}
		got := rd.extensions(p, 2)
		done()
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: extensions(%q) = %d terms, a scan finds %d", step, p, len(got), len(want))
		}
	}
}
