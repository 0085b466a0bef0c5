//go:build js && wasm

package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestHoldCollector: the worker holds the collector's registration pace
// from a registration until its instructions are posted (web/src/worker.mjs),
// and register's own hold, released when it returns, must not end it: the
// pace was set back to the default there, and the first allocation after
// (rebuilding the instructions ready() waits for) started a full pass.
// The last release restores the pace before the holds and collects when
// asked; a release called again does nothing.
func TestHoldCollector(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	worker := holdCollector(true)
	register := holdCollector(true)
	register(false)
	if p := gcPercent(); p != registrationPace {
		t.Fatalf("after register's own release, within the worker's hold: pace %d, want %d", p, registrationPace)
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	worker(true)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if p := gcPercent(); p != 100 {
		t.Errorf("after the last release: pace %d, want 100 (the pace before the holds)", p)
	}
	if after.NumGC == before.NumGC {
		t.Error("the worker's release did not collect")
	}
	again := holdCollector(true)
	worker(true) // released already: must not end the new hold
	if p := gcPercent(); p != registrationPace {
		t.Errorf("a second release of an old hold ended a new one: pace %d", p)
	}
	again(false)
	if p := gcPercent(); p != 100 {
		t.Errorf("pace %d after every hold was released, want 100", p)
	}
}

// TestHoldCollectorUnraised: a first hold that does not raise the pace (a
// factory holding paceTools tools or more) keeps the default, and so do
// holds taken within it; the last release collects when asked.
func TestHoldCollectorUnraised(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	worker := holdCollector(false)
	register := holdCollector(true)
	if p := gcPercent(); p != 100 {
		t.Errorf("a hold within one over a large catalog: pace %d, want the default 100", p)
	}
	register(false)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	worker(true)
	runtime.ReadMemStats(&after)
	if p := gcPercent(); p != 100 {
		t.Errorf("after the last release: pace %d, want 100", p)
	}
	if after.NumGC == before.NumGC {
		t.Errorf("the last release asked to collect did not")
	}
}
