package sandboxtest

import (
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

// AwaitWaiting returns once n runs of e wait for an instance
// (Stats.Waiting), which a test needs before it ends their wait: polled,
// as nothing reports it, and failed after a minute as a hang.
func AwaitWaiting(t testing.TB, e *sandbox.Engine, n int) {
	t.Helper()
	guard := time.Now().Add(time.Minute) // a hang guard, not an assertion
	for e.Stats().Waiting != n {
		if time.Now().After(guard) {
			t.Fatalf("%d runs never waited for an instance (Stats: %+v)", n, e.Stats())
		}
		time.Sleep(time.Millisecond)
	}
}
