//go:build !js

package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestPrecompiledInImage: an instance's image holds the sandbox's own
// sources compiled, and a run that needs them (an object handed to a host
// function, a failure to describe) works from them as from a compile.
func TestPrecompiledInImage(t *testing.T) {
	e := oneInstance(t)
	echo := map[string]Func{"echo": {Sync: func(args []json.RawMessage) (json.RawMessage, error) { return args[0], nil }}}
	for _, tc := range []struct{ code, value, errMsg string }{
		{`return echo({ a: [1, new Map([["k", 2]])] })`, `{"a":[1,{"k":2}]}`, ""},
		{`throw new TypeError("bad", { cause: new Error("inner") })`, "", "bad; cause: Error: inner"},
		{`return echo({ b: 1 })`, `{"b":1}`, ""},
	} {
		res, err := e.Run(context.Background(), Program{Code: tc.code, Funcs: echo})
		if err != nil {
			t.Fatal(err)
		}
		if tc.errMsg != "" {
			if res.Error == nil || res.Error.Message != tc.errMsg {
				t.Errorf("%s: error %+v, want message %q", tc.code, res.Error, tc.errMsg)
			}
		} else if res.Error != nil || string(res.Value) != tc.value {
			t.Errorf("%s: %s %+v, want %s", tc.code, res.Value, res.Error, tc.value)
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.idle) != 1 || e.idle[0].img == nil {
		t.Fatal("the instance has no image")
	}
	for _, src := range precompiledSources {
		if e.idle[0].compiled[src] == 0 {
			t.Errorf("the image lacks a compiled source (%.40q...)", src)
		}
	}
}

// TestFirstRunTakesTheImage: an instance's first run compiles the
// sandbox's own sources and Program.Sources and takes the image before its
// clock starts, and every later run starts from it. Every run gives the
// same result. (It used to run without one and compile only what it used,
// inside its timeout: TestFirstRunCompilesBeforeItsClock.)
func TestFirstRunTakesTheImage(t *testing.T) {
	const source = `(k) => k * 2`
	funcs := map[string]Func{
		"echo":   {Sync: func(args []json.RawMessage) (json.RawMessage, error) { return args[0], nil }},
		"double": {Source: func([]json.RawMessage) (string, error) { return source, nil }},
	}
	for _, tc := range []struct{ code, value, errMsg string }{
		{`return 1 + 1`, `2`, ""},
		{`return echo({ a: [1, new Map([["k", 2]])] })`, `{"a":[1,{"k":2}]}`, ""},
		{`return new Map([["k", double()(21)]])`, `{"k":42}`, ""},
		{`throw new TypeError("bad", { cause: new Error("inner") })`, "", "bad; cause: Error: inner"},
	} {
		e := oneInstance(t)
		for run := 1; run <= 3; run++ {
			res, err := e.Run(context.Background(), Program{Code: tc.code, Funcs: funcs, Sources: []string{source}})
			if err != nil {
				t.Fatal(err)
			}
			if tc.errMsg != "" {
				if res.Error == nil || res.Error.Message != tc.errMsg {
					t.Errorf("%s, run %d: error %+v, want message %q", tc.code, run, res.Error, tc.errMsg)
				}
			} else if res.Error != nil || string(res.Value) != tc.value {
				t.Errorf("%s, run %d: %s %+v, want %s", tc.code, run, res.Value, res.Error, tc.value)
			}
			e.mu.Lock()
			if len(e.idle) != 1 {
				e.mu.Unlock()
				t.Fatalf("%s, run %d: %d idle instances, want 1", tc.code, run, len(e.idle))
			}
			i := e.idle[0]
			if i.img == nil {
				t.Errorf("%s, after run %d: the instance has no image", tc.code, run)
			}
			for _, src := range append([]string{source}, precompiledSources...) {
				if i.compiled[src] == 0 {
					t.Errorf("%s, after run %d: the image lacks %.30q... compiled", tc.code, run, src)
				}
			}
			e.mu.Unlock()
		}
	}
}

// TestHiddenPreludeInImage: a Hidden prelude is compiled into the image as
// Program.Sources are (evaluating it only makes its function), beside the
// setup that applies it, so that a run on the image compiles neither; each
// run applies it anew. A prelude written as a function declaration or
// ending in a line comment is read as the expression it was before.
func TestHiddenPreludeInImage(t *testing.T) {
	twice := map[string]Func{"twice": {Sync: func(args []json.RawMessage) (json.RawMessage, error) {
		var k int
		if len(args) != 1 || json.Unmarshal(args[0], &k) != nil {
			return nil, fmt.Errorf("twice: want a number, got %s", args)
		}
		return json.Marshal(2 * k)
	}}}
	for _, prelude := range []string{
		`(twice) => { globalThis.f = (k) => twice(k) + (globalThis.n = (globalThis.n ?? 0) + 1); }`,
		"function (twice) { globalThis.f = (k) => twice(k) + (globalThis.n = (globalThis.n ?? 0) + 1); } // f",
	} {
		for _, parse := range []func(json.RawMessage) bool{nil, func(json.RawMessage) bool { return true }} {
			e := oneInstance(t)
			p := Program{Code: `return f(20)`, Prelude: prelude, Hidden: true, Funcs: twice, NativeParse: parse}
			for run := 1; run <= 3; run++ {
				res, err := e.Run(context.Background(), p)
				if err != nil {
					t.Fatal(err)
				}
				if res.Error != nil || string(res.Value) != "41" {
					t.Errorf("%.20q, run %d: %s %+v, want 41", prelude, run, res.Value, res.Error)
				}
				e.mu.Lock()
				i := e.idle[0]
				for _, src := range []string{p.hiddenPrelude(), hiddenSetupJS, hiddenParseSetupJS} {
					if i.compiled[src] == 0 {
						t.Errorf("%.20q, after run %d: the image lacks %.30q... compiled", prelude, run, src)
					}
				}
				e.mu.Unlock()
			}
		}
	}
}

// TestSourcesShareNothing: a caller's source in Program.Sources is
// evaluated once per instance, into its image, and every run gets the
// value as the image holds it: what a run did to it (state the value
// closes over, its own properties, its prototype), however the run ended,
// the next run on that instance sees nothing of it. A run without an
// image evaluates the source itself, with the same results.
func TestSourcesShareNothing(t *testing.T) {
	wasm, err := os.ReadFile("../node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm")
	if err != nil {
		t.Fatal(err)
	}
	// The counter closes over box, made when the source is evaluated.
	const counter = `(() => { const box = { n: 0 }; return (k) => (box.n += k); })()`
	asked := 0
	funcs := map[string]Func{"src": {Source: func(args []json.RawMessage) (string, error) {
		asked++
		return counter, nil
	}}}
	const prelude = `(src) => { globalThis.counter = src(); globalThis.again = () => src() === counter; }`
	const touch = `counter(5); counter.left = "x"; Object.setPrototypeOf(counter, null);`
	const check = `return [counter(1), counter(1), typeof counter.left, Object.getPrototypeOf(counter) === Function.prototype, again()]`
	for _, images := range []bool{true, false} {
		// A second call in a run gets the image's value again; without an
		// image, each call evaluates the source anew.
		want := fmt.Sprintf(`[1,2,"undefined",true,%v]`, images)
		e, err := NewEngine(wasm, Config{MaxInstances: 1})
		if err != nil {
			t.Fatal(err)
		}
		e.noImages = !images
		for _, tc := range []struct {
			name, code string
			timeout    time.Duration
			wantErr    ErrorCode
		}{
			{"returned", touch + `return 1`, 0, ""},
			{"threw", touch + `throw new Error("x")`, 0, CodeRuntime},
			{"timed out", touch + `for (;;) {}`, 300 * time.Millisecond, CodeTimeout},
		} {
			res, err := e.Run(context.Background(), Program{Code: tc.code, Prelude: prelude, Hidden: true, Funcs: funcs, Sources: []string{counter}, Timeout: tc.timeout})
			if err != nil {
				t.Fatal(err)
			}
			if got := codeOf(res); got != tc.wantErr {
				t.Fatalf("images %v, %s: first run's error %q, want %q (%+v)", images, tc.name, got, tc.wantErr, res.Error)
			}
			for i := 0; i < 2; i++ {
				res, err := e.Run(context.Background(), Program{Code: check, Prelude: prelude, Hidden: true, Funcs: funcs, Sources: []string{counter}})
				if err != nil || res.Error != nil {
					t.Fatalf("images %v, %s: check run: %v %+v", images, tc.name, err, res.Error)
				}
				if string(res.Value) != want {
					t.Errorf("images %v, after a run that %s: check run %d got %s, want %s (the source's value as first evaluated)", images, tc.name, i+1, res.Value, want)
				}
			}
		}
		e.mu.Lock()
		if len(e.idle) != 1 {
			t.Fatalf("images %v: %d idle instances, want 1", images, len(e.idle))
		}
		if got := e.idle[0].compiled[counter] != 0; got != images {
			t.Errorf("images %v: the instance holds the source compiled: %v", images, got)
		}
		e.mu.Unlock()
		e.Close()
	}
	// Per engine: once in each of the 3 first runs, twice in each of the
	// 6 check runs.
	if asked != 2*(3+6*2) {
		t.Errorf("Source was called %d times, want %d", asked, 2*(3+6*2))
	}
}

func codeOf(res *Result) ErrorCode {
	if res.Error == nil {
		return ""
	}
	return res.Error.Code
}

// TestSourcesKeptAtMost: an instance keeps at most maxSources of the
// caller's sources in its image; the others are evaluated in each run.
func TestSourcesKeptAtMost(t *testing.T) {
	e := oneInstance(t)
	n := maxSources + 4
	var sources []string
	for k := 0; k < n; k++ {
		sources = append(sources, fmt.Sprintf("[%d]", k))
	}
	funcs := map[string]Func{"src": {Source: func(args []json.RawMessage) (string, error) {
		var k int
		if len(args) != 1 || json.Unmarshal(args[0], &k) != nil || k < 0 || k >= n {
			return "", fmt.Errorf("src: want an index below %d, got %s", n, args)
		}
		return sources[k], nil
	}}}
	want := strings.ReplaceAll(fmt.Sprint(sources), " ", ",")
	for run := 1; run <= 2; run++ {
		res, err := e.Run(context.Background(), Program{Code: fmt.Sprintf("return Array.from({ length: %d }, (_, k) => src(k))", n), Funcs: funcs, Sources: sources})
		if err != nil || res.Error != nil {
			t.Fatalf("run %d: %v %+v", run, err, res.Error)
		}
		if string(res.Value) != want {
			t.Errorf("run %d: %s, want %s", run, res.Value, want)
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	kept := 0
	for _, src := range sources {
		if e.idle[0].compiled[src] != 0 {
			kept++
		}
	}
	if kept != maxSources {
		t.Errorf("the image holds %d of the %d sources, want %d", kept, n, maxSources)
	}
}

// oneInstance is an engine of one instance (so every run uses it), closed
// when the test ends.
func oneInstance(t *testing.T) *Engine {
	t.Helper()
	return testEngine(t, Config{MaxInstances: 1})
}

// testEngine is an engine of cfg on the pinned asset, closed when the test
// ends. sandboxtest imports this package: the asset is read as it reads it.
func testEngine(t *testing.T, cfg Config) *Engine {
	t.Helper()
	wasm, err := os.ReadFile("../node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm")
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEngine(wasm, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// TestCompileIsNotTheProgramsTime: the one-time compile of Program.Sources
// into an instance's image runs on a clock of its own; the run's timeout
// starts after it. A source that takes longer than the timeout to evaluate
// (here by spinning: on a loaded machine the sandbox's own sources can)
// is stopped and left out of the image, and the program, which has all of
// its timeout, returns. It used to time out before its first line.
func TestCompileIsNotTheProgramsTime(t *testing.T) {
	const spin = `(() => { const t = Date.now(); while (Date.now() - t < 3000); return () => 1; })()`
	for _, images := range []bool{true, false} {
		e := oneInstance(t)
		e.noImages = !images
		p := Program{
			Code:    `return 41 + 1`,
			Timeout: time.Second,
			Sources: []string{spin},
			Funcs:   map[string]Func{"slow": {Source: func([]json.RawMessage) (string, error) { return spin, nil }}},
		}
		for i := range 2 {
			res, err := e.Run(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if res.Error != nil || string(res.Value) != "42" {
				t.Errorf("images %v, run %d: %s %+v, want 42", images, i, res.Value, res.Error)
			}
		}
		// The source that did not fit is not in the image: a run that
		// calls it evaluates it in its own time, and times out.
		res, err := e.Run(context.Background(), Program{Code: `return slow()()`, Timeout: 200 * time.Millisecond, Sources: p.Sources, Funcs: p.Funcs})
		if err != nil {
			t.Fatal(err)
		}
		if res.Error == nil || res.Error.Code != CodeTimeout {
			t.Errorf("images %v: calling the source: %s %+v, want a timeout", images, res.Value, res.Error)
		}
	}
}

// TestConvertFromImage: a run on an image that holds convertJS (a
// caller's Program.Sources, as codemode's) hands its stringify that
// compiled function instead of writing its source (~6 KB) into QuickJS as
// a string in every run that converts an object; a caller without it
// gets the source, as before. Either way a value that needs converting
// converts alike.
func TestConvertFromImage(t *testing.T) {
	var got []bool
	convertSourceHook = func(precompiled bool) { got = append(got, precompiled) }
	defer func() { convertSourceHook = nil }()
	echo := map[string]Func{"echo": {Sync: func(args []json.RawMessage) (json.RawMessage, error) { return args[0], nil }}}
	for _, sources := range [][]string{{ConvertJS}, nil} {
		e := oneInstance(t)
		got = nil
		for run := 1; run <= 3; run++ {
			res, err := e.Run(context.Background(), Program{Code: `return echo({ a: new Map([["k", 2]]), b: [1] })`, Funcs: echo, Sources: sources})
			if err != nil {
				t.Fatal(err)
			}
			if res.Error != nil || string(res.Value) != `{"a":{"k":2},"b":[1]}` {
				t.Errorf("sources %d, run %d: %s %+v", len(sources), run, res.Value, res.Error)
			}
		}
		want := fmt.Sprint([]bool{sources != nil, sources != nil, sources != nil})
		if fmt.Sprint(got) != want {
			t.Errorf("sources %d: convertJS compiled from the image, per run: %v, want %v", len(sources), got, want)
		}
	}
}

// TestFirstRunCompilesBeforeItsClock: an instance's first run compiles
// Program.Sources before its timeout starts, as later runs find them in the
// image. Evaluating the source here spins for 40% of the timeout (as the
// sandbox's own sources took a first run's 1 s in WebKit under load), and
// the program calls it three times: compiled inside the clock (once per
// call without an image) that is 120% of the timeout, a TIMEOUT; before
// it, the program returns at once.
func TestFirstRunCompilesBeforeItsClock(t *testing.T) {
	const timeout = 2 * time.Second
	spin := fmt.Sprintf(`(() => { const t = Date.now(); while (Date.now() - t < %d); return () => 1; })()`, (timeout * 4 / 10).Milliseconds())
	e := oneInstance(t)
	res, err := e.Run(context.Background(), Program{
		Code:    `return slow()() + slow()() + slow()()`,
		Timeout: timeout,
		Sources: []string{spin},
		Funcs:   map[string]Func{"slow": {Source: func([]json.RawMessage) (string, error) { return spin, nil }}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Error != nil || string(res.Value) != "3" {
		t.Errorf("the first run: %s %+v, want 3", res.Value, res.Error)
	}
}

// TestPrepare: Engine.Prepare gives an idle instance, or a new one when
// none is alive, the image a run would take (the sandbox's sources and the
// Program's, its Hidden prelude included), runs nothing, and the next run
// starts from it with the same result; with every instance running it
// makes none; an engine without images gets the instance only; a closed
// one says ErrClosed.
func TestPrepare(t *testing.T) {
	const source = `(k) => k * 2`
	double := map[string]Func{"double": {Source: func([]json.RawMessage) (string, error) { return source, nil }}}
	const prelude = `(double) => { globalThis.f = (k) => double()(k); }`
	p := Program{Code: `return f(21)`, Prelude: prelude, Hidden: true, Funcs: double, Sources: []string{source}}
	for _, tc := range []struct {
		name     string
		noImages bool
		before   []Program // runs before Prepare
	}{
		{name: "a new engine"},
		{name: "an idle instance that ran another program", before: []Program{{Code: `return 1`}}},
		{name: "an idle instance that ran the same program", before: []Program{p}},
		{name: "no images", noImages: true},
	} {
		e := oneInstance(t)
		e.noImages = tc.noImages
		for _, b := range tc.before {
			if _, err := e.Run(context.Background(), b); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.Prepare(p); err != nil {
			t.Fatalf("%s: Prepare: %v", tc.name, err)
		}
		e.mu.Lock()
		if len(e.idle) != 1 {
			t.Fatalf("%s: %d idle instances, want 1", tc.name, len(e.idle))
		}
		i := e.idle[0]
		if got := i.img != nil; got == tc.noImages {
			t.Errorf("%s: the instance has an image: %v", tc.name, got)
		}
		for _, src := range append([]string{source, p.hiddenPrelude()}, precompiledSources...) {
			if got := i.compiled[src] != 0; got == tc.noImages {
				t.Errorf("%s: the image holds %.30q... compiled: %v", tc.name, src, got)
			}
		}
		e.mu.Unlock()
		for run := 1; run <= 2; run++ {
			res, err := e.Run(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if res.Error != nil || string(res.Value) != "42" {
				t.Errorf("%s, run %d after Prepare: %s %+v, want 42", tc.name, run, res.Value, res.Error)
			}
		}
		if s := e.Stats(); s.Idle != 1 {
			t.Errorf("%s: %d idle instances after the runs, want 1", tc.name, s.Idle)
		}
	}

	// Every instance running: Prepare neither waits nor makes another.
	e := testEngine(t, Config{MaxInstances: 2})
	started, release := make(chan struct{}), make(chan struct{})
	hold := map[string]Func{"hold": {Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) {
		close(started)
		<-release
		return json.RawMessage("1"), nil
	}}}
	done := make(chan error, 1)
	go func() {
		_, err := e.Run(context.Background(), Program{Code: `return await hold()`, Funcs: hold})
		done <- err
	}()
	<-started
	if err := e.Prepare(p); err != nil {
		t.Errorf("Prepare while the only instance runs: %v", err)
	}
	if n := len(e.slots); n != 1 {
		t.Errorf("Prepare while the only instance runs: %d instances alive, want 1", n)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	e.Close()
	if err := e.Prepare(p); !errors.Is(err, ErrClosed) {
		t.Errorf("Prepare after Close: %v, want ErrClosed", err)
	}
	if err := (*Engine)(nil).Prepare(p); !errors.Is(err, ErrClosed) {
		t.Errorf("Prepare on a nil Engine: %v, want ErrClosed", err)
	}
}
