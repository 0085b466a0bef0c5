// Package search ranks tools for a query: BM25F over each tool's name,
// description and schema text, with an exact name and a named namespace
// first. NewDoc builds a tool's entry once, at registration; Rank queries
// the entries a caller may see.
package search

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"unicode"
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

// Field weights of the BM25F score: a word in the name says far more about
// what a tool does than the same word in a property description.
const (
	weightName  = 3.0
	weightDesc  = 1.5
	weightProps = 0.5
	bm25K1      = 1.2
	// synonymWeight discounts query words added by expansion, so a tool that
	// uses the model's own word still wins over one using a synonym.
	synonymWeight = 0.4
	// prefixWeight discounts corpus words that only share a prefix with a
	// query word.
	prefixWeight = 0.5
)

// Doc is the stemmed text of one tool, computed at registration.
type Doc struct {
	name   string
	fields [3][]string       // name, description, properties
	tf     [3]map[string]int // term counts per field
}

var fieldWeights = [3]float64{weightName, weightDesc, weightProps}

// fieldB is BM25's length normalisation per field. Names are short and
// similar in length, so they are barely normalised.
var fieldB = [3]float64{0.3, 0.75, 0.75}

// NewDoc builds the entry of one tool from its dotted name, its description
// and its JSON Schemas (nil ones are skipped, as are invalid ones).
func NewDoc(name, description string, schemas ...json.RawMessage) *Doc {
	d := &Doc{name: name}
	d.fields[0] = tokenize(strings.ReplaceAll(name, ".", " "))
	d.fields[1] = tokenize(description)
	var props []string
	for _, raw := range schemas {
		if raw == nil {
			continue
		}
		var root any
		if err := json.Unmarshal(raw, &root); err == nil {
			collectSchemaText(root, 0, &props)
		}
	}
	d.fields[2] = tokenize(strings.Join(props, " "))
	for f, toks := range d.fields {
		d.tf[f] = make(map[string]int, len(toks))
		for _, t := range toks {
			d.tf[f][t]++
		}
	}
	return d
}

// collectSchemaText gathers property names, their descriptions and string
// enum values: "orders that shipped" should find a tool whose status enum
// has "shipped".
// The order of the words does not matter to BM25F, so a plain map decode
// will do.
func collectSchemaText(node any, depth int, out *[]string) {
	n, ok := node.(map[string]any)
	if !ok || depth > 4 {
		return
	}
	if props, ok := n["properties"].(map[string]any); ok {
		for k, v := range props {
			*out = append(*out, k)
			if p, ok := v.(map[string]any); ok {
				desc, _ := p["description"].(string)
				*out = append(*out, desc)
			}
			collectSchemaText(v, depth+1, out)
		}
	}
	enum, _ := n["enum"].([]any)
	for _, v := range enum {
		if s, ok := v.(string); ok {
			*out = append(*out, s)
		}
	}
	collectSchemaText(n["items"], depth+1, out)
	for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
		list, _ := n[kw].([]any)
		for _, s := range list {
			collectSchemaText(s, depth+1, out)
		}
	}
}

// Rank ranks docs for a query: an exact tool name first, then the tools of
// a namespace the query names, then BM25F relevance. An empty query lists
// every tool by name. limit <= 0 means DefaultLimit; it is capped at
// MaxLimit.
func Rank(docs []*Doc, query string, limit int) []Hit {
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)

	q := strings.ToLower(strings.TrimSpace(query))
	q = strings.Trim(strings.TrimPrefix(q, "tools."), ".")
	if q == "" {
		var hits []Hit
		for _, i := range byName(docs) {
			if len(hits) == limit {
				break
			}
			hits = append(hits, Hit{Index: i})
		}
		return hits
	}

	// Tokenize the query as written: lowercasing first would lose the
	// camelCase humps of a name-like query ("getOwner").
	terms := queryTerms(query)
	expandPrefixes(terms, docs)
	scores := bm25(docs, terms)
	type ranked struct {
		i     int
		tier  int
		score float64
	}
	var rs []ranked
	for i, d := range docs {
		name := strings.ToLower(d.name)
		tier := 0
		switch {
		case name == q:
			tier = 2
		case strings.HasPrefix(name, q+"."):
			tier = 1
		}
		if tier == 0 && scores[i] <= 0 {
			continue
		}
		rs = append(rs, ranked{i, tier, scores[i]})
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
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
	})
	hits := make([]Hit, 0, min(limit, len(rs)))
	for _, r := range rs[:min(limit, len(rs))] {
		hits = append(hits, Hit{Index: r.i, Score: r.score})
	}
	return hits
}

// byName returns the positions of docs in name order.
func byName(docs []*Doc) []int {
	idx := make([]int, len(docs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(docs[a].name, docs[b].name) })
	return idx
}

// queryTerms stems the query and adds synonyms at a discount. A word the
// query states itself keeps its full weight even if it is also a synonym.
func queryTerms(q string) map[string]float64 {
	terms := map[string]float64{}
	for _, t := range tokenize(q) {
		terms[t] = 1
	}
	for t := range keysOf(terms) {
		for _, s := range synonyms[t] {
			if _, ok := terms[s]; !ok {
				terms[s] = synonymWeight
			}
		}
	}
	return terms
}

// expandPrefixes lets a query word match longer or shorter forms the stemmer
// does not relate ("remind" and "reminder", "cancel" and "cancellation"),
// at a discount. Only words of 4+ letters take part, so "pay" does not pull
// in "payroll".
func expandPrefixes(terms map[string]float64, docs []*Doc) {
	const minLen, maxExtra = 4, 4
	var own []string
	for t, w := range terms {
		if w == 1 && len(t) >= minLen {
			own = append(own, t)
		}
	}
	if len(own) == 0 {
		return
	}
	for _, d := range docs {
		for _, tf := range d.tf {
			for v := range tf {
				if _, ok := terms[v]; ok || len(v) < minLen {
					continue
				}
				for _, t := range own {
					long, short := v, t
					if len(t) > len(v) {
						long, short = t, v
					}
					if len(long)-len(short) <= maxExtra && strings.HasPrefix(long, short) {
						terms[v] = prefixWeight
						break
					}
				}
			}
		}
	}
}

// keysOf copies the keys present before expansion, so expansion does not
// chain synonyms of synonyms.
func keysOf(m map[string]float64) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// bm25 scores every doc with BM25F. Corpus statistics are computed over the
// docs given, which are the tools visible to the caller, so hidden tools
// do not skew the ranking.
func bm25(docs []*Doc, terms map[string]float64) []float64 {
	n := len(docs)
	var avg [3]float64
	df := map[string]int{}
	for _, d := range docs {
		for f, toks := range d.fields {
			avg[f] += float64(len(toks))
		}
		for t := range terms {
			if d.tf[0][t] > 0 || d.tf[1][t] > 0 || d.tf[2][t] > 0 {
				df[t]++
			}
		}
	}
	for f := range avg {
		avg[f] = max(avg[f]/float64(max(n, 1)), 1)
	}
	scores := make([]float64, n)
	for i, d := range docs {
		var s float64
		for t, qw := range terms {
			if df[t] == 0 {
				continue
			}
			var w float64
			for f := range d.tf {
				if c := d.tf[f][t]; c > 0 {
					norm := 1 - fieldB[f] + fieldB[f]*float64(len(d.fields[f]))/avg[f]
					w += fieldWeights[f] * float64(c) / norm
				}
			}
			if w == 0 {
				continue
			}
			idf := math.Log(1 + (float64(n)-float64(df[t])+0.5)/(float64(df[t])+0.5))
			s += qw * idf * w / (bm25K1 + w)
		}
		scores[i] = s
	}
	return scores
}

// tokenize splits text into lowercase stems: on anything that is not a letter
// or digit, at camelCase humps ("getOrderById" -> get order by id) and
// between letters and digits; stopwords and one-letter words are dropped.
func tokenize(text string) []string {
	var out []string
	emit := func(w []rune) {
		if len(w) < 2 {
			return
		}
		s := strings.ToLower(string(w))
		if stopwords[s] {
			return
		}
		out = append(out, stem(s))
	}
	rs := []rune(text)
	start := -1
	for i, r := range rs {
		isWord := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !isWord {
			if start >= 0 {
				emit(rs[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		split := unicode.IsLower(prev) && unicode.IsUpper(r) ||
			unicode.IsLetter(prev) != unicode.IsLetter(r) ||
			// "HTTPServer": split before the last capital of a run.
			unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
		if split {
			emit(rs[start:i])
			start = i
		}
	}
	if start >= 0 {
		emit(rs[start:])
	}
	return out
}

// stem is a deliberately small suffix stripper: plurals, -ing and -ed, then a
// final "e", so that price/prices/pricing/priced all become "pric". It only
// has to map a word and its inflections to the same key, not to produce
// real words.
func stem(w string) string {
	if len(w) <= 3 || !isASCIILetters(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ied") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "zes") ||
		strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") || strings.HasSuffix(w, "is"):
	case strings.HasSuffix(w, "s"):
		w = w[:len(w)-1]
	case strings.HasSuffix(w, "ing") && len(w) >= 6:
		w = w[:len(w)-3]
	case strings.HasSuffix(w, "ed") && len(w) >= 5:
		w = w[:len(w)-2]
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return undouble(w)
}

// undouble drops a final doubled consonant, from the suffix ("shipp" from
// shipping) or from the word itself ("bill"), so both sides agree:
// cancel/cancelled and bill/billing. "ss" stays (pass, address, process).
func undouble(w string) string {
	n := len(w)
	if n >= 4 && w[n-1] == w[n-2] && w[n-1] != 's' && !strings.ContainsRune("aeiou", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

func isASCIILetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

var stopwords = setOf(
	"a", "an", "the", "of", "for", "to", "in", "on", "at", "by", "with", "from", "into", "about",
	"and", "or", "is", "are", "was", "were", "be", "been", "it", "its", "this", "that", "these",
	"those", "me", "my", "we", "our", "you", "your", "they", "them", "their", "there", "what",
	"which", "who", "whom", "whose", "how", "when", "where", "do", "does", "did", "can", "could",
	"would", "should", "will", "please", "some", "any", "has", "have", "had", "i", "if", "so",
	"want", "need", "given", "via", "per", "also", "than", "then", "just", "up",
)

// synonymGroups are general words a model uses for the same action or
// thing; they are not tied to any particular catalog.
var synonymGroups = [][]string{
	{"get", "fetch", "retrieve", "read", "show", "view", "look", "lookup", "details"},
	{"search", "find", "query", "look", "lookup", "filter"},
	{"list", "all", "enumerate", "browse"},
	{"create", "add", "new", "make", "register", "insert"},
	{"update", "edit", "modify", "change", "set", "rename"},
	{"delete", "remove", "erase", "drop", "purge"},
	{"cancel", "void", "abort", "revoke"},
	{"send", "deliver", "dispatch", "notify"},
	{"customer", "client", "buyer"},
	{"employee", "staff", "worker", "personnel"},
	{"colleague", "coworker", "teammate", "people", "person"},
	{"product", "item", "sku", "article"},
	{"price", "cost", "amount"},
	{"schedule", "book", "reserve", "plan"},
	{"meeting", "event", "appointment"},
	{"count", "number", "total", "how many"},
	{"stock", "inventory", "quantity"},
	{"user", "member"},
	{"ticket", "issue", "case", "request"},
	{"invoice", "bill"},
	{"report", "summary", "stats", "statistics", "metrics"},
	{"file", "document", "attachment"},
	{"message", "email", "mail"},
	{"owner", "manager", "assignee", "responsible"},
	{"address", "location"},
	{"approve", "accept", "confirm"},
	{"reject", "decline", "deny"},
}

var synonyms = func() map[string][]string {
	m := map[string][]string{}
	for _, g := range synonymGroups {
		var stems []string
		for _, w := range g {
			stems = append(stems, tokenize(w)...)
		}
		for _, a := range stems {
			for _, b := range stems {
				if a != b && !slices.Contains(m[a], b) {
					m[a] = append(m[a], b)
				}
			}
		}
	}
	return m
}()

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
