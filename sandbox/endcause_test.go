//go:build !js

package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

// TestHostCallEndCause: an async host function's ctx is done when its run
// ends, and context.Cause says why (Func.Async's doc): ErrTimeout past the
// run's Timeout, ErrRunEnded when the program finished without it, and the
// caller's own cause when the caller stopped the run. The two sentinels
// were pinned by no test (wasm/api.go tells a timed-out tool call by
// ErrTimeout).
func TestHostCallEndCause(t *testing.T) {
	e := mustEngine(t, sandbox.Config{})
	callerCause := errors.New("the caller stopped it")
	for _, tc := range []struct {
		name    string
		code    string
		timeout time.Duration
		stop    bool // cancel the run's ctx with callerCause once the call started
		want    error
	}{
		{"timeout", "await wait()", 50 * time.Millisecond, false, sandbox.ErrTimeout},
		{"run ended", "wait(); return 1", 0, false, sandbox.ErrRunEnded},
		{"caller's cause", "await wait()", 0, true, callerCause},
	} {
		t.Run(tc.name, func(t *testing.T) {
			started, cause := make(chan struct{}), make(chan error, 1)
			funcs := map[string]sandbox.Func{"wait": {Async: func(ctx context.Context, _ []json.RawMessage) (json.RawMessage, error) {
				close(started)
				<-ctx.Done()
				cause <- context.Cause(ctx)
				return nil, nil
			}}}
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			if tc.stop {
				go func() {
					<-started
					cancel(callerCause)
				}()
			}
			_, _ = e.Run(ctx, sandbox.Program{Code: tc.code, Funcs: funcs, Timeout: tc.timeout})
			select {
			case got := <-cause:
				if !errors.Is(got, tc.want) {
					t.Errorf("context.Cause = %v, want %v", got, tc.want)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the host call's ctx was never done")
			}
		})
	}
}
