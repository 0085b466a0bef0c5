package codemode

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestToolInfoWritesStayThere: a ToolFilter or an interceptor that writes
// into the schema bytes or annotations of the ToolInfo it is handed (which
// its doc forbids) changes neither what is enforced nor what the model,
// ListTools, another interceptor call or another CodeMode sees. Before, the
// filter's and interceptor's ToolInfo shared the registry's bytes: a filter
// that wrote "true" over the inputSchema, before the tool's first call,
// turned its validation off for every session (the schema is compiled on
// first use) and changed the signature tool_search shows.
func TestToolInfoWritesStayThere(t *testing.T) {
	const schema = `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`
	scribble := func(info ToolInfo) {
		if len(info.InputSchema) > 0 {
			copy(info.InputSchema, "true"+strings.Repeat(" ", len(info.InputSchema)))
		}
		if info.Annotations != nil {
			info.Annotations["readOnlyHint"] = false
		}
	}
	var seen []string // the interceptor's view of the schema, call by call
	cm := mustNew(t, Config{
		ToolFilter: func(info ToolInfo) bool { scribble(info); return true },
		OnToolCall: func(_ context.Context, c ToolCall) (Decision, error) {
			seen = append(seen, string(c.Tool.InputSchema)+" "+annotation(c.Tool))
			scribble(c.Tool)
			return Decision{Allowed: true}, nil
		},
		Tools: []Tool{{Name: "t.n", Description: "Takes n.", InputSchema: json.RawMessage(schema),
			Annotations: map[string]any{"readOnlyHint": true},
			Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
				return json.RawMessage(`"ran"`), nil
			}}},
	})
	s := mustSession(t, cm)
	res := exec(t, s, `const hit = (await tool_search({ query: "n" }))[0];
		let bad; try { await tools.t.n({ n: "x" }) } catch (e) { bad = e.message }
		const good = await tools.t.n({ n: 1 });
		return { signature: hit.signature, bad, good }`, nil)
	var got struct{ Signature, Bad, Good string }
	if !res.OK || json.Unmarshal(res.Result, &got) != nil {
		t.Fatalf("run: %s %+v", res.Result, res.Error)
	}
	if !strings.Contains(got.Signature, "n: number") {
		t.Errorf("tool_search signature %q, want the registered schema's (n: number)", got.Signature)
	}
	if !strings.Contains(got.Bad, "invalid input") || got.Good != "ran" {
		t.Errorf("calls: {n: \"x\"} gave %q, {n: 1} gave %q; want the schema enforced", got.Bad, got.Good)
	}
	want := schema + " true"
	for i, v := range seen {
		if v != want {
			t.Errorf("interceptor call %d saw %q, want %q", i+1, v, want)
		}
	}
	if list := cm.ListTools(); len(list) != 1 || string(list[0].InputSchema) != schema || annotation(list[0]) != "true" {
		t.Errorf("ListTools = %+v, want t.n as registered", list)
	} else {
		scribble(list[0])
		if again := cm.ListTools(); string(again[0].InputSchema) != schema || annotation(again[0]) != "true" {
			t.Errorf("ListTools after its caller wrote into the last answer: %s %s", again[0].InputSchema, annotation(again[0]))
		}
	}
	// The LLM tools' schemas are shared by every session of every CodeMode.
	llm := s.LLMTools()
	before := string(llm[1].InputSchema)
	copy(llm[1].InputSchema, "true"+strings.Repeat(" ", len(llm[1].InputSchema)))
	other := mustSession(t, cm)
	if after := string(other.LLMTools()[1].InputSchema); after != before {
		t.Errorf("another session's executeCode schema after a caller wrote into one: %q, want %q", after, before)
	}
}

func annotation(info ToolInfo) string {
	b, _ := json.Marshal(info.Annotations["readOnlyHint"])
	return string(b)
}
