//go:build !js

package sandbox_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/interopio/code-mode/sandbox"
)

// Native benchmarks of the engine on wazero; `make bench` compares the
// GOOS=js build with quickjs-emscripten.
func BenchmarkRun(b *testing.B) {
	e := mustEngine(b, sandbox.Config{})
	echo := map[string]sandbox.Func{"echo": {Async: func(_ context.Context, a []json.RawMessage) (json.RawMessage, error) { return a[0], nil }}}
	for _, bc := range []struct {
		name string
		p    sandbox.Program
	}{
		{"warm", sandbox.Program{Code: "return 1+1"}},
		{"expr", sandbox.Program{Code: "1+1"}},
		{"hostcall", sandbox.Program{Code: "return await echo(1)", Funcs: echo}},
		{"fib25", sandbox.Program{Code: "function fib(n) { return n < 2 ? n : fib(n-1) + fib(n-2) } return fib(25)"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				res, err := e.Run(context.Background(), bc.p)
				if err != nil || res.Error != nil {
					b.Fatal(err, res.Error)
				}
			}
		})
	}
}
