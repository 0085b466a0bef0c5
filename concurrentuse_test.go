package codemode_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	codemode "github.com/interopio/code-mode"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestConcurrentUse drives one CodeMode from many goroutines the way a Go
// host does, all at once: sessions with tools of their own, runs through
// ExecuteCode and through the LLM tools with WithConsole and
// WithRefusedCalls observers, a tool answering through Start from another
// goroutine, a tool calling Call.Warn after its run ended, searches with an
// embedder, RegisterTools and its unregister, Session.Close during runs,
// and CodeMode.Close with runs in flight. Each run's answer is its own,
// every error is ErrClosed, and no goroutine is left. It is the load that
// `make race` gives the race detector (no race was found under it in
// session 32): without -race it checks the answers and the leak only.
func TestConcurrentUse(t *testing.T) {
	base := sandboxtest.SettledGoroutines(0)
	var late sync.WaitGroup
	echo := func(_ context.Context, in json.RawMessage, _ codemode.Call) (json.RawMessage, error) { return in, nil }
	tools := []codemode.Tool{
		{Name: "t.echo", Description: "echo the input", Execute: echo},
		{Name: "t.late", Description: "echo, and warn after the run", Execute: func(_ context.Context, in json.RawMessage, c codemode.Call) (json.RawMessage, error) {
			late.Add(1)
			go func() { defer late.Done(); c.Warn("after the run: dropped") }()
			return in, nil
		}},
		{Name: "t.denied", Description: "refused by the interceptor", Execute: echo},
		{Name: "t.start", Description: "echo from another goroutine", Execute: echo,
			Start: func(_ context.Context, in json.RawMessage, _ codemode.Call, done func(json.RawMessage, error)) {
				go done(in, nil)
			}},
	}
	cm, err := codemode.New(sandboxtest.Asset(t), codemode.Config{
		Tools:      tools,
		ToolFilter: func(ti codemode.ToolInfo) bool { return len(ti.Annotations) == 0 || ti.Annotations["hidden"] != true },
		OnToolCall: func(_ context.Context, c codemode.ToolCall) (codemode.Decision, error) {
			return codemode.Decision{Allowed: c.Tool.Name != "t.denied"}, nil
		},
		Search: codemode.SearchConfig{Embed: func(_ context.Context, texts []string) ([][]float32, error) {
			v := make([][]float32, len(texts))
			for i, s := range texts {
				v[i] = []float32{float32(len(s)), 1}
			}
			return v, nil
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	closedOr := func(what string, err error) {
		if err != nil && !errors.Is(err, codemode.ErrClosed) {
			t.Errorf("%s: %v, want nil or ErrClosed", what, err)
		}
	}
	const code = `console.log("n", input); await tools.t.late({}); await tools.t.start({});
try { await tools.t.denied({}) } catch {}
const [a, b] = await Promise.all([tools.t.echo({n: input}), tools.own({n: input})]); return a.n + b.n`
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() { // tools come and go while runs look them up
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			un, err := cm.RegisterTools(codemode.Tool{Name: fmt.Sprintf("dyn.t%d", i%4), Annotations: map[string]any{"hidden": i%2 == 0}, Execute: echo})
			closedOr("RegisterTools", err)
			if err != nil {
				return
			}
			_ = cm.ListTools()
			un()
		}
	}()
	var runs sync.WaitGroup
	answered := make(chan struct{}, 6*3*3)
	for g := 0; g < 6; g++ {
		runs.Add(1)
		go func(g int) {
			defer runs.Done()
			for i := 0; i < 3; i++ {
				s, err := cm.NewSession(codemode.Tool{Name: "own", Execute: echo})
				closedOr("NewSession", err)
				if err != nil {
					return
				}
				ctx := codemode.WithRefusedCalls(codemode.WithConsole(context.Background(), func(codemode.LogEntry) {}), func(codemode.RefusedCall) {})
				var in sync.WaitGroup
				for k := 0; k < 3; k++ {
					in.Add(1)
					go func(k int) {
						defer in.Done()
						var err error
						n := g*100 + i*10 + k
						c := fmt.Sprintf("const input = %d;\n%s", n, code)
						var res *codemode.ExecuteResult
						if k == 0 {
							var out json.RawMessage
							out, err = s.LLMTools()[1].Execute(ctx, json.RawMessage(fmt.Sprintf(`{"code":%q}`, c)), n)
							if err == nil {
								res = new(codemode.ExecuteResult)
								err = json.Unmarshal(out, res)
							}
						} else {
							res, err = s.ExecuteCode(ctx, codemode.ExecuteCodeInput{Code: c}, n)
						}
						closedOr("run", err)
						if err == nil && (!res.OK || string(res.Result) != fmt.Sprint(2*n)) {
							t.Errorf("run %d: %s %+v, want %d", n, res.Result, res.Error, 2*n)
						} else if err == nil {
							answered <- struct{}{}
						}
						_, err = s.Search(ctx, codemode.SearchRequest{Query: "echo"})
						closedOr("Search", err)
						_ = s.SystemInstruction()
					}(k)
				}
				if i == 1 {
					s.Close() // while its runs may be in flight
				}
				in.Wait()
				s.Close()
			}
		}(g)
	}
	if _, err := cm.RegisterTools(tools[0]); !errors.Is(err, codemode.ErrDuplicateTool) {
		t.Errorf("RegisterTools of a name taken: %v, want ErrDuplicateTool", err)
	}
	s, err := cm.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	// Close once six runs have answered: the others are then in flight or
	// about to start (each goroutine's first session has three). If runs
	// fail instead, Close once all have ended (their errors are reported).
	finished := make(chan struct{})
	go func() { runs.Wait(); close(finished) }()
wait:
	for range 6 {
		select {
		case <-answered:
		case <-finished:
			break wait
		}
	}
	if err := cm.Close(); err != nil {
		t.Fatal(err)
	}
	close(stop)
	<-finished
	wg.Wait()
	late.Wait()
	if _, err := s.ExecuteCode(context.Background(), codemode.ExecuteCodeInput{Code: `1`}, nil); !errors.Is(err, codemode.ErrClosed) {
		t.Errorf("run after Close: %v, want ErrClosed", err)
	}
	if n := sandboxtest.SettledGoroutines(base); n > base {
		t.Errorf("%d goroutines after Close, %d before New:\n%s", n, base, sandboxtest.GoroutineDump())
	}
}
