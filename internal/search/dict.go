package search

import (
	"slices"
	"strings"
	"sync"
)

// dict interns every term of every doc as a small integer, so that ranking
// compares integers and docs keep compact sorted term lists. It only grows:
// its size is the vocabulary of the tools ever registered in the process,
// a few thousand words per thousand tools. Terms of hidden tools are in it
// too, but a term no visible doc holds scores nothing.
var dict = dictionary{ids: map[string]uint32{}}

type dictionary struct {
	mu    sync.RWMutex
	ids   map[string]uint32
	terms []string
	// sorted lists the ids in term order for prefix lookups; terms added
	// since it was built are merged in by the next search.
	sorted []uint32
}

// internAll maps each token to its id, adding new ones.
func (d *dictionary) internAll(toks []string) []uint32 {
	out := make([]uint32, len(toks))
	d.mu.Lock()
	defer d.mu.Unlock()
	for i, t := range toks {
		id, ok := d.ids[t]
		if !ok {
			id = uint32(len(d.terms))
			d.ids[t] = id
			d.terms = append(d.terms, t)
		}
		out[i] = id
	}
	return out
}

// reader returns the dictionary read-locked, its prefix index up to date.
// Call done when finished.
func (d *dictionary) reader() (r *dictionary, done func()) {
	d.mu.RLock()
	if len(d.sorted) == len(d.terms) {
		return d, d.mu.RUnlock
	}
	d.mu.RUnlock()
	d.mu.Lock()
	if n := len(d.sorted); n < len(d.terms) {
		added := make([]uint32, 0, len(d.terms)-n)
		for id := n; id < len(d.terms); id++ {
			added = append(added, uint32(id))
		}
		byTerm := func(a, b uint32) int { return strings.Compare(d.terms[a], d.terms[b]) }
		slices.SortFunc(added, byTerm)
		merged := make([]uint32, 0, len(d.terms))
		i, j := 0, 0
		for i < len(d.sorted) || j < len(added) {
			if j == len(added) || i < len(d.sorted) && byTerm(d.sorted[i], added[j]) < 0 {
				merged = append(merged, d.sorted[i])
				i++
			} else {
				merged = append(merged, added[j])
				j++
			}
		}
		d.sorted = merged
	}
	d.mu.Unlock()
	d.mu.RLock()
	return d, d.mu.RUnlock
}

func (d *dictionary) lookup(t string) (uint32, bool) {
	id, ok := d.ids[t]
	return id, ok
}

// extensions returns the ids of the terms that start with t and are at
// most extra bytes longer.
func (d *dictionary) extensions(t string, extra int) []uint32 {
	i, _ := slices.BinarySearchFunc(d.sorted, t, func(id uint32, t string) int { return strings.Compare(d.terms[id], t) })
	var out []uint32
	for ; i < len(d.sorted); i++ {
		s := d.terms[d.sorted[i]]
		if !strings.HasPrefix(s, t) {
			break
		}
		if len(s) > len(t) && len(s)-len(t) <= extra {
			out = append(out, d.sorted[i])
		}
	}
	return out
}
