//go:build js && wasm

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"runtime"
	"strings"
	"syscall/js"
	"testing"

	codemode "github.com/interopio/code-mode"
)

// catalogRecords is convertTools' text (web/src/schema.mjs) for the GitHub
// catalog of the search evaluation, with annotations on every other tool,
// and the tools it stands for.
func catalogRecords(t *testing.T) (string, []codemode.Tool) {
	raw, err := os.ReadFile("../internal/search/eval/testdata/github.catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Tools []struct {
			Name, Description string
			InputSchema       json.RawMessage `json:"inputSchema"`
		}
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	var recs []string
	var want []codemode.Tool
	for i, tool := range c.Tools {
		name, _ := json.Marshal(tool.Name)
		desc, _ := json.Marshal(tool.Description + " \"quoted\"\n\u2028 caf\u00e9")
		var notes []byte
		w := codemode.Tool{Name: tool.Name, Description: tool.Description + " \"quoted\"\n\u2028 caf\u00e9", InputSchema: tool.InputSchema}
		if i%2 == 0 {
			notes = []byte(`{"readOnlyHint":true,"n":1.5,"owner":"t\u00e9am"}`)
			w.Annotations = map[string]any{"readOnlyHint": true, "n": 1.5, "owner": "téam"}
		}
		recs = append(recs, strings.Join([]string{string(name), string(desc), string(tool.InputSchema), "", string(notes), "1"}, "\x1f"))
		want = append(want, w)
	}
	return strings.Join(recs, "\x1e"), want
}

// TestToolsAtOnceReadsTheTextOnce: the converter's text of a catalog is
// copied into the Go core once, and the tools read from it are the
// catalog's: names, descriptions with escapes, schemas, annotations. The
// text went through syscall/js's String (its bytes, then a string of
// them), each schema was copied again and each escaped description read
// by json.Unmarshal: 5 times the text's size allocated, now 2.6.
func TestToolsAtOnceReadsTheTextOnce(t *testing.T) {
	text, want := catalogRecords(t)
	defs := make([]any, len(want))
	for i := range defs {
		defs[i] = map[string]any{}
	}
	atOnce := js.FuncOf(func(js.Value, []js.Value) any {
		return map[string]any{"text": text, "defs": defs, "execs": []any{}, "validates": []any{}}
	})
	defer atOnce.Release()
	convert := js.FuncOf(func(js.Value, []js.Value) any { return nil })
	defer convert.Release()
	convert.Value.Set("tools", atOnce)
	js.Global().Set("__ioCodeModeSchema", convert.Value)
	defer js.Global().Set("__ioCodeModeSchema", js.Undefined())

	list := js.ValueOf(defs)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tools, ok := toolsAtOnce(list, "tools")
	runtime.ReadMemStats(&after)
	if !ok || len(tools) != len(want) {
		t.Fatalf("toolsAtOnce: ok %v, %d tools, want %d", ok, len(tools), len(want))
	}
	for i, got := range tools {
		w := want[i]
		if got.Name != w.Name || got.Description != w.Description || !bytes.Equal(got.InputSchema, w.InputSchema) ||
			got.OutputSchema != nil || !reflect.DeepEqual(got.Annotations, w.Annotations) || !got.Source.(*pageTool).checked {
			t.Fatalf("tool %d: got %q %q %.40s %v, want %q %q %.40s %v", i, got.Name, got.Description, got.InputSchema, got.Annotations,
				w.Name, w.Description, w.InputSchema, w.Annotations)
		}
	}
	if grown, limit := after.TotalAlloc-before.TotalAlloc, uint64(len(text))*3; grown > limit {
		t.Errorf("reading %d bytes of records allocated %d bytes, want at most %d", len(text), grown, limit)
	}
}

// TestJSONStringAsUnmarshal: a record's name and description read as
// json.Unmarshal reads them, and refused where it refuses them.
func TestJSONStringAsUnmarshal(t *testing.T) {
	for _, s := range []string{`"plain"`, `""`, `"a\nb \"q\" \\ \/ \t"`, `"caf\u00e9 \ud83d\ude00"`, `"lone \ud800 x"`, `"\ude00\ud83d"`,
		"\"bad \xff utf8\"", "\"caf\xc3\xa9\"", `"\x"`, `"\u12G4"`, `"unterminated`, `"a" "b"`, `123`, `null`, `"\'"`, ` "sp" `} {
		var got, want string
		ok := jsonString([]byte(s), &got)
		wantOK := json.Unmarshal([]byte(s), &want) == nil && s != "null" // null is no string (Unmarshal leaves want as it was)
		if ok != wantOK || ok && got != want {
			t.Errorf("jsonString(%s) = %q, %v; json.Unmarshal: %q, %v", s, got, ok, want, wantOK)
		}
	}
}
