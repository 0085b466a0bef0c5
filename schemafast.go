package codemode

import (
	"cmp"
	"encoding/json"
	"unicode/utf8"

	"github.com/interopio/code-mode/internal/decimal"
	"github.com/interopio/code-mode/internal/jsondec"
)

// surelyValid reports that inst (decoded by jsonschema.UnmarshalJSON) is
// valid against a plain schema (see plainSchema), for the keywords it
// knows how to judge exactly as the validator does; false means "not
// known": the caller then asks the full validator, which also words the
// errors. Valid input, the common case, is thus accepted without compiling
// the schema with the full validator, which cost the first tool call most
// of its remaining time in the browser. formatAsserted is plainSchema's:
// "format" is then an assertion, left to the validator.
func surelyValid(schema, inst any, formatAsserted bool, depth int) bool {
	return (&fastCheck{formatAsserted: formatAsserted}).valid(schema, inst, depth)
}

// fastCheck is one surelyValid scan, which stop, if set, ends (not known:
// false) once it says so, asked every 1,024 schemas or enum values: an
// input matching none of an anyOf's 100,000 alternatives was scanned for
// 35-180 ms under GOOS=js, twice, before the validator's first question.
type fastCheck struct {
	formatAsserted bool
	stop           func() bool
	polls          int
	halted         bool
}

func (f *fastCheck) stopped() bool {
	if f.stop != nil && !f.halted {
		f.polls++
		f.halted = f.polls&1023 == 0 && f.stop()
	}
	return f.halted
}

func (f *fastCheck) valid(schema, inst any, depth int) bool {
	if depth > maxSchemaDepth || f.stopped() {
		return false
	}
	switch s := schema.(type) {
	case bool:
		return s
	case map[string]any:
		for k, v := range s {
			if !f.keyword(s, k, v, inst, depth) {
				return false
			}
		}
		return true
	}
	return false
}

func (f *fastCheck) keyword(s map[string]any, k string, v, inst any, depth int) bool {
	if _, ok := inst.(jsondec.Passed); ok {
		// An array or object decoded as its kind only (readLevels): what
		// its contents decide is not known here.
		switch k {
		case "properties", "additionalProperties", "propertyNames", "required", "items",
			"minItems", "maxItems", "minProperties", "maxProperties", "uniqueItems":
			return false
		}
	}
	switch k {
	case "title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly", "$defs", "$schema":
		// annotations and definitions, no assertion
		return true
	case "format":
		// an annotation in drafts 2019-09 and 2020-12 (compileSchema does
		// not ask the validator to assert it); draft-07 asserts it
		return !f.formatAsserted
	case "type":
		if t, ok := v.(string); ok {
			return hasType(inst, t)
		}
		for _, t := range v.([]any) {
			if hasType(inst, t.(string)) {
				return true
			}
		}
		return false
	case "properties":
		obj, ok := inst.(map[string]any)
		if !ok {
			return true
		}
		for name, sub := range v.(map[string]any) {
			if x, ok := obj[name]; ok && !f.valid(sub, x, depth+1) {
				return false
			}
		}
		return true
	case "additionalProperties":
		obj, ok := inst.(map[string]any)
		if !ok {
			return true
		}
		props, _ := s["properties"].(map[string]any)
		for name, x := range obj {
			if _, ok := props[name]; !ok && !f.valid(v, x, depth+1) {
				return false
			}
		}
		return true
	case "propertyNames":
		// each name, a string, against the schema (zod's records say
		// {"type":"string"}, which every name meets)
		obj, ok := inst.(map[string]any)
		if !ok {
			return true
		}
		for name := range obj {
			if !f.valid(v, name, depth+1) {
				return false
			}
		}
		return true
	case "required":
		obj, ok := inst.(map[string]any)
		if !ok {
			return true
		}
		for _, name := range v.([]any) {
			if _, ok := obj[name.(string)]; !ok {
				return false
			}
		}
		return true
	case "items":
		if _, ok := s["prefixItems"]; ok {
			return false
		}
		arr, ok := inst.([]any)
		if !ok {
			return true
		}
		for _, x := range arr {
			if !f.valid(v, x, depth+1) {
				return false
			}
		}
		return true
	case "enum":
		for _, want := range v.([]any) {
			if sameScalar(inst, want) {
				return true
			} else if f.stopped() {
				return false
			}
		}
		return false
	case "const":
		return sameScalar(inst, v)
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		n, ok := inst.(json.Number)
		if !ok {
			return true
		}
		c, ok := compareNumbers(string(n), string(v.(json.Number)))
		if !ok {
			return false
		}
		switch k {
		case "minimum":
			return c >= 0
		case "maximum":
			return c <= 0
		case "exclusiveMinimum":
			return c > 0
		}
		return c < 0
	case "minLength", "maxLength":
		str, ok := inst.(string)
		if !ok {
			return true
		}
		return withinCount(k == "minLength", utf8.RuneCountInString(str), v)
	case "minItems", "maxItems":
		arr, ok := inst.([]any)
		if !ok {
			return true
		}
		return withinCount(k == "minItems", len(arr), v)
	case "minProperties", "maxProperties":
		obj, ok := inst.(map[string]any)
		if !ok {
			return true
		}
		return withinCount(k == "minProperties", len(obj), v)
	case "uniqueItems":
		arr, ok := inst.([]any)
		return !v.(bool) || !ok || len(arr) < 2
	case "allOf":
		for _, sub := range v.([]any) {
			if !f.valid(sub, inst, depth+1) {
				return false
			}
		}
		return true
	case "anyOf":
		for _, sub := range v.([]any) {
			if f.valid(sub, inst, depth+1) {
				return true
			} else if f.halted {
				return false
			}
		}
		return false
	}
	// oneOf, not, if/then/else, contains, prefixItems, multipleOf, ...:
	// left to the full validator.
	return false
}

// readLevels is how many levels of an input surelyValid reads for a plain
// schema: 0 when only the input's own kind or value ({"type":"object"}),
// 1 when its keys or elements too ("required", or "properties" whose
// schemas look at their values' kinds alone), and so on; -1 when it
// cannot say (a keyword surelyValid leaves to the validator). An input is
// decoded that deep first (jsondec's Outline): a tool call of 50,000 rows
// to a tool whose schema names one key was decoded whole, as much work
// as the program's own JSON.stringify of them.
func readLevels(schema any, depth int) int {
	if depth > maxSchemaDepth {
		return -1
	}
	s, ok := schema.(map[string]any)
	if !ok {
		return 0 // true or false: the input is not read
	}
	n := 0
	for k, v := range s {
		m := 0
		switch k {
		case "title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly", "$defs", "$schema",
			"format", "type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength":
		case "required", "propertyNames", "minItems", "maxItems", "minProperties", "maxProperties", "uniqueItems":
			m = 1
		case "items", "additionalProperties":
			if m = readLevels(v, depth+1); m < 0 {
				return -1
			}
			m++
		case "properties", "allOf", "anyOf":
			var subs []any
			if k == "properties" {
				for _, sub := range v.(map[string]any) {
					subs = append(subs, sub)
				}
			} else {
				subs = v.([]any)
			}
			for _, sub := range subs {
				l := readLevels(sub, depth+1)
				if l < 0 {
					return -1
				}
				m = max(m, l)
			}
			if k == "properties" {
				m++
			}
		default:
			return -1
		}
		n = max(n, m)
	}
	return n
}

// hasType is the validator's type check, except that a number with a
// fraction or an exponent is not judged an integer here ("2.0" is one for
// the validator, which then decides).
func hasType(inst any, t string) bool {
	switch inst := inst.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	case jsondec.Passed:
		return t == "object" && inst == '{' || t == "array" && inst == '['
	case json.Number:
		if t == "number" {
			return true
		}
		if t != "integer" || len(inst) == 0 {
			return false
		}
		digits := string(inst)
		if digits[0] == '-' {
			digits = digits[1:]
		}
		if digits == "" {
			return false
		}
		for i := 0; i < len(digits); i++ {
			if digits[i] < '0' || digits[i] > '9' {
				return false
			}
		}
		return true
	}
	return false
}

// sameScalar compares null, booleans and strings; numbers, arrays and
// objects (whose equality the validator decides by value) are not judged.
func sameScalar(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		x, ok := b.(bool)
		return ok && x == a
	case string:
		x, ok := b.(string)
		return ok && x == a
	}
	return false
}

// compareNumbers compares two JSON numbers exactly (-1, 0, 1): as int64
// when both are integers of at most 15 digits (a limit, a page, an index:
// most bounds and inputs), else as exact decimals, whose two parses were
// most of the cost of checking such an input.
func compareNumbers(a, b string) (int, bool) {
	if x, ok := smallInt(a); ok {
		if y, ok := smallInt(b); ok {
			return cmp.Compare(x, y), true
		}
	}
	x, ok1 := decimal.Parse(a)
	y, ok2 := decimal.Parse(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	return x.Cmp(y), true
}

// smallInt reads -?[0-9]{1,15}.
func smallInt(s string) (int64, bool) {
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 15 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int64(s[i]-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// withinCount compares a length with a plain schema's count (digits only,
// see plainKeyword); a count too long to be an int is not judged.
func withinCount(isMin bool, n int, count any) bool {
	c := string(count.(json.Number))
	if len(c) > 9 {
		return false
	}
	want := 0
	for i := 0; i < len(c); i++ {
		want = want*10 + int(c[i]-'0')
	}
	if isMin {
		return n >= want
	}
	return n <= want
}
