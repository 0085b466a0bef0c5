//go:build js && wasm

package main

import (
	"runtime"
	"runtime/debug"
	"sync"
)

// registrationPace is the collector's pace while a registration's garbage
// is made: a catalog's registration allocates a few MB of short-lived
// values (decoded schemas, tokens), over which the default pace would
// collect several times.
const registrationPace = 400

// paceTools: a factory holding this many tools or more keeps the default
// pace. Over a large catalog the raised pace let each registration's
// garbage grow the heap toward five times the catalog's, into WebAssembly
// memory that never shrinks (each grow a new ArrayBuffer, which starts
// collections of the page's heap): an adapter's calls of 128 tools over
// 10,000 took 23 ms of CPU each, 17 at the default pace.
const paceTools = 4096

// collector keeps registrationPace while anything holds it: register
// holds it for its call, and the worker (web/src/worker.mjs) from a
// registration until the instructions it changed are posted. At the
// default pace the first allocation after register started a full pass
// over the registration's garbage: half of the worker's rebuilding of the
// instructions that ready() waits for. Released, the pace is restored, and
// the worker's release collects at once: it comes once the instructions are
// posted and the worker is idle (no run in flight, no message for 250 ms).
var collector struct {
	mu    sync.Mutex
	holds int
	pace  int // the pace before the first hold
	// raised: the first hold raised the pace.
	raised bool
}

// holdCollector keeps registrationPace, if the first hold raises it, until
// the returned function is called (more calls of it do nothing).
func holdCollector(raise bool) (release func(collect bool)) {
	collector.mu.Lock()
	if collector.holds == 0 {
		collector.raised = raise
		if raise {
			collector.pace = debug.SetGCPercent(registrationPace)
		}
	}
	collector.holds++
	collector.mu.Unlock()
	released := false
	return func(collect bool) {
		collector.mu.Lock()
		if released {
			collector.mu.Unlock()
			return
		}
		released = true
		collector.holds--
		last := collector.holds == 0
		if last && collector.raised {
			debug.SetGCPercent(collector.pace)
		}
		collector.mu.Unlock()
		if last && collect {
			runtime.GC()
		}
	}
}
