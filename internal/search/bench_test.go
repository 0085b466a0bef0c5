package search_test

import (
	"encoding/json"
	"testing"

	"github.com/interopio/code-mode/internal/search"
	"github.com/interopio/code-mode/internal/search/eval"
)

// BenchmarkNewDoc1000: the search index's share of registering make
// bench's api-register-1000 catalog (eval.BenchCatalog), each iteration on
// an empty dictionary, as a page's new factory starts (the root package's
// BenchmarkRegister1000 is the whole registration).
// go test -bench NewDoc1000 -run '^$' ./internal/search/
func BenchmarkNewDoc1000(b *testing.B) {
	cat, err := eval.BenchCatalog(1000)
	if err != nil {
		b.Fatal(err)
	}
	schemas := make([]any, len(cat))
	for i, t := range cat {
		if err := json.Unmarshal(t.InputSchema, &schemas[i]); err != nil {
			b.Fatal(err)
		}
	}
	defer search.EmptyDictionary()()
	b.ReportAllocs()
	for b.Loop() {
		search.EmptyDictionary()
		for i, t := range cat {
			search.NewDocFromValues(t.Name, t.Description, schemas[i])
		}
	}
}
