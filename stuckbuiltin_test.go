package codemode

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// stuckPrograms loop in QuickJS's C built-ins, which never call the
// interpreter's interrupt poll: only the loop check the engine adds to the
// asset (wasmbin.InstrumentLoops) ends them. web/test/hostile.test.mjs runs
// the same programs through the page in both engine modes.
var stuckPrograms = []struct{ name, code string }{
	{"indexOf on an array-like", `console.log("before"); return Array.prototype.indexOf.call({ length: 1e15 }, 1)`},
	{"includes on a sparse array", `console.log("before"); const a = []; a.length = 2 ** 32 - 1; return a.includes(1)`},
	{"reverse of an array-like", `console.log("before"); return Array.prototype.reverse.call({ length: 1e15 })`},
	{"join of a sparse array", `console.log("before"); const a = []; a.length = 2 ** 32 - 1; return a.join("").length`},
	// The proxy's ownKeys answer is checked for duplicates pairwise.
	{"a Proxy whose ownKeys gives 1e6 names", `console.log("before"); const k = Object.keys(new Array(1e6).fill(0)); return Reflect.ownKeys(new Proxy({}, { ownKeys: () => k })).length`},
}

// stuckGuard bounds a run that a regression would leave stuck for ever:
// the test binary fails instead of hanging the suite. It panics: t.Fatal
// would run the cleanups, and closing the CodeMode waits for the stuck run.
const stuckGuard = 60 * time.Second

func execGuarded(t *testing.T, ctx context.Context, s *Session, code string) (*ExecuteResult, error) {
	t.Helper()
	type out struct {
		res *ExecuteResult
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: code, Explanation: "test"}, nil)
		done <- out{res, err}
	}()
	select {
	case o := <-done:
		return o.res, o.err
	case <-time.After(stuckGuard):
		panic(fmt.Sprintf("%s: the run was still going %v after it started: the engine is held in a built-in", t.Name(), stuckGuard))
	}
}

func TestStuckBuiltinTimesOut(t *testing.T) {
	_, s := newHostile(t, Config{Timeout: 500 * time.Millisecond})
	for _, tc := range stuckPrograms {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			res, err := execGuarded(t, context.Background(), s, tc.code)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("ended %v after it started (timeout 500ms)", time.Since(start).Round(time.Millisecond))
			if res.OK || res.Error.Code != ErrorCodeTimeout || res.Error.Name != "TimeoutError" {
				t.Fatalf("got ok=%v %s %+v, want a TIMEOUT TimeoutError", res.OK, res.Result, res.Error)
			}
			if res.Error.Message != "the program did not finish within 500ms (config.timeout: 500, in milliseconds; 500 seconds would be 500000)" {
				t.Errorf("message %q", res.Error.Message)
			}
			if len(res.Logs) == 0 || res.Logs[0].Message != "before" {
				t.Errorf("logs %+v, want the line logged before the stuck call first", res.Logs)
			}
			if res := exec(t, s, "return 1 + 1", nil); !res.OK || string(res.Result) != "2" {
				t.Errorf("the next run: %+v %s", res.Error, res.Result)
			}
		})
	}
}

func TestStuckBuiltinCancel(t *testing.T) {
	_, s := newHostile(t, Config{Timeout: 10 * time.Minute})
	stop := errors.New("stop")
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(300*time.Millisecond, func() { cancel(stop) })
	_, err := execGuarded(t, ctx, s, stuckPrograms[0].code)
	if !errors.Is(err, stop) {
		t.Fatalf("got %v, want the cancel cause", err)
	}
	if res := exec(t, s, "return 1 + 1", nil); !res.OK || string(res.Result) != "2" {
		t.Errorf("the next run: %+v %s", res.Error, res.Result)
	}
}
