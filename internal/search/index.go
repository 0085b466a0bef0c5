package search

import (
	"slices"
	"sync"
)

// Index holds the postings of a set of docs by term (for each term, the
// docs that hold it in any field), kept as docs are added and removed.
// Scores merges a doc's terms with the request's only where the doc shares
// one: over 100,000 tools, merging every doc's was most of a search, and a
// request's words are held by a tenth to two thirds of such a catalog. A
// doc belongs to one Index at most; a doc in none, or removed from its
// Index, is merged as every doc was. Safe for concurrent use.
type Index struct {
	mu   sync.RWMutex
	docs []*Doc // by slot; nil: removed
	// terms are the slots of the docs holding each term, by term id; a
	// removed doc's slots stay until purge.
	terms [][]int32
	// free are the slots purged of a removed doc, for the next docs.
	free []int32
	// block is newList's room.
	block         []int32
	live, removed int
}

// NewIndex returns an empty Index.
func NewIndex() *Index { return &Index{} }

// Add indexes docs; one already in an Index (this one or another), or
// removed from one, stays out (Scores merges it whole).
func (x *Index) Add(docs ...*Doc) {
	x.mu.Lock()
	for _, d := range docs {
		if d.index != nil {
			continue
		}
		slot := int32(len(x.docs))
		if n := len(x.free); n > 0 {
			slot, x.free = x.free[n-1], x.free[:n-1]
			x.docs[slot] = d
		} else {
			x.docs = append(x.docs, d)
		}
		d.index, d.slot = x, slot
		x.live++
		for f := range numFields {
			for _, id := range d.fields[f].ids {
				if int(id) >= len(x.terms) {
					x.terms = append(x.terms, make([][]int32, int(id)+1-len(x.terms))...)
				}
				// A term in two fields of the doc is one posting.
				switch t := x.terms[id]; {
				case len(t) == 0:
					x.terms[id] = x.newList(slot)
				case t[len(t)-1] != slot:
					x.terms[id] = append(t, slot)
				}
			}
		}
	}
	x.mu.Unlock()
}

// newList is a term's first posting, in room for 4 carved from a block
// shared by the next terms: most terms are in a few docs, and a list each
// was a fifth of registration's allocations.
func (x *Index) newList(slot int32) []int32 {
	if len(x.block)+4 > cap(x.block) {
		x.block = make([]int32, 0, 1024)
	}
	n := len(x.block)
	x.block = x.block[:n+4]
	return append(x.block[n:n:n+4], slot)
}

// Remove takes docs out of the index (those not in it are skipped).
func (x *Index) Remove(docs ...*Doc) {
	x.mu.Lock()
	for _, d := range docs {
		if d.index != x || x.docs[d.slot] != d {
			continue
		}
		// Before its postings go: a search that finds it removed
		// merges it whole (a view taken before may still hold it).
		d.removed.Store(true)
		x.docs[d.slot] = nil
		x.live--
		x.removed++
	}
	if x.removed > x.live {
		x.purge()
	}
	x.mu.Unlock()
}

// purge drops the removed docs' postings and frees their slots; x.mu held.
func (x *Index) purge() {
	for id, t := range x.terms {
		kept := t[:0]
		for _, s := range t {
			if x.docs[s] != nil {
				kept = append(kept, s)
			}
		}
		x.terms[id] = kept
	}
	x.free = x.free[:0]
	for s, d := range x.docs {
		if d == nil {
			x.free = append(x.free, int32(s))
		}
	}
	x.removed = 0
}

// holding sets in held, by slot, the query terms each doc holds of ids
// (the bit of ids[b], wholeDoc for b >= 63), and returns it.
func (x *Index) holding(ids []uint32, held []uint64) []uint64 {
	x.mu.RLock()
	held = slices.Grow(held[:0], len(x.docs))[:len(x.docs)]
	clear(held)
	for b, id := range ids {
		if int(id) < len(x.terms) {
			bit := uint64(1) << min(b, 63)
			for _, s := range x.terms[id] {
				held[s] |= bit
			}
		}
	}
	x.mu.RUnlock()
	return held
}

// candidate is a doc that may hold a query term: its position, and the
// query terms it holds (the bit of the query's ids[b]), or wholeDoc.
type candidate struct {
	i     int
	terms uint64
}

// wholeDoc is the terms of a candidate whose terms are to be found by
// merging the doc's with the query's: a doc outside an Index, and one
// that holds a query term past the 63rd.
const wholeDoc = 1 << 63

// spare is candidates' lists, kept from one search to the next: made
// anew, those of a search over 100,000 tools (1-2 MB) grew the core's
// memory under WebAssembly at each search, and its collections. One set:
// a search that finds it taken makes its own.
var spare struct {
	mu  sync.Mutex
	buf *searchBuffers
}

type searchBuffers struct {
	held  []uint64
	cands []candidate
}

// candidates returns the docs that may hold one of ids, by position, and
// sums every doc's field lengths into lengths. Give buf back (keep) once
// done with the list.
func candidates(docs []*Doc, ids []uint32, lengths *[numFields]float64) (cands []candidate, buf *searchBuffers) {
	spare.mu.Lock()
	buf, spare.buf = spare.buf, nil
	spare.mu.Unlock()
	if buf == nil {
		buf = new(searchBuffers)
	}
	cands = buf.cands[:0]
	type indexHeld struct {
		x    *Index
		held []uint64
	}
	// The indexes of docs, usually one: the factory's, or beside it a
	// session's own tools'.
	var seen []indexHeld
	var sum [numFields]int
	for i, d := range docs {
		for f, n := range d.length {
			sum[f] += n
		}
		terms := uint64(wholeDoc)
		if x := d.index; x != nil {
			k := 0
			for k < len(seen) && seen[k].x != x {
				k++
			}
			if k == len(seen) {
				var into []uint64
				if k == 0 {
					into = buf.held
				}
				seen = append(seen, indexHeld{x, x.holding(ids, into)})
				if k == 0 {
					buf.held = seen[0].held
				}
			}
			// removed is read after the index's postings: a doc
			// removed before them is merged whole, one removed
			// after is in them.
			if held := seen[k].held; int(d.slot) < len(held) && !d.removed.Load() {
				terms = held[d.slot]
			}
		}
		if terms != 0 {
			cands = append(cands, candidate{i, terms})
		}
	}
	for f, n := range sum {
		// Whole numbers: the same sum as adding them one by one.
		lengths[f] = float64(n)
	}
	buf.cands = cands
	return cands, buf
}

// keep makes buf the next search's.
func keep(buf *searchBuffers) {
	spare.mu.Lock()
	spare.buf = buf
	spare.mu.Unlock()
}
