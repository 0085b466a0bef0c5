package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestSearchToolsSchemaSaysWhatEmptyLists: what the model reads of
// searchTools' arguments is what it gets. Its schema said "empty lists all
// tools" and "default 10", but {} gives the first 10 of a larger catalog and
// {namespace} up to 50: a model that listed "all tools" of 65 saw 10 and no
// sign of the rest.
func TestSearchToolsSchemaSaysWhatEmptyLists(t *testing.T) {
	var tools []Tool
	for i := range 60 {
		tools = append(tools, Tool{Name: fmt.Sprintf("orders.op%d", i), Description: "An order operation.", Execute: noopToolExecute})
	}
	for i := range 5 {
		tools = append(tools, Tool{Name: fmt.Sprintf("crm.op%d", i), Description: "A CRM operation.", Execute: noopToolExecute})
	}
	s := mustSession(t, mustNew(t, Config{Tools: tools}))
	search := s.LLMTools()[0]
	count := func(args string) int {
		out, err := search.Execute(context.Background(), json.RawMessage(args), nil)
		if err != nil {
			t.Fatal(err)
		}
		var hits []SearchHit
		if err := json.Unmarshal(out, &hits); err != nil {
			t.Fatalf("%s: %s", args, out)
		}
		return len(hits)
	}
	var schema struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(search.InputSchema, &schema); err != nil {
		t.Fatal(err)
	}
	query, limit := schema.Properties["query"].Description, schema.Properties["limit"].Description
	stated := func(re string) int {
		m := regexp.MustCompile(re).FindStringSubmatch(limit)
		if m == nil {
			t.Fatalf("limit's description %q does not say %s", limit, re)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	if got, want := count(`{}`), stated(`default (\d+)`); got != want {
		t.Errorf("{} gave %d tools; limit's description says %d", got, want)
	}
	if got, want := count(`{"namespace":"orders"}`), stated(`(\d+) listing a namespace`); got != want {
		t.Errorf(`{"namespace":"orders"} gave %d tools; limit's description says %d`, got, want)
	}
	if n := count(`{}`); n < len(tools) && strings.Contains(query, "all tools") {
		t.Errorf("query's description %q promises all tools; {} gave %d of %d", query, n, len(tools))
	}
}
