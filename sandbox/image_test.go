//go:build !js

package sandbox_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

// TestRunsShareNothing: an instance's runs start from the same state (its
// image, written back when each run ends): whatever a run left, however it
// ended, the next run on that instance sees nothing of it, and gets its
// own Math.random numbers. One instance, so every run uses it.
func TestRunsShareNothing(t *testing.T) {
	e := mustEngine(t, sandbox.Config{MaxInstances: 1, MaxIdleInstances: 1})
	never := map[string]sandbox.Func{"never": {Async: func(ctx context.Context, _ []json.RawMessage) (json.RawMessage, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}}
	const leave = `globalThis.left = "secret"; Array.prototype.map = () => "patched"; Object.prototype.polluted = 1;
		JSON.parse = () => "patched"; Math.random = () => 0.5; globalThis.big = "x".repeat(4e6);
		Promise.resolve().then(() => { globalThis.late = 1 });`
	const check = `return [typeof left, typeof late, typeof big, [1].map((v) => v * 2), "polluted" in {}, JSON.parse("[3]"), Math.random()]`
	for _, tc := range []struct {
		name, code string
		funcs      map[string]sandbox.Func
		timeout    time.Duration
		wantErr    sandbox.ErrorCode
	}{
		{"returned", leave + `return 1`, nil, 0, ""},
		{"threw", leave + `throw new Error("x")`, nil, 0, sandbox.CodeRuntime},
		{"timed out in a loop", leave + `for (;;) {}`, nil, 300 * time.Millisecond, sandbox.CodeTimeout},
		{"timed out awaiting a host call", leave + `await never()`, never, 300 * time.Millisecond, sandbox.CodeTimeout},
		{"left a host call pending", leave + `never(); return 1`, never, 0, ""},
		{"a syntax error", `globalThis.left = 1; }`, nil, 0, sandbox.CodeSyntax},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := e.Run(context.Background(), sandbox.Program{Code: tc.code, Funcs: tc.funcs, Timeout: tc.timeout})
			if err != nil {
				t.Fatal(err)
			}
			if got := errorCode(res); got != tc.wantErr {
				t.Fatalf("first run: error %q, want %q (%+v)", got, tc.wantErr, res.Error)
			}
			var randoms []string
			for i := 0; i < 2; i++ {
				res, err := e.Run(context.Background(), sandbox.Program{Code: check})
				if err != nil || res.Error != nil {
					t.Fatalf("check run: %v %+v", err, res.Error)
				}
				v := string(res.Value)
				const want = `["undefined","undefined","undefined",[2],false,[3],`
				if !strings.HasPrefix(v, want) || strings.HasSuffix(v, ",0.5]") {
					t.Fatalf("check run %d sees the first run: %s, want %s<a random number>]", i+1, v, want)
				}
				randoms = append(randoms, v[len(want):])
			}
			if randoms[0] == randoms[1] {
				t.Errorf("two runs got the same Math.random(): %s", randoms[0])
			}
		})
	}
}

func errorCode(res *sandbox.Result) sandbox.ErrorCode {
	if res.Error == nil {
		return ""
	}
	return res.Error.Code
}
