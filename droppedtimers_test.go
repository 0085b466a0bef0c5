package codemode

import (
	"strings"
	"testing"
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
		warn bool
	}{
		{"setTimeout(() => console.log('late'), 50)", true},
		{"setInterval(() => 1, 5); await new Promise((r) => setTimeout(r, 20)); return 1", true},
		{"const t = setTimeout(() => 1, 1000); clearTimeout(t); return 1", false},
		{"let n = 0; const i = setInterval(() => n++, 5); await new Promise((r) => setTimeout(r, 30)); clearInterval(i); return n > 0", false},
		{"await new Promise((r) => setTimeout(r, 5)); return 1", false},
	} {
		res := exec(t, s, tc.code, nil)
		warned := false
		for _, l := range res.Logs {
			warned = warned || l.Level == "warn" && strings.Contains(l.Message, "callback(s) had not run when the program finished")
		}
		if warned != tc.warn {
			t.Errorf("%s: warned %v, want %v (%+v)", tc.code, warned, tc.warn, res.Logs)
		}
	}
}
