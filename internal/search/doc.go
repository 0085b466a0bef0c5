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
	ns, last := "", name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		ns, last = name[:i], name[i+1:]
	}
	d.namespace = ns
	summary, rest := splitSummary(description)
	var ids [numFields][]uint32
	var nameStems []string
	func() {
		w := dict.writer()
		defer w.done()
		ids[fieldName] = w.appendIDs(nil, last)
		ids[fieldSpace] = w.appendIDs(nil, ns)
		for _, f := range []int{fieldName, fieldSpace} {
			for _, id := range ids[f] {
				nameStems = append(nameStems, w.terms[id])
			}
		}
		ids[fieldSummary] = w.appendIDs(nil, summary)
		ids[fieldDesc] = w.appendIDs(nil, rest)
		for _, root := range schemas {
			collectSchemaText(root, 0, func(text string) { ids[fieldProps] = w.appendIDs(ids[fieldProps], text) })
		}
	}()
	for _, t := range nameStems[:len(ids[fieldName])] {
		d.verbs |= verbClasses[t]
	}
	for f := range ids {
		n := len(ids[f])
		d.fields[f] = newPostings(ids[f])
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
			for k, id := range ids[f] {
				if !nameNoise[nameStems[k]] && !slices.Contains(d.nameTerms, id) {
					d.nameTerms = append(d.nameTerms, id)
				}
			}
			nameStems = nameStems[n:]
		}
	}
	return d
}

func newPostings(ids []uint32) postings {
	if len(ids) == 0 {
		return postings{}
	}
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	distinct := 1
	for i := 1; i < len(sorted); i++ {
		if sorted[i] != sorted[i-1] {
			distinct++
		}
	}
	p := postings{ids: make([]uint32, 0, distinct), counts: make([]uint16, 0, distinct)}
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

// collectSchemaText calls add with property names, their descriptions and
// string enum values: "orders that shipped" should find a tool whose status
// enum has "shipped".
func collectSchemaText(node any, depth int, add func(string)) {
	n, ok := node.(map[string]any)
	if !ok || depth > 4 {
		return
	}
	if props, ok := n["properties"].(map[string]any); ok {
		for k, v := range props {
			add(k)
			if p, ok := v.(map[string]any); ok {
				desc, _ := p["description"].(string)
				add(desc)
			}
			collectSchemaText(v, depth+1, add)
		}
	}
	enum, _ := n["enum"].([]any)
	for _, v := range enum {
		if s, ok := v.(string); ok {
			add(s)
		}
	}
	collectSchemaText(n["items"], depth+1, add)
	for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
		list, _ := n[kw].([]any)
		for _, s := range list {
			collectSchemaText(s, depth+1, add)
		}
	}
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
