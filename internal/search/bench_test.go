package search_test

import (
	"runtime"
	"testing"

	"github.com/interopio/code-mode/internal/search"
	"github.com/interopio/code-mode/internal/search/eval"
)

// benchTools is make bench's api-register-1000 catalog (eval.BenchCatalog).
func benchTools(t testing.TB) []eval.Tool {
	cat, err := eval.BenchCatalog(1000)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// buildDocs indexes cat as registering it does: each schema text read
// once, its tools sharing what was read.
func buildDocs(t testing.TB, cat []eval.Tool) {
	var reader search.SchemaReader
	read := map[string]*search.SchemaText{}
	for _, c := range cat {
		s := read[string(c.InputSchema)]
		if s == nil {
			text, err := reader.Read(c.InputSchema, nil)
			if err != nil {
				t.Fatal(err)
			}
			s = &text
			read[string(c.InputSchema)] = s
		}
		search.NewDocFromText(c.Name, c.Description, s, nil)
	}
}

// BenchmarkNewDoc1000: the search index's share of registering make
// bench's api-register-1000 catalog (eval.BenchCatalog), each iteration on
// an empty dictionary, as a page's new factory starts (the root package's
// BenchmarkRegister1000 is the whole registration).
// go test -bench NewDoc1000 -run '^$' ./internal/search/
func BenchmarkNewDoc1000(b *testing.B) {
	cat := benchTools(b)
	defer search.EmptyDictionary()()
	b.ReportAllocs()
	for b.Loop() {
		search.EmptyDictionary()
		search.Reserve(len(cat)) // as registering them does
		buildDocs(b, cat)
	}
}

// TestReserve: a dictionary made ready for make bench's 1,000 tools holds
// their words without growing its maps, each growth of which copied them
// whole: building their docs on an empty dictionary allocated 1.49 MB
// without Reserve, 1.29 MB after it.
func TestReserve(t *testing.T) {
	cat := benchTools(t)
	defer search.EmptyDictionary()()
	build := func(reserve bool) uint64 {
		search.EmptyDictionary()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if reserve {
			search.Reserve(len(cat))
		}
		buildDocs(t, cat)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	grown, reserved := build(false), build(true)
	if reserved+128<<10 > grown {
		t.Errorf("building the docs of %d tools allocated %d bytes after Reserve, %d without: want at least 128 KB less", len(cat), reserved, grown)
	}
}
