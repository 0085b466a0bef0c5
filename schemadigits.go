package codemode

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/interopio/code-mode/internal/decimal"
)

// checkMultipleOfDigits refuses a "multipleOf" of more significant digits
// than decimal.IsMultipleOf checks in time linear in the value's: past
// them its remainder is schoolbook, quadratic, and runs in the core,
// where no run's timeout reaches (a 30,000-digit value against a
// 15,000-digit multipleOf took 6.6 s, the page frozen meanwhile). The
// check walk reads numbers as float64, which keeps 17 digits, so this one
// reads the schema's text, and only when it may hold the keyword (a key
// can be spelt with escapes). A schema given as a JavaScript value never
// has such a number (JSON.stringify writes at most 17 digits): this is the
// Go API's.
func checkMultipleOfDigits(raw json.RawMessage) error {
	if !bytes.Contains(raw, []byte("multipleOf")) && !bytes.Contains(raw, []byte(`\u`)) {
		return nil
	}
	doc, err := decodeNumbers(raw)
	if err != nil {
		return nil // refused elsewhere
	}
	if err := multipleOfDigitsAt(doc, 0); err != nil {
		return err
	}
	return nil
}

func multipleOfDigitsAt(node any, depth int) *schemaError {
	if depth > maxSchemaDepth {
		return nil
	}
	switch n := node.(type) {
	case map[string]any:
		return eachKey(n, true, func(k string, v any) *schemaError {
			if num, ok := v.(json.Number); ok && k == "multipleOf" {
				if d, ok := decimal.Parse(string(num)); ok && d.Digits() > decimal.MaxMultipleOfDigits {
					return badf("has %d significant digits, more than the %d a multipleOf may have (checking a value against it would take time growing with both numbers' digits)", d.Digits(), decimal.MaxMultipleOfDigits).in(k)
				}
			}
			if err := multipleOfDigitsAt(v, depth+1); err != nil {
				return err.in(k)
			}
			return nil
		})
	case []any:
		for i, v := range n {
			if err := multipleOfDigitsAt(v, depth+1); err != nil {
				return err.in(strconv.Itoa(i))
			}
		}
	}
	return nil
}
