package jsoncut

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

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
