package codemode

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/interopio/code-mode/internal/keys"
	"github.com/interopio/code-mode/internal/search"
	"github.com/interopio/code-mode/internal/trunc"
)

// nsSummary is one top-level namespace of the visible tools: how many tools
// it has and the words its tool names use most, so that the model can
// browse a large catalog from the instructions alone.
type nsSummary struct {
	name  string
	count int
	words []string
}

// wordsPerNamespace is how many words describe a namespace.
const wordsPerNamespace = 4

// summarizeNamespaces groups tools by the first segment of their names
// (sorted by name); topLevel are the tools without a namespace.
func summarizeNamespaces(tools []*toolEntry) (spaces []nsSummary, topLevel []string) {
	byNS := map[string][]*toolEntry{}
	for _, e := range tools {
		ns, _, ok := strings.Cut(e.info.Name, ".")
		if !ok {
			topLevel = append(topLevel, e.info.Name)
			continue
		}
		byNS[ns] = append(byNS[ns], e)
	}
	for ns, entries := range byNS {
		// Split once a summary, and only for a tool whose words are not
		// known yet.
		var own []string
		split := false
		ownWords := func() []string {
			if !split {
				own, split = search.NamespaceWords(ns), true
			}
			return own
		}
		words := make([][]search.NameWord, len(entries))
		for i, e := range entries {
			words[i] = e.nameWords(ownWords)
		}
		spaces = append(spaces, nsSummary{name: ns, count: len(entries), words: search.TopWords(words, wordsPerNamespace)})
	}
	sort.Slice(spaces, func(i, j int) bool { return spaces[i].name < spaces[j].name })
	sort.Strings(topLevel)
	return spaces, topLevel
}

// nsMemo is a session's summary of the tools it showed last. Its
// SystemInstruction is asked for again and again while they stay the same
// (a host's every turn; in worker mode, every session's after each
// registration), and summing up 1,000 tools' names took 57-270 ms in the
// browser's WebAssembly under load. Keyed by the entries themselves, not by
// a generation: the same registry seen through a ToolFilter whose answers
// changed is another list, and summarized anew.
type nsMemo struct {
	mu       sync.Mutex
	tools    []*toolEntry
	spaces   []nsSummary
	topLevel []string
}

// summarize is summarizeNamespaces(tools), from the memo when tools are the
// ones it was made of; a nil memo keeps nothing.
func (m *nsMemo) summarize(tools []*toolEntry) ([]nsSummary, []string) {
	if m == nil {
		return summarizeNamespaces(tools)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !slices.Equal(m.tools, tools) {
		m.spaces, m.topLevel = summarizeNamespaces(tools)
		m.tools = slices.Clone(tools)
	}
	return m.spaces, m.topLevel
}

// writeNamespaces lists the namespaces, one per line, at most max of them.
func writeNamespaces(sb *strings.Builder, spaces []nsSummary, max int) {
	for i, s := range spaces {
		if i == max {
			fmt.Fprintf(sb, "- and %s\n", trunc.More(len(spaces)-i, "namespace", "namespaces"))
			break
		}
		fmt.Fprintf(sb, "- %s (%d)", s.name, s.count)
		if len(s.words) > 0 {
			sb.WriteString(": ")
			sb.WriteString(strings.Join(s.words, ", "))
		}
		sb.WriteByte('\n')
	}
}

// searchNamespace is the namespace a search request names, as the model
// may write it: "orders", "orders.", "tools.orders", " crm.accounts ", as
// a path ("tools/orders", "/orders/"). No tool's name has a slash. Not a
// pattern: "orders.*" is no namespace (hostile42).
func searchNamespace(namespace string) string {
	return strings.TrimPrefix(strings.Trim(strings.ReplaceAll(strings.TrimSpace(namespace), "/", "."), "."), "tools.")
}

// inNamespace is the tools of namespace ns (as searchNamespace gives it),
// sub-namespaces included, or the tool ns names (a model that gave a
// tool's full name as its namespace).
func inNamespace(tools []*toolEntry, ns string) []*toolEntry {
	var in []*toolEntry
	for _, e := range tools {
		if strings.HasPrefix(e.info.Name, ns+".") || e.info.Name == ns {
			in = append(in, e)
		}
	}
	return in
}

// noNamespace is true when a search names a namespace no visible tool has
// (a hidden tool's namespace included: it does not exist for the model).
func noNamespace(tools []*toolEntry, namespace string) bool {
	ns := searchNamespace(namespace)
	return ns != "" && len(inNamespace(tools, ns)) == 0
}

// noMatchNote is what tool_search says when nothing matches.
func noMatchNote(tools []*toolEntry, query, namespace string) string {
	var sb strings.Builder
	switch {
	case noNamespace(tools, namespace):
		fmt.Fprintf(&sb, "tool_search: there is no namespace %q", namespace)
	case namespace != "":
		fmt.Fprintf(&sb, "tool_search: no tool of namespace %q matches %q", namespace, query)
	default:
		fmt.Fprintf(&sb, "tool_search: no tool matches %q", query)
	}
	spaces, _ := summarizeNamespaces(tools)
	if len(spaces) == 0 {
		sb.WriteString(".")
		return sb.String()
	}
	sb.WriteString("; try other words, or list a namespace with tool_search({ namespace }): ")
	sb.WriteString(namespaceNames(spaces))
	sb.WriteString(".")
	return sb.String()
}

// unknownNamespaceError is searchTools' answer (INVALID_INPUT) to a
// namespace no visible tool has: an empty list would leave a model that
// has only the tools, not the instruction that lists the namespaces, with
// nothing to go on.
func unknownNamespaceError(tools []*toolEntry, namespace string) error {
	spaces, _ := summarizeNamespaces(tools)
	if len(spaces) == 0 {
		return fmt.Errorf("searchTools: namespace: there is no namespace %s; no tool has a namespace: search with { query } alone", keys.Quote(namespace))
	}
	names := make([]string, len(spaces))
	for i, s := range spaces {
		names[i] = s.name
	}
	return fmt.Errorf("searchTools: namespace: there is no namespace %s%s; expected one of %s (list one with { namespace }, or search every tool with { query })",
		keys.Quote(namespace), keys.DidYouMean(searchNamespace(namespace), names), namespaceNames(spaces))
}

// namespaceNames is the namespaces' names, comma-separated, at most 20.
func namespaceNames(spaces []nsSummary) string {
	var sb strings.Builder
	for i, s := range spaces {
		if i == 20 {
			fmt.Fprintf(&sb, ", and %d more", len(spaces)-i)
			break
		}
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(s.name)
	}
	return sb.String()
}
