package codemode

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/interopio/code-mode/internal/pagecheck"
)

// TestCompilesEagerlyReadsTheText: whether a schema compiles at
// registration is read from its text first. A text with no "$" (nor a \u
// escape that could write one) holds no reference and names no place, so
// its value is neither decoded nor walked; one that spells "$ref" with an
// escape is walked, and refused at registration when it refers to itself.
func TestCompilesEagerlyReadsTheText(t *testing.T) {
	decoded := 0
	value := func() any { decoded++; return map[string]any{"$ref": "#"} } // what a walk would find
	if compilesEagerly(json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}}}`), value) || decoded > 0 {
		t.Error("a schema whose text has no $ was decoded or walked")
	}
	for _, raw := range []string{`{"$ref":"#"}`, `{"\u0024ref":"#"}`} {
		if !compilesEagerly(json.RawMessage(raw), value) {
			t.Errorf("%s: not compiled at registration", raw)
		}
	}
	cm := mustNew(t, Config{})
	_, err := cm.RegisterTools(Tool{Name: "t.loop", InputSchema: json.RawMessage(`{"\u0024ref":"#"}`), Execute: noopToolExecute})
	if !errors.Is(err, ErrInvalidTool) || !strings.Contains(err.Error(), "refers to itself") {
		t.Errorf("a self-reference spelt with an escape: accepted, or refused without saying why: %v", err)
	}
}

// TestRegisterAllocs: registering make bench's 1,000 tools
// (api-register-1000, BenchmarkRegister1000) allocates at most
// maxRegisterAllocs values per tool: 92 a tool before the search index
// reused its buffers, schema words were decoded without allocating and
// each schema text was decoded once a registration (schemaMemo).
func TestRegisterAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("registers 1,000 tools several times")
	}
	const maxRegisterAllocs = 40
	tools := benchCatalog(t, 1000)
	allocs := testing.AllocsPerRun(3, func() {
		if _, err := newRegistry().add(tools...); err != nil {
			t.Fatal(err)
		}
	})
	if perTool := allocs / float64(len(tools)); perTool > maxRegisterAllocs {
		t.Errorf("registering %d tools allocates %.1f values per tool, want at most %d", len(tools), perTool, maxRegisterAllocs)
	}
}

// TestPageCheckedSchemasAreNotDecoded: a schema the worker's page walked,
// holding no reference nor named place, is read for the search index from
// its text and never decoded at registration (a map per object: 37.6
// values allocated per tool of make bench's 1,000 before, page-checked);
// the core's own walk, when the page made none, decodes it.
func TestPageCheckedSchemasAreNotDecoded(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"q":{"type":"string","description":"what to find"}},"required":["q"]}`)
	for _, walked := range []bool{true, false} {
		memo := schemaMemo{schemas: map[string]*memoSchema{}}
		tool := Tool{Name: "a.find", InputSchema: schema, Execute: noopToolExecute}
		if walked {
			tool.Source = pageChecked{}
		}
		if _, err := memo.compileTool(tool); err != nil {
			t.Fatal(err)
		}
		if decoded := memo.schemas[string(schema)].root != nil; decoded == walked {
			t.Errorf("page walked %v: schema decoded at registration %v", walked, decoded)
		}
	}
	if testing.Short() {
		return
	}
	const maxAllocs = 16
	tools := benchCatalog(t, 1000)
	for i := range tools {
		tools[i].Source = pageChecked{}
	}
	allocs := testing.AllocsPerRun(3, func() {
		if _, err := newRegistry().add(tools...); err != nil {
			t.Fatal(err)
		}
	})
	if perTool := allocs / float64(len(tools)); perTool > maxAllocs {
		t.Errorf("registering %d page-checked tools allocates %.1f values per tool, want at most %d", len(tools), perTool, maxAllocs)
	}
}

// TestSchemaMemo: tools that share a schema text share its decoding and
// checks in a registration, not the schema: each entry has its own copy,
// and a repeated bad schema is refused for the first tool that has it.
func TestSchemaMemo(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)
	r := newRegistry()
	if _, err := r.add(Tool{Name: "a.one", InputSchema: schema, Execute: noopToolExecute}, Tool{Name: "a.two", InputSchema: schema, OutputSchema: schema, Execute: noopToolExecute}); err != nil {
		t.Fatal(err)
	}
	one, _ := r.lookup("a.one")
	two, _ := r.lookup("a.two")
	if &one.tool.InputSchema[0] == &two.tool.InputSchema[0] || &two.tool.InputSchema[0] == &two.tool.OutputSchema[0] || &one.tool.InputSchema[0] == &schema[0] {
		t.Error("tools with the same schema text share its bytes")
	}
	bad := json.RawMessage(`{"type":"text"}`)
	_, err := newRegistry().add(Tool{Name: "b.one", Execute: noopToolExecute}, Tool{Name: "b.two", InputSchema: bad, Execute: noopToolExecute}, Tool{Name: "b.three", InputSchema: bad, Execute: noopToolExecute})
	if !errors.Is(err, ErrInvalidTool) || !strings.Contains(err.Error(), "b.two") || !strings.Contains(err.Error(), `"text" is not a type`) {
		t.Errorf("a repeated bad schema: %v, want b.two's error", err)
	}
}

// pageChecked is a tool's Source as the JS package's worker gives it when
// its page walked the tool's schemas with the same check
// (web/src/schemacheck.mjs): see internal/pagecheck.
type pageChecked struct{}

func (pageChecked) SchemasChecked(pagecheck.Token) bool { return true }

// TestPageCheckedSchemasAreNotWalkedAgain: in worker mode the page walks
// every schema with the core's own check before its text crosses, and the
// worker's core walked it again (1,000 tools: 10 of the worker's ~125 ms
// of registering in a profile). A tool whose
// Source says so is not walked again; the check of multipleOf's digits,
// which reads the text, still runs, and a Go caller's tool is walked
// whatever its Source.
func TestPageCheckedSchemasAreNotWalkedAgain(t *testing.T) {
	bad := json.RawMessage(`{"type":"text"}`)
	if _, err := newRegistry().add(Tool{Name: "a.page", InputSchema: bad, OutputSchema: bad, Source: pageChecked{}, Execute: noopToolExecute}); err != nil {
		t.Errorf("a schema the page walked was walked again: %v", err)
	}
	_, err := newRegistry().add(Tool{Name: "a.go", InputSchema: bad, Source: struct{}{}, Execute: noopToolExecute})
	if !errors.Is(err, ErrInvalidTool) || !strings.Contains(err.Error(), `"text" is not a type`) {
		t.Errorf("a Go caller's schema: %v, want it refused", err)
	}
	digits := json.RawMessage(`{"type":"number","multipleOf":1.2345678901234567890123}`)
	_, err = newRegistry().add(Tool{Name: "a.digits", InputSchema: digits, Source: pageChecked{}, Execute: noopToolExecute})
	if !errors.Is(err, ErrInvalidTool) || !strings.Contains(err.Error(), "significant digits") {
		t.Errorf("a multipleOf of 23 digits from the page: %v, want it refused", err)
	}
}
