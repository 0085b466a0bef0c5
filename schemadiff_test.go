package codemode

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// fastAndFull compiles a schema twice: as compileSchema does (a plain
// schema then checks input with surelyValid, else with the validator
// compiled without the meta-schema), and as a schema that is not plain
// (always the validator, after the meta-schema). It reports the two
// compile errors and whether the first is plain.
func fastAndFull(t *testing.T, raw string) (fast, full *inputValidator, fastErr, fullErr error) {
	t.Helper()
	fast, fastErr = compileSchema(json.RawMessage(raw))
	// The full validator reads the schema as compileSchema gives it to
	// either path: the authors' habits read as meant (readAsMeant).
	full = &inputValidator{doc: readAsMeant([]byte(raw), decodeDoc(t, raw))}
	_, fullErr = full.compiled()
	return fast, full, fastErr, fullErr
}

// errText is an error's text, "" for none.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// agreeOn checks that both validators give an input the same answer, in
// the same words; it returns the answer.
func agreeOn(t *testing.T, name string, fast, full *inputValidator, in json.RawMessage) error {
	t.Helper()
	got, want := fast.validate(in), full.validate(in)
	if errText(got) != errText(want) {
		t.Errorf("%s: input %s: fast path says %q, full validator %q", name, in, errText(got), errText(want))
	}
	return got
}

// TestSchemaPathsAgree is the differential test of the plain path: for
// every tool of the real catalogs (the MCP servers' draft-07 schemas
// among them), inputs made from each schema (built valid, each property
// missing, of another type, at its numeric bounds, an extra property) get
// the same answer from the fast path and the full validator.
func TestSchemaPathsAgree(t *testing.T) {
	for _, cat := range realCatalogs(t) {
		base := filepath.Base(cat.File)
		plain, inputs, rejected := 0, 0, 0
		for _, tool := range cat.Tools {
			name := base + " " + tool.Name
			fast, full, fastErr, fullErr := fastAndFull(t, string(tool.InputSchema))
			if fastErr != nil || fullErr != nil {
				t.Errorf("%s: compile: fast %v, full %v", name, fastErr, fullErr)
				continue
			}
			if fast.plain {
				plain++
			}
			for i, inst := range instancesFor(decodeDoc(t, string(tool.InputSchema)), 0) {
				b, err := json.Marshal(inst)
				if err != nil {
					t.Fatal(err)
				}
				if agreeOn(t, fmt.Sprintf("%s #%d", name, i), fast, full, b) != nil {
					rejected++
				}
				inputs++
			}
		}
		t.Logf("%s: %d tools (%d plain), %d inputs, %d rejected by both", base, len(cat.Tools), plain, inputs, rejected)
		if rejected == 0 || rejected == inputs {
			t.Errorf("%s: %d of %d inputs rejected: the inputs do not tell the paths apart", base, rejected, inputs)
		}
	}
}

// TestSchemaPathsAgreeDialects: schemas naming a draft in "$schema", with
// the keywords whose meaning differs between drafts. Each row's inputs get
// the same answer from both paths, and the answer the row expects.
func TestSchemaPathsAgreeDialects(t *testing.T) {
	const (
		d07      = `"$schema":"http://json-schema.org/draft-07/schema#",`
		d04      = `"$schema":"http://json-schema.org/draft-04/schema#",`
		d2019    = `"$schema":"https://json-schema.org/draft/2019-09/schema",`
		d2020    = `"$schema":"https://json-schema.org/draft/2020-12/schema#",`
		exclusiv = `"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":10}},"required":["n"]}`
	)
	tests := []struct {
		name    string
		schema  string
		plain   bool
		compile string // the compile error both give, "" for none
		// input -> the error both give, "" for valid
		want map[string]string
	}{
		{"draft-07 exclusive bounds are numbers", `{` + d07 + exclusiv, true, "", map[string]string{
			`{"n":5}`:    "",
			`{"n":0.5}`:  "",
			`{"n":0}`:    "invalid input: /n: exclusiveMinimum: got 0, want > 0",
			`{"n":10}`:   "invalid input: /n: exclusiveMaximum: got 10, want < 10",
			`{"n":"5"}`:  `invalid input: /n: type: got string, want number (the string "5": pass the number 5, without quotes)`,
			`{}`:         `invalid input: /: required: missing "n"`,
			`{"n":9.99}`: "",
		}},
		{"draft-07 over https, no fragment", `{"$schema":"https://json-schema.org/draft-07/schema",` + exclusiv, true, "", map[string]string{
			`{"n":10}`: "invalid input: /n: exclusiveMaximum: got 10, want < 10",
		}},
		{"2019-09", `{` + d2019 + exclusiv, true, "", map[string]string{
			`{"n":0}`: "invalid input: /n: exclusiveMinimum: got 0, want > 0",
			`{"n":1}`: "",
		}},
		// Draft-07 asserts formats; 2019-09 and 2020-12 only annotate them.
		{"draft-07 format is asserted", `{` + d07 + `"properties":{"to":{"type":"string","format":"email"},"at":{"type":"string","format":"date-time"}}}`, true, "", map[string]string{
			`{"to":"a@example.com","at":"2026-12-02T10:00:00Z"}`: "",
			`{"to":"not an email"}`:                              `invalid input: /to: format: "not an email" is not a valid email`,
			`{"at":"yesterday"}`:                                 `invalid input: /at: format: "yesterday" is not a valid date-time`,
			`{"to":5}`:                                           "invalid input: /to: type: got number, want string",
		}},
		{"2020-12 format is an annotation", `{` + d2020 + `"properties":{"to":{"type":"string","format":"email"}}}`, true, "", map[string]string{
			`{"to":"not an email"}`: "",
		}},
		{"2019-09 format is an annotation", `{` + d2019 + `"properties":{"to":{"type":"string","format":"email"}}}`, true, "", map[string]string{
			`{"to":"not an email"}`: "",
		}},
		// Keywords draft-07 does not have are ignored there.
		{"draft-07 ignores prefixItems and dependentSchemas", `{` + d07 + `"prefixItems":[{"type":"string"}],"dependentSchemas":{"a":false},"minContains":2}`, true, "", map[string]string{
			`[1]`:     "",
			`{"a":1}`: "",
		}},
		{"draft-07 if/then/else", `{` + d07 + `"if":{"required":["a"]},"then":{"required":["b"]}}`, true, "", map[string]string{
			`{"a":1,"b":2}`: "",
			`{"a":1}`:       `invalid input: /: required: missing "b"`,
		}},
		// Draft-04: exclusiveMaximum is a boolean that makes maximum
		// exclusive; the full path reads it so.
		{"draft-04 boolean exclusiveMaximum", `{` + d04 + `"properties":{"n":{"type":"number","maximum":10,"exclusiveMaximum":true}}}`, false, "", map[string]string{
			`{"n":9.5}`: "",
			`{"n":10}`:  "invalid input: /n: exclusiveMaximum: got 10, want < 10",
		}},
		{"draft-04 number exclusiveMaximum", `{` + d04 + `"exclusiveMaximum":10}`, false, "jsonschema validation failed with 'http://json-schema.org/draft-04/schema#'", nil},
		// OpenAPI 3.0 writes draft-04's boolean outside draft-04: both paths
		// read it as draft-04 does (schemahabits.go).
		{"2020-12 boolean exclusiveMaximum", `{"maximum":10,"exclusiveMaximum":true}`, true, "", map[string]string{
			`9.5`: "",
			`10`:  "invalid input: /: exclusiveMaximum: got 10, want < 10",
		}},
		{"unknown draft", `{"$schema":"http://json-schema.org/draft-08/schema#"}`, false, `remote $ref "http://json-schema.org/draft-08/schema" is not allowed`, nil},
		{"unknown meta-schema", `{"$schema":"https://example.com/meta"}`, false, `remote $ref "https://example.com/meta" is not allowed`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fast, full, fastErr, fullErr := fastAndFull(t, tt.schema)
			if !strings.Contains(errText(fastErr), tt.compile) || !strings.Contains(errText(fullErr), tt.compile) || (tt.compile == "") != (fastErr == nil) || (fastErr == nil) != (fullErr == nil) {
				t.Fatalf("compile: fast %v, full %v; want %q", fastErr, fullErr, tt.compile)
			}
			if fastErr != nil {
				return
			}
			if fast.plain != tt.plain {
				t.Errorf("plain = %v, want %v", fast.plain, tt.plain)
			}
			inputs := map[string]string{}
			for in, want := range tt.want {
				inputs[in] = want
			}
			for _, inst := range instancesFor(decodeDoc(t, tt.schema), 0) {
				b, _ := json.Marshal(inst)
				if _, ok := inputs[string(b)]; !ok {
					inputs[string(b)] = "?"
				}
			}
			for in, want := range inputs {
				got := agreeOn(t, tt.name, fast, full, json.RawMessage(in))
				if want != "?" && errText(got) != want {
					t.Errorf("input %s: %q, want %q", in, errText(got), want)
				}
				if got != nil && !errors.Is(got, errInvalidInput) {
					t.Errorf("input %s: %v does not wrap errInvalidInput", in, got)
				}
			}
		})
	}
}
