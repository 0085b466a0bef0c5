package codemode

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interopio/code-mode/internal/tsgen"
	"github.com/interopio/code-mode/third_party/jsonschema"
)

const (
	draft04 = `"$schema":"http://json-schema.org/draft-04/schema#",`
	draft06 = `"$schema":"http://json-schema.org/draft-06/schema#",`
	draft07 = `"$schema":"http://json-schema.org/draft-07/schema#",`
	draft19 = `"$schema":"https://json-schema.org/draft/2019-09/schema",`
)

// TestEmbeddedResourceRefs: a "$ref" relative to an "$id" ("item.json"
// beside a $defs entry with "$id": "item.json") is to a resource the schema
// embeds, which the validator resolves in the document: the tool registers
// and its input is checked against that resource, in each draft's sense of
// which keyword names a resource ($id, draft-04's id), where (not under a
// keyword the draft does not have) and when (before 2019-09 an id beside a
// "$ref" is ignored). A reference to a resource the schema does not hold
// is refused as before.
func TestEmbeddedResourceRefs(t *testing.T) {
	for _, tc := range []struct {
		name, schema   string
		good, bad, err string // err: the registration error, else bad's
	}{
		{"2020-12, relative to the root's $id",
			`{"$id":"https://x.test/root.json","$defs":{"item":{"$id":"item.json","type":"string"}},"properties":{"x":{"$ref":"item.json"}}}`,
			`{"x":"a"}`, `{"x":1}`, "/x: type: got number, want string"},
		{"2020-12, absolute", `{"$id":"https://x.test/root.json","$defs":{"item":{"$id":"item.json","type":"string"}},"properties":{"x":{"$ref":"https://x.test/item.json"}}}`,
			`{"x":"a"}`, `{"x":1}`, "/x: type: got number, want string"},
		{"2020-12, no root $id", `{"$defs":{"item":{"$id":"item.json","type":"number","minimum":3}},"properties":{"x":{"$ref":"item.json"}}}`,
			`{"x":3}`, `{"x":2}`, "/x: minimum: got 2, want >= 3"},
		{"2020-12, a pointer into the resource", `{"$id":"https://x.test/root.json","$defs":{"item":{"$id":"item.json","$defs":{"n":{"type":"integer"}}}},"properties":{"x":{"$ref":"item.json#/$defs/n"}}}`,
			`{"x":1}`, `{"x":1.5}`, "/x: type: got number, want integer"},
		{"2020-12, an anchor in the resource", `{"$id":"https://x.test/root.json","$defs":{"item":{"$id":"item.json","$defs":{"n":{"$anchor":"n","type":"integer"}}}},"properties":{"x":{"$ref":"item.json#n"}}}`,
			`{"x":1}`, `{"x":"1"}`, "/x: type: got string, want integer"},
		{"2020-12, nested resources", `{"$id":"https://x.test/a/root.json","$defs":{"b":{"$id":"b/","$defs":{"c":{"$id":"c.json","type":"boolean"}}}},"properties":{"x":{"$ref":"b/c.json"}}}`,
			`{"x":true}`, `{"x":1}`, "/x: type: got number, want boolean"},
		{"2020-12, a URN", `{"$id":"urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed","$defs":{"bar":{"type":"string"}},"properties":{"foo":{"$ref":"urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/$defs/bar"}}}`,
			`{"foo":"a"}`, `{"foo":1}`, "/foo: type: got number, want string"},
		{"2020-12, $id beside $ref changes the base", `{"$id":"https://x.test/root.json","allOf":[{"$id":"https://x.test/a/","$ref":"item.json"}],"$defs":{"i":{"$id":"https://x.test/a/item.json","type":"string"}}}`,
			`"a"`, `1`, "/: type: got number, want string"},
		{"2019-09", `{` + draft19 + `"$id":"https://x.test/root.json","$defs":{"item":{"$id":"item.json","type":"string"}},"properties":{"x":{"$ref":"item.json"}}}`,
			`{"x":"a"}`, `{"x":1}`, "/x: type: got number, want string"},
		{"draft-07, under definitions", `{` + draft07 + `"$id":"https://x.test/root.json","definitions":{"item":{"$id":"item.json","type":"string"}},"properties":{"x":{"$ref":"item.json"}}}`,
			`{"x":"a"}`, `{"x":1}`, "/x: type: got number, want string"},
		{"draft-06", `{` + draft06 + `"definitions":{"item":{"$id":"item.json","type":"string"}},"properties":{"x":{"$ref":"item.json"}}}`,
			`{"x":"a"}`, `{"x":1}`, "/x: type: got number, want string"},
		{"draft-04, id", `{` + draft04 + `"id":"https://x.test/root.json","definitions":{"item":{"id":"item.json","type":"string"}},"properties":{"x":{"$ref":"item.json"}}}`,
			`{"x":"a"}`, `{"x":1}`, "/x: type: got number, want string"},
		// what names no resource in its draft
		{"draft-04, $id", `{` + draft04 + `"definitions":{"item":{"$id":"item.json","type":"string"}},"properties":{"x":{"$ref":"item.json"}}}`,
			"", "", `inputSchema: /properties/x/$ref: remote $ref "item.json" is not allowed: put the definition under $defs`},
		{"draft-07, $id under $defs, not a draft-07 keyword", `{` + draft07 + `"$defs":{"item":{"$id":"item.json","type":"string"}},"properties":{"x":{"$ref":"item.json"}}}`,
			"", "", `inputSchema: /properties/x/$ref: remote $ref "item.json" is not allowed`},
		{"draft-07, $id beside $ref is ignored", `{` + draft07 + `"$id":"https://x.test/root.json","allOf":[{"$id":"https://x.test/a/","$ref":"item.json"}],"definitions":{"i":{"$id":"https://x.test/a/item.json","type":"string"}}}`,
			"", "", `inputSchema: /allOf/0/$ref: remote $ref "item.json" is not allowed`},
		// truly remote
		{"another resource", `{"$id":"https://x.test/root.json","properties":{"x":{"$ref":"other.json"}}}`,
			"", "", `inputSchema: /properties/x/$ref: remote $ref "other.json" is not allowed: put the definition under $defs`},
		{"a meta-schema", `{` + draft07 + `"properties":{"s":{"$ref":"http://json-schema.org/draft-07/schema#"}}}`,
			"", "", `inputSchema: /properties/s/$ref: remote $ref "http://json-schema.org/draft-07/schema#" is not allowed`},
		{"a $dynamicRef elsewhere", `{"$id":"https://x.test/root.json","properties":{"x":{"$dynamicRef":"other.json#n"}}}`,
			"", "", `inputSchema: /properties/x/$dynamicRef: remote $ref "other.json#n" is not allowed`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := compileTool(Tool{Name: "t", Execute: noopToolExecute, InputSchema: json.RawMessage(tc.schema)})
			if tc.good == "" {
				if !errors.Is(err, ErrInvalidTool) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("registration: %v, want ErrInvalidTool containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("registration: %v", err)
			}
			// The model is shown the referenced type, not unknown.
			if sig := tsgen.Signature("t", "", json.RawMessage(tc.schema), nil); strings.Contains(sig, "unknown }") || strings.Contains(sig, "input: unknown") {
				t.Errorf("signature %s", sig)
			}
			if err := e.validate(json.RawMessage(tc.good)); err != nil {
				t.Errorf("%s: %v", tc.good, err)
			}
			if err := e.validate(json.RawMessage(tc.bad)); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v, want %q", tc.bad, err, tc.err)
			}
		})
	}
}

// TestKeywordsOfOtherDrafts: a keyword a schema's draft does not have is
// ignored by the validator, whatever its value, and by registration too
// (it used to hold a draft-07 schema's "$defs" or "dependentSchemas", a
// 2020-12 schema's "additionalItems", to the drafts that define them);
// where the draft has it, it is checked as before.
func TestKeywordsOfOtherDrafts(t *testing.T) {
	for _, tc := range []struct{ schema, err string }{
		{`{` + draft07 + `"$defs":5,"prefixItems":{},"dependentSchemas":[],"dependentRequired":1,"unevaluatedProperties":"x","minContains":-1,"$anchor":"1a","$dynamicRef":"x.json"}`, ""},
		{`{` + draft06 + `"if":5,"then":[],"else":"x","contentMediaType":1,"contentSchema":2}`, ""},
		{`{` + draft04 + `"contains":5,"propertyNames":"x","$id":3,"if":{"type":"strin"}}`, ""},
		{`{` + draft19 + `"prefixItems":5,"$dynamicAnchor":"1a","$dynamicRef":{}}`, ""},
		{`{"additionalItems":5,"properties":{"p":{"additionalItems":{"type":"strin"}}}}`, ""},
		{`{"properties":{"p":{"$recursiveRef":""}}}`, ""},
		{`{` + draft19 + `"additionalItems":5}`, `/additionalItems: must be a schema (an object or a boolean), got a number`},
		{`{` + draft07 + `"if":{"type":"strin"}}`, `/if/type: "strin" is not a type`},
		{`{"prefixItems":{}}`, `/prefixItems: must be a non-empty list of schemas, got an object`},
		{`{` + draft19 + `"$defs":5}`, `/$defs: must be an object of schemas, got a number`},
	} {
		_, err := compileTool(Tool{Name: "t", Execute: noopToolExecute, InputSchema: json.RawMessage(tc.schema)})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if tc.err == "" && err != nil || tc.err != "" && !strings.Contains(got, "inputSchema: "+tc.err) {
			t.Errorf("%s: %v, want %q", tc.schema, err, tc.err)
		}
		if err == nil {
			// and the validator compiles it (with its meta-schema)
			if _, err := (&inputValidator{doc: decodeDoc(t, tc.schema)}).compiled(); err != nil {
				t.Errorf("%s: registered, but the validator refuses it: %v", tc.schema, err)
			}
		}
	}
}

// TestSchemaSuiteThroughRegistration runs JSON-Schema-Test-Suite
// (third_party/jsonschema/testdata/JSON-Schema-Test-Suite, the copy
// third_party's suite_test reads, or $CODEMODE_SCHEMA_SUITE) through a
// tool's registration and input check, each draft's directory with its
// "$schema" added where a schema has none: a schema the suite's harness
// compiles without loading anything (or a draft's meta-schema, which it
// holds) must register, and each case must be judged as the suite says.
func TestSchemaSuiteThroughRegistration(t *testing.T) {
	dir := os.Getenv("CODEMODE_SCHEMA_SUITE")
	if dir == "" {
		dir = "third_party/jsonschema/testdata/JSON-Schema-Test-Suite"
	}
	if _, err := os.Stat(filepath.Join(dir, "tests")); err != nil {
		t.Fatalf("no JSON-Schema-Test-Suite at %s (see third_party/README.md)", dir)
	}
	drafts := map[string]string{"draft4": "http://json-schema.org/draft-04/schema#", "draft6": "http://json-schema.org/draft-06/schema#",
		"draft7": "http://json-schema.org/draft-07/schema#", "draft2019-09": "https://json-schema.org/draft/2019-09/schema",
		"draft2020-12": "https://json-schema.org/draft/2020-12/schema"}
	groups, cases, remote := 0, 0, 0
	for d, url := range drafts {
		files, _ := filepath.Glob(filepath.Join(dir, "tests", d, "*.json"))
		if len(files) == 0 {
			t.Fatalf("no tests in %s/tests/%s", dir, d)
		}
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var file []struct {
				Description string
				Schema      json.RawMessage
				Tests       []struct {
					Description string
					Data        json.RawMessage
					Valid       bool
				}
			}
			if err := json.Unmarshal(raw, &file); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, g := range file {
				schema := g.Schema
				var m map[string]any
				if json.Unmarshal(schema, &m) == nil && m != nil {
					if _, ok := m["$schema"]; !ok {
						m["$schema"] = url
						schema, _ = json.Marshal(m)
					}
				}
				name := d + "/" + filepath.Base(f) + ": " + g.Description
				e, err := compileTool(Tool{Name: "t", Execute: noopToolExecute, InputSchema: schema})
				if err != nil {
					// The validator holds the drafts' meta-schemas, which a
					// tool schema may not refer to either; a custom
					// meta-schema is one of the suite's remotes.
					msg := err.Error()
					outside := strings.Contains(msg, `remote $ref "http://json-schema.org/`) || strings.Contains(msg, `remote $ref "https://json-schema.org/`) ||
						strings.Contains(msg, `unknown $schema "http://localhost:1234/`)
					if outside || strings.Contains(msg, "remote $ref") && len(suiteLoads(t, schema)) > 0 {
						remote++
						continue
					}
					t.Errorf("%s: refused, but the validator needs nothing outside it: %v", name, err)
					continue
				}
				groups++
				for _, c := range g.Tests {
					cases++
					if err := e.validate(c.Data); (err == nil) != c.Valid {
						t.Errorf("%s / %s: valid = %v, the suite says %v", name, c.Description, err == nil, c.Valid)
					}
				}
			}
		}
	}
	t.Logf("%d schemas registered, %d cases judged as the suite says; %d schemas refused for loading a remote schema", groups, cases, remote)
}

// suiteLoads is what the validator would load to compile schema.
func suiteLoads(t *testing.T, schema json.RawMessage) []string {
	doc := decodeDoc(t, string(schema))
	var loads recordingLoader
	c := jsonschema.NewCompiler()
	c.UseLoader(&loads)
	if err := c.AddResource(schemaURL, doc); err == nil {
		_, _ = c.Compile(schemaURL)
	}
	return loads
}

type recordingLoader []string

func (l *recordingLoader) Load(url string) (any, error) {
	*l = append(*l, url)
	return nil, errors.New("not loaded")
}
