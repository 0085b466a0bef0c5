package codemode

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestInferredResultTypes: a tool without an outputSchema shows the type of
// the results it has returned in this session, merged over calls and
// marked as inferred, in tool_search, searchTools and the instructions.
func TestInferredResultTypes(t *testing.T) {
	rows := func(_ context.Context, in json.RawMessage, _ Call) (json.RawMessage, error) {
		if strings.Contains(string(in), "vip") {
			return json.RawMessage(`[{"id":"c1","total":12.5,"vip":true}]`), nil
		}
		return json.RawMessage(`[{"id":"c1","total":3}]`), nil
	}
	cm := newTestCodeMode(t, Config{Tools: []Tool{
		{Name: "crm.customers", Description: "List customers.", Execute: rows},
		{Name: "crm.count", Description: "Count customers.", Execute: rows, OutputSchema: json.RawMessage(`{"type":"integer"}`)},
	}})
	s, _ := cm.NewSession()
	other, _ := cm.NewSession()
	sig := func(s *Session, name string) string {
		hits, err := s.SearchTools(name, 1)
		if err != nil || len(hits) == 0 || hits[0].Name != name {
			t.Fatalf("search %s: %v %v", name, hits, err)
		}
		return hits[0].Signature
	}
	const declared = "tools.crm.customers(input?: unknown): Promise<unknown>;"
	steps := []struct {
		name, code string
		session    *Session
		tool, want string
	}{
		{"before any call", "", s, "crm.customers", declared},
		{"after one call", `await tools.crm.customers({})`, s, "crm.customers",
			"tools.crm.customers(input?: unknown): Promise<{ id: string; total: number }[]>; // result type inferred from 1 result"},
		{"merged with a second", `await tools.crm.customers({vip: true})`, s, "crm.customers",
			"tools.crm.customers(input?: unknown): Promise<{ id: string; total: number; vip?: boolean }[]>; // result type inferred from 2 results"},
		{"another session learns nothing", "", other, "crm.customers", declared},
		{"a declared outputSchema wins", `await tools.crm.count({})`, s, "crm.count", "Promise<number>;"},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if st.code != "" {
				if res := exec(t, st.session, st.code, nil); !res.OK {
					t.Fatalf("run: %+v", res.Error)
				}
			}
			if got := sig(st.session, st.tool); !strings.HasSuffix(got, st.want) {
				t.Errorf("signature\n%s\nwant suffix\n%s", got, st.want)
			}
		})
	}
	res := exec(t, s, `return (await tool_search({query: "crm.customers", limit: 1}))[0].signature`, nil)
	if !strings.Contains(string(res.Result), "vip?: boolean }[]>; // result type inferred from 2 results") {
		t.Errorf("tool_search in the sandbox: %s", res.Result)
	}
	if !strings.Contains(s.SystemInstruction(), "// result type inferred from 2 results") {
		t.Error("the instructions' signatures do not show the inferred type")
	}
	if strings.Contains(other.SystemInstruction(), "inferred") {
		t.Error("another session's instructions show an inferred type")
	}
}
