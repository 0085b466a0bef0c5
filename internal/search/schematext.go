package search

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/interopio/code-mode/internal/jsondec"
)

// SchemaText is what the index reads of a tool's JSON Schema, read from
// its text once per registration however many tools share it: decoding
// each schema whole (a map per object) to read a few of its words was a
// quarter of the worker's core registering 1,000 tools, and most of the
// rest of the schema is only needed on a call.
type SchemaText struct {
	// Keyed: the top-level object has a key; Keyword: one of them is a
	// JSON Schema keyword (Read's keyword says which are).
	Keyed, Keyword bool
	// texts are the property names, their descriptions and string enum
	// values ("orders that shipped" should find a tool whose status enum
	// has "shipped"), to maxTextDepth, in the order written. They may be
	// views of the text read, which the index does not keep (intern).
	texts []string
	// required are the names of the required properties that are not
	// lists, objects or flags (the things a tool acts on: needs).
	required []string
	// ids are the texts' term ids, found by the first doc built with
	// them: a registration's tools share schemas (369 of make bench's
	// 1,000 repeat one), and looking each text up again (a hash of the
	// whole description, then a comparison) was a fifth of building the
	// index. Valid while the dictionary keeps its terms, which it does
	// but in tests (EmptyDictionary).
	ids   []uint32
	found bool
}

// errRepeated is a key the index reads written twice in one object: the
// schema's value keeps the last, which a reader in the text's order cannot
// know when it meets the first.
var errRepeated = errors.New("repeated key")

// ReadSchema reads a JSON Schema's text for the index (SchemaReader.Read).
func ReadSchema(text []byte) (SchemaText, error) {
	var x SchemaReader
	return x.Read(text, nil)
}

// SchemaReader reads schema texts for the index, keeping its buffers from
// one to the next: one serves a registration.
type SchemaReader struct {
	r jsondec.Reader
	s SchemaText
	// keyword tells a JSON Schema keyword (nil: none is).
	keyword func(string) bool
	// required is the top-level "required"; notIDs the top-level
	// properties typed as a list, an object or a flag.
	required, notIDs []string
	// names holds the property names of the "properties" objects being
	// read, to tell a repeated one.
	names    []string
	repeated bool
	// texts holds the texts and required names of the schemas read, each
	// one's a part of it.
	texts []string
}

// Read reads one schema's text, keyword (if not nil) telling JSON Schema
// keywords among its top-level keys; the error is jsondec.ErrSyntax for text
// jsondec.Decode refuses. The text must not change while the SchemaText
// is in use.
func (x *SchemaReader) Read(text []byte, keyword func(string) bool) (SchemaText, error) {
	s, err := x.read(text, keyword)
	if err == errRepeated {
		// Rare: read the value as decoded, whose keys are distinct.
		var v any
		if v, err = jsondec.Decode(text, jsondec.Options{}); err != nil {
			return SchemaText{}, err
		}
		canonical, _ := json.Marshal(v)
		s, err = x.read(canonical, keyword)
	}
	return s, err
}

func (x *SchemaReader) read(text []byte, keyword func(string) bool) (SchemaText, error) {
	if cap(x.texts)-len(x.texts) < 64 {
		x.texts = make([]string, 0, 1024) // the texts of a few schemas
	}
	*x = SchemaReader{r: jsondec.NewReader(text, jsondec.Options{Shared: true}), keyword: keyword,
		required: x.required[:0], notIDs: x.notIDs[:0], names: x.names[:0], texts: x.texts[len(x.texts):]}
	x.node(0, false, false)
	switch {
	case !x.r.Done():
		return SchemaText{}, jsondec.ErrSyntax
	case x.repeated:
		return SchemaText{}, errRepeated
	}
	n := len(x.texts)
	for _, name := range x.required {
		if !slices.Contains(x.notIDs, name) {
			x.texts = append(x.texts, name)
		}
	}
	x.s.texts, x.s.required = x.texts[:n:n], x.texts[n:len(x.texts):len(x.texts)]
	return x.s, nil
}

// keyBit is the bit of a key a schema node is read for, to tell a
// repeated one (0 for the others).
func keyBit(k string) uint16 {
	switch k {
	case "properties":
		return 1
	case "enum":
		return 2
	case "items":
		return 4
	case "anyOf":
		return 8
	case "oneOf":
		return 16
	case "allOf":
		return 32
	case "description":
		return 64
	case "type":
		return 128
	case "required":
		return 256
	}
	return 0
}

// maxTextDepth is how deep in a schema the index reads (the top level is 0).
const maxTextDepth = 4

// maxEnumValues is how many values of one enum the index reads, the first:
// as many as a signature shows (tsgen's sigMaxMembers). Each distinct value
// is a term of the process's dictionary, kept for good: one enum of
// 1,000,000 strings held a page's thread 3.4 s in the index alone, where
// the real catalogs' largest enum has 20 values.
const maxEnumValues = 200

// node reads a schema depth levels deep (its texts to maxTextDepth): of a
// property's schema (prop) also its description, of the top level's
// properties (top) their type, and of the top level its required list.
func (x *SchemaReader) node(depth int, prop, top bool) {
	r := &x.r
	if r.Kind() != '{' || depth > maxTextDepth && !prop {
		r.Skip()
		return
	}
	r.Enter()
	var seen uint16
	for {
		k, ok := r.Key()
		if !ok {
			return
		}
		bit := keyBit(k)
		x.repeated = x.repeated || seen&bit != 0
		seen |= bit
		if depth == 0 {
			x.s.Keyed = true
			x.s.Keyword = x.s.Keyword || x.keyword != nil && x.keyword(k)
		}
		inside := depth <= maxTextDepth
		switch {
		case bit == 64 && prop:
			x.str(x.add)
		case bit == 128 && top:
			x.str(func(s string) {
				if s == "array" || s == "object" || s == "boolean" {
					x.notIDs = append(x.notIDs, x.names[len(x.names)-1])
				}
			})
		case bit == 1 && inside:
			x.properties(depth, depth == 0)
		case bit == 2 && inside:
			i := 0
			x.list(func() {
				if i++; i <= maxEnumValues {
					x.str(x.add)
				} else {
					r.Skip()
				}
			})
		case bit == 4 && inside:
			x.node(depth+1, false, false)
		case (bit == 8 || bit == 16 || bit == 32) && inside:
			x.list(func() { x.node(depth+1, false, false) })
		case bit == 256 && depth == 0:
			x.list(func() { x.str(func(s string) { x.required = append(x.required, s) }) })
		default:
			r.Skip()
		}
	}
}

// str reads a string with f (or passes over another value).
func (x *SchemaReader) str(f func(string)) {
	if x.r.Kind() != '"' {
		x.r.Skip()
		return
	}
	s, _ := x.r.Str()
	f(s)
}

// properties reads a "properties" object of a schema depth levels deep:
// each name, and its schema.
func (x *SchemaReader) properties(depth int, top bool) {
	r := &x.r
	if r.Kind() != '{' {
		r.Skip()
		return
	}
	r.Enter()
	from := len(x.names)
	for {
		k, ok := r.Key()
		if !ok {
			break
		}
		x.add(k)
		x.names = append(x.names, k)
		x.node(depth+1, true, top)
	}
	if names := x.names[from:]; len(names) > 1 {
		slices.Sort(names)
		if len(slices.Compact(names)) < len(names) {
			x.repeated = true
		}
	}
	x.names = x.names[:from]
}

// list reads each element of an array with elem (or passes over what is
// not an array).
func (x *SchemaReader) list(elem func()) {
	if x.r.Kind() != '[' {
		x.r.Skip()
		return
	}
	x.r.Enter()
	for x.r.Elem() {
		elem()
	}
}

func (x *SchemaReader) add(s string) {
	if s != "" {
		x.texts = append(x.texts, s)
	}
}
