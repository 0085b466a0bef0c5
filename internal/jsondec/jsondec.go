// Package jsondec is the one-pass JSON decoder of the module: JSON text to
// generic values without reflection. Its callers differ in what they need
// of the values, which Options says: a tool's schema and every call's input
// are decoded as encoding/json would (a map per object, numbers as float64
// or json.Number); a schema rendered as a signature keeps its key order (a
// *Object); a tool's result sampled for its type is decoded only as deep and
// as wide as the sample is read (MaxDepth, MaxElems). json.Unmarshal and
// json.Decoder's tokens were most of the cost of each: a validation pass,
// then reflection or a token per value.
package jsondec

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Options says what the decoded values are. The zero value decodes as
// json.Unmarshal into an any does.
type Options struct {
	// Ordered: an object is an *Object, which keeps its keys in the order
	// written, instead of a map[string]any.
	Ordered bool
	// Numbers: a number is its text as a json.Number, unchecked for range,
	// as with json.Decoder's UseNumber, instead of a float64.
	Numbers bool
	// MaxDepth, if positive: an array or object nested MaxDepth levels deep
	// (the top-level value is at level 0) is passed over and left empty.
	MaxDepth int
	// MaxElems, if positive: an array's elements past the first MaxElems are
	// passed over.
	MaxElems int
	// StringsUnread: a string value (an object's keys are still read) is
	// passed over and decoded as "", for a caller that needs only its kind
	// and gives text known to be valid, as with the limits. A tool's text
	// result of 123 KB, its quotes escaped, went through json.Unmarshal
	// to learn that it is a string.
	StringsUnread bool
	// Outline, if positive: an array or object nested Outline-1 levels
	// deep or deeper (Outline 1: the top-level value itself) is checked as
	// Valid checks it and decoded as a Passed, its kind only, for a caller
	// that reads no deeper: a tool's input checked against a schema that
	// says only {"type":"object"} was decoded whole, 50,000 rows of it.
	Outline int
	// Shared: a string written without escapes in valid UTF-8 (most are)
	// is a view of the text's bytes, not a copy, for a caller that drops
	// the values before the text can change. A tool's input of 80 M
	// characters was in the Go core twice while its schema checked it
	// (WebAssembly memory never shrinks).
	Shared bool
	// Beat, if set, is called after every 4,096th element of the arrays
	// and objects decoded, its answer unread: a schema of 100,000
	// alternatives took 0.2 s under GOOS=js, where a check's stop shows the
	// core's life (the worker's page replaces a worker silent past a run's
	// deadline).
	Beat func() bool
}

// Object is a decoded JSON object that remembers the order of its keys.
// A repeated key keeps its first place and its last value, as
// encoding/json keeps the last.
type Object struct {
	Keys []string
	Vals map[string]any
}

// Get is the value of key k; a nil *Object has none.
func (o *Object) Get(k string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.Vals[k]
	return v, ok
}

// Str is the value of key k if it is a string, else "".
func (o *Object) Str(k string) string {
	v, _ := o.Get(k)
	s, _ := v.(string)
	return s
}

// Passed is an array ('[') or an object ('{') that Decode passed over at
// Options.Outline: valid JSON of that kind, its contents unread.
type Passed byte

// ErrSyntax is the error for text that is not JSON, or that json.Unmarshal
// would refuse (a number out of float64's range, nesting past its limit);
// a string with a bad escape gives encoding/json's error. Callers that show
// what is wrong ask encoding/json for its own words.
var ErrSyntax = errors.New("invalid JSON")

// MaxNesting is encoding/json's nesting limit.
const MaxNesting = 10000

// Decode decodes one JSON value, surrounded by white space at most. Text
// it does not take on its fast path (a string with escapes or invalid
// UTF-8) is decoded by encoding/json, so strings are exactly its strings.
// The grammar is checked wherever a value is decoded; text passed over
// (past MaxDepth or MaxElems) is only scanned for its end, so a caller
// that sets a limit gives text known to be valid (json.Valid).
func Decode(b []byte, o Options) (any, error) {
	// What Outline passes over is refused where the same text decoded
	// would be: a number past float64's range, unless Numbers keeps it.
	d := decoder{b: b, Options: o, ranged: !o.Numbers}
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.space()
	if d.i != len(d.b) {
		return nil, ErrSyntax
	}
	return v, nil
}

type decoder struct {
	b []byte
	i int
	Options
	// ranged: valid also refuses numbers out of float64's range, as
	// Decode does (Reader.Skip, Outline without Numbers).
	ranged bool
	// within, if positive: valid stops at an array or object nested
	// within levels deep, and sets deep (ValidWithin).
	within int
	deep   bool
	elems  int // elements decoded, for Beat
}

func (d *decoder) space() {
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
func (d *decoder) value(depth int) (any, error) {
	d.space()
	if d.i >= len(d.b) {
		return nil, ErrSyntax
	}
	switch c := d.b[d.i]; {
	case (c == '{' || c == '[') && d.Outline > 0 && depth >= d.Outline-1:
		if !d.valid(depth) {
			return nil, ErrSyntax
		}
		return Passed(c), nil
	case c == '{':
		if depth >= MaxNesting {
			return nil, ErrSyntax
		}
		if d.MaxDepth > 0 && depth >= d.MaxDepth {
			d.skip()
			if d.Ordered {
				return &Object{Vals: map[string]any{}}, nil
			}
			return map[string]any{}, nil
		}
		return d.object(depth + 1)
	case c == '[':
		if depth >= MaxNesting {
			return nil, ErrSyntax
		}
		if d.MaxDepth > 0 && depth >= d.MaxDepth {
			d.skip()
			return []any{}, nil
		}
		return d.array(depth + 1)
	case c == '"':
		if d.StringsUnread {
			d.i = d.strEnd() + 1
			return "", nil
		}
		s, word, err := d.string()
		if err != nil {
			return nil, err
		}
		if word != nil {
			return word, nil
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
	return nil, ErrSyntax
}

// literal consumes lit if the text at d.i starts with it.
func (d *decoder) literal(lit string) bool {
	if len(d.b)-d.i >= len(lit) && string(d.b[d.i:d.i+len(lit)]) == lit {
		d.i += len(lit)
		return true
	}
	return false
}

func (d *decoder) object(depth int) (any, error) {
	d.i++ // {
	var m map[string]any
	var o *Object
	if d.Ordered {
		o = &Object{Vals: map[string]any{}}
	} else {
		m = map[string]any{}
	}
	d.space()
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		if o != nil {
			return o, nil
		}
		return m, nil
	}
	for {
		d.space()
		if d.i >= len(d.b) || d.b[d.i] != '"' {
			return nil, ErrSyntax
		}
		k, _, err := d.string()
		if err != nil {
			return nil, err
		}
		d.space()
		if d.i >= len(d.b) || d.b[d.i] != ':' {
			return nil, ErrSyntax
		}
		d.i++
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		if o == nil {
			m[k] = v // a repeated key: the last one wins, as in encoding/json
		} else {
			if _, dup := o.Vals[k]; !dup {
				o.Keys = append(o.Keys, k)
			}
			o.Vals[k] = v
		}
		more, err := d.more('}')
		if err != nil {
			return nil, err
		}
		if !more {
			if o != nil {
				return o, nil
			}
			return m, nil
		}
	}
}

func (d *decoder) array(depth int) (any, error) {
	d.i++ // [
	list := []any{}
	d.space()
	if d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
		return list, nil
	}
	for {
		if d.MaxElems > 0 && len(list) == d.MaxElems {
			d.skip()
		} else {
			v, err := d.value(depth)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
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
func (d *decoder) more(closing byte) (bool, error) {
	d.space()
	if d.i < len(d.b) {
		switch d.b[d.i] {
		case ',':
			d.i++
			if d.elems++; d.Beat != nil && d.elems&4095 == 0 {
				d.Beat()
			}
			return true, nil
		case closing:
			d.i++
			return false, nil
		}
	}
	return false, ErrSyntax
}

// string decodes a string at d.i; most have no escapes and are UTF-8.
// word is the string as a value when it is one of schemaWord's, else nil.
func (d *decoder) string() (string, any, error) {
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
			if plain && ascii {
				if w := schemaWord(d.b[start+1 : d.i-1]); w != nil {
					return w.(string), w, nil
				}
			}
			if plain && (ascii || utf8.Valid(d.b[start+1:d.i-1])) {
				text := d.b[start+1 : d.i-1]
				if d.Shared {
					// (unsafe.String cost the core 1 KB of brotli more.)
					return *(*string)(unsafe.Pointer(&text)), nil, nil
				}
				return string(text), nil, nil
			}
			if u, ok := unquote(d.b[start+1 : d.i-1]); ok {
				return u, nil, nil
			}
			var u string
			if err := json.Unmarshal(d.b[start:d.i], &u); err != nil {
				return "", nil, err // its words for a bad escape
			}
			return u, nil, nil
		case c == '\\':
			plain = false
			d.i += 2
		case c < 0x20:
			return "", nil, ErrSyntax
		default: // >= 0x80
			ascii = false
			d.i++
		}
	}
	return "", nil, ErrSyntax
}

// schemaWord returns the words JSON Schema repeats, its common keywords
// and type names, as constants: most of a tool's schema text, which
// registering a catalog decodes, and which then costs neither a string
// nor (a value) the interface holding it. nil for any other text.
func schemaWord(b []byte) any {
	switch string(b) {
	case "type":
		return "type"
	case "description":
		return "description"
	case "properties":
		return "properties"
	case "required":
		return "required"
	case "items":
		return "items"
	case "enum":
		return "enum"
	case "format":
		return "format"
	case "default":
		return "default"
	case "title":
		return "title"
	case "string":
		return "string"
	case "object":
		return "object"
	case "integer":
		return "integer"
	case "number":
		return "number"
	case "boolean":
		return "boolean"
	case "array":
		return "array"
	case "null":
		return "null"
	}
	return nil
}

// number decodes a number at d.i, checking JSON's grammar, which
// strconv.ParseFloat alone would not (it takes "01", "1." and "+1").
func (d *decoder) number() (any, error) {
	start := d.i
	if !d.scanNumber() {
		return nil, ErrSyntax
	}
	if d.Numbers {
		return json.Number(d.b[start:d.i]), nil
	}
	f, err := strconv.ParseFloat(string(d.b[start:d.i]), 64)
	if err != nil {
		return nil, ErrSyntax // out of range: json.Unmarshal refuses it too
	}
	return f, nil
}

// scanNumber passes over the number at d.i, reporting whether it follows
// JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *decoder) scanNumber() bool {
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
		return false
	}
	if d.i < len(d.b) && d.b[d.i] == '.' {
		d.i++
		if digits() == 0 {
			return false
		}
	}
	if d.i < len(d.b) && (d.b[d.i] == 'e' || d.b[d.i] == 'E') {
		d.i++
		if d.i < len(d.b) && (d.b[d.i] == '+' || d.b[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}

// skip passes over the value at d.i, which is valid JSON, without
// decoding or checking it.
func (d *decoder) skip() {
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
		for d.i < len(d.b) {
			switch d.b[d.i] {
			case ',', ']', '}', ' ', '\t', '\n', '\r':
				return
			}
			d.i++
		}
	}
}

// strEnd is the index of the quote that closes the string opening at d.i.
func (d *decoder) strEnd() int {
	i := d.i + 1
	for i < len(d.b) && d.b[i] != '"' {
		if d.b[i] == '\\' {
			i++
		}
		i++
	}
	return i
}

// unquote is the string encoding/json reads from the inside of a string's
// quotes (s holds no control character and no unescaped quote): escapes
// decoded, a \u escape of a lone surrogate and each byte of invalid UTF-8
// as U+FFFD. ok is false for an escape JSON does not have, which the
// caller leaves to encoding/json for its error. json.Unmarshal scanned the
// text twice and reflected on its target: a catalog's descriptions and
// schema texts nearly all hold an escape (a newline, a quote), and that
// was 6% of registering one in a worker.
func unquote(s []byte) (string, bool) {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			if i+1 >= len(s) {
				return "", false
			}
			switch e := s[i+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(s[i+2:])
				if r < 0 {
					return "", false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					// A pair is one character; anything else in its place
					// is U+FFFD, and what follows is read on its own.
					if len(s)-i >= 6 && s[i] == '\\' && s[i+1] == 'u' {
						if p := utf16.DecodeRune(r, hex4(s[i+2:])); p != utf8.RuneError {
							b = utf8.AppendRune(b, p)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				b = utf8.AppendRune(b, r)
				continue
			default:
				return "", false
			}
			i += 2
		case c < utf8.RuneSelf:
			j := i + 1
			for j < len(s) && s[j] != '\\' && s[j] < utf8.RuneSelf {
				j++
			}
			b = append(b, s[i:j]...)
			i = j
		default:
			r, n := utf8.DecodeRune(s[i:])
			b = utf8.AppendRune(b, r) // RuneError for a bad byte, as encoding/json
			i += n
		}
	}
	return *(*string)(unsafe.Pointer(&b)), true // b is no one else's: no copy
}

// hex4 is the value of the four hex digits s starts with, -1 if it does
// not.
func hex4(s []byte) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}
