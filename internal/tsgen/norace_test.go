//go:build !race

package tsgen

const raceEnabled = false
