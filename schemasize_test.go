package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
)

// schemaOfLength is a valid input schema whose JSON text is n characters
// (UTF-16 units) long once compact: {"type":"object","description":"dd..."}
// with each d written as unit (of units characters each) and space
// between its tokens.
func schemaOfLength(t *testing.T, n int, unit string, units int, space string) json.RawMessage {
	t.Helper()
	head := `{"type":"object","description":"`
	fill := n - len(head) - len(`"}`)
	if fill%units != 0 {
		t.Fatalf("%d characters do not divide into units of %d", fill, units)
	}
	return json.RawMessage(strings.Replace(head, ":", ":"+space, -1) + strings.Repeat(unit, fill/units) + `"` + space + `}`)
}

// A schema longer than maxSchemaChars as compact JSON is refused at
// registration, naming the tool and the field; the limit counts what the
// page counts (UTF-16 units of the text without spaces), not bytes.
func TestSchemaTooLarge(t *testing.T) {
	exec := func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		return json.RawMessage(`1`), nil
	}
	for _, tc := range []struct {
		name   string
		schema json.RawMessage
		ok     bool
	}{
		{"exactly the limit", schemaOfLength(t, maxSchemaChars, "d", 1, ""), true},
		{"one more", schemaOfLength(t, maxSchemaChars+1, "d", 1, ""), false},
		{"the limit, with spaces between tokens", schemaOfLength(t, maxSchemaChars, "d", 1, "    "), true},
		// é: 2 bytes, 1 unit; 😀: 4 bytes, 2 units.
		{"the limit in characters of 2 bytes", schemaOfLength(t, maxSchemaChars, "é", 1, ""), true},
		{"the limit in characters outside the BMP", schemaOfLength(t, maxSchemaChars, "😀", 2, ""), true},
		{"past the limit in characters outside the BMP", schemaOfLength(t, maxSchemaChars+2, "😀", 2, ""), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, field := range []string{"inputSchema", "outputSchema"} {
				cm := mustNew(t, Config{})
				tool := Tool{Name: "big.schema", Execute: exec}
				if field == "inputSchema" {
					tool.InputSchema = tc.schema
				} else {
					tool.OutputSchema = tc.schema
				}
				_, err := cm.RegisterTools(Tool{Name: "fine", Execute: exec}, tool)
				if tc.ok {
					if err != nil {
						t.Fatalf("%s: %v", field, err)
					}
					continue
				}
				var te *ToolError
				if !errors.Is(err, ErrInvalidTool) || !errors.As(err, &te) || te.Name != "big.schema" || te.Field != field || te.Reason != schemaTooLarge {
					t.Fatalf("%s: want the tool, the field and the limit, got %v", field, err)
				}
				if got := cm.ListTools(); len(got) != 0 {
					t.Fatalf("%s: a batch with a refused tool registered %d", field, len(got))
				}
			}
		})
	}
}

// The page says the same before its text reaches the core
// (web/src/schema.mjs): the limit and the words are kept the same.
func TestSchemaTooLargePageCopy(t *testing.T) {
	src, err := os.ReadFile("web/src/schema.mjs")
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`MAX_SCHEMA_CHARS = (\d+);`).FindSubmatch(src); m == nil || string(m[1]) != "8000000" || maxSchemaChars != 8_000_000 {
		t.Errorf("web/src/schema.mjs MAX_SCHEMA_CHARS is %q, maxSchemaChars %d", m, maxSchemaChars)
	}
	m := regexp.MustCompile(`(?s)const TOO_LARGE =(.*?);\n`).FindSubmatch(src)
	if m == nil {
		t.Fatal("web/src/schema.mjs has no TOO_LARGE")
	}
	var words strings.Builder
	for _, part := range regexp.MustCompile(`"([^"]*)"|'([^']*)'`).FindAllSubmatch(m[1], -1) {
		words.Write(part[1])
		words.Write(part[2])
	}
	if want := ": " + schemaTooLarge; words.String() != want {
		t.Errorf("the page says\n%s\nthe core\n%s", words.String(), want)
	}
}
