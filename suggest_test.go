package codemode

import (
	"strings"
	"testing"
)

// A misspelt tool name's error names the tool the model meant first: models
// read the first suggestion and call it. The search index alone ranked
// orders.get before orders.search for "orders.serch" (a typo matches no
// word), so the model was pointed at the wrong tool.
func TestUnknownToolSuggestsNearestFirst(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	for _, tc := range []struct {
		name, call string
		want       string // the message's "did you mean" list starts with this
		absent     string // never in the message
	}{
		{"a letter left out", `tools.orders.serch({})`, "; did you mean orders.search", ""},
		{"two letters swapped", `tool_call("orders.saerch", {})`, "; did you mean orders.search", ""},
		{"a namespace in the singular", `tools.order.search({})`, "; did you mean orders.search", ""},
		{"another case", `tools.Orders.Get({})`, "; did you mean orders.get", ""},
		{"a full name in brackets", `tools["payments.transfr"]({})`, "; did you mean payments.transfer", ""},
		{"near a hidden tool only", `tools.admin.wipee({})`, "; use tool_search to find tools", "admin.wipe"},
		{"near a hidden tool and a visible namespace", `tools.util.wipe({})`, "; did you mean util.", "admin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, "await "+tc.call, nil)
			if res.OK || res.Error == nil {
				t.Fatalf("%s: want an unknown tool error, got %+v", tc.call, res)
			}
			msg := res.Error.Message
			if !strings.Contains(msg, tc.want) {
				t.Errorf("%s: message %q: want it to contain %q", tc.call, msg, tc.want)
			}
			// What follows the quoted name: the name itself may contain it.
			if tail := msg[strings.Index(msg, `";`)+1:]; tc.absent != "" && strings.Contains(tail, tc.absent) {
				t.Errorf("%s: message %q reveals %q, which toolFilter hides", tc.call, msg, tc.absent)
			}
		})
	}
}
