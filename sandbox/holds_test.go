//go:build !js

package sandbox

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/interopio/code-mode/internal/sharedthread"
	"github.com/interopio/code-mode/sandbox/internal/ffi"
)

// TestRunsRecordTheirHolds: where runs share one thread (GOOS=js), a
// run's stretches on it are recorded, from its start to its first wait,
// and from each wait's end to the next wait or its end; the time it
// awaited is not. Natively nothing is recorded: nothing reads it.
func TestRunsRecordTheirHolds(t *testing.T) {
	saved := oneThread
	t.Cleanup(func() { oneThread = saved })
	e := testEngine(t, Config{})
	sleep := map[string]Func{"sleep": {Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) {
		time.Sleep(400 * time.Millisecond)
		return json.RawMessage("1"), nil
	}}}
	spin := "{ const t = Date.now(); while (Date.now() - t < 200) {} }"
	for _, shared := range []bool{true, false} {
		oneThread = shared
		// The run's id is the next one taken; only its holds are counted
		// (a run an earlier test left going records its own meanwhile).
		id := thread.ids.Load() + 1
		from := time.Now()
		res, err := e.Run(context.Background(), Program{Code: spin + "; await sleep(); " + spin + "; return 1", Funcs: sleep, Timeout: time.Minute})
		to := time.Now()
		if err != nil || res.Error != nil {
			t.Fatalf("run: %+v, %v", res, err)
		}
		all, _, _ := held(0, from.UnixNano(), to.UnixNano())
		others, _, _ := held(id, from.UnixNano(), to.UnixNano())
		switch d := all - others; {
		case !shared && (d != 0 || thread.ids.Load() >= id):
			t.Errorf("natively: held by the run = %v, ids taken up to %d; want nothing recorded", d, thread.ids.Load())
		case shared && (d < 400*time.Millisecond || d > to.Sub(from)-400*time.Millisecond):
			// Both spins, and not the sleep between them.
			t.Errorf("Held by the run = %v; want at least 400ms and at most %v (its wall time less the sleep)", d, to.Sub(from)-400*time.Millisecond)
		}
	}
}

// TestTimeoutSaysOtherRunsHeldTheThread: under GOOS=js a run whose
// deadline passed while another run held the thread has its timeout say
// how long others held it, when that was a tenth of the timeout or more;
// its own holds, holds outside its timeout, holds that all ended before its
// deadline and holds of programs on no shared thread say nothing.
func TestTimeoutSaysOtherRunsHeldTheThread(t *testing.T) {
	saved, savedOther := oneThread, sharedthread.Others
	t.Cleanup(func() { oneThread, sharedthread.Others = saved, savedOther })
	oneThread, sharedthread.Others = true, nil
	now := time.Now()
	ms := func(d int) int64 { return now.Add(time.Duration(d) * time.Millisecond).UnixNano() }
	const own = 1 << 40
	rows := []struct {
		name  string
		holds []hold
		other time.Duration // held by runs of other programs on the thread, across the deadline
		want  string        // the message's clause after the timeout's words
	}{
		{"none", nil, 0, ""},
		{"its own", []hold{{own, ms(-900), ms(0)}}, 0, ""},
		{"another run's, across the deadline", []hold{{own + 1, ms(-380), ms(20)}}, 0, "; another run held the engine's thread for 380ms of it"},
		{"another run's, ended before the deadline", []hold{{own + 1, ms(-700), ms(-320)}}, 0, ""},
		{"earlier ones count beside one across", []hold{{own + 1, ms(-900), ms(-800)}, {own + 1, ms(-300), ms(10)}}, 0, "; another run held the engine's thread for 400ms of it"},
		{"only its part within the timeout", []hold{{own + 1, ms(-3000), ms(0)}}, 0, "; another run held the engine's thread for 1s of it"},
		{"before the timeout began", []hold{{own + 1, ms(-3000), ms(-1000)}}, 0, ""},
		{"under a tenth of it", []hold{{own + 1, ms(-99), ms(5)}}, 0, ""},
		{"two runs", []hold{{own + 1, ms(-800), ms(-700)}, {own + 2, ms(-600), ms(-500)}, {own + 1, ms(-100), ms(0)}}, 0, "; other runs held the engine's thread for 300ms of it"},
		{"another program's", nil, 250 * time.Millisecond, "; another run held the engine's thread for 250ms of it"},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			thread.mu.Lock()
			thread.holds, thread.next = [len(thread.holds)]hold{}, 0
			copy(thread.holds[:], row.holds)
			thread.mu.Unlock()
			sharedthread.Others = nil
			if row.other > 0 {
				sharedthread.Others = func(from, to time.Time) (time.Duration, int, bool) { return row.other, 1, true }
			}
			r := &run{q: &ffi.Instance{}, id: own, timeout: time.Second, deadline: now}
			msg := r.timeoutResult().Error.Message
			if got := strings.TrimPrefix(msg, "the program did not finish within 1s"); got != row.want {
				t.Errorf("message %q, want the clause %q", msg, row.want)
			}
		})
	}
	// Runs that do not share a thread: nothing, whatever was held.
	oneThread = false
	r := &run{q: &ffi.Instance{}, id: own, timeout: time.Second, deadline: now}
	thread.mu.Lock()
	thread.holds[0] = hold{own + 1, ms(-900), ms(100)}
	thread.mu.Unlock()
	if msg := r.timeoutResult().Error.Message; !regexp.MustCompile(`within 1s$`).MatchString(msg) {
		t.Errorf("natively: %q, want the timeout's own words", msg)
	}
}
