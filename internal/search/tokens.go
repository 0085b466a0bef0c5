package search

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokenize splits text into lowercase stems: on anything that is not a letter
// or digit, at camelCase humps ("getOrderById" -> get order by id,
// "HTTPServer" -> http server) and between letters and digits; stopwords
// and one-letter words are dropped.
func tokenize(text string) []string {
	return appendTokens(nil, text)
}

func appendTokens(out []string, text string) []string {
	splitWords(text, func(w string) {
		if len(w) < 2 {
			return
		}
		s := strings.ToLower(w)
		if stopwords[s] {
			return
		}
		out = append(out, stem(s))
	})
	return out
}

// splitWords calls emit with each word of text: runs of letters or digits,
// split at camelCase humps and between letters and digits.
func splitWords(text string, emit func(string)) {
	// ASCII, most text: the same rules on bytes, each byte's class read
	// from a table (registering a catalog splits a few hundred KB of
	// descriptions; comparing ranges was a fifth of building its index
	// under WebAssembly). Words before the first non-ASCII byte are
	// emitted as found; the rest of the text from the word that byte is
	// in goes to the Unicode rules.
	start := -1
	for i := 0; i < len(text); i++ {
		k := byteClass[text[i]]
		switch {
		case k == classOther:
			if start >= 0 {
				emit(text[start:i])
				start = -1
			}
		case k == classHigh:
			from := i
			if start >= 0 {
				from = start
			}
			splitWordsUnicode(text[from:], emit)
			return
		case start < 0:
			start = i
		default:
			// Within a word the previous byte is its previous letter or digit.
			p := byteClass[text[i-1]]
			if p == k && k != classUpper {
				continue
			}
			split := p == classLower && k == classUpper || (p == classDigit) != (k == classDigit)
			if !split && p == classUpper && k == classUpper && i+1 < len(text) && byteClass[text[i+1]] == classLower {
				split = true
			}
			if split {
				emit(text[start:i])
				start = i
			}
		}
	}
	if start >= 0 {
		emit(text[start:])
	}
}

// The classes of bytes splitWords tells apart.
const (
	classOther = iota
	classLower
	classUpper
	classDigit
	classHigh // not ASCII
)

var byteClass = byteClasses()

// byteClasses is not inlined into the package's init (setOf says why).
//
//go:noinline
func byteClasses() (t [256]uint8) {
	for c := range t {
		switch {
		case 'a' <= c && c <= 'z':
			t[c] = classLower
		case 'A' <= c && c <= 'Z':
			t[c] = classUpper
		case '0' <= c && c <= '9':
			t[c] = classDigit
		case c >= utf8.RuneSelf:
			t[c] = classHigh
		}
	}
	return t
}

func splitWordsUnicode(text string, emit func(string)) {
	start := -1
	var prev rune
	for i, r := range text {
		isWord := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !isWord {
			if start >= 0 {
				emit(text[start:i])
				start = -1
			}
			prev = r
			continue
		}
		if start < 0 {
			start = i
			prev = r
			continue
		}
		split := unicode.IsLower(prev) && unicode.IsUpper(r) ||
			unicode.IsLetter(prev) != unicode.IsLetter(r)
		if !split && unicode.IsUpper(prev) && unicode.IsUpper(r) {
			// "HTTPServer": split before the last capital of a run.
			if next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):]); unicode.IsLower(next) {
				split = true
			}
		}
		if split {
			emit(text[start:i])
			start = i
		}
		prev = r
	}
	if start >= 0 {
		emit(text[start:])
	}
}

// KeyWords returns the n words that a namespace's tool names (without the
// namespace) use most, leaving out actions (get, list, create, ...), the
// namespace's own words and filler: "comments, labels, milestones" for
// GitHub's issues.
func KeyWords(namespace string, names []string, n int) []string {
	own := NamespaceWords(namespace)
	var t WordTally
	for _, name := range names {
		t.Add(NameWords(own, name), 1)
	}
	return t.Top(n)
}

// NamespaceWords is the stems of a namespace's name, which say nothing
// about its tools (NameWords leaves them out).
func NamespaceWords(namespace string) []string {
	return tokenize(namespace)
}

// NameWord is a word of a tool's name that KeyWords counts: its stem, which
// is what is counted, and the word in lower case, which is what is shown.
type NameWord struct{ Stem, Word string }

// NameWords is what KeyWords counts of one tool's name (without its
// namespace, whose NamespaceWords are own), each stem once. It depends on
// that name alone, so a caller can keep it with the tool and count a
// namespace's words again when its tools change, without splitting every
// name again.
func NameWords(own []string, name string) []NameWord {
	// The words in lower case are cut from the name's lower case when
	// that keeps the offsets (ASCII): one string for the name, not one
	// for each capitalised word.
	lower := ""
	if isASCII(name) {
		lower = strings.ToLower(name)
	}
	var kept [8]NameWord
	out, at := kept[:0], 0
	splitWords(name, func(w string) {
		// Words come in order, separated by what no word holds: the next
		// one is the first match after the last.
		at += strings.Index(name[at:], w)
		lw := ""
		if lower != "" {
			lw = lower[at : at+len(w)]
		} else {
			lw = strings.ToLower(w)
		}
		at += len(w)
		if len(lw) < 3 || !isASCIILetters(lw) || stopwords[lw] || nameNoise[lw] {
			return
		}
		st := stem(lw)
		if slices.Contains(own, st) || verbClasses[st] != 0 {
			return
		}
		for _, o := range out {
			if o.Stem == st {
				return
			}
		}
		out = append(out, NameWord{Stem: st, Word: lw})
	})
	if len(out) == 0 {
		return nil
	}
	return slices.Clone(out)
}

// WordTally counts the words of a namespace's names as NameWords gives
// them, names coming (Add(words, 1)) and going (Add(words, -1)): a
// registry keeps one a namespace as tools are registered and removed, so
// that its summary needs no pass over every tool. Its zero value is
// empty.
type WordTally struct {
	stems []stemCount
	index map[string]int
}

type written struct {
	word string
	n    int
}

type stemCount struct {
	stem string
	n    int
	// How the stem is written: one way mostly, so the others apart, and
	// a stem costs no allocation of its own.
	first  written
	others []written
}

// Add counts one name's words (NameWords) d times: 1 for a name added,
// -1 for one removed that was added before.
func (t *WordTally) Add(words []NameWord, d int) {
	if t.index == nil {
		t.index = map[string]int{}
	}
	for _, w := range words {
		i, ok := t.index[w.Stem]
		if !ok {
			i = len(t.stems)
			t.index[w.Stem] = i
			t.stems = append(t.stems, stemCount{stem: w.Stem, first: written{word: w.Word}})
		}
		s := &t.stems[i]
		s.n += d
		if s.first.word == w.Word {
			s.first.n += d
			continue
		}
		j := 0
		for j < len(s.others) && s.others[j].word != w.Word {
			j++
		}
		if j == len(s.others) {
			s.others = append(s.others, written{word: w.Word})
		}
		s.others[j].n += d
	}
}

// Top is KeyWords of the names counted: the n stems most of them have
// (ties by stem), each shown as the word most of them write (ties by
// word). A stem whose names all went counts for none.
func (t *WordTally) Top(n int) []string {
	// The first n in order, picked rather than sorted: a namespace has
	// hundreds of stems, and sorting them all was half of this in
	// WebAssembly.
	before := func(a, b *stemCount) bool {
		return a.n > b.n || a.n == b.n && a.stem < b.stem
	}
	top := make([]*stemCount, 0, n)
	for i := range t.stems {
		s := &t.stems[i]
		if s.n <= 0 || len(top) == n && (n == 0 || !before(s, top[n-1])) {
			continue
		}
		if len(top) < n {
			top = append(top, nil)
		}
		j := len(top) - 1
		for j > 0 && before(s, top[j-1]) {
			top[j] = top[j-1]
			j--
		}
		top[j] = s
	}
	var out []string
	for _, s := range top {
		best := s.first
		for _, w := range s.others {
			if w.n > best.n || w.n == best.n && w.word < best.word {
				best = w
			}
		}
		out = append(out, best.word)
	}
	return out
}

// stem is a deliberately small suffix stripper: plurals, -ing and -ed, then a
// final "e", so that price/prices/pricing/priced all become "pric". It only
// has to map a word and its inflections to the same key, not to produce
// real words. A final s after u, i or s is the word's own (status,
// analysis, address), as in -ias (alias), but not after a (quotas, schemas).
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
	case strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") || strings.HasSuffix(w, "is") || strings.HasSuffix(w, "ias"):
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

// twoLetterPlural is the singular of the plural of a two-letter noun as a
// name writes it in small letters or as a hump ("floating_ips",
// "postFloatingIps", "getCommentsByIds"), which the stemmer keeps as a word
// of its own that meets neither "IP" nor "ID". A list, not a rule: most
// three-letter words ending in s are initialisms whose S is a word of their
// own (DNS, SMS, TLS, CMS, QoS, POS, MMS), and cut to two letters some would
// meet another word ("mms" the "MM" of a date format, "pos" a "PO"). These
// are the plurals of the two-letter nouns of the general vocabulary and the
// catalogs: identifiers, IP addresses, virtual machines, databases, pull
// requests, ads. Names only (NewDocFromText): a property's "floating_ips"
// or a description's "ids" is a passing mention, and given the singular
// it outranked the tools named after the thing (search34's measure).
func twoLetterPlural(w string) string {
	switch w {
	case "ids", "ips", "vms", "dbs", "prs", "ads":
		return w[:2]
	}
	return w
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

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
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
	"want", "need", "given", "via", "per", "also", "than", "then", "just", "up", "am", "as",
	"someone", "something", "one", "out", "only", "still", "s",
	// filler of spoken requests: says nothing about which tool
	"right", "now", "already", "anymore", "longer", "again", "really", "actually", "currently",
	"maybe", "mistake", "don", "t",
	// what is left of a contraction once split at its apostrophe
	// ("isn't working", "I've sent"): it would count as a word no tool holds
	"isn", "aren", "wasn", "weren", "doesn", "didn", "hasn", "haven", "hadn", "couldn", "wouldn",
	"shouldn", "mustn", "needn", "ain", "ve", "ll", "re",
	// and the long form of that "t", so "does not work" asks what
	// "doesn't work" asks
	"not",
)

// setOf is not inlined: the package's init calls it for a dozen sets, and
// each inlined loop was a loop of the init function, which under
// WebAssembly V8 charges by that function's size at every pass (Go's wasm
// backend compiles a loop's jump back as a jump to the start of the
// function-wide loop): the init ran hot enough to be recompiled by
// TurboFan (8.6 KB of body) in every cold start, for code run once.
//
//go:noinline
func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
