package codemode

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// numbers returns a JSON array of 0..n-1 followed by extra.
func numbers(n int, extra ...string) string {
	parts := make([]string, 0, n+len(extra))
	for i := 0; i < n; i++ {
		parts = append(parts, strconv.Itoa(i))
	}
	return "[" + strings.Join(append(parts, extra...), ",") + "]"
}

// The validator words the rules describeKind does not word itself, and
// every compile error against the meta-schema. These pin those messages:
// numbers are printed plainly ("1000", as in the paths, "/items/1000"),
// never digit-grouped ("1,000", which golang.org/x/text's English printer
// did before the validator copy dropped it).
func TestSchemaValidatorWordedMessages(t *testing.T) {
	const draft07 = `"$schema":"http://json-schema.org/draft-07/schema#",`
	tests := []struct {
		name   string
		schema string
		input  string
		want   string
	}{
		{"uniqueItems", `{"uniqueItems":true}`, `[1,2,1]`,
			"invalid input: /: uniqueItems: items at 0 and 2 are equal"},
		{"uniqueItems past 1000", `{"uniqueItems":true}`, numbers(1001, "1000"),
			"invalid input: /: uniqueItems: items at 1000 and 1001 are equal"},
		{"maxContains", `{"contains":{"type":"number"},"maxContains":1}`, `[1,2,3]`,
			"invalid input: /: maxContains: max 1 items required to match contains schema, but matched 3 items at 0 1 2"},
		{"minContains", `{"contains":{"type":"number"},"minContains":3}`, `[1,2]`,
			"invalid input: /: minContains: min 3 items required to match contains schema, but matched 2 items at 0 1"},
		{"minContains past 1000", `{"contains":{"type":"number"},"minContains":1500}`, numbers(3),
			"invalid input: /: minContains: min 1500 items required to match contains schema, but matched 3 items at 0 1 2"},
		{"dependentRequired", `{"dependentRequired":{"a":["b","c"]}}`, `{"a":1}`,
			"invalid input: /: dependentRequired/a: properties 'b', 'c' required, if 'a' exists"},
		{"draft-07 dependencies", `{` + draft07 + `"dependencies":{"a":["b"]}}`, `{"a":1}`,
			"invalid input: /: dependency/a: properties 'b' required, if 'a' exists"},
		{"draft-07 additionalItems", `{` + draft07 + `"items":[{}],"additionalItems":false}`, `[1,2,3]`,
			"invalid input: /: additionalItems: last 2 additionalItem(s) not allowed"},
		{"draft-07 additionalItems past 1000", `{` + draft07 + `"items":[{}],"additionalItems":false}`, numbers(1201),
			"invalid input: /: additionalItems: last 1200 additionalItem(s) not allowed"},
		// tool_call(name, JSON.stringify(input)): the input is a string.
		{"an object sent as JSON text", `{"type":"object","properties":{"limit":{"type":"integer"}}}`, `" {\"limit\": 3}"`,
			"invalid input: /: type: got string, want object (the input is JSON text, a string: pass the object itself, not JSON.stringify(...) of it)"},
		{"an array sent as JSON text", `{"type":"array"}`, `"[1, 2]"`,
			"invalid input: /: type: got string, want array (the input is JSON text, a string: pass the object itself, not JSON.stringify(...) of it)"},
		{"a string that is not JSON text", `{"type":"object"}`, `"{limit: 3}"`,
			"invalid input: /: type: got string, want object (the input is one object of named fields, not a bare value)"},
		// ids: '["a","b"]': a property's value as JSON text.
		{"JSON text where a property wants an object", `{"type":"object","properties":{"q":{"type":"object"}}}`, `{"q":"{\"a\":1}"}`,
			"invalid input: /q: type: got string, want object (the string is JSON text: pass the object itself, not JSON.stringify(...) of it)"},
		{"JSON text where a property wants an array", `{"type":"object","properties":{"ids":{"type":"array"}}}`, `{"ids":" [\"a\", \"b\"]"}`,
			"invalid input: /ids: type: got string, want array (the string is JSON text: pass the array itself, not JSON.stringify(...) of it)"},
		// ids: "a,b", a list read from text: ["a,b"] passes and is one wrong id.
		{"a list as one string where a property wants an array", `{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"}}}}`, `{"ids":"a, b"}`,
			`invalid input: /ids: type: got string, want array (one string: pass an array of the values, ["a", "b"])`},
		{"a list of numbers as one string", `{"type":"object","properties":{"q":{"type":"object","properties":{"n":{"type":"array","items":{"type":"integer"}}}}}}`, `{"q":{"n":"1,2,x"}}`,
			`invalid input: /q/n: type: got string, want array (one string: pass an array of the values, [1, 2, "x"])`},
		{"one value as a string, items unsaid", `{"type":"object","properties":{"ids":{"type":"array"}}}`, `{"ids":"7"}`,
			`invalid input: /ids: type: got string, want array (one string: pass an array of the values, ["7"])`},
		// ids: 5, one value where a list is wanted.
		{"one number where a property wants an array of strings", `{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"}}}}`, `{"ids":5}`,
			`invalid input: /ids: type: got number, want array (one value: pass an array of the values, ["5"])`},
		{"one number where a property wants an array of integers", `{"properties":{"q":{"properties":{"n":{"type":"array","items":{"type":"integer"}}}}}}`, `{"q":{"n":7}}`,
			`invalid input: /q/n: type: got number, want array (one value: pass an array of the values, [7])`},
		{"an object where a property wants an array", `{"properties":{"ids":{"type":"array"}}}`, `{"ids":{"a":1}}`,
			"invalid input: /ids: type: got object, want array"},
		// tools.orders.search({ arguments: { status: "open" } }): the input wrapped.
		{"the input wrapped in one key", `{"type":"object","properties":{"status":{}},"additionalProperties":false}`, `{"arguments":{"status":"open"}}`,
			`invalid input: /: additionalProperties: "arguments" not allowed (the input is the tool's fields themselves: pass what arguments holds, {"status":"open"}, not { arguments: {...} })`},
		{"the input wrapped in one key, long", `{"type":"object","properties":{"status":{}},"additionalProperties":false}`, `{"params":{"status":"` + strings.Repeat("a", 120) + `"}}`,
			`invalid input: /: additionalProperties: "params" not allowed (the input is the tool's fields themselves: pass what params holds, not { params: {...} })`},
		{"an unknown key beside others", `{"type":"object","properties":{"status":{}},"additionalProperties":false}`, `{"status":"open","params":{"a":1}}`,
			`invalid input: /: additionalProperties: "params" not allowed`},
		{"an unknown key of a string", `{"type":"object","properties":{"status":{}},"additionalProperties":false}`, `{"input":"open"}`,
			`invalid input: /: additionalProperties: "input" not allowed`},
		// note: null, for a field the model meant to leave out.
		{"null for a field", `{"type":"object","properties":{"note":{"type":"string"},"n":{"type":"integer"}}}`, `{"note":null,"n":null}`,
			"invalid input:\n/n: type: got null, want integer (null is not a value here: send an integer, or leave the field out if it is optional)\n" +
				"/note: type: got null, want string (null is not a value here: send a string, or leave the field out if it is optional)"},
		{"null in an array", `{"type":"array","items":{"type":"string"}}`, `["a",null]`,
			"invalid input: /1: type: got null, want string"},
		{"null for the whole input", `{"type":"object"}`, `null`,
			"invalid input: /: type: got null, want object"},
		// tools.orders.get("o1"): a bare value for an object of fields.
		{"a bare string for one required field", `{"type":"object","properties":{"id":{"type":"string"},"expand":{"type":"boolean"}},"required":["id"]}`, `"o1"`,
			`invalid input: /: type: got string, want object (the input is one object of named fields, not a bare value: pass { id: "o1" })`},
		{"a bare number for one property", `{"type":"object","properties":{"order-id":{"type":"integer"}}}`, `42`,
			`invalid input: /: type: got number, want object (the input is one object of named fields, not a bare value: pass { "order-id": 42 })`},
		{"a bare string for two required fields", `{"type":"object","properties":{"b":{},"a":{}},"required":["b","a"]}`, `"x"`,
			`invalid input: /: type: got string, want object (the input is one object of named fields, not a bare value: pass { b: ..., a: ... })`},
		// tools.orders.search("open"): the one property whose enum holds the value.
		{"a bare string that one property's enum holds", `{"type":"object","properties":{"status":{"enum":["open","shipped"]},"kind":{"enum":["a","b"]},"limit":{"type":"integer"}}}`, `"open"`,
			`invalid input: /: type: got string, want object (the input is one object of named fields, not a bare value: pass { status: "open" })`},
		{"a bare string that two properties' enums hold", `{"type":"object","properties":{"from":{"enum":["x","y"]},"to":{"enum":["x","y"]}}}`, `"x"`,
			`invalid input: /: type: got string, want object (the input is one object of named fields, not a bare value: pass { from: ..., to: ... })`},
		{"a bare boolean, no properties", `{"type":"object"}`, `true`,
			`invalid input: /: type: got boolean, want object (the input is one object of named fields, not a bare value)`},
		// A guessed field name (orderId for id): the message names the
		// keys the schema does not have, and its properties.
		{"a wrong field name", `{"type":"object","properties":{"id":{"type":"string"},"expand":{"type":"boolean"}},"required":["id"]}`, `{"orderId":"o1"}`,
			`invalid input: /: required: missing "id" (the input has "orderId", which is not a property of this object; its properties are expand, id)`},
		{"wrong names, nested in an array", `{"properties":{"lines":{"type":"array","items":{"properties":{"sku":{},"qty":{}},"required":["sku","qty"]}}}}`, `{"lines":[{"sku":"a","qty":1},{"SKU":"b","quantity":2}]}`,
			`invalid input: /lines/1: required: missing "sku", "qty" (the input has "SKU", "quantity", which are not properties of this object; its properties are qty, sku)`},
		{"a missing field, every key known", `{"properties":{"id":{},"expand":{}},"required":["id"]}`, `{"expand":true}`,
			`invalid input: /: required: missing "id"`},
		{"a missing field, no properties to compare with", `{"required":["id"]}`, `{"orderId":"o1"}`,
			`invalid input: /: required: missing "id"`},
		// A number or a boolean sent as a string (limit: "5"), a habit of
		// models that read it from text: the message says what to send.
		{"an integer as a string", `{"properties":{"limit":{"type":"integer"}}}`, `{"limit":"5"}`,
			`invalid input: /limit: type: got string, want integer (the string "5": pass the number 5, without quotes)`},
		{"a number as a string", `{"properties":{"price":{"type":["number","null"]}}}`, `{"price":"-2.5e1"}`,
			`invalid input: /price: type: got string, want null or number (the string "-2.5e1": pass the number -2.5e1, without quotes)`},
		{"a boolean as a string, in an array", `{"items":{"type":"boolean"}}`, `[true,"false"]`,
			`invalid input: /1: type: got string, want boolean (the string "false": pass false, without quotes)`},
		{"a key with a slash", `{"properties":{"a/b":{"type":"integer"}}}`, `{"a/b":"7"}`,
			`invalid input: /a~1b: type: got string, want integer (the string "7": pass the number 7, without quotes)`},
		{"a decimal where an integer is wanted", `{"properties":{"n":{"type":"integer"}}}`, `{"n":"2.5"}`,
			"invalid input: /n: type: got string, want integer"},
		{"an integer written with a fraction, as a string", `{"properties":{"n":{"type":"integer"}}}`, `{"n":"2.0"}`,
			`invalid input: /n: type: got string, want integer (the string "2.0": pass the number 2, without quotes)`},
		{"an integer with an exponent, as a string", `{"properties":{"n":{"type":"integer"}}}`, `{"n":"-3e2"}`,
			`invalid input: /n: type: got string, want integer (the string "-3e2": pass the number -300, without quotes)`},
		// The program's NaN or Infinity, which the input holds as a
		// string: not a quoting mistake.
		{"NaN where a number is wanted", `{"properties":{"n":{"type":"number"}}}`, `{"n":"NaN"}`,
			`invalid input: /n: type: got string, want number (the string "NaN": the program passed NaN, which is no JSON number; check what computed it, e.g. Number() of text that is not a number)`},
		{"-Infinity where an integer is wanted", `{"properties":{"n":{"type":"integer"}}}`, `{"n":"-Infinity"}`,
			`invalid input: /n: type: got string, want integer (the string "-Infinity": the program passed -Infinity, which is no JSON number; check what computed it, e.g. Number() of text that is not a number)`},
		{"words where a number is wanted", `{"properties":{"n":{"type":"number"}}}`, `{"n":"five"}`,
			"invalid input: /n: type: got string, want number"},
		{"a padded number", `{"properties":{"n":{"type":"number"}}}`, `{"n":" 5"}`,
			"invalid input: /n: type: got string, want number"},
		{"a capitalised boolean", `{"properties":{"b":{"type":"boolean"}}}`, `{"b":"True"}`,
			"invalid input: /b: type: got string, want boolean"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := compileSchema(json.RawMessage(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			err = v.validate(json.RawMessage(tt.input))
			if err == nil || err.Error() != tt.want {
				t.Errorf("validate = %v\nwant %s", err, tt.want)
			}
		})
	}
}

func TestSchemaMetaSchemaMessages(t *testing.T) {
	const head = `"#" is not valid against metaschema: jsonschema validation failed with 'https://json-schema.org/draft/2020-12/schema#'` +
		"\n- at '': 'allOf' failed\n"
	tests := []struct {
		name   string
		schema string
		want   string
	}{
		{"minimum", `{"minLength":-1}`, head + "  - at '/minLength': minimum: got -1, want 0"},
		{"minimum past 1000", `{"minLength":-1500}`, head + "  - at '/minLength': minimum: got -1500, want 0"},
		{"type", `{"maxItems":1.5}`, head + "  - at '/maxItems': got number, want integer"},
		{"anyOf and enum", `{"type":5}`, head + "  - at '/type': 'anyOf' failed\n" +
			"    - at '/type': value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'\n" +
			"    - at '/type': got number, want array"},
		{"regex", `{"pattern":"("}`, head + "  - at '/pattern': '(' is not valid regex: error parsing regexp: missing closing ): `(`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := compileSchema(json.RawMessage(tt.schema))
			if err == nil || err.Error() != tt.want {
				t.Errorf("compile = %v\nwant %s", err, tt.want)
			}
		})
	}
}
