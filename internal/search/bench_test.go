package search_test

import (
	"runtime"
	"testing"

	"github.com/interopio/code-mode/internal/search"
	"github.com/interopio/code-mode/internal/search/eval"
)

// benchTools is make bench's api-register-1000 catalog (eval.BenchCatalog)
// with its input schemas read (search.ReadSchema).
func benchTools(t testing.TB) ([]eval.Tool, []search.SchemaText) {
	cat, err := eval.BenchCatalog(1000)
	if err != nil {
		t.Fatal(err)
	}
	schemas := make([]search.SchemaText, len(cat))
	for i, c := range cat {
		if schemas[i], err = search.ReadSchema(c.InputSchema); err != nil {
			t.Fatal(err)
		}
	}
	return cat, schemas
}

// BenchmarkNewDoc1000: the search index's share of registering make
// bench's api-register-1000 catalog (eval.BenchCatalog), each iteration on
// an empty dictionary, as a page's new factory starts (the root package's
// BenchmarkRegister1000 is the whole registration).
// go test -bench NewDoc1000 -run '^$' ./internal/search/
func BenchmarkNewDoc1000(b *testing.B) {
	cat, schemas := benchTools(b)
	defer search.EmptyDictionary()()
	b.ReportAllocs()
	for b.Loop() {
		search.EmptyDictionary()
		search.Reserve(len(cat)) // as registering them does
		for i, t := range cat {
			search.NewDocFromText(t.Name, t.Description, &schemas[i])
		}
	}
}

// TestReserve: a dictionary made ready for make bench's 1,000 tools holds
// their words without growing its maps, each growth of which copied them
// whole: building their docs on an empty dictionary allocated 1.49 MB
// without Reserve, 1.29 MB after it.
func TestReserve(t *testing.T) {
	cat, schemas := benchTools(t)
	defer search.EmptyDictionary()()
	build := func(reserve bool) uint64 {
		search.EmptyDictionary()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if reserve {
			search.Reserve(len(cat))
		}
		for i, c := range cat {
			search.NewDocFromText(c.Name, c.Description, &schemas[i])
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	grown, reserved := build(false), build(true)
	if reserved+128<<10 > grown {
		t.Errorf("building the docs of %d tools allocated %d bytes after Reserve, %d without: want at least 128 KB less", len(cat), reserved, grown)
	}
}
