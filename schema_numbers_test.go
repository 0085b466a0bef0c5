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
