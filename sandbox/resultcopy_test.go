//go:build !js

package sandbox_test

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestLargeResultCopiedOnce: a program's result is read from QuickJS into
// the one slice the Result holds. It was read, made a string, then a
// json.RawMessage: three times the text allocated, two of them live at
// once (a 40 M-character result grew the page's Go core by 82 MB, where
// WebAssembly memory never shrinks). The instance's memory grows over the
// first two runs (QuickJS's allocator settles), so what the third
// allocates is the run's own.
func TestLargeResultCopiedOnce(t *testing.T) {
	const n = 20 << 20
	e, err := sandbox.NewEngine(sandboxtest.Asset(t), sandbox.Config{MemoryLimit: 256 << 20, MaxInstances: 1, MaxIdleInstances: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	noop := map[string]sandbox.Func{"noop": {Sync: func([]json.RawMessage) (json.RawMessage, error) { return nil, nil }}}
	for _, c := range []struct {
		what  string
		funcs map[string]sandbox.Func
	}{{"a plain program (the native JSON.stringify)", nil}, {"a program with host functions (the captured stringify)", noop}} {
		p := sandbox.Program{Code: "return 'x'.repeat(20971520)", Funcs: c.funcs}
		var before, after runtime.MemStats
		for i := range 3 {
			runtime.GC()
			runtime.ReadMemStats(&before)
			res, err := e.Run(context.Background(), p)
			runtime.ReadMemStats(&after)
			if err != nil || res.Error != nil || len(res.Value) != n+2 {
				t.Fatalf("%s: %v %v, %d bytes", c.what, err, res.Error, len(res.Value))
			}
			if grown := after.TotalAlloc - before.TotalAlloc; i == 2 && grown > n*3/2 {
				t.Errorf("%s: a result of %d bytes allocated %d bytes in Go (%.2f times)", c.what, n+2, grown, float64(grown)/n)
			}
		}
	}
}
