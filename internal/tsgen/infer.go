package tsgen

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/interopio/code-mode/internal/jsondec"
)

// Shape is the type of a tool's results, inferred from the results it has
// returned: each sample widens it (a key missing from one sample becomes
// optional, a second kind makes a union). It is rendered as the JSON Schema
// Signature reads, so a tool without an outputSchema still shows the model
// what it returns. The zero value is empty. Not safe for concurrent use.
type Shape struct {
	root    *shapeNode
	samples int
}

// Bounds that keep inference cheap and the signature short, whatever the
// results hold.
const (
	inferMaxDepth = 6
	// inferMaxElems: array elements examined per array.
	inferMaxElems = 50
	// inferMaxProps: more distinct keys make an object a record
	// ({[key: string]: T}): its keys are data, not fields.
	inferMaxProps = 30
)

type shapeNode struct {
	kinds map[string]bool // "null", "boolean", "integer", "number", "string", "array", "object"
	elem  *shapeNode      // arrays: every element examined, merged
	keys  []string        // objects: in first-seen order
	props map[string]*shapeNode
	seen  map[string]int // objects: how many of them had the key
	objs  int            // objects merged
	// record: too many distinct keys; values merged into elem.
	record bool
}

// Add merges one result (JSON) into the shape. Invalid JSON is ignored.
func (s *Shape) Add(result []byte) {
	if json.Valid(result) {
		s.AddValid(result)
	}
}

// AddValid is Add for a result already known to be valid JSON, such as a
// tool's result, checked when the call returned: checking it again cost
// about as much as decoding its shape.
func (s *Shape) AddValid(result []byte) {
	v := decodeShape(result)
	if s.root == nil {
		s.root = &shapeNode{}
	}
	s.root.add(v, 0)
	s.samples++
}

// decodeShape decodes a result for add: the values decodeOrdered gives,
// but only as far as add reads them (inferMaxElems per array, containers
// at inferMaxDepth left empty, their kind being all add records there).
// Decoding all of a list tool's result cost far more than the rest of the
// call: 2,000 records (123 KB) took 8.4 ms and 136,000 allocations
// natively through json.Decoder's tokens, three times that in the core
// under GOOS=js, on each of a tool's first maxInferSamples calls. raw is
// valid JSON, so there is no error.
func decodeShape(raw []byte) any {
	v, _ := jsondec.Decode(raw, jsondec.Options{Ordered: true, Numbers: true, MaxDepth: inferMaxDepth, MaxElems: inferMaxElems, StringsUnread: true})
	return v
}

// Samples is the number of results merged.
func (s *Shape) Samples() int { return s.samples }

func (n *shapeNode) kind(k string) {
	if n.kinds == nil {
		n.kinds = map[string]bool{}
	}
	n.kinds[k] = true
}

func (n *shapeNode) add(v any, depth int) {
	switch x := v.(type) {
	case nil:
		n.kind("null")
	case bool:
		n.kind("boolean")
	case json.Number:
		if strings.ContainsAny(x.String(), ".eE") {
			n.kind("number")
		} else {
			n.kind("integer")
		}
	case string:
		n.kind("string")
	case []any:
		n.kind("array")
		if depth >= inferMaxDepth {
			return
		}
		for i, e := range x {
			if i == inferMaxElems {
				break
			}
			if n.elem == nil {
				n.elem = &shapeNode{}
			}
			n.elem.add(e, depth+1)
		}
	case *omap:
		n.kind("object")
		if depth >= inferMaxDepth {
			return
		}
		n.objs++
		if n.props == nil {
			n.props, n.seen = map[string]*shapeNode{}, map[string]int{}
		}
		for _, k := range x.Keys {
			if !n.record && n.props[k] == nil && len(n.keys) == inferMaxProps {
				n.toRecord()
			}
			if n.record {
				if n.elem == nil {
					n.elem = &shapeNode{}
				}
				n.elem.add(x.Vals[k], depth+1)
				continue
			}
			if n.props[k] == nil {
				n.keys = append(n.keys, k)
				n.props[k] = &shapeNode{}
			}
			n.seen[k]++
			n.props[k].add(x.Vals[k], depth+1)
		}
	}
}

// toRecord folds the fields seen so far into one value type.
func (n *shapeNode) toRecord() {
	n.record = true
	for _, k := range n.keys {
		if n.elem == nil {
			n.elem = n.props[k]
		} else {
			n.elem.merge(n.props[k])
		}
	}
	n.keys, n.props, n.seen = nil, nil, nil
}

func (n *shapeNode) merge(o *shapeNode) {
	for k := range o.kinds {
		n.kind(k)
	}
	if o.elem != nil {
		if n.elem == nil {
			n.elem = &shapeNode{}
		}
		n.elem.merge(o.elem)
	}
	for _, k := range o.keys {
		if n.record {
			if n.elem == nil {
				n.elem = &shapeNode{}
			}
			n.elem.merge(o.props[k])
			continue
		}
		if n.props == nil {
			n.props, n.seen = map[string]*shapeNode{}, map[string]int{}
		}
		if n.props[k] == nil {
			n.keys = append(n.keys, k)
			n.props[k] = &shapeNode{}
		}
		n.props[k].merge(o.props[k])
		n.seen[k] += o.seen[k]
	}
	n.objs += o.objs
}

// Schema renders the shape as JSON Schema (object keys in first-seen
// order), or nil before the first sample.
func (s *Shape) Schema() json.RawMessage {
	if s.root == nil {
		return nil
	}
	var b strings.Builder
	s.root.schema(&b)
	return json.RawMessage(b.String())
}

var kindOrder = []string{"object", "array", "string", "integer", "number", "boolean", "null"}

func (n *shapeNode) schema(b *strings.Builder) {
	var kinds []string
	for _, k := range kindOrder {
		if n.kinds[k] && !(k == "integer" && n.kinds["number"]) {
			kinds = append(kinds, k)
		}
	}
	b.WriteByte('{')
	switch len(kinds) {
	case 0:
		b.WriteByte('}') // no sample reached here (an empty array's elements): unknown
		return
	case 1:
		fmt.Fprintf(b, `"type":%q`, kinds[0])
	default:
		b.WriteString(`"type":[`)
		for i, k := range kinds {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(b, "%q", k)
		}
		b.WriteByte(']')
	}
	if n.kinds["array"] {
		b.WriteString(`,"items":`)
		if n.elem != nil && !n.record {
			n.elem.schema(b)
		} else {
			b.WriteString("{}")
		}
	}
	if n.kinds["object"] {
		if n.record {
			b.WriteString(`,"additionalProperties":`)
			n.elem.schema(b)
		} else if len(n.keys) > 0 {
			b.WriteString(`,"properties":{`)
			var required []string
			for i, k := range n.keys {
				if i > 0 {
					b.WriteByte(',')
				}
				kb, _ := json.Marshal(k)
				b.Write(kb)
				b.WriteByte(':')
				n.props[k].schema(b)
				if n.seen[k] == n.objs {
					required = append(required, k)
				}
			}
			b.WriteByte('}')
			if len(required) > 0 {
				rb, _ := json.Marshal(required)
				b.WriteString(`,"required":`)
				b.Write(rb)
			}
		}
	}
	b.WriteByte('}')
}

// InferredSignature is Signature with the result type inferred from s, and
// marked so: the model learns the shape, and that it was seen rather than
// promised. The mark holds no count of the results: the system instruction
// shows the signature, and a count there changed the instruction after each
// of a tool's first results, the type unchanged, which a provider's prompt
// cache (a prefix the system prompt begins) pays for as a new prompt.
func InferredSignature(name, description string, inputSchema json.RawMessage, s *Shape) string {
	if s.Samples() == 0 {
		return Signature(name, description, inputSchema, nil)
	}
	return signature(name, description, inputSchema, s.Schema(), true) + inferredMark
}

// inferredMark ends a signature whose result type was inferred.
const inferredMark = " // result type inferred from its results"
