package tsgen

import (
	"encoding/json"
	"testing"
)

// A "$ref" to an embedded resource (a subschema with its own "$id",
// referenced by that id, or by a URL relative to it) reads as the
// referenced type, as a "#/$defs/..." reference does; a "#..." reference
// inside such a resource is to that resource, as the validator reads it.
func TestSignatureEmbeddedResources(t *testing.T) {
	const d07, d04 = `"$schema":"http://json-schema.org/draft-07/schema#",`, `"$schema":"http://json-schema.org/draft-04/schema#",`
	item := `"item":{"$id":"item.json","$defs":{"x":{"type":"number"}},"$anchor":"it","type":"object","properties":{"v":{"$ref":"#/$defs/x"}}}`
	for _, tc := range []struct{ name, schema, want string }{
		{"by its relative id",
			`{"$defs":{` + item + `},"type":"object","properties":{"a":{"$ref":"item.json"}}}`,
			`tools.t(input: { a?: { v?: number } }): Promise<unknown>;`},
		{"a # reference inside it is to the resource, not the root",
			`{"$defs":{"x":{"type":"string"},` + item + `},"type":"object","properties":{"a":{"$ref":"item.json"},"b":{"$ref":"#/$defs/x"}}}`,
			`tools.t(input: { a?: { v?: number }; b?: string }): Promise<unknown>;`},
		{"a pointer and an anchor in it",
			`{"$defs":{` + item + `},"type":"object","properties":{"a":{"$ref":"item.json#/$defs/x"},"b":{"$ref":"item.json#it"},"c":{"$ref":"#it"}}}`,
			`tools.t(input: { a?: number; b?: { v?: number }; c?: unknown }): Promise<unknown>;`},
		{"by its absolute id, and a sibling resolved against it",
			`{"$defs":{"a":{"$id":"https://x.test/s/a.json","type":"string"},"b":{"$id":"https://x.test/s/b.json","type":"object","properties":{"a":{"$ref":"a.json"}}}},"type":"object","properties":{"b":{"$ref":"https://x.test/s/b.json"}}}`,
			`tools.t(input: { b?: { a?: string } }): Promise<unknown>;`},
		{"a root $id: refs relative to it",
			`{"$id":"https://x.test/root.json","$defs":{"s":{"type":"string"}},"type":"object","properties":{"a":{"$ref":"root.json#/$defs/s"},"b":{"$ref":"#/$defs/s"},"c":{"$ref":"https://x.test/root.json#/$defs/s"}}}`,
			`tools.t(input: { a?: string; b?: string; c?: string }): Promise<unknown>;`},
		{"a nested resource's id is relative to its parent's",
			`{"$defs":{"p":{"$id":"https://x.test/p/","$defs":{"q":{"$id":"q.json","type":"boolean"}}}},"type":"object","properties":{"a":{"$ref":"https://x.test/p/q.json"},"b":{"$ref":"q.json"}}}`,
			`tools.t(input: { a?: boolean; b?: unknown }): Promise<unknown>;`},
		{"a cycle through the id terminates, named after its place",
			`{"$defs":{"node":{"$id":"node.json","type":"object","properties":{"next":{"$ref":"node.json"},"self":{"$ref":"#"}}}},"type":"object","properties":{"n":{"$ref":"node.json"}}}`,
			"type Node = { next?: Node; self?: Node };\ntools.t(input: { n?: Node }): Promise<unknown>;"},
		{"draft-07: an $id that is a fragment names a place",
			`{` + d07 + `"definitions":{"s":{"$id":"#str","type":"string"},"i":{"$id":"item.json","type":"integer"}},"type":"object","properties":{"a":{"$ref":"#str"},"b":{"$ref":"item.json"}}}`,
			`tools.t(input: { a?: string; b?: number /* integer */ }): Promise<unknown>;`},
		{"draft-07: an $id beside a $ref names nothing",
			`{` + d07 + `"definitions":{"s":{"type":"string"},"i":{"$id":"item.json","$ref":"#/definitions/s"}},"type":"object","properties":{"b":{"$ref":"item.json"}}}`,
			`tools.t(input: { b?: unknown }): Promise<unknown>;`},
		{"draft-04: id",
			`{` + d04 + `"definitions":{"i":{"id":"item.json","type":"string"},"j":{"$id":"j.json","type":"string"}},"type":"object","properties":{"a":{"$ref":"item.json"},"b":{"$ref":"j.json"}}}`,
			`tools.t(input: { a?: string; b?: unknown }): Promise<unknown>;`},
		{"an $id in a value that is not a schema names nothing",
			`{"$defs":{"c":{"const":{"$id":"c.json"}}},"type":"object","properties":{"a":{"$ref":"c.json"}}}`,
			`tools.t(input: { a?: unknown }): Promise<unknown>;`},
	} {
		if got := Signature("t", "", json.RawMessage(tc.schema), nil); got != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.name, got, tc.want)
		}
	}
}
