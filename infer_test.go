package codemode

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"weak"
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
		{Name: "crm.count", Description: "Count customers.", OutputSchema: json.RawMessage(`{"type":"integer"}`),
			Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
				return json.RawMessage(`2`), nil
			}},
	}})
	s := mustSession(t, cm)
	other := mustSession(t, cm)
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
			"tools.crm.customers(input?: unknown): Promise<{ id: string; total: number }[]>; // result type inferred from its results"},
		{"merged with a second", `await tools.crm.customers({vip: true})`, s, "crm.customers",
			"tools.crm.customers(input?: unknown): Promise<{ id: string; total: number; vip?: boolean }[]>; // result type inferred from its results"},
		{"another session learns nothing", "", other, "crm.customers", declared},
		{"a declared outputSchema wins", `await tools.crm.count({})`, s, "crm.count", "Promise<number /* integer */>;"},
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
	if !strings.Contains(string(res.Result), "vip?: boolean }[]>; // result type inferred from its results") {
		t.Errorf("tool_search in the sandbox: %s", res.Result)
	}
	if !strings.Contains(s.SystemInstruction(), "// result type inferred from its results") {
		t.Error("the instructions' signatures do not show the inferred type")
	}
	// A result of a shape already seen changes nothing the model reads: an
	// instruction that changed with each of a tool's first results (their
	// count was in it) made every turn's system prompt new to the
	// provider's prompt cache.
	before := s.SystemInstruction()
	exec(t, s, `await tools.crm.customers({vip: true}); await tools.crm.customers({})`, nil)
	if after := s.SystemInstruction(); after != before {
		t.Errorf("the instruction changed after results of a shape seen before:\n%s\nnow\n%s", before, after)
	}
	if strings.Contains(other.SystemInstruction(), "inferred") {
		t.Error("another session's instructions show an inferred type")
	}
}

// TestInferredShapesHoldNoRemovedTool: a session learns result types per
// tool, and a tool unregistered (or replaced under its name) must not be
// kept alive by what the session learnt of it: each entry holds the host's
// execute function and, in a page, its tool definition. A session that
// lived for hours while tools came and went kept every one of them.
func TestInferredShapesHoldNoRemovedTool(t *testing.T) {
	for _, row := range []struct {
		name  string
		again bool // register a new tool under the same name afterwards
	}{
		{"unregistered", false},
		{"replaced under its name", true},
	} {
		t.Run(row.name, func(t *testing.T) {
			cm := newTestCodeMode(t, Config{})
			s := mustSession(t, cm)
			unregister, gone := registerHolding(t, cm)
			if res := exec(t, s, `return await tools.crm.customers({})`, nil); !res.OK {
				t.Fatalf("run: %+v", res.Error)
			}
			unregister()
			unregister = nil
			if row.again {
				if _, err := cm.RegisterTools(Tool{Name: "crm.customers", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
					return json.RawMessage(`{"n":1}`), nil
				}}); err != nil {
					t.Fatal(err)
				}
				res := exec(t, s, `await tools.crm.customers({}); return (await tool_search({ query: "crm.customers", limit: 1 }))[0].signature`, nil)
				if want := "Promise<{ n: number }>; // result type inferred from its results"; !strings.Contains(string(res.Result), want) {
					t.Errorf("the new tool's signature %s, want %q (nothing of the old tool's results)", res.Result, want)
				}
			}
			runtime.GC()
			runtime.GC()
			if gone.Value() != nil {
				t.Error("the removed tool's execute function is still reachable after a collection")
			}
			runtime.KeepAlive(s)
		})
	}
}

// registerHolding registers crm.customers with an execute function that
// refers to host state, and returns a weak pointer to that state.
func registerHolding(t *testing.T, cm *CodeMode) (func(), weak.Pointer[[64 << 10]byte]) {
	held := new([64 << 10]byte)
	unregister, err := cm.RegisterTools(Tool{Name: "crm.customers", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		_ = held[0]
		return json.RawMessage(`[{"id":"c1"}]`), nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return unregister, weak.Make(held)
}

// TestInferredShapesOfToolsCalledInTurn: each tool's results make its own
// shape when a program calls two tools in turn, one of them again after
// the other (observe remembers the tool it saw last).
func TestInferredShapesOfToolsCalledInTurn(t *testing.T) {
	result := func(out string) func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		return func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			return json.RawMessage(out), nil
		}
	}
	cm := newTestCodeMode(t, Config{Tools: []Tool{
		{Name: "a.one", Execute: result(`{"x":1}`)},
		{Name: "b.two", Execute: result(`["s"]`)},
	}})
	s := mustSession(t, cm)
	if res := exec(t, s, `await tools.a.one({}); await tools.b.two({}); await tools.a.one({}); await tools.a.one({})`, nil); !res.OK {
		t.Fatalf("run: %+v", res.Error)
	}
	for _, want := range []string{
		"tools.a.one(input?: unknown): Promise<{ x: number }>; // result type inferred from its results",
		"tools.b.two(input?: unknown): Promise<string[]>; // result type inferred from its results",
	} {
		name := strings.TrimPrefix(want[:strings.Index(want, "(")], "tools.")
		hits, err := s.SearchTools(name, 1)
		if err != nil || len(hits) == 0 || hits[0].Name != name {
			t.Fatalf("search %s: %v %v", name, hits, err)
		}
		if !strings.HasSuffix(hits[0].Signature, want) {
			t.Errorf("signature\n%s\nwant suffix\n%s", hits[0].Signature, want)
		}
	}
}
