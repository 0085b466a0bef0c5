package search

import (
	"fmt"
	"os"
	"slices"
	"testing"
)

// TestMain checks, before any test searches, that loading the package
// built none of the vocabularies a search needs and registering does not:
// built at package init, the hand-written synonyms (buildSynonyms, and the
// stemming of their words) ran, and were recompiled by TurboFan, in every
// cold start of the GOOS=js core, for a page that may never search.
func TestMain(m *testing.M) {
	if synonymsBuilt != nil || wordnetBuilt.synonyms != nil || generalBuilt.synonyms != nil {
		fmt.Fprintln(os.Stderr, "a search vocabulary was built at package init: build it on first search (handSynonyms, wordnet, general)")
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// TestHandSynonyms: the groups' stems relate to one another, built on first
// use as they were at init.
func TestHandSynonyms(t *testing.T) {
	got := handSynonyms()
	for _, c := range []struct{ from, to string }{{"delet", "remov"}, {"search", "find"}, {"server", "vm"}} {
		if !slices.Contains(got[c.from], c.to) {
			t.Errorf("handSynonyms()[%q] = %q, want it to hold %q", c.from, got[c.from], c.to)
		}
	}
	if got2 := handSynonyms(); len(got2) != len(got) {
		t.Errorf("handSynonyms() changed between calls: %d stems, then %d", len(got), len(got2))
	}
}
