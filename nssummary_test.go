package codemode

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
)

// namespaceWordsGolden is the namespace lines the instructions give for each
// eval catalog's tools (by their first name segment) and for make bench's
// 1,000 tools, as summarizeNamespaces wrote them before each tool's name
// words were kept with the tool (perf25): keeping them changes when the
// words are found, not which.
const namespaceWordsGolden = "testdata/namespace_words.golden"

// TestNamespaceWordsGolden: the namespace lines are those of
// namespaceWordsGolden, for 85 catalogs and 14,518 names. With
// UPDATE_GOLDEN=1 it writes the file instead (only for a change of the
// words meant to show in the instructions).
func TestNamespaceWordsGolden(t *testing.T) {
	var sb strings.Builder
	paths, err := filepath.Glob("internal/search/eval/testdata/*.catalog.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no catalogs: %v", err)
	}
	sort.Strings(paths)
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var c struct{ Tools []struct{ Name string } }
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		tools := make([]Tool, len(c.Tools))
		for i, ct := range c.Tools {
			tools[i] = Tool{Name: ct.Name, Execute: noopToolExecute}
		}
		writeNamespaceLines(t, &sb, strings.TrimSuffix(filepath.Base(p), ".catalog.json"), tools)
	}
	writeNamespaceLines(t, &sb, "make bench's 1,000", benchCatalog(t, 1000))
	got := sb.String()
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(namespaceWordsGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(namespaceWordsGolden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("%s line %d:\n got %s\nwant %s", namespaceWordsGolden, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d", namespaceWordsGolden, len(gl), len(wl))
	}
}

// writeNamespaceLines writes one catalog's namespace lines, all of them.
func writeNamespaceLines(t *testing.T, sb *strings.Builder, id string, tools []Tool) {
	t.Helper()
	r := newRegistry()
	if _, err := r.add(tools...); err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	spaces, topLevel := summarizeNamespaces(r.snapshot())
	fmt.Fprintf(sb, "# %s: %d tools, %d without namespace\n", id, len(tools), len(topLevel))
	writeNamespaces(sb, spaces, len(spaces))
}

// TestSystemInstructionKeepsTheSummary: asked again for the same 1,000
// tools, SystemInstruction does not sum up their names again (3,147
// allocations a call before nsMemo, under maxKeptInstructionAllocs now),
// and after one more tool it splits that tool's name alone (the others'
// words are kept with them: 3,100 allocations before, under
// maxOneMoreAllocs now).
func TestSystemInstructionKeepsTheSummary(t *testing.T) {
	const maxKeptInstructionAllocs, maxOneMoreAllocs = 50, 400
	cm := mustNew(t, Config{})
	if _, err := cm.RegisterTools(benchCatalog(t, 1000)...); err != nil {
		t.Fatal(err)
	}
	s := mustSession(t, cm)
	first := s.SystemInstruction()
	if allocs := testing.AllocsPerRun(5, func() {
		if s.SystemInstruction() != first {
			t.Fatal("the instruction changed with the tools unchanged")
		}
	}); allocs > maxKeptInstructionAllocs {
		t.Errorf("SystemInstruction of the same 1,000 tools again: %.0f allocations, want at most %d", allocs, maxKeptInstructionAllocs)
	}
	if _, err := cm.RegisterTools(Tool{Name: "github.widgets.polish", Execute: noopToolExecute}); err != nil {
		t.Fatal(err)
	}
	var text string
	if allocs := allocsOnce(func() { text = s.SystemInstruction() }); allocs > maxOneMoreAllocs {
		t.Errorf("SystemInstruction after one more tool: %d allocations, want at most %d", allocs, maxOneMoreAllocs)
	}
	if want := buildInstructions(cm.visible(nil), cm.cfg.limits()); text != want || !strings.Contains(text, "- github (846)") {
		t.Errorf("after one more tool the instruction is not the one made anew:\n%s\nwant\n%s", text, want)
	}
}

// allocsOnce is how many values f allocates, run once (testing.AllocsPerRun
// runs it once before it counts).
func allocsOnce(f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs
}

// TestSystemInstructionSummaryPerSession: each session's summary is of the
// tools it sees, as ToolFilter answers at the call: another session's own
// tools, or a tool the filter has come to hide, never show in it (nor
// their namespace's words), and the text is the one made anew each time.
func TestSystemInstructionSummaryPerSession(t *testing.T) {
	var hide atomic.Bool
	cm := mustNew(t, Config{ToolFilter: func(ti ToolInfo) bool { return !hide.Load() || !strings.HasPrefix(ti.Name, "crm.") }})
	tool := func(name string) Tool { return Tool{Name: name, Execute: noopToolExecute} }
	if _, err := cm.RegisterTools(tool("crm.contacts.merge"), tool("crm.invoices.void"), tool("mail.drafts.send")); err != nil {
		t.Fatal(err)
	}
	a := mustSession(t, cm, tool("vault.secrets.rotate"), tool("vault.secrets.reveal"))
	b := mustSession(t, cm)
	check := func(step string, s *Session, own *registry, want, never []string) {
		t.Helper()
		got := s.SystemInstruction()
		if fresh := buildInstructionsWith(cm.visible(own), cm.cfg.limits(), s.signature, nil); got != fresh {
			t.Errorf("%s: the kept summary differs from one made anew:\n%s\nwant\n%s", step, got, fresh)
		}
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q missing:\n%s", step, w, got)
			}
		}
		for _, w := range never {
			if strings.Contains(got, w) {
				t.Errorf("%s: %q shows:\n%s", step, w, got)
			}
		}
	}
	for _, step := range []string{"first", "again"} {
		check(step+", a", a, a.own, []string{"- vault (2): secrets, reveal, rotate", "- crm (2)"}, nil)
		check(step+", b", b, b.own, []string{"- crm (2): contacts, invoices", "- mail (1)"}, []string{"vault", "secrets", "rotate"})
	}
	hide.Store(true)
	check("crm hidden, a", a, a.own, []string{"- vault (2)", "- mail (1)"}, []string{"crm", "contacts", "invoices"})
	check("crm hidden, b", b, b.own, []string{"- mail (1)"}, []string{"crm", "contacts", "invoices", "vault"})
	hide.Store(false)
	check("crm shown again, b", b, b.own, []string{"- crm (2): contacts, invoices"}, []string{"vault"})
}
