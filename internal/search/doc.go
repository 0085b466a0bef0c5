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
	terms     [numFields][]termCount // distinct terms per field, sorted
	length    [numFields]int         // tokens per field
	nameTerms []string               // distinct terms of the whole name
	lastTerms int                    // how many of them are in the last segment
	verbs     uint64                 // verb classes of the name's last segment
}

type termCount struct {
	term  string
	count int
}

// NewDoc builds the entry of one tool from its dotted name, its description
// and its JSON Schemas (nil and invalid ones are skipped).
func NewDoc(name, description string, schemas ...json.RawMessage) *Doc {
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
	for _, raw := range schemas {
		if len(raw) == 0 {
			continue
		}
		var root any
		if json.Unmarshal(raw, &root) == nil {
			toks[fieldProps] = collectSchemaText(root, 0, toks[fieldProps])
		}
	}
	for f := range toks {
		d.length[f] = len(toks[f])
		d.terms[f] = countTerms(toks[f])
	}
	// A name says a word once however often it repeats it
	// (PostCustomersCustomer): count distinct words there.
	for _, f := range []int{fieldName, fieldSpace} {
		d.length[f] = len(d.terms[f])
		for i := range d.terms[f] {
			d.terms[f][i].count = 1
		}
	}
	for _, f := range []int{fieldName, fieldSpace} {
		if f == fieldSpace {
			d.lastTerms = len(d.nameTerms)
		}
		for _, tc := range d.terms[f] {
			if !nameNoise[tc.term] && !slices.Contains(d.nameTerms, tc.term) {
				d.nameTerms = append(d.nameTerms, tc.term)
			}
		}
	}
	for _, t := range toks[fieldName] {
		d.verbs |= verbClasses[t]
	}
	return d
}

// Name is the tool's name.
func (d *Doc) Name() string { return d.name }

// Namespace is the name up to its last dot ("" for a top-level tool).
func (d *Doc) Namespace() string { return d.namespace }

func countTerms(toks []string) []termCount {
	m := make(map[string]int, len(toks))
	for _, t := range toks {
		m[t]++
	}
	out := make([]termCount, 0, len(m))
	for t, c := range m {
		out = append(out, termCount{t, c})
	}
	sortTerms(out)
	return out
}

func sortTerms(s []termCount) {
	// insertion sort: fields hold a few dozen terms
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].term < s[j-1].term; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// tf is the count of a term in a field.
func (d *Doc) tf(f int, term string) int {
	s := d.terms[f]
	lo, hi := 0, len(s)
	for lo < hi {
		m := (lo + hi) / 2
		if s[m].term < term {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(s) && s[lo].term == term {
		return s[lo].count
	}
	return 0
}

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
