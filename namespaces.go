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
	t := nsTallies{spaces: map[string]*nsTally{}}
	for _, e := range tools {
		t.count(e, 1)
	}
	return t.summarize(tools)
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
	// whole is the CodeMode's registry, whose running summary answers
	// for tools that are its snapshot (no ToolFilter, no tools of the
	// session's own).
	whole *registry
}

// summarize is summarizeNamespaces(tools), from the registry's running
// summary when tools are its snapshot, or from the memo when they are the
// ones it was made of; a nil memo keeps nothing.
func (m *nsMemo) summarize(tools []*toolEntry) ([]nsSummary, []string) {
	if m == nil {
		return summarizeNamespaces(tools)
	}
	if spaces, topLevel, ok := m.whole.summary(tools); ok {
		return spaces, topLevel
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !slices.Equal(m.tools, tools) {
		m.spaces, m.topLevel = summarizeNamespaces(tools)
		m.tools = slices.Clone(tools)
	}
	return m.spaces, m.topLevel
}

// nsTallies is summarizeNamespaces' count: each namespace's tools and the
// words of their names. A registry keeps its own as tools come and go, so
// that the summary of a catalog seen whole costs a pass over its
// namespaces, not over its tools (getSystemInstruction after 100,000
// tools, in-thread, was one stretch of 210-260 ms of the page's thread,
// at each change). Kept from the first summary asked of the registry, or
// from its nsTallyAt'th tool: a registration of fewer tools, asked for no
// instruction, pays nothing for it.
type nsTallies struct {
	spaces   map[string]*nsTally
	topLevel int
	// made: summary and top are the summary of the tools now.
	made    bool
	summary []nsSummary
	top     []string
}

type nsTally struct {
	count int
	own   []string // search.NamespaceWords of the namespace
	words search.WordTally
}

// nsTallyAt is the catalog from which a registry keeps its tallies before
// any summary is asked for: the registrations of a large one, in slices,
// carry the count.
const nsTallyAt = 2048

// count counts e's name d times (1: added, -1: removed).
func (t *nsTallies) count(e *toolEntry, d int) {
	t.made = false
	ns, _, ok := strings.Cut(e.info.Name, ".")
	if !ok {
		t.topLevel += d
		return
	}
	s := t.spaces[ns]
	if s == nil {
		s = &nsTally{own: search.NamespaceWords(ns)}
		t.spaces[ns] = s
	}
	s.count += d
	s.words.Add(e.nameWords(s.own), d)
	if s.count == 0 {
		delete(t.spaces, ns)
	}
}

// summarize is the summary of what t counted, which is tools.
func (t *nsTallies) summarize(tools []*toolEntry) ([]nsSummary, []string) {
	if !t.made {
		t.summary, t.top = nil, nil
		for name, s := range t.spaces {
			t.summary = append(t.summary, nsSummary{name: name, count: s.count, words: s.words.Top(wordsPerNamespace)})
		}
		sort.Slice(t.summary, func(i, j int) bool { return t.summary[i].name < t.summary[j].name })
		for i := 0; i < len(tools) && len(t.top) < t.topLevel; i++ {
			if name := tools[i].info.Name; !strings.Contains(name, ".") {
				t.top = append(t.top, name)
			}
		}
		sort.Strings(t.top)
		t.made = true
	}
	return t.summary, t.top
}

// summary is summarizeNamespaces(tools) from r's tallies, when tools are
// r's snapshot (the shared slice, unchanged since); ok is false otherwise.
func (r *registry) summary(tools []*toolEntry) (spaces []nsSummary, topLevel []string, ok bool) {
	if r == nil || len(tools) == 0 {
		return nil, nil, false
	}
	r.mu.Lock()
	if ok = len(r.added) == 0 && len(tools) == len(r.byName) && &tools[0] == &r.byName[0]; ok {
		if r.ns == nil {
			r.tally()
		}
		spaces, topLevel = r.ns.summarize(tools)
	}
	r.mu.Unlock()
	return spaces, topLevel, ok
}

// tally starts r's tallies from its tools; r.mu held.
func (r *registry) tally() {
	r.ns = &nsTallies{spaces: map[string]*nsTally{}}
	for _, e := range r.tools {
		r.ns.count(e, 1)
	}
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
