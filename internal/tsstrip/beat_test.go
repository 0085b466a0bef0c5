package tsstrip

import (
	"strings"
	"testing"
)

// TestPrepareBeats: Prepare calls Beat after its two longest passes over a large
// program (the GOOS=js core's sign of life: a worker's page replaced a
// worker whose preparation of a ~900 KB program was silent for over 5 s),
// and never over a small one, which pays nothing for it.
func TestPrepareBeats(t *testing.T) {
	n := 0
	Beat = func(owner float64) {
		if owner == 0 {
			n++
		}
	}
	defer func() { Beat = nil }()
	if _, err := Prepare("let x = 0;\nx += 1;\nreturn x"); err != nil || n != 0 {
		t.Fatalf("a small program: %d beats (err %v), want none", n, err)
	}
	big := "let x = 0;\n" + strings.Repeat("x += 1;\n", 20_000)
	for _, code := range []string{big + "return x", big + "x", "const y: number = 1;\n" + big + "x"} {
		n = 0
		if _, err := Prepare(code); err != nil || n != 2 {
			t.Errorf("%d bytes: %d beats (err %v), want one after each of its two longest passes", len(code), n, err)
		}
	}
}
