// Package jsoncut shortens a JSON document to a size budget by its
// structure: long arrays and objects keep their first entries, long strings
// their first characters, and a marker in place says how much was left
// out. The result is valid JSON of the same shape, which a model can read
// and reason about, where a cut string of JSON text is neither.
package jsoncut

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// MoreKey is the key of the marker entry of a shortened object.
const MoreKey = "…"

type kind uint8

const (
	scalar kind = iota
	str
	array
	object
)

type node struct {
	kind  kind
	raw   []byte // scalar: the literal; str: the decoded string's bytes
	keys  []string
	elems []*node
}

// Cut returns doc shortened to at most budget bytes, and whether it cut
// anything. It keeps as many leading entries per array and object, and as
// many leading characters per string, as fit: one cap for all of them, the
// largest that fits. A doc within budget, or one that is not valid JSON,
// is returned unchanged.
func Cut(doc []byte, budget int) ([]byte, bool) {
	if len(doc) <= budget {
		return doc, false
	}
	root, err := parse(doc)
	if err != nil {
		return doc, false
	}
	maxCap := root.widest()
	best := []byte(nil)
	lo, hi := 0, maxCap
	for lo <= hi {
		mid := lo + (hi-lo)/2
		var b bytes.Buffer
		if render(&b, root, mid, budget) && b.Len() <= budget {
			best = append(best[:0], b.Bytes()...)
			lo = mid + 1
		} else {
			hi = mid - 1
		}
	}
	if best == nil {
		return doc, false // cannot happen for budgets that fit a marker
	}
	return best, true
}

// widest is the largest array or object length, or string length/stringStep,
// anywhere in the tree: no cap beyond it changes anything.
func (n *node) widest() int {
	w := 0
	switch n.kind {
	case str:
		w = len(n.raw)/stringStep + 1
	case array, object:
		w = len(n.elems)
		for _, e := range n.elems {
			w = max(w, e.widest())
		}
	}
	return w
}

// stringStep: a string keeps 16 + stringStep*cap bytes, so strings grow
// with the cap as containers do.
const stringStep = 16

// render writes n with the cap, giving up (false) once out passes limit.
func render(out *bytes.Buffer, n *node, cap, limit int) bool {
	if out.Len() > limit {
		return false
	}
	switch n.kind {
	case scalar:
		out.Write(n.raw)
	case str:
		keep := 16 + stringStep*cap
		if len(n.raw) <= keep {
			writeString(out, string(n.raw))
			break
		}
		for keep > 0 && !utf8.RuneStart(n.raw[keep]) {
			keep--
		}
		left := utf8.RuneCount(n.raw[keep:])
		writeString(out, fmt.Sprintf("%s… [%d more characters]", n.raw[:keep], left))
	case array, object:
		opening, closing := byte('['), byte(']')
		if n.kind == object {
			opening, closing = '{', '}'
		}
		out.WriteByte(opening)
		for i, e := range n.elems {
			if i > 0 {
				out.WriteByte(',')
			}
			if i == cap {
				writeMore(out, n, len(n.elems)-cap)
				break
			}
			if n.kind == object {
				writeString(out, n.keys[i])
				out.WriteByte(':')
			}
			if !render(out, e, cap, limit) {
				return false
			}
		}
		out.WriteByte(closing)
	}
	return out.Len() <= limit
}

// writeMore writes the marker of what a shortened array or object left out.
func writeMore(out *bytes.Buffer, n *node, left int) {
	if n.kind == array {
		writeString(out, fmt.Sprintf("… %d more %s", left, plural(left, "item")))
		return
	}
	writeString(out, MoreKey)
	out.WriteByte(':')
	writeString(out, fmt.Sprintf("%d more %s", left, plural(left, "key")))
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func writeString(out *bytes.Buffer, s string) {
	b, _ := json.Marshal(s)
	out.Write(b)
}

// parse reads doc into a tree that keeps the order of object keys.
func parse(doc []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	n, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("jsoncut: trailing data")
	}
	return n, nil
}

func parseValue(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			n := &node{kind: array}
			for dec.More() {
				e, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				n.elems = append(n.elems, e)
			}
			_, err := dec.Token()
			return n, err
		}
		n := &node{kind: object}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			e, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, k.(string))
			n.elems = append(n.elems, e)
		}
		_, err := dec.Token()
		return n, err
	case string:
		return &node{kind: str, raw: []byte(t)}, nil
	case json.Number:
		return &node{kind: scalar, raw: []byte(t.String())}, nil
	case bool:
		return &node{kind: scalar, raw: []byte(strconv.FormatBool(t))}, nil
	default:
		return &node{kind: scalar, raw: []byte("null")}, nil
	}
}
