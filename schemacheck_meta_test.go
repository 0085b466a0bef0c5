package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/interopio/code-mode/internal/jsondec"
)

// TestSchemaCheckCoversTheMetaSchemas: what the registration check lets
// through, the validator compiles. Every keyword of every draft, with
// values of every JSON kind and the near misses tool lists hold (an empty
// list, a name twice, a boolean where a schema object belongs under
// draft-04, an id that does not parse, an anchor named twice), at the root
// and inside a property: a schema that registers and then fails to compile
// would fail every call of its tool with the validator's meta-schema dump.
func TestSchemaCheckCoversTheMetaSchemas(t *testing.T) {
	// What a keyword alone cannot show: places named twice.
	whole := []string{`{"$anchor":"a","$defs":{"x":{"$anchor":"a"}}}`, `{"$id":"http://x/a.json","$defs":{"x":{"$id":"http://x/a.json"}}}`,
		`{"$defs":{"x":{"$dynamicAnchor":"n"},"y":{"$dynamicAnchor":"n"}}}`}
	execute := func(context.Context, json.RawMessage, Call) (json.RawMessage, error) { return nil, nil }
	gaps := 0
	registersButFails := func(raw json.RawMessage) {
		if _, err := compileTool(Tool{Name: "t", Execute: execute, InputSchema: raw}); err != nil {
			return // refused at registration
		}
		v, err := compileSchema(raw)
		if err == nil {
			_, err = v.compiled() // what the first call that is not surely valid does
		}
		if err != nil {
			gaps++
			if gaps <= 20 {
				t.Errorf("the check passes %s, which the validator refuses: %.200s", raw, err)
			}
		}
	}
	for _, raw := range whole {
		registersButFails(json.RawMessage(raw))
	}
	eachMetaSchemaCase(registersButFails)
	if gaps > 20 {
		t.Errorf("... %d such schemas in all", gaps)
	}
}

// TestSchemaCheckRefusesOnlyWhatTheValidatorRefuses: the other way round,
// what the validator compiles (with its meta-schema), registration lets
// through: a keyword the schema's draft does not have ("$defs" or
// "dependentSchemas" under draft-07, "additionalItems" under 2020-12) is
// ignored by the validator whatever its value, and was refused; so was a
// "$ref": "" (the document itself). 2,395 of the matrix's schemas were.
func TestSchemaCheckRefusesOnlyWhatTheValidatorRefuses(t *testing.T) {
	gaps := 0
	eachMetaSchemaCase(func(raw json.RawMessage) {
		root, err := jsondec.Decode(raw, jsondec.Options{}) // as registration decodes it
		if err != nil {
			t.Fatal(err)
		}
		refused := checkInputSchema(root)
		if refused == nil {
			return
		}
		if _, err := (&inputValidator{doc: decodeDoc(t, string(raw))}).compiled(); err == nil {
			gaps++
			if gaps <= 20 {
				t.Errorf("the check refuses %s, which the validator compiles: %v", raw, refused)
			}
		}
	})
	if gaps > 20 {
		t.Errorf("... %d such schemas in all", gaps)
	}
}

// eachMetaSchemaCase calls f with every schema of the keyword matrix.
func eachMetaSchemaCase(f func(raw json.RawMessage)) {
	drafts := []string{"", "https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2019-09/schema",
		"http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-06/schema#", "http://json-schema.org/draft-04/schema#"}
	keywords := []string{"type", "required", "enum", "const", "default", "examples", "title", "description", "$comment", "format",
		"readOnly", "writeOnly", "deprecated", "uniqueItems", "nullable",
		"properties", "patternProperties", "additionalProperties", "propertyNames", "dependentSchemas", "dependentRequired", "dependencies",
		"items", "prefixItems", "additionalItems", "contains", "minContains", "maxContains", "unevaluatedItems", "unevaluatedProperties",
		"allOf", "anyOf", "oneOf", "not", "if", "then", "else",
		"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems",
		"minProperties", "maxProperties", "pattern", "contentEncoding", "contentMediaType", "contentSchema",
		"$id", "id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveAnchor", "$recursiveRef", "$vocabulary", "$defs", "definitions", "$ref"}
	values := []string{`null`, `true`, `false`, `0`, `-1`, `1.5`, `"x"`, `""`, `"#"`, `"#a"`, `"1a"`, `"a b"`, `"http://x/y#f"`,
		`[]`, `["a"]`, `["a","a"]`, `["string","string"]`, `["a",1]`, `[{}]`, `[true]`, `{}`, `{"a":"b"}`, `{"a":["b"]}`,
		`{"a":["b","b"]}`, `{"a":[1]}`, `{"a":{}}`, `{"a":true}`, `{"a":{"type":"strin"}}`, `{"http://x":true}`, `"%zz"`, `"http://[::1"`}
	for _, draft := range drafts {
		for _, k := range keywords {
			for _, v := range values {
				for _, nested := range []bool{false, true} {
					kv := fmt.Sprintf("%q:%s", k, v)
					if nested {
						kv = fmt.Sprintf(`"properties":{"p":{%s}}`, kv)
					}
					if draft != "" {
						kv += fmt.Sprintf(`,"$schema":%q`, draft)
					}
					f(json.RawMessage("{" + kv + "}"))
				}
			}
		}
	}
}
