package sandboxtest

// The conformance suite's limits: a run's timeout, its memory limit, its
// context's cancellation, and QuickJS's stack limit on recursion.

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

func testTimeout(t *testing.T, e *sandbox.Engine) {
	never := map[string]sandbox.Func{"never": {Async: func(ctx context.Context, _ []json.RawMessage) (json.RawMessage, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}}
	for _, code := range []string{"while (true) {}", "await never()", "never()", "echo(1).then(() => never())", "for (;;) { try { while (true) {} } catch (e) {} }", "await echo(1); while (true) {}",
		// A C built-in that never reaches QuickJS's poll: the asset's loop
		// checks stop it (NewEngine adds them).
		"Array.prototype.indexOf.call({ length: 1e15 }, 1)"} {
		funcs := echoFuncs()
		funcs["never"] = never["never"]
		timeout := 300 * time.Millisecond
		start := time.Now()
		res := run(t, e, sandbox.Program{Code: code, Funcs: funcs, Timeout: timeout})
		elapsed := time.Since(start)
		if res.Error == nil || res.Error.Code != sandbox.CodeTimeout {
			t.Errorf("%q: got %s %v, want TIMEOUT", code, res.Value, res.Error)
		}
		// Only a hang fails here: timing on shared machines is noisy.
		if elapsed < timeout || elapsed > timeout+5*time.Second {
			t.Errorf("%q: ended after %v with a %v timeout", code, elapsed, timeout)
		}
	}
	res := run(t, e, sandbox.Program{Code: "await new Promise(() => {})"})
	if res.Error == nil || !strings.Contains(res.Error.Message, "never settle") {
		t.Errorf("a promise nobody can settle: got %v", res.Error)
	}
	if res := run(t, e, sandbox.Program{Code: "return 'alive'"}); string(res.Value) != `"alive"` {
		t.Errorf("after timeouts: %s %v", res.Value, res.Error)
	}
}

func testMemory(t *testing.T, e *sandbox.Engine) {
	for _, code := range []string{
		"const a = []; while (true) a.push('x'.repeat(1000) + a.length)",
		"const m = new Map(); let i = 0; while (true) m.set(i, 'v' + i++)",
		"const a = []; while (true) a.push(new Array(100000).fill(1.5))",
		"new ArrayBuffer(1e9)",
	} {
		res := run(t, e, sandbox.Program{Code: code, Timeout: 20 * time.Second})
		if res.Error == nil || res.Error.Code != sandbox.CodeMemoryLimit {
			// A RangeError for a too-large buffer is also a clean answer.
			if !(res.Error != nil && res.Error.Name == "RangeError") {
				t.Errorf("%q: got %s %v, want MEMORY_LIMIT", code, res.Value, res.Error)
			}
		}
		if ok := run(t, e, sandbox.Program{Code: "return [1,2,3].length"}); string(ok.Value) != "3" {
			t.Fatalf("after %q: %s %v", code, ok.Value, ok.Error)
		}
	}
	// normalize and localeCompare fail at the limit without setting an
	// exception (QuickJS allocates their buffers through the runtime): the
	// run is still the memory limit's, not "[unsupported type]".
	for _, code := range []string{
		"return '\\uFDFA'.repeat(1e6).normalize('NFKD').length",
		"const a = '\\u00e9'.repeat(4e6); return a.localeCompare(a + 'b')",
	} {
		res := run(t, e, sandbox.Program{Code: code, Timeout: 20 * time.Second})
		if res.Error == nil || res.Error.Code != sandbox.CodeMemoryLimit || res.Error.Name != "InternalError" || res.Error.Message != "out of memory" {
			t.Errorf("%q: got %s %+v, want MEMORY_LIMIT InternalError \"out of memory\"", code, res.Value, res.Error)
		}
	}
	// The instance that grew was discarded: idle memory is back to the start.
	if s := e.Stats(); s.IdleMemoryBytes > 32<<20 {
		t.Errorf("idle instances hold %d bytes after memory-limit runs", s.IdleMemoryBytes)
	}
}

func testCancel(t *testing.T, e *sandbox.Engine, preemptive bool) {
	sawCancel := make(chan struct{})
	started := make(chan struct{}, 1)
	funcs := map[string]sandbox.Func{"wait": {Async: func(ctx context.Context, _ []json.RawMessage) (json.RawMessage, error) {
		started <- struct{}{}
		<-ctx.Done()
		close(sawCancel)
		return nil, ctx.Err()
	}}}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	_, err := e.Run(ctx, sandbox.Program{Code: "await wait()", Funcs: funcs, Timeout: 10 * time.Second})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancel while awaiting: err = %v, want context.Canceled", err)
	}
	// Run does not wait for host calls; their contexts are done when it
	// returns, and the call notices on its own goroutine.
	select {
	case <-sawCancel:
	case <-time.After(10 * time.Second):
		t.Errorf("the host call in flight did not see its context cancelled")
	}
	if preemptive {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := e.Run(ctx, sandbox.Program{Code: "while (true) {}", Timeout: 10 * time.Second})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("cancel in a CPU loop: err = %v", err)
		}
	}
	if _, err := e.Run(ctx, sandbox.Program{Code: "1"}); err == nil {
		t.Errorf("Run with a cancelled context succeeded")
	}
}

// testRecursion pins QuickJS's stack limit (maxStackSize): deep recursion is
// QuickJS's InternalError "stack overflow" (the codemode prelude makes it a
// RangeError), which the program catches, at a depth between the floor the
// documentation promises (web/USAGE.md) and the ceiling that keeps it under
// half of the smallest host stack measured (a fresh Chromium Worker, where
// past it the host's own overflow ends the run uncatchably).
func testRecursion(t *testing.T, e *sandbox.Engine) {
	for _, tc := range []struct {
		name, code string
		min, max   int
	}{
		{"plain", "function f() { d++; return f() + 1 }\ntry { f() }", 300, 500},
		{"getter", "const o = { get x() { d++; return this.x } }\ntry { o.x }", 230, 400},
		{"after an await", "await null\nfunction f() { d++; return f() + 1 }\ntry { f() }", 300, 500},
	} {
		res := run(t, e, sandbox.Program{Code: "let d = 0\n" + tc.code + " catch (e) { return [e.name, e.message, d] }"})
		var got []any
		if res.Error != nil || json.Unmarshal(res.Value, &got) != nil || len(got) != 3 {
			t.Fatalf("%s: %s %+v", tc.name, res.Value, res.Error)
		}
		d, _ := got[2].(float64)
		if got[0] != "InternalError" || got[1] != "stack overflow" || int(d) < tc.min || int(d) > tc.max {
			t.Errorf("%s: caught %s, want [\"InternalError\", \"stack overflow\", %d..%d]", tc.name, res.Value, tc.min, tc.max)
		}
		if next := run(t, e, sandbox.Program{Code: "return 1"}); next.Error != nil {
			t.Errorf("%s: the next run: %+v", tc.name, next.Error)
		}
	}
}
