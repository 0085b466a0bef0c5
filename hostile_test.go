package codemode

// The hostile-program suite (issue 9): programs, tools and interceptors
// written as an attacker or a careless host would, against the native
// engine. web/test/hostile.test.mjs runs the same cases through dist/.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// The bounds a string from the sandbox (or a tool) gets before it is
// encoded anywhere: names and reasons, plus room for the marker that says
// how much was cut.
const (
	wantNameBound   = maxNameChars + 64
	wantReasonBound = maxReasonChars + 64
)

// probe records when interceptors and tools start, and flags every start
// that comes after the run it belongs to has ended.
type probe struct {
	mu       sync.Mutex
	ended    bool
	starts   []string
	late     []string
	ctxDone  []string // calls whose context was done when they returned
	returned int      // calls that reached doneCtx
	released chan struct{}
	endc     chan struct{} // closed by end
}

func newProbe() *probe { return &probe{released: make(chan struct{}), endc: make(chan struct{})} }

func (p *probe) start(what string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.starts = append(p.starts, what)
	if p.ended {
		p.late = append(p.late, what)
	}
}

func (p *probe) end() {
	p.mu.Lock()
	if !p.ended {
		close(p.endc)
	}
	p.ended = true
	p.mu.Unlock()
}

func (p *probe) doneCtx(what string, ctx context.Context) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.returned++
	if ctx.Err() != nil {
		p.ctxDone = append(p.ctxDone, what)
	}
}

// waitReturned waits (a minute at most) until every start named with
// prefix has reached doneCtx, so that what each saw is counted: on a
// loaded machine one was still asleep when the test counted (a fixed wait
// after the run's end is no bound on when a goroutine runs).
func (p *probe) waitReturned(prefix string) {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		p.mu.Lock()
		done := p.returned >= countPrefix(p.starts, prefix)
		p.mu.Unlock()
		if done {
			return
		}
	}
}

// lateStarts waits long enough for a late start to happen, then returns the
// starts that came after the run ended.
func (p *probe) lateStarts(wait time.Duration) []string {
	time.Sleep(wait)
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.late...)
}

func newHostile(t *testing.T, cfg Config, tools ...Tool) (*CodeMode, *Session) {
	t.Helper()
	cfg.Tools = append(cfg.Tools, tools...)
	cm := mustNew(t, cfg)
	s := mustSession(t, cm)
	return cm, s
}

func echoTool(name string, p *probe) Tool {
	return Tool{Name: name, Execute: func(ctx context.Context, in json.RawMessage, _ Call) (json.RawMessage, error) {
		if p != nil {
			p.start("tool " + name)
		}
		return in, nil
	}}
}

// slowInterceptor decides after d, and only once the run has ended
// (p.end), ignoring its context as a person at an approval dialog would.
// It waited for d alone, which a run whose thread a loaded machine held
// off the CPU did not always outlast: the approval then came while the run
// was live, and the tool ran (TestHostileNothingStartsAfterTheTimeout
// covers an approval after the timeout that the run has not noticed).
func slowInterceptor(p *probe, d time.Duration) Interceptor {
	return func(ctx context.Context, c ToolCall) (Decision, error) {
		p.start("interceptor " + c.Tool.Name)
		time.Sleep(d)
		select {
		case <-p.endc:
		case <-time.After(time.Minute):
		}
		p.doneCtx("interceptor "+c.Tool.Name, ctx)
		return Decision{Allowed: true}, nil
	}
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }

// Item 1: every string that comes out of the sandbox is bounded before it
// is encoded: error names, messages and stacks, unknown tool names, logs.
func TestHostileHugeStrings(t *testing.T) {
	_, s := newHostile(t, Config{MemoryLimitMB: 512, MaxToolCalls: 10}, echoTool("t.echo", nil))
	for _, tc := range []struct{ name, code string }{
		{"error name 9e7", `const e = new Error('x'); e.name = '<'.repeat(9e7); throw e`},
		{"error message 5e7", `throw new Error('<'.repeat(5e7))`},
		{"thrown string", `throw '<'.repeat(5e7)`},
		{"error stack", `const e = new Error('x'); e.stack = '<'.repeat(5e7); throw e`},
		{"plain object thrown", `throw { name: '<'.repeat(5e7), message: '<'.repeat(5e7) }`},
		{"name getter throws", `const e = new Error('x'); Object.defineProperty(e, 'name', { get() { throw new Error('<'.repeat(1e7)) } }); throw e`},
		{"name is a symbol", `const e = new Error('x'); e.name = Symbol('<'.repeat(1e6)); throw e`},
		{"unknown tool names", `for (let i = 0; i < 4; i++) await tool_call('<'.repeat(25e6) + i, {})`},
		{"namespaced unknown tool", `await tools['<'.repeat(2e7)]({})`},
		{"console", `console.log('<'.repeat(5e7)); throw new Error('after')`},
		// The error's description runs after the program, with the globals
		// it left: these write the envelope (name, message, stack) whole.
		{"JSON.stringify replaced writes the error's envelope", `const S = JSON.stringify; JSON.stringify = function (v, r, s) { return v !== null && typeof v === "object" && "stack" in v ? '{"name":"' + '<'.repeat(9e7) + '","message":"' + '<'.repeat(5e7) + '","stack":"' + '<'.repeat(5e7) + '"}' : S(v, r, s) }; throw new Error('x')`},
		{"String.prototype.slice replaced", `const big = '<'.repeat(9e7); String.prototype.slice = function () { return big }; const e = new Error('x'); e.name = 'N'.repeat(200); throw e`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, tc.code, nil)
			if res.OK {
				t.Fatalf("ok: %s", res.Result)
			}
			e := res.Error
			if runeLen(e.Name) > wantNameBound || runeLen(e.Message) > wantReasonBound*4 || runeLen(e.Stack) > wantReasonBound*4 {
				t.Errorf("error not bounded: name %d, message %d, stack %d chars", runeLen(e.Name), runeLen(e.Message), runeLen(e.Stack))
			}
			for _, l := range res.Logs {
				if runeLen(l.Message) > defaultMaxResultChars+200 {
					t.Errorf("log of %d chars", runeLen(l.Message))
				}
			}
			for _, c := range res.ToolCalls {
				if runeLen(c.Name) > wantNameBound || runeLen(c.Reason) > wantReasonBound {
					t.Errorf("record not bounded: name %d, reason %d chars", runeLen(c.Name), runeLen(c.Reason))
				}
			}
			if b, _ := json.Marshal(res); len(b) > 4*defaultMaxResultChars+10000 {
				t.Errorf("the result is %d bytes of JSON", len(b))
			}
			if res := exec(t, s, "return 1", nil); !res.OK {
				t.Errorf("the next run failed: %+v", res.Error)
			}
		})
	}
}

// TestHostileHugeWarningPaths: a conversion's warning names the path of the
// value it changed, and the keys on it are the program's. Unbounded, a
// 90 MB key killed the engine in GOOS=js (the result's JSON passed V8's
// longest string).
func TestHostileHugeWarningPaths(t *testing.T) {
	// The timeout is only a safety net here: the last row's 999 calls took
	// 23 of the default 30 s on a loaded machine, and nothing here is
	// about time.
	_, s := newHostile(t, Config{MemoryLimitMB: 512, Timeout: 5 * time.Minute}, echoTool("t.echo", nil))
	for _, tc := range []struct{ name, code string }{
		{"a function under a huge key", `return { ['<'.repeat(5e6)]: () => 1 }`},
		{"undefined under huge keys, nested", `return { ['<'.repeat(2e6)]: { ['>'.repeat(2e6)]: [undefined] } }`},
		{"a BigInt in a huge Map key's value", `return new Map([['<'.repeat(5e6), 1n]])`},
		{"a tool input's function under a huge key", `await tools.t.echo({ ['<'.repeat(5e6)]: () => 1 }); return 1`},
		{"a last-expression promise's value", `Promise.resolve({ ['<'.repeat(5e6)]: Symbol() })`},
		// 999 calls, each input with 25 converted values under 3,000-char keys.
		{"many tool inputs' warnings", `const k = '<'.repeat(3000), o = {}; for (let i = 0; i < 25; i++) o[k + i] = 5n; for (let i = 0; i < 999; i++) await tools.t.echo(o); return 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, tc.code, nil)
			if !res.OK {
				t.Fatalf("failed: %+v", res.Error)
			}
			warned, total := false, 0
			if len(res.Logs) > maxLogEntries+1 {
				t.Errorf("%d log entries", len(res.Logs))
			}
			for _, l := range res.Logs {
				if runeLen(l.Message) > maxLogEntryChars {
					t.Errorf("a log of %d chars", runeLen(l.Message))
				}
				total += len(l.Message)
				warned = warned || l.Level == "warn"
			}
			if !warned {
				t.Errorf("no warning: %+v", res.Logs)
			}
			// The logs' budget and the warnings' (half the result's each).
			if total > defaultMaxResultChars+200 {
				t.Errorf("the logs hold %d bytes", total)
			}
		})
	}
}

// Item 1 and 5: what a tool or an interceptor says is bounded too.
func TestHostileHugeReasons(t *testing.T) {
	huge := strings.Repeat("<", 5<<20)
	_, s := newHostile(t, Config{OnToolCall: func(ctx context.Context, c ToolCall) (Decision, error) {
		switch c.Tool.Name {
		case "t.denied":
			return Decision{Reason: huge}, nil
		case "t.interceptorFails":
			return Decision{}, errors.New(huge)
		}
		return Decision{Allowed: true}, nil
	}},
		Tool{Name: "t.fails", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			return nil, errors.New(huge)
		}},
		echoTool("t.denied", nil), echoTool("t.interceptorFails", nil))
	for _, name := range []string{"t.fails", "t.denied", "t.interceptorFails"} {
		t.Run(name, func(t *testing.T) {
			res := exec(t, s, fmt.Sprintf(`try { await tool_call(%q, {}) } catch (e) { return e.message.length }`, name), nil)
			if !res.OK || len(res.ToolCalls) != 1 {
				t.Fatalf("%+v %s %+v", res.Error, res.Result, res.ToolCalls)
			}
			if n := runeLen(res.ToolCalls[0].Reason); n > wantReasonBound || n == 0 {
				t.Errorf("toolCalls[0].reason has %d chars", n)
			}
			var seen int
			json.Unmarshal(res.Result, &seen)
			if seen > wantReasonBound || seen == 0 {
				t.Errorf("the sandbox saw a message of %d chars", seen)
			}
		})
	}
}

// Item 2: a replacement input that is not JSON denies the call.
func TestHostileRewriteNotJSON(t *testing.T) {
	for _, input := range []string{`{not json`, `1 2`, `{"a":1}}`, "\x00", ` `} {
		t.Run(fmt.Sprintf("%q", input), func(t *testing.T) {
			p := newProbe()
			_, s := newHostile(t, Config{OnToolCall: func(ctx context.Context, c ToolCall) (Decision, error) {
				return Decision{Allowed: true, Input: json.RawMessage(input)}, nil
			}}, echoTool("pay.send", p))
			res := exec(t, s, `try { await tools.pay.send({ to: 'attacker' }); return 'ran' } catch (e) { return e.message }`, nil)
			if len(p.starts) != 0 {
				t.Errorf("the tool ran: %v", p.starts)
			}
			if !res.OK || strings.Contains(string(res.Result), "ran") || len(res.ToolCalls) != 1 || res.ToolCalls[0].Allowed {
				t.Errorf("got %s %+v %+v", res.Result, res.Error, res.ToolCalls)
			}
			if !strings.Contains(res.ToolCalls[0].Reason, "JSON") {
				t.Errorf("reason %q does not say the replacement input is not JSON", res.ToolCalls[0].Reason)
			}
		})
	}
}

// Item 3: once a run has ended, no tool and no interceptor of that run
// starts, however the run ended.
func TestHostileNothingStartsAfterTheEnd(t *testing.T) {
	cause := errors.New("the user pressed stop")
	for _, tc := range []struct {
		name    string
		code    string
		timeout time.Duration
		cancel  time.Duration // cancel the caller's context after this, if > 0
	}{
		{"timeout while the interceptor decides", `await tools.pay.send({})`, 200 * time.Millisecond, 0},
		{"abort while the interceptor decides", `await tools.pay.send({})`, 0, 100 * time.Millisecond},
		{"un-awaited call, result", `tools.pay.send({}); return 1`, 0, 0},
		{"un-awaited calls, result", `for (let i = 0; i < 20; i++) tools.pay.send({i}); return 1`, 0, 0},
		{"un-awaited call, error", `tools.pay.send({}); throw new Error('bye')`, 0, 0},
		{"un-awaited call, syntax of result", `tools.pay.send({}); return () => 1`, 0, 0},
		{"call from a promise job after the end", `Promise.resolve().then(() => tools.pay.send({})); return 1`, 0, 0},
		{"busy loop then timeout", `tools.pay.send({}); for (;;) {}`, 200 * time.Millisecond, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProbe()
			_, s := newHostile(t, Config{Timeout: tc.timeout, OnToolCall: slowInterceptor(p, 400*time.Millisecond)}, echoTool("pay.send", p))
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			if tc.cancel > 0 {
				time.AfterFunc(tc.cancel, func() { cancel(cause) })
			}
			res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: tc.code}, nil)
			p.end()
			if tc.cancel > 0 {
				if !errors.Is(err, cause) {
					t.Errorf("err = %v, want the caller's cause", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			// An interceptor let start while the run was live may reach
			// its first statement just after ExecuteCode returned (no lock
			// orders a callee's first statement; CI saw it once under
			// load): its record then says it was in flight. One the run
			// let start after its end would be recorded "not started".
			if late := p.lateStarts(600 * time.Millisecond); len(late) > inFlightAtEnd(res) {
				t.Errorf("started after the run ended: %v, of which %d were let start before the end (result %+v)", late, inFlightAtEnd(res), res)
			}
			p.waitReturned("interceptor")
			p.mu.Lock()
			defer p.mu.Unlock()
			for _, s := range p.starts {
				if strings.HasPrefix(s, "tool") {
					t.Errorf("the tool ran although its approval came after the run ended: %v", p.starts)
				}
			}
			if len(p.ctxDone) != countPrefix(p.starts, "interceptor") {
				t.Errorf("interceptors whose context was not done when the run ended: started %v, done %v", p.starts, p.ctxDone)
			}
		})
	}
}

// Item 3: a tool approved after the run's timeout does not start, though
// the run's thread has not noticed the timeout yet. A console observer,
// which the run's thread waits for, holds it past the deadline until the
// interceptor has answered; a loaded machine can hold a busy loop's thread
// off the CPU as long. The run waits for an observer at most Timeout from
// the console line (WithConsole), so the program logs late, 3 s into its
// 4: the wait then outlasts the deadline by 3 s, the observer's hold by
// about as much.
func TestHostileNothingStartsAfterTheTimeout(t *testing.T) {
	const timeout = 4 * time.Second
	p := newProbe()
	asked, release, answered := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var askedAt time.Time // written before asked is closed
	wait := func(c chan struct{}) {
		select {
		case <-c:
		case <-time.After(time.Minute):
			t.Error("waited a minute")
		}
	}
	_, s := newHostile(t, Config{Timeout: timeout, OnToolCall: func(ctx context.Context, c ToolCall) (Decision, error) {
		p.start("interceptor " + c.Tool.Name)
		askedAt = time.Now()
		close(asked)
		wait(release)
		defer close(answered)
		return Decision{Allowed: true}, nil
	}}, echoTool("pay.send", p))
	held := false
	ctx := WithConsole(context.Background(), func(LogEntry) {
		if held {
			return
		}
		held = true
		wait(asked)
		time.Sleep(time.Until(askedAt.Add(timeout))) // the run started before it asked
		close(release)
		wait(answered)
		// Time for the tool to start on this approval, if it were let.
		time.Sleep(300 * time.Millisecond)
	})
	res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: `tools.pay.send({}); const t0 = Date.now(); while (Date.now() - t0 < 3000) {} console.log('held'); return 1`}, nil)
	p.end()
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || res.Error.Code != "TIMEOUT" {
		t.Errorf("want TIMEOUT: %s %+v", res.Result, res.Error)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if fmt.Sprint(p.starts) != "[interceptor pay.send]" {
		t.Errorf("started: %v, want the interceptor only", p.starts)
	}
	if len(res.ToolCalls) != 1 || res.ToolCalls[0].Allowed || res.ToolCalls[0].Reason != "not started: the run had ended" {
		t.Errorf("the call's record: %+v", res.ToolCalls)
	}
}

// inFlightAtEnd counts the calls of res whose record says a stage of
// theirs was let start before the run ended.
func inFlightAtEnd(res *ExecuteResult) int {
	n := 0
	if res != nil {
		for _, c := range res.ToolCalls {
			if strings.HasPrefix(c.Reason, "not finished: ") {
				n++
			}
		}
	}
	return n
}

func countName(calls []ToolCallRecord, name string) int {
	n := 0
	for _, c := range calls {
		if c.Name == name {
			n++
		}
	}
	return n
}

func countPrefix(list []string, prefix string) int {
	n := 0
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}

// Item 3: every call in flight when the run ends gets a done context, whose
// cause is the caller's reason when the caller aborted.
func TestHostileInFlightCallsAbort(t *testing.T) {
	cause := errors.New("the user pressed stop")
	for _, tc := range []struct {
		name      string
		code      string
		timeout   time.Duration
		cancel    bool
		wantCause error
	}{
		{"caller aborts", `await tools.slow.wait({})`, 0, true, cause},
		// The timeout leaves the call time to reach its tool on a loaded
		// machine: 200 ms did not always (the tool never started).
		{"timeout", `await tools.slow.wait({})`, time.Second, false, nil},
		{"run returns", `tools.slow.wait({}); await tools.t.wait({}); return 1`, 0, false, nil},
		{"run throws", `tools.slow.wait({}); await tools.t.wait({}); throw new Error('x')`, 0, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			started := make(chan struct{}, 1)
			got := make(chan error, 1)
			// t.wait returns once slow.wait is running.
			wait := Tool{Name: "t.wait", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
				<-started
				return nil, nil
			}}
			_, s := newHostile(t, Config{Timeout: tc.timeout}, wait, Tool{Name: "slow.wait", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
				started <- struct{}{}
				select {
				case <-ctx.Done():
					got <- context.Cause(ctx)
				case <-time.After(10 * time.Second):
					got <- nil
				}
				return json.RawMessage(`1`), nil
			}})
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			if tc.cancel {
				go func() { <-started; cancel(cause) }()
			}
			res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: tc.code}, nil)
			if tc.cancel != (err != nil) {
				t.Fatalf("err = %v, res %+v", err, res)
			}
			var c error
			select {
			case c = <-got:
			case <-time.After(10 * time.Second):
			}
			if c == nil {
				t.Fatal("the tool's context was never done")
			}
			if tc.wantCause != nil && !errors.Is(c, tc.wantCause) {
				t.Errorf("cause = %v, want %v", c, tc.wantCause)
			}
			if res != nil && countName(res.ToolCalls, "slow.wait") != 1 {
				t.Errorf("toolCalls = %+v", res.ToolCalls)
			}
		})
	}
}

// Item 4: toolCalls holds every call that reached the pipeline, with its
// outcome, however the run ended.
func TestHostileEveryCallRecorded(t *testing.T) {
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	for _, tc := range []struct {
		name    string
		code    string
		timeout time.Duration
		want    int
		wantOK  int
	}{
		{"un-awaited fast call", `tools.t.echo({}); return 1`, 0, 1, -1},
		{"un-awaited calls", `for (let i = 0; i < 5; i++) tools.t.echo({i}); return 1`, 0, 5, -1},
		{"awaited then un-awaited", `await tools.t.echo({}); tools.t.echo({}); return 1`, 0, 2, -1},
		// The timeout leaves t.echo time to start and return on a loaded
		// machine (300 ms is tight there): one started after it is not ok.
		{"in flight at the timeout", `await Promise.all([tools.t.block({}), tools.t.block({}), tools.t.echo({})])`, time.Second, 3, 1},
		{"in flight when the run throws", `tools.t.block({}); await tools.t.echo({}); throw new Error('x')`, 0, 2, 1},
		{"unknown tool un-awaited", `tool_call('nope', {}).catch(() => {}); return 1`, 0, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, s := newHostile(t, Config{Timeout: tc.timeout}, echoTool("t.echo", nil), Tool{Name: "t.block", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
				<-block
				return nil, nil
			}})
			res := exec(t, s, tc.code, nil)
			if len(res.ToolCalls) != tc.want {
				t.Fatalf("toolCalls = %+v, want %d records", res.ToolCalls, tc.want)
			}
			ok := 0
			for _, c := range res.ToolCalls {
				if c.OK {
					ok++
				} else if c.Reason == "" {
					t.Errorf("a failed call without a reason: %+v", c)
				}
			}
			if tc.wantOK >= 0 && ok != tc.wantOK {
				t.Errorf("%d calls ok, want %d: %+v", ok, tc.wantOK, res.ToolCalls)
			}
		})
	}
}

// Item 5: calls to tools that never settle do not hold the run, and calls
// to unknown tools count against MaxToolCalls.
func TestHostileUnboundedResources(t *testing.T) {
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	hang := Tool{Name: "t.hang", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
		<-block // ignores its context, as a careless tool does
		return nil, nil
	}}
	_, s := newHostile(t, Config{Timeout: 2 * time.Second, MaxToolCalls: 2000}, hang)
	res := exec(t, s, `for (let i = 0; i < 1000; i++) tools.t.hang({}); return 1`, nil)
	if !res.OK || len(res.ToolCalls) != 1000 {
		t.Errorf("un-awaited never-settling calls: %+v, %d records", res.Error, len(res.ToolCalls))
	}
	res = exec(t, s, `await tools.t.hang({})`, nil)
	if res.OK || res.Error.Code != "TIMEOUT" {
		t.Errorf("awaiting a never-settling tool: %+v", res.Error)
	}

	_, s = newHostile(t, Config{MaxToolCalls: 5}, echoTool("t.echo", nil))
	for _, code := range []string{
		`for (let i = 0; i < 100; i++) { try { await tool_call('nope' + i, {}) } catch (e) {} } return 'survived'`,
		`for (let i = 0; i < 100; i++) tool_call('nope' + i, {}).catch(() => {}); return 'survived'`,
	} {
		res := exec(t, s, code, nil)
		if res.OK || res.Error.Code != ErrorCodeToolLimit || len(res.ToolCalls) > 6 {
			t.Errorf("%s: %s %+v, %d records", code, res.Result, res.Error, len(res.ToolCalls))
		}
	}
}

// Item 6: the outcome names what really ended the run.
func TestHostileOutcomes(t *testing.T) {
	_, short := newHostile(t, Config{Timeout: 500 * time.Millisecond, MemoryLimitMB: 32}, echoTool("t.echo", nil))
	_, long := newHostile(t, Config{Timeout: time.Minute, MemoryLimitMB: 32}, echoTool("t.echo", nil))
	deep := `let d = []; for (let i = 0; i < 1e5; i++) d = [d];`
	for _, tc := range []struct{ name, code, want string }{
		{"timeout in a job after return", `Promise.resolve().then(() => { for (;;) {} }); return 1`, "TIMEOUT"},
		{"timeout in a job while awaiting", `await new Promise(r => { Promise.resolve().then(() => { for (;;) {} }) })`, "TIMEOUT"},
		{"timeout in an endless job chain", `const f = () => { Promise.resolve().then(f) }; f(); return 1`, "TIMEOUT"},
		// Each promise resolved with the next, still pending: the chain
		// holds ever more memory (32 MB in 0.4 s, once QuickJS counted
		// real sizes; before, the 80 MiB cap came after the timeout).
		{"memory in an endless chain of promises", `const f = () => Promise.resolve().then(f); f(); return 1`, "MEMORY_LIMIT"},
		{"timeout after an await", `await null; for (;;) {}`, "TIMEOUT"},
		// A documented rule: with no host call pending, nothing can settle
		// the promise, so the run fails at once instead of at its timeout.
		{"awaiting nothing", `await new Promise(() => {})`, "RUNTIME"},
		{"memory in a job", `await null; const a = []; for (;;) a.push('x'.repeat(1e4) + a.length)`, "MEMORY_LIMIT"},
		{"memory in a job, observed", `await Promise.resolve().then(() => { const a = []; for (;;) a.push('x'.repeat(1e4) + a.length) }); return 1`, "MEMORY_LIMIT"},
		// QuickJS throws null when it cannot allocate the error either, and
		// loses a job it cannot allocate (its promise never settles).
		{"memory, null thrown", `for (;;) Promise.resolve().then(() => {})`, "MEMORY_LIMIT"},
		{"memory in a job, null thrown", `await null; for (;;) Promise.resolve().then(() => {})`, "MEMORY_LIMIT"},
		{"memory, a job lost", `const a = []; const f = () => { a.push({}); return Promise.resolve().then(f) }; await f()`, "MEMORY_LIMIT"},
		{"throw null is the program's", `const a = []; for (let i = 0; i < 1e5; i++) a.push({}); throw null`, "RUNTIME"},
		{"timeout in a result getter", `return { get x() { for (;;) {} } }`, "TIMEOUT"},
		{"timeout in toJSON", `return { toJSON() { for (;;) {} } }`, "TIMEOUT"},
		{"deep result", deep + ` return d`, "RESULT_NOT_SERIALIZABLE"},
		{"deep error thrown", deep + ` throw d`, "RUNTIME"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := long
			if tc.want == "TIMEOUT" {
				s = short
			}
			res := exec(t, s, tc.code, nil)
			if res.OK || res.Error.Code != tc.want {
				t.Errorf("got ok=%v %s %+v, want %s", res.OK, res.Result, res.Error, tc.want)
			} else if strings.Contains(res.Error.Message, "crash") || strings.Contains(res.Error.Message, "trap") {
				t.Errorf("the instance crashed: %+v", res.Error)
			}
			if res := exec(t, s, "return 1", nil); !res.OK {
				t.Errorf("the next run failed: %+v", res.Error)
			}
		})
	}
	// A documented rule: a job that fails (even out of memory) and that
	// nobody observes does not fail the run; the instance is not reused.
	res := exec(t, long, `Promise.resolve().then(() => { const a = []; for (;;) a.push('x'.repeat(1e4) + a.length) }); return 1`, nil)
	if !res.OK {
		t.Errorf("unobserved job out of memory: %+v", res.Error)
	}
	deepRes := exec(t, long, `let d = []; for (let i = 0; i < 1e5; i++) d = [d]; return d`, nil)
	if deepRes.OK || deepRes.Error.Code != "RESULT_NOT_SERIALIZABLE" {
		t.Errorf("the run after an unobserved out of memory: %+v", deepRes.Error)
	}
}

// Item 6: deep nesting is a catchable RangeError inside the program
// (QuickJS names its stack overflow InternalError, which the prelude makes a
// kind of RangeError, as V8's is).
func TestHostileDeepNestingCatchable(t *testing.T) {
	_, s := newHostile(t, Config{Timeout: time.Minute}, echoTool("t.echo", nil))
	deep := `let d = []; for (let i = 0; i < 1e5; i++) d = [d];`
	for _, tc := range []struct{ name, code string }{
		{"JSON.parse", `JSON.parse('['.repeat(1e5) + ']'.repeat(1e5))`},
		{"JSON.parse objects", `JSON.parse('{"a":'.repeat(1e5) + '1' + '}'.repeat(1e5))`},
		{"JSON.stringify", deep + ` JSON.stringify(d)`},
		{"tool input", deep + ` await tools.t.echo(d)`},
		{"recursion", `function f(n) { return f(n + 1) + 1 } f(0)`},
		{"String of deep array", deep + ` String(d)`},
		// The engine refuses nesting past 1,000 levels in both builds (V8's
		// stack would overflow before QuickJS's check past ~5,000).
		{"JSON.stringify past 1,000 levels", `let d = []; for (let i = 0; i < 1001; i++) d = [d]; JSON.stringify(d)`},
		{"JSON.stringify with a replacer past 1,000 levels", `let d = {}; for (let i = 0; i < 1001; i++) d = {d}; JSON.stringify(d, (k, v) => v, 1)`},
		{"tool input past 1,000 levels", `let d = []; for (let i = 0; i < 1001; i++) d = [d]; await tools.t.echo({d})`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, `try { `+tc.code+`; return 'no error' } catch (e) { return [e instanceof RangeError, e.name, e.message] }`, nil)
			if !res.OK {
				t.Fatalf("not catchable: %+v", res.Error)
			}
			var got []any
			json.Unmarshal(res.Result, &got)
			if len(got) != 3 || got[0] != true || (got[1] != "RangeError" && got[1] != "InternalError") {
				t.Errorf("caught %s", res.Result)
			}
			if res := exec(t, s, "return 1", nil); !res.OK {
				t.Errorf("the next run failed: %+v", res.Error)
			}
		})
	}
	res := exec(t, s, `let d = []; for (let i = 0; i < 998; i++) d = [d]; return [JSON.stringify({d}).length, JSON.stringify(await tools.t.echo({d})).length]`, nil)
	if !res.OK || string(res.Result) != `[2004,2004]` {
		t.Errorf("1,000 levels: %s %+v", res.Result, res.Error)
	}
}

// A thrown object JSON cannot write was "[object Object]" with no word of
// why (hostile13): the message now says what stopped its JSON.
func TestHostileThrownObjectNotJSON(t *testing.T) {
	_, s := newHostile(t, Config{})
	for _, tc := range []struct{ name, code, want string }{
		{"nested past 1,000 levels", `let o = 1; for (let i = 0; i < 1e5; i++) o = {a: o}; throw o`,
			"a non-Error value was thrown: [object Object] (not shown as JSON: JSON.stringify: the value nests more than 1,000 levels deep)"},
		{"a cycle", `const o = {}; o.self = o; throw o`, "a non-Error value was thrown: [object Object] (not shown as JSON: circular reference)"},
		{"JSON as before", `throw {a: [1]}`, `a non-Error value was thrown: {"a":[1]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, tc.code, nil)
			if res.OK || res.Error.Code != "RUNTIME" || res.Error.Message != tc.want {
				t.Errorf("got %+v, want RUNTIME %q", res.Error, tc.want)
			}
		})
	}
}

// The depth check before JSON.parse must not cost memory of its own: it
// ran regular expressions over the text, and QuickJS's regexp engine keeps
// a backtracking state per character of a match, so one string of ~3 MB
// (a file's content returned by a tool) ended the run with "out of memory
// in regexp execution" under the default 128 MB limit, a 1 MB one under
// 16 MB. The texts here are deep only where the row says so.
func TestHostileLongJSONText(t *testing.T) {
	bigTool := Tool{Name: "t.big", Execute: func(_ context.Context, in json.RawMessage, _ Call) (json.RawMessage, error) {
		var n struct{ N int }
		json.Unmarshal(in, &n)
		b, _ := json.Marshal(map[string]any{"text": strings.Repeat("x", n.N), "rows": make([]struct{}, 1200)})
		return b, nil
	}}
	for _, tc := range []struct {
		name   string
		mb     int
		code   string
		result string
	}{
		{"tool result with a 4 MB string", 0, `const r = await tools.t.big({n: 4e6}); return [r.text.length, r.rows.length]`, `[4000000,1200]`},
		{"tool result with a 1 MB string, 16 MB limit", 16, `const r = await tools.t.big({n: 1e6}); return [r.text.length, r.rows.length]`, `[1000000,1200]`},
		{"JSON.parse of a 4 MB string", 0, `return JSON.parse(JSON.stringify('x'.repeat(4e6))).length`, `4000000`},
		{"JSON.parse of a 4 MB string among 2,000 brackets", 0, `return JSON.parse(JSON.stringify(['x'.repeat(4e6), ...Array(1000).fill([])])).length`, `1001`},
		{"brackets inside strings do not count", 0, `return JSON.parse(JSON.stringify(['['.repeat(5000), '\\"' + '{'.repeat(2000)])).length`, `2`},
		{"an escaped backslash ends its string", 0, `try { JSON.parse('["\\\\", ' + '['.repeat(1001) + ']'.repeat(1001) + ']'); return 'parsed' } catch (e) { return e.message }`, `"JSON.parse: the text nests more than 1,000 levels deep"`},
		{"a string of JSON text is one string", 0, `return JSON.parse(JSON.stringify(JSON.stringify(Array(1500).fill([[1]])))).length`, `9001`},
		{"a string, then brackets, is a syntax error", 0, `try { JSON.parse(' \n"a"' + '['.repeat(6000)); return 'parsed' } catch (e) { return e.name }`, `"SyntaxError"`},
		{"white space before deep brackets", 0, `try { JSON.parse(' \r\n\t' + '['.repeat(1001) + ']'.repeat(1001)); return 'parsed' } catch (e) { return e.message }`, `"JSON.parse: the text nests more than 1,000 levels deep"`},
		{"an escaped quote does not", 0, `return JSON.parse('["\\"' + '['.repeat(1001) + '"]').length`, `1`},
		{"2,000 records as text, counted by the host", 0, `return JSON.parse(JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, tags: ["[", '{"', "\\", String(i)] })))).length`, `2000`},
		{"a deep text among 2,000 records", 0, `try { JSON.parse(JSON.stringify(Array(2000).fill({ a: [1] })).slice(0, -1) + ',' + '['.repeat(1001) + ']'.repeat(1001) + ']'); return 'parsed' } catch (e) { return e.message }`, `"JSON.parse: the text nests more than 1,000 levels deep"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, s := newHostile(t, Config{Timeout: time.Minute, MemoryLimitMB: tc.mb}, bigTool)
			res := exec(t, s, tc.code, nil)
			if !res.OK || string(res.Result) != tc.result {
				t.Errorf("got %s %+v, want %s", res.Result, res.Error, tc.result)
			}
		})
	}
}

// Item 6: a memory limit that cannot work is rejected by the config, naming
// the field; one that is accepted works.
func TestHostileMemoryLimitBounds(t *testing.T) {
	asset := sandboxtest.Asset(t)
	for _, mb := range []int{1, 15, 16, 17, 1016, 1017, 2048, 2049, 4096, 4097} {
		t.Run(fmt.Sprint(mb), func(t *testing.T) {
			cm, err := New(asset, Config{MemoryLimitMB: mb})
			if err != nil {
				if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "MemoryLimitMB") {
					t.Errorf("rejected with an error that does not name the field: %v", err)
				}
				return
			}
			defer cm.Close()
			s := mustSession(t, cm)
			if res := exec(t, s, "return 1", nil); !res.OK {
				t.Errorf("accepted, then the run failed: %+v", res.Error)
			}
		})
	}
}

// Item 6: a schema that refers to itself without ever reaching a value is
// rejected at registration; a recursive schema that does is fine.
func TestHostileSelfReferencingSchema(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		ok           bool
	}{
		{"root refers to itself", `{"$ref":"#"}`, false},
		{"defs cycle", `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, false},
		{"allOf itself", `{"type":"object","allOf":[{"$ref":"#"}]}`, false},
		{"tree", `{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}}}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cm := mustNew(t, Config{})
			_, err := cm.RegisterTools(Tool{Name: "t.tree", InputSchema: json.RawMessage(tc.schema), Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
				return json.RawMessage(`"ran"`), nil
			}})
			if !tc.ok {
				if !errors.Is(err, ErrInvalidTool) || !strings.Contains(err.Error(), "refers to itself") {
					t.Errorf("accepted, or rejected without saying why: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := mustSession(t, cm)
			res := exec(t, s, `return await tools.t.tree({name: 'a', children: [{name: 'b', children: []}]})`, nil)
			if !res.OK || string(res.Result) != `"ran"` {
				t.Errorf("a recursive schema fails its calls: %+v", res.Error)
			}
		})
	}
}

// Issue 14 item 4 (the Go side): closing a session or the factory stops the
// runs it owns. Their ExecuteCode returns ErrClosed, the tools' contexts
// are done, and no tool or interceptor starts afterwards.
func TestHostileCloseStopsRuns(t *testing.T) {
	for _, tc := range []struct {
		name    string
		code    string
		factory bool
	}{
		{"session, awaiting a tool", `for (;;) { try { await tools.t.slow({}) } catch (e) {} }`, false},
		{"factory, awaiting a tool", `for (;;) { try { await tools.t.slow({}) } catch (e) {} }`, true},
		{"session, busy loop", `tools.t.slow({}); for (;;) {}`, false},
		{"factory, busy loop", `tools.t.slow({}); for (;;) {}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProbe()
			started := make(chan struct{}, 100)
			cm, s := newHostile(t, Config{Timeout: time.Minute}, Tool{Name: "t.slow", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
				p.start("tool")
				started <- struct{}{}
				select {
				case <-ctx.Done():
				case <-time.After(time.Minute):
				}
				p.doneCtx("tool", ctx)
				return nil, ctx.Err()
			}})
			other := mustSession(t, cm)
			errc := make(chan error, 1)
			go func() {
				_, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: tc.code}, nil)
				errc <- err
			}()
			<-started
			time.Sleep(50 * time.Millisecond)
			if tc.factory {
				cm.Close()
			} else {
				s.Close()
			}
			select {
			case err := <-errc:
				if !errors.Is(err, ErrClosed) {
					t.Errorf("err = %v, want ErrClosed", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the run did not stop")
			}
			p.end()
			if late := p.lateStarts(300 * time.Millisecond); len(late) > 0 {
				t.Errorf("started after close: %v", late)
			}
			p.waitReturned("tool")
			p.mu.Lock()
			if len(p.ctxDone) != len(p.starts) {
				t.Errorf("tool contexts not done: %d of %d", len(p.ctxDone), len(p.starts))
			}
			p.mu.Unlock()
			if !tc.factory {
				if res := exec(t, other, "return 1", nil); !res.OK {
					t.Errorf("another session's run failed: %+v", res.Error)
				}
			}
		})
	}
}

// TestHostileToolInputsHeld: each call's input is a copy of its own on the
// host, whatever the program shares between calls. 20 calls in parallel
// with one 40 MB string took a Node host to 2.8 GB from a run of 128 MB,
// and 25 calls one after the other to 2.2 GB (every record kept its
// input until the run ended). The inputs of the calls in flight are
// bounded by the run's memory limit; a call's input is let go when it
// returns. With an interceptor each input counts twice: the interceptor
// gets a copy of its own (ToolCall.Input), which the bound did not count
// (five calls of 6 MB were let through at 32 MB, 60 MB held).
func TestHostileToolInputsHeld(t *testing.T) {
	hold := Tool{Name: "t.hold", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	size := Tool{Name: "t.size", Execute: func(_ context.Context, in json.RawMessage, _ Call) (json.RawMessage, error) {
		return json.Marshal(len(in))
	}}
	allow := func(context.Context, ToolCall) (Decision, error) { return Decision{Allowed: true}, nil }
	for _, tc := range []struct {
		name        string
		interceptor Interceptor
		// fit is how many 6 MB inputs the 32 MB limit holds in flight.
		fit     int
		counted string // what the refusal says of the input
	}{
		{"no interceptor", nil, 5, "(6000008 bytes of JSON)"},
		{"an interceptor", allow, 2, "(6000008 bytes of JSON, counted twice: the interceptor gets a copy)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The held calls end with the first run, when its refused
			// calls have settled; the timeout only bounds a regression that
			// lets them through. The second run's twelve 6 MB calls took
			// more than 20 s at load 20 on 2 cores.
			_, s := newHostile(t, Config{MemoryLimitMB: 32, Timeout: 3 * time.Minute, OnToolCall: tc.interceptor}, hold, size)
			res := exec(t, s, fmt.Sprintf(`const s = "x".repeat(6e6), held = [];
				for (let i = 0; i < 8; i++) held.push(tools.t.hold({ s }));
				const refused = await Promise.allSettled(held.slice(%d));
				return refused.map((r) => r.status + " " + r.reason.name + " " + (r.reason instanceof RangeError) + " " + /pass the run's memory limit \(32 MB\)/.test(r.reason.message) + " " + r.reason.message.includes(%q))`, tc.fit, tc.counted), nil)
			want := "[" + strings.TrimSuffix(strings.Repeat(`"rejected RangeError true true true",`, 8-tc.fit), ",") + "]"
			if !res.OK || string(res.Result) != want {
				t.Fatalf("in parallel: got %s %+v, want %s", res.Result, res.Error, want)
			}
			refused := 0
			for _, c := range res.ToolCalls {
				if strings.HasPrefix(c.Reason, "input too large") {
					refused++
				}
			}
			if refused != 8-tc.fit {
				t.Errorf("%d records say the input was too large, want %d: %+v", refused, 8-tc.fit, res.ToolCalls)
			}
			// One after the other, twice the limit in all.
			res = exec(t, s, `const s = "x".repeat(6e6); let n = 0; for (let i = 0; i < 12; i++) n += await tools.t.size({ s }); return n`, nil)
			if !res.OK || string(res.Result) != "72000096" {
				t.Errorf("one after the other: got %s %+v", res.Result, res.Error)
			}
		})
	}
}
