package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"
)

// TestExecuteCodeContextErrors: a run stopped by its ctx returns an error
// that errors.Is matches with ctx.Err() (context.Canceled or
// context.DeadlineExceeded) and with the caller's cause, when it gave one.
// ExecuteCode returned context.Cause(ctx) alone: under WithCancelCause
// errors.Is(err, context.Canceled) was false. A run whose ctx was done
// before it began also wraps ErrNotStarted (nothing of it ran).
func TestExecuteCodeContextErrors(t *testing.T) {
	cause := errors.New("the user pressed stop")
	started := make(chan struct{}, 1)
	cm := newTestCodeMode(t, Config{Tools: []Tool{{Name: "slow.wait", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, context.Cause(ctx)
	}}}})
	s := mustSession(t, cm)
	// A deadline far enough ahead for the run to reach its tool on a
	// loaded machine; nothing is asserted about when it fires.
	const deadline = 300 * time.Millisecond
	for _, tc := range []struct {
		name string
		// ctx returns the run's context and what stops it (nil: its
		// deadline), called once the tool runs.
		ctx       func() (context.Context, func())
		want      error // ctx.Err()
		wantCause error // nil: the error is want itself
		// notStarted: the run never began (ErrNotStarted, which its
		// message starts with)
		notStarted bool
	}{
		{"WithCancel", func() (context.Context, func()) {
			ctx, cancel := context.WithCancel(context.Background())
			return ctx, cancel
		}, context.Canceled, nil, false},
		{"WithCancelCause", func() (context.Context, func()) {
			ctx, cancel := context.WithCancelCause(context.Background())
			return ctx, func() { cancel(cause) }
		}, context.Canceled, cause, false},
		{"WithCancelCause(nil)", func() (context.Context, func()) {
			ctx, cancel := context.WithCancelCause(context.Background())
			return ctx, func() { cancel(nil) }
		}, context.Canceled, nil, false},
		{"WithTimeout", func() (context.Context, func()) {
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			t.Cleanup(cancel)
			return ctx, nil
		}, context.DeadlineExceeded, nil, false},
		{"WithTimeoutCause", func() (context.Context, func()) {
			ctx, cancel := context.WithTimeoutCause(context.Background(), deadline, cause)
			t.Cleanup(cancel)
			return ctx, nil
		}, context.DeadlineExceeded, cause, false},
		{"cancelled with a cause before the run", func() (context.Context, func()) {
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(cause)
			return ctx, nil
		}, context.Canceled, cause, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, stop := tc.ctx()
			if stop != nil {
				go func() {
					<-started
					stop()
				}()
			}
			res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: `return await tools.slow.wait({})`}, nil)
			if ctx.Err() == nil {
				// Only the run's own deadline could end it first: not here.
				t.Fatalf("ExecuteCode returned before its ctx was done: %v %+v", err, res)
			}
			if stop == nil && len(started) > 0 {
				<-started
			}
			if res != nil {
				t.Errorf("res = %+v, want nil with the error", res)
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("errors.Is(%v, %v) = false", err, tc.want)
			}
			if errors.Is(err, ErrNotStarted) != tc.notStarted {
				t.Errorf("errors.Is(%v, ErrNotStarted) = %v, want %v", err, !tc.notStarted, tc.notStarted)
			}
			if tc.wantCause == nil {
				if err != tc.want {
					t.Errorf("err = %#v, want %v itself (no cause to add)", err, tc.want)
				}
				return
			}
			if !errors.Is(err, tc.wantCause) {
				t.Errorf("errors.Is(%v, cause) = false", err)
			}
			want := tc.want.Error() + ": " + tc.wantCause.Error()
			if tc.notStarted {
				want = ErrNotStarted.Error() + ": " + want
			}
			if err.Error() != want {
				t.Errorf("err = %q, want %q", err, want)
			}
		})
	}
}

// TestNilContext: each method that takes a ctx, given a nil one, returns
// an error saying so (ErrClosed first, once closed), as net/http's
// NewRequestWithContext does. ExecuteCode and executeCode's Execute
// panicked "cannot create context from nil parent", Search and
// searchTools' Execute with a nil pointer dereference, in the caller's
// goroutine.
func TestNilContext(t *testing.T) {
	const want = "codemode: nil ctx: pass context.Background() for none"
	cm := newTestCodeMode(t, Config{Tools: []Tool{{Name: "orders.list", Execute: okTool}}})
	open, closed := mustSession(t, cm), mustSession(t, cm)
	closed.Close()
	var nilCtx context.Context
	for _, tc := range []struct {
		name string
		call func(s *Session) error
	}{
		{"ExecuteCode", func(s *Session) error {
			_, err := s.ExecuteCode(nilCtx, ExecuteCodeInput{Code: "return 1"}, nil)
			return err
		}},
		{"ExecuteCode of no code", func(s *Session) error {
			_, err := s.ExecuteCode(nilCtx, ExecuteCodeInput{}, nil)
			return err
		}},
		{"Search", func(s *Session) error {
			_, err := s.Search(nilCtx, SearchRequest{Query: "orders"})
			return err
		}},
		{"searchTools", func(s *Session) error {
			_, err := s.LLMTools()[0].Execute(nilCtx, json.RawMessage(`{"query":"orders"}`), nil)
			return err
		}},
		{"executeCode", func(s *Session) error {
			_, err := s.LLMTools()[1].Execute(nilCtx, json.RawMessage(`{"code":"return 1","explanation":"x"}`), nil)
			return err
		}},
		{"executeCode with wrong arguments", func(s *Session) error {
			_, err := s.LLMTools()[1].Execute(nilCtx, json.RawMessage(`{"limit":"many"}`), nil)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, s := range []*Session{open, closed} {
				var err error
				func() {
					defer func() {
						if p := recover(); p != nil {
							t.Fatalf("panicked: %v", p)
						}
					}()
					err = tc.call(s)
				}()
				if s == closed {
					if !errors.Is(err, ErrClosed) {
						t.Errorf("closed session: %v, want ErrClosed", err)
					}
				} else if err == nil || err.Error() != want {
					t.Errorf("err = %v, want %q", err, want)
				}
			}
		})
	}
}
