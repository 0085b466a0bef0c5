package codemode

import "testing"

// "[object Object]" in a tool's input or the run's result: the warning
// names where, as a string's text or as a key.
func TestObjectTextNote(t *testing.T) {
	text := func(path string) string {
		return path + `: a string with "[object Object]" in it: an object was made into text`
	}
	key := func(path string) string {
		return path + `: a key "[object Object]": an object was used as a property name`
	}
	cases := []struct{ name, doc, want string }{
		{"none", `{"a":"[object Array]","b":["object Object"]}`, ""},
		{"the result itself", `"Order: [object Object]"`, text("result")},
		{"in an array of objects", `{"orders":[{"id":"o-1","label":"ok"},{"id":"o-2","label":"Order: [object Object]"}]}`, text("result.orders[1].label")},
		{"after nested arrays and values", `{"a":[1,[2,{"x":null}],true],"b":{"c":"x [object Object] y"}}`, text("result.b.c")},
		{"a key", `{"counts":{"[object Object]":3}}`, key("result.counts")},
		{"a key at the top", `{"[object Object]":3}`, key("result")},
		{"keys that are no names", `{"a b":[{"1a":["[object Object]"]}]}`, text(`result["a b"][0]["1a"][0]`)},
		{"a $ key", `{"$x":"[object Object]"}`, text("result.$x")},
	}
	for _, tc := range cases {
		got := objectTextNote([]byte(tc.doc), "result")
		if tc.want == "" && got != "" || len(got) < len(tc.want) || got[:len(tc.want)] != tc.want {
			t.Errorf("%s: got %q, want %q...", tc.name, got, tc.want)
		}
	}
}
