package codemode

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
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
