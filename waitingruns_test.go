package codemode

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestTimeoutCountsOwnSessionsWaitingRuns: a run that times out while runs
// wait for a run slot counts only its own session's (84b80f8 counted the
// engine's: "3 other runs" here): a program that spins into its timeout
// could read how many runs other sessions had waiting, how busy the engine
// was with others' work. Its own session's waiting runs, started from
// inside it by a tool (the deadlock the count explains), are still counted.
func TestTimeoutCountsOwnSessionsWaitingRuns(t *testing.T) {
	const instances = 16 // sandbox's default MaxInstances, New's
	held := make(chan struct{}, 2*instances)
	cm := newTestCodeMode(t, Config{Timeout: 20 * time.Second, Tools: []Tool{
		{Name: "hold.it", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
			held <- struct{}{}
			<-ctx.Done()
			return nil, ctx.Err()
		}},
	}})
	// The runs after the first are stopped once it has timed out.
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	run := func(ctx context.Context, s *Session, code string) <-chan *ExecuteResult {
		c := make(chan *ExecuteResult, 1)
		go func() {
			res, _ := s.ExecuteCode(ctx, ExecuteCodeInput{Code: code}, nil)
			c <- res
		}()
		return c
	}
	own, other := mustSession(t, cm), mustSession(t, cm)
	// The run that times out starts first, so that the slots are still
	// held when its timeout comes: the runs holding them time out later.
	// 20 s: the others must have started and queued by then, on a loaded
	// machine too, where fifteen new QuickJS instances took most of 10 s
	// and the run timed out with nobody waiting yet.
	first := run(context.Background(), own, "tools.hold.it({}); for (;;) {}")
	<-held
	var rest []<-chan *ExecuteResult
	for range instances - 1 {
		rest = append(rest, run(ctx, own, "await tools.hold.it({})"))
	}
	for range instances - 1 {
		<-held
	}
	rest = append(rest, run(ctx, other, "1"), run(ctx, other, "1"), run(ctx, own, "1"))
	sandboxtest.AwaitWaiting(t, cm.engine, 3)
	res := <-first
	want := "the program did not finish within 20s; meanwhile 1 other run was waiting for a run slot, all 16 in use (a run started from inside a run, by a tool, waits for one while the runs that called it hold theirs)"
	if res == nil || res.Error == nil {
		t.Fatalf("got %+v, want TIMEOUT: %s", res, want)
	}
	if res.Error.Code != "TIMEOUT" || res.Error.Message != want {
		t.Errorf("got %+v, want TIMEOUT: %s", res.Error, want)
	}
	stop()
	for _, c := range rest {
		<-c
	}
}
