package eval

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// wordvecBin is the table wordvec.mjs generates from general English word
// vectors and the words of public APIs other than the evaluation's.
//
//go:embed testdata/wordvec.bin
var wordvecBin []byte

// WordVec embeds a text as the idf-weighted mean of its words' vectors:
// general word vectors (GloVe, 100 dimensions) place picture near photo
// and money near payment, which neither the lexical ranking nor HashEmbed
// can know. It is a small real embedder, not a sentence model: it ignores
// word order and negation.
//
// The design was chosen on the tune split (semantic ranking alone, then
// fused): the words of a tool's name (the text's first line) weigh
// twice, only the first descriptionWords words of the description count
// (the rest dilutes the mean), and the table's mean vector is taken from
// each word's, so that the similarity of two texts is not mostly what
// every English text shares. web/src/wordvectors.mjs does the same.
type WordVec struct {
	dims  int
	words []string // sorted
	idf   []float32
	vecs  [][]float32 // unit length, minus mean
}

const (
	// idfScale is the scale of the stored idf bytes (wordvec.mjs).
	idfScale = 40
	// nameWeight is the weight of a word of the first line.
	nameWeight = 2
	// descriptionWords is how many words after the first line count.
	descriptionWords = 10
)

// WordVecWeight and WordVecMinSimilarity are the fusion settings chosen for
// WordVec on the tune split (the semantic rank's weight, and the cosine a
// tool needs to be found on semantic grounds alone).
const (
	WordVecWeight        = 0.3
	WordVecMinSimilarity = 0.8
)

// WordVecEmbed is the word-vector embedder of testdata/wordvec.bin.
var WordVecEmbed = sync.OnceValue(func() *WordVec {
	w, err := ParseWordVec(wordvecBin)
	if err != nil {
		panic(err)
	}
	return w
})

// ParseWordVec reads a table in wordvec.mjs's format.
func ParseWordVec(raw []byte) (*WordVec, error) {
	if len(raw) < 14 || string(raw[:4]) != "WVEC" || raw[4] != 1 {
		return nil, errors.New("wordvec: not a version 1 table")
	}
	dims := int(raw[5])
	n := int(binary.LittleEndian.Uint32(raw[6:]))
	tl := int(binary.LittleEndian.Uint32(raw[10:]))
	if len(raw) != 14+tl+n+n*dims {
		return nil, fmt.Errorf("wordvec: %d bytes, want %d", len(raw), 14+tl+n+n*dims)
	}
	words := strings.Split(string(raw[14:14+tl]), "\n")
	if len(words) != n || !sort.StringsAreSorted(words) {
		return nil, fmt.Errorf("wordvec: %d words (sorted: %v), want %d sorted", len(words), sort.StringsAreSorted(words), n)
	}
	w := &WordVec{dims: dims, words: words, idf: make([]float32, n), vecs: make([][]float32, n)}
	idf := raw[14+tl : 14+tl+n]
	comps := raw[14+tl+n:]
	mean := make([]float32, dims)
	for i := range n {
		w.idf[i] = float32(idf[i]) / idfScale
		v := make([]float32, dims)
		var norm float64
		for d := range dims {
			x := float32(int8(comps[i*dims+d]))
			v[d] = x
			norm += float64(x) * float64(x)
		}
		s := float32(1 / math.Sqrt(norm))
		for d := range v {
			v[d] *= s
			mean[d] += v[d] / float32(n)
		}
		w.vecs[i] = v
	}
	for _, v := range w.vecs {
		for d := range v {
			v[d] -= mean[d]
		}
	}
	return w, nil
}

// lookup finds a word, or its singular.
func (w *WordVec) lookup(word string) int {
	try := func(s string) int {
		i := sort.SearchStrings(w.words, s)
		if i < len(w.words) && w.words[i] == s {
			return i
		}
		return -1
	}
	if i := try(word); i >= 0 {
		return i
	}
	for _, r := range [][2]string{{"ies", "y"}, {"es", ""}, {"s", ""}} {
		if strings.HasSuffix(word, r[0]) && len(word) > len(r[0])+2 {
			if i := try(strings.TrimSuffix(word, r[0]) + r[1]); i >= 0 {
				return i
			}
		}
	}
	return -1
}

// Embed returns the unit-length vector of text (all zeros when no word of
// it is in the table).
func (w *WordVec) Embed(text string) []float32 {
	out := make([]float32, w.dims)
	first, rest, _ := strings.Cut(text, "\n")
	for li, line := range []string{first, rest} {
		ws := camelWords(line, false, true)
		if li == 1 && len(ws) > descriptionWords {
			ws = ws[:descriptionWords]
		}
		for _, word := range ws {
			i := w.lookup(word)
			if i < 0 {
				continue
			}
			wt := w.idf[i]
			if li == 0 {
				wt *= nameWeight
			}
			for d, x := range w.vecs[i] {
				out[d] += wt * x
			}
		}
	}
	return unit(out)
}

// camelWords splits text into lowercase words of two characters or more:
// runs of letters (and digits, if digits), split where a lowercase letter
// is followed by an uppercase one, and, if acronyms, before the last
// capital of a run followed by a lowercase letter ("USBDevices" is usb,
// devices).
func camelWords(text string, digits, acronyms bool) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 1 {
			words = append(words, strings.ToLower(string(cur)))
		}
		cur = cur[:0]
	}
	rs := []rune(text)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !(digits && unicode.IsDigit(r)):
			flush()
		case i > 0 && unicode.IsUpper(r) && unicode.IsLower(rs[i-1]),
			acronyms && i > 0 && unicode.IsUpper(r) && unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}
