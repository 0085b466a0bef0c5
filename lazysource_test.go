package codemode

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSourcesARunCompiles: QuickJS compiles every source a run asks for
// that is not among sharedSources (those are compiled once per sandbox
// instance, or in every run on an instance without an image), and that is
// most of what a short run costs: api.js alone was ~0.45 ms of CPU under
// V8. A run asks only for what it uses: a tool call or a log line of
// strings builds no part of how a log line shows other values (show.js),
// which api.js held whole.
func TestSourcesARunCompiles(t *testing.T) {
	_, s := newHostile(t, Config{Timeout: 30 * time.Second}, echoTool("orders.get", nil))
	for _, tc := range []struct{ name, code, want string }{
		{"a plain program", `return 1`, ``},
		{"JSON.stringify of an object", `return JSON.stringify({ a: 1 })`, `api`},
		{"one tool call", `await tools.orders.get({ id: 1 }); return 1`, `api tools`},
		{"a log line of strings", `console.log("a", "b"); return 1`, `api console`},
		{"a tool call and a log line of strings", `const r = await tools.orders.get({ id: 1 }); console.log("got " + r.id); return 1`, `api tools console`},
		{"a log line of an object", `console.log({ a: 1 }); return 1`, `api console show`},
		{"a log line of a Map", `console.log(new Map([["a", 1]])); return 1`, `api console show convert`},
		{"a timer's uncaught error", `setTimeout(() => { throw new Error("x") }, 0); await new Promise((r) => setTimeout(r, 5)); return 1`, `api timers show`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var got []string
			ctx := context.WithValue(context.Background(), sourceSpyKey{}, func(key string) {
				mu.Lock()
				got = append(got, key)
				mu.Unlock()
			})
			res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: tc.code, Explanation: "test"}, nil)
			if err != nil || !res.OK {
				t.Fatalf("run failed: %v %+v", err, res.Error)
			}
			mu.Lock()
			defer mu.Unlock()
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("sources asked for: %q, want %q", g, tc.want)
			}
		})
	}
	// The core a tool call compiles stays small: what only some runs need
	// belongs in a source of its own, built on first use.
	if n := len(apiJS); n > 2600 {
		t.Errorf("api.js compacts to %d bytes, want at most 2,600: every run that calls a tool builds it (and compiles it, without an image)", n)
	}
}
