package search

import "fmt"

// Params exposes the ranking's weights to the tuning test of eval.
type Params = params

// SetParams replaces the ranking's weights and returns the previous ones.
func SetParams(np Params) Params { old := p; p = np; return old }

// CurrentParams returns the ranking's weights.
func CurrentParams() Params { return p }

// Set changes one weight of np by name.
func Set(np *Params, key string, v ...float64) {
	switch key {
	case "fieldWeights":
		copy(np.fieldWeights[:], v)
	case "fieldB":
		copy(np.fieldB[:], v)
	case "k1":
		np.k1 = v[0]
	case "syn":
		np.synonymWeight = v[0]
	case "prefix":
		np.prefixWeight = v[0]
	case "verbPenalty":
		np.verbPenalty = v[0]
	case "specExp":
		np.specExp = v[0]
	case "spaceExp":
		np.spaceExp = v[0]
	case "unknown":
		np.unknownWeight = v[0]
	case "fullCatalog":
		np.fullCatalog = v[0]
	case "verbRelief":
		np.verbRelief = v[0] != 0
	case "minCoverage":
		np.minCoverage = v[0]
	case "firstUnknownCov":
		np.minCoverageFirstUnknown = v[0]
	case "question":
		np.questionVerbs = v[0] != 0
	case "clause":
		np.clauseWeight = v[0]
	case "dict":
		np.dictWeight = v[0]
	case "general":
		np.generalWeight = v[0]
	case "generalCover":
		np.generalCover = v[0]
	case "derived":
		np.derivedWeight = v[0]
	case "compound":
		np.compoundWeight = v[0]
	case "valueUnknown":
		np.valueUnknown = v[0]
	case "light":
		np.lightVerbs = v[0] != 0
	case "time":
		np.timeWords = v[0] != 0
	case "readPenalty":
		np.readPenalty = v[0]
	case "weakWeight":
		np.weakWeight = v[0]
	default:
		panic(fmt.Sprint("no param ", key))
	}
}

// SynonymGroups returns the vocabulary's groups.
func SynonymGroups() [][]string { return synonymGroups }

// SetSynonymGroups replaces the vocabulary.
func SetSynonymGroups(g [][]string) {
	handSynonyms() // its Once done, so that it keeps what is set here
	synonymGroups, synonymsBuilt = g, buildSynonyms(g)
}

// SetFusion sets the semantic weight and the fusion constant.
func SetFusion(w, k float64) { DefaultSemanticWeight, fusionK = w, k }

// Phrases returns the vocabulary's phrases as pairs.
func Phrases() [][2]string {
	var out [][2]string
	for _, p := range phrases {
		out = append(out, [2]string{p.phrase, p.means})
	}
	return out
}

// SetPhrases replaces the phrases.
func SetPhrases(ps [][2]string) {
	phrases = phrases[:0:0]
	for _, p := range ps {
		phrases = append(phrases, phraseMeaning{p[0], p[1]})
	}
}

// GeneralNames returns the names of the general vocabulary's groups (their
// first words) and the texts of its phrases, for leaving them out one at a
// time.
func GeneralNames() (groups, phrases []string) {
	for _, g := range generalGroups(generalGroupsText) {
		groups = append(groups, g[0])
	}
	for _, ph := range generalPhrases(generalPhrasesText) {
		phrases = append(phrases, ph.phrase)
	}
	return groups, phrases
}

// SetGeneralOff rebuilds the general vocabulary without the groups and
// phrases named in off.
func SetGeneralOff(off map[string]bool) {
	var gs [][]string
	for _, g := range generalGroups(generalGroupsText) {
		if !off[g[0]] {
			gs = append(gs, g)
		}
	}
	var ps []phraseMeaning
	for _, ph := range generalPhrases(generalPhrasesText) {
		if !off[ph.phrase] {
			ps = append(ps, ph)
		}
	}
	v := buildGeneral(gs, ps)
	general = func() generalVocab { return v }
}

// EmptyDictionary empties the term dictionary, as a new process starts,
// and returns the function that puts it back. Every Doc made before
// refers to ids it no longer has: for benchmarks.
func EmptyDictionary() (restore func()) {
	w := dict.writer()
	saved := struct {
		ids, words     map[string]uint32
		terms          []string
		sorted         []uint32
		texts          map[string][]uint32
		cachedIDs      int
		scratch, order []uint32
	}{w.ids, w.words, w.terms, w.sorted, w.texts, w.cachedIDs, w.scratch, w.sortBuf}
	w.ids, w.words, w.terms, w.sorted, w.texts, w.cachedIDs = map[string]uint32{}, nil, nil, nil, nil, 0
	w.done()
	return func() {
		w := dict.writer()
		w.ids, w.words, w.terms, w.sorted, w.texts, w.cachedIDs, w.scratch, w.sortBuf = saved.ids, saved.words, saved.terms, saved.sorted, saved.texts, saved.cachedIDs, saved.scratch, saved.order
		w.done()
	}
}
