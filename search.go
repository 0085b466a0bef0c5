package codemode

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

// SearchHit is one result of a tool search, best first.
type SearchHit struct {
	Name        string
	Description string
	Signature   string
	Score       float64
}

const (
	defaultSearchLimit = 10
	maxSearchLimit     = 50
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

// searchDoc is the stemmed text of one tool, computed at registration.
type searchDoc struct {
	fields [3][]string       // name, description, properties
	tf     [3]map[string]int // term counts per field
}

var fieldWeights = [3]float64{weightName, weightDesc, weightProps}

// fieldB is BM25's length normalisation per field. Names are short and
// similar in length, so they are barely normalised.
var fieldB = [3]float64{0.3, 0.75, 0.75}

func buildSearchDoc(info ToolInfo) searchDoc {
	var d searchDoc
	d.fields[0] = tokenize(strings.ReplaceAll(info.Name, ".", " "))
	d.fields[1] = tokenize(info.Description)
	var props []string
	for _, raw := range [][]byte{info.InputSchema, info.OutputSchema} {
		if raw == nil {
			continue
		}
		if root, err := decodeOrdered(raw); err == nil {
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
func collectSchemaText(node any, depth int, out *[]string) {
	n, ok := node.(*omap)
	if !ok || depth > 4 {
		return
	}
	if props, ok := n.vals["properties"].(*omap); ok {
		for _, k := range props.keys {
			*out = append(*out, k)
			if p, ok := props.vals[k].(*omap); ok {
				*out = append(*out, p.str("description"))
			}
			collectSchemaText(props.vals[k], depth+1, out)
		}
	}
	for _, v := range asList(n.vals["enum"]) {
		if s, ok := v.(string); ok {
			*out = append(*out, s)
		}
	}
	collectSchemaText(n.vals["items"], depth+1, out)
	for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
		for _, s := range asList(n.vals[kw]) {
			collectSchemaText(s, depth+1, out)
		}
	}
}

// searchTools ranks entries for a query: an exact tool name first, then the
// tools of a namespace the query names, then BM25F relevance. An empty
// query lists every tool by name. limit <= 0 means 10; it is capped at 50.
func searchTools(entries []*toolEntry, query string, limit int) []SearchHit {
	if limit <= 0 {
		limit = defaultSearchLimit
	}
	limit = min(limit, maxSearchLimit)

	q := strings.ToLower(strings.TrimSpace(query))
	q = strings.Trim(strings.TrimPrefix(q, "tools."), ".")
	if q == "" {
		var hits []SearchHit
		for _, e := range sortedByName(entries) {
			if len(hits) == limit {
				break
			}
			hits = append(hits, hitFor(e, 0))
		}
		return hits
	}

	// Tokenize the query as written: lowercasing first would lose the
	// camelCase humps of a name-like query ("getOwner").
	terms := queryTerms(query)
	expandPrefixes(terms, entries)
	scores := bm25(entries, terms)
	type ranked struct {
		e     *toolEntry
		tier  int
		score float64
	}
	var rs []ranked
	for i, e := range entries {
		name := strings.ToLower(e.info.Name)
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
		rs = append(rs, ranked{e, tier, scores[i]})
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
		return strings.Compare(a.e.info.Name, b.e.info.Name)
	})
	hits := make([]SearchHit, 0, min(limit, len(rs)))
	for _, r := range rs[:min(limit, len(rs))] {
		hits = append(hits, hitFor(r.e, r.score))
	}
	return hits
}

func hitFor(e *toolEntry, score float64) SearchHit {
	return SearchHit{Name: e.info.Name, Description: e.info.Description, Signature: e.signature(), Score: score}
}

func sortedByName(entries []*toolEntry) []*toolEntry {
	s := slices.Clone(entries)
	slices.SortFunc(s, func(a, b *toolEntry) int { return strings.Compare(a.info.Name, b.info.Name) })
	return s
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
func expandPrefixes(terms map[string]float64, entries []*toolEntry) {
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
	for _, e := range entries {
		for _, tf := range e.doc.tf {
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

// bm25 scores every entry with BM25F. Corpus statistics are computed over the
// entries given, which are the tools visible to the caller, so hidden tools
// do not skew the ranking.
func bm25(entries []*toolEntry, terms map[string]float64) []float64 {
	n := len(entries)
	var avg [3]float64
	df := map[string]int{}
	for _, e := range entries {
		for f, toks := range e.doc.fields {
			avg[f] += float64(len(toks))
		}
		for t := range terms {
			if e.doc.tf[0][t] > 0 || e.doc.tf[1][t] > 0 || e.doc.tf[2][t] > 0 {
				df[t]++
			}
		}
	}
	for f := range avg {
		avg[f] = max(avg[f]/float64(max(n, 1)), 1)
	}
	scores := make([]float64, n)
	for i, e := range entries {
		var s float64
		for t, qw := range terms {
			if df[t] == 0 {
				continue
			}
			var w float64
			for f := range e.doc.tf {
				if c := e.doc.tf[f][t]; c > 0 {
					norm := 1 - fieldB[f] + fieldB[f]*float64(len(e.doc.fields[f]))/avg[f]
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
