package codemode

import (
	"fmt"
	"math"
	"strings"
)

// checkSchema is the registration-time check of a JSON Schema: the keyword
// mistakes tool authors make (a misspelt type, a string where a number
// belongs, a schema where a list belongs, a remote $ref), found in one
// walk over the decoded document. Compiling with the full validator costs
// about a millisecond per tool in the browser, so it waits for the tool's
// first call; a schema this check lets through and the compiler refuses
// fails that call with the compiler's message.
func checkSchema(node any) error {
	return checkSchemaAt(node, "", 0)
}

const maxSchemaDepth = 64

var (
	typeNames = keywordSet("null", "boolean", "object", "array", "number", "string", "integer")
	// keywords whose value is one schema
	oneSchemaKeywords = keywordSet("items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else",
		"additionalItems", "unevaluatedItems", "unevaluatedProperties", "contentSchema")
	// keywords whose value maps names to schemas
	schemaMapKeywords = keywordSet("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
	// keywords whose value is a non-empty list of schemas
	schemaListKeywords = keywordSet("allOf", "anyOf", "oneOf", "prefixItems")
	numberKeywords     = keywordSet("minimum", "maximum", "multipleOf")
	countKeywords      = keywordSet("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains")
	stringKeywords     = keywordSet("pattern", "format", "$ref", "$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$schema", "title", "description", "contentEncoding", "contentMediaType")
	knownDrafts        = keywordSet(
		"https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2019-09/schema",
		"http://json-schema.org/draft-07/schema", "http://json-schema.org/draft-06/schema", "http://json-schema.org/draft-04/schema",
	)
)

func keywordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

func checkSchemaAt(node any, path string, depth int) error {
	if depth > maxSchemaDepth {
		return fmt.Errorf("%s: nested more than %d levels", at(path), maxSchemaDepth)
	}
	switch n := node.(type) {
	case bool:
		return nil
	case map[string]any:
		for k, v := range n {
			p := path + "/" + k
			if err := checkKeyword(k, v, p, depth); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("%s: must be a schema (an object or a boolean), got %s", at(path), schemaKind(node))
}

func checkKeyword(k string, v any, p string, depth int) error {
	switch {
	case k == "type":
		switch t := v.(type) {
		case string:
			if !typeNames[t] {
				return fmt.Errorf("%s: %q is not a type (null, boolean, object, array, number, string or integer)", at(p), t)
			}
		case []any:
			for i, x := range t {
				if s, ok := x.(string); !ok || !typeNames[s] {
					return fmt.Errorf("%s/%d: must be a type name, got %s", at(p), i, schemaValue(x))
				}
			}
		default:
			return fmt.Errorf("%s: must be a type name or a list of them, got %s", at(p), schemaKind(v))
		}
	case k == "items":
		// a schema, or (draft-07 and older) a list of schemas
		if list, ok := v.([]any); ok {
			for i, s := range list {
				if err := checkSchemaAt(s, fmt.Sprintf("%s/%d", p, i), depth+1); err != nil {
					return err
				}
			}
			return nil
		}
		return checkSchemaAt(v, p, depth+1)
	case oneSchemaKeywords[k]:
		return checkSchemaAt(v, p, depth+1)
	case schemaMapKeywords[k]:
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: must be an object of schemas, got %s", at(p), schemaKind(v))
		}
		for name, s := range m {
			if err := checkSchemaAt(s, p+"/"+name, depth+1); err != nil {
				return err
			}
		}
	case schemaListKeywords[k]:
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return fmt.Errorf("%s: must be a non-empty list of schemas, got %s", at(p), schemaValue(v))
		}
		for i, s := range list {
			if err := checkSchemaAt(s, fmt.Sprintf("%s/%d", p, i), depth+1); err != nil {
				return err
			}
		}
	case k == "required":
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: must be a list of property names, got %s", at(p), schemaKind(v))
		}
		for i, x := range list {
			if _, ok := x.(string); !ok {
				return fmt.Errorf("%s/%d: must be a property name, got %s", at(p), i, schemaValue(x))
			}
		}
	case k == "enum":
		if _, ok := v.([]any); !ok {
			return fmt.Errorf("%s: must be a list, got %s", at(p), schemaKind(v))
		}
	case numberKeywords[k]:
		f, ok := v.(float64)
		if !ok {
			return fmt.Errorf("%s: must be a number, got %s", at(p), schemaValue(v))
		}
		if k == "multipleOf" && f <= 0 {
			return fmt.Errorf("%s: must be greater than 0, got %v", at(p), f)
		}
	case k == "exclusiveMinimum" || k == "exclusiveMaximum":
		// a number, or a boolean in draft-04
		switch v.(type) {
		case float64, bool:
		default:
			return fmt.Errorf("%s: must be a number, got %s", at(p), schemaValue(v))
		}
	case countKeywords[k]:
		f, ok := v.(float64)
		if !ok || f < 0 || f != math.Trunc(f) {
			return fmt.Errorf("%s: must be a non-negative integer, got %s", at(p), schemaValue(v))
		}
	case stringKeywords[k]:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s: must be a string, got %s", at(p), schemaValue(v))
		}
		if k == "$ref" && !strings.HasPrefix(s, "#") {
			return fmt.Errorf("%s: remote $ref %q is not allowed: put the definition under $defs", at(p), s)
		}
		if k == "$schema" && !knownDrafts[strings.TrimSuffix(s, "#")] {
			return fmt.Errorf("%s: unknown $schema %q (2020-12, 2019-09, draft-07, -06 or -04)", at(p), s)
		}
	}
	return nil
}

func at(path string) string {
	if path == "" {
		return "/"
	}
	return path
}

func schemaKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func schemaValue(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("the string %q", x)
	case float64:
		return fmt.Sprintf("the number %v", x)
	}
	return schemaKind(v)
}

// hasRef reports whether a decoded schema holds a "$ref" or "$dynamicRef"
// anywhere (data keywords included: erring on the side of compiling).
func hasRef(node any) bool {
	switch n := node.(type) {
	case map[string]any:
		for k, v := range n {
			if k == "$ref" || k == "$dynamicRef" || hasRef(v) {
				return true
			}
		}
	case []any:
		for _, v := range n {
			if hasRef(v) {
				return true
			}
		}
	}
	return false
}
