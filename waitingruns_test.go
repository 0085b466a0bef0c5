package codemode

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestTimeoutCountsOwnSessionsWaitingRuns: a run that times out while runs
// wait for a run slot counts only its own session's (84b80f8 counted the
// engine's: "3 other runs" here): a program that spins into its timeout
// could read how many runs other sessions had waiting, how busy the engine
// was with others' work. Its own session's waiting runs, started from
// inside it by a tool (the deadlock the count explains), are still counted.
//
// The fifteen runs that hold the other slots belong to a second CodeMode on
// the same engine, whose timeout is an hour (they end with the test's
// cancel): they start, make their QuickJS instances and hold before the run
// that times out starts. When they shared its CodeMode they started after
// it, on its clock: on a loaded machine their instances took most of its
// timeout (10 s, then 20 s) and it timed out with nobody waiting yet ("did
// not finish within 20s", no count; seen under go test . at load 7-17). Now
// its clock covers only the gate below: three runs queue, then it spins.
func TestTimeoutCountsOwnSessionsWaitingRuns(t *testing.T) {
	const instances = 16 // sandbox's default MaxInstances, NewEngine's
	engine, err := sandbox.NewEngine(sandboxtest.Asset(t), sandbox.Config{})
	if err != nil {
		t.Fatal(err)
	}
	held, gate := make(chan struct{}, 2*instances), make(chan struct{})
	tools := []Tool{
		{Name: "hold.it", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
			held <- struct{}{}
			<-ctx.Done()
			return nil, ctx.Err()
		}},
		// gate.pass answers once the runs below wait for a slot.
		{Name: "gate.pass", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
			held <- struct{}{}
			select {
			case <-gate:
				return json.RawMessage("1"), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}},
	}
	holding, err := NewWithEngine(engine, Config{Timeout: time.Hour, Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { holding.Close() })
	cm, err := NewWithEngine(engine, Config{Timeout: 10 * time.Second, Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cm.Close() })
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
	holder, own, other := mustSession(t, holding), mustSession(t, cm), mustSession(t, cm)
	var rest []<-chan *ExecuteResult
	for range instances - 1 {
		rest = append(rest, run(ctx, holder, "await tools.hold.it({})"))
	}
	for range instances - 1 {
		<-held
	}
	// The last slot: the run that times out, held at the gate until the
	// others wait, so that its timeout comes after they queued however
	// slowly they did.
	first := run(context.Background(), own, "await tools.gate.pass({}); for (;;) {}")
	<-held
	rest = append(rest, run(ctx, other, "1"), run(ctx, other, "1"), run(ctx, own, "1"))
	sandboxtest.AwaitWaiting(t, engine, 3)
	close(gate)
	res := <-first
	want := "the program did not finish within 10s; meanwhile 1 other run was waiting for a run slot, all 16 in use (a run started from inside a run, by a tool, waits for one while the runs that called it hold theirs)"
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
