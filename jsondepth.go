package codemode

import (
	"encoding/json"
	"errors"
	"strings"
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
func textTooDeep(t string) bool {
	d := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '"':
			for {
				j := strings.IndexByte(t[i+1:], '"')
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
