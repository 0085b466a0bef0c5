package codemode

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/interopio/code-mode/internal/tsgen"
)

// TestNullable: OpenAPI 3.0's "nullable": true takes null where the
// signature says `| null` (beside a type or an enum, at any depth), and
// nowhere else; the signature and the check agree on every row.
func TestNullable(t *testing.T) {
	tests := []struct {
		name, schema, input string
		ok                  bool
	}{
		{"a nullable string takes null", `{"type":"object","properties":{"a":{"type":"string","nullable":true}}}`, `{"a":null}`, true},
		{"and still its own type", `{"type":"object","properties":{"a":{"type":"string","nullable":true}}}`, `{"a":1}`, false},
		{"a string without it does not", `{"type":"object","properties":{"a":{"type":"string"}}}`, `{"a":null}`, false},
		{"nullable false does not", `{"type":"object","properties":{"a":{"type":"string","nullable":false}}}`, `{"a":null}`, false},
		{"a list of types", `{"type":"object","properties":{"a":{"type":["string","integer"],"nullable":true}}}`, `{"a":null}`, true},
		{"an enum", `{"type":"object","properties":{"a":{"type":"string","enum":["x","y"],"nullable":true}}}`, `{"a":null}`, true},
		{"an enum, other values still refused", `{"type":"object","properties":{"a":{"enum":["x","y"],"nullable":true}}}`, `{"a":"z"}`, false},
		{"an object, its rules for objects only", `{"type":"object","properties":{"o":{"type":"object","nullable":true,"required":["id"]}}}`, `{"o":null}`, true},
		{"a string's bounds for strings only", `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"a":{"type":"string","nullable":true,"maxLength":2}}}`, `{"a":null}`, true},
		{"in items, anyOf and $defs", `{"type":"object","$defs":{"d":{"type":"number","nullable":true}},"properties":{"l":{"type":"array","items":{"type":"string","nullable":true}},"u":{"anyOf":[{"type":"boolean","nullable":true}]},"r":{"$ref":"#/$defs/d"}}}`, `{"l":[null,"x"],"u":null,"r":null}`, true},
		{"the root", `{"type":"object","nullable":true}`, `null`, true},
		// A tuple's list in items (draft-07) was passed over whole.
		{"in a tuple's items", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"array","items":[{"type":"string","nullable":true}]}`, `[null]`, true},
		// Beside a $ref or an anyOf alone, OpenAPI 3.0 gives nullable no effect.
		{"beside a $ref alone", `{"type":"object","$defs":{"d":{"type":"number"}},"properties":{"r":{"$ref":"#/$defs/d","nullable":true}}}`, `{"r":null}`, false},
		{"data is not a schema", `{"type":"object","properties":{"a":{"type":"string","default":{"type":"string","nullable":true}}},"examples":[{"nullable":true,"type":"x"}]}`, `{"a":null}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := compileSchema(json.RawMessage(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			err = v.validate(json.RawMessage(tt.input))
			if (err == nil) != tt.ok {
				t.Fatalf("validate(%s) = %v, want ok %v", tt.input, err, tt.ok)
			}
			// What the model reads says the same: null where null is taken.
			if !strings.HasPrefix(tt.input, `{"a":null}`) && !strings.HasPrefix(tt.input, `{"r":null}`) {
				return
			}
			sig := tsgen.Signature("t", "", json.RawMessage(tt.schema), nil)
			if strings.Contains(sig, "| null") != tt.ok {
				t.Errorf("the signature says null is %v, the check %v:\n%s", strings.Contains(sig, "| null"), tt.ok, sig)
			}
		})
	}
}
