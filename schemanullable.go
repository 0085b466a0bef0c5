package codemode

import (
	"bytes"
	"slices"
)

// OpenAPI 3.0 has no "null" type: a schema says "nullable": true instead,
// and the tools generated from OpenAPI documents (and the MCP servers built
// on them) carry it as written. JSON Schema knows no such keyword, so the
// validator ignored it and refused null, while the signature the model
// reads (internal/tsgen) says `string | null`: the model sent the null the
// signature offered (a PATCH clearing a field) and every such call failed.
// The validator now takes null where the signature offers it: beside a
// "type" (null joins the types) or an "enum" (null joins the values), as
// OpenAPI 3.0 validators read it. Elsewhere ("$ref", "anyOf" alone)
// nullable changes neither the signature nor the check.

// applyNullable rewrites, in place, every schema of a decoded document that
// says "nullable": true so that it also accepts null.
func applyNullable(raw []byte, doc any) {
	if !bytes.Contains(raw, []byte(`"nullable"`)) {
		return
	}
	nullableAt(doc, 0)
}

func nullableAt(node any, depth int) {
	n, ok := node.(map[string]any)
	if !ok || depth > maxSchemaDepth {
		return
	}
	if n["nullable"] == true {
		switch t := n["type"].(type) {
		case string:
			if t != "null" {
				n["type"] = []any{t, "null"}
			}
		case []any:
			if !slices.Contains(t, any("null")) {
				n["type"] = append(slices.Clip(t), "null")
			}
		}
		if e, ok := n["enum"].([]any); ok && !slices.Contains(e, nil) {
			n["enum"] = append(slices.Clip(e), nil)
		}
	}
	eachSubschema(n, func(s any) { nullableAt(s, depth+1) })
}

// eachSubschema calls f with each schema directly inside n (a list in
// "items" and draft-07's "dependencies" included): the places the
// rewrites of what authors meant (nullable, readAsMeant) go on to.
func eachSubschema(n map[string]any, f func(any)) {
	for k, v := range n {
		list, isList := v.([]any)
		switch {
		case isList && (k == "items" || schemaListKeywords[k]):
			for _, s := range list {
				f(s)
			}
		case oneSchemaKeywords[k]:
			f(v)
		case schemaMapKeywords[k] || k == "dependencies":
			if m, ok := v.(map[string]any); ok {
				for _, s := range m {
					f(s)
				}
			}
		}
	}
}
