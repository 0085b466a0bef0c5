package codemode

import (
	"bytes"
	"encoding/json"
)

// Two more habits of generated catalogs (OpenAPI-to-MCP generators) that
// every draft's meta-schema refuses, though what their authors meant is
// not in doubt, so that the tool used to be refused at registration:
//
//   - a "required" list naming a property twice (a path parameter and a body
//     field of one name, merged into one input: 10 of Trello's 324 tools);
//     a name required twice is required once;
//   - OpenAPI 3.0's boolean "exclusiveMaximum": true ("exclusiveMinimum")
//     beside "maximum" ("minimum"), draft-04's form, in a schema whose
//     draft is not draft-04 (none named: 2020-12): the bound becomes the
//     numeric "exclusiveMaximum" of draft-06 and later, and false (the
//     bound stays inclusive) is dropped. A boolean with no bound beside it
//     bounds nothing, in OpenAPI as in draft-04 (whose meta-schema refuses
//     it), and is dropped too.
//
// readAsMeant rewrites the decoded schema before anything reads it: the
// registration check (memoSchema.check) and the validator (compileSchema),
// which stay as strict as the meta-schemas (TestSchemaCheckCoversTheMetaSchemas
// holds the check to the validator on schemas as written). The signature
// (internal/tsgen) lists a required name once already and shows no bounds.
// Under draft-04 the booleans are its own form and are left as written; so
// is everything below a subschema that names its own "$schema" (read in
// either draft there: schemaWalk.draft 0). web/src/schemahabits.mjs does the
// same for worker mode's page check.
func readAsMeant(raw []byte, doc any) any {
	bounds := rootDraft(doc) != 4 && bytes.Contains(raw, []byte(`"exclusiveM`))
	meantAt(doc, 0, bounds)
	return doc
}

func meantAt(node any, depth int, bounds bool) {
	n, ok := node.(map[string]any)
	if !ok || depth > maxSchemaDepth {
		return
	}
	if _, own := n["$schema"]; own && depth > 0 {
		bounds = false
	}
	if r, ok := n["required"].([]any); ok {
		n["required"] = onceEach(r)
	}
	if bounds {
		exclusiveBound(n, "exclusiveMaximum", "maximum")
		exclusiveBound(n, "exclusiveMinimum", "minimum")
	}
	eachSubschema(n, func(s any) { meantAt(s, depth+1, bounds) })
}

// onceEach is a list of names without the repeats (the first of each kept,
// in order); the list itself when it has none. Anything but a string is
// left where it is, for the check to name.
func onceEach(list []any) []any {
	seen := make(map[string]bool, len(list))
	var out []any
	for i, x := range list {
		s, ok := x.(string)
		if ok && seen[s] {
			if out == nil {
				out = append(make([]any, 0, len(list)-1), list[:i]...)
			}
			continue
		}
		if ok {
			seen[s] = true
		}
		if out != nil {
			out = append(out, x)
		}
	}
	if out == nil {
		return list
	}
	return out
}

// exclusiveBound turns a boolean exclusive bound into draft-06's form: the
// bound itself when true and beside a numeric bound, nothing otherwise (a
// bound that is not a number is left for the check to name).
func exclusiveBound(n map[string]any, exclusive, bound string) {
	b, ok := n[exclusive].(bool)
	if !ok {
		return
	}
	delete(n, exclusive)
	switch v := n[bound].(type) {
	case float64, json.Number:
		if b {
			n[exclusive] = v
			delete(n, bound)
		}
	}
}
