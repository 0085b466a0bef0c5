package codemode

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSchemaHabitsReadAsMeant: a tool whose schema names a required
// property twice, or bounds a number with OpenAPI 3.0's boolean
// exclusiveMaximum/exclusiveMinimum outside draft-04, registers (both were
// refused, naming the keyword) and is enforced as its author meant; its
// signature says the bounds as they are enforced.
func TestSchemaHabitsReadAsMeant(t *testing.T) {
	const draft04, draft07 = `"$schema":"http://json-schema.org/draft-04/schema#",`, `"$schema":"http://json-schema.org/draft-07/schema#",`
	num := func(prefix, n string) string {
		return `{` + prefix + `"type":"object","properties":{"n":{"type":"number",` + n + `}},"required":["n"]}`
	}
	tests := []struct {
		name, schema string
		ok, refused  []string // inputs accepted, refused
		sig          string   // in the signature
	}{
		{"a required name twice is required once",
			`{"type":"object","properties":{"id":{"type":"string"},"name":{"type":"string"}},"required":["id","name","id"]}`,
			[]string{`{"id":"a","name":"b"}`}, []string{`{"name":"b"}`, `{"id":"a"}`}, "id: string;"},
		{"a nested required name thrice",
			`{"type":"object","properties":{"card":{"type":"object","properties":{"idList":{"type":"string"}},"required":["idList","idList","idList"]}}}`,
			[]string{`{"card":{"idList":"x"}}`, `{}`}, []string{`{"card":{}}`}, "{ idList: string }"},
		{"exclusiveMaximum true beside maximum excludes it",
			num("", `"maximum":10,"exclusiveMaximum":true`), []string{`{"n":9.5}`, `{"n":-3}`}, []string{`{"n":10}`, `{"n":11}`}, "{ n: number /* < 10 */ }"},
		{"exclusiveMinimum true beside minimum excludes it",
			num("", `"minimum":0,"exclusiveMinimum":true`), []string{`{"n":0.5}`}, []string{`{"n":0}`, `{"n":-1}`}, "{ n: number /* > 0 */ }"},
		{"both, under draft-07 named",
			num(draft07, `"minimum":1,"exclusiveMinimum":true,"maximum":5,"exclusiveMaximum":true`), []string{`{"n":3}`}, []string{`{"n":1}`, `{"n":5}`}, "{ n: number /* > 1, < 5 */ }"},
		{"false leaves the bound inclusive",
			num("", `"maximum":10,"exclusiveMaximum":false`), []string{`{"n":10}`}, []string{`{"n":10.5}`}, "{ n: number /* <= 10 */ }"},
		{"true with no bound beside it bounds nothing",
			num("", `"exclusiveMaximum":true,"exclusiveMinimum":true`), []string{`{"n":1e300}`, `{"n":-1e300}`}, []string{`{"n":"x"}`}, "{ n: number }"},
		{"under draft-04 the boolean is its own form",
			num(draft04, `"maximum":10,"exclusiveMaximum":true`), []string{`{"n":9}`}, []string{`{"n":10}`}, "{ n: number /* < 10 */ }"},
		{"in items, anyOf and $defs",
			`{"type":"object","$defs":{"d":{"type":"integer","maximum":3,"exclusiveMaximum":true}},"properties":{"l":{"type":"array","items":{"type":"integer","minimum":0,"exclusiveMinimum":true}},"u":{"anyOf":[{"type":"object","properties":{"k":{}},"required":["k","k"]}]},"r":{"$ref":"#/$defs/d"}}}`,
			[]string{`{"l":[1],"u":{"k":1},"r":2}`}, []string{`{"l":[0]}`, `{"u":{}}`, `{"r":3}`}, "u?: { k: unknown }"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := compileTool(Tool{Name: "t", Execute: noopToolExecute, InputSchema: json.RawMessage(tt.schema)})
			if err != nil {
				t.Fatalf("registering: %v", err)
			}
			for _, in := range tt.ok {
				if err := e.validate(json.RawMessage(in)); err != nil {
					t.Errorf("validate(%s) = %v, want accepted", in, err)
				}
			}
			for _, in := range tt.refused {
				if err := e.validate(json.RawMessage(in)); err == nil {
					t.Errorf("validate(%s) accepted, want refused", in)
				}
			}
			if sig := e.signature(); !strings.Contains(sig, tt.sig) {
				t.Errorf("the signature lacks %q:\n%s", tt.sig, sig)
			}
		})
	}
}

// TestSchemaHabitsWords: the refusal names the bound as the validator
// enforces it, and a property required twice is missing once.
func TestSchemaHabitsWords(t *testing.T) {
	tests := []struct{ schema, input, want string }{
		{`{"type":"object","properties":{"n":{"type":"number","maximum":10,"exclusiveMaximum":true}}}`, `{"n":10}`, "want < 10"},
		{`{"type":"object","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true}}}`, `{"n":0}`, "want > 0"},
		{`{"type":"object","properties":{"id":{"type":"string"}},"required":["id","id"]}`, `{}`, `missing "id"`},
	}
	for _, tt := range tests {
		e, err := compileTool(Tool{Name: "t", Execute: noopToolExecute, InputSchema: json.RawMessage(tt.schema)})
		if err != nil {
			t.Fatalf("registering %s: %v", tt.schema, err)
		}
		err = e.validate(json.RawMessage(tt.input))
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Count(err.Error(), `"id"`) > 1 {
			t.Errorf("validate(%s) under %s = %v, want one %q", tt.input, tt.schema, err, tt.want)
		}
	}
}

// TestSchemaHabitsOutputSchema: an outputSchema with the boolean bound is
// kept and enforced (adapters used to drop it and report it).
func TestSchemaHabitsOutputSchema(t *testing.T) {
	e, err := compileTool(Tool{Name: "t", Execute: noopToolExecute,
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"pct":{"type":"number","maximum":100,"exclusiveMaximum":true}},"required":["pct","pct"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.checkResult(json.RawMessage(`{"pct":99}`)); err != nil {
		t.Errorf("a result inside the bound: %v", err)
	}
	for _, out := range []string{`{"pct":100}`, `{}`} {
		if err := e.checkResult(json.RawMessage(out)); err == nil {
			t.Errorf("result %s accepted, want refused", out)
		}
	}
}
