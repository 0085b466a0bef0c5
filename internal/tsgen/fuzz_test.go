package tsgen

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/interopio/code-mode/internal/trunc"
)

// FuzzSignature: a catalog's schemas (JSON text of an object or a
// boolean, as registration takes) and description render a declaration
// within SignatureMax, the same each time, that parses as TypeScript
// unless it was cut to fit (trunc.Mark at its end, which signature says
// no longer parses); and so with the result type inferred from a result. Run further with
// `go test -run='^$' -fuzz=FuzzSignature -parallel=1 ./internal/tsgen`.
func FuzzSignature(f *testing.F) {
	results := []string{`[{"id":"a","total":1.5,"tags":["x"]},{"id":"b","total":2}]`, `{"a":{"b":{"c":{"d":{"e":{"f":{"g":1}}}}}},"*/":null}`, `"x"`, `[[],[1],{"x":1}]`, `not json`}
	for i, s := range [][3]string{
		{`{"type":"object","properties":{"status":{"type":"string","enum":["open","shipped"],"description":"Order status."},"limit":{"type":"integer"}},"required":["limit"]}`,
			`{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"total":{"type":"number"}},"required":["id","total"]}}`, "Search orders by status."},
		{`{"type":"object","properties":{"first-name":{"type":"string"},"$ok":{"type":"boolean"},"2fa":{"type":"boolean"}}}`, ``, ""},
		{`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":{"type":"number"}}`, `true`, "ends */ early `tick` </script> \u2028 ${x}"},
		{`{"type":"object","properties":{"*/":{"type":"string","description":"a */ b","default":"*/"},"q\"uo'te":{"const":"*/"},"a\u2028b":{"enum":["\u2028","*/"]},"__proto__":{"type":"string"},"":{"type":"number"}},"required":["absent name","1x"]}`, ``, "x"},
		{`{"$defs":{"n":{"$anchor":"n","type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#n"}}}}},"$ref":"#/$defs/n"}`, `false`, ""},
		{`{"type":"object","properties":{"a":{"type":"string","nullable":true},"b":{"type":["integer","null"]},"c":{"enum":[1,"a",null,{"x":1},[1],true]}}}`, ``, ""},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"t":{"type":"object","properties":{"c":{"$ref":"#/definitions/t"}}}},"$ref":"#/definitions/t"}`, ``, ""},
		{`{"anyOf":[{"type":"string","format":"date-time"},{"type":"array","prefixItems":[{"type":"number"}],"items":false}],"allOf":[{"minLength":1}]}`, `{"oneOf":[{"const":1},{"const":"1"}]}`, ""},
		{`{"type":"object","patternProperties":{"^x-":{"type":"string"}},"propertyNames":{"pattern":"^[a-z]+$"},"if":{"required":["a"]},"then":{"properties":{"b":{"type":"null"}}}}`, ``, ""},
	} {
		f.Add(s[0], s[1], s[2], results[len(results)-1-i%len(results)])
	}
	f.Fuzz(func(t *testing.T, input, output, description, result string) {
		var in, out json.RawMessage
		for _, p := range []struct {
			text string
			raw  *json.RawMessage
		}{{input, &in}, {output, &out}} {
			text := strings.TrimSpace(p.text)
			if text == "" {
				continue
			}
			var v any
			if !utf8.ValidString(text) || json.Unmarshal([]byte(text), &v) != nil {
				return
			}
			switch v.(type) {
			case map[string]any, bool:
				*p.raw = json.RawMessage(text)
			default:
				return
			}
		}
		sig := Signature("orders.search", description, in, out)
		if again := Signature("orders.search", description, in, out); again != sig {
			t.Fatalf("two renderings differ:\n%s\n%s", sig, again)
		}
		if len(sig) > SignatureMax {
			t.Fatalf("%d bytes, more than SignatureMax", len(sig))
		}
		if !strings.HasSuffix(sig, trunc.Mark) {
			if err := parseSignature(sig, "tools.orders.search("); err != "" {
				t.Fatalf("input %s, output %s: %s", in, out, err)
			}
		}
		var sh Shape
		sh.Add([]byte(result))
		sh.Add([]byte(result))
		inferred := strings.TrimSuffix(InferredSignature("orders.search", description, in, &sh), inferredMark)
		if len(inferred) > SignatureMax {
			t.Fatalf("inferred from %q: %d bytes", result, len(inferred))
		}
		if !strings.HasSuffix(inferred, trunc.Mark) {
			if err := parseSignature(inferred, "tools.orders.search("); err != "" {
				t.Fatalf("input %s, results %s: %s", in, result, err)
			}
		}
	})
}
