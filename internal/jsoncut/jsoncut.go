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
	"unicode/utf16"
	"unicode/utf8"

	"github.com/interopio/code-mode/internal/trunc"
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

// node is the part of a value that a cut can show. A container keeps its
// first entries only (no cap within the budget reaches further), a string
// its first bytes; len and runes say how much the value really held.
type node struct {
	kind  kind
	raw   []byte // scalar: the literal; str: the decoded string's first bytes
	keys  []string
	elems []*node
	len   int // array, object: the entries; str: the decoded string's bytes
	rest  int // str: the characters after raw
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
	root, err := parse(doc, budget)
	if err != nil {
		return doc, false
	}
	return cutTree(root, doc, budget)
}

// cutTree renders root with the largest cap that fits the budget.
func cutTree(root *node, doc []byte, budget int) ([]byte, bool) {
	// A cap over the budget cannot fit (each entry takes a byte), and the
	// tree holds no more than budget+1 entries per container.
	maxCap := min(root.widest(), budget)
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
		w = n.len/stringStep + 1
	case array, object:
		w = n.len
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
		if n.len <= keep {
			writeString(out, string(n.raw))
			break
		}
		keep = min(keep, len(n.raw)) // a string cut short in the tree is over the budget anyway
		for keep > 0 && keep < len(n.raw) && !utf8.RuneStart(n.raw[keep]) {
			keep--
		}
		left := utf8.RuneCount(n.raw[keep:]) + n.rest
		writeString(out, string(n.raw[:keep])+MoreChars(left))
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
				writeMore(out, n, n.len-cap)
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
		writeString(out, "… "+trunc.More(left, "item", "items"))
		return
	}
	writeString(out, MoreKey)
	out.WriteByte(':')
	writeString(out, trunc.More(left, "key", "keys"))
}

// MoreChars is the marker after a string cut short, with the n characters
// left out: "… [n more characters]", "… [1 more character]". Every Go
// cut of a string the program or the model reads writes it (a result's
// strings here, a record's names and reasons, a thrown error's fields);
// sandbox/errors.go's describeError writes the same in JavaScript.
func MoreChars(n int) string {
	return "… [" + trunc.More(n, "character", "characters") + "]"
}

func writeString(out *bytes.Buffer, s string) {
	b, _ := json.Marshal(s)
	out.Write(b)
}

// parse reads doc into a tree that keeps the order of object keys and, of
// each container, the first budget+1 entries; the rest is scanned, not
// kept. A hand-written scanner: encoding/json's Decoder.Token allocated per
// token and took 20 s for a 2-million-element array in the GOOS=js core,
// where only the first few thousand entries can show.
func parse(doc []byte, budget int) (*node, error) {
	p := &parser{doc: doc, keep: budget + 1}
	n, err := p.value(true)
	if err != nil {
		return nil, err
	}
	if p.skipSpace(); p.i != len(doc) {
		return nil, fmt.Errorf("jsoncut: trailing data at %d", p.i)
	}
	return n, nil
}

type parser struct {
	doc  []byte
	i    int
	keep int
}

func (p *parser) fail(what string) error {
	return fmt.Errorf("jsoncut: %s at %d", what, p.i)
}

func (p *parser) skipSpace() {
	for p.i < len(p.doc) {
		switch p.doc[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value reads one value; with build false it only scans past it (an entry
// beyond what the tree keeps) and returns nil.
func (p *parser) value(build bool) (*node, error) {
	p.skipSpace()
	if p.i >= len(p.doc) {
		return nil, p.fail("unexpected end")
	}
	switch c := p.doc[p.i]; c {
	case '[', '{':
		return p.container(c == '{', build)
	case '"':
		return p.str(build)
	default:
		start := p.i
		for p.i < len(p.doc) && literalByte(p.doc[p.i]) {
			p.i++
		}
		lit := p.doc[start:p.i]
		if len(lit) == 0 || !validLiteral(lit) {
			return nil, p.fail("invalid value")
		}
		if !build {
			return nil, nil
		}
		return &node{kind: scalar, raw: lit}, nil
	}
}

func (p *parser) container(isObject, build bool) (*node, error) {
	p.i++ // [ or {
	var n *node
	if build {
		n = &node{kind: array}
		if isObject {
			n.kind = object
		}
	}
	closing := byte(']')
	if isObject {
		closing = '}'
	}
	p.skipSpace()
	if p.i < len(p.doc) && p.doc[p.i] == closing {
		p.i++
		return n, nil
	}
	for count := 0; ; count++ {
		keepThis := build && count < p.keep
		if isObject {
			p.skipSpace()
			if p.i >= len(p.doc) || p.doc[p.i] != '"' {
				return nil, p.fail("expected a key")
			}
			k, err := p.str(keepThis)
			if err != nil {
				return nil, err
			}
			if p.skipSpace(); p.i >= len(p.doc) || p.doc[p.i] != ':' {
				return nil, p.fail("expected ':'")
			}
			p.i++
			if keepThis {
				n.keys = append(n.keys, string(k.raw))
			}
		}
		e, err := p.value(keepThis)
		if err != nil {
			return nil, err
		}
		if keepThis {
			n.elems = append(n.elems, e)
		}
		if build {
			n.len++
		}
		p.skipSpace()
		if p.i >= len(p.doc) {
			return nil, p.fail("unexpected end")
		}
		switch p.doc[p.i] {
		case ',':
			p.i++
		case closing:
			p.i++
			return n, nil
		default:
			return nil, p.fail("expected ',' or a closing bracket")
		}
	}
}

// str reads a string; a kept one is decoded up to what a cut can show
// (keys in full), the rest only counted in characters.
func (p *parser) str(build bool) (*node, error) {
	start := p.i + 1
	escaped := false
	i := start
	for ; i < len(p.doc); i++ {
		c := p.doc[i]
		if c == '"' {
			break
		}
		if c == '\\' {
			escaped = true
			i++
		} else if c < 0x20 {
			p.i = i
			return nil, p.fail("control character in a string")
		}
	}
	if i >= len(p.doc) {
		p.i = i
		return nil, p.fail("unterminated string")
	}
	body := p.doc[start:i]
	p.i = i + 1
	s := body
	if escaped {
		var out []byte
		if build {
			out = make([]byte, 0, len(body))
		}
		var ok bool
		if s, ok = unescape(body, out, build); !ok {
			return nil, p.fail("invalid escape in a string")
		}
	}
	if !build {
		return nil, nil
	}
	n := &node{kind: str, raw: s, len: len(s)}
	// More than the budget can never show: keep a budget's worth of bytes
	// (whole characters) and count the characters after them.
	if limit := p.keep + 4; len(s) > limit {
		for limit > 0 && !utf8.RuneStart(s[limit]) {
			limit--
		}
		n.raw, n.rest = s[:limit], utf8.RuneCount(s[limit:])
	}
	return n, nil
}

func literalByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c == '-' || c == '+' || c == '.' || c == 'E'
}

// validLiteral accepts true, false, null and JSON numbers.
func validLiteral(b []byte) bool {
	switch string(b) {
	case "true", "false", "null":
		return true
	}
	i := 0
	if b[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}

// unescape decodes a string's escapes as encoding/json does (a lone
// surrogate becomes U+FFFD), appending to out when build is set; it
// reports whether every escape is valid.
func unescape(body, out []byte, build bool) ([]byte, bool) {
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			if build {
				out = append(out, c)
			}
			continue
		}
		if i++; i >= len(body) {
			return nil, false
		}
		var r rune
		switch body[i] {
		case '"', '\\', '/':
			r = rune(body[i])
		case 'b':
			r = '\b'
		case 'f':
			r = '\f'
		case 'n':
			r = '\n'
		case 'r':
			r = '\r'
		case 't':
			r = '\t'
		case 'u':
			u, ok := hex4(body, i+1)
			if !ok {
				return nil, false
			}
			i += 4
			r = u
			if utf16.IsSurrogate(u) {
				r = utf8.RuneError
				if lo, ok := hex4(body, i+3); ok && i+2 < len(body) && body[i+1] == '\\' && body[i+2] == 'u' {
					if pair := utf16.DecodeRune(u, lo); pair != utf8.RuneError {
						r = pair
						i += 6
					}
				}
			}
		default:
			return nil, false
		}
		if build {
			out = utf8.AppendRune(out, r)
		}
	}
	return out, true
}

// hex4 reads the four hex digits of a \u escape at body[i:].
func hex4(body []byte, i int) (rune, bool) {
	if i+4 > len(body) {
		return 0, false
	}
	var r rune
	for _, c := range body[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
