package codemode

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/interopio/code-mode/internal/decimal"
	"github.com/interopio/code-mode/internal/jsondec"
)

// schemaJSONError says what is wrong with a schema that normalizeSchema
// could not decode: a number past float64's range (1e400, which
// json.Unmarshal refuses too and JSON.parse reads as Infinity), named by
// its place, or else encoding/json's words for the text.
func schemaJSONError(raw []byte) error {
	if doc, err := jsondec.Decode(raw, jsondec.Options{Ordered: true, Numbers: true}); err == nil {
		if e := outOfRange(doc); e != nil {
			return e
		}
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return errors.New("must be valid JSON: " + err.Error())
	}
	return errors.New("must be valid JSON")
}

// outOfRange is the first number in v (in document order) that a float64
// cannot hold.
func outOfRange(v any) *schemaError {
	switch v := v.(type) {
	case json.Number:
		if _, err := strconv.ParseFloat(string(v), 64); err != nil {
			shown := string(v)
			if d, ok := decimal.Parse(shown); ok {
				shown = d.Text(messageDigits)
			}
			return badf("the number %s is out of range: a schema's numbers must be within ±1.8e308 (a float64)", shown)
		}
	case *jsondec.Object:
		for _, k := range v.Keys {
			if e := outOfRange(v.Vals[k]); e != nil {
				return e.in(k)
			}
		}
	case []any:
		for i, x := range v {
			if e := outOfRange(x); e != nil {
				return e.in(strconv.Itoa(i))
			}
		}
	}
	return nil
}
