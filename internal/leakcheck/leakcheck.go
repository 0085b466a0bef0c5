// Package leakcheck is a test-only switch of the sandbox: with it on, every
// run frees all it made (the QuickJS values Go holds, its context and its
// runtime) before its instance's image is written back, as runs did before
// images, so that QuickJS's own check in JS_FreeRuntime (every object
// freed) runs after each run. Without it a run on the image path frees
// nothing, and a value Go forgot to free is dropped with the rest: no
// symptom, and nothing to catch it, until the code it was in runs without
// an image (an asset that cannot have one). A leak found is recorded here,
// for the test binary's TestMain to fail on, besides failing its run (the
// instance is discarded, as for any trap): a run that timed out still
// reports TIMEOUT, so its result alone would hide it.
//
// It is internal: only this module's tests turn it on (TestMain in the
// packages whose tests run programs).
package leakcheck

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
)

var (
	on       atomic.Bool
	mu       sync.Mutex
	failures []string
)

// Enable turns the check on for every engine of the process, for the
// runs that start from now on.
func Enable() { on.Store(true) }

// Enabled says whether the check is on.
func Enabled() bool { return on.Load() }

// Record notes a leak: what QuickJS said, and the program that leaked.
func Record(what, program string) {
	if len(program) > 300 {
		program = program[:300] + "..."
	}
	mu.Lock()
	failures = append(failures, fmt.Sprintf("%s\n\tprogram: %q", what, program))
	mu.Unlock()
}

// Take removes and returns the leaks recorded for programs that contain
// marker: a test that leaks on purpose takes its own, leaving any other.
func Take(marker string) []string {
	mu.Lock()
	defer mu.Unlock()
	var took, kept []string
	for _, f := range failures {
		if strings.Contains(f, marker) {
			took = append(took, f)
		} else {
			kept = append(kept, f)
		}
	}
	failures = kept
	return took
}

// Main runs m (a *testing.M: this package links no testing into the
// sandbox) with the check on, and exits, failing when a run leaked (each
// leak printed with its program): a TestMain's whole body.
func Main(m interface{ Run() int }) {
	Enable()
	code := m.Run()
	mu.Lock()
	left := failures
	mu.Unlock()
	if len(left) > 0 {
		fmt.Fprintf(os.Stderr, "leakcheck: %d runs leaked QuickJS objects (freed at the run's end, JS_FreeRuntime asserted):\n", len(left))
		for _, f := range left {
			fmt.Fprintln(os.Stderr, "  "+f)
		}
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}
