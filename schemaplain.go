package codemode

import (
	"encoding/json"
	"strconv"
)

// plainSchema reports whether a decoded schema document (as
// jsonschema.UnmarshalJSON gives it: numbers are json.Number) uses only
// keywords whose values this walk can check against draft 2020-12's
// meta-schema, and is valid against it. Such a schema is compiled without
// the meta-schema (jsonschema.Compiler.SkipMetaValidation): compiling
// 2020-12's meta-schema and its vocabularies and validating against them
// cost most of the first tool call in the browser, and nearly every tool
// schema is of this plain kind. Anything else ($ref, pattern, unknown
// keywords, a value the walk is unsure of) goes through the full check, so
// a false answer costs time only, never correctness.
//
// A root "$schema" naming draft-07, 2019-09 or 2020-12 keeps a schema
// plain: zod-to-json-schema puts draft-07 in every tool of the MCP SDK's
// servers, Zod 4 names 2020-12. A plain schema is valid against the
// draft-07 and 2019-09 meta-schemas too (they define the plain keywords
// alike or not at all, and allow a keyword they do not define any value),
// and surelyValid judges only keywords that mean the same in them (it
// leaves prefixItems, dependentSchemas and the like, which draft-07
// ignores, to the validator), bar one: draft-07 asserts "format", which
// formatAsserted reports. Draft-06 and -04, rare in tool lists, go through
// the full check: draft-04's meta-schema is not 2020-12's (exclusiveMaximum
// is a boolean there, modifying maximum).
func plainSchema(v any) (plain, formatAsserted bool) {
	if !plainSchemaAt(v, 0) {
		return false, false
	}
	m, _ := v.(map[string]any)
	s, ok := m["$schema"].(string)
	return true, ok && schemaDraft(s) < 2019
}

func plainSchemaAt(v any, depth int) bool {
	if depth > maxSchemaDepth {
		return false
	}
	switch n := v.(type) {
	case bool:
		return true
	case map[string]any:
		for k, x := range n {
			if !plainKeyword(k, x, depth) {
				return false
			}
		}
		return true
	}
	return false
}

func plainKeyword(k string, v any, depth int) bool {
	switch k {
	case "$schema":
		// Only at the root: elsewhere the validator ignores it (no $id)
		// or starts a resource in another dialect.
		s, ok := v.(string)
		if !ok || depth > 0 {
			return false
		}
		d := schemaDraft(s)
		return d == 7 || d == 2019 || d == 2020
	case "title", "description", "format", "$comment":
		_, ok := v.(string)
		return ok
	case "default", "const":
		return true
	case "enum", "examples":
		_, ok := v.([]any)
		return ok
	case "deprecated", "readOnly", "writeOnly", "uniqueItems":
		_, ok := v.(bool)
		return ok
	case "type":
		if s, ok := v.(string); ok {
			return typeNames[s]
		}
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return false
		}
		seen := map[string]bool{}
		for _, x := range list {
			s, ok := x.(string)
			if !ok || !typeNames[s] || seen[s] {
				return false
			}
			seen[s] = true
		}
		return true
	case "required":
		list, ok := v.([]any)
		if !ok {
			return false
		}
		seen := make(map[string]bool, len(list))
		for _, x := range list {
			s, ok := x.(string)
			if !ok || seen[s] {
				return false
			}
			seen[s] = true
		}
		return true
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		_, ok := v.(json.Number)
		return ok
	case "multipleOf":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		f, err := strconv.ParseFloat(string(n), 64)
		return err == nil && f > 0
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains":
		// A non-negative integer: digits only ("2.0" and "1e3" are
		// integers too, but are left to the full check).
		n, ok := v.(json.Number)
		if !ok || len(n) == 0 {
			return false
		}
		for i := 0; i < len(n); i++ {
			if n[i] < '0' || n[i] > '9' {
				return false
			}
		}
		return true
	case "items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else",
		"unevaluatedItems", "unevaluatedProperties":
		return plainSchemaAt(v, depth+1)
	case "properties", "$defs", "dependentSchemas":
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for _, s := range m {
			if !plainSchemaAt(s, depth+1) {
				return false
			}
		}
		return true
	case "allOf", "anyOf", "oneOf", "prefixItems":
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return false
		}
		for _, s := range list {
			if !plainSchemaAt(s, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}
