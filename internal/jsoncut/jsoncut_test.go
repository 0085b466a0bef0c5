package jsoncut

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestMoreChars: the marker of a string cut short counts in the singular
// for one character; it said "… [1 more characters]".
func TestMoreChars(t *testing.T) {
	for n, want := range map[int]string{1: "… [1 more character]", 2: "… [2 more characters]", 99872: "… [99872 more characters]"} {
		if got := MoreChars(n); got != want {
			t.Errorf("MoreChars(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCut(t *testing.T) {
	rows := make([]map[string]any, 200)
	for i := range rows {
		rows[i] = map[string]any{"id": i, "name": fmt.Sprintf("order %d", i), "total": 10.5}
	}
	wide := map[string]int{}
	for i := range 300 {
		wide[fmt.Sprintf("k%03d", i)] = i
	}
	for _, tc := range []struct {
		name   string
		doc    any
		budget int
		want   []string // substrings of the cut document
		first  string   // its prefix
	}{
		{"array of rows", rows, 1000, []string{`more items"]`}, `[{"id":0,"name":"order 0","total":10.5},`},
		{"rows under a key", map[string]any{"count": 200, "rows": rows}, 600, []string{`"count":200`, `more items"]`}, `{"count":200,"rows":[{"id":0,`},
		{"wide object", wide, 400, []string{`"…":"`, `more keys"}`}, `{"k000":0,`},
		{"long string", strings.Repeat("é", 5000), 300, []string{`… [`, `more characters]"`}, `"éé`},
		{"nested strings", map[string]any{"a": strings.Repeat("x", 3000), "b": []string{strings.Repeat("y", 3000)}}, 500, []string{`"a":"xx`, `"b":["yy`}, `{"a":"`},
		{"deep", []any{[]any{[]any{rows}}}, 300, []string{`more item`}, `[[[[`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, _ := json.Marshal(tc.doc)
			out, cut := Cut(doc, tc.budget)
			if !cut {
				t.Fatalf("not cut (%d bytes, budget %d)", len(doc), tc.budget)
			}
			if len(out) > tc.budget {
				t.Errorf("%d bytes, over the %d budget", len(out), tc.budget)
			}
			if !json.Valid(out) {
				t.Fatalf("not JSON: %s", out)
			}
			if len(out) < tc.budget/3 {
				t.Errorf("only %d of %d bytes used: %s", len(out), tc.budget, out)
			}
			var orig, got any
			json.Unmarshal(doc, &orig)
			json.Unmarshal(out, &got)
			if fmt.Sprintf("%T", orig) != fmt.Sprintf("%T", got) {
				t.Errorf("shape changed: %T -> %T", orig, got)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("missing %s in %s", w, out)
				}
			}
			if !strings.HasPrefix(string(out), tc.first) {
				t.Errorf("got %.80s..., want prefix %s", out, tc.first)
			}
		})
	}
}

func TestCutCountsWhatIsLeftOut(t *testing.T) {
	doc, _ := json.Marshal([]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40})
	out, _ := Cut(doc, 50)
	var got []any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	kept := len(got) - 1
	if want := fmt.Sprintf("… %d more items", 40-kept); got[kept] != want {
		t.Errorf("marker %v, want %q (%s)", got[kept], want, out)
	}
}

func TestCutLeavesSmallAndInvalidAlone(t *testing.T) {
	for _, doc := range []string{`[1,2,3]`, `{not json` + strings.Repeat(" ", 200)} {
		if out, cut := Cut([]byte(doc), 100); cut || string(out) != doc {
			t.Errorf("%q: changed to %q", doc, out)
		}
	}
}

// refParse is the parser Cut had before its scanner: encoding/json's
// tokens, every entry kept. Cut must cut as it did.
func refParse(t *testing.T, doc []byte) *node {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var value func() *node
	value = func() *node {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		switch v := tok.(type) {
		case json.Delim:
			n := &node{kind: array}
			if v == '{' {
				n.kind = object
			}
			for dec.More() {
				if n.kind == object {
					k, _ := dec.Token()
					n.keys = append(n.keys, k.(string))
				}
				n.elems = append(n.elems, value())
			}
			dec.Token()
			n.len = len(n.elems)
			return n
		case string:
			return &node{kind: str, raw: []byte(v), len: len(v)}
		case json.Number:
			return &node{kind: scalar, raw: []byte(v.String())}
		case bool:
			return &node{kind: scalar, raw: []byte(strconv.FormatBool(v))}
		default:
			return &node{kind: scalar, raw: []byte("null")}
		}
	}
	return value()
}

// randomValue makes a value of at most about *room entries in all.
func randomValue(r *rand.Rand, depth int, room *int) any {
	*room--
	switch k := r.IntN(10); {
	case k < 3 && depth < 4 && *room > 0:
		a := make([]any, min(*room, r.IntN([]int{3, 40, 400}[r.IntN(3)])))
		for i := range a {
			a[i] = randomValue(r, depth+1, room)
		}
		return a
	case k < 5 && depth < 4 && *room > 0:
		m := map[string]any{}
		for i := range min(*room, r.IntN([]int{3, 40, 300}[r.IntN(3)])) {
			m[fmt.Sprintf("k%d%s", i, []string{"", "é", "\n", "\"q\"", "😀"}[r.IntN(5)])] = randomValue(r, depth+1, room)
		}
		return m
	case k < 7:
		parts := []string{"a", "é", "😀", "\n", "\"", "\\", "\u2028", "<", "\x01", "xyz "}
		var b strings.Builder
		for range r.IntN([]int{5, 5, 5, 5, 100, 100, 3000}[r.IntN(7)]) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		return b.String()
	case k < 9:
		return []any{0, -1.5, 1e21, 12345678901, 3.25e-7}[r.IntN(5)]
	default:
		return []any{true, false, nil}[r.IntN(3)]
	}
}

func TestCutAsTheTokenParserDid(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		room := 1000
		doc, err := json.Marshal(randomValue(r, 0, &room))
		if err != nil {
			t.Fatal(err)
		}
		budget := 100 + r.IntN(3000)
		got, gotCut := Cut(doc, budget)
		want, wantCut := doc, false
		if len(doc) > budget {
			want, wantCut = cutTree(refParse(t, doc), doc, budget)
		}
		if gotCut != wantCut || !bytes.Equal(got, want) {
			t.Fatalf("doc %d (%d bytes, budget %d):\ngot  %v %s\nwant %v %s", i, len(doc), budget, gotCut, got, wantCut, want)
		}
	}
}

// Only what a cut can show is kept: the first budget+1 entries of each
// container and a budget's worth of each string, whatever the document's size.
func TestParseKeepsWhatACutCanShow(t *testing.T) {
	doc := []byte("[" + strings.Repeat(`{"s":"`+strings.Repeat("x", 5000)+`","n":[1,2,3]},`, 2000) + "1]")
	root, err := parse(doc, 100)
	if err != nil {
		t.Fatal(err)
	}
	if root.len != 2001 || len(root.elems) != 101 {
		t.Fatalf("root: len %d, kept %d; want 2001, 101", root.len, len(root.elems))
	}
	s := root.elems[0].elems[0]
	if s.len != 5000 || len(s.raw) > 105 || len(s.raw)+s.rest != 5000 {
		t.Fatalf("string: len %d, kept %d bytes, %d more characters", s.len, len(s.raw), s.rest)
	}
}

func TestCutLeavesInvalidDocumentsAlone(t *testing.T) {
	pad := strings.Repeat(" ", 200)
	for _, doc := range []string{
		`[1,]`, `{"a":1,}`, `{"a" 1}`, `[01]`, `[1 2]`, `tru`, `[1]x`, `[.5]`, `[1.]`, `[-]`, `[1e]`, `"a` + "\x01" + `"`,
		`["\q"]`, `[` + strings.Repeat(`1,`, 300) + `"\q"]`, `{"a":[1}`, `[`, `"abc`,
	} {
		if out, cut := Cut([]byte(doc+pad), 100); cut || string(out) != doc+pad {
			t.Errorf("%q: changed to %q", doc, out)
		}
	}
}

func TestUnescapeAsEncodingJSON(t *testing.T) {
	for _, q := range []string{
		`"\ud83d\ude00"`, `"\uD83D\uDE00x"`, `"\ud800"`, `"\ud800x"`, `"\ud800\u0041"`, `"\udc00\ud800"`, `"\ud83d\ud83d\ude00"`,
		`"\u00e9\n\t\"\\\/\b\f\r"`, `"a\u0000b"`, `"plain é 😀"`,
	} {
		var want string
		if err := json.Unmarshal([]byte(q), &want); err != nil {
			t.Fatal(q, err)
		}
		n, err := parse([]byte(q), 1000)
		if err != nil {
			t.Fatal(q, err)
		}
		if string(n.raw) != want || n.len != len(want) {
			t.Errorf("%s: got %q (%d bytes), want %q", q, n.raw, n.len, want)
		}
	}
}
