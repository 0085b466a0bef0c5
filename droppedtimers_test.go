package codemode

import (
	"context"
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestDroppedTimersWarn: a program that ends with a timer whose callback
// never ran (setTimeout(...) as its last line gave the timer's id as the
// result and no word) is warned; one that cleared or awaited its timers
// is not.
func TestDroppedTimersWarn(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	for _, tc := range []struct {
		code string
		warn string // the warning's start, "" for none
	}{
		{"setTimeout(() => console.log('late'), 50)", "1 setTimeout or setInterval callback had not run when the program finished"},
		{"setInterval(() => 1, 5); await new Promise((r) => setTimeout(r, 20)); return 1", "1 setTimeout or setInterval callback had not run"},
		{"setTimeout(() => 1, 50); setTimeout(() => 2, 50); return 1", "2 setTimeout or setInterval callbacks had not run"},
		{"const t = setTimeout(() => 1, 1000); clearTimeout(t); return 1", ""},
		{"let n = 0; const i = setInterval(() => n++, 5); await new Promise((r) => setTimeout(r, 30)); clearInterval(i); return n > 0", ""},
		{"await new Promise((r) => setTimeout(r, 5)); return 1", ""},
	} {
		res := exec(t, s, tc.code, nil)
		warned := ""
		for _, l := range res.Logs {
			if l.Level == "warn" && strings.Contains(l.Message, "had not run when the program finished") {
				warned = l.Message
			}
		}
		if tc.warn == "" && warned != "" || !strings.HasPrefix(warned, tc.warn) {
			t.Errorf("%s: warned %q, want %q", tc.code, warned, tc.warn)
		}
	}
}

// TestClearedTimersLetGo: a timer cleared before it fired held its callback
// (and all it closed over) until its host wait ended, the whole delay: 200
// timers of 20 s closing over 50 KB each, set and cleared, left 94 of 254
// x 64 KB under a 16 MB limit. The wait's reaction now holds the timer's
// ids only.
func TestClearedTimersLetGo(t *testing.T) {
	holdsAsMuchAfter(t, []struct{ what, code string }{
		{"setTimeout", `for (let i = 0; i < 200; i++) { const big = "z".repeat(50000) + i; clearTimeout(setTimeout(() => big, 20000)) }`},
		{"setInterval", `for (let i = 0; i < 200; i++) { const big = "z".repeat(50000) + i; clearInterval(setInterval(() => big, 20000)) }`},
		{"a debounce", `let t; for (let i = 0; i < 200; i++) { const big = "z".repeat(50000) + i; clearTimeout(t); t = setTimeout(() => big, 20000) } clearTimeout(t)`},
		// A cleared timer's wait settles only once the program yields: each
		// held a host call and its promise (~400 bytes) until then, and this
		// loop ended MEMORY_LIMIT; at most 2,000 waits are outstanding now.
		{"1e5 timers set and cleared without yielding", `for (let i = 0; i < 1e5; i++) clearTimeout(setTimeout(() => {}, 20000))`},
	})
}

// holdsAsMuchAfter runs each row's code, then in the same run holds 64 KB
// strings until QuickJS refuses one under a 16 MB limit: as many as a run
// that did nothing before (8 fewer at most), or the code kept what it let go of.
func holdsAsMuchAfter(t *testing.T, rows []struct{ what, code string }) {
	t.Helper()
	capacity := `const held = []; let n = 0; try { for (;;) { held.push("x".repeat(65536) + n); n++ } } catch (e) { return n }`
	s := mustSession(t, newTestCodeMode(t, Config{MemoryLimitMB: 16, Timeout: time.Minute}))
	base := exec(t, s, capacity, nil)
	var before int
	if err := json.Unmarshal(base.Result, &before); err != nil || before < 200 {
		t.Fatalf("capacity alone: %s %+v", base.Result, base.Error)
	}
	for _, tc := range rows {
		res := exec(t, s, tc.code+"\n"+capacity, nil)
		var after int
		if err := json.Unmarshal(res.Result, &after); err != nil || after < before-8 {
			t.Errorf("%s: %s x 64 KB held after (%+v), %d before", tc.what, res.Result, res.Error, before)
		}
	}
}

// TestTimerClearedBeforeItsWait: clearTimeout is a sync host call, the wait
// an async one on a goroutine, which under GOOS=js starts only after the
// program's clearTimeout: the clear found no wait to end, and the wait
// then slept its whole delay, holding its call's promise and one of the
// 1,000 pending slots. A wait for a timer already cleared ends at once.
func TestTimerClearedBeforeItsWait(t *testing.T) {
	for _, tc := range []struct {
		what      string
		clearID   string // cleared before the wait starts; "" for none
		waitID    string
		ms        string
		wantEarly bool // the wait ends long before ms
	}{
		{"cleared before", "7", "7", "3600000", true},
		{"another timer cleared", "8", "7", "1", false},
		{"not cleared", "", "7", "1", false},
	} {
		var tm timers
		if tc.clearID != "" {
			tm.clear([]json.RawMessage{json.RawMessage(tc.clearID)})
		}
		done := make(chan error, 1)
		go func() {
			_, err := tm.sleep(context.Background(), []json.RawMessage{json.RawMessage(tc.waitID), json.RawMessage(tc.ms)})
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s: %v", tc.what, err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("%s: the wait of %s ms did not end (early %v)", tc.what, tc.ms, tc.wantEarly)
		}
	}
}

// TestClearedTimersHoldLittle: the host kept every cleared timer's id in a
// map for the run (a program that set and cleared 1e6 timers held ~40 MB of
// the page's memory); a bit each now. Ids are the prelude's sequence.
func TestClearedTimersHoldLittle(t *testing.T) {
	var before, after runtime.MemStats
	var tm timers
	runtime.GC()
	runtime.ReadMemStats(&before)
	for id := 1; id <= 1_000_000; id++ {
		tm.clear([]json.RawMessage{json.RawMessage(strconv.Itoa(id))})
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 4<<20 {
		t.Errorf("1e6 cleared timers hold %d bytes", grew)
	}
	// dropped counts the waits given that were not cleared.
	pending := func(ids ...string) [][]json.RawMessage {
		var out [][]json.RawMessage
		for _, id := range ids {
			out = append(out, []json.RawMessage{json.RawMessage(id), json.RawMessage("1000")})
		}
		return out
	}
	if w := tm.dropped(pending("1", "500000", "1000000")); w != "" {
		t.Errorf("cleared timers reported as dropped: %q", w)
	}
	if w := tm.dropped(pending("0", "1000001", "-1")); !strings.HasPrefix(w, "3 setTimeout or setInterval callbacks had not run") {
		t.Errorf("timers never cleared: %q", w)
	}
	runtime.KeepAlive(&tm)
}

// TestTimersAfterManyCleared: past 256 cleared waits not yet settled, a
// timer waits for one to settle before it has a host wait (prelude/
// timers.js parked); the timers armed so still fire, in the order they
// are due, intervals repeat, and clearing a parked one stops it.
func TestTimersAfterManyCleared(t *testing.T) {
	s := mustSession(t, newTestCodeMode(t, Config{Timeout: time.Minute}))
	for _, tc := range []struct{ what, code, want string }{
		{"one-shot timers in due order", `for (let i = 0; i < 1e4; i++) clearTimeout(setTimeout(() => {}, 1000))
const seen = []; for (const ms of [30, 10, 20, 0, 10]) setTimeout(() => seen.push(ms), ms)
await new Promise((r) => setTimeout(r, 60)); return seen`, `[0,10,10,20,30]`},
		// Waited for by the interval's third tick, not by a 60 ms timer:
		// on a loaded machine each of the host's waits ended tens of ms late
		// and the interval had ticked once or twice by then. The third tick
		// is due after the cleared timer (10 ms), and timers fire in due
		// order: had it not been cleared, it would have set n first.
		{"an interval and a parked timer cleared", `for (let i = 0; i < 1e4; i++) clearTimeout(setTimeout(() => {}, 1000))
let n = 0, third; const ticked = new Promise((r) => { third = r })
const iv = setInterval(() => { if (++n === 3) third() }, 5); const gone = setTimeout(() => { n = -1e9; third() }, 10); clearTimeout(gone)
await ticked; clearInterval(iv); return n`, `3`},
		{"1000 timers at once after the loop", `for (let i = 0; i < 1e4; i++) clearTimeout(setTimeout(() => {}, 1000))
let n = 0; for (let i = 0; i < 999; i++) setTimeout(() => n++, i % 7)
await new Promise((r) => setTimeout(r, 50)); return n`, `999`},
	} {
		res := exec(t, s, tc.code, nil)
		if string(res.Result) != tc.want {
			t.Errorf("%s: %s (%+v), want %s", tc.what, res.Result, res.Error, tc.want)
		}
	}
}
