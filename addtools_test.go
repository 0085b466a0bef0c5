package codemode

import (
	"errors"
	"strings"
	"testing"
)

// TestSessionAddTools: tools added to a live session are its own as
// NewSession's are: visible to it alone, their names refused to the
// factory until it closes, all or none, never a factory tool's name.
func TestSessionAddTools(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s, err := cm.NewSession(testTool("mine.a"))
	if err != nil {
		t.Fatal(err)
	}
	other, err := cm.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := s.AddTools(testTool("mine.b")); err != nil {
		t.Fatal(err)
	}
	names := func(s *Session) string {
		hits, err := s.SearchTools("mine", 50)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			if strings.HasPrefix(h.Name, "mine.") {
				out = append(out, h.Name)
			}
		}
		return strings.Join(out, ",")
	}
	if got := names(s); got != "mine.a,mine.b" && got != "mine.b,mine.a" {
		t.Errorf("the session finds %q, want mine.a and mine.b", got)
	}
	if got := names(other); got != "" {
		t.Errorf("another session finds %q", got)
	}
	if _, err := cm.RegisterTools(testTool("mine.b")); !errors.Is(err, ErrDuplicateTool) {
		t.Errorf("RegisterTools of an added tool's name: %v, want ErrDuplicateTool", err)
	}
	for _, tc := range []struct {
		tools []Tool
		want  string
	}{
		{[]Tool{testTool("mine.c"), testTool("orders.search")}, `tool name "orders.search": already registered on the factory`},
		{[]Tool{testTool("mine.d"), testTool("mine.a")}, `tool name "mine.a": already registered`},
	} {
		if err := s.AddTools(tc.tools...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("AddTools: %v, want %s", err, tc.want)
		}
	}
	if got := names(s); got != "mine.a,mine.b" && got != "mine.b,mine.a" {
		t.Errorf("after refused batches the session finds %q: all or none", got)
	}
	s.Close()
	if err := s.AddTools(testTool("mine.e")); !errors.Is(err, ErrClosed) {
		t.Errorf("AddTools after Close: %v, want ErrClosed", err)
	}
	if _, err := cm.RegisterTools(testTool("mine.b")); err != nil {
		t.Errorf("an added tool's name after Close: %v", err)
	}
}
