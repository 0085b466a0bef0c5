package sandbox

// Under GOOS=js every run of the program is on one thread (the page's or its
// worker's), which the page's other in-thread cores share: a run that awaits
// a timer or a tool cannot go on while another run holds that thread, and
// its timeout counts that time as its own. Its TIMEOUT said only "did not
// finish within", which reads as the program's own loop. The runs' holds are
// kept here so that the timeout can say how long others held the thread.

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/interopio/code-mode/internal/sharedthread"
)

// oneThread says runs share one thread: natively each has a thread of its
// own, and another run's work takes nothing of a run's time. A var for tests.
var oneThread = runtime.GOOS == "js"

// A hold is a run's stretch on the thread, from leaving a wait (or its
// start) to its next wait (or its end), in Unix nanoseconds.
type hold struct {
	run      uint64
	from, to int64
}

// minHold is the shortest hold kept: a run's step between two answers is
// tens of microseconds, and a timeout it could matter to is far longer.
const minHold = time.Millisecond

// thread keeps the last holds of this program's runs (a ring: a window
// that saw more than fit is undercounted, never overstated).
var thread struct {
	mu    sync.Mutex
	holds [256]hold
	next  int
	ids   atomic.Uint64
}

// held sums the holds of this program's runs other than except within
// [from, to], counts those runs, and says whether one held the thread
// across to.
func held(except uint64, from, to int64) (_ time.Duration, _ int, across bool) {
	thread.mu.Lock()
	defer thread.mu.Unlock()
	var sum int64
	var runs []uint64
	for _, h := range thread.holds {
		lo, hi := max(h.from, from), min(h.to, to)
		if h.run == except || h.run == 0 || hi <= lo {
			continue
		}
		sum += hi - lo
		across = across || h.to >= to
		if !slices.Contains(runs, h.run) {
			runs = append(runs, h.run)
		}
	}
	return time.Duration(sum), len(runs), across
}

// beginHold starts the run's stretch on the thread. Natively it records
// nothing: runs do not share a thread, and othersHeld reads no holds (a
// lock and a clock read per wait, for a ring nobody read).
func (r *run) beginHold() {
	if !oneThread {
		return
	}
	if r.id == 0 {
		r.id = thread.ids.Add(1)
	}
	r.holdFrom = time.Now().UnixNano()
}

// endHold records the stretch begun by beginHold, if long enough to matter.
func (r *run) endHold() {
	from, to := r.holdFrom, time.Now().UnixNano()
	r.holdFrom = 0
	if from == 0 || to-from < int64(minHold) {
		return
	}
	thread.mu.Lock()
	thread.holds[thread.next] = hold{run: r.id, from: from, to: to}
	thread.next = (thread.next + 1) % len(thread.holds)
	thread.mu.Unlock()
	if sharedthread.Publish != nil {
		sharedthread.Publish(r.id, time.Unix(0, from), time.Unix(0, to))
	}
}

// othersHeld is the timeout's clause naming how long other runs held the
// thread within the run's timeout, when one held it as the deadline passed
// (the run could not even notice it) and the time was a tenth of the
// timeout or more. Holds earlier in the timeout alone (the instances other
// runs started on, say) did not keep a run that awaited a tool from what
// it awaited.
func (r *run) othersHeld() string {
	if !oneThread {
		return ""
	}
	to, from := time.Now(), r.deadline.Add(-r.timeout)
	if to.After(r.deadline) {
		to = r.deadline
	}
	d, n, across := held(r.id, from.UnixNano(), to.UnixNano())
	if sharedthread.Others != nil {
		od, on, oa := sharedthread.Others(from, to)
		d, n, across = d+od, n+on, across || oa
	}
	if n == 0 || !across || d < r.timeout/10 {
		return ""
	}
	who := "another run"
	if n > 1 {
		who = "other runs"
	}
	return fmt.Sprintf("; %s held the engine's thread for %v of it", who, d.Round(time.Millisecond))
}
