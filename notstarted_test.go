package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestRunWaitingForAnInstance: with the CodeMode's 16 instances in use, a
// 17th ExecuteCode waits; what it returns when that wait ends is told
// apart with errors.Is. Its ctx ending gives ErrNotStarted (nothing ran:
// the tool it would call was not called) besides ctx.Err() and the cause;
// its session or CodeMode closing gives ErrClosed. A run stopped by ctx
// after it started is no ErrNotStarted. Before, the first gave ctx.Err()
// alone, as a run stopped midway does.
func TestRunWaitingForAnInstance(t *testing.T) {
	const instances = 16 // sandbox's default MaxInstances, New's
	held := make(chan struct{}, instances)
	var probed atomic.Int32
	cm := newTestCodeMode(t, Config{Tools: []Tool{
		{Name: "hold.it", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
			held <- struct{}{}
			<-ctx.Done()
			return nil, ctx.Err()
		}},
		{Name: "probe.called", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			probed.Add(1)
			return nil, nil
		}},
	}})
	s := mustSession(t, cm)
	type outcome struct {
		res *ExecuteResult
		err error
	}
	run := func(ctx context.Context, s *Session, code string) <-chan outcome {
		c := make(chan outcome, 1)
		go func() {
			res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: code}, nil)
			c <- outcome{res, err}
		}()
		return c
	}
	var holders []<-chan outcome
	var stopHolder []context.CancelFunc
	for range instances {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		holders = append(holders, run(ctx, s, "await tools.hold.it({})"))
		stopHolder = append(stopHolder, cancel)
	}
	for range instances {
		<-held
	}
	// waitFor returns the outcome of a run once it waits for an instance
	// and stop was applied.
	waitFor := func(t *testing.T, ctx context.Context, s *Session, stop func()) outcome {
		t.Helper()
		c := run(ctx, s, "await tools.probe.called({}); return 1")
		sandboxtest.AwaitWaiting(t, cm.engine, 1)
		stop()
		return <-c
	}

	t.Run("ctx canceled with a cause", func(t *testing.T) {
		cause := errors.New("the user pressed stop")
		ctx, cancel := context.WithCancelCause(context.Background())
		got := waitFor(t, ctx, s, func() { cancel(cause) })
		for _, want := range []error{ErrNotStarted, context.Canceled, cause} {
			if !errors.Is(got.err, want) {
				t.Errorf("err = %v (result %v): errors.Is(err, %q) = false", got.err, got.res, want)
			}
		}
	})
	t.Run("session closed", func(t *testing.T) {
		other := mustSession(t, cm)
		got := waitFor(t, context.Background(), other, func() { other.Close() })
		if !errors.Is(got.err, ErrClosed) {
			t.Errorf("err = %v, want ErrClosed", got.err)
		}
	})
	if n := probed.Load(); n != 0 {
		t.Errorf("runs that never had an instance called a tool %d times", n)
	}
	t.Run("a run stopped after it started", func(t *testing.T) {
		stopHolder[0]()
		got := <-holders[0]
		if !errors.Is(got.err, context.Canceled) || errors.Is(got.err, ErrNotStarted) {
			t.Errorf("err = %v, want context.Canceled and not ErrNotStarted", got.err)
		}
	})
	t.Run("CodeMode closed", func(t *testing.T) {
		// The freed instance is taken again first.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		holders[0] = run(ctx, s, "await tools.hold.it({})")
		<-held
		got := waitFor(t, context.Background(), s, func() { cm.Close() })
		if !errors.Is(got.err, ErrClosed) {
			t.Errorf("err = %v, want ErrClosed", got.err)
		}
	})
	for i, h := range holders {
		if got := <-h; !errors.Is(got.err, ErrClosed) && !errors.Is(got.err, context.Canceled) {
			t.Errorf("holding run %d: err = %v, want ErrClosed", i, got.err)
		}
	}
}
