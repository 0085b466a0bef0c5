package codemode

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestDecodeJSON: decodeJSON gives what json.Unmarshal into an any gives,
// and refuses what it refuses, on tricky texts and on every schema of the
// evaluation catalogs; decodeJSONNumbers gives what jsonschema.UnmarshalJSON
// (json.Number for numbers, whatever their range) gives, on the same texts
// and on tool inputs.
func TestDecodeJSON(t *testing.T) {
	texts := []string{
		`{}`, `[]`, `{"a":1}`, ` { "a" : [ 1 , 2.5e3 , -0 , -0.5E-2 , true , false , null ] } `,
		`"plain"`, `"esc \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude80"`, `"lone \ud800 surrogate"`, "\"bad utf8 \xff\"", "\"caf\xc3\xa9\"",
		`{"a":1,"a":2}`, `1e400`, `-1e400`, `1e-400`, `123456789012345678901234567890`,
		`01`, `1.`, `.5`, `+1`, `-`, `1e`, `1e+`, `--1`, `0x10`, `1 2`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{a:1}`,
		`tru`, `nul`, `truex`, `"unterminated`, "\"ctl \x01\"", `"\x"`, `"\u12"`, `{"a":{"b":{"c":[[[{}]]]}}}`, ``, ` `,
		`[` + strings.Repeat(`[`, 9999) + strings.Repeat(`]`, 10000), `[` + strings.Repeat(`[`, 10000) + strings.Repeat(`]`, 10001),
	}
	for _, api := range []string{"github", "slack", "stripe", "digitalocean"} {
		raw, err := os.ReadFile("internal/search/eval/testdata/" + api + ".catalog.json")
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			Tools []struct {
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		for _, tool := range c.Tools {
			texts = append(texts, string(tool.InputSchema))
		}
	}
	for _, text := range texts {
		var want any
		wantErr := json.Unmarshal([]byte(text), &want)
		got, err := decodeJSON([]byte(text))
		short := text[:min(len(text), 60)]
		if (err != nil) != (wantErr != nil) {
			t.Errorf("%q: error %v, json.Unmarshal's %v", short, err, wantErr)
			continue
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %#v, want %#v", short, got, want)
		}
	}
	inputs := append(texts, `{"i":0}`, `{"i":-0,"n":1.50,"big":123456789012345678901234567890,"tiny":1e-400,"huge":1E+400}`,
		`[0.1e1, -2E-0, 1e01]`, `{"s":"x","t":[{"u":null}]}`+" \t\r\n", `1 `, ` {"a":1}x`, `{"a":1}{}`, `[]]`)
	for _, text := range inputs {
		want, wantErr := jsonschema.UnmarshalJSON(strings.NewReader(text))
		got, err := decodeJSONNumbers([]byte(text))
		short := text[:min(len(text), 60)]
		if (err != nil) != (wantErr != nil) {
			t.Errorf("numbers: %q: error %v, jsonschema.UnmarshalJSON's %v", short, err, wantErr)
			continue
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("numbers: %q: got %#v, want %#v", short, got, want)
		}
	}
}
