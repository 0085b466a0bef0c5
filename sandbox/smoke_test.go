package sandbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

func TestSmoke(t *testing.T) {
	e, err := sandbox.NewEngine(sandboxtest.Asset(t), sandbox.Config{})
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]sandbox.Func{
		"echo": {Async: func(ctx context.Context, a []json.RawMessage) (json.RawMessage, error) { return a[0], nil }},
		"fail": {Async: func(ctx context.Context, a []json.RawMessage) (json.RawMessage, error) { return nil, fmt.Errorf("nope") }},
		"never": {Async: func(ctx context.Context, a []json.RawMessage) (json.RawMessage, error) { <-ctx.Done(); return nil, ctx.Err() }},
	}
	for _, code := range []string{"1+1", "return 1+1", "await 5; 7", "return await echo({a:[1,2]})", "x = await echo(3); x*2", "foo(", "\n\nnull.x", "return (await Promise.all([1,2,3].map(i => echo(i)))).reduce((a,b)=>a+b)",
		"try { await fail() } catch (e) { return e.message }", "await fail()", "return new Date(0)", "let a = {}; a.a = a; return a", "while(true){}", "await never()", "await new Promise(()=>{})", "function f(){return f()+1}; f()", "let a=[]; while(true) a.push('x'.repeat(1000)+a.length)", "fail(); return 1", "return 10n**30n", "return -0", "return '\\ud800'"} {
		start := time.Now()
		res, err := e.Run(context.Background(), sandbox.Program{Code: code, Funcs: funcs, Timeout: 500 * time.Millisecond})
		if err != nil {
			t.Fatal(code, err)
		}
		b, _ := json.Marshal(res)
		t.Logf("%-50q %v %s", code, time.Since(start).Round(time.Millisecond), b)
	}
}
