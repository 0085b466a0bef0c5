package search

import (
	"slices"
	"sort"
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
	// words caches the term id of a word as written (noWord: a stopword or
	// a one-letter word): catalogs repeat their words, and lowercasing,
	// stemming and interning each occurrence was most of the cost of
	// registering a tool.
	words map[string]uint32
	// texts caches the term ids of a schema's short texts (property
	// names, their descriptions, enum values): a catalog repeats them
	// across its operations (GitHub's "owner", "per_page" and their
	// descriptions in hundreds), and 8,080 of those of make bench's 1,000
	// tools are 1,733 texts. cachedIDs counts the ids it holds.
	texts     map[string][]uint32
	cachedIDs int
	// scratch and sortBuf are NewDocFromText' buffers, reused from one
	// tool to the next, and needBuf appendNeeds' (it made a list for
	// each required name of each tool).
	scratch, sortBuf, needBuf []uint32
}

// noWord is the cached id of a word that is not a term.
const noWord = ^uint32(0)

// maxCachedWords bounds the word cache (a catalog of 1,000 tools has a
// few thousand distinct words): past it, words are stemmed each time.
const maxCachedWords = 1 << 16

// maxCachedTextIDs bounds the ids texts holds; maxCachedText is the
// longest text it keeps (longer ones are rarely repeated).
const (
	maxCachedTextIDs = 1 << 18
	maxCachedText    = 512
	maxScratch       = 1 << 16
)

// writer returns the dictionary locked for adding terms. Call done when
// finished.
func (d *dictionary) writer() *dictionary {
	d.mu.Lock()
	if d.words == nil {
		d.words = map[string]uint32{}
		d.texts = map[string][]uint32{}
	}
	return d
}

// done unlocks the dictionary, first sorting the terms added since the
// prefix index was built into it once they are many (at least 4,096 and
// an eighth of it): a catalog of 100,000 tools, registered by parts, has
// some 200,000 terms, whose sort and merge at the first search held the
// page's thread an eighth of a second under WebAssembly. Each term is
// then moved some eight times in all, however the dictionary grows.
func (d *dictionary) done() {
	if n := len(d.terms) - len(d.sorted); n >= 4096 && n >= len(d.sorted)/8 {
		d.index()
	}
	d.mu.Unlock()
}

// Reserve makes room in an empty dictionary for the words of about n
// tools, to be built next: a page's first registration of a large catalog
// (a worker's core starts empty with each factory) grew its maps from
// nothing, rehashing each of them several times, a tenth of building the
// index under WebAssembly. A catalog of n tools has about 2.5n distinct
// words as written, 1.5n texts and 1.3n terms (make bench's 1,000:
// GitHub's, Slack's), fewer per tool as it grows.
func Reserve(n int) {
	n = min(n, maxReserved)
	if n < minReserved {
		return
	}
	d := dict.writer()
	defer d.done()
	if len(d.ids) == 0 {
		d.ids = make(map[string]uint32, n*3/2)
		d.terms = make([]string, 0, n*3/2)
	}
	if len(d.words) == 0 {
		d.words = make(map[string]uint32, n*5/2)
	}
	if len(d.texts) == 0 {
		d.texts = make(map[string][]uint32, n*3/2)
	}
}

// Reserve's bounds: below minReserved tools the maps' growth is cheap;
// past maxReserved the word cache is near its own limit anyway.
const (
	minReserved = 64
	maxReserved = 8192
)

// appendIDs appends the term ids of text's words (splitWords), dropping
// stopwords and one-letter words: the ids of tokenize(text).
func (d *dictionary) appendIDs(out []uint32, text string) []uint32 {
	splitWords(text, func(w string) {
		id, ok := d.words[w]
		if !ok {
			id = noWord
			if len(w) >= 2 {
				if s := strings.ToLower(w); !stopwords[s] {
					id = d.intern(stem(s))
				}
			}
			if len(d.words) < maxCachedWords {
				d.words[strings.Clone(w)] = id
			}
		}
		if id != noWord {
			out = append(out, id)
		}
	})
	return out
}

// appendTextIDs is appendIDs for a text likely to be repeated (texts).
func (d *dictionary) appendTextIDs(out []uint32, text string) []uint32 {
	if ids, ok := d.texts[text]; ok {
		return append(out, ids...)
	}
	n := len(out)
	out = d.appendIDs(out, text)
	if len(text) <= maxCachedText && d.cachedIDs < maxCachedTextIDs {
		d.texts[strings.Clone(text)] = slices.Clone(out[n:])
		d.cachedIDs += len(out) - n
	}
	return out
}

// intern is the id of term t, a new one for a new term, which the
// dictionary keeps a copy of: t may be a view of a schema's text
// (SchemaText) or of a tool's description, which it would keep whole for
// the process's life.
func (d *dictionary) intern(t string) uint32 {
	id, ok := d.ids[t]
	if !ok {
		t = strings.Clone(t)
		id = uint32(len(d.terms))
		d.ids[t] = id
		d.terms = append(d.terms, t)
	}
	return id
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
	d.index()
	d.mu.Unlock()
	d.mu.RLock()
	return d, d.mu.RUnlock
}

// index sorts the terms added since the prefix index was built into it;
// d.mu held for writing.
func (d *dictionary) index() {
	if n := len(d.sorted); n < len(d.terms) {
		added := make([]uint32, 0, len(d.terms)-n)
		for id := n; id < len(d.terms); id++ {
			added = append(added, uint32(id))
		}
		byTerm := func(a, b uint32) int { return strings.Compare(d.terms[a], d.terms[b]) }
		sort.Slice(added, func(i, j int) bool { return byTerm(added[i], added[j]) < 0 })
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
