package sandbox_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/interopio/code-mode/sandbox"
)

// TestZeroEngine: an Engine that NewEngine did not make (nil, or a zero
// value) panics nowhere: Run fails at once with an error wrapping
// ErrClosed that says how to make one, Close and Stats do nothing. Before,
// Close panicked on both (a nil pointer; closing a nil channel), and Run
// on a zero Engine waited for an instance until its ctx ended (for ever,
// with context.Background()).
func TestZeroEngine(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    *sandbox.Engine
	}{{"nil", nil}, {"zero", &sandbox.Engine{}}} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("panicked: %v", p)
				}
			}()
			if err := tc.e.Close(); err != nil {
				t.Errorf("Close: %v, want nil", err)
			}
			if s := tc.e.Stats(); s != (sandbox.Stats{}) {
				t.Errorf("Stats: %+v, want none", s)
			}
			res, err := tc.e.Run(context.Background(), sandbox.Program{Code: "1"})
			if res != nil || !errors.Is(err, sandbox.ErrClosed) || !strings.Contains(err.Error(), "make one with NewEngine") {
				t.Errorf("Run: %+v, %v; want an error wrapping ErrClosed that says to make one with NewEngine", res, err)
			}
		})
	}
}
