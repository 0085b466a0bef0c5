package codemode

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// decodeJSON decodes JSON text into encoding/json's generic values
// (map[string]any, []any, string, float64, bool, nil), exactly as
// json.Unmarshal into an any does, in one pass and without reflection:
// registering a catalog decodes every tool's schema, and json.Unmarshal's
// validation pass plus reflective decode was a good share of the cost of
// registering 1,000 tools. Text it does not take on its fast path (a
// string with escapes or invalid UTF-8) is decoded by encoding/json; text
// that is not valid JSON, or that json.Unmarshal would refuse (a number
// out of range, nesting past its limit), is an error, whatever the reason:
// callers that need encoding/json's own message ask it.
func decodeJSON(b []byte) (any, error) {
	return (&jsonDecoder{b: b}).decode()
}

// decodeJSONNumbers is decodeJSON with every number as a json.Number (its
// text, unchecked for range), exactly as jsonschema.UnmarshalJSON (a
// json.Decoder with UseNumber) gives a tool's input to the validator:
// every tool call's input is decoded so, and the reflective decoder and
// its reader were most of the input check's time on the page.
func decodeJSONNumbers(b []byte) (any, error) {
	return (&jsonDecoder{b: b, numbers: true}).decode()
}

func (d *jsonDecoder) decode() (any, error) {
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.space()
	if d.i != len(d.b) {
		return nil, errJSONSyntax
	}
	return v, nil
}

var errJSONSyntax = errors.New("invalid JSON")

// maxJSONDepth is encoding/json's nesting limit.
const maxJSONDepth = 10000

type jsonDecoder struct {
	b []byte
	i int
	// numbers: a number is its text (json.Number), as with UseNumber.
	numbers bool
}

func (d *jsonDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *jsonDecoder) value(depth int) (any, error) {
	d.space()
	if d.i >= len(d.b) {
		return nil, errJSONSyntax
	}
	switch c := d.b[d.i]; {
	case c == '{':
		if depth >= maxJSONDepth {
			return nil, errJSONSyntax
		}
		return d.object(depth + 1)
	case c == '[':
		if depth >= maxJSONDepth {
			return nil, errJSONSyntax
		}
		return d.array(depth + 1)
	case c == '"':
		s, err := d.string()
		if err != nil {
			return nil, err
		}
		return s, nil
	case c == '-' || '0' <= c && c <= '9':
		return d.number()
	case d.literal("true"):
		return true, nil
	case d.literal("false"):
		return false, nil
	case d.literal("null"):
		return nil, nil
	}
	return nil, errJSONSyntax
}

// literal consumes lit if the text at d.i starts with it.
func (d *jsonDecoder) literal(lit string) bool {
	if len(d.b)-d.i >= len(lit) && string(d.b[d.i:d.i+len(lit)]) == lit {
		d.i += len(lit)
		return true
	}
	return false
}

func (d *jsonDecoder) object(depth int) (any, error) {
	d.i++ // {
	m := map[string]any{}
	d.space()
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		return m, nil
	}
	for {
		d.space()
		if d.i >= len(d.b) || d.b[d.i] != '"' {
			return nil, errJSONSyntax
		}
		k, err := d.string()
		if err != nil {
			return nil, err
		}
		d.space()
		if d.i >= len(d.b) || d.b[d.i] != ':' {
			return nil, errJSONSyntax
		}
		d.i++
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		m[k] = v // a repeated key: the last one wins, as in encoding/json
		more, err := d.more('}')
		if err != nil {
			return nil, err
		}
		if !more {
			return m, nil
		}
	}
}

func (d *jsonDecoder) array(depth int) (any, error) {
	d.i++ // [
	list := []any{}
	d.space()
	if d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
		return list, nil
	}
	for {
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
		more, err := d.more(']')
		if err != nil {
			return nil, err
		}
		if !more {
			return list, nil
		}
	}
}

// more reads what follows an element of an object or array: a comma (more
// elements follow) or the closing bracket.
func (d *jsonDecoder) more(closing byte) (bool, error) {
	d.space()
	if d.i < len(d.b) {
		switch d.b[d.i] {
		case ',':
			d.i++
			return true, nil
		case closing:
			d.i++
			return false, nil
		}
	}
	return false, errJSONSyntax
}

// string decodes a string at d.i; most have no escapes and are UTF-8.
func (d *jsonDecoder) string() (string, error) {
	start := d.i
	d.i++ // "
	plain, ascii := true, true
	for d.i < len(d.b) {
		// Only the closing quote, escapes, control characters and
		// non-ASCII need a look. (A lookup table would be built at package
		// init, which V8 optimises at every cold start.)
		c := d.b[d.i]
		if c >= 0x20 && c < 0x80 && c != '"' && c != '\\' {
			d.i++
			continue
		}
		switch {
		case c == '"':
			d.i++
			if plain && (ascii || utf8.Valid(d.b[start+1:d.i-1])) {
				return string(d.b[start+1 : d.i-1]), nil
			}
			var s string
			if err := json.Unmarshal(d.b[start:d.i], &s); err != nil {
				return "", err
			}
			return s, nil
		case c == '\\':
			plain = false
			d.i += 2
		case c < 0x20:
			return "", errJSONSyntax
		default: // >= 0x80
			ascii = false
			d.i++
		}
	}
	return "", errJSONSyntax
}

// number decodes a number at d.i, checking JSON's grammar, which
// strconv.ParseFloat alone would not (it takes "01", "1." and "+1").
func (d *jsonDecoder) number() (any, error) {
	start := d.i
	digits := func() int {
		n := 0
		for d.i < len(d.b) && '0' <= d.b[d.i] && d.b[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	if d.b[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(d.b) && d.b[d.i] == '0':
		d.i++
	case digits() == 0:
		return nil, errJSONSyntax
	}
	if d.i < len(d.b) && d.b[d.i] == '.' {
		d.i++
		if digits() == 0 {
			return nil, errJSONSyntax
		}
	}
	if d.i < len(d.b) && (d.b[d.i] == 'e' || d.b[d.i] == 'E') {
		d.i++
		if d.i < len(d.b) && (d.b[d.i] == '+' || d.b[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			return nil, errJSONSyntax
		}
	}
	if d.numbers {
		return json.Number(d.b[start:d.i]), nil
	}
	f, err := strconv.ParseFloat(string(d.b[start:d.i]), 64)
	if err != nil {
		return nil, errJSONSyntax // out of range: json.Unmarshal refuses it too
	}
	return f, nil
}
