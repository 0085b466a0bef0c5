package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/interopio/code-mode/internal/trunc"
	"github.com/interopio/code-mode/internal/tsgen"
)

func noopToolExecute(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
	return json.RawMessage(`null`), nil
}

// loadTestCatalog registers search's evaluation catalog, which also proves
// that every realistic schema in it compiles.
func loadTestCatalog(t testing.TB) []*toolEntry {
	t.Helper()
	raw, err := os.ReadFile("internal/search/testdata/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	var cat []struct {
		Name         string          `json:"name"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	if err := json.Unmarshal(raw, &cat); err != nil {
		t.Fatal(err)
	}
	tools := make([]Tool, len(cat))
	for i, c := range cat {
		tools[i] = Tool{Name: c.Name, Description: c.Description, InputSchema: c.InputSchema, OutputSchema: c.OutputSchema, Execute: noopToolExecute}
	}
	r := newRegistry()
	if _, err := r.add(tools...); err != nil {
		t.Fatal(err)
	}
	return r.snapshot()
}

// TestSearchToolsHits: the ranking is internal/search's; a hit carries the
// tool's description and signature.
func TestSearchToolsHits(t *testing.T) {
	entries := loadTestCatalog(t)
	if len(entries) < 200 {
		t.Fatalf("catalog has %d tools, want >= 200", len(entries))
	}
	hits := searchTools(entries, "track parcel", 1)
	if len(hits) != 1 || hits[0].Name != "shipping.track" {
		t.Fatalf("got %v, want shipping.track", hits)
	}
	h := hits[0]
	if h.Description == "" || !strings.Contains(h.Signature, "tools.shipping.track(input:") || h.Score <= 0 {
		t.Fatalf("incomplete hit: %+v", h)
	}
}

// TestSearchToolsOutputs: registration indexes a tool's outputSchema as
// its output (internal/search's fieldOut): in the test catalog two first
// places come from it, which the catalog without outputs loses.
func TestSearchToolsOutputs(t *testing.T) {
	entries := loadTestCatalog(t)
	for _, tt := range []struct{ query, want string }{
		{"refund a payment for an order", "payments.refund"}, // its output's orderId
		{"print a shipping label", "shipping.createLabel"},   // its output's label_created
	} {
		if hits := searchTools(entries, tt.query, 3); len(hits) == 0 || hits[0].Name != tt.want {
			t.Errorf("%q: got %v, want %s first", tt.query, hits, tt.want)
		}
	}
}

// TestHostileCatalogBounded: a description or schema from an untrusted
// catalog (an MCP server's) reaches the model cut, in a search hit and in
// the instruction that inlines small catalogs' signatures; the index still
// sees the whole text, so the ranking does not change.
func TestHostileCatalogBounded(t *testing.T) {
	huge := testTool("evil.describe")
	huge.Description = "Findme parcels. " + strings.Repeat("padding words here ", 5<<20/19)
	var props []string
	for i := 0; i < 20000; i++ {
		props = append(props, fmt.Sprintf(`"p%d":{"type":"string","description":"property number %d"}`, i, i))
	}
	wide := testTool("evil.wide")
	wide.Description = "Many properties."
	wide.InputSchema = json.RawMessage(`{"type":"object","properties":{` + strings.Join(props, ",") + `}}`)
	r := newRegistry()
	if _, err := r.add(huge, wide, testTool("fine.echo")); err != nil {
		t.Fatal(err)
	}
	entries := r.snapshot()
	hits := searchTools(entries, "findme parcels", 1)
	if len(hits) != 1 || hits[0].Name != "evil.describe" {
		t.Fatalf("got %v, want evil.describe ranked on its full text", hits)
	}
	if d := hits[0].Description; len(d) > tsgen.DescriptionMax || !strings.HasPrefix(d, "Findme parcels.") || !strings.HasSuffix(d, trunc.Mark) {
		t.Errorf("hit description is %d bytes (want <= %d, cut with %q)", len(d), tsgen.DescriptionMax, trunc.Mark)
	}
	if s := hits[0].Signature; len(s) > tsgen.DescriptionMax+200 {
		t.Errorf("hit signature is %d bytes", len(s))
	}
	// Three bounded signatures still fit; six such tools go past the
	// budget, and the model is sent to searchTools for them.
	if ins := buildInstructions(entries, testLimits); len(ins) > 32<<10 || !strings.Contains(ins, "```ts\n/** Findme parcels.") || !strings.Contains(ins, "// … and 19800 more properties") {
		t.Errorf("instruction for 3 tools is %d bytes, want the signatures inlined and cut:\n%s", len(ins), trunc.String(ins, 4000))
	}
	big := append([]*toolEntry{}, entries...)
	for i := 0; i < 3; i++ {
		e, err := compileTool(Tool{Name: fmt.Sprintf("more.t%d", i), Description: huge.Description, Execute: noopToolExecute})
		if err != nil {
			t.Fatal(err)
		}
		big = append(big, e)
	}
	if ins := buildInstructions(big, testLimits); len(ins) > 4<<10 || strings.Contains(ins, "```ts") || !strings.Contains(ins, "Available tools (6) by namespace") || !strings.Contains(ins, "too long to list here: use searchTools") {
		t.Errorf("instruction for 6 huge tools is %d bytes, want no signatures:\n%s", len(ins), trunc.String(ins, 4000))
	}
	for _, e := range entries {
		if s := e.signature(); len(s) > tsgen.SignatureMax {
			t.Errorf("%s: signature is %d bytes", e.info.Name, len(s))
		}
	}
}
