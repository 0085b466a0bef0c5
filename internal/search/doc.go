package search

import (
	"encoding/json"
	"slices"
	"strings"
)

// Fields of a Doc, in the order of the weight tables.
const (
	fieldName    = iota // the last segment of the name: what the tool does
	fieldSpace          // the namespace segments: what it works on
	fieldSummary        // the first sentence of the description
	fieldDesc           // the rest of the description
	fieldProps          // property names, their descriptions, enum values
	numFields
)

// Doc is the stemmed text of one tool, computed once at registration.
type Doc struct {
	name      string
	namespace string
	lower     string
	fields    [numFields]postings
	length    [numFields]int // tokens per field
	nameTerms []uint32       // distinct terms of the whole name, last segment first
	lastTerms int            // how many of them are in the last segment
	verbs     uint64         // verb classes of the name's last segment
}

// postings are the distinct terms of a field, in id order, and their counts.
type postings struct {
	ids    []uint32
	counts []uint16
}

// NewDoc builds the entry of one tool from its dotted name, its description
// and its JSON Schemas (nil and invalid ones are skipped).
func NewDoc(name, description string, schemas ...json.RawMessage) *Doc {
	var roots []any
	for _, raw := range schemas {
		var root any
		if len(raw) > 0 && json.Unmarshal(raw, &root) == nil {
			roots = append(roots, root)
		}
	}
	return NewDocFromValues(name, description, roots...)
}

// NewDocFromValues is NewDoc for schemas already decoded (encoding/json's
// any), so registration decodes each schema once.
func NewDocFromValues(name, description string, schemas ...any) *Doc {
	d := &Doc{name: name, lower: strings.ToLower(name)}
	var toks [numFields][]string
	ns, last := "", name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		ns, last = name[:i], name[i+1:]
	}
	d.namespace = ns
	toks[fieldName] = tokenize(last)
	toks[fieldSpace] = tokenize(ns)
	summary, rest := splitSummary(description)
	toks[fieldSummary] = tokenize(summary)
	toks[fieldDesc] = tokenize(rest)
	for _, root := range schemas {
		toks[fieldProps] = collectSchemaText(root, 0, toks[fieldProps])
	}
	for _, t := range toks[fieldName] {
		d.verbs |= verbClasses[t]
	}
	n := 0
	for _, t := range toks {
		n += len(t)
	}
	all := make([]string, 0, n)
	for _, t := range toks {
		all = append(all, t...)
	}
	ids := dict.internAll(all)
	for f := range toks {
		n := len(toks[f])
		d.fields[f] = newPostings(ids[:n])
		d.length[f] = n
		if f == fieldName || f == fieldSpace {
			// A name says a word once however often it repeats it
			// (PostCustomersCustomer): count distinct words there.
			d.length[f] = len(d.fields[f].ids)
			for i := range d.fields[f].counts {
				d.fields[f].counts[i] = 1
			}
			if f == fieldSpace {
				d.lastTerms = len(d.nameTerms)
			}
			for k, id := range ids[:n] {
				if !nameNoise[toks[f][k]] && !slices.Contains(d.nameTerms, id) {
					d.nameTerms = append(d.nameTerms, id)
				}
			}
		}
		ids = ids[n:]
	}
	return d
}

func newPostings(ids []uint32) postings {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	var p postings
	for i, id := range sorted {
		if i > 0 && id == sorted[i-1] {
			p.counts[len(p.counts)-1]++
			continue
		}
		p.ids = append(p.ids, id)
		p.counts = append(p.counts, 1)
	}
	return p
}

// Name is the tool's name.
func (d *Doc) Name() string { return d.name }

// Namespace is the name up to its last dot ("" for a top-level tool).
func (d *Doc) Namespace() string { return d.namespace }

// collectSchemaText gathers property names, their descriptions and string
// enum values: "orders that shipped" should find a tool whose status enum
// has "shipped".
func collectSchemaText(node any, depth int, out []string) []string {
	n, ok := node.(map[string]any)
	if !ok || depth > 4 {
		return out
	}
	if props, ok := n["properties"].(map[string]any); ok {
		for k, v := range props {
			out = appendTokens(out, k)
			if p, ok := v.(map[string]any); ok {
				desc, _ := p["description"].(string)
				out = appendTokens(out, desc)
			}
			out = collectSchemaText(v, depth+1, out)
		}
	}
	enum, _ := n["enum"].([]any)
	for _, v := range enum {
		if s, ok := v.(string); ok {
			out = appendTokens(out, s)
		}
	}
	out = collectSchemaText(n["items"], depth+1, out)
	for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
		list, _ := n[kw].([]any)
		for _, s := range list {
			out = collectSchemaText(s, depth+1, out)
		}
	}
	return out
}

// splitSummary cuts a description after its first sentence: the summary
// says what the tool does, the rest how.
func splitSummary(s string) (string, string) {
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?' || s[i] == '\n') && (s[i+1] == ' ' || s[i+1] == '\n') {
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}
