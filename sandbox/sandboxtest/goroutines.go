package sandboxtest

import (
	"runtime"
	"runtime/pprof"
	"strings"
	"time"
)

// SettledGoroutines polls runtime.NumGoroutine until it is at most want,
// or until it has not changed for a long stretch (goroutines on their way
// out get that long to leave), and returns the last count. It asserts
// nothing about how long anything takes.
func SettledGoroutines(want int) int {
	n, same := runtime.NumGoroutine(), 0
	for same < 150 && n > want {
		time.Sleep(20 * time.Millisecond)
		m := runtime.NumGoroutine()
		if m == n {
			same++
		} else {
			n, same = m, 0
		}
	}
	return n
}

// GoroutineDump is every goroutine's stack, for a leak's report.
func GoroutineDump() string {
	var b strings.Builder
	pprof.Lookup("goroutine").WriteTo(&b, 1)
	return b.String()
}
