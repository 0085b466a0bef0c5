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
