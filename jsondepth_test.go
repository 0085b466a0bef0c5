package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
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
		{"an escaped letter, then the closing quote", `["a\n", ` + open + "[", true},
		{"an unterminated string ends the count", `["` + open + "[", false},
		{"closing brackets lower the depth", "[" + strings.Repeat("[[]],", 2*maxParseDepth) + "1]", false},
		{"white space and numbers", " \r\n\t[" + strings.Repeat(" [1, ", maxParseDepth) + "2" + strings.Repeat("]", maxParseDepth+1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := textTooDeep(tc.text); got != tc.want {
				t.Errorf("textTooDeep = %v, want %v", got, tc.want)
			}
			// The host function counts on the text's JSON literal: as
			// JSON.stringify writes it, and with every character escaped
			// (\u005b is a bracket, \u0022 a quote, \u005c a backslash).
			arg, _ := json.Marshal(tc.text)
			for _, lit := range []json.RawMessage{arg, escapeAll(tc.text), json.RawMessage(" \n" + string(arg) + "\t")} {
				out, err := jsonDepthHost([]json.RawMessage{lit})
				if err != nil || string(out) != map[bool]string{true: "true", false: "false"}[tc.want] {
					t.Errorf("jsonDepthHost(%.30s) = %s, %v; want %v", lit, out, err, tc.want)
				}
			}
		})
	}
	for _, args := range [][]json.RawMessage{nil, {json.RawMessage(`1`)}, {json.RawMessage(`"a"`), json.RawMessage(`"b"`)},
		{json.RawMessage(`"a`)}, {json.RawMessage(`"`)}, {json.RawMessage(`"a"b"`)}, {json.RawMessage(`"a\"`)}, {json.RawMessage(`"\x"`)},
		{json.RawMessage(`"\u12"`)}, {json.RawMessage(`"\u12g4"`)}, {json.RawMessage(`"\u+123"`)}, {json.RawMessage("\"tab\tinside\"")}, {json.RawMessage(`["a"]`)}} {
		if _, err := jsonDepthHost(args); err == nil || !strings.Contains(err.Error(), "expected one string") {
			t.Errorf("jsonDepthHost(%s) = %v, want an error saying what it expects", args, err)
		}
	}
}

// TestToolResultParse: a tool's result reaches the program as the sandbox's
// JSON.parse gives that text: read by QuickJS's own parse after the host's
// depth check (parseNatively). Each row's text also crosses as a string and
// is parsed in the program (the guarded path): both must agree, except a
// text too deep, whose call fails naming the tool (checkOutput) where the
// program's own JSON.parse of it gets the guard's RangeError.
func TestToolResultParse(t *testing.T) {
	open, close := strings.Repeat("[", maxParseDepth), strings.Repeat("]", maxParseDepth)
	records := strings.Repeat(`{"id":1,"tags":["[","{\"","\\"]},`, 2000)
	texts := []string{
		`{"id":1,"name":"item-1","tags":["alpha","beta"],"active":false}`,
		`"a string"`, `"\u2028 \ud83d\ude00 caf\u00e9"`, `-0`, `1.5e300`, `null`, `true`, `[]`,
		`{"__proto__":{"x":1}}`,
		open + close,
		"[" + open + close + "]",
		`["\\", ` + open + "[1]" + close + "]",
		"[" + records + "1]",
		"[" + records + open + close + "]",
		`"` + strings.Repeat("[", 5000) + `"`,
	}
	var jsonTexts []json.RawMessage
	for _, s := range texts {
		b, _ := json.Marshal(s)
		jsonTexts = append(jsonTexts, b)
	}
	pick := func(in json.RawMessage) int {
		var x struct{ I int }
		json.Unmarshal(in, &x)
		return x.I
	}
	raw := Tool{Name: "t.raw", Execute: func(_ context.Context, in json.RawMessage, _ Call) (json.RawMessage, error) {
		return json.RawMessage(texts[pick(in)]), nil
	}}
	text := Tool{Name: "t.text", Execute: func(_ context.Context, in json.RawMessage, _ Call) (json.RawMessage, error) {
		return jsonTexts[pick(in)], nil
	}}
	_, s := newHostile(t, Config{Timeout: time.Minute}, raw, text)
	for i, tx := range texts {
		code := fmt.Sprintf(`const see = async (f) => { try { const v = await f(); return ["ok", Object.is(v, -0) ? "-0" : v] } catch (e) { return [e.name, e.message, e instanceof RangeError] } };
const a = await see(() => tools.t.raw({ i: %d })), b = await see(async () => JSON.parse(await tools.t.text({ i: %d })));
const sa = JSON.stringify(a), sb = JSON.stringify(b);
return sa === sb ? a[0] === "ok" ? "same" : a : [sa.slice(0, 200), sb.slice(0, 200)]`, i, i)
		res := exec(t, s, code, nil)
		if !res.OK {
			t.Fatalf("row %d: %+v", i, res.Error)
		}
		want := `"same"`
		switch i {
		case 10, 11, 13:
			// Too deep: the raw result fails its call naming the tool
			// (checkOutput); the text parsed by the program gets the
			// guard's RangeError.
			want = `["[\"ToolError\",\"tool t.raw returned a value that nests more than 1,000 levels deep\",false]","[\"RangeError\",\"JSON.parse: the text nests more than 1,000 levels deep\",true]"]`
		}
		if string(res.Result) != want {
			t.Errorf("row %d (%.40s): %s", i, tx, res.Result)
		}
	}
}

// escapeAll writes s as a JSON string literal whose every character is a
// \u escape (surrogate pairs for those past the BMP).
func escapeAll(s string) json.RawMessage {
	var b strings.Builder
	b.WriteByte('"')
	for _, u := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&b, "\\u%04x", u)
	}
	b.WriteByte('"')
	return json.RawMessage(b.String())
}
