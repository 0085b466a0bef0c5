package tsstrip

import (
	"strings"
	"testing"
)

// TestPrepareBeats: Prepare calls Beat after its two longest passes over a large
// program (the GOOS=js core's sign of life: a worker's page replaced a
// worker whose preparation of a ~900 KB program was silent for over 5 s),
// and along the tokenizer, every beatBytes of source (at load ~25 on 2
// cores a ~900 KB array literal's tokenizer alone was silent for over 5 s:
// two beats in all before), and never over a small one, which pays nothing
// for it.
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
	array := "const f = () => [" + strings.Repeat("1,", 450_000) + "];\nf.length"
	for _, code := range []string{big + "return x", big + "x", "const y: number = 1;\n" + big + "x", array} {
		n = 0
		if _, err := Prepare(code); err != nil || n < 2+len(code)/beatBytes {
			t.Errorf("%d bytes: %d beats (err %v), want one after each of its two longest passes and one per %d bytes along the tokenizer", len(code), n, err, beatBytes)
		}
	}
}
