package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

type catalogTool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

func noopToolExecute(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
	return json.RawMessage(`null`), nil
}

// loadTestCatalog registers testdata/catalog.json, which also proves that every
// realistic schema in it compiles.
func loadTestCatalog(t testing.TB) []*toolEntry {
	t.Helper()
	raw, err := os.ReadFile("testdata/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	var cat []catalogTool
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

func TestSearchRecall(t *testing.T) {
	entries := loadTestCatalog(t)
	if len(entries) < 200 {
		t.Fatalf("catalog has %d tools, want >= 200", len(entries))
	}
	raw, err := os.ReadFile("testdata/search_queries.json")
	if err != nil {
		t.Fatal(err)
	}
	var queries []struct {
		Query    string   `json:"query"`
		Expected []string `json:"expected"`
	}
	if err := json.Unmarshal(raw, &queries); err != nil {
		t.Fatal(err)
	}
	if len(queries) < 60 {
		t.Fatalf("%d queries, want >= 60", len(queries))
	}
	var at1, at5 int
	for _, q := range queries {
		hits := searchTools(entries, q.Query, 5)
		var names []string
		for _, h := range hits {
			names = append(names, h.Name)
		}
		if len(names) > 0 && slices.Contains(q.Expected, names[0]) {
			at1++
		} else if testing.Verbose() {
			t.Logf("not first: %q want %v got %v", q.Query, q.Expected, names)
		}
		found := false
		for _, n := range names {
			if slices.Contains(q.Expected, n) {
				found = true
			}
		}
		if found {
			at5++
		} else if testing.Verbose() {
			t.Logf("miss: %q want %v got %v", q.Query, q.Expected, names)
		}
	}
	r1 := float64(at1) / float64(len(queries))
	r5 := float64(at5) / float64(len(queries))
	fmt.Println(fmt.Sprintf("SEARCH recall@1=%.2f recall@5=%.2f queries=%d", r1, r5, len(queries)))
	if r5 < 0.9 {
		t.Errorf("recall@5 = %.2f, want >= 0.90", r5)
	}
}

func TestSearchRanking(t *testing.T) {
	entries := loadTestCatalog(t)
	tests := []struct {
		name, query string
		limit       int
		check       func(t *testing.T, hits []SearchHit)
	}{
		{"exact name first even when other tools score higher", "payments.refund", 5, func(t *testing.T, hits []SearchHit) {
			if len(hits) == 0 || hits[0].Name != "payments.refund" {
				t.Fatalf("first hit = %v, want payments.refund", hitNames(hits))
			}
		}},
		{"exact name is case-insensitive and accepts tools. prefix", "Tools.Orders.Cancel", 3, func(t *testing.T, hits []SearchHit) {
			if len(hits) == 0 || hits[0].Name != "orders.cancel" {
				t.Fatalf("first hit = %v, want orders.cancel", hitNames(hits))
			}
		}},
		{"namespace query ranks its tools first", "invoices", 10, func(t *testing.T, hits []SearchHit) {
			if len(hits) != 10 {
				t.Fatalf("got %d hits, want 10", len(hits))
			}
			for _, h := range hits {
				if !strings.HasPrefix(h.Name, "invoices.") {
					t.Fatalf("hit %q outside namespace invoices: %v", h.Name, hitNames(hits))
				}
			}
		}},
		{"nested namespace", "hr.timeOff", 10, func(t *testing.T, hits []SearchHit) {
			for i, h := range hits[:4] {
				if !strings.HasPrefix(h.Name, "hr.timeOff.") {
					t.Fatalf("hit %d = %q, want hr.timeOff.*: %v", i, h.Name, hitNames(hits))
				}
			}
		}},
		{"camelCase query is split like names", "getOwner", 3, func(t *testing.T, hits []SearchHit) {
			if len(hits) == 0 || hits[0].Name != "crm.accounts.getOwner" {
				t.Fatalf("first hit = %v, want crm.accounts.getOwner", hitNames(hits))
			}
		}},
		{"empty query lists all by name", "  ", 0, func(t *testing.T, hits []SearchHit) {
			if len(hits) != defaultSearchLimit {
				t.Fatalf("got %d hits, want default %d", len(hits), defaultSearchLimit)
			}
			if !slices.IsSortedFunc(hits, func(a, b SearchHit) int { return strings.Compare(a.Name, b.Name) }) {
				t.Fatalf("not sorted: %v", hitNames(hits))
			}
			if hits[0].Name != entries[0].info.Name {
				t.Fatalf("first = %q, want %q", hits[0].Name, entries[0].info.Name)
			}
		}},
		{"limit capped at 50", "", 1000, func(t *testing.T, hits []SearchHit) {
			if len(hits) != maxSearchLimit {
				t.Fatalf("got %d hits, want %d", len(hits), maxSearchLimit)
			}
		}},
		{"no match gives nothing", "zzzqqq xylophone", 10, func(t *testing.T, hits []SearchHit) {
			if len(hits) != 0 {
				t.Fatalf("got %v, want none", hitNames(hits))
			}
		}},
		{"hits carry description and signature", "track parcel", 1, func(t *testing.T, hits []SearchHit) {
			if len(hits) != 1 || hits[0].Name != "shipping.track" {
				t.Fatalf("got %v, want shipping.track", hitNames(hits))
			}
			h := hits[0]
			if h.Description == "" || !strings.Contains(h.Signature, "tools.shipping.track(input:") || h.Score <= 0 {
				t.Fatalf("incomplete hit: %+v", h)
			}
		}},
		{"scores descend", "refund an order", 10, func(t *testing.T, hits []SearchHit) {
			for i := 1; i < len(hits); i++ {
				if hits[i].Score > hits[i-1].Score {
					t.Fatalf("score rises at %d: %v", i, hits)
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, searchTools(entries, tt.query, tt.limit))
		})
	}
}

func TestSearchOnlyGivenEntries(t *testing.T) {
	entries := loadTestCatalog(t)
	var visible []*toolEntry
	for _, e := range entries {
		if !strings.HasPrefix(e.info.Name, "admin.") {
			visible = append(visible, e)
		}
	}
	for _, q := range []string{"admin.users.resetPassword", "admin", "reset a user's password"} {
		for _, h := range searchTools(visible, q, 50) {
			if strings.HasPrefix(h.Name, "admin.") {
				t.Errorf("query %q returned filtered tool %q", q, h.Name)
			}
		}
	}
}

func TestSearchTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"orders.getStatusHistory", []string{"order", "get", "status", "history"}},
		// "v" and "2" split apart and are too short to keep.
		{"HTTPServer_v2-config", []string{"http", "server", "config"}},
		{"sku42Code", []string{"sku", "42", "cod"}},
		{"Shipping the shipped shipments", []string{"ship", "ship", "shipment"}},
		{"categories and prices for pricing", []string{"category", "pric", "pric"}},
		{"addresses boxes statuses analysis", []string{"address", "box", "status", "analysis"}},
		{"billing cancelled invoices bill", []string{"bil", "cancel", "invoic", "bil"}},
		{"the of a to", nil},
	}
	for _, tt := range tests {
		got := tokenize(tt.in)
		if !slices.Equal(got, tt.want) {
			t.Errorf("tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func hitNames(hits []SearchHit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Name)
	}
	return out
}
