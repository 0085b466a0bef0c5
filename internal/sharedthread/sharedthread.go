// Package sharedthread lets the Go programs that share one JavaScript
// thread (under GOOS=js, the page's in-thread cores) tell each other of
// their runs' holds of it, so that a run's TIMEOUT can say how long the
// others held the thread (sandbox/holds.go). The wasm package sets it from
// the loader's functions before any run; natively nothing does: each run
// has a thread of its own.
package sharedthread

import "time"

// Publish, when set, is told of each hold of this program's runs: the
// run's id and the hold's start and end. Others, when set, says how long
// the runs of the thread's other programs held it between from and to, how
// many runs did, and whether one held it across to (from before to until
// to or later).
var (
	Publish func(run uint64, from, to time.Time)
	Others  func(from, to time.Time) (held time.Duration, runs int, across bool)
)
