package search

import (
	"slices"
	"sort"
	"strings"
)

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
	// many and one are the terms of the things the request asks about as
	// a list ("all customers", "every user group") or as one ("this
	// droplet", "issue 42"), with the compounds they make.
	many, one []uint32
	// own, when the request speaks of its caller (firstPerson), holds
	// the terms that make a tool the caller's own (own.go).
	own *ownMarks
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

// parseQuery tokenizes the query as written (lowercasing first would lose
// the camelCase humps of a name-like query), applies the vocabulary's
// phrases and adds synonyms and prefix relatives. Words no tool has ever
// used keep a group without alternatives: they still count against a
// tool's coverage of the query.
func parseQuery(text string) query {
	values := valueWords(text)
	// Before the phrases, which drop some pronouns ("my profile").
	self := false
	if p.ownScope != 1 {
		splitWords(strings.ToLower(text), func(w string) { self = self || firstPerson[w] })
	}
	// Punctuation next to a phrase ("who am I?", "money back, please")
	// must not hide it; apostrophes and hyphens stay ("to-do").
	words := strings.Join(strings.Fields(strings.Map(phraseSpace, strings.ToLower(text))), " ")
	padded := " " + words + " "
	for _, ph := range phrases {
		// Phrases are replaced by their meaning, so "logged in" does not
		// also search for logs.
		padded = strings.ReplaceAll(padded, " "+ph.phrase+" ", " "+ph.means+" ")
	}
	gv, hand := general(), handSynonyms()
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
	qu.many, qu.one = shapes(raw, joined, r)
	if self {
		qu.own = ownMarksOf(r)
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
		// A request's "ips" meets the names' singular (twoLetterPlural)
		// and the texts' plural.
		if s := twoLetterPlural(t); s != t {
			if id, ok := r.lookup(s); ok {
				add(id, 1)
			}
		}
		for _, syn := range hand[t] {
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
	sort.Slice(order, func(i, j int) bool { return qu.ids[order[i]] < qu.ids[order[j]] })
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

// quantifiers make the words after them a list; definite words make the
// word after them one thing.
var (
	quantifiers = setOf("all", "every", "each", "many")
	definite    = setOf("this", "that", "the", "my", "our", "your", "its", "their", "his", "her")
)

// shapes returns the terms the request asks about as a list (a plural, or
// up to two words after a quantifier) and as one thing (a singular after a
// definite word, or before a number). "a"/"an" say neither: "create a
// customer" acts on the list.
func shapes(raw []string, joined map[string][]string, r *dictionary) (many, one []uint32) {
	for k, w := range raw {
		if len(w) < 2 || stopwords[w] || quantifiers[w] {
			continue
		}
		s := stem(w)
		list := strings.HasSuffix(w, "s") && s != w && !strings.HasSuffix(w, "ss")
		for j := max(0, k-2); j < k && !list; j++ {
			list = quantifiers[raw[j]] && (j == k-1 || !stopwords[raw[k-1]])
		}
		single := k > 0 && definite[raw[k-1]] || k+1 < len(raw) && raw[k+1][0] >= '0' && raw[k+1][0] <= '9'
		for _, t := range append([]string{s}, joined[s]...) {
			if id, ok := r.lookup(t); ok {
				if list {
					many = append(many, id)
				} else if single {
					one = append(one, id)
				}
			}
		}
	}
	return many, one
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
// stems is not inlined into the package's init (setOf says why).
//
//go:noinline
func stems(words ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words {
		m[stem(w)] = true
	}
	return m
}
