//go:build !js

package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestNotStartedWithoutAnInstance: a run whose sandbox instance cannot be
// made (the host's WebAssembly refused it) returns an error wrapping
// ErrNotStarted and the cause, and nothing of it ran: neither the
// interceptor nor the tool was called. Each such run gives its slot back:
// more runs than the CodeMode's 16 instances each fail at once rather
// than wait for a slot nobody holds.
func TestNotStartedWithoutAnInstance(t *testing.T) {
	cause := errors.New("no memory for another instance")
	var intercepted, called atomic.Int32
	cm, err := NewWithEngine(sandboxtest.EngineWithoutInstances(t, cause), Config{
		OnToolCall: func(context.Context, ToolCall) (Decision, error) {
			intercepted.Add(1)
			return Decision{Allowed: true}, nil
		},
		Tools: []Tool{{Name: "probe.called", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			called.Add(1)
			return nil, nil
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer cm.Close()
	s := mustSession(t, cm)
	for i := range 17 {
		res, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: "await tools.probe.called({}); return 1"}, nil)
		if res != nil || !errors.Is(err, ErrNotStarted) || !errors.Is(err, sandbox.ErrNoInstance) || !errors.Is(err, cause) {
			t.Fatalf("run %d: result %+v, err = %v; want no result and an error wrapping ErrNotStarted, sandbox.ErrNoInstance and %q", i+1, res, err, cause)
		}
		if errors.Is(err, ErrClosed) {
			t.Fatalf("run %d: err = %v wraps ErrClosed: nothing was closed", i+1, err)
		}
	}
	if n, m := intercepted.Load(), called.Load(); n != 0 || m != 0 {
		t.Errorf("runs that never had an instance called the interceptor %d times and the tool %d times", n, m)
	}
}
