package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// nestedAnnotations are annotations with a map, a slice and typed
// containers nested in them, as MCP's hints or a host's tags are.
func nestedAnnotations() map[string]any {
	return map[string]any{
		"hints":  map[string]any{"readOnly": true, "audience": []any{"ops"}},
		"tags":   []string{"orders"},
		"byRole": map[string][]int{"admin": {1}},
		"pair":   [1]map[string]any{{"k": "v"}},
	}
}

// scribbleNested writes into every nested container of annotations a.
func scribbleNested(a map[string]any) {
	if h, ok := a["hints"].(map[string]any); ok {
		h["readOnly"] = false
		if aud, ok := h["audience"].([]any); ok && len(aud) > 0 {
			aud[0] = "everyone"
		}
	}
	if tags, ok := a["tags"].([]string); ok && len(tags) > 0 {
		tags[0] = "payments"
	}
	if r, ok := a["byRole"].(map[string][]int); ok {
		if ids := r["admin"]; len(ids) > 0 {
			ids[0] = 99
		}
		r["guest"] = []int{2}
	}
	if p, ok := a["pair"].([1]map[string]any); ok {
		p[0]["k"] = "changed"
	}
}

// TestAnnotationsCopiedDeeply: the maps and slices nested in a tool's
// annotations are private copies, as the outer map was: a host writing
// into its own after registering, or a ToolFilter, an interceptor or a
// caller of ListTools writing into the copy it was handed, changes what no
// one else sees. Before, only the outer map was copied: each row's write
// reached every later ListTools, filter and interceptor call.
func TestAnnotationsCopiedDeeply(t *testing.T) {
	want := fmt.Sprint(nestedAnnotations())
	for _, writer := range []string{"host after registering", "ToolFilter", "OnToolCall", "ListTools caller"} {
		t.Run(writer, func(t *testing.T) {
			ann := nestedAnnotations()
			var seen []string // the interceptor's view, call by call
			cfg := Config{Tools: []Tool{{Name: "t.n", Annotations: ann, Execute: noopToolExecute}}}
			cfg.ToolFilter = func(info ToolInfo) bool {
				if writer == "ToolFilter" {
					scribbleNested(info.Annotations)
				}
				return true
			}
			cfg.OnToolCall = func(_ context.Context, c ToolCall) (Decision, error) {
				seen = append(seen, fmt.Sprint(c.Tool.Annotations))
				if writer == "OnToolCall" {
					scribbleNested(c.Tool.Annotations)
				}
				return Decision{Allowed: true}, nil
			}
			cm := mustNew(t, cfg)
			switch writer {
			case "host after registering":
				scribbleNested(ann)
			case "ListTools caller":
				scribbleNested(cm.ListTools()[0].Annotations)
			}
			s := mustSession(t, cm)
			if res := exec(t, s, `await tools.t.n({}); await tools.t.n({}); return 1`, nil); !res.OK {
				t.Fatalf("run: %+v", res.Error)
			}
			for i, got := range seen {
				if got != want {
					t.Errorf("interceptor call %d saw %s, want %s", i+1, got, want)
				}
			}
			if got := fmt.Sprint(cm.ListTools()[0].Annotations); got != want {
				t.Errorf("ListTools gives %s, want %s", got, want)
			}
		})
	}
}

// TestCloneAnnotations: what is copied and what is shared, cycles
// included (a map holding itself is copied once, and the copy holds
// itself).
func TestCloneAnnotations(t *testing.T) {
	type hint struct{ Level int }
	ptr := &hint{1}
	cyclic := map[string]any{"n": 1.0}
	cyclic["self"] = cyclic
	shared := []any{"x"}
	raw := json.RawMessage(`{"a":1}`)
	in := map[string]any{"cyclic": cyclic, "a": shared, "b": shared, "ptr": ptr, "raw": raw, "nilMap": map[string]any(nil), "nil": nil}
	out := cloneAnnotations(in)

	c := out["cyclic"].(map[string]any)
	if self, ok := c["self"].(map[string]any); !ok || fmt.Sprintf("%p", self) != fmt.Sprintf("%p", c) {
		t.Errorf("the copy of a map holding itself does not hold itself")
	}
	if fmt.Sprintf("%p", c) == fmt.Sprintf("%p", cyclic) {
		t.Errorf("the cyclic map was not copied")
	}
	a, b := out["a"].([]any), out["b"].([]any)
	if &a[0] != &b[0] || &a[0] == &shared[0] {
		t.Errorf("a slice held twice: copies %p and %p of %p, want one copy", &a[0], &b[0], &shared[0])
	}
	if out["ptr"] != ptr {
		t.Errorf("a pointer was copied: the host's value is its own")
	}
	raw[1] = 'X'
	if got := string(out["raw"].(json.RawMessage)); got != `{"a":1}` {
		t.Errorf("bytes: the copy reads %s after the host wrote into its own", got)
	}
	if m, ok := out["nilMap"].(map[string]any); !ok || m != nil || out["nil"] != nil {
		t.Errorf("nil values: %#v, %#v", out["nilMap"], out["nil"])
	}
	if cloneAnnotations(nil) != nil {
		t.Errorf("nil annotations copied as non-nil")
	}
	// Flat annotations (MCP's hints) are copied as a map: the copy is
	// still the caller's own.
	flat := map[string]any{"readOnlyHint": true, "source": "mcp:x", "n": 1.0, "none": nil}
	fc := cloneAnnotations(flat)
	fc["readOnlyHint"], fc["extra"] = false, 1.0
	if flat["readOnlyHint"] != true || len(flat) != 4 || fc["source"] != "mcp:x" || fc["n"] != 1.0 {
		t.Errorf("flat annotations: the original %v after writing into the copy %v", flat, fc)
	}
	if m := cloneAnnotations(map[string]any{}); m == nil {
		t.Errorf("empty annotations copied as nil")
	}
}
