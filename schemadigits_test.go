package codemode

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestMultipleOfDigits: a multipleOf of more significant digits than
// decimal.IsMultipleOf checks in linear time is refused at registration,
// naming its path and the bound, in an inputSchema and an outputSchema
// (its schoolbook remainder took 6.6 s for a 30,000-digit value against a
// 15,000-digit multipleOf, in the core, where no run's timeout reaches);
// up to the bound, a value of 180,000 digits is judged exactly.
func TestMultipleOfDigits(t *testing.T) {
	long := "0." + strings.Repeat("7", 15000)
	for _, tc := range []struct{ name, in, out, err string }{
		{"15,000 digits", `{"properties":{"n":{"multipleOf":` + long + `}}}`, "",
			`tool "t": inputSchema: /properties/n/multipleOf: has 15000 significant digits, more than the 18 a multipleOf may have (checking a value against it would take time growing with both numbers' digits)`},
		{"19 digits, a fraction", `{"multipleOf":0.1234567890123456789}`, "", `inputSchema: /multipleOf: has 19 significant digits, more than the 18`},
		{"19 digits, in an outputSchema", `{"type":"object"}`, `{"items":{"multipleOf":1234567890123456789e-5}}`, `outputSchema: /items/multipleOf: has 19 significant digits`},
		{"with escapes", `{"properties":{"n":{"multiple\u004ff":1234567890123456789}}}`, "", `inputSchema: /properties/n/multipleOf: has 19`},
		{"18 digits", `{"multipleOf":123456789012345678}`, "", ""},
		{"many zeros, few digits", `{"multipleOf":1e-300}`, `{"multipleOf":100000000000000000000000000000}`, ""},
		{"data, not a schema, is not a number to check", `{"const":{"multipleOf":"1234567890123456789"}}`, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tool := Tool{Name: "t", Execute: noopToolExecute, InputSchema: json.RawMessage(tc.in)}
			if tc.out != "" {
				tool.OutputSchema = json.RawMessage(tc.out)
			}
			_, err := compileTool(tool)
			if tc.err == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidTool) || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("%v, want ErrInvalidTool containing %q", err, tc.err)
			}
		})
	}
	e, err := compileTool(Tool{Name: "t", Execute: noopToolExecute, InputSchema: json.RawMessage(`{"multipleOf":123456789012345678}`)})
	if err != nil {
		t.Fatal(err)
	}
	multiple := strings.Repeat("123456789012345678", 10000) // m * (1 + 10^18 + 10^36 + ...)
	if err := e.validate(json.RawMessage(multiple)); err != nil {
		t.Errorf("a 180,000-digit multiple: %v", err)
	}
	if err := e.validate(json.RawMessage(multiple + "1")); err == nil || !strings.Contains(err.Error(), "multipleOf") {
		t.Errorf("a 180,001-digit non-multiple: %v", err)
	}
}
