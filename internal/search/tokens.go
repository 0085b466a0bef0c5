package search

import (
	"sort"
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
	// ASCII, most text: the same rules on bytes. Words before the first
	// non-ASCII byte are emitted as found; the rest of the text from the
	// word that byte is in goes to the Unicode rules.
	start := -1
	var prev byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= utf8.RuneSelf {
			from := i
			if start >= 0 {
				from = start
			}
			splitWordsUnicode(text[from:], emit)
			return
		}
		lower, upper, digit := 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9'
		if !lower && !upper && !digit {
			if start >= 0 {
				emit(text[start:i])
				start = -1
			}
			prev = c
			continue
		}
		if start < 0 {
			start = i
			prev = c
			continue
		}
		prevLower, prevUpper := 'a' <= prev && prev <= 'z', 'A' <= prev && prev <= 'Z'
		split := prevLower && upper || (prevLower || prevUpper) == digit
		if !split && prevUpper && upper && i+1 < len(text) && 'a' <= text[i+1] && text[i+1] <= 'z' {
			split = true
		}
		if split {
			emit(text[start:i])
			start = i
		}
		prev = c
	}
	if start >= 0 {
		emit(text[start:])
	}
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
	own := map[string]bool{}
	for _, t := range tokenize(namespace) {
		own[t] = true
	}
	count := map[string]int{}
	surface := map[string]map[string]int{}
	for _, name := range names {
		seen := map[string]bool{}
		splitWords(name, func(w string) {
			lw := strings.ToLower(w)
			if len(lw) < 3 || stopwords[lw] || nameNoise[lw] || !isASCIILetters(lw) {
				return
			}
			st := stem(lw)
			if own[st] || verbClasses[st] != 0 || seen[st] {
				return
			}
			seen[st] = true
			count[st]++
			if surface[st] == nil {
				surface[st] = map[string]int{}
			}
			surface[st][lw]++
		})
	}
	stems := make([]string, 0, len(count))
	for st := range count {
		stems = append(stems, st)
	}
	sort.Slice(stems, func(i, j int) bool {
		a, b := stems[i], stems[j]
		if count[a] != count[b] {
			return count[a] > count[b]
		}
		return a < b
	})
	var out []string
	for _, st := range stems[:min(n, len(stems))] {
		best, bestN := "", 0
		for w, c := range surface[st] {
			if c > bestN || c == bestN && w < best {
				best, bestN = w, c
			}
		}
		out = append(out, best)
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

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
