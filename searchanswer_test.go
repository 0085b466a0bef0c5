package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interopio/code-mode/internal/trunc"
)

// wideTool is a tool whose hit is long: a description of desc bytes and an
// input schema of props described properties.
func wideTool(name string, desc, props int) Tool {
	var ps []string
	for i := range props {
		ps = append(ps, fmt.Sprintf(`"field%d":{"type":"string","description":"what field %d of the report holds, in detail"}`, i, i))
	}
	return Tool{Name: name, Description: "Report on " + name + ". " + strings.Repeat("long words of prose ", desc/20),
		InputSchema: json.RawMessage(`{"type":"object","properties":{` + strings.Join(ps, ",") + `}}`), Execute: noopToolExecute}
}

// TestSearchAnswerBudget: searchTools' whole answer stays within its budget
// (searchAnswerChars): long hits are cut first (their descriptions, then
// signatures), then the worst-ranked hits are left out, and the last hit's
// note says which; an answer that fits is the hits as they are.
func TestSearchAnswerBudget(t *testing.T) {
	var thousand []Tool
	for i := range 1000 {
		thousand = append(thousand, wideTool(fmt.Sprintf("reports.r%04d", i), 8000, 150))
	}
	var ten []Tool
	for i := range 10 {
		ten = append(ten, wideTool(fmt.Sprintf("ten.t%d", i), 7000, 12))
	}
	mixed := []Tool{wideTool("mix.huge1", 8000, 800), wideTool("mix.huge2", 8000, 800)}
	for i := range 8 {
		mixed = append(mixed, wideTool(fmt.Sprintf("mix.small%d", i), 100, 2))
	}
	for _, tc := range []struct {
		name         string
		tools        []Tool
		req          SearchRequest
		hits         int    // hits in the answer
		note         string // "" for none; else a part of it
		whole, wcut  int    // hits left whole, hits cut
		beforeBudget int    // the hits' JSON without a budget, at least
	}{
		{"an answer that fits is whole", ten[:3], SearchRequest{Query: "report", Limit: 3}, 3, "", 3, 0, 20000},
		{"ten long hits are cut, none left out", ten, SearchRequest{Query: "report", Limit: 10}, 10, "10 of these hits are shortened (a description or signature ending in …); ask for fewer", 0, 10, 80000},
		{"short hits stay whole beside a huge one", mixed, SearchRequest{Query: "report", Limit: 10}, 10, "2 of these hits are shortened", 8, 2, 60000},
		{"1,000 long tools, limit 50: fewer hits, said", thousand, SearchRequest{Query: "report", Limit: 50}, -1, "more matching tools were left out", 0, -1, 1000000},
		{"1,000 long tools listed by namespace", thousand, SearchRequest{Namespace: "reports"}, -1, "more matching tools were left out", 0, -1, 1000000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cm := newTestCodeMode(t, Config{Tools: tc.tools})
			s := mustSession(t, cm)
			ranked, err := s.Search(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if before := len(encode(hitsJSON(ranked))); before < tc.beforeBudget {
				t.Fatalf("the hits' JSON is %d bytes before the budget, want a case of at least %d", before, tc.beforeBudget)
			}
			args, _ := json.Marshal(SearchToolsInput{Query: tc.req.Query, Namespace: tc.req.Namespace, Limit: tc.req.Limit})
			raw, err := s.LLMTools()[0].Execute(context.Background(), args, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(raw) > searchAnswerChars {
				t.Errorf("answer is %d bytes, budget %d", len(raw), searchAnswerChars)
			}
			var got []hitJSON
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatalf("answer is not JSON hits: %v", err)
			}
			if tc.hits >= 0 && len(got) != tc.hits || tc.hits < 0 && (len(got) < 10 || len(got) >= len(ranked)) {
				t.Fatalf("%d hits of %d ranked, want %d (-1: fewer, at least 10)", len(got), len(ranked), tc.hits)
			}
			whole, cut := 0, 0
			for i, h := range got {
				r := ranked[i]
				if h.Name != r.Name || h.Namespace != r.Namespace {
					t.Fatalf("hit %d is %s, ranked %s: the best hits are kept, in order", i, h.Name, r.Name)
				}
				switch {
				case h.Description == r.Description && h.Signature == r.Signature:
					whole++
				case isCutOf(h.Description, r.Description) && isCutOf(h.Signature, r.Signature):
					cut++
					if len(h.Description) < min(len(r.Description), cutDescriptionMin/2) || len(h.Signature) < min(len(r.Signature), cutSignatureMin-len(trunc.Mark)) {
						t.Errorf("hit %d cut below the floors: description %d, signature %d bytes", i, len(h.Description), len(h.Signature))
					}
				default:
					t.Fatalf("hit %d is neither whole nor a cut of its tool's text:\n%q\n%q", i, h.Description, h.Signature)
				}
				if h.Note != "" && i != len(got)-1 {
					t.Errorf("hit %d (not the last) has a note", i)
				}
			}
			if whole != tc.whole || tc.wcut >= 0 && cut != tc.wcut {
				t.Errorf("%d hits whole and %d cut, want %d and %d (-1: any)", whole, cut, tc.whole, tc.wcut)
			}
			note := got[len(got)-1].Note
			if tc.note == "" && note != "" || !strings.Contains(note, tc.note) {
				t.Errorf("note %q, want one with %q", note, tc.note)
			}
			if tc.hits < 0 && !strings.Contains(note, fmt.Sprintf(" %d more matching tools were left out", len(ranked)-len(got))) {
				t.Errorf("note %q does not count the %d left out", note, len(ranked)-len(got))
			}
		})
	}
}

// isCutOf: cut is whole, or a prefix of it ended by trunc.Mark.
func isCutOf(cut, whole string) bool {
	if cut == whole {
		return true
	}
	p, ok := strings.CutSuffix(cut, trunc.Mark)
	return ok && strings.HasPrefix(whole, p) && len(p) < len(whole)
}

// TestSearchAnswerRealCatalogs: the budget leaves every answer of the
// default limit whole in the evaluation's real catalogs (77, up to 845
// tools), for queries that match many tools.
func TestSearchAnswerRealCatalogs(t *testing.T) {
	files, err := filepath.Glob("internal/search/eval/testdata/*.catalog.json")
	if err != nil || len(files) < 30 {
		t.Fatalf("%d catalogs: %v", len(files), err)
	}
	cm := &CodeMode{}
	largest := 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cat struct {
			Tools []Tool `json:"tools"`
		}
		if err := json.Unmarshal(raw, &cat); err != nil {
			t.Fatal(err)
		}
		r := newRegistry()
		for i := range cat.Tools {
			cat.Tools[i].Execute = noopToolExecute
		}
		if _, err := r.add(cat.Tools...); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		entries := r.snapshot()
		for _, q := range []string{"create", "list", "get", "delete", "update", "search"} {
			hits := cm.search(context.Background(), entries, SearchRequest{Query: q}, (*toolEntry).signature)
			whole := encode(hitsJSON(hits))
			largest = max(largest, len(whole))
			if got := searchAnswer(hits, searchAnswerChars); string(got) != string(whole) {
				t.Errorf("%s %q: the answer of %d bytes was cut", filepath.Base(f), q, len(whole))
			}
		}
	}
	t.Logf("largest answer of 10 hits: %d bytes", largest)
}
