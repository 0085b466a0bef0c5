//go:build !js

package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

// TestMaxInstances checks that runs beyond MaxInstances wait for a free
// instance instead of creating more, and that they all finish.
func TestMaxInstances(t *testing.T) {
	e := mustEngine(t, sandbox.Config{MaxInstances: 2})
	var active, peak atomic.Int32
	funcs := map[string]sandbox.Func{"work": {Async: func(ctx context.Context, _ []json.RawMessage) (json.RawMessage, error) {
		n := active.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
		active.Add(-1)
		return json.RawMessage("1"), nil
	}}}
	var wg sync.WaitGroup
	var done atomic.Int32
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := e.Run(context.Background(), sandbox.Program{Code: "return await work()", Funcs: funcs, Timeout: 10 * time.Second})
			if err == nil && res.Error == nil {
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	if done.Load() != 6 || peak.Load() > 2 {
		t.Errorf("%d of 6 runs finished, %d ran at once with MaxInstances 2", done.Load(), peak.Load())
	}
	// A run waiting for an instance gives up with its context.
	block, held := make(chan struct{}), make(chan struct{}, 2)
	hold := map[string]sandbox.Func{"hold": {Async: func(ctx context.Context, _ []json.RawMessage) (json.RawMessage, error) {
		held <- struct{}{}
		<-block
		return nil, nil
	}}}
	for i := 0; i < 2; i++ {
		go e.Run(context.Background(), sandbox.Program{Code: "await hold()", Funcs: hold, Timeout: 10 * time.Second})
	}
	<-held // both instances are now busy
	<-held
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := e.Run(ctx, sandbox.Program{Code: "1"}); err != context.DeadlineExceeded {
		t.Errorf("waiting run: err = %v, want DeadlineExceeded", err)
	}
	// The caller's cause, while waiting and before that, as a run stopped
	// later gives it (ctx.Err() said context.Canceled).
	stop := errors.New("the user pressed stop")
	waiting, cancelWaiting := context.WithCancelCause(context.Background())
	time.AfterFunc(50*time.Millisecond, func() { cancelWaiting(stop) })
	if _, err := e.Run(waiting, sandbox.Program{Code: "1"}); err != stop {
		t.Errorf("waiting run: err = %v, want the caller's cause", err)
	}
	if _, err := e.Run(waiting, sandbox.Program{Code: "1"}); err != stop {
		t.Errorf("run of a done context: err = %v, want the caller's cause", err)
	}
	close(block)
}

// TestBodyHint: a program the caller marks as a function body (Program.Body)
// gives the same result and the same error, at the same position, as when
// it is first tried as a script.
func TestBodyHint(t *testing.T) {
	e := mustEngine(t, sandbox.Config{})
	for _, code := range []string{
		"return 1+1",
		"const a = [1, 2]\nreturn a.map((x) => x * 2)",
		"return",
		"await null\nreturn {a: 1n}",
		"const x = 1\nreturn x.y.z",
		"return nope()",
		"throw new TypeError('bad')\nreturn 1",
		"return 1 +",
		"return (1",
		"let a = 1; let a = 2\nreturn a",
	} {
		var got [2]string
		for i, body := range []bool{false, true} {
			res, err := e.Run(context.Background(), sandbox.Program{Code: code, Body: body})
			if err != nil {
				t.Fatalf("%q: %v", code, err)
			}
			b, _ := json.Marshal(res)
			got[i] = string(b)
		}
		if got[0] != got[1] {
			t.Errorf("%q:\n as a script first: %s\n as a body:         %s", code, got[0], got[1])
		}
	}
}

// TestHidden: with Program.Hidden the host functions are the prelude's
// arguments, in name order, and never globals; the program reaches them only
// through what the prelude made of them. A prelude that is not a function
// fails the run's setup.
func TestHidden(t *testing.T) {
	e := mustEngine(t, sandbox.Config{})
	text := func(s string) sandbox.Func {
		return sandbox.Func{Sync: func([]json.RawMessage) (json.RawMessage, error) { return json.Marshal(s) }}
	}
	later := sandbox.Func{Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`"later"`), nil
	}}
	funcs := map[string]sandbox.Func{"b": text("b"), "a": text("a"), "c": later}
	for _, tc := range []struct {
		name, prelude, code, want, err string
	}{
		{"name order", `(a, b, c) => { globalThis.got = () => [a(), b(), typeof c] }`,
			`return got()`, `["a","b","function"]`, ""},
		{"not globals", `(a, b, c) => { globalThis.viaPrelude = () => a() }`,
			`return [typeof a, typeof b, typeof c, Object.keys(globalThis).filter((k) => k.length === 1), viaPrelude()]`, `["undefined","undefined","undefined",[],"a"]`, ""},
		{"async through the prelude", `(a, b, c) => { globalThis.wait = c }`,
			`return await wait()`, `"later"`, ""},
		{"not a function", `1`, `return 1`, ``, "sandbox: invalid program: Program.Prelude threw: TypeError: not a function"},
		{"a prelude that throws", `() => { throw new RangeError("no") }`, `return 1`, ``, "sandbox: invalid program: Program.Prelude threw: RangeError: no"},
		{"no prelude", ``, `return 1`, ``, "sandbox: invalid program: Program.Hidden needs a Prelude (a function expression that takes the Funcs)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := e.Run(context.Background(), sandbox.Program{Code: tc.code, Prelude: tc.prelude, Funcs: funcs, Hidden: true, Body: true})
			if tc.err != "" {
				if err == nil || err.Error() != tc.err || !errors.Is(err, sandbox.ErrInvalidProgram) {
					t.Fatalf("err = %v, want %q wrapping ErrInvalidProgram", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Error != nil {
				t.Fatal(res.Error)
			}
			if string(res.Value) != tc.want {
				t.Errorf("got %s, want %s", res.Value, tc.want)
			}
		})
	}
}

// TestNativeParse: with Program.NativeParse, an async host function's
// result that it accepts is read by the context's own JSON.parse, taken
// before the prelude replaced it; one it refuses, every sync function's
// result, and every result without NativeParse by the prelude's.
func TestNativeParse(t *testing.T) {
	e := mustEngine(t, sandbox.Config{})
	result := func(raw string) sandbox.Func {
		return sandbox.Func{Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) { return json.RawMessage(raw), nil }}
	}
	funcs := map[string]sandbox.Func{
		"a": result(`{"n":1}`),
		"b": result(`{"n":2}`),
		"c": {Sync: func([]json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`{"n":3}`), nil }},
	}
	// The prelude's parse marks what it read.
	const prelude = `(a, b, c) => { const p = JSON.parse; JSON.parse = (t) => ({ prelude: p(t) }); globalThis.f = { a, b, c } }`
	const code = `return [await f.a(), await f.b(), f.c()]`
	for _, tc := range []struct {
		name   string
		native func(json.RawMessage) bool
		want   string
	}{
		{"nil", nil, `[{"prelude":{"n":1}},{"prelude":{"n":2}},{"prelude":{"n":3}}]`},
		{"all", func(json.RawMessage) bool { return true }, `[{"n":1},{"n":2},{"prelude":{"n":3}}]`},
		{"some", func(raw json.RawMessage) bool { return string(raw) != `{"n":2}` }, `[{"n":1},{"prelude":{"n":2}},{"prelude":{"n":3}}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := e.Run(context.Background(), sandbox.Program{Code: code, Prelude: prelude, Funcs: funcs, Hidden: true, Body: true, NativeParse: tc.native})
			if err != nil || res.Error != nil {
				t.Fatalf("%v %+v", err, res.Error)
			}
			if string(res.Value) != tc.want {
				t.Errorf("got %s, want %s", res.Value, tc.want)
			}
		})
	}
}
