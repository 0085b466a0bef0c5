// Package search ranks a catalog's tools for a request written in words:
// BM25F over each tool's name, namespace, description and schema text, with
// a vocabulary of synonyms, a rule that returns nothing when no tool matches
// enough of the request, and an optional fusion with semantic similarity.
//
// Where things are, in reading order:
//   - rank.go: Rank and RankWith, the entry points: name and namespace
//     matches first, then relevance; which tools are good or weak matches.
//   - params.go: the ranking's weights and why each has its value.
//   - query.go: a request parsed into word groups and their alternatives
//     (synonyms, derived forms, compounds, prefix relatives), values,
//     clauses and the verb classes it asks for.
//   - score.go: Scores, the BM25F score and the coverage (share of the
//     request's information) of every tool, and the stricter coverage for a
//     request whose first word no visible tool holds.
//   - own.go: the caller's own tools (ForAuthenticatedUser, "Get current
//     user.") for a request in the first person.
//   - fuse.go: reciprocal rank fusion of the lexical and semantic ranks.
//   - doc.go: a tool's indexed text (Doc); dict.go: the term dictionary;
//     tokens.go: the tokenizer, the stemmer and KeyWords; embed.go: the text embedded
//     for semantic ranking.
//   - vocab.go, vocab_general.go, wordnet.go (wordnet_table.go): the three
//     vocabularies, hand-written, general and dictionary.
//   - eval/: the evaluation that every weight and rule was judged on.
package search

import (
	"slices"
	"sort"
	"strings"
)

// Hit is one result of Rank: the position of a doc in the slice ranked and
// its score (0 for a name or namespace match without matching words, and
// for every hit of an empty query).
type Hit struct {
	Index int
	Score float64
}

const (
	// DefaultLimit is the number of hits for a limit <= 0.
	DefaultLimit = 10
	// MaxLimit caps a limit.
	MaxLimit = 50
)

// Rank ranks docs for a query: an exact tool name first, then the tools of
// a namespace the query names (or the tool a bare method name names), then
// relevance. Tools that match too little of the query are discounted, and
// a query with no good match returns nothing. An empty query lists every
// tool by name. limit <= 0 means DefaultLimit; it is capped at MaxLimit.
func Rank(docs []*Doc, query string, limit int) []Hit {
	return RankWith(docs, query, Options{Limit: limit})
}

// Options are the optional inputs of RankWith.
type Options struct {
	// Limit is the number of hits: <= 0 means DefaultLimit; at most MaxLimit.
	Limit int
	// Similarity, when not nil, holds each doc's semantic similarity to the
	// query (cosine of embeddings; NaN: the doc has no vector). The ranking
	// then fuses the lexical and the semantic ranks.
	Similarity []float64
	// MinSimilarity is the similarity a doc needs to be returned on
	// semantic grounds alone, without a good lexical match.
	MinSimilarity float64
	// SemanticWeight is the semantic rank's weight relative to the
	// lexical rank's 1; <= 0 means DefaultSemanticWeight.
	SemanticWeight float64
}

// RankWith is Rank with options.
func RankWith(docs []*Doc, query string, o Options) []Hit {
	limit := o.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)

	q := strings.ToLower(strings.TrimSpace(query))
	// A wildcard ("*", "tools.*") asks for every tool, as "" does: it
	// matched no word, and the model got [] with nothing to go on.
	q = strings.Trim(strings.TrimPrefix(q, "tools."), ".*")
	if q == "" {
		return byName(docs, limit)
	}

	scores, covers := Scores(docs, query)
	relevant := make([]bool, len(docs))
	for i := range docs {
		relevant[i] = scores[i] > 0 && covers[i] >= p.minCoverage
	}
	if p.weakWeight > 0 && slices.Contains(relevant, true) {
		for i := range docs {
			if !relevant[i] && scores[i] > 0 {
				scores[i] *= p.weakWeight
				relevant[i] = true
			}
		}
	}
	if o.Similarity != nil {
		w := o.SemanticWeight
		if w <= 0 {
			w = DefaultSemanticWeight
		}
		scores, relevant = fuseSemantic(scores, relevant, o.Similarity, o.MinSimilarity, w)
	}
	byRank := func(a, b ranked) int {
		if a.tier != b.tier {
			return b.tier - a.tier
		}
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return strings.Compare(docs[a.i].name, docs[b.i].name)
	}
	best := bestOf(limit, byRank)
	// Joined once: per doc, they were a fifth of a search over 100,000
	// tools under WebAssembly (two strings made and dropped a tool).
	ns, own := q+".", "."+q
	for i, d := range docs {
		tier := 0
		switch l := d.lower; {
		case len(l) < len(q) || l[0] != q[0] && l[len(l)-1] != q[len(q)-1]:
			// Neither q nor a namespace or name that q starts or
			// ends (most docs: told without a call that compares).
		case l == q:
			tier = 2
		case strings.HasPrefix(l, ns), strings.HasSuffix(l, own):
			// a namespace, or a name without its namespace ("getOwner")
			tier = 1
		}
		if tier == 0 && !relevant[i] {
			continue
		}
		best.add(ranked{i, tier, scores[i]})
	}
	rs := best.sorted()
	if len(rs) == 0 && everyTool(q) {
		// Only when no tool holds its words: a catalog's own "tools.list"
		// is what "list the tools" asks for.
		return byName(docs, limit)
	}
	hits := make([]Hit, 0, len(rs))
	for _, r := range rs {
		hits = append(hits, Hit{Index: r.i, Score: r.score})
	}
	return hits
}

// byName answers a search for every tool: the first limit tools by name.
func byName(docs []*Doc, limit int) []Hit {
	first := bestOf(limit, func(a, b ranked) int { return strings.Compare(docs[a.i].name, docs[b.i].name) })
	for i := range docs {
		first.add(ranked{i: i})
	}
	var hits []Hit
	for _, r := range first.sorted() {
		hits = append(hits, Hit{Index: r.i})
	}
	return hits
}

type ranked struct {
	i     int
	tier  int
	score float64
}

// topK keeps the k first of what it is given by cmp: a heap whose root is
// the last it keeps, so that a search over n tools costs O(n log k), where
// sorting every tool that matched (all 100,000 of a catalog whose tools
// share the request's words) held the page a fifth of a second a search.
type topK struct {
	k    int
	cmp  func(a, b ranked) int
	heap []ranked
}

func bestOf(k int, cmp func(a, b ranked) int) *topK {
	return &topK{k: k, cmp: cmp, heap: make([]ranked, 0, k)}
}

func (t *topK) add(x ranked) {
	h := t.heap
	if len(h) < t.k {
		h = append(h, x)
		for i := len(h) - 1; i > 0; {
			up := (i - 1) / 2
			if t.cmp(h[up], h[i]) >= 0 {
				break
			}
			h[up], h[i] = h[i], h[up]
			i = up
		}
		t.heap = h
		return
	}
	if len(h) == 0 || t.cmp(x, h[0]) >= 0 {
		return
	}
	h[0] = x
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && t.cmp(h[c+1], h[c]) > 0 {
			c++
		}
		if t.cmp(h[i], h[c]) >= 0 {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// sorted returns what t kept, first first.
func (t *topK) sorted() []ranked {
	sort.Slice(t.heap, func(i, j int) bool { return t.cmp(t.heap[i], t.heap[j]) < 0 })
	return t.heap
}

// everyTool says whether q asks for the catalog itself in words ("list all
// available tools", "what tools are there?"): where no tool holds those
// words, such a search found nothing, and the model was left with [].
func everyTool(q string) bool {
	tools := false
	for _, w := range strings.Fields(q) {
		w = strings.TrimRight(w, "?.!")
		if !strings.Contains(everyToolWords, " "+w+" ") {
			return false
		}
		tools = tools || w == "tools" || w == "functions"
	}
	return tools
}

const everyToolWords = " list show all every available tools functions what which are there the me give do you have can i use get "
