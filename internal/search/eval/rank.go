package eval

import (
	"hash/fnv"
	"math"

	"github.com/interopio/code-mode/internal/search"
)

// Lexical returns the product's lexical ranking over a catalog's tools,
// indexed the way registration indexes them.
func Lexical(c *Catalog) func(query string, limit int) []string {
	docs := docsOf(c)
	return func(query string, limit int) []string {
		return names(c, search.Rank(docs, query, limit))
	}
}

// Fused returns the product's ranking with semantic fusion, the embedder
// being embed (HashEmbed in tests: no model can be fetched here).
func Fused(c *Catalog, embed func(string) []float32) func(query string, limit int) []string {
	return FusedWith(c, embed, 0, HashMinSimilarity)
}

// FusedWith is Fused with the semantic rank's weight (<= 0: the product's
// default) and the similarity a tool needs to be found on semantic grounds
// alone.
func FusedWith(c *Catalog, embed func(string) []float32, weight, minSim float64) func(query string, limit int) []string {
	docs := docsOf(c)
	vecs := make([][]float32, len(c.Tools))
	for i, t := range c.Tools {
		vecs[i] = embed(search.EmbedText(t.Name, t.Description))
	}
	return func(query string, limit int) []string {
		q := embed(query)
		sim := make([]float64, len(vecs))
		for i, v := range vecs {
			sim[i] = search.Cosine(q, v)
		}
		return names(c, search.RankWith(docs, query, search.Options{Limit: limit, Similarity: sim, SemanticWeight: weight, MinSimilarity: minSim}))
	}
}

// docsOf indexes a catalog's tools, as registration does (search.Index).
func docsOf(c *Catalog) []*search.Doc {
	docs := make([]*search.Doc, len(c.Tools))
	for i, t := range c.Tools {
		docs[i] = search.NewDoc(t.Name, t.Description, t.InputSchema, t.OutputSchema)
	}
	search.NewIndex().Add(docs...)
	return docs
}

func names(c *Catalog, hits []search.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = c.Tools[h.Index].Name
	}
	return out
}

// HashMinSimilarity is the similarity HashEmbed needs for a tool to be
// returned on semantic grounds alone.
const HashMinSimilarity = 0.35

// HashEmbed is a deterministic stand-in for an embedding model: the
// character trigrams of each lowercased word (camelCase split), hashed
// into 256 dimensions and normalised. It relates word forms
// (refund/refunds, repo/repository) but knows no meanings.
func HashEmbed(text string) []float32 {
	const dims = 256
	v := make([]float32, dims)
	words := camelWords(text, true, false)
	for _, w := range words {
		padded := "#" + w + "#"
		for i := 0; i+3 <= len(padded); i++ {
			h := fnv.New32a()
			h.Write([]byte(padded[i : i+3]))
			v[h.Sum32()%dims]++
		}
	}
	return unit(v)
}

// unit scales v to length 1 in place (all zeros stay zeros) and returns it.
func unit(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n > 0 {
		s := float32(1 / math.Sqrt(n))
		for i := range v {
			v[i] *= s
		}
	}
	return v
}
