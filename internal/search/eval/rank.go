package eval

import (
	"github.com/interopio/code-mode/internal/search"
)

// Lexical returns the product's lexical ranking over a catalog's tools,
// indexed the way registration indexes them.
func Lexical(c *Catalog) func(query string, limit int) []string {
	docs := make([]*search.Doc, len(c.Tools))
	for i, t := range c.Tools {
		docs[i] = search.NewDoc(t.Name, t.Description, t.InputSchema)
	}
	return func(query string, limit int) []string {
		var names []string
		for _, h := range search.Rank(docs, query, limit) {
			names = append(names, c.Tools[h.Index].Name)
		}
		return names
	}
}
