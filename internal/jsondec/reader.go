package jsondec

import "strconv"

// Reader reads one JSON value part by part, in the order written, for a
// caller that needs a few of its strings and none of its values: the search
// index reads a few words of each tool's schema at registration, and
// decoding the schemas whole (a map per object) was a quarter of the
// worker's core registering 1,000 tools. It checks the text as Decode
// does (the grammar, the nesting limit, numbers' range, escapes), the
// parts passed over included: once a method has reported false for an
// error, every later one does, and Done tells an error from the end.
type Reader struct {
	d     decoder
	depth int
	first bool // in a container whose first element is still to come
	bad   bool
}

// NewReader reads b; of o, only Shared applies (to Str and Key).
func NewReader(b []byte, o Options) Reader {
	return Reader{d: decoder{b: b, Options: Options{Shared: o.Shared}}}
}

// Kind is the first byte of the value at the reader: '{', '[', '"', or
// another for a number or a literal; 0 on an error or at the end.
func (r *Reader) Kind() byte {
	r.d.space()
	if r.bad || r.d.i >= len(r.d.b) {
		return 0
	}
	return r.d.b[r.d.i]
}

// Enter opens the object or array at the reader; read its parts with Key
// or Elem.
func (r *Reader) Enter() bool {
	if c := r.Kind(); c != '{' && c != '[' || r.depth >= MaxNesting {
		return r.fail()
	}
	r.d.i++
	r.depth++
	r.first = true
	return true
}

// Key reads the next key of the object the reader is in, leaving the
// reader at its value; false after the last one (the object is then
// closed) or on an error.
func (r *Reader) Key() (string, bool) {
	if !r.next('}') {
		return "", false
	}
	if r.Kind() != '"' {
		return "", r.fail()
	}
	k, _, err := r.d.string()
	if r.d.space(); err != nil || r.d.i >= len(r.d.b) || r.d.b[r.d.i] != ':' {
		return "", r.fail()
	}
	r.d.i++
	return k, true
}

// Elem reports whether the array the reader is in has another element,
// leaving the reader at it; false after the last one (the array is then
// closed) or on an error.
func (r *Reader) Elem() bool { return r.next(']') }

// next passes the comma before a container's next part, or its closing.
func (r *Reader) next(closing byte) bool {
	c := r.Kind()
	switch {
	case c == closing:
		r.d.i++
		r.depth--
		r.first = false
		return false
	case r.first:
		r.first = false
		return c != 0 || r.fail()
	case c == ',':
		r.d.i++
		return true
	}
	return r.fail()
}

// Str decodes the string at the reader.
func (r *Reader) Str() (string, bool) {
	if r.Kind() != '"' {
		return "", r.fail()
	}
	s, _, err := r.d.string()
	return s, err == nil || r.fail()
}

// Skip passes over the value at the reader, checking it.
func (r *Reader) Skip() bool {
	if r.Kind() == 0 {
		return r.fail()
	}
	r.d.ranged = true
	return r.d.valid(r.depth) || r.fail()
}

// Done reports whether the text was one value, read whole without an
// error, with white space around it at most.
func (r *Reader) Done() bool {
	r.d.space()
	return !r.bad && r.depth == 0 && r.d.i == len(r.d.b)
}

func (r *Reader) fail() bool {
	r.bad = true
	return false
}

// inRange reports whether the number just scanned, from start, is one
// json.Unmarshal takes into a float64 (Decode refuses the others).
func (d *decoder) inRange(start int) bool {
	_, err := strconv.ParseFloat(string(d.b[start:d.i]), 64)
	return err == nil
}
