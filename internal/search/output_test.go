package search

import (
	"encoding/json"
	"testing"
)

// TestSearchOutput: what a tool returns (its output schema) may order the
// tools a request matches but does not make one match, and what it
// requires is not a thing the tool acts on (params.outputLength).
func TestSearchOutput(t *testing.T) {
	team := json.RawMessage(`{"type":"object","properties":{"server":{"type":"string","description":"The server that hosts the team's workspace."},"domain":{"type":"string"}}}`)
	label := json.RawMessage(`{"type":"object","properties":{"trackingNumber":{"type":"string"},"status":{"type":"string","enum":["label_created","in_transit","delivered"]}}}`)
	docs := []*Doc{
		NewDoc("chat.postMessage", "Send a message to a channel.", nil),
		NewDoc("team.info", "Get information about the team.", nil, team),
		NewDoc("shipping.cancelLabel", "Cancel an unused shipping label and get the postage refunded.", nil),
		NewDoc("shipping.createLabel", "Buy a shipping label for an order and get the tracking number.", nil, label),
	}
	for _, tt := range []struct{ query, want string }{
		// Only team.info's output says "server": a request for servers
		// is not for this catalog (indexed as input, team.info was a
		// good match).
		{"list the servers", ""},
		// Both tools match; the output's "label_created" orders them.
		{"print a shipping label", "shipping.createLabel"},
	} {
		hits := Rank(docs, tt.query, 5)
		var got []string
		for _, h := range hits {
			got = append(got, docs[h.Index].name)
		}
		if tt.want == "" && len(hits) != 0 || tt.want != "" && (len(hits) == 0 || got[0] != tt.want) {
			t.Errorf("%q: got %v, want %q first (\"\": nothing)", tt.query, got, tt.want)
		}
	}
	// A list's output holds one payment's required id: the tool still
	// acts on the list (Doc.needs: what the input requires).
	out := json.RawMessage(`{"type":"object","required":["payment_id"],"properties":{"payment_id":{"type":"string"}}}`)
	if d := NewDoc("payments.list", "List payments.", nil, out); len(d.needs) != 0 {
		t.Errorf("payments.list needs %v from its output, want nothing", d.needs)
	}
	in := json.RawMessage(`{"type":"object","required":["payment_id"],"properties":{"payment_id":{"type":"string"}}}`)
	if d := NewDoc("payments.get", "Get a payment.", in, out); len(d.needs) != 1 {
		t.Errorf("payments.get needs %v, want its input's payment", d.needs)
	}
}
