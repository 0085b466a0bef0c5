package search

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/interopio/code-mode/internal/jsondec"
)

// decodedText is what the index read of a schema's decoded value before
// ReadSchema read its text: the oracle ReadSchema is held to.
func decodedText(root any) (texts, required []string) {
	var collect func(node any, depth int)
	collect = func(node any, depth int) {
		n, ok := node.(map[string]any)
		if !ok || depth > maxTextDepth {
			return
		}
		if props, ok := n["properties"].(map[string]any); ok {
			for k, v := range props {
				texts = append(texts, k)
				if p, ok := v.(map[string]any); ok {
					desc, _ := p["description"].(string)
					texts = append(texts, desc)
				}
				collect(v, depth+1)
			}
		}
		enum, _ := n["enum"].([]any)
		for _, v := range enum[:min(len(enum), maxEnumValues)] {
			if s, ok := v.(string); ok {
				texts = append(texts, s)
			}
		}
		collect(n["items"], depth+1)
		for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
			list, _ := n[kw].([]any)
			for _, s := range list {
				collect(s, depth+1)
			}
		}
	}
	collect(root, 0)
	texts = slices.DeleteFunc(texts, func(s string) bool { return s == "" })
	n, _ := root.(map[string]any)
	req, _ := n["required"].([]any)
	props, _ := n["properties"].(map[string]any)
	for _, r := range req {
		name, _ := r.(string)
		prop, _ := props[name].(map[string]any)
		if t, _ := prop["type"].(string); t != "array" && t != "object" && t != "boolean" {
			required = append(required, name)
		}
	}
	return texts, slices.DeleteFunc(required, func(s string) bool { return s == "" })
}

// checkSchemaText: ReadSchema takes the texts jsondec.Decode takes, and
// reads from them what the index read of their decoded value (texts in
// any order: a map's).
func checkSchemaText(t *testing.T, x *SchemaReader, text []byte) {
	t.Helper()
	root, err := jsondec.Decode(text, jsondec.Options{})
	got, gotErr := x.Read(text, func(k string) bool { return k == "type" })
	if (err == nil) != (gotErr == nil) {
		t.Errorf("%.80q: ReadSchema error %v, jsondec.Decode's %v", text, gotErr, err)
		return
	}
	if err != nil {
		return
	}
	texts, required := decodedText(root)
	slices.Sort(texts)
	gotTexts := slices.Sorted(slices.Values(got.texts))
	if !slices.Equal(gotTexts, texts) || !slices.Equal(got.required, required) && len(got.required)+len(required) > 0 {
		t.Errorf("%.200q: read texts %q required %q, the decoded value has %q, %q", text, gotTexts, got.required, texts, required)
	}
	m, _ := root.(map[string]any)
	_, keyword := m["type"]
	if got.Keyed != (len(m) > 0) || got.Keyword != keyword {
		t.Errorf("%.80q: top-level keys %v, a keyword %v; the decoded value has %d keys, type %v", text, got.Keyed, got.Keyword, len(m), keyword)
	}
}

// TestReadSchemaAsDecoded: what the index reads of a schema's text is what
// it read of its decoded value, for every schema of the evaluation's
// catalogs, tricky schemas (repeated keys, escapes, depth, odd types) and
// random ones, each also with a byte changed; and one reader reads them
// all in turn, as a registration does.
func TestReadSchemaAsDecoded(t *testing.T) {
	var x SchemaReader
	files, _ := filepath.Glob("eval/testdata/*.catalog.json")
	if len(files) < 10 {
		t.Fatalf("%d catalogs", len(files))
	}
	for _, f := range files {
		for _, tool := range readCatalog(t, strings.TrimSuffix(filepath.Base(f), ".catalog.json")) {
			checkSchemaText(t, &x, tool.InputSchema)
		}
	}
	deep := `{"type":"string","description":"deep","enum":["e"]}`
	for range 6 {
		deep = `{"description":"d","properties":{"p":` + deep + `},"items":` + deep + `}`
	}
	for _, text := range []string{
		`true`, `false`, `{}`, `{"title":"no keyword"}`, deep,
		`{"type":"object","properties":{"customer":{"type":"string"},"items":{"type":"array"},"meta":{"type":"object"},"flag":{"type":"boolean"},"n":{"type":["string","null"]}},"required":["customer","items","meta","flag","n","absent",3,null,"customer"]}`,
		`{"properties":{"a":{"description":"first"},"a":{"description":"second","enum":["x"]}}}`,
		`{"properties":{"a":{}},"properties":{"b":{"description":"kept"}}}`,
		`{"properties":{"a":{"description":"one","description":"two"}}}`,
		`{"required":["x_id"],"required":["y_id"],"properties":{"x_id":{"type":"string"}}}`,
		`{"properties":{"id":{"type":"string","type":"array"}},"required":["id"]}`,
		`{"enum":["a",1,"b",null,{"c":"d"}],"enum":["z"]}`, `{"items":{"enum":["i"]},"items":[{"enum":["tuple"]}]}`,
		`{"anyOf":[{"enum":["x"]},true,[{"enum":["no"]}]],"oneOf":{"enum":["not a list"]},"allOf":[{"properties":{"q":1}}]}`,
		`{"properties":[{"description":"not an object"}],"enum":"not a list","required":"x"}`,
		`{"properties":{"caf\u00e9":{"description":"line\nbreak \"quoted\" \ud83d\ude80"},"k\"ey":{"enum":["\u0041"]}}}`,
		"{\"properties\":{\"bad\xffutf8\":{\"description\":\"x\xfe\"}}}",
		`{"properties":{"p":{"properties":{"q":{"properties":{"r":{"properties":{"s":{"properties":{"t":{"description":"past the depth","properties":{"u":{}}}}}}}}}}}}}`,
		`{"default":{"properties":{"not":{"description":"a schema"}}},"examples":[{"enum":["no"]}]}`,
		`{"properties":{"a":1}}x`, `{"properties":{"a":1e400}}`, `{"enum":["\x"]}`, `{"properties":{"a":{},}}`, `[]`, `"s"`, `1`, `null`,
		`{"properties":{"a":{"type":"string"},"b":{"type":"string"},"a":{"type":"array"}},"required":["a"]}`,
	} {
		checkSchemaText(t, &x, []byte(text))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		var b strings.Builder
		randomSchema(r, &b, 0)
		text := []byte(b.String())
		checkSchemaText(t, &x, text)
		i := r.IntN(len(text))
		mutated := slices.Clone(text)
		mutated[i] = `{}[],:"0x`[r.IntN(9)]
		checkSchemaText(t, &x, mutated)
	}
}

// randomSchema writes a random schema of the keywords the index reads,
// with repeated keys and values of the wrong kind now and then.
func randomSchema(r *rand.Rand, b *strings.Builder, depth int) {
	if depth > 7 || r.IntN(8) == 0 {
		b.WriteString([]string{`true`, `"s"`, `1.5`, `null`, `[]`, `{}`}[r.IntN(6)])
		return
	}
	words := []string{"id", "name", "owner_id", "type", "items", "description", "enum", "caf\\u00e9", "a b"}
	b.WriteByte('{')
	for i := range r.IntN(5) {
		if i > 0 {
			b.WriteByte(',')
		}
		switch k := []string{"properties", "enum", "items", "anyOf", "oneOf", "allOf", "description", "type", "required", "title"}[r.IntN(10)]; k {
		case "properties":
			b.WriteString(`"properties":{`)
			for j := range r.IntN(4) {
				if j > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(b, "%q:", words[r.IntN(len(words))])
				randomSchema(r, b, depth+1)
			}
			b.WriteByte('}')
		case "enum", "required":
			fmt.Fprintf(b, `"%s":[`, k)
			for j := range r.IntN(4) {
				if j > 0 {
					b.WriteByte(',')
				}
				if r.IntN(4) == 0 {
					b.WriteString("2")
				} else {
					fmt.Fprintf(b, "%q", words[r.IntN(len(words))])
				}
			}
			b.WriteByte(']')
		case "anyOf", "oneOf", "allOf":
			fmt.Fprintf(b, `"%s":[`, k)
			for j := range r.IntN(3) {
				if j > 0 {
					b.WriteByte(',')
				}
				randomSchema(r, b, depth+1)
			}
			b.WriteByte(']')
		case "type":
			fmt.Fprintf(b, `"type":%q`, []string{"string", "array", "object", "boolean", "integer"}[r.IntN(5)])
		case "description", "title":
			fmt.Fprintf(b, `"%s":"%s %d"`, k, words[r.IntN(len(words))], r.IntN(9))
		default:
			fmt.Fprintf(b, "%q:", k)
			randomSchema(r, b, depth+1)
		}
	}
	b.WriteByte('}')
}

// TestReadSchemaEnumBounded: the index reads the string values among the
// first 200 of an enum, as many as a signature shows: every distinct value
// is a term of the process's dictionary for good, and one enum of
// 1,000,000 strings held a page's thread 3.4 s in the index.
func TestReadSchemaEnumBounded(t *testing.T) {
	values := []string{"1"}
	for i := 1; i < 1000; i++ {
		values = append(values, fmt.Sprintf(`"value%d"`, i))
	}
	text := `{"type":"object","properties":{"status":{"enum":[` + strings.Join(values, ",") + `]},"kind":{"enum":["shipped"]}}}`
	got, err := ReadSchema([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"status"}
	for i := 1; i < maxEnumValues; i++ {
		want = append(want, fmt.Sprintf("value%d", i))
	}
	want = append(want, "kind", "shipped")
	if maxEnumValues != 200 || !slices.Equal(got.texts, want) {
		t.Errorf("read %d texts, %q ... %q; want %d (the enum's strings among its first %d values)", len(got.texts), got.texts[:min(3, len(got.texts))], got.texts[max(0, len(got.texts)-3):], len(want), maxEnumValues)
	}
	var x SchemaReader
	checkSchemaText(t, &x, []byte(text))
}

// TestSchemaTextFoundOnce: tools sharing a schema text share what was
// read of it, and its texts are looked up for the first doc alone; the
// docs are those of schemas read for each tool.
func TestSchemaTextFoundOnce(t *testing.T) {
	for _, id := range []string{"github", "slack", "stripe"} {
		read := map[string]*SchemaText{}
		for _, tl := range readCatalog(t, id) {
			s := read[string(tl.InputSchema)]
			if s == nil {
				text, err := ReadSchema(tl.InputSchema)
				if err != nil {
					t.Fatal(err)
				}
				s = &text
				read[string(tl.InputSchema)] = s
			}
			if got, want := NewDocFromText(tl.Name, tl.Description, s, nil), NewDoc(tl.Name, tl.Description, tl.InputSchema); !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: the doc of a shared schema differs from one of its own:\n%+v\n%+v", id, tl.Name, got, want)
			}
		}
	}
	s, _ := ReadSchema([]byte(`{"properties":{"owner":{"description":"The account owner of the repository."}}}`))
	first := NewDocFromText("repos.get", "", &s, nil)
	s.texts = nil // found already
	if second := NewDocFromText("repos.delete", "", &s, nil); !reflect.DeepEqual(second.fields[fieldProps], first.fields[fieldProps]) || second.length[fieldProps] != 4 {
		t.Errorf("the second doc of a schema has properties %v (%d words), the first %v", second.fields[fieldProps], second.length[fieldProps], first.fields[fieldProps])
	}
}

// TestNeedsAllocateNothing: a doc's needs are found without a list per
// required name: building the doc of a tool whose five required ids the
// dictionary knows makes the doc's own allocations only.
func TestNeedsAllocateNothing(t *testing.T) {
	required := `"owner","repo","pull_number","droplet_id","customer"`
	text := []byte(`{"type":"object","required":[` + required + `],"properties":{"owner":{"type":"string"},"repo":{"type":"string"},` +
		`"pull_number":{"type":"integer"},"droplet_id":{"type":"integer"},"customer":{"type":"string"}}}`)
	s, err := ReadSchema(text)
	if err != nil {
		t.Fatal(err)
	}
	build := func(s SchemaText) *Doc {
		return NewDocFromText("pulls.GetCustomerPull", "Gets a pull request. Of a repo.", &s, nil)
	}
	d := build(s)
	var needs []string
	for _, id := range d.needs {
		needs = append(needs, dict.terms[id])
	}
	if got := fmt.Sprint(needs); got != "[pul droplet customer]" {
		t.Fatalf("needs = %s", got)
	}
	withNeeds := testing.AllocsPerRun(50, func() { build(s) })
	s.required = nil
	without := testing.AllocsPerRun(50, func() { build(s) })
	// the needs' own list, grown to 5
	if withNeeds-without > 3 {
		t.Errorf("five required ids: %v allocations, %v without them; want at most 3 more", withNeeds, without)
	}
}
