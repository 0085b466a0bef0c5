package trunc

import (
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdefghij", 8, "abcde…"},
		{"abcdefghij", 3, "…"},  // room for the mark only
		{"abcdefghij", 1, "…"},  // not even that: the mark alone
		{"abcdefghij", -5, "…"}, // a spent budget
		{"añb", 3, "…"},
		{"aéxyz", 5, "a…"},    // 2 bytes left for text: a, not half of é
		{"日本語テキスト", 9, "日本…"}, // 3-byte runes
	} {
		got := String(tc.s, tc.n)
		if got != tc.want {
			t.Errorf("String(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("String(%q, %d) = %q is not valid UTF-8", tc.s, tc.n, got)
		}
	}
}

func TestWords(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"fits as it is", 20, "fits as it is"},
		{"the quick brown fox jumps", 19, "the quick brown…"},
		{"the quick brown fox jumps", 17, "the quick…"},
		{"a verylongwordthatgoeson", 15, "a verylongwo…"}, // the only space is too early
		{"日本語 テキストです", 20, "日本語…"},
	} {
		got := Words(tc.s, tc.n)
		if got != tc.want {
			t.Errorf("Words(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
		if len(got) > max(tc.n, len(Mark)) || !utf8.ValidString(got) {
			t.Errorf("Words(%q, %d) = %q: over budget or not UTF-8", tc.s, tc.n, got)
		}
	}
}

// TestMore: a marker's count agrees with its noun: "1 more item" (the
// markers read "1 more items", "1 more frames", "1 more matching tools
// were left out").
func TestMore(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 more items"}, {1, "1 more item"}, {2, "2 more items"}, {19800, "19800 more items"}} {
		if got := More(tc.n, "item", "items"); got != tc.want {
			t.Errorf("More(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	if got := More(1, "matching tool was", "matching tools were"); got != "1 more matching tool was" {
		t.Errorf("More(1, verb) = %q", got)
	}
}

// TestCount: a message's count agrees with its words ("1 call(s) were
// still pending" was every warning's).
func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 calls were", 1: "1 call was", 3: "3 calls were"} {
		if got := Count(n, "call was", "calls were"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}
