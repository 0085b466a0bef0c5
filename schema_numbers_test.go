package codemode

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSchemaMessageNumbers: a number-rule message shows the input's value
// as written, shortened past 40 digits, never the float64 nearest to it
// (1e-400 said "got 0", 1.00000000000000000000001 "got 1, want a multiple
// of 0.5") nor a million digits (1e999999 was written out in full).
func TestSchemaMessageNumbers(t *testing.T) {
	for _, tc := range []struct{ schema, input, want string }{
		{`{"multipleOf":7}`, `1e-400`, "/: multipleOf: got 1e-400, want a multiple of 7"},
		{`{"multipleOf":0.5}`, `1.00000000000000000000001`, "/: multipleOf: got 1.00000000000000000000001, want a multiple of 0.5"},
		{`{"multipleOf":7}`, `1e400`, "/: multipleOf: got 1e+400, want a multiple of 7"},
		{`{"multipleOf":7}`, `-3e-350`, "/: multipleOf: got -3e-350, want a multiple of 7"},
		{`{"multipleOf":7}`, `123456789012345678901234567890.5`, "/: multipleOf: got 1.234567890123456789012345678905e+29, want a multiple of 7"},
		{`{"minimum":5}`, `1e-7`, "/: minimum: got 1e-7, want >= 5"},
		{`{"maximum":5}`, `1e999999`, "/: maximum: got 1e+999999, want <= 5"},
		{`{"maximum":1e-400}`, `1e-300`, "/: maximum: got 1e-300, want <= 1e-400"},
		{`{"exclusiveMinimum":2.5}`, `2.5`, "/: exclusiveMinimum: got 2.5, want > 2.5"},
		{`{"minimum":1}`, `0.` + strings.Repeat("9", 60), "/: minimum: got 0.9999999999999999999999999999999999999999…, want >= 1"},
	} {
		e, err := compileTool(Tool{Name: "t", Execute: noopToolExecute, InputSchema: json.RawMessage(tc.schema)})
		if err != nil {
			t.Fatalf("%s: %v", tc.schema, err)
		}
		if err := e.validate(json.RawMessage(tc.input)); err == nil || err.Error() != "invalid input: "+tc.want {
			t.Errorf("%s against %s: %v, want %q", tc.input, tc.schema, err, tc.want)
		}
	}
}

// TestSchemaNumberOutOfRange: a schema holding a number past float64's
// range (which json.Unmarshal refuses and JSON.parse reads as Infinity) is
// refused saying so, at its place; it said only "must be valid JSON".
// Text that is not JSON still says so, in encoding/json's words.
func TestSchemaNumberOutOfRange(t *testing.T) {
	for _, tc := range []struct {
		in, out, want string
	}{
		{`{"type":"object","properties":{"x":{"type":"number","maximum":1e400}}}`, "",
			`tool "t": inputSchema: /properties/x/maximum: the number 1e+400 is out of range: a schema's numbers must be within ±1.8e308 (a float64)`},
		{`{"enum":[1,2,-2e308]}`, "",
			`tool "t": inputSchema: /enum/2: the number -2e+308 is out of range`},
		{"", `{"properties":{"a":{"default":` + strings.Repeat("7", 401) + `}}}`,
			`tool "t": outputSchema: /properties/a/default: the number 7.` + strings.Repeat("7", 39) + `…e+400 is out of range`},
		{`{"type":`, "", `tool "t": inputSchema: must be valid JSON: unexpected end of JSON input`},
		{`{"a":1e400,"b":}`, "", `tool "t": inputSchema: must be valid JSON: invalid character '}' looking for beginning of value`},
	} {
		tool := Tool{Name: "t", Execute: noopToolExecute}
		if tc.in != "" {
			tool.InputSchema = json.RawMessage(tc.in)
		}
		if tc.out != "" {
			tool.OutputSchema = json.RawMessage(tc.out)
		}
		_, err := compileTool(tool)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s%s: %v, want %q", tc.in, tc.out, err, tc.want)
		}
	}
}
