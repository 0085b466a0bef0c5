package codemode

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestConfigCopiedByNew: what the caller changes in its Config, its Tools
// or a Tool's schema bytes and annotations after New or RegisterTools
// changes nothing of the CodeMode (CodeMode's doc says so).
func TestConfigCopiedByNew(t *testing.T) {
	schema := func() json.RawMessage {
		return json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)
	}
	execute := func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		return json.RawMessage(`"original"`), nil
	}
	for _, tc := range []struct {
		name string
		// setup makes the CodeMode's tool "t.n" from tool, then changes
		// what the caller still holds.
		setup func(t *testing.T, tool Tool) *CodeMode
	}{
		{"Config.Tools after New", func(t *testing.T, tool Tool) *CodeMode {
			cfg := Config{Tools: []Tool{tool}}
			cm := mustNew(t, cfg)
			copy(cfg.Tools[0].InputSchema, `{"type":"string"                                                          }`)
			cfg.Tools[0].Annotations["readOnlyHint"] = false
			cfg.Tools[0].Execute = func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
				return json.RawMessage(`"changed"`), nil
			}
			cfg.Tools[0].Name = "t.other"
			return cm
		}},
		{"a Tool after RegisterTools", func(t *testing.T, tool Tool) *CodeMode {
			cm := mustNew(t, Config{})
			if _, err := cm.RegisterTools(tool); err != nil {
				t.Fatal(err)
			}
			copy(tool.InputSchema, `{"type":"string"                                                          }`)
			tool.Annotations["readOnlyHint"] = false
			return cm
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cm := tc.setup(t, Tool{Name: "t.n", InputSchema: schema(), Annotations: map[string]any{"readOnlyHint": true}, Execute: execute})
			tools := cm.ListTools()
			if len(tools) != 1 || tools[0].Name != "t.n" || tools[0].Annotations["readOnlyHint"] != true || string(tools[0].InputSchema) != string(schema()) {
				t.Fatalf("ListTools = %+v, want t.n as registered", tools)
			}
			s := mustSession(t, cm)
			res := exec(t, s, `const a = await tools.t.n({n: 1}); let b; try { await tools.t.n("x") } catch (e) { b = e.message } return [a, b]`, nil)
			if !res.OK || !strings.HasPrefix(string(res.Result), `["original","t.n: invalid input`) {
				t.Errorf("run: %s %+v, want the original tool and schema", res.Result, res.Error)
			}
		})
	}
}
