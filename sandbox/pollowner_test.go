//go:build !js

package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// TestPollOwnerFromTheProgram: a run's polls name its owner
// (WithPollOwner) from its program's first line only; its setup (the
// prelude), and the instance's one-time work before it, name none. A
// worker's page without SharedArrayBuffer replaces the worker when the run
// it aborted is the one polling: a run aborted as it started, still in its
// setup, had the worker replaced and its other runs failed
// (web/test/worker-backstop.test.mjs). Both an instance's first run
// (precompile) and a run from its image.
func TestPollOwnerFromTheProgram(t *testing.T) {
	e := oneInstance(t)
	i, err := e.lease(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer e.release(i)
	var mu sync.Mutex
	var owner float64
	i.q.Poll.Watch(func(s wasmhost.PollState) {
		mu.Lock()
		owner = s.Owner
		mu.Unlock()
	})
	var seen []string
	mark := func(args []json.RawMessage) (json.RawMessage, error) {
		mu.Lock()
		seen = append(seen, fmt.Sprintf("%s %v", args[0], owner))
		mu.Unlock()
		return nil, nil
	}
	p := Program{Prelude: `mark("setup")`, Code: `mark("program"); return 1`, Funcs: map[string]Func{"mark": {Sync: mark}}}
	for run := 1; run <= 2; run++ {
		seen = nil
		res, err := i.execute(WithPollOwner(context.Background(), 7), p, e.limit, &e.workers)
		if err != nil || res.Error != nil {
			t.Fatalf("run %d: %v %+v", run, err, res)
		}
		if want := []string{`"setup" 0`, `"program" 7`}; !slices.Equal(seen, want) {
			t.Errorf("run %d: the owner the polls named: %q, want %q", run, seen, want)
		}
	}
	// A function body is compiled before its first line runs, and that
	// compile names no run either (a ~900 KB program's took a second on
	// a loaded machine): one that does not compile never names it.
	var named []float64
	i.q.Poll.Watch(func(s wasmhost.PollState) {
		mu.Lock()
		named = append(named, s.Owner)
		mu.Unlock()
	})
	named = nil // Watch's first call: the last run's owner
	res, err := i.execute(WithPollOwner(context.Background(), 7), Program{Code: "return 1 +", Body: true}, e.limit, &e.workers)
	if err != nil || res.Error == nil || res.Error.Code != CodeSyntax {
		t.Fatalf("a body that does not compile: %v %+v", err, res)
	}
	if slices.Contains(named, 7) {
		t.Errorf("a body that does not compile named its run to the polls: the owners set %v", named)
	}
}

// TestPollOwnerOfAScript: a script (no top-level return) is compiled and
// run in one QTS_Eval; its compile names the run as compiling (a negative
// owner), and from the interpreter's poll at its first step the run
// itself, before anything the script calls. A ~900 KB script aborted as it
// started had the worker replaced (its compile's loop checks named the
// run) and the worker's other runs failed (web/test/worker-backstop).
func TestPollOwnerOfAScript(t *testing.T) {
	e := oneInstance(t)
	i, err := e.lease(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.release(i) })
	var named []float64 // the owners set, the last one first read by mark
	i.q.Poll.Watch(func(s wasmhost.PollState) { named = append(named, s.Owner) })
	var seen []float64
	mark := func([]json.RawMessage) (json.RawMessage, error) {
		seen = append(seen, named[len(named)-1])
		return nil, nil
	}
	funcs := map[string]Func{"mark": {Sync: mark}}
	for _, code := range []string{`mark(); 1`, `const f = () => mark(); f(); 1`} {
		seen = nil
		res, err := i.execute(WithPollOwner(context.Background(), 7), Program{Code: code, Funcs: funcs}, e.limit, &e.workers)
		if err != nil || res.Error != nil {
			t.Fatalf("%s: %v %+v", code, err, res)
		}
		if !slices.Equal(seen, []float64{7}) {
			t.Errorf("%s: the owner at the script's first call: %v, want [7]", code, seen)
		}
	}
	named = nil
	res, err := i.execute(WithPollOwner(context.Background(), 7), Program{Code: "1 +"}, e.limit, &e.workers)
	if err != nil || res.Error == nil || res.Error.Code != CodeSyntax {
		t.Fatalf("a script that does not compile: %v %+v", err, res)
	}
	if slices.Contains(named, 7) || !slices.Contains(named, -7) {
		t.Errorf("a script that does not compile: the owners set %v, want -7 (compiling) and never 7", named)
	}
}
