package codemode

import (
	"encoding/json"
	"errors"
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
	var text string
	if len(args) != 1 || json.Unmarshal(args[0], &text) != nil {
		return nil, errors.New("__cm_depth: expected one string")
	}
	if textTooDeep(text) {
		return json.RawMessage("true"), nil
	}
	return json.RawMessage("false"), nil
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
func parseNatively(raw json.RawMessage) bool { return !textTooDeep([]byte(raw)) }
