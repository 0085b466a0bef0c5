package search

import (
	"math"
	"slices"
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

// params are the ranking's weights, chosen on eval/'s tune and dev splits
// (the dev split written blind, on catalogs of its own) and kept only where
// they raise those figures, cost no empty answer to a probe, and do not
// lower the held-out floors; since the sixth session a change is also
// judged on the validation splits (dev2, dev3), whose misses nobody reads,
// by a rule written before measuring (eval/README.md).
type params struct {
	// fieldWeights and fieldB are BM25F's per-field weights and length
	// normalisation: name, namespace, summary, rest of the description,
	// schema text.
	fieldWeights [numFields]float64
	fieldB       [numFields]float64
	k1           float64
	// synonymWeight discounts query words added by the vocabulary, so a
	// tool that uses the user's own word wins over one using a synonym.
	synonymWeight float64
	// prefixWeight discounts corpus words that only share a prefix with a
	// query word ("remind" and "reminder").
	prefixWeight float64
	// verbPenalty multiplies the score of a tool whose name states an
	// action of none of the query's verb classes.
	verbPenalty float64
	// specExp and spaceExp weigh the share of the name's words (last
	// segment, namespace) that the query explains: deleteCustomer beats
	// deleteCustomerCard for "delete a customer".
	specExp, spaceExp float64
	// minCoverage is the share of the query's information (idf) a tool
	// must match to be a good match: a query with none gets nothing, and
	// the tools under it are weak matches (weakWeight).
	minCoverage float64
	// unknownWeight is the share of the rarest term's idf that a query
	// word no visible tool holds counts for in the coverage.
	unknownWeight float64
	// fullCatalog is the size from which a catalog is taken to hold the
	// words a request for it uses. A smaller one (an MCP server or two:
	// 2-40 tools) holds its few verbs and nouns, not the words of the
	// call's arguments ("the rate limit counter for IP 10.0.0.7"), so
	// the words it lacks say less against it: in a catalog of n tools an
	// unknown word counts n/fullCatalog of unknownWeight, except when the
	// request's first word is one (see Scores); 0 turns this off. 100 is
	// below the smallest catalog of eval's large splits (112), whose
	// figures this leaves unchanged, within the smalltrain split's plateau
	// 80-300, and passed the rule written before measuring (eval/README.md,
	// "Small catalogs: unknown words weigh by catalog size").
	fullCatalog float64
	// verbRelief: in a catalog under fullCatalog tools, a request whose
	// first word no visible tool holds but names an action of a verb class
	// ("open an issue", "show me the README") is judged like any other
	// for the tools whose name states an action of that class
	// (gitlab.create_issue): the catalog does that action in its own
	// word. Other tools, and a first word of no verb class ("reset orders
	// secret"), keep the strict rule.
	verbRelief bool
	// compoundWeight is the weight of the term two adjacent query words
	// make when joined, as an alternative of each.
	compoundWeight float64
	// clauseWeight is the share of a word in a clause describing the
	// object ("a message I already sent").
	clauseWeight float64
	// questionVerbs: a question ("who reacted ...", "which files ...")
	// asks to read, so tools whose name creates, changes or deletes are
	// demoted as for a query saying "get".
	questionVerbs bool
	// minCoverageFirstUnknown is minCoverage for a query whose first word
	// no visible tool holds (0.3: more probes empty, no tune query lost;
	// 0.4 empties more probes but loses tune queries).
	minCoverageFirstUnknown float64
	// dictWeight discounts the dictionary's synonyms (wordnet.go), less
	// sure than the hand-written groups.
	dictWeight float64
	// generalWeight discounts the general vocabulary's synonyms
	// (vocab_general.go), broader than synonymWeight's groups. Like the
	// dictionary's, they do not make a request's first word known, and
	// generalCover is their share of the query's coverage: a request for
	// what a catalog cannot do must not find a tool through them alone.
	generalWeight float64
	generalCover  float64
	// derivedWeight is the weight of a derived form ("subscription" for
	// "subscribe"), as prefixWeight for the forms the prefix rule finds.
	derivedWeight float64
	// valueUnknown is the share of unknownWeight that a word the request
	// writes as a value (valueWords) counts for when no tool holds it: a
	// name or a quoted text is the call's argument, not a word about the
	// tool, yet it still says a little about whether the request fits.
	valueUnknown float64
	lightVerbs   bool
	timeWords    bool
	// readPenalty multiplies the score of a tool whose name states no
	// action at all ("meetings.meetingPolls", "groups.group": REST names
	// of a resource, most often read) for a request that asks for an
	// action other than reading.
	readPenalty float64
	// weakWeight: a request with a good match (a tool covering
	// minCoverage of it) also lists the tools that match less of it, their
	// scores multiplied by weakWeight (0: not at all). A word the catalog
	// lacks lowers every tool's coverage, so the tool asked for is often
	// below the rule while others pass it; the discount keeps most good
	// matches first without hiding a weak one that scores much higher. A
	// request with no good match still gets nothing. 0.8 was chosen among
	// 0.5-1 on TRAIN and validation (eval/README.md).
	weakWeight float64
}

var p = params{
	fieldWeights:            [numFields]float64{3, 2, 3, 1, 0.75},
	fieldB:                  [numFields]float64{0.5, 0.3, 0.5, 0.75, 0.75},
	k1:                      0.8,
	synonymWeight:           0.6,
	prefixWeight:            0.5,
	verbPenalty:             0.5,
	specExp:                 0.5,
	spaceExp:                1,
	minCoverage:             0.2,
	unknownWeight:           0.75,
	fullCatalog:             100,
	verbRelief:              true,
	compoundWeight:          1,
	clauseWeight:            0.5,
	questionVerbs:           true,
	minCoverageFirstUnknown: 0.3,
	dictWeight:              0.4,
	generalWeight:           0.3,
	generalCover:            0.5,
	derivedWeight:           0.5,
	valueUnknown:            0.3,
	lightVerbs:              true,
	timeWords:               true,
	readPenalty:             0.7,
	weakWeight:              0.8,
}

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

// DefaultSemanticWeight is the semantic rank's default weight in the
// fusion and fusionK the constant of reciprocal rank fusion: chosen with
// eval's deterministic embedder, which knows no meanings, as the largest
// weight at which fusion lowers the lexical figures of no catalog (0.2
// until weak matches were discounted rather than listed last: with them
// in the lexical view, 0.15 and 0.2 lower two; see eval/README.md).
var (
	DefaultSemanticWeight = 0.1
	fusionK               = 2.0
)

// RankWith is Rank with options.
func RankWith(docs []*Doc, query string, o Options) []Hit {
	limit := o.Limit
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
	type ranked struct {
		i     int
		tier  int
		score float64
	}
	var rs []ranked
	for i, d := range docs {
		tier := 0
		switch {
		case d.lower == q:
			tier = 2
		case strings.HasPrefix(d.lower, q+"."), strings.HasSuffix(d.lower, "."+q):
			// a namespace, or a name without its namespace ("getOwner")
			tier = 1
		}
		if tier == 0 && !relevant[i] {
			continue
		}
		rs = append(rs, ranked{i, tier, scores[i]})
	}
	slices.SortFunc(rs, func(a, b ranked) int {
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

// readVerbs are the verb classes of reading.
var readVerbs = verbClasses["get"] | verbClasses["list"]

// questions are first words that make a request a question.
var questions = setOf("who", "which", "what", "whose", "is", "are", "does", "do", "did", "how", "when", "where", "was", "were")

// subjects start a clause that describes the object of a request, and
// clauseFiller may stand between the subject and its verb.
var (
	subjects     = setOf("i", "we", "you", "someone", "somebody", "they", "he", "she")
	clauseFiller = setOf("already", "just", "recently", "accidentally", "no", "never", "not", "longer", "have", "had", "has", "did")
)

// byName returns the positions of docs in name order.
func byName(docs []*Doc) []int {
	idx := make([]int, len(docs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(docs[a].name, docs[b].name) })
	return idx
}

// A group is one word of the query with its alternatives: the word itself
// (weight 1), vocabulary synonyms and prefix relatives at a discount. A doc
// scores a group once, by its best alternative.
type group struct {
	verbs  uint64  // verb classes of the word as the user wrote it
	weight float64 // the word's share: 1, less in a clause describing the object
	alts   []alt
	// value: the user wrote the word as a value ("with Ana", "called
	// \"Q3 Launch\""), see valueWords.
	value bool
}

type alt struct {
	slot   int // position of the term in query.ids
	weight float64
	// dict: the alternative is only the dictionary's synonym or derived
	// form, which does not make the request's first word known: "charge a
	// card" must not find project cards because charge has a loose sense
	// some tool uses, nor "subscribe a customer" a subscription's balance.
	dict bool
	// general: the alternative is only the general vocabulary's synonym,
	// whose share of the coverage is p.generalCover.
	general bool
}

// query is a parsed query: its groups and the distinct term ids of all
// their alternatives, sorted, which docs are merged against.
type query struct {
	groups []group
	ids    []uint32
	verbs  uint64 // verb classes the query's form implies ("who ...": a read)
}

// Scores returns every doc's relevance to a query (0: no match) and the
// share of the query's information it matches.
func Scores(docs []*Doc, text string) (scores, covers []float64) {
	qu := parseQuery(text)
	scores = make([]float64, len(docs))
	covers = make([]float64, len(docs))
	if len(qu.ids) == 0 {
		return scores, covers
	}
	nq := len(qu.ids)
	// One pass over the docs' postings: which query terms each doc holds
	// (a sparse list), document frequencies and field lengths.
	type match struct {
		doc, slot int
		tf        [numFields]uint16
	}
	var matches []match
	df := make([]int, nq)
	var avg [numFields]float64
	slotTF := make([][numFields]uint16, nq)
	touched := make([]int, 0, nq)
	for i, d := range docs {
		for f := range numFields {
			avg[f] += float64(d.length[f])
			ids, counts := d.fields[f].ids, d.fields[f].counts
			a, b := 0, 0
			for a < len(ids) && b < nq {
				switch {
				case ids[a] < qu.ids[b]:
					a++
				case ids[a] > qu.ids[b]:
					b++
				default:
					if slotTF[b] == ([numFields]uint16{}) {
						touched = append(touched, b)
					}
					slotTF[b][f] = counts[a]
					a++
					b++
				}
			}
		}
		for _, s := range touched {
			matches = append(matches, match{i, s, slotTF[s]})
			df[s]++
			slotTF[s] = [numFields]uint16{}
		}
		touched = touched[:0]
	}
	if len(matches) == 0 {
		return scores, covers
	}
	n := float64(len(docs))
	for f := range avg {
		avg[f] = max(avg[f]/n, 1)
	}
	idf := make([]float64, nq)
	for s, c := range df {
		if c > 0 {
			idf[s] = math.Log(1 + (n-float64(c)+0.5)/(float64(c)+0.5))
		}
	}
	// The request's first word is its action or its subject ("merge a
	// pull request", "kubernetes cluster"): when no visible tool holds it
	// or any of its alternatives, a tool must match more of the rest.
	// A name the request starts with ("Ana's meetings") is not its action
	// or subject: the first word is the first that is not an unknown value.
	firstUnknown := false
	var firstVerbs uint64 // the verb classes of the first word
	first := 0
	for first < len(qu.groups) && qu.groups[first].value && unknown(qu.groups[first], df) {
		first++
	}
	if first < len(qu.groups) {
		firstVerbs = qu.groups[first].verbs
		firstUnknown = true
		for _, a := range qu.groups[first].alts {
			if df[a.slot] > 0 && !a.dict {
				firstUnknown = false
			}
		}
	}
	// A query word no visible tool holds counts as fairly rare: a query
	// mostly about things that are not there is not a good match for
	// anything (at p.unknownWeight of the rarest idf: some are filler).
	// In a small catalog it counts less (p.fullCatalog) toward total; a
	// request whose first word is unknown is judged on strict, where
	// unknown words count in full: the relief is for the words of a
	// call's arguments, not for an action no visible tool does ("reset
	// orders secret" where only orders.list is visible gets nothing).
	maxIDF := math.Log(1 + (n+0.5)/0.5)
	small := 1.0
	if n < p.fullCatalog {
		small = n / p.fullCatalog
	}
	var total, strict float64
	qverbs := qu.verbs
	for _, g := range qu.groups {
		best := 0.0
		for _, a := range g.alts {
			if a.weight == 1 {
				best = max(best, idf[a.slot])
			}
		}
		lacked := best == 0
		if lacked {
			best = p.unknownWeight * maxIDF
			if g.value && unknown(g, df) {
				best *= p.valueUnknown
			}
		}
		strict += g.weight * best
		if lacked {
			best *= small
		}
		total += g.weight * best
		qverbs |= g.verbs
	}

	// Per doc: BM25F per query term, the best alternative per group.
	w := make([]float64, nq)
	for start := 0; start < len(matches); {
		i := matches[start].doc
		d := docs[i]
		end := start
		for ; end < len(matches) && matches[end].doc == i; end++ {
			m := matches[end]
			var x float64
			for f := range numFields {
				if c := m.tf[f]; c > 0 {
					norm := 1 - p.fieldB[f] + p.fieldB[f]*float64(d.length[f])/avg[f]
					x += p.fieldWeights[f] * float64(c) / norm
				}
			}
			w[m.slot] = x
		}
		var s, covered float64
		for _, g := range qu.groups {
			var best, bestIDF float64
			for _, a := range g.alts {
				if x := w[a.slot]; x > 0 {
					v := a.weight * idf[a.slot] * x / (p.k1 + x)
					if v > best {
						best, bestIDF = v, a.weight*idf[a.slot]
						if a.general {
							bestIDF *= p.generalCover
						}
					}
				}
			}
			s += g.weight * best
			covered += g.weight * bestIDF
		}
		// The share of the name's words the query explains.
		if p.specExp > 0 || p.spaceExp > 0 {
			last, space := 0, 0
			for k, id := range d.nameTerms {
				if slot, ok := slices.BinarySearch(qu.ids, id); ok && w[slot] > 0 {
					if k < d.lastTerms {
						last++
					} else {
						space++
					}
				}
			}
			s *= math.Pow(float64(1+last)/float64(1+d.lastTerms), p.specExp) *
				math.Pow(float64(1+space)/float64(1+len(d.nameTerms)-d.lastTerms), p.spaceExp)
		}
		if qverbs != 0 && d.verbs != 0 && qverbs&d.verbs == 0 {
			s *= p.verbPenalty
		} else if d.verbs == 0 && qverbs&^readVerbs != 0 && qverbs&readVerbs == 0 {
			s *= p.readPenalty
		}
		scores[i] = s
		covers[i] = min(covered/total, 1)
		// In a small catalog, a first word that is an action the tool's
		// name states in another word of its class is not unknown to it.
		if firstUnknown && !(p.verbRelief && small < 1 && firstVerbs&d.verbs != 0) {
			if covers[i] = min(covered/strict, 1); covers[i] < p.minCoverageFirstUnknown {
				covers[i] = 0
			}
		}
		for _, m := range matches[start:end] {
			w[m.slot] = 0
		}
		start = end
	}
	return scores, covers
}

// wordPunct is the punctuation that may follow or precede a word.
const wordPunct = ".,;:!?()[]{}\"“”"

// phraseSpace turns wordPunct into a space, for matching phrases.
func phraseSpace(c rune) rune {
	if strings.ContainsRune(wordPunct, c) {
		return ' '
	}
	return c
}

// lightVerbs lend their object the action ("leave a comment", "give
// the task to Marco", "take a snapshot"): when no tool holds one, it is
// like a value, not a word the catalog lacks.
var lightVerbs = stems("leave", "give", "take", "make", "put", "get", "keep", "bring", "go")

// timeWords say when, an argument of the call ("move it to next week",
// "yesterday's meeting"): like values when no tool holds them.
var timeWords = stems("today", "tomorrow", "yesterday", "tonight", "morning", "afternoon", "evening", "weekend",
	"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "next", "ago", "soon", "later", "earlier")

// stems is setOf for the stems of words.
func stems(words ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words {
		m[stem(w)] = true
	}
	return m
}

// unknown reports whether no visible tool holds a group's word or any of
// its alternatives.
func unknown(g group, df []int) bool {
	for _, a := range g.alts {
		if df[a.slot] > 0 {
			return false
		}
	}
	return true
}

// valueWords returns the stems of the words a request writes as values
// rather than as words about the tool: quoted text (label it "urgent"),
// and names written with a capital inside the sentence (a meeting with
// Ana, a project called Website Redesign). Numbers are not values here:
// "refund order 1043" asked of a cloud API should still find nothing.
func valueWords(text string) map[string]bool {
	var values map[string]bool
	quoted := false
	for k, f := range strings.Fields(text) {
		value := quoted
		for _, q := range []string{"\"", "\u201c", "\u201d"} {
			if n := strings.Count(f, q); n > 0 {
				value = true
				if n%2 == 1 {
					quoted = !quoted
				}
			}
		}
		word := strings.TrimLeft(f, "\"\u201c\u201d'(")
		if c := word[:min(1, len(word))]; k > 0 && c >= "A" && c <= "Z" && word != "I" && !strings.HasPrefix(word, "I'") && !acronym(word) {
			value = true
		}
		if !value {
			continue
		}
		if values == nil {
			values = map[string]bool{}
		}
		for _, t := range tokenize(word) {
			values[t] = true
		}
	}
	return values
}

// acronym reports whether a word starts with two capitals ("PDF", "SSH",
// "IPs"): a kind of thing, not a name.
func acronym(w string) bool {
	return len(w) >= 2 && w[1] >= 'A' && w[1] <= 'Z'
}

// parseQuery tokenizes the query as written (lowercasing first would lose
// the camelCase humps of a name-like query), applies the vocabulary's
// phrases and adds synonyms and prefix relatives. Words no tool has ever
// used keep a group without alternatives: they still count against a
// tool's coverage of the query.
func parseQuery(text string) query {
	values := valueWords(text)
	// Punctuation next to a phrase ("who am I?", "money back, please")
	// must not hide it; apostrophes and hyphens stay ("to-do").
	words := strings.Join(strings.Fields(strings.Map(phraseSpace, strings.ToLower(text))), " ")
	padded := " " + words + " "
	for _, ph := range phrases {
		// Phrases are replaced by their meaning, so "logged in" does not
		// also search for logs.
		padded = strings.ReplaceAll(padded, " "+ph.phrase+" ", " "+ph.means+" ")
	}
	gv := general()
	for _, ph := range gv.phrases {
		padded = strings.ReplaceAll(padded, " "+ph.phrase+" ", " "+ph.means+" ")
	}
	if padded != " "+words+" " {
		text = padded
	}
	r, done := dict.reader()
	defer done()
	var qu query
	slots := map[uint32]int{}
	slotOf := func(id uint32) int {
		s, ok := slots[id]
		if !ok {
			s = len(slots)
			slots[id] = s
		}
		return s
	}
	// Two words the catalog writes as one ("user group" for usergroups,
	// "node pool" for nodePool): the joined term is an alternative of both.
	var raw []string
	splitWords(text, func(w string) { raw = append(raw, strings.ToLower(w)) })
	joined := map[string][]string{} // a word's stem -> the terms it makes with a neighbour
	if p.compoundWeight > 0 {
		for k := 0; k+1 < len(raw); k++ {
			a, b := raw[k], raw[k+1]
			if len(a) < 2 || len(b) < 2 || stopwords[a] || stopwords[b] {
				continue
			}
			j := stem(a + b)
			if _, ok := r.lookup(j); ok {
				joined[stem(a)] = append(joined[stem(a)], j)
				joined[stem(b)] = append(joined[stem(b)], j)
			}
		}
	}
	// A hyphenated word the catalog writes as one ("e-mail", "re-open",
	// "sign-in"): the joined term is an alternative of its parts, however
	// short ("e") or common ("in") they are.
	for _, f := range strings.Fields(strings.ToLower(text)) {
		f = strings.Trim(f, wordPunct+"'’")
		if !strings.Contains(f, "-") {
			continue
		}
		parts := strings.Split(f, "-")
		j := stem(strings.Join(parts, ""))
		if _, ok := r.lookup(j); !ok || !isASCIILetters(j) {
			continue
		}
		for _, part := range parts {
			if s := stem(part); len(part) > 1 && !stopwords[part] && !slices.Contains(joined[s], j) {
				joined[s] = append(joined[s], j)
			}
		}
	}
	if len(raw) > 0 && p.questionVerbs && questions[raw[0]] {
		qu.verbs = readVerbs
	}
	// The verb right after a subject ("a file I uploaded", "an issue
	// someone closed") describes the object; the request's action is
	// elsewhere.
	clause := map[string]bool{}
	for k := 0; k+1 < len(raw); k++ {
		if !subjects[raw[k]] {
			continue
		}
		j := k + 1
		for j < len(raw) && clauseFiller[raw[j]] {
			j++
		}
		if j < len(raw) && raw[j] != "s" && !stopwords[raw[j]] {
			clause[stem(raw[j])] = true
		}
	}
	wn := wordnet()
	seen := map[string]bool{}
	for _, t := range tokenize(text) {
		if seen[t] {
			continue
		}
		seen[t] = true
		g := group{verbs: verbClasses[t], weight: 1, value: values[t] || p.lightVerbs && lightVerbs[t] || p.timeWords && timeWords[t]}
		if clause[t] {
			// "a file I uploaded": the action is delete, not upload.
			g.verbs, g.weight = 0, p.clauseWeight
		}
		addGen := func(id uint32, w float64, dict, general bool) {
			s := slotOf(id)
			for k, a := range g.alts {
				if a.slot == s {
					g.alts[k].weight = max(a.weight, w)
					g.alts[k].dict = a.dict && dict
					g.alts[k].general = a.general && general
					return
				}
			}
			g.alts = append(g.alts, alt{s, w, dict, general})
		}
		addAlt := func(id uint32, w float64, dict bool) { addGen(id, w, dict, false) }
		add := func(id uint32, w float64) { addAlt(id, w, false) }
		if id, ok := r.lookup(t); ok {
			add(id, 1)
		}
		for _, syn := range synonyms[t] {
			if id, ok := r.lookup(syn); ok {
				add(id, p.synonymWeight)
			}
		}
		if p.generalWeight > 0 {
			for _, syn := range gv.synonyms[t] {
				if id, ok := r.lookup(syn); ok {
					addGen(id, p.generalWeight, true, true)
				}
			}
		}
		for _, d := range wn.derived[t] {
			// "subscribe" and "subscription": the same word to the user,
			// but not the same action.
			if id, ok := r.lookup(d); ok && p.derivedWeight > 0 {
				addAlt(id, p.derivedWeight, true)
			}
		}
		if p.dictWeight > 0 {
			for _, syn := range wn.synonyms[t] {
				if id, ok := r.lookup(syn); ok {
					addAlt(id, p.dictWeight, true)
				}
			}
		}
		for _, j := range joined[t] {
			if id, ok := r.lookup(j); ok {
				add(id, p.compoundWeight)
			}
		}
		// Longer or shorter forms the stemmer does not relate ("remind"
		// and "reminder", "cancel" and "cancellation"); only words of 4+
		// letters, so "pay" does not pull in "payroll".
		const minLen, maxExtra = 4, 4
		if len(t) >= minLen && p.prefixWeight > 0 {
			for _, id := range r.extensions(t, maxExtra) {
				add(id, p.prefixWeight)
			}
			for k := max(minLen, len(t)-maxExtra); k < len(t); k++ {
				if id, ok := r.lookup(t[:k]); ok {
					add(id, p.prefixWeight)
				}
			}
		}
		qu.groups = append(qu.groups, g)
	}
	// Sort the ids and renumber the slots to match.
	qu.ids = make([]uint32, len(slots))
	for id := range slots {
		qu.ids[slots[id]] = id
	}
	order := make([]int, len(qu.ids))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return int(qu.ids[a]) - int(qu.ids[b]) })
	renum := make([]int, len(order))
	sorted := make([]uint32, len(order))
	for newSlot, old := range order {
		renum[old] = newSlot
		sorted[newSlot] = qu.ids[old]
	}
	qu.ids = sorted
	for gi := range qu.groups {
		for k := range qu.groups[gi].alts {
			qu.groups[gi].alts[k].slot = renum[qu.groups[gi].alts[k].slot]
		}
	}
	return qu
}

// fuseSemantic ranks the lexically relevant docs and the docs similar
// enough to the query, each way, and scores each doc by its reciprocal
// ranks, the semantic one weighted.
func fuseSemantic(lexical []float64, relevant []bool, sim []float64, minSim, weight float64) ([]float64, []bool) {
	lex := make([]float64, len(lexical))
	sem := make([]float64, len(sim))
	keep := slices.Clone(relevant)
	for i := range lexical {
		if relevant[i] {
			lex[i] = lexical[i]
		}
		if s := sim[i]; !math.IsNaN(s) && s > 0 && (relevant[i] || s >= minSim) {
			sem[i] = s
			keep[i] = true
		}
	}
	fused := fuse(fusionK, []float64{1, weight}, lex, sem)
	for i := range fused {
		if !keep[i] {
			fused[i] = 0
		}
	}
	return fused, keep
}

// fuse combines rankings by reciprocal rank: a doc ranked well by several
// rankings beats one that a single ranking loves. Scores <= 0 are unranked.
func fuse(k float64, weights []float64, views ...[]float64) []float64 {
	n := len(views[0])
	out := make([]float64, n)
	idx := make([]int, n)
	for vi, v := range views {
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(a, b int) int {
			if v[a] > v[b] {
				return -1
			}
			if v[a] < v[b] {
				return 1
			}
			return a - b
		})
		for r, i := range idx {
			if v[i] <= 0 {
				break
			}
			out[i] += weights[vi] / (k + float64(r+1))
		}
	}
	return out
}
