//go:build race

package tsgen

// raceEnabled: the race detector instruments allocations (and makes
// sync.Pool drop items at random), so allocation counts mean nothing.
const raceEnabled = true
