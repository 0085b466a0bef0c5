package search

import (
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"
)

// Fields of a Doc, in the order of the weight tables.
const (
	fieldName    = iota // the last segment of the name: what the tool does
	fieldSpace          // the namespace segments: what it works on
	fieldSummary        // the first sentence of the description
	fieldDesc           // the rest of the description
	fieldProps          // property names, their descriptions, enum values
	fieldOut            // the same of the output schema: what the tool returns
	numFields
)

// Doc is the stemmed text of one tool, computed once at registration.
type Doc struct {
	name      string
	namespace string
	lower     string
	fields    [numFields]postings
	length    [numFields]int // tokens per field
	// index holds the doc's postings from Index.Add (nil: in none), at
	// slot; removed is set when Index.Remove takes it out. Beside length,
	// which a search reads of every doc.
	index     *Index
	slot      int32
	removed   atomic.Bool
	nameTerms []uint32 // distinct terms of the whole name, last segment first
	lastTerms int      // how many of them are in the last segment
	verbs     uint64   // verb classes of the name's last segment
	// needs are the things whose id the tool requires (a required
	// droplet_id, accountId, or Stripe's customer in
	// GetCustomersCustomer): it acts on one of them, not on their list.
	needs []uint32
}

// postings are the distinct terms of a field, in id order, and their counts.
type postings struct {
	ids    []uint32
	counts []uint16
}

// NewDoc builds the entry of one tool from its dotted name, its description,
// its input schema and, if given, its output schema (nil and invalid ones
// are skipped).
func NewDoc(name, description string, input json.RawMessage, output ...json.RawMessage) *Doc {
	read := func(raw json.RawMessage) *SchemaText {
		if s, err := ReadSchema(raw); len(raw) > 0 && err == nil {
			return &s
		}
		return nil
	}
	var out *SchemaText
	if len(output) > 0 {
		out = read(output[0])
	}
	return NewDocFromText(name, description, read(input), out)
}

// NewDocFromText is NewDoc for schemas already read (ReadSchema; nil for
// none), so that registration reads each schema text once.
func NewDocFromText(name, description string, input, output *SchemaText) *Doc {
	d := &Doc{name: name, lower: strings.ToLower(name)}
	ns, last := "", name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		ns, last = name[:i], name[i+1:]
	}
	d.namespace = ns
	summary, rest := splitSummary(description)
	w := dict.writer()
	defer w.done()
	// The fields' ids one after the other (field f's end at end[f]), in
	// the dictionary's buffer: registering a catalog built and grew five
	// short-lived lists per tool.
	var end [numFields]int
	ids := w.appendIDs(w.scratch[:0], acronymPlurals(last))
	end[fieldName] = len(ids)
	ids = w.appendIDs(ids, acronymPlurals(ns))
	end[fieldSpace] = len(ids)
	// A name's "ips" is its "IP" (twoLetterPlural).
	for k, id := range ids[:end[fieldSpace]] {
		if t := w.terms[id]; len(t) == 3 && twoLetterPlural(t) != t {
			ids[k] = w.intern(t[:2])
		}
	}
	// What a tool returns is not what it acts on: only the input's
	// required ids are needs.
	if input != nil {
		d.needs = appendNeeds(w, d.needs, input.required, ids)
	}
	ids = w.appendIDs(ids, summary)
	end[fieldSummary] = len(ids)
	ids = w.appendIDs(ids, rest)
	end[fieldDesc] = len(ids)
	ids = w.appendSchemaIDs(ids, input)
	end[fieldProps] = len(ids)
	ids = w.appendSchemaIDs(ids, output)
	end[fieldOut] = len(ids)
	for _, id := range ids[:end[fieldName]] {
		d.verbs |= verbClasses[w.terms[id]]
	}
	for f, from := fieldName, 0; f <= fieldSpace; f++ {
		if f == fieldSpace {
			d.lastTerms = len(d.nameTerms)
		}
		for _, id := range ids[from:end[f]] {
			if !nameNoise[w.terms[id]] && !slices.Contains(d.nameTerms, id) {
				d.nameTerms = append(d.nameTerms, id)
			}
		}
		from = end[f]
	}
	// Each field's ids sorted, then counted into postings that share one
	// list of ids and one of counts.
	sorted := append(w.sortBuf[:0], ids...)
	distinct := 0
	for f, from := 0, 0; f < numFields; f++ {
		part := sorted[from:end[f]]
		slices.Sort(part)
		for i := range part {
			if i == 0 || part[i] != part[i-1] {
				distinct++
			}
		}
		from = end[f]
	}
	allIDs, allCounts := make([]uint32, 0, distinct), make([]uint16, 0, distinct)
	for f, from := 0, 0; f < numFields; f++ {
		part, first := sorted[from:end[f]], len(allIDs)
		for i, id := range part {
			if i > 0 && id == part[i-1] {
				allCounts[len(allCounts)-1]++
				continue
			}
			allIDs = append(allIDs, id)
			allCounts = append(allCounts, 1)
		}
		d.length[f] = len(part)
		if len(part) > 0 {
			d.fields[f] = postings{ids: allIDs[first:len(allIDs):len(allIDs)], counts: allCounts[first:len(allCounts):len(allCounts)]}
		}
		if f == fieldName || f == fieldSpace {
			// A name says a word once however often it repeats it
			// (PostCustomersCustomer): count distinct words there.
			d.length[f] = len(d.fields[f].ids)
			for i := range d.fields[f].counts {
				d.fields[f].counts[i] = 1
			}
		}
		from = end[f]
	}
	// Kept for the next tool, unless a huge one made them large.
	if cap(ids) <= maxScratch {
		w.scratch, w.sortBuf = ids, sorted
	} else {
		w.scratch, w.sortBuf = nil, nil
	}
	return d
}

// appendSchemaIDs appends the term ids of a schema's texts (nil: none),
// found once per SchemaText.
func (w *dictionary) appendSchemaIDs(ids []uint32, s *SchemaText) []uint32 {
	switch {
	case s == nil:
	case s.found:
		ids = append(ids, s.ids...)
	default:
		from := len(ids)
		for _, text := range s.texts {
			ids = w.appendTextIDs(ids, text)
		}
		s.ids, s.found = slices.Clone(ids[from:]), true
	}
	return ids
}

// Name is the tool's name.
func (d *Doc) Name() string { return d.name }

// Namespace is the name up to its last dot ("" for a top-level tool).
func (d *Doc) Namespace() string { return d.namespace }

// idWords end the name of a property that holds one thing's id.
var idWords = setOf("id", "gid", "uuid", "sid", "number", "key", "slug")

// appendNeeds appends the things whose id a schema requires (required):
// the word before an id word (droplet_id, issue_number), or a lone word the
// tool's name holds (customer for GetCustomersCustomer). Lists, objects and
// flags are the call's data, not an id (ReadSchema leaves them out).
func appendNeeds(w *dictionary, out []uint32, required []string, nameIDs []uint32) []uint32 {
	for _, name := range required {
		w.needBuf = w.appendIDs(w.needBuf[:0], name)
		ids := w.needBuf
		switch k := len(ids); {
		case k >= 2 && idWords[w.terms[ids[k-1]]]:
			out = append(out, ids[k-2])
		case k == 1 && slices.Contains(nameIDs, ids[0]):
			out = append(out, ids[0])
		}
	}
	return out
}

// acronymPlurals drops the "s" of an acronym's plural in a name
// ("reservedIPs" -> reservedIP): cut at the humps, "IPs" gave "I" and "Ps",
// which met neither "IP" nor "IPs". Names only: in a request the same
// correction (with search32c's digit rules) cost a held-out first place,
// and in a text the plural is a passing mention (eval/README.md).
func acronymPlurals(s string) string {
	for i := 2; i < len(s); i++ {
		if s[i] == 's' && byteClass[s[i-1]] == classUpper && byteClass[s[i-2]] == classUpper && (i+1 == len(s) || byteClass[s[i+1]] != classLower) {
			s = s[:i] + s[i+1:]
		}
	}
	return s
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
