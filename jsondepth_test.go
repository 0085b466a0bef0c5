package codemode

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTextTooDeep: the host's depth count of a text JSON.parse is about to
// read (prelude/api.js tooDeep hands it the long ones): brackets in strings
// do not count, a quote ends a string unless an odd run of backslashes
// precedes it, and depth is the most brackets open at once.
func TestTextTooDeep(t *testing.T) {
	open, close := strings.Repeat("[", maxParseDepth), strings.Repeat("]", maxParseDepth)
	for _, tc := range []struct {
		name string
		text string
		want bool
	}{
		{"1,000 levels", open + close, false},
		{"1,001 levels", "[" + open + close + "]", true},
		{"objects count", strings.Repeat(`{"a":`, maxParseDepth+1) + "1" + strings.Repeat("}", maxParseDepth+1), true},
		{"many brackets, shallow", strings.Repeat(`{"id":1,"tags":["a","b"]},`, 2000), false},
		{"brackets in a string", `["` + open + `[", 1]`, false},
		{"an escaped quote does not end a string", `["\"` + open + `[", 1]`, false},
		{"an escaped backslash ends its string", `["\\", ` + open + "[", true},
		{"three backslashes escape the quote", `["\\\"` + open + `[", 1]`, false},
		{"an unterminated string ends the count", `["` + open + "[", false},
		{"closing brackets lower the depth", "[" + strings.Repeat("[[]],", 2*maxParseDepth) + "1]", false},
		{"white space and numbers", " \r\n\t[" + strings.Repeat(" [1, ", maxParseDepth) + "2" + strings.Repeat("]", maxParseDepth+1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := textTooDeep(tc.text); got != tc.want {
				t.Errorf("textTooDeep = %v, want %v", got, tc.want)
			}
			arg, _ := json.Marshal(tc.text)
			out, err := jsonDepthHost([]json.RawMessage{arg})
			if err != nil || string(out) != map[bool]string{true: "true", false: "false"}[tc.want] {
				t.Errorf("jsonDepthHost = %s, %v; want %v", out, err, tc.want)
			}
		})
	}
	for _, args := range [][]json.RawMessage{nil, {json.RawMessage(`1`)}, {json.RawMessage(`"a"`), json.RawMessage(`"b"`)}} {
		if _, err := jsonDepthHost(args); err == nil || !strings.Contains(err.Error(), "expected one string") {
			t.Errorf("jsonDepthHost(%s) = %v, want an error saying what it expects", args, err)
		}
	}
}
