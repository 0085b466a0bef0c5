package codemode

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestSearchToolsUnknownNamespace: searchTools (the LLM tool) answers a
// namespace no visible tool has with INVALID_INPUT naming the namespaces,
// where it answered [] and left a model that has only the tools (not the
// instruction, which lists them) nothing to go on. A hidden tool's
// namespace is unknown too; a namespace that exists but has no match for
// the query is still []. Inside a run tool_search keeps its [] and log
// line, which now says the namespace does not exist whatever the query.
func TestSearchToolsUnknownNamespace(t *testing.T) {
	cm := newTestCodeMode(t, Config{}) // admin.* hidden
	s := mustSession(t, cm)
	const namespaces = "expected one of orders, payments, util (list one with { namespace }, or search every tool with { query })"
	for _, tc := range []struct{ args, want string }{
		{`{"namespace":"nope"}`, `searchTools: namespace: there is no namespace "nope"; ` + namespaces},
		{`{"query":"orders","namespace":"nope"}`, `searchTools: namespace: there is no namespace "nope"; ` + namespaces},
		{`{"namespace":"ordres"}`, `searchTools: namespace: there is no namespace "ordres" (did you mean "orders"?); ` + namespaces},
		{`{"namespace":"tools.ordres."}`, `searchTools: namespace: there is no namespace "tools.ordres." (did you mean "orders"?); ` + namespaces},
		{`{"namespace":"admin"}`, `searchTools: namespace: there is no namespace "admin"; ` + namespaces},
		{`{"namespace":5}`, `searchTools: namespace: there is no namespace "5"; ` + namespaces},
	} {
		out, err := s.LLMTools()[0].Execute(context.Background(), json.RawMessage(tc.args), nil)
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			OK    bool
			Error struct{ Name, Message, Code string }
		}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("%s: %s is not a result: %v", tc.args, out, err)
		}
		if res.OK || res.Error.Code != ErrorCodeInvalidInput || res.Error.Name != "TypeError" || res.Error.Message != tc.want {
			t.Errorf("%s: got %s\nwant the message %s", tc.args, out, tc.want)
		}
	}
	for _, args := range []string{`{"namespace":"orders","query":"transfer money"}`, `{"query":"zzqx wibble"}`} {
		if out, err := s.LLMTools()[0].Execute(context.Background(), json.RawMessage(args), nil); err != nil || string(out) != "[]" {
			t.Errorf("%s: got %s %v, want []", args, out, err)
		}
	}
	if out, _ := s.LLMTools()[0].Execute(context.Background(), json.RawMessage(`{"namespace":"orders."}`), nil); !strings.HasPrefix(string(out), `[{"name":"orders.get"`) {
		t.Errorf("an existing namespace: got %s", out)
	}
	// A namespace as a path or a pattern, or a tool's full name.
	for _, args := range []string{`{"namespace":"orders/"}`, `{"namespace":"/orders"}`, `{"namespace":"tools/orders"}`, `{"namespace":"orders.get"}`, `{"query":"order","namespace":"orders.get"}`} {
		if out, _ := s.LLMTools()[0].Execute(context.Background(), json.RawMessage(args), nil); !strings.HasPrefix(string(out), `[{"name":"orders.get"`) {
			t.Errorf("%s: got %s", args, out)
		}
	}
	if out, _ := s.LLMTools()[0].Execute(context.Background(), json.RawMessage(`{"namespace":"orders.ge"}`), nil); !strings.Contains(string(out), `there is no namespace \"orders.ge\"`) {
		t.Errorf("a tool's name cut short is no namespace: got %s", out)
	}
	res := exec(t, s, `return await tool_search({ query: "orders", namespace: "nope" })`, nil)
	if !res.OK || string(res.Result) != "[]" || len(res.Logs) != 1 ||
		res.Logs[0].Message != `tool_search: there is no namespace "nope"; try other words, or list a namespace with tool_search({ namespace }): orders, payments, util.` {
		t.Errorf("in a run: %s %+v", res.Result, res.Logs)
	}

	// A catalog without namespaces says so.
	flat := mustNew(t, Config{Tools: []Tool{{Name: "echo", Execute: noopToolExecute}}})
	out, err := mustSession(t, flat).LLMTools()[0].Execute(context.Background(), json.RawMessage(`{"namespace":"orders"}`), nil)
	if err != nil || !strings.Contains(string(out), `there is no namespace \"orders\"; no tool has a namespace: search with { query } alone`) {
		t.Errorf("a flat catalog: got %s %v", out, err)
	}
}
