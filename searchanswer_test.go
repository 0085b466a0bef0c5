package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/interopio/code-mode/internal/trunc"
	"github.com/interopio/code-mode/internal/tsgen"
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
	// Long names and descriptions JSON writes six bytes a character of:
	// at the floors, fewer than 50 hits fit.
	var escaped []Tool
	for i := range 60 {
		tl := wideTool(fmt.Sprintf("reports.%s%04d", strings.Repeat("x", 110), i), 100, 150)
		tl.Description = "Report. " + strings.Repeat("\x01", 4000)
		escaped = append(escaped, tl)
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
		whole, wcut  int    // hits left whole, hits shortened
		forms        int    // of those, signatures shown in a shorter form (the others left out); -1: any
		beforeBudget int    // the hits' JSON without a budget, at least
	}{
		{"an answer that fits is whole", ten[:3], SearchRequest{Query: "report", Limit: 3}, 3, "", 3, 0, -1, 20000},
		{"ten long hits are cut, none left out", ten, SearchRequest{Query: "report", Limit: 10}, 10, "10 of these hits are shortened (a signature with less, as its comment says, or left out; a description ending in …); ask for fewer", 0, 10, 10, 80000},
		{"short hits stay whole beside two huge ones, and the room left goes to the better one", mixed, SearchRequest{Query: "report", Limit: 10}, 10, "1 of these hits is shortened", 9, 1, 1, 60000},
		{"1,000 long tools, limit 50: every hit listed", thousand, SearchRequest{Query: "report", Limit: 50}, 50, "50 of these hits are shortened", 0, 50, 1, 1000000},
		{"long names and escaped descriptions, limit 50: fewer hits, said", escaped, SearchRequest{Query: "report", Limit: 50}, -1, "more matching tools were left out", 0, -1, -1, 1000000},
		{"1,000 long tools listed by namespace", thousand, SearchRequest{Namespace: "reports"}, 50, "50 of these hits are shortened", 0, 50, 1, 1000000},
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
			whole, cut, forms, out := checkShortened(t, got, ranked, cm.visible(nil))
			if whole != tc.whole || tc.wcut >= 0 && cut != tc.wcut || tc.forms >= 0 && (forms != tc.forms || out != tc.wcut-tc.forms) {
				t.Errorf("%d hits whole and %d shortened (%d to a form, %d left out), want %d and %d (%d to a form; -1: any)", whole, cut, forms, out, tc.whole, tc.wcut, tc.forms)
			}
			for i, h := range got {
				if h.Signature != signatureLeftOut(h.Name) {
					continue
				}
				// The line's advice: the tool's name, limit 1, gives its hit
				// (whole, when one hit fits the budget).
				args, _ := json.Marshal(SearchToolsInput{Query: h.Name, Limit: 1})
				raw, err := s.LLMTools()[0].Execute(context.Background(), args, nil)
				if whole := encode(hitsJSON(ranked[i : i+1])); err != nil || len(whole) <= searchAnswerChars && string(raw) != string(whole) || !strings.HasPrefix(string(raw), `[{"name":"`+h.Name+`"`) {
					t.Fatalf("searchTools %s: %v %.300s", args, err, raw)
				}
				break
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

// checkShortened checks an answer's hits against the ranked ones: the
// best kept, in order, each whole or shortened as searchAnswer does (a
// description cut at a word, not below the floor; a signature whole, one of
// its tool's shorter forms, or the line saying how to get it: never cut
// inside the declaration), the note on the last only. It counts the hits
// whole, shortened, shown with a shorter form and with the line.
func checkShortened(t *testing.T, got []hitJSON, ranked []SearchHit, tools []*toolEntry) (whole, cut, forms, out int) {
	t.Helper()
	for i, h := range got {
		r := ranked[i]
		if h.Name != r.Name || h.Namespace != r.Namespace {
			t.Fatalf("hit %d is %s, ranked %s: the best hits are kept, in order", i, h.Name, r.Name)
		}
		if h.Note != "" && i != len(got)-1 {
			t.Errorf("hit %d (not the last) has a note", i)
		}
		if h.Description == r.Description && h.Signature == r.Signature {
			whole++
			continue
		}
		cut++
		if !isCutOf(h.Description, r.Description) || len(h.Description) < min(len(r.Description), cutDescriptionMin/2) {
			t.Errorf("hit %d's description is not its tool's, cut at a word above the floor: %q", i, h.Description)
		}
		switch {
		case h.Signature == r.Signature:
		case h.Signature == signatureLeftOut(h.Name):
			out++
		case slices.ContainsFunc(tools, func(e *toolEntry) bool {
			return e.info.Name == h.Name && slices.Contains(tsgen.Shorter(h.Name, e.tool.InputSchema, e.tool.OutputSchema), h.Signature)
		}):
			forms++
			if !strings.Contains(h.Signature, "(Shortened to fit: ") {
				t.Errorf("hit %d's shorter signature does not say what it left out", i)
			}
		default:
			t.Fatalf("hit %d's signature is neither whole, a shorter form of it nor the line: %.300q", i, h.Signature)
		}
	}
	return whole, cut, forms, out
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
// default limit whole in the evaluation's real catalogs (85, up to 845
// tools), for queries that match many tools, but two of Microsoft 365's
// MCP server (344 tools over Graph's request bodies: 10 hits of 160,464
// and 110,248 bytes), which list every hit, their signatures whole or in a
// shorter form, never cut inside the declaration.
func TestSearchAnswerRealCatalogs(t *testing.T) {
	files, err := filepath.Glob("internal/search/eval/testdata/*.catalog.json")
	if err != nil || len(files) < 30 {
		t.Fatalf("%d catalogs: %v", len(files), err)
	}
	over := map[string][2]int{ // whole hits and hits in a shorter form, of 10
		"ms365 create": {1, 9},
		"ms365 update": {5, 5},
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
			got := searchAnswer(hits, searchAnswerChars, entries)
			name := strings.TrimSuffix(filepath.Base(f), ".catalog.json") + " " + q
			want, isOver := over[name]
			delete(over, name)
			if !isOver {
				largest = max(largest, len(whole))
				if string(got) != string(whole) {
					t.Errorf("%s: the answer of %d bytes was cut", name, len(whole))
				}
				continue
			}
			var answer []hitJSON
			if err := json.Unmarshal(got, &answer); err != nil || len(got) > searchAnswerChars || len(answer) != len(hits) {
				t.Fatalf("%s: %d bytes, %d of %d hits (%v)", name, len(got), len(answer), len(hits), err)
			}
			n, _, forms, out := checkShortened(t, answer, hits, entries)
			if n != want[0] || forms != want[1] || out != 0 {
				t.Errorf("%s: of %d hits (%d bytes whole), %d whole, %d in a shorter form, %d left out; want %d, %d, 0", name, len(hits), len(whole), n, forms, out, want[0], want[1])
			}
		}
	}
	if len(over) > 0 {
		t.Errorf("answers not found: %v", over)
	}
	t.Logf("largest answer of 10 hits that fits: %d bytes", largest)
}
