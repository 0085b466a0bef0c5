package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/interopio/code-mode/internal/jsondec"
)

// TestCheckSchema: the registration-time check accepts real schemas and
// names the path and the rule of the usual mistakes.
func TestCheckSchema(t *testing.T) {
	tests := []struct {
		name, schema, wantErr string
	}{
		{"object schema", `{"type":"object","properties":{"a":{"type":["string","null"],"minLength":1},"b":{"items":{"enum":[1,"x"]}}},"required":["a"],"additionalProperties":false}`, ""},
		{"booleans and combinators", `{"anyOf":[true,{"not":{"type":"null"}}],"$defs":{"n":{"type":"number","exclusiveMinimum":0}},"allOf":[{"$ref":"#/$defs/n"}]}`, ""},
		{"draft-07 tuple and definitions", `{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"definitions":{"x":{}}}`, ""},
		// $schema spelt any way the validator reads it (http or https, an
		// empty fragment or none)
		{"draft-07 over https", `{"$schema":"https://json-schema.org/draft-07/schema"}`, ""},
		{"2020-12 over http with fragment", `{"$schema":"http://json-schema.org/draft/2020-12/schema#"}`, ""},
		{"2019-09", `{"$schema":"https://json-schema.org/draft/2019-09/schema#"}`, ""},
		{"draft-06", `{"$schema":"https://json-schema.org/draft-06/schema#"}`, ""},
		{"latest", `{"$schema":"https://json-schema.org/schema"}`, ""},
		{"draft-04 boolean exclusiveMinimum", `{"$schema":"http://json-schema.org/draft-04/schema#","minimum":0,"exclusiveMinimum":true}`, ""},
		{"draft-07 number exclusiveMaximum", `{"$schema":"http://json-schema.org/draft-07/schema#","exclusiveMaximum":10}`, ""},
		{"a subschema naming its own draft", `{"$schema":"http://json-schema.org/draft-04/schema#","properties":{"a":{"$id":"a.json","$schema":"https://json-schema.org/draft/2020-12/schema","exclusiveMinimum":0}}}`, ""},
		{"draft-07 items list", `{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"},{"type":"number"}]}`, ""},
		{"draft-04 items list", `{"$schema":"http://json-schema.org/draft-04/schema#","items":[{"type":"string"}]}`, ""},
		// the walk goes on below a tuple where it is the draft's form
		{"draft-07 items list entry", `{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"strin"}]}`, `/items/0/type: "strin" is not a type`},
		{"2019-09 items list", `{"$schema":"https://json-schema.org/draft/2019-09/schema","items":[{"type":"string"}]}`, ""},
		{"2020-12 prefixItems", `{"prefixItems":[{"type":"string"}],"items":false}`, ""},
		{"items list in a subschema naming its own draft", `{"properties":{"a":{"$id":"a.json","$schema":"http://json-schema.org/draft-07/schema#","items":[{}]}}}`, ""},
		{"data is not checked as schema", `{"properties":{"type":{"type":"string"}},"default":{"type":5},"enum":[{"minimum":"x"}]}`, ""},
		{"misspelt type", `{"type":"strin"}`, `/type: "strin" is not a type`},
		{"nested misspelt type", `{"properties":{"a":{"items":{"type":"nope"}}}}`, `/properties/a/items/type: "nope" is not a type`},
		{"type list entry", `{"type":["string",1]}`, `/type/1: must be a type name, got the number 1`},
		{"minimum as string", `{"minimum":"x"}`, `/minimum: must be a number, got the string "x"`},
		{"negative count", `{"maxLength":-1}`, `/maxLength: must be a non-negative integer`},
		{"fractional count", `{"minItems":1.5}`, `/minItems: must be a non-negative integer`},
		{"multipleOf zero", `{"multipleOf":0}`, `/multipleOf: must be greater than 0`},
		{"properties as list", `{"properties":[]}`, `/properties: must be an object of schemas, got a list`},
		{"property not a schema", `{"properties":{"a":"string"}}`, `/properties/a: must be a schema (an object or a boolean), got a string`},
		{"empty anyOf", `{"anyOf":[]}`, `/anyOf: must be a non-empty list of schemas`},
		{"required not strings", `{"required":["a",2]}`, `/required/1: must be a property name`},
		{"enum not a list", `{"enum":"a"}`, `/enum: must be a list, got a string`},
		{"remote ref", `{"properties":{"a":{"$ref":"https://example.com/s.json"}}}`, `/properties/a/$ref: remote $ref "https://example.com/s.json" is not allowed`},
		{"unknown $schema", `{"$schema":"https://example.com/meta"}`, `/$schema: unknown $schema`},
		{"unknown draft", `{"$schema":"http://json-schema.org/draft-08/schema#"}`, `/$schema: unknown $schema "http://json-schema.org/draft-08/schema#"`},
		{"$schema with a fragment", `{"$schema":"http://json-schema.org/draft-07/schema#/definitions"}`, `/$schema: unknown $schema`},
		{"boolean exclusiveMaximum", `{"maximum":10,"exclusiveMaximum":true}`, `/exclusiveMaximum: must be a number (the bound itself, excluded), got a boolean: that is draft-04's form, which needs "$schema": "http://json-schema.org/draft-04/schema#"`},
		{"nested boolean exclusiveMinimum", `{"properties":{"n":{"minimum":0,"exclusiveMinimum":false}}}`, `/properties/n/exclusiveMinimum: must be a number (the bound itself, excluded), got a boolean`},
		{"draft-07 boolean exclusiveMinimum", `{"$schema":"http://json-schema.org/draft-07/schema#","minimum":0,"exclusiveMinimum":true}`, `/exclusiveMinimum: must be a number`},
		{"draft-04 number exclusiveMinimum", `{"$schema":"http://json-schema.org/draft-04/schema#","exclusiveMinimum":0}`, `/exclusiveMinimum: must be a boolean under draft-04 (true makes minimum exclusive), got the number 0`},
		{"exclusiveMaximum a string", `{"exclusiveMaximum":"10"}`, `/exclusiveMaximum: must be a number, got the string "10"`},
		{"items list, no $schema", `{"properties":{"pair":{"type":"array","items":[{"type":"string"},{"type":"number"}]}}}`, `/properties/pair/items: must be a schema under 2020-12, got a list: a tuple is "prefixItems" there (a list in "items" is the form of 2019-09 and older, which needs "$schema": "http://json-schema.org/draft-07/schema#")`},
		{"items list under 2020-12", `{"$schema":"https://json-schema.org/draft/2020-12/schema","items":[]}`, `/items: must be a schema under 2020-12, got a list`},
		{"pattern not a string", `{"pattern":1}`, `/pattern: must be a string, got the number 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var root any
			if err := json.Unmarshal([]byte(tt.schema), &root); err != nil {
				t.Fatal(err)
			}
			err := checkInputSchema(root)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("rejected: %v", err)
				}
				// What the check accepts, the compiler accepts too.
				if _, err := compileSchema(json.RawMessage(tt.schema)); err != nil {
					t.Fatalf("check passed but compile fails: %v", err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want one starting with %q", err, tt.wantErr)
			}
		})
	}
}

// TestSchemaCompiledLazily: registration does not compile the inputSchema;
// the first call does, and a schema only the compiler refuses fails that
// call with the compiler's message. The registration check now refuses
// every such schema known (TestSchemaCheckCoversTheMetaSchemas: a
// dependentRequired that is not a list of names was this test's example,
// as a bad regular expression was before it), so the bad tool's schema is
// swapped in after registration, as one the check missed would be.
func TestSchemaCompiledLazily(t *testing.T) {
	r := newRegistry()
	good := Tool{Name: "a.good", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}}}`), Execute: noopToolExecute}
	bad := Tool{Name: "a.bad", InputSchema: json.RawMessage(`{"type":"object"}`), Execute: noopToolExecute}
	if _, err := r.add(good, bad); err != nil {
		t.Fatalf("registration: %v", err)
	}
	if entry, _ := r.lookup("a.bad"); entry != nil {
		entry.tool.InputSchema = json.RawMessage(`{"type":"object","dependentRequired":{"a":"b"}}`)
	}
	g, _ := r.lookup("a.good")
	if g.validator.v != nil {
		t.Fatal("compiled at registration")
	}
	if err := g.validate(json.RawMessage(`{"n":"x"}`)); !errors.Is(err, errInvalidInput) {
		t.Fatalf("validate: %v, want an invalid input", err)
	}
	if g.validator.v == nil {
		t.Fatal("not compiled by the first validation")
	}
	b, _ := r.lookup("a.bad")
	err := b.validate(json.RawMessage(`"x"`))
	if !errors.Is(err, ErrInvalidTool) || !strings.Contains(err.Error(), `tool "a.bad": inputSchema:`) || !strings.Contains(err.Error(), "dependentRequired") {
		t.Fatalf("validate: %v", err)
	}
}

// TestCheckInputSchemaPatterns: an inputSchema's patterns must compile as
// the validator compiles them (RE2): a JavaScript pattern with a lookahead
// or a backreference passed registration and then failed every call of
// the tool with a metaschema error (an outputSchema is held to the same
// rule: TestOutputSchemaRegistration).
func TestCheckInputSchemaPatterns(t *testing.T) {
	const rewrite = "cannot be enforced: patterns are checked with Go's RE2 syntax, which has no lookahead, lookbehind or backreferences"
	for _, tt := range []struct {
		name, schema, wantErr string
	}{
		{"a plain pattern", `{"properties":{"s":{"type":"string","pattern":"^[a-z]+\\d*$"}}}`, ""},
		{"a property named pattern", `{"properties":{"pattern":{"type":"string"}},"default":{"pattern":"(?=x)"}}`, ""},
		{"a negative lookahead", `{"properties":{"user":{"type":"string","pattern":"^(?!admin).*$"}}}`, `/properties/user/pattern: "^(?!admin).*$" ` + rewrite},
		{"a backreference", `{"properties":{"s":{"pattern":"^(a)\\1$"}}}`, `/properties/s/pattern: "^(a)\\1$" ` + rewrite},
		{"an unclosed bracket", `{"pattern":"["}`, `/pattern: "[" ` + rewrite},
		{"a patternProperties key", `{"patternProperties":{"^(?=x)":{"type":"number"}}}`, `/patternProperties/^(?=x): "^(?=x)" ` + rewrite},
		{"deep in a combinator", `{"anyOf":[{"items":{"pattern":"(?<=a)b"}}]}`, `/anyOf/0/items/pattern: "(?<=a)b" ` + rewrite},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var root any
			if err := json.Unmarshal([]byte(tt.schema), &root); err != nil {
				t.Fatal(err)
			}
			err := checkInputSchema(root)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("rejected: %v", err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want one starting with %q", err, tt.wantErr)
			}
		})
	}
	// Through registration: the tool is refused, naming the field.
	_, err := newRegistry().add(Tool{Name: "users.get", InputSchema: json.RawMessage(`{"type":"object","properties":{"user":{"type":"string","pattern":"^(?!admin)"}}}`),
		Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) { return nil, nil }})
	if !errors.Is(err, ErrInvalidTool) || !strings.Contains(err.Error(), `tool "users.get": inputSchema: /properties/user/pattern: "^(?!admin)" cannot be enforced`) {
		t.Errorf("registration: %v", err)
	}
}

// TestOldEnumRulesAreTheValidators: checkOldEnum refuses what the full
// validator refuses to compile (draft-04/-06/-07 meta-schemas: minItems 1,
// uniqueItems) and lets through what it compiles, so registration neither
// invents a rule nor lets a tool in whose every call would fail.
func TestOldEnumRulesAreTheValidators(t *testing.T) {
	const d07 = `"$schema":"http://json-schema.org/draft-07/schema#",`
	tests := []struct {
		schema  string
		refused bool
	}{
		{`{` + d07 + `"properties":{"topic":{"enum":[]}}}`, true},
		{`{"$schema":"http://json-schema.org/draft-04/schema#","enum":[]}`, true},
		{`{"$schema":"http://json-schema.org/draft-06/schema#","enum":["a","b","a"]}`, true},
		{`{` + d07 + `"enum":[1,2,1.0]}`, true},
		{`{` + d07 + `"enum":[{"a":1,"b":[2]},{"b":[2],"a":1}]}`, true},
		{`{` + d07 + `"enum":[{"a":1},{"a":2},[1],[1,2],"1",1,true,null,0]}`, false},
		{`{"$schema":"https://json-schema.org/draft/2019-09/schema","enum":["a","a"]}`, false},
		{`{"enum":[]}`, false},
		{`{"enum":["a","a"]}`, false},
	}
	for _, tt := range tests {
		_, fullErr := (&inputValidator{doc: decodeDoc(t, tt.schema)}).compiled()
		root, err := jsondec.Decode([]byte(tt.schema), jsondec.Options{}) // as registration decodes it
		if err != nil {
			t.Fatal(err)
		}
		checkErr := checkInputSchema(root)
		if (fullErr != nil) != tt.refused || (checkErr != nil) != tt.refused {
			t.Errorf("%s: validator %v, registration check %v; want refused=%v", tt.schema, fullErr, checkErr, tt.refused)
		}
	}
}

// TestOpenAPIComponentRef: a schema copied out of an OpenAPI document keeps
// its "#/components/..." references; the refusal says what they are and
// what to write instead. Another missing pointer reads as before. Both name
// the reference's path.
func TestOpenAPIComponentRef(t *testing.T) {
	for _, tt := range []struct{ schema, want string }{
		{`{"type":"object","properties":{"pet":{"$ref":"#/components/schemas/Pet"}}}`,
			`tool "t": inputSchema: /properties/pet/$ref: json-pointer in "#/components/schemas/Pet" not found (a reference into an OpenAPI document's components, which this schema does not hold: copy that schema under $defs and refer to it as "#/$defs/Pet")`},
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/nope"}}}`, `tool "t": inputSchema: /properties/a/$ref: json-pointer in "#/$defs/nope" not found`},
	} {
		_, err := compileTool(Tool{Name: "t", Execute: noopToolExecute, InputSchema: json.RawMessage(tt.schema)})
		if err == nil || !strings.HasSuffix(err.Error(), tt.want) {
			t.Errorf("%s: %v\nwant it to end %q", tt.schema, err, tt.want)
		}
	}
}
