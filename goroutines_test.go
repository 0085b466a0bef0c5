package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestGoroutinesAfterClose: a CodeMode closed after runs that finished
// (one with a WithConsole observer), were cancelled in a tool call, or
// left a call pending, and while its embedder was still embedding the
// registered tools, leaves no goroutine behind, and calls Embed no more. The registration-time embedding ran on
// a context of its own for up to a minute after Close (and went on to its
// next batch), calling the host's embedder after the host closed it.
func TestGoroutinesAfterClose(t *testing.T) {
	base := sandboxtest.SettledGoroutines(0)
	var embedCalls atomic.Int32
	embedding, embedEnded := make(chan struct{}, 4), make(chan error, 4)
	embed := func(ctx context.Context, texts []string) ([][]float32, error) {
		embedCalls.Add(1)
		embedding <- struct{}{}
		<-ctx.Done()
		embedEnded <- ctx.Err()
		return nil, ctx.Err()
	}
	// Two batches of embedBatch.
	tools := make([]Tool, embedBatch+1)
	for i := range tools {
		tools[i] = Tool{Name: fmt.Sprintf("t.n%d", i), Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			return json.RawMessage("1"), nil
		}}
	}
	started := make(chan struct{}, 4)
	tools = append(tools, Tool{Name: "block", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	}})
	cm, err := New(sandboxtest.Asset(t), Config{Tools: tools, Search: SearchConfig{Embed: embed, Warn: func(string) {}}})
	if err != nil {
		t.Fatal(err)
	}
	s := mustSession(t, cm)
	if res := exec(t, s, `return (await Promise.all([tools.t.n1({}), tools.t.n2({})])).length`, nil); !res.OK {
		t.Fatalf("run: %+v", res.Error)
	}
	if res := exec(t, s, `tools.block({}); return await tools.t.n3({})`, nil); !res.OK {
		t.Fatalf("run leaving a call pending: %+v", res.Error)
	}
	// A WithConsole observer's deliveries (a goroutine of the run's while
	// entries wait for it) end with the run.
	watched := WithConsole(context.Background(), func(LogEntry) {})
	if res, err := s.ExecuteCode(watched, ExecuteCodeInput{Code: `console.log(1); console.warn(2); return 3`}, nil); err != nil || !res.OK || len(res.Logs) != 2 {
		t.Fatalf("run with an observer: %v %+v", err, res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	if _, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: `return await tools.block({})`}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v, want context.Canceled", err)
	}
	<-embedding
	if err := cm.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-embedEnded; !errors.Is(err, context.Canceled) {
		t.Errorf("the registration-time Embed ended with %v, want context.Canceled by Close", err)
	}
	if n := sandboxtest.SettledGoroutines(base); n > base {
		t.Errorf("%d goroutines after Close, %d before New:\n%s", n, base, sandboxtest.GoroutineDump())
	}
	if n := embedCalls.Load(); n != 1 {
		t.Errorf("Embed called %d times, want 1 (none after Close)", n)
	}
}
