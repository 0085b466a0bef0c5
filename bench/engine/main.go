//go:build js && wasm

// Command engine is our side of `make bench`: the workloads of
// bench/workloads.json on the sandbox engine under GOOS=js, with the host's
// own WebAssembly (jsbridge's backend) running the QuickJS asset. It prints
// one JSON object on stdout in the shape bench/baseline.mjs prints.
//
//	GOOS=js GOARCH=wasm go build -o build/bench-engine.wasm ./bench/engine
//	node scripts/wasmexec/wasm_exec_node.cjs build/bench-engine.wasm all
//
// Modes: "cold" (one sample; run it in a fresh process), "all" (every other
// workload; an optional second argument lists some), "count" (no timing:
// counts the boundary crossings of one run of each workload, for profiles),
// "profile <workload> [seconds]" (repeats one workload, for node --cpu-prof;
// see bench/profile.mjs).
// Run it from the repository root, or set BENCH_ROOT.
//
// Every time is the wall clock of whole Engine.Run calls, in microseconds:
// no timer runs inside the program, and nothing is subtracted.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

const assetPath = "node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm"

type workload struct {
	Code    string          `json:"code"`
	Ours    string          `json:"ours"`
	Expect  json.RawMessage `json:"expect"`
	Batch   int             `json:"batch"`
	Per     int             `json:"per"`
	Warmup  *int            `json:"warmup"`
	Runs    int             `json:"runs"`
	Samples int             `json:"samples"`
}

func (w workload) code() string {
	if w.Ours != "" {
		return w.Ours
	}
	return w.Code
}

type result struct {
	Median   float64   `json:"median"`
	Samples  []float64 `json:"samples"`
	Compile  float64   `json:"compile,omitempty"`
	FirstRun float64   `json:"firstRun,omitempty"`
	ReadFile float64   `json:"readFile,omitempty"`
	// WasmCompile is the backend's Compile alone; Check is
	// NewEngineFromModule (the asset's import/export check).
	WasmCompile float64 `json:"wasmCompile,omitempty"`
	Check       float64 `json:"check,omitempty"`
	// Again is compile + engine + first run repeated in the same process.
	Again float64 `json:"again,omitempty"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench-engine:", err)
		os.Exit(1)
	}
}

func run() error {
	root := os.Getenv("BENCH_ROOT")
	if root == "" {
		root = "."
	}
	raw, err := os.ReadFile(filepath.Join(root, "bench/workloads.json"))
	if err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		return err
	}
	workloads := map[string]workload{}
	var names []string
	for n, r := range all {
		if strings.HasPrefix(n, "_") {
			continue
		}
		var w workload
		if err := json.Unmarshal(r, &w); err != nil {
			return fmt.Errorf("%s: %v", n, err)
		}
		workloads[n] = w
		names = append(names, n)
	}
	sort.Strings(names)

	mode := "all"
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	if len(os.Args) > 2 {
		names = strings.Split(os.Args[2], ",")
	}
	out := map[string]any{"side": "ours", "engine": "sandbox on jsbridge (GOOS=js, host WebAssembly)"}
	results := map[string]any{}
	out["results"] = results
	asset := filepath.Join(root, assetPath)

	switch mode {
	case "cold":
		// "cold async" compiles with WebAssembly.compile instead of the
		// backend's synchronous Compile (a diagnostic; the JS loader of the
		// product compiles asynchronously).
		asyncCompile = len(os.Args) > 2 && os.Args[2] == "async"
		r, err := cold(asset, workloads["cold"])
		if err != nil {
			return err
		}
		results["cold"] = r
	case "all", "count":
		wasm, err := os.ReadFile(asset)
		if err != nil {
			return err
		}
		backend := newBackend()
		var counter *countingBackend
		if mode == "count" {
			counter = &countingBackend{inner: backend}
			backend = counter
		}
		eng, err := sandbox.NewEngine(wasm, sandbox.Config{Backend: backend})
		if err != nil {
			return err
		}
		defer eng.Close()
		for _, n := range names {
			w, ok := workloads[n]
			if !ok {
				return fmt.Errorf("no workload %q", n)
			}
			if n == "cold" {
				continue
			}
			if mode == "count" {
				// Count a steady-state run: the first run of a workload
				// may create an instance.
				if err := once(eng, n, w); err != nil {
					return err
				}
				counter.reset()
				if err := once(eng, n, w); err != nil {
					return err
				}
				results[n] = counter.snapshot()
				continue
			}
			r, err := measure(eng, n, w)
			if err != nil {
				return err
			}
			results[n] = r
		}
		if mode == "count" {
			results["crossing"] = crossingCosts(newBackend())
		}
	case "profile":
		// Repeat one workload for a while, for node --cpu-prof (bench/profile.mjs).
		wasm, err := os.ReadFile(asset)
		if err != nil {
			return err
		}
		eng, err := sandbox.NewEngine(wasm, sandbox.Config{Backend: newBackend()})
		if err != nil {
			return err
		}
		defer eng.Close()
		w, ok := workloads[names[0]]
		if !ok || len(os.Args) < 3 {
			return fmt.Errorf("usage: profile <workload> [seconds]")
		}
		secs := 5.0
		if len(os.Args) > 3 {
			fmt.Sscan(os.Args[3], &secs)
		}
		n := 0
		for t0 := time.Now(); time.Since(t0).Seconds() < secs; n++ {
			if err := once(eng, names[0], w); err != nil {
				return err
			}
		}
		results[names[0]] = map[string]int{"runs": n}
	default:
		return fmt.Errorf("unknown mode %q (cold, all, count, profile)", mode)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	fmt.Println(string(b))
	return nil
}

var asyncCompile bool

func micros(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

// cold reads the asset, compiles it (as NewEngine does, through the backend), and
// runs the first program: what a page's first executeCode pays once the Go
// program is loaded. The asset is read with Node's fs.readFileSync, as the
// baseline's glue reads it (os.ReadFile under GOOS=js takes several event
// loop turns, 1-30 ms, which is not what the product does: it fetches in JS).
func cold(asset string, w workload) (*result, error) {
	t0 := time.Now()
	wasm, err := readFileSync(asset)
	if err != nil {
		return nil, err
	}
	t1 := time.Now()
	// sandbox.NewEngine(wasm, cfg) is exactly these two steps; they are
	// timed apart to show compiling vs checking the asset.
	compile := newBackend().Compile
	if asyncCompile {
		compile = compileAsync // diagnostic: "cold async"
	}
	mod, err := compile(wasm)
	if err != nil {
		return nil, err
	}
	t1b := time.Now()
	eng, err := sandbox.NewEngineFromModule(mod, sandbox.Config{Backend: newBackend()})
	if err != nil {
		return nil, err
	}
	t2 := time.Now()
	res, err := eng.Run(context.Background(), sandbox.Program{Code: w.code()})
	t3 := time.Now()
	if err := check("cold", res, err, w.Expect); err != nil {
		return nil, err
	}
	eng.Close()
	// Diagnostic, outside the sample: the same steps again in this process
	// (V8 reuses the compiled module for identical bytes, and Go's code has
	// run once): what the first sample paid beyond this is one-time
	// compilation (lazy, per function) of QuickJS's and Go's code.
	t4 := time.Now()
	mod2, err := newBackend().Compile(wasm)
	if err != nil {
		return nil, err
	}
	eng2, err := sandbox.NewEngineFromModule(mod2, sandbox.Config{Backend: newBackend()})
	if err != nil {
		return nil, err
	}
	res, err = eng2.Run(context.Background(), sandbox.Program{Code: w.code()})
	if err := check("cold", res, err, w.Expect); err != nil {
		return nil, err
	}
	t5 := time.Now()
	eng2.Close()
	total := micros(t3.Sub(t0))
	return &result{Median: total, Samples: []float64{total}, ReadFile: micros(t1.Sub(t0)),
		WasmCompile: micros(t1b.Sub(t1)), Check: micros(t2.Sub(t1b)),
		Compile: micros(t2.Sub(t0)), FirstRun: micros(t3.Sub(t2)), Again: micros(t5.Sub(t4))}, nil
}

func program(name string, w workload) sandbox.Program {
	p := sandbox.Program{Code: w.code(), Timeout: time.Minute}
	if strings.HasPrefix(name, "hostcall") || strings.HasPrefix(name, "promise") {
		p.Funcs = map[string]sandbox.Func{"host": {Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) {
			return nil, nil
		}}}
	}
	return p
}

func check(name string, res *sandbox.Result, err error, want json.RawMessage) error {
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	if res.Error != nil {
		return fmt.Errorf("%s: %v", name, res.Error)
	}
	if string(res.Value) != string(want) {
		return fmt.Errorf("%s: result %s, want %s", name, res.Value, want)
	}
	return nil
}

func once(eng *sandbox.Engine, name string, w workload) error {
	res, err := eng.Run(context.Background(), program(name, w))
	return check(name, res, err, w.Expect)
}

func measure(eng *sandbox.Engine, name string, w workload) (*result, error) {
	p := program(name, w)
	batch, per, runs, warmup := max(w.Batch, 1), max(w.Per, 1), w.Runs, 1
	if runs <= 0 {
		runs = 7
	}
	if w.Warmup != nil {
		warmup = *w.Warmup
	}
	sample := func() (float64, error) {
		var res *sandbox.Result
		var err error
		t0 := time.Now()
		for i := 0; i < batch; i++ {
			res, err = eng.Run(context.Background(), p)
		}
		d := time.Since(t0)
		if err := check(name, res, err, w.Expect); err != nil {
			return 0, err
		}
		return micros(d) / float64(batch) / float64(per), nil
	}
	for i := 0; i < warmup; i++ {
		if _, err := sample(); err != nil {
			return nil, err
		}
	}
	r := &result{}
	for i := 0; i < runs; i++ {
		s, err := sample()
		if err != nil {
			return nil, err
		}
		r.Samples = append(r.Samples, s)
	}
	r.Median = median(r.Samples)
	return r, nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
