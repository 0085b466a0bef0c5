package tsgen

import (
	"encoding/json"
	"strings"
)

// decodeShape decodes a result for Shape.add: the values decodeOrdered
// gives (*omap, []any, json.Number, string, bool, nil), but only as far as
// add reads them. Elements past inferMaxElems are skipped, and an array or
// object at inferMaxDepth is left empty, its kind being all add records
// there. Decoding all of a list tool's result cost far more than the rest
// of the call: 2,000 records (123 KB) took 8.4 ms and 136,000 allocations
// natively through json.Decoder's tokens, three times that in the core
// under GOOS=js, on each of a tool's first maxInferSamples calls. raw must
// be valid JSON (json.Valid): the decoder does not check the grammar
// again, only stays within raw.
func decodeShape(raw []byte) any {
	d := shapeDecoder{b: raw}
	return d.value(0)
}

type shapeDecoder struct {
	b []byte
	i int
}

func (d *shapeDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// value decodes the value at d.i, nested depth levels deep.
func (d *shapeDecoder) value(depth int) any {
	d.space()
	if d.i >= len(d.b) {
		return nil
	}
	switch c := d.b[d.i]; c {
	case '{':
		m := &omap{vals: map[string]any{}}
		if depth >= inferMaxDepth {
			d.skip()
			return m
		}
		d.i++
		for {
			d.space()
			if d.i >= len(d.b) || d.b[d.i] == '}' {
				d.i++
				return m
			}
			if d.b[d.i] == ',' {
				d.i++
				d.space()
			}
			k := d.str()
			d.space()
			d.i++ // ':'
			v := d.value(depth + 1)
			if _, dup := m.vals[k]; !dup {
				m.keys = append(m.keys, k)
			}
			m.vals[k] = v
		}
	case '[':
		arr := []any{}
		if depth >= inferMaxDepth {
			d.skip()
			return arr
		}
		d.i++
		for {
			d.space()
			if d.i >= len(d.b) || d.b[d.i] == ']' {
				d.i++
				return arr
			}
			if d.b[d.i] == ',' {
				d.i++
			}
			if len(arr) == inferMaxElems {
				d.skip()
			} else {
				arr = append(arr, d.value(depth+1))
			}
		}
	case '"':
		return d.str()
	case 't':
		d.i += len("true")
		return true
	case 'f':
		d.i += len("false")
		return false
	case 'n':
		d.i += len("null")
		return nil
	default:
		start := d.i
		for d.i < len(d.b) && (d.b[d.i] >= '0' && d.b[d.i] <= '9' || d.b[d.i] == '-' || d.b[d.i] == '+' || d.b[d.i] == '.' || d.b[d.i] == 'e' || d.b[d.i] == 'E') {
			d.i++
		}
		return json.Number(d.b[start:d.i])
	}
}

// strEnd is the index of the quote that closes the string opening at d.i.
func (d *shapeDecoder) strEnd() int {
	i := d.i + 1
	for i < len(d.b) && d.b[i] != '"' {
		if d.b[i] == '\\' {
			i++
		}
		i++
	}
	return i
}

// str decodes the string at d.i; one with escapes as encoding/json does.
func (d *shapeDecoder) str() string {
	start, end := d.i, d.strEnd()
	d.i = end + 1
	if end >= len(d.b) {
		return ""
	}
	for _, c := range d.b[start+1 : end] {
		if c == '\\' {
			var s string
			json.Unmarshal(d.b[start:end+1], &s)
			return s
		}
	}
	return string(d.b[start+1 : end])
}

// skip passes over the value at d.i without decoding it.
func (d *shapeDecoder) skip() {
	d.space()
	if d.i >= len(d.b) {
		return
	}
	switch d.b[d.i] {
	case '"':
		d.i = d.strEnd() + 1
	case '[', '{':
		for depth := 0; d.i < len(d.b); d.i++ {
			switch d.b[d.i] {
			case '"':
				d.i = d.strEnd()
			case '[', '{':
				depth++
			case ']', '}':
				if depth--; depth == 0 {
					d.i++
					return
				}
			}
		}
	default: // a number or a literal
		for d.i < len(d.b) && !strings.ContainsRune(",]} \t\n\r", rune(d.b[d.i])) {
			d.i++
		}
	}
}
