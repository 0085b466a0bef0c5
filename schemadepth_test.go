package codemode

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// nestedJSON is inner wrapped n times in open ... close.
func nestedJSON(open, inner, close string, n int) string {
	return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
}

// refChain is a schema whose property x refers to $defs a0, each aI to
// a(I+1) by link (a JSON text with %q for the next reference), and the
// last, a(n), is last.
func refChain(n int, link, last string) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{"x":{"$ref":"#/$defs/a0"}},"$defs":{`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `"a%d":`+link+`,`, i, fmt.Sprintf("#/$defs/a%d", i+1))
	}
	fmt.Fprintf(&b, `"a%d":%s}}`, n, last)
	return b.String()
}

// placeChain is a recursive schema taking k in-place steps ($defs c0 to
// c(k-1), each a "$ref" to the next) between a node and its child a.
func placeChain(k int) string {
	defs := []string{`"n":{"type":"object","properties":{"a":{"$ref":"#/$defs/c0"}}}`}
	for i := 0; i < k; i++ {
		next := "#/$defs/n"
		if i+1 < k {
			next = fmt.Sprintf("#/$defs/c%d", i+1)
		}
		defs = append(defs, fmt.Sprintf(`"c%d":{"$ref":%q}`, i, next))
	}
	return `{"$defs":{` + strings.Join(defs, ",") + `},"$ref":"#/$defs/n"}`
}

// Long chains of references compile: the cycle check walked them
// recursively, 10,000 frames deep for 10,000 $defs, which under GOOS=js
// overflowed the JavaScript engine's stack and ended the Go program (the
// node test deep-core.test.mjs shows it on the page). A cycle at the end
// of a long chain is still found and named.
func TestSchemaLongRefChainsCompile(t *testing.T) {
	const n = 10000
	for _, tc := range []struct {
		name, schema, refused string
	}{
		{"a chain of $ref", refChain(n, `{"$ref":%q}`, `{"type":"string"}`), ""},
		{"a chain of allOf", refChain(n, `{"allOf":[{"$ref":%q}]}`, `{"type":"string"}`), ""},
		{"a chain of properties", refChain(n, `{"type":"object","properties":{"y":{"$ref":%q}}}`, `{"type":"string"}`), ""},
		// The path from where the walk entered it, as before.
		{"a chain of $ref ending in a cycle", refChain(n, `{"$ref":%q}`, `{"$ref":"#/$defs/a9999"}`),
			"... -> #/$defs/a9999 -> #/$defs/a10000 -> #/$defs/a9999): validation would never end"},
		{"a cycle, found from the root as before", `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`,
			"the schema refers to itself without descending into the value (# -> #/$defs/a -> #/$defs/b -> #/$defs/a): validation would never end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := compileSchema(json.RawMessage(tc.schema))
			if tc.refused == "" && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if tc.refused != "" && (err == nil || !strings.HasPrefix(err.Error(), "the schema refers to itself without descending into the value (") || !strings.HasSuffix(err.Error(), strings.TrimPrefix(tc.refused, "... "))) {
				t.Fatalf("got %v, want %s", err, tc.refused)
			}
		})
	}
}

// The validator nests once per schema it applies inside another: the
// value's nesting times the schema's steps per level. Past
// maxValidationDepth it stops with errValidationDepth, before it overflows
// the JavaScript engine's stack under GOOS=js (four steps per level and an
// input 999 deep ended the Go program); a schema recursing once per level
// checks any value the sandbox sends (1,000 levels).
func TestSchemaValidationDepthBound(t *testing.T) {
	deepObj := func(n int, leaf string) string { return nestedJSON(`{"a":`, leaf, "}", n) }
	for _, tc := range []struct {
		name, schema, input, want string
	}{
		{"properties recursing, 999 deep", `{"type":"object","properties":{"a":{"$ref":"#"}}}`, deepObj(998, "{}"), ""},
		{"properties recursing, 999 deep, invalid leaf", `{"type":"object","properties":{"a":{"$ref":"#"}}}`, deepObj(998, "1"),
			"/" + strings.Repeat("a/", 997) + "a: type: got number, want object"},
		{"items recursing, 999 deep", `{"type":"array","items":{"$ref":"#"}}`, nestedJSON("[", "[]", "]", 998), ""},
		{"one in-place step per level, 600 deep", placeChain(1), deepObj(600, "{}"), ""},
		{"four in-place steps per level, 999 deep", placeChain(4), deepObj(998, "{}"), errValidationDepth.Error()},
		{"four in-place steps per level, 999 deep, invalid leaf", placeChain(4), deepObj(998, "1"), errValidationDepth.Error()},
		{"a chain of 10,000 $ref", refChain(10000, `{"$ref":%q}`, `{"type":"string"}`), `{"x":1}`, errValidationDepth.Error()},
		{"a chain of 1,000 $ref", refChain(1000, `{"$ref":%q}`, `{"type":"string"}`), `{"x":1}`, "/x: type: got number, want string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := compileSchema(json.RawMessage(tc.schema))
			if err != nil {
				t.Fatal(err)
			}
			err = v.validate(json.RawMessage(tc.input))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %.300v", err)
				}
				return
			}
			if !errors.Is(err, errInvalidInput) || !strings.HasSuffix(err.Error(), tc.want) {
				t.Fatalf("got %.300v\nwant ...%.300s", err, tc.want)
			}
			// A result is checked as an input is, and says it could not be.
			err = v.validateResult("t.x", json.RawMessage(tc.input), nil)
			if tc.want == errValidationDepth.Error() && (err == nil || err.Error() != "t.x: the result cannot be checked against its outputSchema: invalid input: "+tc.want) {
				t.Fatalf("result: got %.300v", err)
			}
		})
	}
}

// An input invalid at the bottom of a recursive union is reported in time
// linear in its depth: the reach of each alternative was computed again at
// every level above it (2^depth: 30 levels held the page's thread for
// minutes; without the memo this test does not end).
func TestSchemaUnionMessageOfDeepInput(t *testing.T) {
	v, err := compileSchema(json.RawMessage(`{"type":"object","properties":{"a":{"anyOf":[{"$ref":"#"},{"type":"string"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{30, 300} {
		err = v.validate(json.RawMessage(nestedJSON(`{"a":`, "1", "}", n)))
		// The closest alternative, as the walk without the memo chose it.
		want := "/" + strings.Repeat("a/", n-2) + "a: type: got object, want string"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%d deep: got %.400v, want a line %s", n, err, want)
		}
	}
}
