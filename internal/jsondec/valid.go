package jsondec

// Valid reports whether b is one JSON value with white space around it at
// most, as json.Valid does (the same grammar and nesting limit; a string's
// bytes are not checked to be UTF-8), without decoding anything: a tool's
// result is checked on every call, and encoding/json's scanner, a call
// through a function value per byte, took 9% of a run handing over 150 KB
// of text under GOOS=js.
func Valid(b []byte) bool {
	d := decoder{b: b}
	if !d.valid(0) {
		return false
	}
	d.space()
	return d.i == len(d.b)
}

// ValidWithin is Valid, and whether b nests arrays and objects more than
// max levels deep (the top-level value's brackets are level 1), found on
// the same pass: a tool's result was scanned once for its depth and again
// for its grammar. Passing max levels stops the pass: deep is then true,
// and valid false whatever follows.
func ValidWithin(b []byte, max int) (valid, deep bool) {
	d := decoder{b: b, within: max}
	if !d.valid(0) {
		return false, d.deep
	}
	d.space()
	return d.i == len(d.b), false
}

// valid passes over the value at d.i, nested depth levels deep, reporting
// whether it is JSON.
func (d *decoder) valid(depth int) bool {
	d.space()
	if d.i >= len(d.b) {
		return false
	}
	switch c := d.b[d.i]; {
	case c == '{' || c == '[':
		if d.within > 0 && depth >= d.within {
			d.deep = true
			return false
		}
		if depth >= MaxNesting {
			return false
		}
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		d.i++
		d.space()
		if d.i < len(d.b) && d.b[d.i] == closing {
			d.i++
			return true
		}
		for {
			if closing == '}' {
				d.space()
				if d.i >= len(d.b) || d.b[d.i] != '"' || !d.validString() {
					return false
				}
				d.space()
				if d.i >= len(d.b) || d.b[d.i] != ':' {
					return false
				}
				d.i++
			}
			if !d.valid(depth + 1) {
				return false
			}
			d.space()
			if d.i >= len(d.b) {
				return false
			}
			switch d.b[d.i] {
			case ',':
				d.i++
			case closing:
				d.i++
				return true
			default:
				return false
			}
		}
	case c == '"':
		return d.validString()
	case c == '-' || '0' <= c && c <= '9':
		start := d.i
		return d.scanNumber() && (!d.ranged || d.inRange(start))
	}
	return d.literal("true") || d.literal("false") || d.literal("null")
}

// validString passes over the string at d.i, reporting whether it is one:
// closed, no control character, each escape one of JSON's.
func (d *decoder) validString() bool {
	for d.i++; d.i < len(d.b); d.i++ {
		if c := d.b[d.i]; c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		switch c := d.b[d.i]; {
		case c == '"':
			d.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if d.i++; d.i >= len(d.b) {
				return false
			}
			switch d.b[d.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if len(d.b)-d.i <= 4 {
					return false
				}
				for _, h := range d.b[d.i+1 : d.i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false
					}
				}
				d.i += 4
			default:
				return false
			}
		}
	}
	return false
}
