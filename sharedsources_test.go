package codemode

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestSharedSourcesShareNothing: api.js, console.js and show.js are
// compiled once per sandbox instance (sharedSources) and every run builds
// its API from them: whatever a run did to what they built or read (the
// console's functions, the intrinsics they call, the JSON guards), before
// or after building them, however it ended, the next run on that instance
// gets the API as built in a fresh context. One instance, so every run
// uses it.
func TestSharedSourcesShareNothing(t *testing.T) {
	engine, err := sandbox.NewEngine(sandboxtest.Asset(t), sandbox.Config{MaxInstances: 1, MaxIdleInstances: 1})
	if err != nil {
		t.Fatal(err)
	}
	// stop.now cancels the run that calls it (cancelRun, set per row).
	var cancelRun context.CancelFunc
	stop := Tool{Name: "stop.now", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		cancelRun()
		return nil, nil
	}}
	cm, err := NewWithEngine(engine, Config{Timeout: 30 * time.Second, Tools: []Tool{echoTool("orders.get", nil), stop}})
	if err != nil {
		t.Fatal(err)
	}
	defer cm.Close()
	s := mustSession(t, cm)
	const patchIntrinsics = `Object.defineProperty = () => { throw new Error("patched defineProperty") };
String.prototype.replace = () => "patched replace"; Math.round = () => -1; Date.now = () => 0;
JSON.stringify = () => "patched"; JSON.parse = () => "patched"; Object.freeze = (o) => o;
Function.prototype.call = () => "patched"; RegExp.prototype[Symbol.replace] = () => "patched";
Object.prototype.show = () => "patched"; Object.prototype.text = "patched";
`
	const patch = `console.log.left = "x"; Object.setPrototypeOf(console.log, null);
` + patchIntrinsics
	const check = `console.log("%s and %d", "a", 2, { b: [1] }, new Map([["k", 2]]));
console.count(); console.count();
const r = await tools.orders.get({ id: 1 });
let deep;
try { JSON.parse("[".repeat(1500) + "]".repeat(1500)); } catch (e) { deep = e.name + ": " + e.message; }
return { r, s: JSON.stringify({ x: [1] }), deep, left: typeof console.log.left, proto: Object.getPrototypeOf(console.log) === Function.prototype, frozen: Object.isFrozen(console) }`
	const wantResult = `{"r":{"id":1},"s":"{\"x\":[1]}","deep":"RangeError: JSON.parse: the text nests more than 1,000 levels deep","left":"undefined","proto":true,"frozen":true}`
	const wantLogs = `log: a and 2 {"b":[1]} {"k":2} | log: default: 1 | log: default: 2`
	for _, tc := range []struct {
		name, code string
		stop       bool // stopped by its ctx (stop.now)
	}{
		{"patched after building the API", `console.log("built"); await tools.orders.get({ id: 0 }); JSON.parse("[]");` + patch + `return 1`, false},
		{"patched before building the API", patch + `try { console.log({ a: 1 }); } catch (e) {} try { await tools.orders.get({ id: 0 }); } catch (e) {} return 1`, false},
		{"threw after patching", `console.log({ a: 1 });` + patch + `throw new Error("x")`, false},
		// The program cannot finish: the cancel comes while the console
		// is being built, in the loop, or before it.
		{"stopped while building the API", `const stop = tools.stop.now;` + patchIntrinsics + `stop({}); Object.defineProperty = function () { for (;;) {} }; console.log("x")`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cancelRun = cancel
			first, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: tc.code, Explanation: "test"}, nil)
			if tc.stop != (err != nil) {
				t.Fatalf("first run: error %v (%+v), want one: %v", err, first, tc.stop)
			}
			for i := 0; i < 2; i++ {
				res, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: check, Explanation: "test"}, nil)
				if err != nil {
					t.Fatalf("check run %d: %v", i+1, err)
				}
				if !res.OK {
					t.Fatalf("check run %d failed: %+v", i+1, res.Error)
				}
				var logs []string
				for _, l := range res.Logs {
					logs = append(logs, l.Level+": "+l.Message)
				}
				if got := strings.Join(logs, " | "); got != wantLogs {
					t.Errorf("check run %d logged %q, want %q", i+1, got, wantLogs)
				}
				if got := string(res.Result); got != wantResult {
					t.Errorf("check run %d returned %s, want %s", i+1, got, wantResult)
				}
			}
		})
	}
}
