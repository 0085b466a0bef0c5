package sandbox

import (
	"context"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox/internal/ffi"
)

// TestWaitPastDeadlineOnAnEmptyWake: a wake can find no answer (deliver
// queues its answer, then wakes, and an earlier wait may have drained it in
// between). Past the deadline, such a wait ends the run with its TIMEOUT,
// awaiting, naming no answer; it panicked on the empty list it looked for
// the largest answer in.
func TestWaitPastDeadlineOnAnEmptyWake(t *testing.T) {
	r := &run{q: &ffi.Instance{}, pending: map[uint32]*hostCall{1: {}}, wake: make(chan struct{}, 1),
		goCtx: context.Background(), timeout: time.Second, deadline: time.Now().Add(-time.Second)}
	r.wake <- struct{}{}
	res := r.wait()
	if res == nil || res.Error == nil || res.Error.Code != CodeTimeout || !res.Error.Awaiting || res.Error.Answer != "" {
		t.Fatalf("wait = %+v, want a TIMEOUT while awaiting, no answer named", res)
	}
}
