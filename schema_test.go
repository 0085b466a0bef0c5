package codemode

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

const orderSchema = `{
	"type": "object",
	"properties": {
		"customerId": {"type": "string", "minLength": 3},
		"status": {"enum": ["open", "shipped"]},
		"items": {"type": "array", "minItems": 1, "items": {
			"type": "object",
			"properties": {"sku": {"type": "string", "pattern": "^[A-Z]+$"}, "qty": {"type": "integer", "minimum": 1, "maximum": 99}},
			"required": ["sku", "qty"],
			"additionalProperties": false
		}}
	},
	"required": ["customerId", "items"]
}`

func TestSchemaValidate(t *testing.T) {
	v, err := compileSchema(json.RawMessage(orderSchema))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		input string
		want  []string // lines of the message after "invalid input:"; nil = valid
	}{
		{"valid", `{"customerId":"C-1","items":[{"sku":"AB","qty":2}]}`, nil},
		{"minimum names path and rule", `{"customerId":"C-1","items":[{"sku":"AB","qty":-1}]}`,
			[]string{"/items/0/qty: minimum: got -1, want >= 1"}},
		{"maximum", `{"customerId":"C-1","items":[{"sku":"AB","qty":100}]}`,
			[]string{"/items/0/qty: maximum: got 100, want <= 99"}},
		{"type", `{"customerId":"C-1","items":[{"sku":"AB","qty":"2"}]}`,
			[]string{`/items/0/qty: type: got string, want integer (the string "2": pass the number 2, without quotes)`}},
		{"integer rejects fractions", `{"customerId":"C-1","items":[{"sku":"AB","qty":1.5}]}`,
			[]string{"/items/0/qty: type: got number, want integer"}},
		{"required", `{"items":[{"sku":"AB","qty":1}]}`,
			[]string{`/: required: missing "customerId"`}},
		{"enum", `{"customerId":"C-1","status":"lost","items":[{"sku":"AB","qty":1}]}`,
			[]string{`/status: enum: got "lost", want one of "open", "shipped"`}},
		{"additionalProperties and pattern", `{"customerId":"C-1","items":[{"sku":"ab","qty":1,"x":1}]}`,
			[]string{`/items/0: additionalProperties: "x" not allowed`, `/items/0/sku: pattern: "ab" does not match "^[A-Z]+$"`}},
		{"minLength and minItems", `{"customerId":"C","items":[]}`,
			[]string{"/customerId: minLength: got 1 characters, want >= 3", "/items: minItems: got 0 items, want >= 1"}},
		{"not an object", `[1,2]`, []string{"/: type: got array, want object"}},
		{"absent input is null", ``, []string{"/: type: got null, want object"}},
		{"at most five lines", `{"customerId":1,"status":2,"items":[{"sku":1,"qty":0},{"sku":2,"qty":0}]}`,
			[]string{"/customerId: type: got number, want string", "/items/0/qty: minimum: got 0, want >= 1",
				"/items/0/sku: type: got number, want string", "/items/1/qty: minimum: got 0, want >= 1", "... and 2 more"}},
		{"paths sort numerically", `{"customerId":"C-1","items":[{"sku":"A","qty":1},{"sku":"A","qty":1},{"sku":"A","qty":1},{"sku":"A","qty":1},{"sku":"A","qty":1},{"sku":"A","qty":1},{"sku":"A","qty":1},{"sku":"A","qty":1},{"sku":"A","qty":1},{"sku":"A","qty":1},{"sku":"A","qty":0}],"status":"x"}`,
			[]string{"/items/10/qty: minimum: got 0, want >= 1", `/status: enum: got "x", want one of "open", "shipped"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := v.validate(json.RawMessage(tt.input))
			if tt.want == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("expected an error")
			}
			if !errors.Is(err, errInvalidInput) {
				t.Errorf("error %v does not wrap errInvalidInput", err)
			}
			msg := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "invalid input:"), "\n")
			got := strings.Split(strings.TrimSpace(msg), "\n")
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("message mismatch\n got: %q\nwant: %q", got, tt.want)
			}
		})
	}
}

func TestSchemaCompile(t *testing.T) {
	tests := []struct {
		name    string
		schema  string
		input   string // validated when the schema compiles
		wantErr string // substring of the compile error; "" = must compile
		valid   bool
	}{
		{"draft 2020-12 by default: prefixItems", `{"prefixItems":[{"type":"string"}],"items":false}`, `["a","b"]`, "", false},
		{"draft-07 via $schema: items array", `{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":false}`, `["a","b"]`, "", false},
		{"draft-07 definitions ref", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"n":{"type":"number"}},"properties":{"x":{"$ref":"#/definitions/n"}}}`, `{"x":1}`, "", true},
		{"$defs ref", `{"$defs":{"n":{"type":"number"}},"properties":{"x":{"$ref":"#/$defs/n"}}}`, `{"x":"1"}`, "", false},
		{"recursive ref", `{"type":"object","properties":{"next":{"$ref":"#"}},"additionalProperties":false}`, `{"next":{"next":{}}}`, "", true},
		{"remote ref refused", `{"$ref":"https://example.com/schema.json"}`, ``, "remote $ref", false},
		{"relative ref refused", `{"$ref":"other.json"}`, ``, "remote $ref", false},
		{"file ref refused", `{"$ref":"file:///etc/passwd"}`, ``, "remote $ref", false},
		{"invalid keyword value", `{"type":"strin"}`, ``, "type", false},
		{"invalid regex", `{"pattern":"("}`, ``, "pattern", false},
		{"unknown $schema refused", `{"$schema":"https://example.com/my-meta"}`, ``, "remote $ref", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := compileSchema(json.RawMessage(tt.schema))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("compile error = %v, want one containing %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "mem:") {
					t.Errorf("error leaks the internal URL: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			if err := v.validate(json.RawMessage(tt.input)); (err == nil) != tt.valid {
				t.Fatalf("validate(%s) = %v, want valid=%v", tt.input, err, tt.valid)
			}
		})
	}
}

// BenchmarkValidateInput: the check every tool call's input gets, on a
// plain schema with valid input (the common case: decoded, then
// surelyValid). go test -bench ValidateInput -run '^$' .
func BenchmarkValidateInput(b *testing.B) {
	for _, bc := range []struct{ name, schema, input string }{
		{"small", `{"type":"object","properties":{"i":{"type":"number"}},"required":["i"]}`, `{"i":17}`},
		{"search", `{"type":"object","properties":{"q":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},"limit":{"type":"integer","minimum":1}},"required":["q"]}`,
			`{"q":"open orders for the account","tags":["alpha","beta","gamma"],"limit":25}`},
	} {
		v, err := compileSchema(json.RawMessage(bc.schema))
		if err != nil {
			b.Fatal(err)
		}
		in := json.RawMessage(bc.input)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := v.validate(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFirstCallDraft07: a tool's first call (its schema decoded and
// checked, then one valid input) on the MCP filesystem server's read_file
// schema, which names draft-07 in "$schema": "plain" as compileSchema
// takes it, "full" through the validator after the meta-schema, as every
// draft-07 schema went before it could be plain. The draft-07 meta-schema
// itself, compiled once per process, is outside the loop.
// go test -bench FirstCallDraft07 -run '^$' .
func BenchmarkFirstCallDraft07(b *testing.B) {
	const schema = `{"type":"object","properties":{"path":{"type":"string"},"tail":{"description":"If provided, returns only the last N lines of the file","type":"number"},"head":{"description":"If provided, returns only the first N lines of the file","type":"number"}},"required":["path"],"$schema":"http://json-schema.org/draft-07/schema#"}`
	in := json.RawMessage(`{"path":"/tmp/notes.txt","head":20}`)
	for _, plain := range []bool{true, false} {
		name := "full"
		if plain {
			name = "plain"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v, err := compileSchema(json.RawMessage(schema))
				if err != nil {
					b.Fatal(err)
				}
				if !v.plain {
					b.Fatal("not plain")
				}
				v.plain = plain
				if err := v.validate(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestUnionMessages: of the alternatives of a failed anyOf or oneOf, the
// message names those that came closest (fewest failures, then deepest in
// the value, then the fewest const or enum mismatches: the tagged union's
// branch whose tag matched), not every branch's first problem.
func TestUnionMessages(t *testing.T) {
	var wide []string
	for i := 0; i < 40; i++ {
		wide = append(wide, fmt.Sprintf(`{"type":"object","properties":{"k%d":{"const":%d}},"required":["k%d"]}`, i, i, i))
	}
	tagged := `{"oneOf":[
		{"type":"object","properties":{"kind":{"const":"email"},"to":{"type":"string"}},"required":["kind","to"]},
		{"type":"object","properties":{"kind":{"const":"sms"},"phone":{"type":"string"}},"required":["kind","phone"]}]}`
	tests := []struct {
		name, schema, input string
		want                []string
	}{
		{"40 objects, the 40th's value wrong", `{"type":"object","properties":{"a":{"anyOf":[` + strings.Join(wide, ",") + `]}}}`, `{"a":{"k39":38}}`,
			[]string{"/a/k39: const: got 38, want 39"}},
		{"a tagged union names the tagged branch", tagged, `{"kind":"sms","phone":5}`,
			[]string{"/phone: type: got number, want string"}},
		{"the other tag", tagged, `{"kind":"email"}`,
			[]string{`/: required: missing "to"`}},
		{"alternatives that fail alike are all named", `{"anyOf":[{"type":"string"},{"type":"number"}]}`, `true`,
			[]string{"/: type: got boolean, want number", "/: type: got boolean, want string"}},
		{"deeper in an array", `{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"object","properties":{"n":{"type":"integer"}}}]}}`, `[{"n":"x"}]`,
			[]string{"/0/n: type: got string, want integer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := compileSchema(json.RawMessage(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			err = v.validate(json.RawMessage(tt.input))
			var ve *validationError
			if !errors.As(err, &ve) {
				t.Fatalf("validate = %v, want a validation error", err)
			}
			if strings.Join(ve.lines, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(ve.lines, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestEmptyEnumMessage: an empty enum (allowed from 2019-09 on) accepts
// nothing, and the message says so rather than "want one of" nothing.
func TestEmptyEnumMessage(t *testing.T) {
	v, err := compileSchema(json.RawMessage(`{"type":"object","properties":{"region":{"enum":[]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	err = v.validate(json.RawMessage(`{"region":"eu"}`))
	if want := `invalid input: /region: enum: got "eu", but the schema's enum is empty: it accepts no value`; err == nil || err.Error() != want {
		t.Errorf("validate = %v, want %s", err, want)
	}
}
