package codemode

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// maxParseDepth is how deep a text the sandbox's JSON.parse reads
// (prelude/api.js tooDeep refuses deeper ones with a RangeError).
const maxParseDepth = 1000

// jsonDepthHost is the host function __cm_depth: whether the text it is
// given (its one argument, a string) nests deeper than maxParseDepth, as
// JSON.parse would read it. The prelude calls it for a long text with
// more than maxParseDepth opening brackets, where counting depth in QuickJS
// cost 9 ms per 123 KB (a tool's 2,000 records handed over as text).
func jsonDepthHost(args []json.RawMessage) (json.RawMessage, error) {
	if len(args) != 1 {
		return nil, errors.New("__cm_depth: expected one string")
	}
	deep, ok := literalTooDeep(bytes.Trim(args[0], " \t\n\r"))
	if !ok {
		return nil, errors.New("__cm_depth: expected one string")
	}
	if deep {
		return json.RawMessage("true"), nil
	}
	return json.RawMessage("false"), nil
}

// literalTooDeep is textTooDeep of the text a JSON string literal holds,
// counted on the literal, its escapes decoded on the way: json.Unmarshal
// of a tool's text of 2,000 records (its quotes escaped, 150 KB) was most
// of the host function's time. ok is false when lit is not a JSON string.
// Inside the text's strings, a backslash escapes the next character, which
// is textTooDeep's rule (a quote preceded by an even run of backslashes
// ends the string) read forwards.
func literalTooDeep(lit []byte) (deep, ok bool) {
	n := len(lit)
	if n < 2 || lit[0] != '"' || lit[n-1] != '"' {
		return false, false
	}
	d, inString, escaped := 0, false, false
	for i := 1; i < n-1; i++ {
		c := lit[i]
		if !literalSpecial[c] && !escaped {
			continue // most of a text: no state changes
		}
		switch {
		case c == '"' || c < 0x20:
			return false, false
		case c == '\\':
			if i++; i == n-1 {
				return false, false
			}
			switch c = lit[i]; c {
			case '"', '\\', '/':
			case 'b', 'f', 'n', 'r', 't':
				c = ' ' // a control character: none the count reads
			case 'u':
				if i+4 >= n-1 {
					return false, false
				}
				h, err := strconv.ParseUint(string(lit[i+1:i+5]), 16, 16)
				if err != nil {
					return false, false
				}
				i += 4
				if c = ' '; h < 0x80 {
					c = byte(h)
				}
			default:
				return false, false
			}
		}
		switch {
		case deep:
			// Counted: the rest is only checked to be a JSON string.
		case inString:
			if escaped {
				escaped = false
			} else if c == '\\' {
				escaped = true
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			d++
			deep = d > maxParseDepth
		case c == ']' || c == '}':
			d--
		}
	}
	return deep, true
}

// literalSpecial marks the bytes of a JSON string literal that
// literalTooDeep reads (a constant table: static data, no init code).
var literalSpecial = [256]bool{
	0: true, 1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true, 9: true, 10: true, 11: true, 12: true, 13: true, 14: true, 15: true,
	16: true, 17: true, 18: true, 19: true, 20: true, 21: true, 22: true, 23: true, 24: true, 25: true, 26: true, 27: true, 28: true, 29: true, 30: true, 31: true,
	'"': true, '\\': true, '[': true, ']': true, '{': true, '}': true,
}

// textTooDeep says whether brackets outside strings open more than
// maxParseDepth levels at some point of t. A string is skipped from its
// quote to the next quote not preceded by an odd run of backslashes; an
// unterminated one ends the count (JSON.parse refuses that text anyway).
// Closing brackets are not matched against opening ones: a text whose
// depth this miscounts is not JSON, and JSON.parse refuses it.
func textTooDeep[T string | []byte](t T) bool {
	d := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '"':
			for {
				j := indexQuote(t[i+1:])
				if j < 0 {
					return false
				}
				i += 1 + j
				k := i - 1
				for t[k] == '\\' {
					k--
				}
				if (i-1-k)%2 == 0 {
					break
				}
			}
		case '[', '{':
			if d++; d > maxParseDepth {
				return true
			}
		case ']', '}':
			d--
		}
	}
	return false
}

// indexQuote is the index of the first '"' of t, or -1.
func indexQuote[T string | []byte](t T) int {
	for i := 0; i < len(t); i++ {
		if t[i] == '"' {
			return i
		}
	}
	return -1
}

// parseNatively is the run's sandbox.Program.NativeParse: a tool's or a
// search's result, JSON the host produced, is checked here, on its bytes,
// and then read by QuickJS's own JSON.parse. Through the prelude's guard
// (api.js parse) the same check cost four calls in QuickJS for every
// result, and for a long one a copy of its text made by JSON.stringify.
// A text too deep goes to the guard, which throws its RangeError.
func parseNatively(raw json.RawMessage) bool {
	// A result that starts with a quote is one string (it is JSON: execute
	// checked it), which nests nothing, as the guard's tooDeep says too.
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			return true
		}
		break
	}
	return !textTooDeep([]byte(raw))
}
