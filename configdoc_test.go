package codemode

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/interopio/code-mode/internal/search"
	"github.com/interopio/code-mode/internal/tsgen"
	"github.com/interopio/code-mode/sandbox"
)

// TestPublicDocsStateDefaultsAndBounds: the doc comment of each public
// field with a default or a bound states it as the code has it, so that
// `go doc` and the code cannot drift apart (the bounds of Config's limits
// were in no doc comment, only in the error a bad value gets).
func TestPublicDocsStateDefaultsAndBounds(t *testing.T) {
	for _, tc := range []struct {
		file, typ, field string
		want             []string
	}{
		{"config.go", "Config", "Timeout", []string{fmt.Sprintf("Default %s; %s to %s.",
			formatDuration(defaultTimeout), formatDuration(minTimeout), formatDuration(maxTimeout))}},
		{"config.go", "Config", "MemoryLimitMB", []string{fmt.Sprintf("Default %d; 1 to %d ", defaultMemoryLimitMB, maxMemoryLimitMB)}},
		{"config.go", "Config", "MaxToolCalls", []string{fmt.Sprintf("Default %d; 1 to %s ", defaultMaxToolCalls, grouped(maxMaxToolCalls)),
			"ErrorCodeToolLimit"}},
		{"config.go", "Config", "MaxResultChars", []string{fmt.Sprintf("Default %d; %d to %s ",
			defaultMaxResultChars, minMaxResultChars, grouped(maxMaxResultChars))}},
		{"toolsearch.go", "SearchConfig", "Weight", []string{fmt.Sprintf("Default %v ", search.DefaultSemanticWeight)}},
		{"toolsearch.go", "SearchConfig", "MinSimilarity", []string{fmt.Sprintf("default %v.", defaultMinSimilarity)}},
		{"toolsearch.go", "SearchConfig", "Timeout", []string{fmt.Sprintf("Default %s.", formatDuration(defaultEmbedTimeout))}},
		{"toolsearch.go", "SearchConfig", "Embed", []string{fmt.Sprintf("the next %d seconds", embedBackoff.Milliseconds()/1000)}},
		{"toolsearch.go", "SearchRequest", "Limit", []string{fmt.Sprintf("<= 0 means %d (%d when listing a namespace); at most %d.",
			search.DefaultLimit, search.MaxLimit, search.MaxLimit)}},
		{"toolsearch.go", "SearchRequest", "Query", []string{fmt.Sprintf("its first %s characters", grouped(maxQueryChars))}},
		{"tool.go", "Tool", "Name", []string{fmt.Sprintf("1..%d characters of [A-Za-z0-9_$.-]", maxToolNameLen)}},
		{"execute.go", "ToolCallRecord", "Name", []string{fmt.Sprintf("at most %d characters", maxNameChars)}},
		{"session.go", "SearchHit", "Description", []string{fmt.Sprintf("at most %d KiB at a word", tsgen.DescriptionMax>>10)}},
		{"sandbox/sandbox.go", "Config", "MemoryLimit", []string{fmt.Sprintf("the default, %d MiB; at most MaxMemoryLimit (%d MiB;",
			sandbox.DefaultMemoryLimit>>20, sandbox.MaxMemoryLimit>>20), "ErrInvalidConfig"}},
		{"sandbox/sandbox.go", "Program", "Timeout", []string{fmt.Sprintf("(default %s)", formatDuration(sandbox.DefaultTimeout))}},
		{"execute.go", "ExecuteResult", "Logs", []string{fmt.Sprintf("(%d entries, half of MaxResultChars)", maxLogEntries)}},
		{"execute.go", "LogEntry", "Message", []string{fmt.Sprintf("at most %s bytes", grouped(maxLogEntryChars))}},
		{"execute.go", "RunError", "Message", []string{fmt.Sprintf("at most %s bytes", grouped(maxErrorChars))}},
		{"execute.go", "RunError", "Stack", []string{fmt.Sprintf("at most %s bytes", grouped(maxErrorChars))}},
	} {
		doc := fieldDoc(t, tc.file, tc.typ, tc.field)
		for _, w := range tc.want {
			if !strings.Contains(doc, w) {
				t.Errorf("%s.%s's doc comment does not say %q:\n%s", tc.typ, tc.field, w, doc)
			}
		}
	}
}

// TestUsageSearchRowStatesItsDefaults: the search row of USAGE's config
// table gives the defaults of weight, minSimilarity and timeout as the code
// has them (web/test/dts-runtime.test.mjs checks the table's keys and its
// limits against a factory; these three no factory shows).
func TestUsageSearchRowStatesItsDefaults(t *testing.T) {
	usage, err := os.ReadFile("web/USAGE.md")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("`{ embed, weight?, minSimilarity?, timeout? }` (%v, %v, %d ms)",
		search.DefaultSemanticWeight, defaultMinSimilarity, defaultEmbedTimeout.Milliseconds())
	for _, line := range strings.Split(string(usage), "\n") {
		if strings.HasPrefix(line, "| `search` |") {
			if !strings.Contains(line, want) {
				t.Errorf("USAGE.md's config table: the search row does not say %q:\n%s", want, line)
			}
			return
		}
	}
	t.Error("USAGE.md's config table has no search row")
}

// fieldDoc is the doc comment of a struct field, its lines joined by spaces.
func fieldDoc(t *testing.T, file, typ, field string) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	doc := ""
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		spec, ok := n.(*ast.TypeSpec)
		if !ok || spec.Name.Name != typ {
			return true
		}
		st, ok := spec.Type.(*ast.StructType)
		if !ok {
			return false
		}
		for _, fl := range st.Fields.List {
			for _, name := range fl.Names {
				if name.Name == field {
					found = true
					if fl.Doc != nil {
						doc = fl.Doc.Text()
					}
				}
			}
		}
		return false
	})
	if !found {
		t.Fatalf("%s: no field %s.%s", file, typ, field)
	}
	return strings.Join(strings.Fields(doc), " ")
}

// grouped writes n with commas between groups of three digits, as the
// doc comments write large numbers.
func grouped(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
