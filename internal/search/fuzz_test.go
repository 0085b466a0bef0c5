package search

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/interopio/code-mode/internal/jsondec"
)

// tokenizerSeeds are texts of TestSearchTokenize and of the Unicode a
// model or a catalog writes: humps, digits, scripts without case, marks,
// invalid UTF-8.
var tokenizerSeeds = []string{
	"getOrderById", "HTTPServer listing", "v2Orders list_all-items", "floating_ips", "e-mail re-open to-do",
	"Über Straße ÉTÉ İstanbul", "注文を検索する", "ΣΊΣΥΦΟΣ όνομα", "a\u0301b\u0308c", "emoji 😀 order 🇫🇷",
	"x\xffy\xc3", "ABCdefGHI", "ǅungla ǈ", "٣٤٥ orders", "don't isn't I've", strings.Repeat("Ab", 50),
}

// FuzzTokenize: splitWords's ASCII path reads as its Unicode rules do (it
// promises the same rules on bytes), its words are text's runs of letters
// and digits, in order, and each splits again into itself alone; tokenize
// gives the same tokens each time, one per word at most.
func FuzzTokenize(f *testing.F) {
	for _, s := range tokenizerSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var fast, slow []string
		splitWords(text, func(w string) { fast = append(fast, w) })
		splitWordsUnicode(text, func(w string) { slow = append(slow, w) })
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("splitWords(%q) = %q, the Unicode rules give %q", text, fast, slow)
		}
		at := 0
		for _, w := range fast {
			i := strings.Index(text[at:], w)
			if w == "" || i < 0 {
				t.Fatalf("splitWords(%q): word %q is not in what follows the one before", text, w)
			}
			at += i + len(w)
			for _, r := range w {
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					t.Fatalf("splitWords(%q): word %q holds %q", text, w, r)
				}
			}
			var again []string
			splitWords(w, func(x string) { again = append(again, x) })
			if len(again) != 1 || again[0] != w {
				t.Fatalf("splitWords(%q): word %q splits again into %q", text, w, again)
			}
		}
		toks := tokenize(text)
		if !reflect.DeepEqual(toks, tokenize(text)) || len(toks) > len(fast) {
			t.Fatalf("tokenize(%q) = %q, from the words %q", text, toks, fast)
		}
		for _, tok := range toks {
			if tok == "" || utf8.ValidString(text) && !utf8.ValidString(tok) {
				t.Fatalf("tokenize(%q): token %q", text, tok)
			}
		}
	})
}

// FuzzReadSchema: the index's reader of a schema's text refuses exactly
// the text jsondec.Decode refuses, and what it reads is the same each
// time, within maxEnumValues of each enum.
func FuzzReadSchema(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"status":{"type":"string","enum":["open","shipped"],"description":"Order status."},"limit":{"type":"integer"}},"required":["limit","nope"]}`,
		`{"properties":{"a":{"properties":{"b":{"properties":{"c":{"properties":{"d":{"properties":{"e":{"description":"deep"}}}}}}}}}}}`,
		`{"properties":{"a":{},"a":{}},"enum":[1],"enum":["x"]}`, `{"anyOf":[{"description":"x"},{"items":{"enum":["y",null,{}]}}]}`,
		`{"properties":{"tags":{"type":"array"},"id":{"type":"string"}},"required":["tags","id"]}`, `true`, `[]`, `{"a":`, `{"\u00e9":"\ud800"}`,
	} {
		f.Add([]byte(s))
	}
	var x SchemaReader
	f.Fuzz(func(t *testing.T, text []byte) {
		s, err := ReadSchema(text)
		_, derr := jsondec.Decode(text, jsondec.Options{})
		if (err != nil) != (derr != nil) {
			t.Fatalf("ReadSchema(%q): %v, jsondec.Decode: %v", text, err, derr)
		}
		s2, err2 := x.Read(text, func(k string) bool { return k == "type" })
		if (err2 != nil) != (err != nil) || err == nil && (!reflect.DeepEqual(s.texts, s2.texts) || !reflect.DeepEqual(s.required, s2.required)) {
			t.Fatalf("ReadSchema(%q) = %q, %v; a reader used before: %q, %v", text, s.texts, err, s2.texts, err2)
		}
		if n := len(s.texts); n > len(text) {
			t.Fatalf("ReadSchema(%q): %d texts", text, n)
		}
	})
}

// FuzzRank: any query, on the test catalog, ranks without a panic, within
// the limit (DefaultLimit for none, MaxLimit at most), each tool once,
// with finite scores, the same each time.
func FuzzRank(f *testing.F) {
	for i, s := range append(tokenizerSeeds, "refund an order", "tools.*", "orders.", "list all customers", "who am I?", "money back, please", "", "issue 42 \"Q3 Launch\"") {
		f.Add(s, i%60-5)
	}
	c := loadTestCatalog(f)
	f.Fuzz(func(t *testing.T, query string, limit int) {
		hits := Rank(c.docs, query, limit)
		want := min(MaxLimit, limit)
		if limit <= 0 {
			want = DefaultLimit
		}
		if len(hits) > want {
			t.Fatalf("Rank(%q, %d): %d hits", query, limit, len(hits))
		}
		seen := map[int]bool{}
		for _, h := range hits {
			if h.Index < 0 || h.Index >= len(c.docs) || math.IsNaN(h.Score) || math.IsInf(h.Score, 0) {
				t.Fatalf("Rank(%q, %d): hit %+v", query, limit, h)
			}
			if seen[h.Index] {
				t.Fatalf("Rank(%q, %d): %s twice", query, limit, c.docs[h.Index].name)
			}
			seen[h.Index] = true
		}
		if again := Rank(c.docs, query, limit); !reflect.DeepEqual(hits, again) {
			t.Fatalf("Rank(%q, %d) = %v, then %v", query, limit, hits, again)
		}
	})
}
